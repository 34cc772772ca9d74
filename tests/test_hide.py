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


@pytest.mark.parametrize("count, seed, all_guns", [(3, "gadget-0", True), (4, "gadget-4", False), (5, "gadget-5", False)])
def test_suggested_gadget_line_is_a_legal_order(count: int, seed: str, all_guns: bool, tmp_path: Path) -> None:
    """HIDE-17: the mission order form's sample gadget line, uncommented, passes `pbem check` for that
    player at that moment, in every mission report of a whole seeded game. The gadget must change the
    die's icon: the line turns the first die that is not a gun to gun, or, when every die in the pool is
    a gun (seen in the game of seed gadget-0), the first die to a building."""
    from adjudicator import yamlsafe
    from adjudicator.pipeline import check_document

    campaign = play(tmp_path / "c", "hide", seed=seed, players=count, passwords=False)
    checked, to_building = 0, 0
    for number in range(campaign.last_turn):
        state = campaign.state(number)  # the pending state that the report's order form is for
        for player in GAME.due(state):
            report = (campaign.turn_dir(number) / "reports" / f"{player}.txt").read_text(encoding="utf-8")
            if "#  - gadget " not in report:
                continue
            form = report[report.index(f"player: {player}\n"):].split("\n\n")[0]
            text = "\n".join(line.replace("#  - gadget ", "  - gadget ", 1) if line.startswith("#  - gadget ") else line
                             for line in form.splitlines())
            sub = check_document(GAME, state, yamlsafe.load(text.encode()), turn=number + 1,
                                 expected_player=player, password_ok=None)
            assert not sub.nmr and len(sub.readings) == 1 and not sub.void, (number, player, text, sub)
            assert sub.readings[0].meaning.startswith("after your pick, use your gadget"), sub.readings[0].meaning
            checked += 1
            to_building += not text.split("  - gadget ", 1)[1].splitlines()[0].endswith(" to gun")
    assert checked > 10
    assert to_building > 0 or not all_guns
