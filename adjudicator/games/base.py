"""The protocol every game module implements, and the values it trades in.

A game is pure: plain JSON-compatible dicts in, new dicts and event lists out.
No file system, no clock, no global randomness: chance arrives as an Rng whose
streams are derived from the campaign seed. The shell (loading, validation,
authentication, rendering, audit) is written once against this protocol.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol

from ..common.rng import Rng, Stream

State = dict[str, Any]
View = dict[str, Any]
Order = dict[str, Any]
Event = dict[str, Any]
"""An event has a stable `code` and `seen_by`: "all" or the list of player ids
who may see it. Reports show a player only the events they may see. An event may
also name in `involves` the players it is about: a report template gets those as
`my_events`, so a campaign with thousands of players can send each one only what
concerns them."""


@dataclass(frozen=True)
class Option:
    """A campaign option set with `--option name=value` at `pbem new`."""

    default: int | str | bool
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True)
class Seat:
    """A player as the campaign knows them when the game starts."""

    id: str
    name: str


class VoidOrder(ValueError):
    """The one way a game says an order does not stand: a stable `code` that tests and tools key on,
    and `words` that tell the player what is wrong (python-chess's errors say what and where; an
    invalid move with a code and no words is boardgame.io's open TODO). A game's reader raises it,
    or hands it to `Reading.refuse` where an order is voided by the orders around it."""

    def __init__(self, code: str, words: str, unknown: str = "") -> None:
        super().__init__(words)
        self.code = code
        self.words = words
        self.unknown = unknown
        """The word that names nothing of the game (`gren6`), when that is what is wrong: see `near_miss`."""


def near_miss(void: VoidOrder, names: list[str]) -> VoidOrder:
    """`void` with "did you mean green6?" when the word it found unknown is one slip of the keys from
    exactly one of `names` (a letter missing, added, changed, or two next to each other swapped), in
    any case and spacing. A hint only: the order stays void, as a guess could play what the player
    did not mean (an order with two readings is never guessed, design 17); the player sends it again."""
    written = "".join(void.unknown.casefold().split())
    near = sorted({name for name in names if _one_slip(written, name.casefold())})
    if not written or len(near) != 1:
        return void
    return VoidOrder(void.code, f"{void.words}; did you mean {near[0]}? (it is not read as that: send the order again)", void.unknown)


def _one_slip(written: str, name: str) -> bool:
    if written == name or abs(len(written) - len(name)) > 1:
        return False
    start = next((n for n, (a, b) in enumerate(zip(written, name)) if a != b), min(len(written), len(name)))
    a, b = written[start:], name[start:]
    return a[1:] == b[1:] or a[1:] == b or a == b[1:] or (len(a) >= 2 and a[:2] == b[1::-1] and a[2:] == b[2:])


@dataclass
class Reading:
    """One order as the adjudicator reads it: accepted, or void with the reason."""

    index: int
    """Position in the file's `orders` list, counted from 0."""
    written: str
    """The order as the player wrote it, in one line, for echoing back."""
    order: Order | None = None
    """The canonical order when accepted; None when void."""
    meaning: str = ""
    """What the order will be taken to mean, in plain words."""
    void: str | None = None
    """Why the order is void, in plain words; None when accepted."""
    instead: str = ""
    """What happens in place of a void order, when the game puts something there (Identity
    draws a missing bid card at random); empty when the order simply does nothing."""
    void_code: str | None = None
    """The stable code of the reason (`VoidOrder.code`); None when accepted. Not written to
    the turn's files: they keep the words."""

    @property
    def accepted(self) -> bool:
        return self.void is None

    def refuse(self, void: VoidOrder) -> Reading:
        """Make this reading void for `void`: no order stands, and the player is told why."""
        self.order, self.meaning = None, ""
        self.void, self.void_code = void.words, void.code
        return self


@dataclass
class Setup:
    """What `pbem new` fixes: the seats, the options and the game."""

    game: str
    seats: list[Seat]
    options: dict[str, Any] = field(default_factory=dict)


class Game(Protocol):
    """What the shell needs from a game. See adjudicator/games/secrets/ for one."""

    id: str
    title: str
    min_players: int
    max_players: int
    options: dict[str, Option]

    # Optional hooks: a game that leaves one out gets the default of OPTIONAL_HOOKS, filled
    # in once when the registry first loads it (games/__init__.py), so every caller reads the
    # attribute directly.

    nmr_public: bool
    """True when the rules make who sent no orders public (an NMR shows in the public report), so
    mail may say who is still missing; default False: no mail tells a player who else is missing."""
    field_labels: dict[str, str]
    """Each field of `player_fields` -> its column heading for people (`pbem show`, the demo), in
    the order tables show them; default {}: the field names themselves, underscores as spaces."""

    def form_examples(self, view: View, player: str) -> list[str]:
        """Orders the private report's order form suggests, each legal for `player` now (the
        template filter `form_examples`); default: none."""

    def instead(self, view: View, player: str, readings: list[Reading]) -> str:
        """What the rules put in place of the void or missing orders among `readings` (all of the
        player's orders, accepted and void), in the game's own terms and from the player's view only:
        said after each void order the reader left without its own `Reading.instead`, and for a file
        of no orders (design 17: never only "this order does nothing"). Default: "" (a void order
        does nothing and the others stand)."""

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng) -> State:
        """The opening state: deals, draws and everything fixed before turn 1."""

    def phase(self, state: State) -> str:
        """The name of the pending phase (also the stem of its schema file)."""

    def due(self, state: State) -> list[str]:
        """The players who must send orders for the pending turn, in seat order."""

    def read_orders(self, view: View, player: str, items: list[tuple[int, Any]]) -> list[Reading]:
        """Read schema-valid order items using only the player's own view."""

    def default_orders(self, state: State, player: str, rng: Rng) -> list[Order]:
        """The NMR orders of a player whose file is missing or rejected."""

    def resolve(self, state: State, orders: dict[str, list[Order]], rng: Rng) -> tuple[State, list[Event]]:
        """All due players' canonical orders, resolved simultaneously."""

    def view(self, state: State, player: str | None) -> View:
        """What one player (or, for None, the public) may know."""

    def is_over(self, state: State) -> bool: ...

    def winners(self, state: State) -> list[str]: ...

    def player_fields(self, view: View) -> dict[str, dict[str, Any]]:
        """The `players` object of `pbem show --json`, built from a view."""

    def demo_orders(self, view: View, player: str, stream: Stream) -> list[Any]:
        """Random legal orders, written as a player would write them."""

    def standin_orders(self, view: View, player: str, stream: Stream) -> list[Any]:
        """The orders a stand-in writes for an abandoned seat: the seat's own interest, played
        from that seat's view alone (design 14), its chance from `stream`; written as a player
        would write them. docs/standins.md."""

    def disguises(
        self, state: State, orders: dict[str, list[Order]], player: str, stream: Stream
    ) -> list[tuple[State, dict[str, list[Order]]]]:
        """Other worlds that differ from (state, orders) only in what `player` alone knows.

        The conformance suite resolves each and requires every other player's
        report, and the public one, to stay byte-identical (design 7).
        """

    def invariants(self, state: State) -> list[str]:
        """What is wrong with a state (cards or tokens not conserved, scores not adding up); empty when sound."""


