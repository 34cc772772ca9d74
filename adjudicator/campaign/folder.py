"""A campaign folder: its settings, its turns and their files (design 4).

    CAMPAIGN/campaign.yaml        game, options, players, password hashes, seed commitment
    CAMPAIGN/gm/seed.yaml         the secret seed (GM only)
    CAMPAIGN/gm/passwords.yaml    generated passwords (GM only)
    CAMPAIGN/turn-000/            setup.json, state.json, reports/, manifest.json
    CAMPAIGN/turn-NNN/orders/     order files as received
    CAMPAIGN/turn-NNN/            results.json, state.json, reports/, manifest.json once adjudicated
    CAMPAIGN/reveal.yaml          the seed, published by `pbem reveal` after the game
"""

from __future__ import annotations

import datetime as dt
import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .. import games
from ..games.base import Game, State
from . import auth

PLAYER_ID = re.compile(r"[a-z][a-z0-9_-]{0,39}\Z")

TURN_FOLDER = re.compile(r"turn-([0-9]+)\Z")
"""Anything named like a turn folder; `turn_name` gives the one spelling pbem writes."""

EXPORT_FILE = "export.json"
"""In a copy made by `pbem export` (campaign/export.py): what the copy changed, and the passwords' verdicts."""

DEADLINE_FILE = "deadline.json"
"""The next turn's deadline as the schedule gave it when the turn was adjudicated: an input of
the turn, recorded so that a later change of the schedule (an extension) never changes what
an old report said."""

ADJUDICATED_FILE = "adjudicated.json"
"""The moment the judge's tick adjudicated the turn (`{"at": ISO 8601 in UTC}`), its `now` (the clock
seam, `--now`): an input of the turn, so that a replay needs no clock. Read where the judge's mail must
say when the turn happened (a late order's reply, the report's mail to the player whose orders settled
it, the time a preview was held). A turn adjudicated by hand (`pbem adjudicate`) records none: run
again after a kill, it must write the very same bytes."""

ADJUDICATION_FILES = ("manifest.json", "state.json", "results.json", DEADLINE_FILE, ADJUDICATED_FILE, "reports")
"""What an adjudicated turn folder holds and a pending one never does."""


class CampaignError(ValueError):
    """The folder is not a usable campaign; the message says why."""


class SigningUp(CampaignError):
    """The campaign is open for sign-up (campaign/signup.py): it has no turn until the game starts."""

    def __init__(self, campaign: "Campaign") -> None:
        section = campaign.config["signup"]
        seats = section.get("seats", "?")
        super().__init__(
            f"{campaign.root} is signing up ({len(campaign.config['players'])} of {seats} seats taken): it has no turn "
            "until the game starts (when the last seat is filled, or by pbem start; pbem status shows who joined)"
        )


def turn_name(turn: int) -> str:
    return f"turn-{turn:03d}"


