"""Seeded tournaments: how well each game's stand-in plays a seat (docs/standins.md has the figures).

    python3 bench/standins.py                   # every game, 400 games per seat kind
    python3 bench/standins.py --games 40        # a quicker, rougher run
    python3 bench/standins.py --only secrets,jekyll
    python3 bench/standins.py --only hidekids --wolf counter   # the kid's table against the counter-wolf

Besides the stand-in, the NMR default and random play, the measured seat is played by the
game's counter-strategy (bench/counters.py: a newcomer who reads the public record and plays
against it), among random players and among stand-ins. `--wolf` seats another kind (the
stand-in, the counter) as the wolf at Hide the Kids!' kid table, the other kids still random:
how a kid's seat fares against a wolf who reads the record, as a GM would see a farm.

In each game one seat, the measured one, is played in turn by the stand-in, by the NMR
default (the seat sends nothing) and by random legal play (the demo's players); every
other seat is a random legal player. The measured seat moves round the table from one
game to the next, so no seat's place at the table favours a kind. Game i of every kind
uses the same seed, so the kinds meet the same deals and draws. Orders go through the
game's own reading (written as a player writes them, then read as the adjudicator
reads them); the engine is called directly, without campaign files, so a tournament
of thousands of games takes minutes. Games with roles (the wolf and the kids, Jekyll
and Hyde) are measured per role.

A win counts 1 divided among joint winners; the spread is the 95% interval of the
win rate (1.96 standard errors).
The last two columns compare the stand-in with the counter, and with the counter ordering
ahead, game by game (same seeds, same seat): the mean difference of their shares, with the
95% interval of that mean.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from adjudicator.campaign.pipeline import read_orders  # noqa: E402
from adjudicator.common.rng import Rng  # noqa: E402
from adjudicator.games import GAMES  # noqa: E402
from adjudicator.games.base import Event, Game, Seat, State, standin_view  # noqa: E402
from counters import AHEAD, COUNTERS  # noqa: E402

KINDS = ("standin", "default", "random", "counter", "ahead")
"""Who plays the measured seat: the stand-in, nobody (the NMR default), random legal play, a counter-strategy,
and in a trick game the counter ordering to the round's end as a stand-in does ("ahead")."""
STRATEGIES = {"counter": COUNTERS, "ahead": AHEAD}
"""The kinds played by bench/counters.py, each with the games it has a strategy for."""
PLAYERS = {"secrets": 4, "identity": 4, "hide": 4, "hidekids": 4, "jekyll": 2}
TURN_LIMIT = 500


@dataclass(frozen=True)
class Table:
    """What is measured in one game: its id, and which seats (by index) the measured seat may take."""

    game: str
    label: str
    seats: tuple[int, ...]
    wolf: int | None = None
    """The wolf's seat where the measured seat is a kid: `--wolf` names who plays it."""


def tables(only: list[str] | None = None) -> list[Table]:
    found = []
    for game in sorted(GAMES):
        if only and game not in only:
            continue
        count = PLAYERS[game]
        if game == "hidekids":  # the wolf sits first (option wolf=first)
            found += [Table(game, "hidekids (a kid)", tuple(range(1, count)), wolf=0), Table(game, "hidekids (the wolf)", (0,))]
        elif game == "jekyll":  # Jekyll sits first (option jekyll=first)
            found += [Table(game, "jekyll (Dr. Jekyll)", (0,)), Table(game, "jekyll (Mr. Hyde)", (1,))]
        else:
            found.append(Table(game, game, tuple(range(count))))
    return found


def _orders(game: Game, state: State, player: str, kind: str, rng: Rng, standins: list[str]) -> list[Any] | None:
    """One seat's orders as canonical orders, or None for an NMR (the game's default follows);
    `standins` are the seats the stand-in plays this turn, as a campaign's turn would tell it."""
    view = game.view(state, player)
    if kind == "default":
        return None
    if kind == "standin":
        written = game.standin_orders(standin_view(game, state, player, standins), player, rng.stream(f"standin/{player}"))
    elif kind in STRATEGIES:
        written = STRATEGIES[kind][game.id](view, player, rng.stream(f"counter/{player}"))
    else:
        written = game.demo_orders(view, player, rng.stream(f"demo/{player}"))
    return [r.order for r in read_orders(game, state, player, written) if r.order is not None]


