"""Jekyll vs Hyde beyond the rule cases: card reading, case sanity, hidden cards, demo orders."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from casefile import CASES, deep_merge
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.common import yamlsafe
from adjudicator.campaign.demo import play
from adjudicator.games import jekyll
from adjudicator.games.base import Seat, VoidOrder
from adjudicator.campaign.create import parse_options
from adjudicator.common.rng import Rng

GAME = jekyll.GAME


@pytest.mark.parametrize(
    ("written", "card"),
    [
        ("purple5", "purple5"), ("Purple 5", "purple5"), ("red-7", "red7"), ("GREEN_1", "green1"),
        ("pride5", "purple5"), ("Wrath 7", "red7"), ("greed1", "green1"),
        ("potion3", "potion3"), ("potion 3", "potion3"), ("3+", "potion3"), ("+5", "potion5"), ("potion2+", "potion2"),
    ],
)
def test_card_forms(written: str, card: str) -> None:
    assert jekyll.parse_card(written) == card


@pytest.mark.parametrize(
    ("written", "reason"),
    [
        ("purple8", "run from 1 to 7"), ("red0", "run from 1 to 7"), ("potion1", "2+, 3+, 4+ and 5+"),
        ("6+", "2+, 3+, 4+ and 5+"), (3, "bare number"), ("blue3", "is not a card"), ("", "is not a card"),
        (True, "is not a card"), ("red" + "9" * 5000, "run from 1 to 7"),
    ],
)
def test_cards_that_do_not_exist_say_why(written: Any, reason: str) -> None:
    with pytest.raises(VoidOrder, match=re.escape(reason)):
        jekyll.parse_card(written)


def test_strength_puts_each_potion_between_its_number_and_the_next() -> None:
    order = sorted(jekyll.DECK, key=jekyll.low_order)
    assert order.index("red3") < order.index("potion3") < order.index("purple4")
    assert jekyll.lead_wins("potion5", "green5", []) and not jekyll.lead_wins("potion5", "green6", [])


def _case_state(path: Path) -> dict[str, Any]:
    case = yamlsafe.load(path.read_bytes())
    seats = [Seat(p, p.capitalize()) for p in case["players"]]
    options = parse_options(GAME, [])
    options.update(case.get("options", {}))
    return deep_merge(GAME.setup(seats, options, Rng(str(case.get("seed", "case")), 0)), case.get("state", {}))


@pytest.mark.parametrize("path", sorted((CASES / "jekyll").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_case_starts_from_a_sound_position(path: Path) -> None:
    """A case whose hands lose or double a card would prove nothing about the rules."""
    assert GAME.invariants(_case_state(path)) == []


def test_every_decision_has_a_case_and_every_cited_case_exists() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "rules" / "jekyll.md").read_text()
    decisions = sorted(set(re.findall(r"\*\*JEKYLL-(\d+)\.", doc)), key=int)
    assert decisions == [str(n) for n in range(1, len(decisions) + 1)]
    files = sorted((CASES / "jekyll").glob("*.yaml"))
    sources = " ".join(str(yamlsafe.load(p.read_bytes())["source"]) + "," for p in files)
    for number in decisions:
        assert re.search(rf"JEKYLL-{number}\b", sources), f"JEKYLL-{number} has no case naming it"
    names = {p.stem for p in files}
    cited = {name for name in re.findall(r"`([a-z][a-z0-9]*(?:-[a-z0-9]+){2,})`", doc)}
    assert cited - names == set(), "the rule document cites cases that do not exist"
    assert names - cited == set(), "cases the rule document does not cite"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("jekyll") / "campaign"
    play(root, "jekyll", seed="test-jekyll", players=None, passwords=False)
    return root


def _turns(root: Path) -> list[Path]:
    return sorted(p for p in root.glob("turn-*") if (p / "results.json").exists())


def test_demo_orders_are_never_void(demo: Path) -> None:
    for folder in _turns(demo):
        results = json.loads((folder / "results.json").read_text())
        for player, sub in results["submissions"].items():
            assert sub["status"] == "accepted", (folder.name, player)
            assert all(o["void"] is None for o in sub["orders"]), (folder.name, player, sub["orders"])


def _words(text: str) -> set[str]:
    return set(re.findall(r"\b(?:purple|red|green|potion)\d\b", text))


def test_unseen_cards_never_reach_the_other_player_or_the_public(demo: Path) -> None:
    """Set-aside cards, and the cards in a hand the other player never saw, appear in no report of theirs."""
    checked = 0
    for folder in _turns(demo):
        state = json.loads((folder / "state.json").read_text())
        before = json.loads((folder.with_name(f"turn-{int(folder.name[5:]) - 1:03d}") / "state.json").read_text())
        if state["round"] != before["round"]:
            continue  # a new deal: last round's cards are now elsewhere
        public = _words((folder / "reports" / "public.md").read_text())
        assert not public & set(state["set_aside"]), folder.name
        for player in state["players"]:
            other = next(p for p in state["players"] if p != player)
            seen = {g["card"] for g in state["gave"][player]}
            hidden = set(state["hands"][other]) - seen
            report = _words((folder / "reports" / f"{player}.txt").read_text())
            assert not report & set(state["set_aside"]), (folder.name, player)
            assert not report & hidden, (folder.name, player, report & hidden)
            assert not public & set(state["hands"][player]), (folder.name, player)
            checked += 1
    assert checked > 5


def test_show_json_hand_only_for_the_player_themself(demo: Path) -> None:
    state = json.loads((_turns(demo)[2] / "state.json").read_text())
    public = GAME.player_fields(GAME.view(state, None))
    own = GAME.player_fields(GAME.view(state, "alice"))
    assert "hand" not in public["alice"] and "hand" not in public["bruno"]
    assert own["alice"]["hand"] == state["hands"]["alice"] and "hand" not in own["bruno"]


def test_disguises_change_only_the_players_own_unseen_cards(demo: Path) -> None:
    worlds = 0
    for folder in _turns(demo):
        before = json.loads((folder.with_name(f"turn-{int(folder.name[5:]) - 1:03d}") / "state.json").read_text())
        orders = json.loads((folder / "results.json").read_text())["orders_resolved"]
        for player in GAME.due(before):
            other = next(p for p in before["players"] if p != player)
            for world, _ in GAME.disguises(before, orders, player, Rng("x", 1).stream(f"disguise/{player}")):
                assert GAME.invariants(world) == []
                assert world["hands"][player] != before["hands"][player]
                assert world["hands"][other] == before["hands"][other]
                assert {g["card"] for g in before["gave"][other]} <= set(world["hands"][player]) | {
                    c for t in before["played"] for c in (t["lead"], t["follow"])
                } | {g["card"] for g in before["gave"][player]}
                worlds += 1
    assert worlds > 10


def _trick_view() -> dict[str, Any]:
    seats = [Seat("alice", "Alice"), Seat("bruno", "Bruno")]
    state = GAME.setup(seats, parse_options(GAME, []), Rng("fuzz", 0))
    state["phase"] = "trick"
    return GAME.view(state, "alice")


_cards = st.sampled_from(jekyll.DECK + ["3+", "Pride 5", "greed", "name", "trick", "purple9", ",", ":", "5"])
_items = st.one_of(
    st.lists(_cards, max_size=8).map(" ".join),
    st.text(max_size=40),
    st.lists(st.one_of(_cards, st.integers(-5, 5)), min_size=1, max_size=5),
    st.fixed_dictionaries(
        {"play": st.one_of(_cards, st.lists(_cards, min_size=1, max_size=4))},
        optional={"trick": st.integers(1, 10), "name": st.sampled_from(["red", "Pride", "blue", ""]),
                  "greed": st.lists(_cards, min_size=1, max_size=3)},
    ),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_items, max_size=6))
def test_trick_orders_never_crash_and_always_explain(items: list[Any]) -> None:
    view = _trick_view()
    readings = GAME.read_orders(view, "alice", list(enumerate(items)))
    assert [r.index for r in readings] == list(range(len(items)))
    for reading in readings:
        assert (reading.order is not None) == reading.accepted
        assert reading.meaning if reading.accepted else reading.void.strip()
