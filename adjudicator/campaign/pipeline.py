"""One turn as a short pipeline of named, pure stages.

check each file (envelope, then each order) -> add NMR defaults -> resolve.
No files here: the stages take parsed documents and return values, so the
same code serves `pbem adjudicate`, `pbem check`, `pbem audit` and the rule
cases in tests/cases/.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..common import yamlsafe
from ..common.words import plural
from ..common.rng import Rng
from ..games import players
from ..games.base import Event, Game, Order, Reading, State
from . import schemas


@dataclass(frozen=True)
class Problem:
    """Something wrong with a file as a whole; the file is rejected."""

    where: str
    what: str


@dataclass
class Submission:
    """One player's orders for one turn, as checked."""

    player: str
    status: str
    """`accepted`, `rejected` (file refused: NMR) or `missing` (no file: NMR)."""
    source: str = ""
    """The file name the orders came from, for messages."""
    problems: list[Problem] = field(default_factory=list)
    readings: list[Reading] = field(default_factory=list)
    instead: str = ""
    """What the rules put in place of the orders this file leaves out (game.instead), for a file
    that holds none or only void ones: "you are caught at the growl", "your bid is drawn at random"."""

    @property
    def nmr(self) -> bool:
        return self.status != "accepted"

    @property
    def orders(self) -> list[Order]:
        return [r.order for r in self.readings if r.order is not None]

    @property
    def void(self) -> list[Reading]:
        return [r for r in self.readings if not r.accepted]

    @property
    def all_void(self) -> bool:
        """An accepted file whose every order is void: it stands as a file, but nothing in it acts."""
        return self.status == "accepted" and bool(self.readings) and not self.orders

    @property
    def standing(self) -> str:
        """How an accepted file stands, in the words `pbem check` and the `check` command both say (design 17:
        a check reads as filing does, so a file whose every order is void is never called accepted)."""
        if self.all_void:
            return "read, but every order in it is void"
        if self.void:
            return f"read; {len(self.void)} of its {plural(len(self.readings), 'order')} void"
        return "accepted" + ("" if self.readings else " (no orders)")

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "source": self.source,
            "problems": [{"where": p.where, "what": p.what} for p in self.problems],
            "orders": [
                {"index": r.index, "written": r.written, "order": r.order, "meaning": r.meaning, "void": r.void}
                for r in self.readings
            ],
        }


@dataclass(frozen=True)
class Roster:
    """Who plays and who is due, as sets: worked out once per turn, not once per order file
    (a 10,000-player turn would otherwise search its lists 10,000 times)."""

    players: frozenset[str]
    due: frozenset[str]

    @classmethod
    def of(cls, game: Game, state: State) -> Roster:
        return cls(frozenset(state["players"]), frozenset(game.due(state)))


PasswordCheck = Callable[[str, str], bool]
"""(player, password) -> whether it is that player's password."""


@dataclass(frozen=True)
class Position:
    """What checking an order file needs of the pending turn: its phase, who plays and who
    is due, their display names, and the view of the player whose file it is. A campaign's
    state gives all of it (`of`); a player's view file (adjudicator/campaign/viewfile.py)
    gives it for that one player, so `pbem check --view` reads nothing else."""

    phase: str
    roster: Roster
    names: dict[str, str]
    view_of: Callable[[str], Any]
    former: dict[str, str] = field(default_factory=dict)
    """The display names of players who handed their seat over (`pbem replace`) -> the seat."""

    @classmethod
    def of(cls, game: Game, state: State, roster: Roster | None = None, former: dict[str, str] | None = None) -> Position:
        return cls(game.phase(state), roster or Roster.of(game, state), state.get("names", {}), lambda p: game.view(state, p),
                   former or {})


def read_orders(game: Game, state: State, player: str, items: list[Any]) -> list[Reading]:
    """The orders of a file, read against the campaign's state (see read_view_orders)."""
    return read_view_orders(game, game.phase(state), game.view(state, player), player, items)


