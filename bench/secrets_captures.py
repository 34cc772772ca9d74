"""Sid's Secrets: how often a player who keeps a secret guarded farms the stand-ins there (issue 29).

    python3 bench/secrets_captures.py            # 400 games
    python3 bench/secrets_captures.py --games 40

Plays the games of bench/standins.py's "counter v SI" column (the counter-strategy in the measured
seat, stand-ins in the other three, same seeds) and counts, per game, the stand-in SIDs captured, the
most captured at any one secret, the most at one of the counter's secrets, and the games where one
secret captured three or more. docs/standins.md gives the figures.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from standins import play_one, tables  # noqa: E402

from adjudicator.games.base import Event  # noqa: E402


def captures(games: int) -> dict[str, float]:
    table = tables(["secrets"])[0]
    totals = {"captured": 0.0, "most at one secret": 0.0, "most at one of the counter's": 0.0, "games with 3+ at one": 0.0}
    for number in range(games):
        at: dict[tuple[str, int], int] = {}
        counter: list[str] = []

        def watch(measured: str, events: list[Event]) -> None:
            counter[:] = [measured]
            for event in events:
                if event["code"] == "captured" and event["thief"] != measured:
                    where = (event["owner"], event["secret"])
                    at[where] = at.get(where, 0) + len(event["sids"])

        play_one(table, number, "counter", "standin", watch)
        most = max(at.values(), default=0)
        totals["captured"] += sum(at.values())
        totals["most at one secret"] += most
        totals["most at one of the counter's"] += max((n for (owner, _), n in at.items() if owner in counter), default=0)
        totals["games with 3+ at one"] += most >= 3
    return {name: total if name.startswith("games") else total / games for name, total in totals.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    found = captures(args.games)
    print(f"{args.games} games, the counter among stand-ins; stand-in SIDs captured per game: "
          + "; ".join(f"{name} {value:.2f}" if not name.startswith("games") else f"{name} {value:.0f}" for name, value in found.items()))


if __name__ == "__main__":
    main()
