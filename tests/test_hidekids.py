"""Hide the Kids! beyond the data cases: the wolf option, the game-length bound,
hidden places at a wolf's win, invariants and the reports."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.games.base import Seat
from adjudicator.games.hidekids import FURNITURE, GAME
from adjudicator.publish.render import Renderer
from adjudicator.common.rng import Rng
from adjudicator.campaign.turn import render_reports

NAMES = ["wolf", "ann", "ben", "cat", "dan", "eve", "fay", "gus"]
SETUP = {"name": "test", "seed_commitment": "c0ffee", "passwords": True}


def opening(kids: int = 3, wolf: str = "first", seed: str = "t") -> dict:
    seats = [Seat(p, p.capitalize()) for p in NAMES[: kids + 1]]
    return GAME.setup(seats, {"wolf": wolf}, Rng(seed, 0))


def reports(state: dict, orders: dict, seed: str = "t") -> dict[str, bytes]:
    new, events = GAME.resolve(state, orders, Rng(seed, state["turn"] + 1))
    return render_reports(GAME, Renderer("hidekids"), SETUP, new, state["turn"] + 1, events, {}, state)


# -- HIDEKIDS-1 ------------------------------------------------------------------


def test_unknown_wolf_is_refused_with_the_players_named() -> None:
    with pytest.raises(ValueError, match=r"'zoe' is not a player of this campaign; use one of wolf, ann, ben"):
        opening(wolf="zoe")


def test_a_player_id_beats_the_words() -> None:
    seats = [Seat("ann", "Ann"), Seat("first", "First")]
    assert GAME.setup(seats, {"wolf": "first"}, Rng("t", 0))["wolf"] == "first"


# -- HIDEKIDS-12: the game always ends, and invariants hold on the way --------------

choices = st.sampled_from([*FURNITURE, None])


@settings(max_examples=60, deadline=None)
@given(kids=st.integers(1, 7), data=st.data())
def test_every_game_ends_within_the_bound(kids: int, data: st.DataObject) -> None:
    state = opening(kids)
    bound = 6 * kids + 7 + 6 // kids
    while not GAME.is_over(state):
        assert state["turn"] < bound, f"turn {state['turn']} with {kids} kids and no end"
        orders = {}
        for kid in state["kids"]:
            place = data.draw(choices)
            orders[kid] = [] if place is None else [{"hide": place}]
        lift = data.draw(st.lists(st.sampled_from(FURNITURE), min_size=2, max_size=2, unique=True) | st.none())
        orders[state["wolf"]] = [] if lift is None else [{"lift": lift}]
        state, _ = GAME.resolve(state, orders, Rng("bound", state["turn"] + 1))
        assert GAME.invariants(state) == []
    assert GAME.winners(state)


def test_a_slow_game_stays_within_the_bound() -> None:
    """A lone kid always in the clock, the wolf lifting it every other turn: each token won is lost again."""
    state = opening(1)
    while not GAME.is_over(state):
        lift = ["clock", "bed"] if state["turn"] % 2 == 0 else ["bed", "door"]
        state, _ = GAME.resolve(state, {"wolf": [{"lift": lift}], "ann": [{"hide": "clock"}]}, Rng("slow", 1))
    assert [record["escaped"] != [] for record in state["history"]] == [False, True] * 7
    assert state["turn"] == 14 <= 6 + 7 + 6
    assert GAME.winners(state) == ["ann"]


# -- HIDEKIDS-6: what stays hidden, and nothing else ---------------------------


def _win_at_first_lift() -> tuple[dict, dict]:
    state = copy.deepcopy(opening(3))
    state["kid_tokens"] = 6
    orders = {
        "wolf": [{"lift": ["stove", "tub"]}],
        "ann": [{"hide": "stove"}],
        "ben": [{"hide": "tub"}],
        "cat": [{"hide": "clock"}],
    }
    return state, orders


@pytest.mark.parametrize("holder", ["wolf", "ben", "cat"])
def test_unrevealed_secrets_leave_every_other_report_unchanged(holder: str) -> None:
    state, orders = _win_at_first_lift()
    base = reports(state, orders)
    worlds = GAME.disguises(state, orders, holder, Rng("t", 1).stream("disguise"))
    assert worlds, f"{holder} kept a secret, so there are other worlds"
    for world_state, world_orders in worlds:
        assert world_orders[holder] != orders[holder]
        other = reports(world_state, world_orders)
        for name, data in base.items():
            if Path(name).stem == holder:
                assert other[name] != data, "the holder's own report shows their own secret"
            else:
                assert other[name] == data, f"{name} moved with {holder}'s secret"


def test_found_kids_have_no_secret_left() -> None:
    state, orders = _win_at_first_lift()
    assert GAME.disguises(state, orders, "ann", Rng("t", 1).stream("d")) == []


def test_escaped_places_are_public_so_an_ordinary_turn_has_no_disguise() -> None:
    state = opening(2)
    orders = {"wolf": [{"lift": ["bed", "door"]}], "ann": [{"hide": "stove"}], "ben": [{"hide": "table"}]}
    for player in state["players"]:
        assert GAME.disguises(state, orders, player, Rng("t", 1).stream("d")) == []
    public = reports(state, orders)["reports/public.md"].decode()
    assert "Ann came out from inside the stove" in public and "Ben came out from under the table" in public


def test_the_kept_secret_is_in_its_owner_view_only() -> None:
    state, orders = _win_at_first_lift()
    new, _ = GAME.resolve(state, orders, Rng("t", 1))
    assert GAME.view(new, "cat")["kept_secret"] == "clock"
    assert GAME.view(new, "wolf")["kept_secret"] == "tub"
    assert GAME.view(new, "ann")["kept_secret"] is None
    assert GAME.view(new, None)["kept_secret"] is None
    assert GAME.view(new, None)["hiding_record"] == {"ann": ["stove"], "ben": ["unseen"], "cat": ["unseen"]}


# -- invariants ------------------------------------------------------------------


def test_invariants_catch_tokens_and_pebbles_that_do_not_add_up() -> None:
    state = opening(2)
    orders = {"wolf": [{"lift": ["bed", "clock"]}], "ann": [{"hide": "bed"}], "ben": [{"hide": "tub"}]}
    state, _ = GAME.resolve(state, orders, Rng("t", 1))
    assert GAME.invariants(state) == []
    bad = copy.deepcopy(state)
    bad["kid_tokens"] += 1
    assert any("kid tokens" in p for p in GAME.invariants(bad))
    bad = copy.deepcopy(state)
    bad["pebbles"]["ben"] = 1
    assert any("pebbles" in p for p in GAME.invariants(bad))
    bad = copy.deepcopy(state)
    bad["history"][0]["escaped"][0]["pebbles"] = 1
    assert any("won 1 pebbles under the tub" in p for p in GAME.invariants(bad))


# -- reports ---------------------------------------------------------------------


def test_reports_name_the_form_and_the_growl_without_a_password() -> None:
    state = opening(2)
    out = reports(state, {"wolf": [{"lift": ["bed", "door"]}], "ann": [{"hide": "tub"}], "ben": []})
    ann, ben, wolf = (out[f"reports/{p}.txt"].decode() for p in ("ann", "ben", "wolf"))
    assert "  - hide: FURNITURE" in ann and "You came out from under the tub: +2 pebbles (now 2)." in ann
    assert "GRRRR! You had not hidden in time and were captured at once" in ben
    assert "  - lift: [FIRST, SECOND]" in wolf and "you now hold 1 kid token" in wolf
    assert all("password: \"your password\"" in text for text in (ann, ben, wolf))


def test_public_report_escapes_player_names() -> None:
    seats = [Seat("wolf", "Big *Bad* Wolf"), Seat("ann", "Ann [the kid]")]
    state = GAME.setup(seats, {"wolf": "first"}, Rng("t", 0))
    out = reports(state, {"wolf": [{"lift": ["tub", "bed"]}], "ann": [{"hide": "tub"}]})
    public = out["reports/public.md"].decode()
    assert "Ann \\[the kid\\]" in public and "Big \\*Bad\\* Wolf" in public



def test_a_kid_out_of_the_clock_makes_the_wolf_discard_in_words_that_agree() -> None:
    state = opening(2)
    state["kid_tokens"] = 1  # the wolf holds a token from an earlier turn, so the clock costs it one
    out = reports(state, {"wolf": [{"lift": ["bed", "door"]}], "ann": [{"hide": "clock"}], "ben": [{"hide": "tub"}]})
    wolf, ben = out["reports/wolf.txt"].decode(), out["reports/ben.txt"].decode()
    assert "; you discard a kid token (0 left)" in wolf and "you discards" not in wolf
    assert "; the wolf discards a kid token (0 left)" in ben


def test_a_kid_caught_at_the_growl_is_on_every_board_of_the_turn() -> None:
    """Trial 2 item 5: a kid caught at the growl is under no piece, and the board drew only the kids found
    under a lifted piece or come out of one: the kid's own board (and everyone's) did not show the capture."""
    from adjudicator.publish.pictures import painter

    state = opening(3)
    new, _ = GAME.resolve(state, {"wolf": [{"lift": ["bed", "door"]}], "ann": [{"hide": "tub"}], "ben": [], "cat": [{"hide": "bed"}]},
                          Rng("t", 1))
    for reader in ("ben", "ann", "wolf", None):
        svg = painter("hidekids").board(GAME.view(new, reader), "board-1").svg()
        row = "Ben (you)" if reader == "ben" else "Ben"
        assert f'class="ink label">{row}</text>' in svg, reader
        assert 'class="mark small">this turn: caught at the growl, not hidden in time</text>' in svg, reader
        assert "Caught at the growl: Ben." in svg, reader  # the picture's description, read out by screen readers
        assert 'class="mark small">this turn: found under the bed</text>' in svg and 'class="good small">this turn: came out from under the tub</text>' in svg