def play_one(table: Table, number: int, kind: str, others: str = "random",
             watch: Callable[[str, list[Event]], None] | None = None, seated: dict[int, str] | None = None) -> float:
    """One seeded game with the measured seat played by `kind`, every other seat by `others`, but for the
    seats (by index) `seated` gives a kind of their own (`--wolf`); the measured seat's share of the win.
    `watch`, if given, is told the measured seat and each turn's events (bench/secrets_captures.py)."""
    game = GAMES[table.game]
    players = [f"p{i}" for i in range(PLAYERS[table.game])]
    measured = players[table.seats[number % len(table.seats)]]
    seed = f"standins-{table.label}-{number}"
    fixed = {players[seat]: played_by for seat, played_by in (seated or {}).items()}
    options = {name: option.default for name, option in game.options.items()}
    state = game.setup([Seat(p, p.upper()) for p in players], options, Rng(seed, 0))
    turn = 0
    while not game.is_over(state):
        turn += 1
        if turn > TURN_LIMIT:
            raise RuntimeError(f"{table.label} game {number} has not ended after {TURN_LIMIT} turns")
        rng = Rng(seed, turn)
        orders: dict[str, list[Any]] = {}
        kinds = {player: kind if player == measured else fixed.get(player, others) for player in game.due(state)}
        standins = [player for player, played_by in kinds.items() if played_by == "standin"]
        for player, played_by in kinds.items():
            given = _orders(game, state, player, played_by, rng, standins)
            orders[player] = game.default_orders(state, player, rng) if given is None else given
        state, events = game.resolve(state, orders, rng)
        if watch:
            watch(measured, events)
    winners = game.winners(state)
    return 1 / len(winners) if measured in winners else 0.0


@dataclass
class Rate:
    games: int
    wins: float

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def spread(self) -> float:
        """Half the 95% interval of the win rate."""
        return 1.96 * math.sqrt(max(self.rate * (1 - self.rate), 1e-12) / self.games)

    def __str__(self) -> str:
        return f"{100 * self.rate:5.1f}% ± {100 * self.spread:4.1f}"


COLUMNS = (
    ("standin", "random", "stand-in"),
    ("default", "random", "NMR default"),
    ("random", "random", "random legal"),
    ("counter", "random", "counter"),
    ("counter", "standin", "counter v SI"),
    ("ahead", "random", "ahead"),
    ("ahead", "standin", "ahead v SI"),
)
"""The measured seat's kind, the other seats' kind, and the column's heading. "counter v SI" is the
counter-strategy among stand-ins: it must not do better there than among random players ("counter").
"ahead" is the counter on a stand-in seat's terms, in the trick games only (bench/counters.py AHEAD)."""


@dataclass
class Difference:
    """The stand-in's share of the win less the counter's, game by game: both play game i of a table with
    the same seed from the same seat, so the difference is measured pair by pair, with its own spread."""

    shares: list[float]

    @property
    def mean(self) -> float:
        return sum(self.shares) / len(self.shares)

    @property
    def spread(self) -> float:
        """Half the 95% interval of the mean difference."""
        variance = sum((d - self.mean) ** 2 for d in self.shares) / max(1, len(self.shares) - 1)
        return 1.96 * math.sqrt(variance / len(self.shares))

    def __str__(self) -> str:
        return f"{100 * self.mean:+5.1f} ± {100 * self.spread:4.1f}"


PAIRED = {"SI - counter": "counter", "SI - ahead": "ahead"}
"""The columns of the stand-in's and a counter's shares compared game by game (same seeds, same seat)."""


def tournament(table: Table, games: int, progress: Callable[[str], None] | None = None,
               seated: dict[int, str] | None = None) -> dict[str, Rate | Difference | None]:
    """Every column of one table; `seated` as play_one takes it (the wolf of `--wolf`)."""
    rates: dict[str, Rate | Difference | None] = {}
    shares: dict[str, list[float]] = {}
    for kind, others, heading in COLUMNS:
        if any(table.game not in STRATEGIES[k] for k in (kind, others) if k in STRATEGIES):
            rates[heading] = None
            continue
        shares[heading] = [play_one(table, i, kind, others, seated=seated) for i in range(games)]
        rates[heading] = Rate(games, sum(shares[heading]))
        if progress:
            progress(f"{table.label}: {heading} {rates[heading]}")
    for paired, against in PAIRED.items():
        rates[paired] = Difference([a - b for a, b in zip(shares["stand-in"], shares[against])]) if against in shares else None
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per seat kind and table")
    parser.add_argument("--only", help="comma-separated game ids")
    parser.add_argument("--wolf", choices=("random", "standin", "counter"), default="random",
                        help="who plays the wolf at Hide the Kids!' kid table (default: random, as every other seat)")
    args = parser.parse_args()
    only = args.only.split(",") if args.only else None
    print(f"{'table':24} " + " ".join(f"{heading:>14}" for heading in [*(c[2] for c in COLUMNS), *PAIRED]) + "  games")
    for table in tables(only):
        seated = {table.wolf: args.wolf} if table.wolf is not None and args.wolf != "random" else None
        rates = tournament(table, args.games, seated=seated)
        cells = " ".join(f"{'-' if rate is None else str(rate):>14}" for rate in rates.values())
        wolf = f"  (the wolf: {args.wolf})" if seated else ""
        print(f"{table.label:24} {cells}  {args.games}{wolf}", flush=True)


if __name__ == "__main__":
    main()