def dump_json(value: Any) -> bytes:
    """The one JSON form of every file we write: sorted keys, one line, stable across runs.

    Compact on purpose: Python's C encoder only serves unindented output, and the
    indented form made writing a 10,000-player turn's state and results a quarter
    of its cost. `python3 -m json.tool FILE` or jq shows a file indented."""
    return (json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def dump_yaml(value: Any) -> bytes:
    return yaml.safe_dump(value, sort_keys=False, allow_unicode=True, default_flow_style=False).encode("utf-8")


def rewrite_config(path: Path, changes: dict[str, Any]) -> bytes:
    """campaign.yaml with the top-level keys in `changes` set (None: removed) and every other byte as the GM
    wrote it: comments, quoting, order (design 15: campaign.yaml stays the GM's file). A key whose old and new
    values are both mappings is changed entry by entry, and a list (the players) item by item, so the comments
    beside what stays, stay: a seat handed over rewrites that seat's lines alone."""
    import io

    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import SingleQuotedScalarString
    from ruamel.yaml.util import load_yaml_guess_indent

    text = path.read_text(encoding="utf-8")
    _, indent, offset = load_yaml_guess_indent(text)  # the GM's own indentation of lists, kept
    handler = YAML(typ="rt")
    handler.preserve_quotes = True
    handler.width = 4096
    handler.indent(mapping=2, sequence=indent or 2, offset=offset or 0)
    data = handler.load(text)
    if not isinstance(data, CommentedMap):
        raise CampaignError(f"{path}: not a mapping of settings")

    def safe(value: Any) -> Any:
        """New text as every reader takes it: quoted where YAML 1.1 (PyYAML's) would read it as something else (`on`)."""
        if isinstance(value, dict):
            return {safe(k): safe(v) for k, v in value.items()}
        if isinstance(value, list):
            return [safe(v) for v in value]
        if isinstance(value, str):
            try:
                plain = yaml.safe_load(value) == value
            except yaml.YAMLError:
                plain = False
            return value if plain else SingleQuotedScalarString(value)
        return value

    def merged(old: Any, value: Any) -> Any:
        """`old` changed in place into `value` where both are mappings or both lists; else `value`."""
        if isinstance(old, CommentedMap) and isinstance(value, dict):
            after = _comment_after(old)
            for key in [k for k in old if k not in value]:
                del old[key]
            for key, item in value.items():
                if key not in old or old[key] != item:
                    if (new := merged(old.get(key), item)) is not old.get(key):
                        old[key] = new
            _put_comment_after(old, after)
            return old
        if isinstance(old, CommentedSeq) and isinstance(value, list):
            del old[len(value):]
            for index, item in enumerate(value):
                if index == len(old):
                    old.append(item)
                elif old[index] != item and (new := merged(old[index], item)) is not old[index]:
                    old[index] = new
            return old
        return value

    for key, value in safe(changes).items():
        if value is None:
            data.pop(key, None)
        elif (new := merged(data.get(key), value)) is not data.get(key):
            data[key] = new
    out = io.StringIO()
    handler.dump(data, out)
    return out.getvalue().encode("utf-8")


def _comment_after(node: Any) -> Any:
    """The comment lines below a mapping's last line, taken off it (a comment token, or None). ruamel
    keeps them on the mapping's last key, though they belong to what follows (`# Sue plays from
    Lisbon` above the next seat): left there, they would go with that key when it is removed, or sit
    above a key added after it."""
    from ruamel.yaml.tokens import CommentToken

    last = next(reversed(node), None) if node else None
    slot = node.ca.items.get(last) if last is not None else None
    token = slot[2] if slot and len(slot) > 2 else None
    if token is None:
        return None
    value = token.value
    own = value[: value.index("\n") + 1] if value.startswith("#") and "\n" in value else ("\n" if value.startswith("\n") else "")
    if not value[len(own):]:
        return None
    slot[2] = CommentToken(own, token.start_mark, token.end_mark) if own.startswith("#") else None
    token.value = "\n" + value[len(own):]
    return token


def _put_comment_after(node: Any, token: Any) -> None:
    """A token from _comment_after back under the mapping's last line, whichever key that now is."""
    if token is None or not node:
        return
    slot = node.ca.items.setdefault(next(reversed(node)), [None, None, None, None])
    if slot[2] is not None:
        slot[2].value += token.value[1:]
    else:
        slot[2] = token


def read_yaml(path: Path) -> Any:
    """GM-written files (campaign.yaml, gm/): trusted, but still loaded safely."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with open(path, "rb") as handle:
        return yaml.load(handle, Loader=loader)


RESTORE = "the campaign cannot be read until it is restored (from a backup, or by `git checkout` if it is kept in git)"

STATE_FIELDS: dict[str, type] = {"players": list}
"""What a turn's state.json is checked for when read: cheaply, since a large campaign's state is
large and read on every command; the game's own fields are the game's business."""

SETUP_FIELDS: dict[str, type] = {"name": object, "players": list, "options": dict, "seed_commitment": str, "passwords": object}
"""What turn-000/setup.json must hold (turn.new_setup writes it)."""

_KINDS = {dict: "an object", list: "a list", str: "a text", int: "a number", float: "a number", bool: "true or false"}


def damaged(path: Path, what: str) -> CampaignError:
    """The one message for a file of the campaign that cannot be used: which file, what is wrong, what follows."""
    return CampaignError(f"{path} is damaged ({what}); {RESTORE}")


def _unreadable(path: Path, exc: BaseException, form: str) -> CampaignError:
    """A failed read or parse of one of the campaign's own files, in words. Other system errors
    (a failing disk) are not damage to the file and are left to the caller, which names them."""
    if isinstance(exc, FileNotFoundError):
        return CampaignError(f"{path} is missing; {RESTORE}")
    if isinstance(exc, IsADirectoryError):
        return damaged(path, "a folder where the file should be")
    if isinstance(exc, UnicodeDecodeError):
        return damaged(path, f"not {form}: not UTF-8 text at byte {exc.start}")
    if isinstance(exc, RecursionError):
        return damaged(path, f"not {form}: nested too deeply")
    if isinstance(exc, json.JSONDecodeError) and not exc.doc.strip():
        return damaged(path, "it is empty")
    detail = " ".join(str(exc).split()) or type(exc).__name__  # YAML's messages span lines: one line for a log
    return damaged(path, f"not {form}: {detail}")


def _kind(value: Any) -> str:
    return "null" if value is None else _KINDS.get(type(value), type(value).__name__)


def _check_fields(path: Path, value: Any, fields: dict[str, type], whole: str) -> dict[str, Any]:
    """Only the top level: `whole` (an object, a mapping), with each named field of its kind."""
    if not isinstance(value, dict):
        raise damaged(path, f"{_kind(value)} where {whole} should be")
    for key, kind in fields.items():
        if key not in value:
            raise damaged(path, f'it has no "{key}"')
        if kind is not object and not isinstance(value[key], kind):
            raise damaged(path, f'"{key}" is {_kind(value[key])} where {_KINDS.get(kind, kind.__name__)} should be')
    return value


def read_json_object(path: Path, fields: dict[str, type] | None = None) -> dict[str, Any]:
    """A JSON file the adjudicator wrote into the campaign (a turn's state, the setup record), as an
    object with `fields`; a missing, unreadable or misshapen file raises CampaignError naming it.
    The normal path costs no more than the read and the parse."""
    try:
        value = json.loads(path.read_bytes().decode("utf-8"))
    except (ValueError, RecursionError, FileNotFoundError, IsADirectoryError) as exc:  # JSON's and UTF-8's errors are ValueErrors
        raise _unreadable(path, exc, "valid JSON") from None
    return _check_fields(path, value, fields or {}, "an object")


def read_yaml_object(path: Path, fields: dict[str, type] | None = None) -> dict[str, Any]:
    """A YAML file the GM keeps in the campaign (gm/seed.yaml, reveal.yaml), as a mapping with `fields`;
    damage raises CampaignError naming the file, as for read_json_object."""
    try:
        value = read_yaml(path)
    except (yaml.YAMLError, ValueError, RecursionError, FileNotFoundError, IsADirectoryError) as exc:  # a huge integer is a ValueError
        raise _unreadable(path, exc, "valid YAML") from None
    if value is None:  # YAML reads an empty file (or only comments) as null
        raise damaged(path, "it is empty")
    return _check_fields(path, value, fields or {}, "a mapping (key: value lines)")


_LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")

_JOINERS = frozenset("\u200c\u200d")
"""Zero-width non-joiner and joiner: invisible format characters that Persian, the Indic scripts
and emoji sequences need inside a name. Every other format character (category Cf: the
zero-width space U+200B, the marks and overrides that reorder text, U+200F, the BOM) is refused:
it would make a name look like another one, or a line read differently from what it says."""

_IGNORED_IN_COMPARISON = _JOINERS | frozenset("\u034f\u115f\u1160\u3164\uffa0") | frozenset(map(chr, range(0xFE00, 0xFE10)))
"""Characters that do not show (the joiners, the combining grapheme joiner, the Hangul fillers,
variation selectors): left out when two names are compared, so they cannot tell two seats apart."""


def plain_name(text: str, what: str) -> str:
    """A campaign's or a player's name as one line of visible text: leading and trailing spaces
    dropped and runs of spaces made one; a line break, a control character, an invisible format
    character or a lone surrogate is refused, naming what it is (`what`: "the display name of 'sue'")."""
    if text.isascii() and text.isprintable():  # the usual name, checked without a lookup per character
        cleaned = " ".join(text.split())
        if not cleaned:
            raise CampaignError(f"{what} is empty")
        return cleaned
    for char in text:
        code = f"U+{ord(char):04X}"
        if char in _LINE_BREAKS:
            raise CampaignError(f"{what} holds a line break ({code}); a name is one line of plain text")
        category = unicodedata.category(char)
        if category in ("Cc", "Cs"):
            raise CampaignError(f"{what} holds a control character ({code}); a name is one line of plain text")
        if category == "Cf" and char not in _JOINERS:
            raise CampaignError(f"{what} holds an invisible formatting character ({code}); a name is plain visible text")
    cleaned = " ".join(text.split())
    if not name_key(cleaned):
        raise CampaignError(f"{what} is empty")
    return cleaned


def name_key(name: str) -> str:
    """What two names are compared by: NFKC-normalised and case-folded (José in either Unicode
    form, Ｂｏｂ and bob are the same name), with the characters that do not show left out."""
    if name.isascii():  # NFKC leaves ASCII as it is
        return " ".join(name.lower().split())
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join("".join(c for c in folded if c not in _IGNORED_IN_COMPARISON).split())


def _taken(name: str, seat: str, what: str, owner: str, taken: str) -> CampaignError:
    """The refusal of a name another seat has, worded for a name written the same and for one alike."""
    alike = "" if name == taken else f" (written '{taken}' there; names are compared without case, accents, letter width or invisible characters)"
    return CampaignError(f"'{name}' (for '{seat}') is already the {what} of '{owner}'{alike}: each player needs a name of their own")


RESERVED_NAMES = frozenset({"all", "anonymous", "to", "from", "everyone", "everybody"})
"""Words the press command gives a meaning of its own (`press all`, `press anonymous TO...`, `press to
bob`, the Subject `press from ...`): a seat named so would take press meant for everyone (issue 26.15)."""


def not_reserved(name: str, what: str) -> str:
    """`name`, refused (CampaignError) when it is one of RESERVED_NAMES in any case or width."""
    if name_key(name) in RESERVED_NAMES:
        raise CampaignError(
            f"{what} '{name}' is a word players write to the judge ({', '.join(sorted(RESERVED_NAMES))}: "
            "press all means every player); choose another"
        )
    return name


def display_name(name: str, seat: str, others: list[dict[str, Any]]) -> str:
    """A seat's display name, checked as `plain_name` checks it and against the other seats: not
    the name or the id of another seat once normalised by `name_key` (orders name players by
    either, case-insensitively: two alike would make an order ambiguous and two players look
    the same in every report)."""
    cleaned = not_reserved(plain_name(name, f"the display name of '{seat}'"), f"the display name of '{seat}'")
    key = name_key(cleaned)
    for other in others:
        if other["id"] == seat:
            continue
        alike = [(what, taken) for what, taken in (("id", other["id"]), ("display name", str(other.get("name", other["id"]))))
                 if key == name_key(taken)]
        if alike:  # the one written the same, when there is one: 'Alice' is Alice's name, not "alike" her id 'alice'
            what, taken = next((pair for pair in alike if pair[1] == cleaned), alike[0])
            raise _taken(cleaned, seat, what, other["id"], taken)
    return cleaned


def distinct_names(players: list[dict[str, Any]]) -> None:
    """Every seat's display name its own, as `display_name` checks one, in one pass over the seats
    (a campaign of 10,000 players is created and opened without comparing every pair)."""
    owners: dict[str, tuple[str, str, str]] = {p["id"]: (p["id"], "id", p["id"]) for p in players}
    for entry in players:
        owner, what, taken = owners.setdefault(name_key(entry["name"]), (entry["id"], "display name", entry["name"]))
        if owner != entry["id"]:
            raise _taken(entry["name"], entry["id"], what, owner, taken)


FIX_SETTINGS = "fix campaign.yaml and run the command again (nothing was changed)"


def _check_names(players: list[dict[str, Any]], path: Path) -> None:
    """The display names of campaign.yaml, as `pbem new` and `pbem replace` check them (a hand edit
    must not bring back what they refuse)."""
    for entry in players:
        seat, name = entry["id"], entry.get("name")
        if not isinstance(name, str):
            raise CampaignError(f"{path}: the entry of '{seat}' has no display name (name:); {FIX_SETTINGS}")
        try:
            plain_name(name, f"the display name of '{seat}'")
        except CampaignError as exc:
            raise CampaignError(f"{path}: {exc}; {FIX_SETTINGS}") from None
    try:
        distinct_names(players)
    except CampaignError as exc:
        raise CampaignError(f"{path}: {exc}; {FIX_SETTINGS}") from None


def _turn_number(value: Any) -> int | None:
    """A turn number as campaign.yaml must give it (a whole number from 1), or None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else None


def _check_seat(entry: dict[str, Any], path: Path, passwords: bool) -> None:
    """A seat's entry as `pbem replace` writes it: `since` (the first turn of its holder), and a
    `history` of earlier holders that covers turns 1 to since-1 in order, each with its password
    hash in a campaign with passwords. A typo here would make a player's right password wrong,
    or their file uncheckable, and count them as NMR: it is refused before any turn is read."""
    seat = entry["id"]
    where = f"{path}: the entry of '{seat}'"
    since = entry.get("since", 1)
    if _turn_number(since) is None:
        raise CampaignError(f"{where}: since is '{since}', not a turn number (1 or more); {FIX_SETTINGS}")
    history = entry.get("history") or []
    if not isinstance(history, list) or not all(isinstance(h, dict) for h in history):
        raise CampaignError(f"{where}: history is not a list of earlier players (name, from, to); {FIX_SETTINGS}")
    holders = [*history, entry]
    expected = 1
    for number, held in enumerate(history, 1):
        to = held.get("to")
        first, last = _turn_number(held.get("from")), 0 if type(to) is int and to == 0 else _turn_number(to)
        if first is None or last is None or first > last + 1:  # to = from - 1: a player who left before playing a turn
            raise CampaignError(
                f"{where}: history entry {number} has from '{held.get('from')}' and to '{held.get('to')}', "
                f"not the turns of its player (from a turn number to a later or the same one, or to the turn "
                f"before it for a player who left before playing); {FIX_SETTINGS}"
            )
        if first != expected:
            raise CampaignError(
                f"{where}: history entry {number} starts at turn {first}, but turn {expected} is the first turn it can "
                f"start at (the history must cover turns 1 to since-1 in order); {FIX_SETTINGS}"
            )
        expected = last + 1
    if expected != since:
        covered = f"covers turns 1 to {expected - 1}" if expected > 1 else "is empty"
        raise CampaignError(
            f"{where}: since is {since} but the history {covered}; it must say who held the seat for each turn "
            f"before {since}, one player after another from turn 1; {FIX_SETTINGS}"
        )
    if passwords:
        for held in holders:
            if not auth.well_formed(held.get("password")):
                whose = "the current player" if held is entry else f"history entry {holders.index(held) + 1}"
                raise CampaignError(
                    f"{where}: {whose} has {'no password hash' if not held.get('password') else 'a password hash that is damaged'} "
                    f"(password: scrypt$...), though this campaign uses passwords; no file of theirs could be accepted; {FIX_SETTINGS}"
                )


def _and(names: list[str]) -> str:
    """`turn-004`, `turn-004 and turn-005`, `turn-004, turn-005, turn-006 and 7 more`."""
    if len(names) > 4:
        return f"{', '.join(names[:3])} and {len(names) - 3} more"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _check_ids(ids: list[Any], path: Path) -> None:
    """Player ids name files (orders/<id>.yaml, reports/<id>.txt, mail/.../<id>/): one that could
    reach outside its folder, or two alike, make the campaign unusable rather than unsafe."""
    for player_id in ids:
        if not isinstance(player_id, str) or not PLAYER_ID.match(player_id):
            shown = str(player_id)[:40]
            raise CampaignError(
                f"{path}: '{shown}' cannot be a player id: use lowercase letters, digits, - and _, starting with a letter"
            )
    if len(set(ids)) != len(ids):
        raise CampaignError(f"{path}: a player id is listed twice")


@dataclass
class Campaign:
    root: Path
    config: dict[str, Any]
    game: Game

    @classmethod
    def open(cls, root: Path | str) -> "Campaign":
        root = Path(root)
        path = root / "campaign.yaml"
        if not path.is_file():
            raise CampaignError(f"{root} is not a campaign folder: it has no campaign.yaml (create one with pbem new)")
        try:
            config = read_yaml(path)
        except (yaml.YAMLError, ValueError, RecursionError) as exc:  # a 5,000-digit integer is a ValueError
            raise CampaignError(f"{path} is not valid YAML: {exc}") from None
        if not isinstance(config, dict) or "game" not in config or "players" not in config:
            raise CampaignError(f"{path} lacks the fields game and players")
        players = config["players"]
        if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
            raise CampaignError(f"{path}: players is not a list of entries (id, name, ...); {FIX_SETTINGS}")
        _check_ids([p.get("id") for p in players], path)
        _check_names(players, path)
        name = config.get("name")
        if name is not None:
            try:
                plain_name(str(name), "the campaign name (name:)")
            except CampaignError as exc:
                raise CampaignError(f"{path}: {exc}; {FIX_SETTINGS}") from None
        # An export keeps no password hashes (pbem export): its export.json says which passwords were right.
        passwords = bool(config.get("passwords", True)) and not (Path(root) / EXPORT_FILE).is_file()
        for entry in players:
            _check_seat(entry, path, passwords)
        try:
            game = games.get(str(config["game"]))
        except games.UnknownGame as exc:
            raise CampaignError(f"{path}: {exc}") from None
        campaign = cls(root, config, game)
        campaign._check_seats_of_the_game()
        return campaign

    def _check_seats_of_the_game(self) -> None:
        """campaign.yaml has one entry for each seat that `pbem new` dealt (turn-000/setup.json), no
        more and no fewer: a deleted entry would make its player's every file fail its password."""
        if not (self.turn_dir(0) / "setup.json").is_file():
            return  # no opening: last_turn says so to the commands that need one
        seats = [p["id"] for p in self.setup_record()["players"]]
        listed = {p["id"] for p in self.config["players"]}
        lost = [seat for seat in seats if seat not in listed]
        if lost:
            raise CampaignError(
                f"{self.root / 'campaign.yaml'}: the seat{'s' if len(lost) > 1 else ''} {', '.join(lost)} of this campaign "
                f"(turn-000/setup.json) {'have' if len(lost) > 1 else 'has'} no entry in players; every seat needs its entry "
                f"(id, name, email, password); {FIX_SETTINGS}"
            )
        extra = sorted(listed - set(seats))
        if extra:
            raise CampaignError(
                f"{self.root / 'campaign.yaml'}: {', '.join(extra)} {'are' if len(extra) > 1 else 'is'} listed in players but "
                f"{'are not seats' if len(extra) > 1 else 'is not a seat'} of this campaign (turn-000/setup.json); {FIX_SETTINGS}"
            )

    # -- players ------------------------------------------------------------

    @property
    def players(self) -> list[dict[str, Any]]:
        return list(self.config["players"])

    def player(self, player_id: str) -> dict[str, Any] | None:
        return next((p for p in self.config["players"] if p["id"] == player_id), None)

    @property
    def uses_passwords(self) -> bool:
        return bool(self.config.get("passwords", True))

    def holder(self, player_id: str, turn: int | None = None) -> dict[str, Any] | None:
        """Who held the seat for `turn` (None: the current holder): name, email, password hash, from, to.

        `pbem replace` moves an outgoing player into the seat's `history` with the
        turns they played, so old turns still check against the passwords of their day.
        """
        entry = self.player(player_id)
        if entry is None:
            return None
        since = int(entry.get("since", 1))
        if turn is None or turn >= since:
            current = {k: v for k, v in entry.items() if k not in ("history", "since", "id")}
            return {**current, "from": since, "to": None}
        for past in entry.get("history") or []:
            if int(past["from"]) <= turn <= int(past["to"]):
                return dict(past)
        return None

    def email(self, player_id: str, turn: int | None = None) -> str | None:
        holder = self.holder(player_id, turn)
        return str(holder["email"]) if holder and holder.get("email") else None

    def password_ok(self, player_id: str, password: str, turn: int | None = None) -> bool:
        """Whether `password` is the password of whoever held the seat for `turn` (None: now)."""
        holder = self.holder(player_id, turn)
        return bool(holder and holder.get("password") and auth.verify(password, holder["password"]))

    def as_filed(self, turn: int, name: str, data: bytes) -> str | None:
        """The SHA-256 of order file `name` of `turn` as it was filed, when the bytes read are not those
        (an export took the password out); None in a campaign, whose files are as filed."""
        return None

    def recorded_rejection(self, turn: int, source: str) -> tuple[str, list[tuple[str, str]]] | None:
        """How an export recorded the order file `source` (`orders/tony.yaml`) of `turn` was refused when
        it still held its password: (the player, [(where, what)]); None in a campaign, which checks its files."""
        return None

    @property
    def gm_email(self) -> str | None:
        return str(self.config["gm_email"]) if self.config.get("gm_email") else None

    @property
    def site_base_url(self) -> str | None:
        """`site: base_url:` (docs/archive.md): where the archive is published, ending in `/`; None when unset."""
        site = self.config.get("site") or {}
        url = site.get("base_url") if isinstance(site, dict) else None
        if not url:
            return None
        url = str(url)
        if any(c.isspace() or c in "()<>\"'" for c in url):
            raise CampaignError(f"{self.root / 'campaign.yaml'}: site: base_url: '{url}' cannot hold spaces, quotes, brackets or parentheses (write them %-encoded)")
        return url if url.endswith("/") else url + "/"

    @property
    def schedule(self) -> dict[str, Any] | None:
        return self.config.get("schedule") or None

    # -- turns ----------------------------------------------------------------

    def turn_dir(self, turn: int) -> Path:
        return self.root / turn_name(turn)

    def is_adjudicated(self, turn: int) -> bool:
        return (self.turn_dir(turn) / "manifest.json").is_file()

    def adjudicated_at(self, turn: int) -> dt.datetime | None:
        """The moment turn `turn` was adjudicated, as it recorded it (ADJUDICATED_FILE); None when it has none."""
        path = self.turn_dir(turn) / ADJUDICATED_FILE
        if not self.is_adjudicated(turn) or not path.is_file():
            return None
        try:
            at = dt.datetime.fromisoformat(json.loads(path.read_bytes())["at"])
        except (ValueError, KeyError, TypeError):
            raise damaged(path, "not the moment of an adjudication ({\"at\": an ISO 8601 time})") from None
        if at.tzinfo is None:
            raise damaged(path, "the moment has no UTC offset")
        return at

    @property
    def last_turn(self) -> int:
        """The last adjudicated turn (0 is the opening written by pbem new).

        Every command reads it, so it is where a campaign whose turns are not a clean chain is
        refused (a turn's manifest deleted, a turn folder missing between two others): a command
        that took the first turn without a manifest for the pending one would file orders into
        an adjudicated turn, or adjudicate it again."""
        turn = 0
        while self.is_adjudicated(turn + 1):
            turn += 1
        if not self.is_adjudicated(0):
            if isinstance(self.config.get("signup"), dict):  # campaign/signup.py: open, not dealt yet
                raise SigningUp(self)
            raise CampaignError(f"{self.root} has no adjudicated opening (turn-000/manifest.json)")
        broken = self.chain_break(turn)
        if broken is not None:
            raise CampaignError(
                f"{self.root}: its turns are not a clean chain: {broken[1]}. No command changes this campaign until the "
                "turn folders are restored (from a backup, or by `git checkout` if it is kept in git) or the stray folder is moved out"
            )
        return turn

    def chain_break(self, last: int, over: bool = False) -> tuple[int, str] | None:
        """Where the turn folders stop being a clean chain after turns 0..`last` (all with a manifest):
        (the turn concerned, what is wrong), or None.

        After `last` the only turn folder allowed is the pending turn, `last`+1, holding nothing an
        adjudication writes (only orders/ and seats.yaml), and none at all once the game is `over`;
        a folder named like a turn but spelt otherwise (`turn-3`) is wrong too. Dot-named entries
        (`.turn-003.new`, `.lock`) are run-time files, not turns."""
        later: dict[int, str] = {}
        for entry in sorted(self.root.iterdir(), key=lambda p: p.name):
            match = TURN_FOLDER.match(entry.name)
            if match is None:
                continue
            number = int(match.group(1))
            if entry.name != turn_name(number):
                return number, f"{entry.name} is named like a turn folder but not as pbem names them ({turn_name(number)}); pbem does not read it as a turn"
            if number > last:
                later[number] = entry.name
        pending = last + 1
        if over and later:
            first = min(later)
            return first, f"{later[first]} exists, but the replayed game ended with turn {last}: no turn can follow the last one"
        name = turn_name(pending)
        if pending in later:
            folder = self.root / name
            if not folder.is_dir():
                return pending, f"{name} is not a folder"
            written = sorted(f + "/" if (folder / f).is_dir() else f for f in ADJUDICATION_FILES if (folder / f).exists())
            if written:
                return pending, (
                    f"{name} has no manifest.json, yet holds what an adjudication writes ({', '.join(written)}): "
                    "the turn was cut off or its manifest removed"
                )
        after = sorted(n for n in later if n > pending)
        if after:
            names = _and([later[n] for n in after])
            if pending not in later:
                return pending, f"{name} is missing, but {names} {'follows' if len(after) == 1 else 'follow'} it: a turn is missing from the campaign"
            return after[0], (
                f"{names} {'comes' if len(after) == 1 else 'come'} after the pending turn {name}, "
                "which has not been adjudicated (it has no manifest.json)"
            )
        return None

    def recorded_nmr(self, turn: int) -> list[str]:
        """The due seats of settled turn `turn` without accepted orders, as the turn's verdict recorded them
        (results.json): a rejected file is an NMR as much as a missing one. The stand-in's seats are in it
        only where its file was refused; the GM's digest and the report mail ask this one answer."""
        return sorted(seat for seat, sub in self._recorded_submissions(turn).items() if sub.get("status") != "accepted")

    def recorded_due(self, turn: int) -> list[str]:
        """The seats due in settled turn `turn`, as its verdict recorded them (results.json), in seat order."""
        return list(self._recorded_submissions(turn))

    def _recorded_submissions(self, turn: int) -> dict[str, Any]:
        return self.recorded_results(turn).get("submissions", {})

    def recorded_results(self, turn: int) -> dict[str, Any]:
        """Settled turn `turn`'s verdict as its results.json records it: each due seat's submission, the
        stand-in's seats, the resolution (docs/json-output.md)."""
        return json.loads((self.turn_dir(turn) / "results.json").read_bytes())

    def state(self, turn: int | None = None) -> State:
        turn = self.last_turn if turn is None else turn
        return read_json_object(self.turn_dir(turn) / "state.json", STATE_FIELDS)

    def setup_record(self) -> dict[str, Any]:
        path = self.turn_dir(0) / "setup.json"
        if not path.is_file() and isinstance(self.config.get("signup"), dict):
            raise SigningUp(self)
        record = read_json_object(path, SETUP_FIELDS)
        players = record["players"]
        if not all(isinstance(p, dict) and "name" in p for p in players):
            raise damaged(path, "an entry of \"players\" is not an object with an id and a name")
        _check_ids([p.get("id") for p in players], path)
        return record

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state())

    def seed(self) -> str | None:
        """The seed from the reveal (anyone) or from gm/ (the GM); None if neither is here."""
        for path in (self.root / "reveal.yaml", self.root / "gm" / "seed.yaml"):
            if path.is_file():
                seed = read_yaml_object(path, {"seed": object})["seed"]
                if seed is None or isinstance(seed, (dict, list)):
                    raise damaged(path, f'"seed" is {_kind(seed)} where the seed, a text, should be')
                return str(seed)
        return None
