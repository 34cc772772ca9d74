"""H.I.D.E. behaviour that the data cases cannot express: counts, option checks, whole games, hidden worlds."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from adjudicator.demo import play
from adjudicator.games.base import Seat
from adjudicator.games.hide import GAME
from adjudicator.games.hide.components import FACES, GUN, parse_intel
from adjudicator.games.hide.showdown import fight
from adjudicator.rng import Rng

OPTIONS = {name: option.default for name, option in GAME.options.items()}


def _setup(players: list[str], seed: str = "t") -> dict:
    return GAME.setup([Seat(p, p.capitalize()) for p in players], dict(OPTIONS), Rng(seed, 0))


@pytest.mark.parametrize("count, per_colour", [(3, 6), (4, 7), (5, 8)])
def test_opening_pouch_holds_every_die_but_the_identity_dice(count: int, per_colour: int) -> None:
    """HIDE-8: the security die goes back into the pouch; only identity dice leave it."""
    state = _setup(["ann", "ben", "cat", "dan", "eve"][:count])
    assert len(state["pouch"]) == 4 * per_colour - count
    assert (state["security_die"] is not None) == (count == 3)
    assert GAME.invariants(state) == []


def test_faces_are_four_buildings_and_two_guns() -> None:
    assert FACES.count(GUN) == 2 and len(set(FACES)) == 5 and len(FACES) == 6


@pytest.mark.parametrize("text", ["1,2", "a,b", ",".join(["1"] * 15 + ["100"])])
def test_bad_intel_table_is_refused_with_the_reason(text: str) -> None:
    with pytest.raises(ValueError, match="intel_values"):
        parse_intel(text)


def test_showdown_only_non_guns_lose_and_one_survives() -> None:
    winner, rolls = fight({"ann": 3, "ben": 1, "cat": 2}, ["ann", "ben", "cat"], Rng("fight", 1).stream("x"))
    life = {"ann": 3, "ben": 1, "cat": 2}
    for roll in rolls:
        guns = [p for p, f in roll["faces"].items() if f == GUN]
        if guns and len(guns) < len(roll["faces"]):
            assert sorted(roll["lost"]) == sorted(p for p in roll["faces"] if p not in guns)
        else:
            assert roll["lost"] == []
        for p in roll["lost"]:
            life[p] -= 1
        assert roll["life"] == life
    assert [p for p, n in life.items() if n > 0] == [winner]


def test_check_tells_a_player_where_their_die_lands() -> None:
    state = _setup(["ann", "ben", "cat", "dan"])
    state["stage"], state["mission_turn"] = "mission", 1
    for p, icon in zip(state["players"], ["satellite", "submarine", "army-base", "power-plant"], strict=True):
        state["identity"][p]["icon"] = icon
    colour = state["identity"]["ann"]["colour"]
    other = next(c for c in ("red", "blue", "green", "yellow") if c != colour)
    state["pool"] = [{"colour": colour, "icon": "submarine"}, {"colour": other, "icon": "army-base"}]
    view = GAME.view(state, "ann")
    readings = GAME.read_orders(view, "ann", [(0, f"pick {colour} submarine guess ben red sub"),
                                              (1, f"pick {other} army base")])
    assert "ON TOP" in readings[0].meaning and "guess Ben's die is red submarine" in readings[0].meaning
    assert "in front" in readings[1].meaning
    assert GAME.view(state, "ben")["identity"] == state["identity"]["ben"]
    assert GAME.view(state, None)["identity"] is None


def test_resolve_leaves_its_input_untouched() -> None:
    state = _setup(["ann", "ben", "cat", "dan"])
    before = copy.deepcopy(state)
    GAME.resolve(state, {p: [] for p in state["players"]}, Rng("t", 1))
    assert state == before


@pytest.mark.parametrize("count", [3, 5])
def test_whole_game_reaches_the_end_with_sound_states(count: int, tmp_path: Path) -> None:
    campaign = play(tmp_path / "c", "hide", seed=f"whole-{count}", players=count, passwords=False)
    assert campaign.game.is_over(campaign.state()) and len(campaign.game.winners(campaign.state())) == 1
    for number in range(campaign.last_turn + 1):
        assert GAME.invariants(campaign.state(number)) == [], number


def test_every_due_player_gets_a_disguise_while_their_die_is_hidden() -> None:
    state = _setup(["ann", "ben", "cat", "dan"])
    orders = {p: [{"target": "satellite"}] for p in state["players"]}
    for p in state["players"]:
        worlds = GAME.disguises(state, orders, p, Rng("d", 1).stream(p))
        assert worlds, p
        for world, _ in worlds:
            assert world["identity"][p] != state["identity"][p]
            assert GAME.invariants(world) == []


def test_non_interference_in_a_three_player_game_with_a_security_step(tmp_path: Path) -> None:
    """The conformance suite plays 4 players; this covers the security step and 3-player rounds."""
    from worlds import disguised_worlds

    campaign = play(tmp_path / "c", "hide", seed="x0", players=3, passwords=False)
    phases, checked = set(), 0
    for world in disguised_worlds(campaign):
        phases.add(GAME.phase(world.base_before))
        for name, played, disguised in world.others_reports():
            assert disguised == played, f"turn {world.number}: {name} moved with {world.holder}'s secrets"
            checked += 1
    assert "security" in phases and checked > 100