def read_view_orders(game: Game, phase: str, view: Any, player: str, items: list[Any]) -> list[Reading]:
    """Check each order against the phase schema, then let the game read the rest.

    A schema-breaking order is void on its own; the others stand (design 5).
    The game sees only the player's own view, so `pbem check` can tell a player
    exactly what the adjudicator will make of the file and nothing more.
    """
    schema = schemas.load(f"{game.id}/{phase}")
    readings: dict[int, list[Reading]] = {}  # an item may hold several orders (Sid's Secrets' comma form)
    valid: list[tuple[int, Any]] = []
    for index, item in enumerate(items):
        errors = schema.errors(item)
        if errors:
            readings[index] = [Reading(
                index=index,
                written=schemas.echo(item),
                void="; ".join(_located(e) for e in errors),
            )]
        else:
            valid.append((index, item))
    for index, item in list(enumerate(items)):
        if index in readings and isinstance(item, dict):
            listed = _with_lists(item)  # comma text where a list is asked: read when the list then fits
            if listed is not item and not schema.errors(listed):
                del readings[index]
                valid.append((index, listed))
    valid.sort(key=lambda pair: pair[0])
    if valid:
        for reading in game.read_orders(view, player, valid):
            reading.written = schemas.echo(reading.written)  # one safe line, whatever the player typed
            readings.setdefault(reading.index, []).append(reading)
    read = [reading for i in sorted(readings) for reading in readings[i]]
    _say_instead(game, view, player, read)
    return read


def _say_instead(game: Game, view: Any, player: str, read: list[Reading]) -> None:
    """Give each void reading the reader left without one what the rules put in its place (design 17)."""
    if any(not r.accepted and not r.instead for r in read):
        instead = game.instead(view, player, read)
        for reading in read:
            if not reading.accepted and not reading.instead:
                reading.instead = instead


def _located(error: schemas.SchemaError) -> str:
    """A schema error inside one order, located within it (`sid is 9, ...`, `steal.secret is 11, ...`): the
    order's own number is the one the reading is listed under, counted from 1 as players count."""
    where = "the order" if error.path == "(the whole file)" else error.path
    return f"{where} {error.message}"


def _with_lists(item: Any) -> Any:
    """The order with each text that holds commas (`lift: bed, stove`) as the list of its items;
    the order itself when it has none."""
    if isinstance(item, dict):
        changed = {k: _with_lists(v) for k, v in item.items()}
        return changed if any(changed[k] is not item[k] for k in item) else item
    if isinstance(item, str) and "," in item:
        parts = [" ".join(part.split()) for part in item.strip().strip("[]").split(",")]
        return [part for part in parts if part] or item
    return item


ENVELOPE = ("player", "turn", "password", "orders")


def as_meant(document: Any, position: Position) -> Any:
    """The order file as its writer meant it (design 17): envelope keys in any case (`Player:`,
    `ORDERS:`), the player's display name or id in other capitals where the id is asked, and the
    rulebook's shorthand where YAML took it for a key (`- SID 1: steal bob 10`, `- trick 1: play
    orange+4`: no field of any game has a blank in its name). Anything with another meaning is
    left as written, for the checks to name."""
    if not isinstance(document, dict):
        return document
    out = dict(document)
    for key in list(document):
        if isinstance(key, str) and key != key.strip().casefold() and key.strip().casefold() in ENVELOPE:
            if key.strip().casefold() not in out:
                out[key.strip().casefold()] = out.pop(key)
    named = out.get("player")
    if isinstance(named, str) and named not in position.roster.players:
        meant = _meant_id(named, position.roster, position.names)
        if meant is not None:
            out["player"] = meant
    orders = out.get("orders")
    if isinstance(orders, dict) and orders and all(_shorthand_key(k) for k in orders):
        orders = [{k: v} for k, v in orders.items()]  # `orders:` with `SID 1: steal bob 10` lines and no dashes
    if isinstance(orders, list):
        out["orders"] = [_shorthand(item) for item in orders]
    return out


def _shorthand_key(key: Any) -> bool:
    return isinstance(key, str) and len(key.split()) > 1


def _shorthand(item: Any) -> Any:
    """`{"SID 1": "steal bob 10"}` (YAML's reading of `SID 1: steal bob 10`) as the text the player
    typed; an order's field names in other capitals (`Hide:`) as the form writes them."""
    if not isinstance(item, dict):
        return item
    if len(item) == 1:
        (key, value), = item.items()
        if _shorthand_key(key) and (isinstance(value, (str, int)) or value is None) and not isinstance(value, bool):
            return f"{key}: {value}" if value is not None else str(key)
    lowered = {k.casefold() if isinstance(k, str) else k: v for k, v in item.items()}
    return lowered if len(lowered) == len(item) else item


_TYPOGRAPHIC_QUOTES = {"\u201c": "\u201d", "\u201e": "\u201c", "\u2018": "\u2019", "\u00ab": "\u00bb", "\u201d": "\u201d"}


def _unquoted(password: str) -> str | None:
    """A password a mail program wrapped in typographic quotes (“…”, „…“, ‘…’, «…»: autocorrect
    turns the straight quotes of the order form into these, and YAML keeps them as text): the
    text inside them, which is what the player typed; None when it is not so wrapped."""
    text = password.strip()
    if len(text) > 2 and _TYPOGRAPHIC_QUOTES.get(text[0]) == text[-1]:
        return text[1:-1]
    return None


