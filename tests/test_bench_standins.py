"""The stand-in tournaments of bench/standins.py run end to end at a tiny size (docs/standins.md has the full figures)."""

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

from counters import AHEAD, COUNTERS  # noqa: E402
from standins import KINDS, TURN_LIMIT, play_one, tables  # noqa: E402

from adjudicator.games import GAMES  # noqa: E402


def test_the_tournament_runs_every_table_at_a_tiny_size() -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "standins.py"), "--games", "2"], check=True, capture_output=True, text=True, timeout=600,
    )
    rows = [line[:24].strip() for line in result.stdout.splitlines()[1:]]
    assert rows == [t.label for t in tables()], result.stdout


def test_a_game_of_the_tournament_is_seeded_and_the_kinds_differ() -> None:
    """Game i of a table is the same game every time; the measured seat's kind is what changes it."""
    table = next(t for t in tables(["secrets"]))
    kinds = [kind for kind in KINDS if kind != "ahead"]  # "ahead" is the trick games' alone (below)
    shares = {kind: [play_one(table, i, kind) for i in range(6)] for kind in kinds}
    assert shares == {kind: [play_one(table, i, kind) for i in range(6)] for kind in kinds}
    assert all(0 <= s <= 1 for row in shares.values() for s in row)
    assert sum(shares["default"]) == 0  # Sid's Secrets: a seat that never sends orders scores nothing, and never wins


def test_every_game_has_a_counter_strategy() -> None:
    """Design 19: every stand-in is measured against a newcomer who reads the public record."""
    assert sorted(COUNTERS) == sorted(GAMES)


def test_the_count_of_captures_among_secrets_stand_ins_runs_at_a_tiny_size() -> None:
    """bench/secrets_captures.py plays the "counter v SI" games and counts the stand-in SIDs captured."""
    from secrets_captures import captures

    found = captures(4)
    assert found["captured"] > 0 and found["most at one secret"] >= found["most at one of the counter's"]
    assert 0 <= found["games with 3+ at one"] <= 4


def test_the_counter_ahead_orders_every_later_trick_and_each_order_stands() -> None:
    """The counter on a stand-in seat's terms (design 19) orders the pending trick and every later one of
    the round, each read as standing, where the counter itself orders one trick a turn."""
    from adjudicator.campaign.pipeline import read_orders
    from adjudicator.common.rng import Rng
    from adjudicator.games.base import Seat

    game = GAMES["jekyll"]
    options = {name: option.default for name, option in game.options.items()}
    state = game.setup([Seat("p0", "P0"), Seat("p1", "P1")], options, Rng("ahead", 0))
    checked = 0
    for turn in range(1, TURN_LIMIT):
        if game.is_over(state):
            break
        rng = Rng("ahead", turn)
        orders = {}
        for player in game.due(state):
            view = game.view(state, player)
            written = AHEAD["jekyll"](view, player, rng.stream(f"counter/{player}"))
            readings = read_orders(game, state, player, written)
            assert all(r.order is not None for r in readings), [r.void for r in readings]
            if view["phase"] == "trick":
                assert [r.order["trick"] for r in readings] == list(range(view["trick"], 10))
                assert len(COUNTERS["jekyll"](view, player, rng.stream(f"counter/{player}"))) == 1
                checked += 1
            orders[player] = [r.order for r in readings]
        state, _ = game.resolve(state, orders, rng)
    assert checked >= 4  # both players, in at least two rounds


def _kid_who_follows_the_lifts(turns: int) -> tuple[dict, list[str]]:
    """A Hide the Kids! game (wolf wes, kids kim and lou) where lou hides, every turn after the first, under
    one of the two pieces the wolf lifted the turn before, and kim anywhere; the wolf lifts two pieces drawn
    at random. The state and the wolf's last lifts."""
    from adjudicator.common.rng import Rng
    from adjudicator.games.base import Seat
    from adjudicator.games.hidekids.rules import FURNITURE

    game = GAMES["hidekids"]
    options = {name: option.default for name, option in game.options.items()}
    state = game.setup([Seat(p, p.title()) for p in ("wes", "kim", "lou")], options, Rng("follows", 0))
    draws = Rng("follows", 0).stream("test/draws")
    lift = ["door", "bed"]
    for turn in range(1, turns + 1):
        lou = lift[draws.below(2)]
        pieces = list(FURNITURE)
        lift = [pieces.pop(draws.below(len(pieces))), pieces.pop(draws.below(len(pieces)))]
        kim = FURNITURE[draws.below(len(FURNITURE))]
        state, _ = game.resolve(state, {"wes": [{"lift": lift}], "kim": [{"hide": kim}], "lou": [{"hide": lou}]},
                                Rng("follows", turn))
    assert not game.is_over(state)
    return state, lift


@pytest.mark.parametrize("turns", [4, 5, 6])
def test_the_reading_wolf_lifts_where_a_kids_habit_sends_it(turns: int) -> None:
    """Lou always hides under a piece the wolf lifted the turn before: after a few turns of record the
    reading wolf lifts both of last turn's pieces again, wherever they are (the rulebook's pay would send
    it to the tub and the clock)."""
    from adjudicator.common.rng import Rng

    game = GAMES["hidekids"]
    state, last = _kid_who_follows_the_lifts(turns)
    lifts = COUNTERS["hidekids"](game.view(state, "wes"), "wes", Rng("follows", turns + 1).stream("counter/wes"))[0]["lift"]
    assert sorted(lifts) == sorted(last), (lifts, last)


def test_the_wolf_option_seats_the_reading_wolf_at_the_kid_table() -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "standins.py"), "--games", "2", "--only", "hidekids", "--wolf", "counter"],
        check=True, capture_output=True, text=True, timeout=600,
    )
    rows = result.stdout.splitlines()[1:]
    assert [row[:24].strip() for row in rows] == ["hidekids (a kid)", "hidekids (the wolf)"], result.stdout
    assert rows[0].endswith("(the wolf: counter)") and "the wolf:" not in rows[1], result.stdout
