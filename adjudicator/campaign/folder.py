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


class CampaignError(ValueError):
    """The folder is not a usable campaign; the message says why."""


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


_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Embeddings, overrides and isolates: they reorder the text around a name in a report (a name
could make a line read differently from what it says). Joiners (emoji, Indic scripts) are fine."""


def display_name(name: str, seat: str, others: list[dict[str, Any]]) -> str:
    """A seat's display name, checked against the other seats: one line (runs of spaces, tabs and
    line breaks become one space), no control characters, and not the name or the id of another
    seat, in any case (orders name players by either, case-insensitively: two alike would make an
    order ambiguous and two players look the same in every report)."""
    cleaned = " ".join(name.split())
    if not cleaned:
        raise CampaignError(f"the display name of '{seat}' is empty")
    if any(unicodedata.category(c) == "Cc" or c in _BIDI_CONTROLS for c in cleaned):
        raise CampaignError(f"the display name of '{seat}' holds a control character; names are one line of plain text")
    for other in others:
        if other["id"] == seat:
            continue
        if cleaned.casefold() in (other["id"].casefold(), str(other["name"]).casefold()):
            what = "id" if cleaned.casefold() == other["id"].casefold() else "display name"
            raise CampaignError(f"'{cleaned}' (for '{seat}') is already the {what} of '{other['id']}': each player needs a name of their own")
    return cleaned


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
        _check_ids([p.get("id") if isinstance(p, dict) else p for p in players] if isinstance(players, list) else [players], path)
        try:
            game = games.get(str(config["game"]))
        except games.UnknownGame as exc:
            raise CampaignError(f"{path}: {exc}") from None
        return cls(root, config, game)

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

    @property
    def last_turn(self) -> int:
        """The last adjudicated turn (0 is the opening written by pbem new)."""
        turn = 0
        while self.is_adjudicated(turn + 1):
            turn += 1
        if not self.is_adjudicated(0):
            raise CampaignError(f"{self.root} has no adjudicated opening (turn-000/manifest.json)")
        return turn

    def state(self, turn: int | None = None) -> State:
        turn = self.last_turn if turn is None else turn
        return read_json_object(self.turn_dir(turn) / "state.json", STATE_FIELDS)

    def setup_record(self) -> dict[str, Any]:
        path = self.turn_dir(0) / "setup.json"
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
