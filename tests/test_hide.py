"""H.I.D.E. behaviour that the data cases cannot express: counts, option checks, whole games, hidden worlds."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from adjudicator.campaign.demo import play
from adjudicator.games.base import Seat
from adjudicator.games.hide import GAME
from adjudicator.games.hide.components import FACES, GUN, parse_intel
from adjudicator.games.hide.showdown import fight
from adjudicator.common.rng import Rng

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
    from adjudicator.common import yamlsafe
    from adjudicator.campaign.pipeline import check_document

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


# -- reasons in plain words (design 5, HIDE-16, HIDE-14, HIDE-28) ----------------------------------


def _send(root: Path, turn: int, player: str, orders: list, *, turn_written: int | None = None) -> None:
    import yaml

    text = yaml.safe_dump({"player": player, "turn": turn if turn_written is None else turn_written, "orders": orders})
    (root / f"turn-{turn:03d}" / "orders" / f"{player}.yaml").write_text(text, encoding="utf-8")


def _report(root: Path, turn: int, name: str) -> str:
    return (root / f"turn-{turn:03d}" / "reports" / name).read_text(encoding="utf-8")


def _pending_state(root: Path) -> dict:
    from adjudicator.campaign.folder import Campaign

    return Campaign.open(root).state()


def _line(report: str, start: str) -> str:
    return next(line for line in report.splitlines() if line.strip().startswith(start))


def test_a_default_says_whether_orders_were_missing_void_or_used_up(tmp_path: Path) -> None:
    """HIDE-16: a player whose file was rejected (or missing) is told so, not that their list ran dry;
    one who sent no valid pick, and one whose listed dice were all gone, each read their own reason.
    Nobody else's report, nor the public one, says any of it."""
    from adjudicator.campaign.adjudicate import adjudicate
    from adjudicator.campaign.create import create

    root = tmp_path / "c"
    players = ["ann", "ben", "cat", "dan"]
    create(root, "hide", [{"id": p, "name": p.title()} for p in players], seed="reasons-2", passwords=False)
    _send(root, 1, "ann", ["satellite"], turn_written=7)  # rejected whole: the wrong turn
    _send(root, 1, "ben", [])  # a valid file with no orders
    _send(root, 1, "cat", ["satellite"])
    _send(root, 1, "dan", ["submarine"])
    adjudicate(root, nmr=True)
    assert "(no valid orders from you: the richest building you may target, HIDE-16)." in _report(root, 1, "ann.txt")
    assert ("(none of your orders named a building you may target: the richest one, HIDE-16)."
            in _report(root, 1, "ben.txt"))

    pool = _pending_state(root)["pool"]
    absent = next({"colour": c, "icon": i} for c in ("red", "blue", "green", "yellow")
                  for i in ("army-base", "satellite", "submarine", "power-plant") if {"colour": c, "icon": i} not in pool)
    _send(root, 2, "ann", [], turn_written=9)  # rejected whole
    _send(root, 2, "ben", ["pick purple gun"])  # read, but no valid pick in it
    _send(root, 2, "cat", [{"pick": absent}])  # a list that runs dry
    # dan sends nothing at all
    adjudicate(root, nmr=True)
    expected = {
        "ann": "(no valid orders from you: the default pick, HIDE-16).",
        "ben": "(your orders held no valid pick: the default pick, HIDE-16).",
        "cat": "(none of your listed dice was left: the default pick).",
        "dan": "(no valid orders from you: the default pick, HIDE-16).",
    }
    for player, reason in expected.items():
        report = _report(root, 2, f"{player}.txt")
        assert reason in _line(report, f"- {player.title()} picks the "), (player, report)
        for other, theirs in expected.items():
            if theirs != reason:
                assert theirs not in report, (player, other)
    public = _report(root, 2, "public.md")
    assert "HIDE-16" not in public and "default pick" not in public and "listed dice" not in public


def test_a_default_guess_says_why_it_was_made(tmp_path: Path) -> None:
    """HIDE-14: a guess at an agent shot earlier in the turn is skipped and the report says so, rather
    than that the list gave no guess; a default pick's shot says it came with the default pick."""
    from adjudicator.campaign.folder import Campaign
    from adjudicator.campaign.create import create
    from adjudicator.publish.render import Renderer
    from adjudicator.campaign.turn import render_reports

    players = ["ann", "ben", "cat", "dan"]
    campaign = create(tmp_path / "c", "hide", [{"id": p, "name": p.title()} for p in players], seed="g", passwords=False)
    before = copy.deepcopy(Campaign.open(campaign.root).state())
    before.update(stage="mission", mission_turn=1, start="ann", pool=[
        {"colour": "red", "icon": "satellite"}, {"colour": "blue", "icon": "power-plant"},
        {"colour": "green", "icon": "submarine"}, {"colour": "yellow", "icon": "army-base"},
        {"colour": "yellow", "icon": "gun"}])
    for p, colour, icon in zip(players, ["red", "blue", "green", "yellow"],
                               ["satellite", "submarine", "army-base", "power-plant"], strict=True):
        before["identity"][p] = {"colour": colour, "icon": icon}
    orders = {
        "ann": [{"pick": {"colour": "red", "icon": "satellite"}, "guess": [{"player": "ben", "colour": "blue", "icon": "submarine"}]}],
        "ben": [],
        "cat": [{"pick": {"colour": "green", "icon": "submarine"}, "guess": [{"player": "ben", "colour": "blue", "icon": "submarine"}]}],
        "dan": [],
    }
    after, events = GAME.resolve(before, orders, Rng("g", 1))
    reports = render_reports(GAME, Renderer("hide", None), campaign.setup_record(), after, 1, events, {}, before)
    cat = reports["reports/cat.txt"].decode()
    assert ("Cat shoots at Dan, guessing green submarine (everyone you guessed at is already out: the default one, "
            "HIDE-14): missed.") in cat
    assert "your list gave no guess" not in cat
    dan = reports["reports/dan.txt"].decode()
    assert "(the default pick carries no guess: the default one, HIDE-14): missed." in dan
    assert "HIDE-14" not in reports["reports/public.md"].decode()