def _secrets(password: Any) -> list[str]:
    """The texts a message about a file must not echo: its password, as written and unquoted, and the
    texts inside it when it is a list or a mapping (a schema error may quote the value)."""
    if yamlsafe.is_placeholder(password):
        return []  # the form's own words, no secret: a message about them says them
    if isinstance(password, (str, int)) and not isinstance(password, bool):
        text = str(password)
        return [t for t in (text, _unquoted(text) or "") if len(t) >= 4]  # a shorter one would blank out line numbers
    if isinstance(password, dict):
        return [t for k, v in password.items() for t in (*_secrets(k), *_secrets(v))]
    if isinstance(password, list):
        return [t for item in password for t in _secrets(item)]
    return []


FORM_PASSWORD = yamlsafe.FORM_PASSWORD


def _player_problem(sender: Any, expected: str | None, source: str, roster: Roster, names: dict[str, str]) -> str:
    """What is wrong with the file's `player:` (empty when nothing): a different seat than the
    file's, or nobody of this campaign; a display name or a capital letter gets the id to write."""
    if not isinstance(sender, str):
        return ""
    meant = _meant_id(sender, roster, names)
    hint = f" (player ids are written as the form has them: player: {meant})" if meant and meant != sender else ""
    if expected is not None and sender != expected:
        return f"says '{sender}' but the file is {source or expected + '.yaml'}" + (hint if meant == expected else "")
    if sender not in roster.players:
        return f"'{sender}' is not a player of this campaign" + hint
    return ""


def _meant_id(sender: str, roster: Roster, names: dict[str, str]) -> str | None:
    """The player id a `player:` line meant: the id or the display name but for capitals, spaces and
    accents ('Carla Diaz' for Carla Díaz), as orders name players (games/players.py); None when it
    names nobody, or several."""
    seats = sorted(roster.players)
    found = players.named(seats, {p: str(names.get(p) or p) for p in seats}, sender)
    return found[0] if len(found) == 1 else None


def _password_problem(password: Any, right: Callable[[str], bool], numeric: bool) -> str:
    """Why the file's password does not open the seat (empty when it does)."""
    if password is None:
        return "is missing; this campaign uses passwords"
    if not isinstance(password, str) or right(password):
        return ""  # a password of the wrong type is the schema's to name
    inner = _unquoted(password)
    if inner is not None and right(inner):
        return ""
    if yamlsafe.is_placeholder(password):
        return f'still says "{FORM_PASSWORD}": you left the form\'s placeholder in; write your seat\'s password instead'
    hint = " (it was read as a number; put it in quotes, e.g. password: \"0123\")" if numeric else ""
    return "is not this player's password" + hint


def check_document(
    game: Game,
    state: State,
    document: Any,
    *,
    turn: int,
    expected_player: str | None,
    password_ok: PasswordCheck | None,
    source: str = "",
    roster: Roster | None = None,
    former: dict[str, str] | None = None,
) -> Submission:
    """Check a parsed order file: the envelope first (any fault rejects the file), then each order."""
    return check_position(game, Position.of(game, state, roster, former), document, turn=turn, expected_player=expected_player,
                          password_ok=password_ok, source=source)


