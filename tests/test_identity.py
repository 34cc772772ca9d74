"""Identity beyond the rule cases: card notation, deals per variant, whole variant campaigns, hostile orders."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import test_conformance as conformance
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import games
from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.audit import audit
from adjudicator.campaign.demo import write_demo_orders
from adjudicator.games.base import Seat
from adjudicator.games.identity.cards import read_card, read_card_list
from adjudicator.games.identity.reading import parse_bid, parse_trick
from adjudicator.campaign.create import create
from adjudicator.campaign.pipeline import read_orders
from adjudicator.common.rng import Rng

GAME = games.get("identity")


def _setup(players: int, **options: Any) -> dict[str, Any]:
    chosen = {"variant": "standard", "doubled": False, **options}
    seats = [Seat(f"p{i}", f"P{i}") for i in range(players)]
    return GAME.setup(seats, chosen, Rng("test-identity", 0))


# -- card notation (IDENTITY-20) -------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "card"),
    [
        ("blue+2", "blue+2"),
        ("Blue +2", "blue+2"),
        ("BLUE2", "blue+2"),
        ("orange-3", "orange-3"),
        ("orange \u2212 3", "orange-3"),
        ("orange[-2]", "orange-2"),
        ("o-2", "orange-2"),
        ("pu4", "purple+4"),
        ("pi+1", "pink+1"),
        ("g -1", "green-1"),
        ("black0", "black0"),
        ("Black 0", "black0"),
        ("bla+0", "black0"),
    ],
)
def test_card_spellings(written: str, card: str) -> None:
    assert read_card(written) == card


@pytest.mark.parametrize(
    ("written", "reason"),
    [
        ("p+2", "could be purple or pink"),
        ("bl+2", "could be blue or black"),
        ("red+2", "'red' is not a colour"),
        ("orange+5", "orange cards are -3"),
        ("blue0", "blue cards are"),
        ("black+1", "the only black card is black0"),
        ("+2", "names no colour: write the card as its colour and number, e.g. orange+2"),
        ("green+2", "'green+2': green is not in this game: its colours are orange and purple"),
        ("blue", "is not a card"),
    ],
)
def test_card_spellings_refused(written: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason.replace("+", r"\+")):
        read_card(written, ["orange", "purple"] if written == "green+2" else None)  # a three-colour deal has no green


def test_card_lists_and_shorthand() -> None:
    assert read_card_list("blue +2, orange -3 and g4") == ["blue+2", "orange-3", "green+4"]
    assert parse_trick("trick 3: play blue+2 orange-3 down black0") == {
        "trick": 3, "play": ["blue+2", "orange-3"], "face_down": ["black0"],
    }
    assert parse_trick("Face-down: pink-1") == {"trick": None, "play": [], "face_down": ["pink-1"]}
    assert parse_bid("bid: blue+2, orange-3") == ["blue+2", "orange-3"]


# -- deals (IDENTITY-1, -2, -19) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "variant", "hand", "removed"),
    [(3, "standard", 14, 0), (4, "standard", 14, 0), (5, "standard", 14, 0), (6, "standard", 12, 0),
     (3, "y", 14, 2), (4, "y", 14, 2), (5, "xy", 14, 2), (6, "y", 12, 0)],
)
def test_deal_sizes(players: int, variant: str, hand: int, removed: int) -> None:
    state = _setup(players, variant=variant)
    assert all(len(h) == hand for h in state["hands"].values())
    assert len(state["removed"]) == removed
    assert state["tricks"] == hand - 2
    assert GAME.invariants(state) == []


def test_removed_cards_are_seen_by_nobody() -> None:
    state = _setup(4, variant="y")
    for player in [None, *state["players"]]:
        view = GAME.view(state, player)
        assert "removed" not in view and view["removed_count"] == 2
        for card in state["removed"]:
            # A removed card is still "unseen" for everyone: nobody can tell it from a card in another hand.
            assert card in view["unseen"]


def test_a_trick_that_a_list_cannot_finish_is_not_started() -> None:
    """IDENTITY-10: the stop is checked as the trick unfolds; an unsettled play leaves no partial trick."""
    state = _setup(3)
    state.update(stage="trick", tricks=3, trick=1, leader="p0", hands={
        "p0": ["orange+4", "purple-3", "blue+1"],
        "p1": ["orange-1", "purple+2", "blue-2"],
        "p2": ["orange+2", "purple-1", "blue+3"],
    })
    orders = {
        "p0": [{"trick": 1, "play": ["orange+4"], "face_down": []}, {"trick": 2, "play": ["purple-3"], "face_down": []}],
        "p1": [{"trick": 1, "play": ["purple+2"], "face_down": []}, {"trick": 2, "play": ["blue-2"], "face_down": []}],
        "p2": [{"trick": 1, "play": ["blue+3"], "face_down": []}],
    }
    new, events = GAME.resolve(state, orders, Rng("t", 1))
    assert [e["trick"] for e in events if e["code"] == "trick"] == [1]
    assert new["trick"] == 2 and new["hands"]["p1"] == ["orange-1", "blue-2"]


# -- whole campaigns with options -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options"),
    [(3, ["variant=y"]), (5, ["variant=xy", "doubled=true"]), (6, ["variant=x"])],
    ids=["3-players-y", "5-players-xy-doubled", "6-players-x"],
)
def test_variant_campaign_to_the_end(players: int, options: list[str], tmp_path: Path) -> None:
    root = tmp_path / "campaign"
    names = ["ann", "ben", "cat", "dan", "eve", "fay"][:players]
    campaign = create(root, "identity", [{"id": n, "name": n.title()} for n in names],
                      options=options, seed="variant-test", passwords=False)
    while not campaign.over:
        write_demo_orders(campaign, {})
        adjudicate(root)
    final = campaign.state()
    assert GAME.winners(final)
    assert len(final["results"]) == final["deals"]
    for number in range(campaign.last_turn + 1):
        assert GAME.invariants(campaign.state(number)) == [], f"turn {number}"
    assert audit(root).divergence is None
    if "doubled=true" in options:
        assert final["results"][1]["multiplier"] == 2
    # Change one player's hidden cards (removed cards included in Y): nobody else's report moves.
    conformance.test_non_interference(campaign)


# -- hostile orders -------------------------------------------------------------------------------

_CARDISH = st.sampled_from(["blue+2", "orange-3", "black0", "Blue 2", "p+2", "x", "", "trick", "down", "+", "0"])
_ITEMS = st.one_of(
    st.text(max_size=60),
    st.lists(_CARDISH, max_size=6).map(" ".join),
    st.fixed_dictionaries({"bid": st.lists(_CARDISH, max_size=3)}),
    st.fixed_dictionaries(
        {}, optional={"trick": st.integers(-3, 20), "play": st.lists(_CARDISH, max_size=4),
                      "face_down": st.lists(_CARDISH, max_size=4)}),
    st.integers(), st.none(), st.lists(st.integers(), max_size=3),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=st.lists(_ITEMS, max_size=6), stage=st.sampled_from(["bid", "trick"]))
def test_hostile_orders_are_read_or_explained(items: list[Any], stage: str) -> None:
    state = _setup(4)
    if stage == "trick":
        state = GAME.resolve(state, {p: [] for p in state["players"]}, Rng("hostile", 1))[0]
    readings = read_orders(GAME, state, "p1", items)
    assert [r.index for r in readings] == list(range(len(items)))
    for reading in readings:
        assert reading.accepted or reading.void
        if reading.accepted:
            assert reading.meaning
    orders = {p: [] for p in state["players"]}
    orders["p1"] = [r.order for r in readings if r.order is not None]
    new, _ = GAME.resolve(state, orders, Rng("hostile", 2))
    assert GAME.invariants(new) == []


def test_bid_then_every_trick_by_default_conserves_cards() -> None:
    """NMR all the way: a silent table still finishes the deal, one trick a turn, legally."""
    state = _setup(5)
    turn = 0
    while not GAME.is_over(state):
        turn += 1
        state, _ = GAME.resolve(state, {p: GAME.default_orders(state, p, Rng("nmr", turn)) for p in GAME.due(state)},
                                Rng("nmr", turn))
        assert GAME.invariants(state) == []
    # One trick a turn without lists, except that the forced last trick rides along with the one before.
    assert turn <= state["tricks"]
    assert sorted(state["results"][0]["rows"]) == sorted(state["players"])


def test_lists_dropped_at_a_stop_are_told_to_their_player_only() -> None:
    """Issue 25 item 8, IDENTITY-21: a list for a later trick that play never reached is not dropped in silence."""
    state = _setup(3)
    state.update(stage="trick", tricks=3, trick=1, leader="p0", hands={
        "p0": ["orange+4", "purple-3", "blue+1"],
        "p1": ["orange-1", "purple+2", "blue-2"],
        "p2": ["orange+2", "purple-1", "blue+3"],
    })
    orders = {
        "p0": [{"trick": 1, "play": ["orange+4"], "face_down": []}, {"trick": 2, "play": ["purple-3"], "face_down": []},
               {"trick": 3, "play": ["blue+1"], "face_down": []}],
        "p1": [{"trick": 1, "play": ["purple+2"], "face_down": []}],
        "p2": [{"trick": 1, "play": ["blue+3"], "face_down": []}],
    }
    _, events = GAME.resolve(state, orders, Rng("t", 1))
    [told] = [e for e in events if e["code"] == "lists_unused"]
    assert told["seen_by"] == ["p0"] and told["tricks"] == [2, 3] and told["stopped_at"] == 2 and told["why"] == "not_settled"


@pytest.mark.parametrize("written", ["every trick: play orange+4 purple-3 blue+1", "for all remaining tricks: play orange+4, purple-3, blue+1",
                                     {"trick": "every", "play": ["orange+4", "purple-3", "blue+1"]}])
def test_the_same_list_for_every_remaining_trick(written: Any) -> None:
    """Issue 25 item 8: one list for every remaining trick of the deal, instead of one per trick."""
    state = _setup(3)
    state.update(stage="trick", tricks=3, trick=1, leader="p0", hands={
        "p0": ["orange+4", "purple-3", "blue+1"],
        "p1": ["orange-1", "purple+2", "blue-2"],
        "p2": ["orange+2", "purple-1", "blue+3"],
    })
    [reading] = read_orders(GAME, state, "p0", [written])
    assert reading.accepted and reading.order["through"] == 3, reading.void
    assert reading.meaning.startswith("every remaining trick (1 to 3")
    from adjudicator.games.identity.tricks import _lists

    assert sorted(_lists({"p0": [reading.order]})["p0"]) == [1, 2, 3]