def _read(state: dict, player: str, items: list) -> list[str]:
    return [r.void or "" for r in GAME.read_orders(GAME.view(state, player), player, list(enumerate(items)))]


def _mission_state(players: list[str]) -> dict:
    state = _setup(players)
    state["stage"], state["mission_turn"] = "mission", 1
    for p, icon in zip(players, ["satellite", "submarine", "army-base", "power-plant", "satellite"], strict=False):
        state["identity"][p]["icon"] = icon
    state["pool"] = [{"colour": "red", "icon": "gun"}, {"colour": "blue", "icon": "satellite"}]
    return state


def test_an_order_not_understood_says_which_word_and_names_a_player_of_this_campaign() -> None:
    """HIDE-28: 'pick purple gun' is void because purple is no colour, and says so; the example of
    a guess names a real player of this campaign (another one, still in), never one of the demo's."""
    state = _mission_state(["zoe", "yan", "xavier"])
    reasons = _read(state, "zoe", ["pick purple gun", "purple gun", "hello there", "pick red gun guess yan red",
                                   "pick red gun guess yan red sat tonight"])
    assert reasons[0] == "'purple' is not a die colour: the colours are red, blue, green and yellow"
    assert reasons[1] == reasons[0]
    assert reasons[2].startswith("not understood: an order begins with 'pick' (or a die's colour), 'gadget' or "
                                 "'last man', not 'hello'") and "guess yan green army base" in reasons[2]
    assert reasons[3] == "the guess 'yan red' names no icon: write a player, a colour and an icon, e.g. 'yan red satellite'"
    assert reasons[4] == ("the guess 'yan red sat tonight' must be a player, a colour and an icon, "
                          "e.g. 'yan red satellite'")
    for reason in reasons:
        assert "bruno" not in reason and "chiara" not in reason and "zoe" not in reason, reason


def test_a_guess_at_nobody_valid_lists_only_the_agents_one_may_guess_at() -> None:
    state = _mission_state(["ann", "ben", "cat", "dan"])
    state["names"]["ben"] = "Benjamin"
    state["out"] = {"dan": {"by": "cat", "mission_turn": 1}}
    reasons = _read(state, "ann", ["pick red gun as sat guess zed red sat", "pick red gun as sat guess ann red sat",
                                   "pick red gun as sat guess dan red sat"])
    assert reasons == ["there is no player called 'zed': you may guess at ben (Benjamin) or cat",
                       "you cannot guess your own identity die: you may guess at ben (Benjamin) or cat",
                       "Dan is already out of this round: you may guess at ben (Benjamin) or cat"]


@pytest.mark.parametrize("stage, item", [
    ("security", "security moonbase"), ("security", {"security": "moonbase"}), ("security", "security gun"),
    ("security", {"security": "gun"}), ("security", "moonbase"),
    ("identity", "target moonbase"), ("identity", {"target": "gun"}), ("identity", "power plant"),
    ("mission", "last man moonbase"), ("mission", "last man gun"), ("mission", {"last_man": "gun"}),
    ("mission", "pick red gun as moonbase"), ("mission", {"pick": "red gun", "gun": "moonbase"}),
    ("mission", "pick red gun guess ben red moonbase"), ("mission", "pick red gun guess ben red gun"),
])
def test_a_list_of_buildings_in_a_reason_holds_only_the_valid_ones(stage: str, item: object) -> None:
    """HIDE-28, HIDE-9: a building that is void where it is written is never offered: no gun where a
    building is asked for, no secured building as a target."""
    state = _mission_state(["ann", "ben", "cat", "dan"])
    state["stage"], state["security"] = stage, "power-plant" if stage == "identity" else None
    [reason] = _read(state, "ann", [item])
    assert reason, item
    listed = reason.split(" may be ")[-1] if " may be " in reason else reason.split(" is turned to ")[-1]
    assert "gun" not in listed.split(", or written")[0], reason
    if stage == "identity":
        assert listed == "army base, satellite or submarine", reason
    else:
        assert listed.startswith("army base, satellite, submarine or power plant"), reason