def check_position(
    game: Game,
    position: Position,
    document: Any,
    *,
    turn: int,
    expected_player: str | None,
    password_ok: PasswordCheck | None,
    source: str = "",
) -> Submission:
    """check_document against a Position: the campaign's, or one player's view file."""
    roster = position.roster
    document = as_meant(document, position)
    player = expected_player or (document.get("player") if isinstance(document, dict) else None) or "?"
    sub = Submission(player=str(player), status="rejected", source=source)
    if not isinstance(document, dict):
        sub.problems.append(Problem("(the whole file)", "must be a mapping with the fields player, turn and orders"))
        return sub
    numeric_password = isinstance(document.get("password"), int) and not isinstance(document["password"], bool)
    if numeric_password:  # digits-only passwords arrive as numbers; their digits are what was typed
        document = {**document, "password": str(document["password"])}
    if "orders" in document and document["orders"] is None:  # `orders:` and only commented-out lines:
        document = {**document, "orders": []}  # the order form sent back unfilled, no orders (not an NMR)
    sender, number = document.get("player"), document.get("turn")
    wrong_player = _player_problem(sender, expected_player, source, roster, position.names)
    for error in schemas.load("common/order-file").errors(document):
        if not (wrong_player and error.path == "player"):  # one line on the player, the more useful one
            sub.problems.append(Problem(error.path, error.message))
    # The envelope's meaning is checked even when its shape is faulty, so one
    # reply tells the player everything that is wrong (style 5).
    if wrong_player:
        sub.problems.append(Problem("player", wrong_player))
    if isinstance(number, int) and not isinstance(number, bool) and number != turn:
        sub.problems.append(Problem("turn", f"says {number} but the pending turn is {turn}"))
    # The password is the seat's: the file's name says which seat when there is one, so a
    # misspelt `player:` is not also called a wrong password.
    seat = expected_player or (sender if isinstance(sender, str) and sender in roster.players else None)
    placeholder = document.get("password")
    if password_ok is None and yamlsafe.is_placeholder(placeholder):
        sub.problems.append(Problem("password", _password_problem(FORM_PASSWORD, lambda pw: False, False)))
    if password_ok is not None and seat is not None:
        problem = _password_problem(document.get("password"), lambda pw: password_ok(seat, pw), numeric_password)
        if problem:
            sub.problems.append(Problem("password", problem))
    if not sub.problems and document["player"] not in roster.due:
        sub.problems.append(Problem("player", f"{document['player']} is not due to send orders this turn"))
    if sub.problems:
        secrets = _secrets(document.get("password"))
        sub.problems = [Problem(x.where, yamlsafe.scrub(x.what, secrets)) for x in sub.problems]  # no message echoes a password
        return sub
    sub.player = document["player"]
    sub.status = "accepted"
    view = position.view_of(sub.player)
    sub.readings = read_view_orders(game, position.phase, view, sub.player, document["orders"])
    _say_instead_of_file(game, view, sub)
    if position.former:
        for reading in sub.void:
            _hint_handed_over(reading, position)
    return sub


def _say_instead_of_file(game: Game, view: Any, sub: Submission) -> None:
    """A file that holds no order that stands is told what the rules put in place of all of them."""
    if not sub.orders:
        sub.instead = game.instead(view, sub.player, sub.readings)


def as_recorded(game: Game, position: Position, player: str, record: Any) -> Submission:
    """An accepted file's submission as a turn's results.json recorded it (`Submission.to_json`): the
    readings it was adjudicated with, for `pbem audit` when today's reader reads the file differently
    (campaign/recorded.py). The record keeps the readings, not what replaces a void order, which is
    said as today's game says it. ValueError when the record is not an accepted file's."""
    try:
        if record["status"] != "accepted" or record["problems"] != []:
            raise ValueError("not an accepted file")
        readings = [
            Reading(index=r["index"], written=r["written"], order=r["order"], meaning=r["meaning"], void=r["void"])
            for r in record["orders"]
        ]
        sub = Submission(player, "accepted", record["source"], readings=readings)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a recorded submission ({type(exc).__name__}: {exc})") from None
    if any(type(r.index) is not int or not isinstance(r.written, str) or not isinstance(r.meaning, str)
           or not (r.void is None or isinstance(r.void, str)) for r in readings):
        raise ValueError("a recorded reading's index, words or reason is not of its kind")
    if sub.to_json() != record:
        raise ValueError("the record holds more than a submission")
    view = position.view_of(player)
    _say_instead(game, view, player, sub.readings)
    _say_instead_of_file(game, view, sub)
    return sub


def _hint_handed_over(reading: Reading, position: Position) -> None:
    """A void order that names a player who has left: say whose the seat is now."""
    written = reading.written.casefold()
    current = {name.casefold() for name in position.names.values()}
    for name, seat in sorted(position.former.items()):
        if name.casefold() in written and name.casefold() not in current:
            reading.void = (f"{reading.void} ({name} handed the seat {seat} over to {position.names.get(seat, seat)}: "
                            f"name the seat {seat} or its new player)")
            return


def nmr_means(game: Game, position: Position, player: str) -> str:
    """What the deadline brings `player` when no orders of theirs stand, in the game's own terms (design 17):
    the game's one answer for missing orders (`instead`), from the player's own view. Said by a refusal to a
    seat with nothing filed, the `orders` command and `pbem check` ("" for a seat not due)."""
    if player not in position.roster.due:
        return ""
    return game.instead(position.view_of(player), player, [])


def missing(player: str) -> Submission:
    return Submission(player=player, status="missing")


def resolve(
    game: Game, state: State, submissions: dict[str, Submission], rng: Rng
) -> tuple[State, list[Event], dict[str, list[Order]]]:
    """Add the NMR defaults for the silent, then resolve everything at once."""
    orders: dict[str, list[Order]] = {}
    for player in game.due(state):
        sub = submissions.get(player)
        if sub is None or sub.nmr:
            orders[player] = game.default_orders(state, player, rng)
        else:
            orders[player] = sub.orders
    new_state, events = game.resolve(state, orders, rng)
    return new_state, events, orders