class GamePackage:
    """The hooks a game package answers from its modules of the standard names (docs/adding-a-game.md):
    `views.py` (view, player_fields), `reading.py` (read_orders, instead), `demo.py` and `standin.py`
    (orders), `conformance.py` (disguises, invariants). A game's class names those modules once, as
    class attributes, and inherits the plain delegation; it overrides a hook only where its rules
    need more (a reader per phase, disguises that resolve)."""

    views: ModuleType
    reading: ModuleType
    demo: ModuleType
    standin: ModuleType
    conformance: ModuleType

    def view(self, state: State, player: str | None) -> View:
        return self.views.view(state, player)

    def player_fields(self, view: View) -> dict[str, dict[str, Any]]:
        return self.views.player_fields(view)

    def read_orders(self, view: View, player: str, items: list[tuple[int, Any]]) -> list[Reading]:
        return self.reading.read_orders(view, player, items)

    def instead(self, view: View, player: str, readings: list[Reading]) -> str:
        return self.reading.instead(view, player, readings)

    def demo_orders(self, view: View, player: str, stream: Stream) -> list[Any]:
        return self.demo.orders(view, player, stream)

    def standin_orders(self, view: View, player: str, stream: Stream) -> list[Any]:
        return self.standin.orders(view, player, stream)

    def disguises(
        self, state: State, orders: dict[str, list[Order]], player: str, stream: Stream
    ) -> list[tuple[State, dict[str, list[Order]]]]:
        return self.conformance.disguises(state, orders, player, stream)

    def invariants(self, state: State) -> list[str]:
        return self.conformance.invariants(state)


def no_form_examples(view: View, player: str) -> list[str]:
    """The default `form_examples`: an order form with no suggested orders."""
    return []


REQUIRED_NAMES = (
    "id", "title", "min_players", "max_players", "options",
    "setup", "phase", "due", "read_orders", "default_orders", "resolve", "view", "is_over", "winners",
    "player_fields", "demo_orders", "standin_orders", "disguises", "invariants",
)
"""What every game's `GAME` must have; the registry refuses a game that lacks one."""

def others_stand(readings: list[Reading]) -> str:
    """`; your other orders stand` where some order stands, for the end of an `instead`: said to a file of
    no orders (`orders: []`) or of void ones only, it would promise orders that are not there."""
    return "; your other orders stand" if any(r.accepted for r in readings) else ""


def nothing_instead(view: View, player: str, readings: list[Reading]) -> str:
    """The default `instead`: a void order does nothing, and the player's other orders stand."""
    return ""


OPTIONAL_HOOKS: dict[str, Any] = {"nmr_public": False, "field_labels": {}, "form_examples": no_form_examples,
                                  "instead": nothing_instead}
"""The optional members of `Game` and the default the registry gives a game that leaves one out."""


STANDINS = "standins"
"""The key of a stand-in's view that lists the seats the stand-in plays this turn (`standin_view`)."""


def standin_view(game: Game, state: State, seat: str, standins: list[str]) -> View:
    """What the stand-in plays `seat` from: the seat's own view and, in a game whose rules make an NMR
    public, the seats the stand-in plays this turn (in seat order), which that turn's public report
    names anyway: the stand-ins at one table may then split their work (design 19). In any other game
    whose seats are a stand-in's stays hidden, and the view is the seat's alone."""
    view = game.view(state, seat)
    if not game.nmr_public:
        return view
    return {**view, STANDINS: [p for p in state["players"] if p in standins]}


def leaders(players: list[str], score: dict[str, int]) -> list[str]:
    """The players with the highest score, in seat order: joint winners on a tie."""
    best = max(score[p] for p in players)
    return [p for p in players if score[p] == best]


def visible(event: Event, player: str | None) -> bool:
    seen_by = event.get("seen_by", "all")
    return seen_by == "all" or (player is not None and player in seen_by)
