"""One conformance suite for every registered game (style 7).

Demo to the end with invariants at every step, audit clean and tamper-evident,
byte-identical outputs under other hash seeds and folder names, and
non-interference: worlds that differ only in one player's secrets give every
other player (and the public) the very same report; `resolve` changes none of its
inputs; every numbered decision of the rule document has a case; every event a code.

The suite runs over the `game_id` fixture: every registered game here, and a game
added by `games.register` in a module that imports these tests and overrides the
fixture (tests/test_toy_game.py does, for a toy sixth game).
"""

from __future__ import annotations

import ast
import copy
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.campaign.audit import audit
from adjudicator.campaign.folder import Campaign
from adjudicator.campaign.demo import play
from adjudicator.common.rng import Rng
from adjudicator.games import GAMES
from adjudicator.games.base import standin_view
from worlds import disguised_worlds

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module", params=sorted(GAMES))
def game_id(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def finished(game_id: str, tmp_path_factory: pytest.TempPathFactory) -> Campaign:
    root = tmp_path_factory.mktemp(game_id) / "campaign"
    return play(root, game_id, seed=f"conformance-{game_id}", players=None, passwords=False)


def _turns(campaign: Campaign) -> list[int]:
    return list(range(1, campaign.last_turn + 1))


def test_demo_reaches_the_end_with_invariants(finished: Campaign) -> None:
    game = finished.game
    assert game.is_over(finished.state())
    assert game.winners(finished.state()), "a finished game names its winners"
    for number in [0, *_turns(finished)]:
        problems = game.invariants(finished.state(number))
        assert not problems, f"turn {number}: {problems}"


def test_audit_is_clean_and_catches_tampering(finished: Campaign, tmp_path: Path) -> None:
    assert audit(finished.root).divergence is None
    copy = tmp_path / "copy"
    shutil.copytree(finished.root, copy)
    report = copy / "turn-001" / "reports" / "public.md"
    report.write_bytes(report.read_bytes().replace(b"\n", b"\n ", 1))
    result = audit(copy)
    assert result.divergence == "turn-001/reports/public.md differs from the replay"


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != ".lock"
    }


@pytest.mark.parametrize("players", ["random", "standins"])
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_outputs_are_byte_identical_across_hash_seeds_and_folders(game_id: str, players: str, tmp_path: Path) -> None:
    """The demo, played by random legal players or by the stand-ins (`--standins`)."""
    trees = []
    for hashseed, folder in (("1", "first"), ("4242", "second/deeper")):
        root = tmp_path / folder / "camp"
        root.parent.mkdir(parents=True)
        env = {**os.environ, "PYTHONHASHSEED": hashseed, "PYTHONPATH": str(REPO)}
        subprocess.run(
            [sys.executable, "-m", "adjudicator", "demo", game_id, str(root), "--seed", "same", "--no-passwords",
             *(["--standins"] if players == "standins" else [])],
            check=True, env=env, capture_output=True, cwd=tmp_path, timeout=600,
        )
        trees.append(_tree(root))
    assert trees[0].keys() == trees[1].keys()
    differing = [name for name in trees[0] if trees[0][name] != trees[1][name]]
    assert not differing


def test_non_interference(finished: Campaign) -> None:
    """Change one player's hidden information: nobody else's report moves by a byte, and
    nobody else's view (what any template, a GM's own included, can read) changes at all."""
    game = finished.game
    checked = 0
    for world in disguised_worlds(finished):
        if (world.before, world.orders) == (world.base_before, world.base_orders):
            continue  # a disguise that changed nothing (the player had no secret to vary) checks nothing
        for name, played, disguised in world.others_reports():
            assert disguised == played, f"turn {world.number}: {name} moved when {world.holder}'s secrets changed"
            checked += 1
        for reader in [None, *(p for p in world.after["players"] if p != world.holder)]:
            assert game.view(world.after, reader) == game.view(world.base_after, reader), (
                f"turn {world.number}: {reader or 'the public'}'s view changed when {world.holder}'s secrets changed"
            )
    assert checked > 0, "the game offered no disguised world that differs from the one played"


def test_resolve_leaves_its_input_untouched(finished: Campaign) -> None:
    """State and orders are values (style 2): `resolve` copies before it changes anything, so a
    caller may keep, compare or resolve the same input again (as the disguised worlds do)."""
    game, seed = finished.game, finished.seed() or ""
    for number in _turns(finished):
        before = finished.state(number - 1)
        orders = json.loads((finished.turn_dir(number) / "results.json").read_text())["orders_resolved"]
        kept = copy.deepcopy((before, orders))
        game.resolve(before, orders, Rng(seed, number))
        assert (before, orders) == kept, f"turn {number}: resolve changed its input state or orders"


def test_every_event_has_a_code(finished: Campaign) -> None:
    """Templates, cases and the rule document's event list key on `code` (docs/adding-a-game.md)."""
    for number in _turns(finished):
        for event in json.loads((finished.turn_dir(number) / "results.json").read_text())["events"]:
            assert isinstance(event.get("code"), str) and event["code"], f"turn {number}: an event without a code: {event}"


def decisions_without_cases(rules: Path, cases: Path, game_id: str) -> list[str]:
    """The numbered decisions (`<ID>-<n>` in bold at the start of a paragraph) of a rule
    document that no case file under `cases` names (design 9)."""
    prefix = re.escape(game_id.upper())
    numbered = sorted(set(re.findall(rf"^\*\*({prefix}-\d+)\b", rules.read_text(encoding="utf-8"), re.MULTILINE)),
                      key=lambda d: int(d.rpartition("-")[2]))
    named = " ".join(path.read_text(encoding="utf-8") for path in cases.glob("*.yaml"))
    return [d for d in numbered if not re.search(rf"\b{re.escape(d)}\b", named)]


def test_every_numbered_decision_has_a_case(game_id: str, rule_documents: Path, case_folders: Path) -> None:
    rules = rule_documents / f"{game_id}.md"
    assert rules.is_file(), f"{game_id} has no rule document {rules}"
    assert not decisions_without_cases(rules, case_folders / game_id, game_id)


@pytest.fixture(scope="module")
def rule_documents() -> Path:
    return REPO / "docs" / "rules"


@pytest.fixture(scope="module")
def case_folders() -> Path:
    return REPO / "tests" / "cases"


def test_the_demo_players_send_only_orders_that_stand(finished: Campaign) -> None:
    """The demo's orders are legal: none void, no file rejected (a void order would fall back to
    the default and hide a demo, or a reader, that no longer matches the rules)."""
    for number in _turns(finished):
        results = json.loads((finished.turn_dir(number) / "results.json").read_text())
        for player, submission in results["submissions"].items():
            assert submission["status"] == "accepted", f"turn {number}: {player}'s demo file was {submission['status']}: {submission['problems']}"
            void = [o for o in submission.get("orders", []) if o.get("void")]
            assert not void, f"turn {number}: {player}'s demo orders were void: {void}"


FORBIDDEN_IN_RULES = {"random", "time", "datetime", "os", "pathlib", "io", "shutil", "subprocess", "socket", "yaml", "jinja2", "rich"}
"""Design 3 and style 2: the rules are pure (no clock, no global randomness, no files, no
rendering); chance comes from the Rng they are given."""


@pytest.mark.parametrize("path", sorted((REPO / "adjudicator" / "games").rglob("*.py")), ids=lambda p: str(p.relative_to(REPO)))
def test_the_rules_import_no_clock_randomness_or_files(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module and not node.level}
    assert not imported & FORBIDDEN_IN_RULES, f"{path.name} imports {sorted(imported & FORBIDDEN_IN_RULES)}"


def test_a_demo_that_never_ends_fails_instead_of_filling_the_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator.campaign import demo
    from adjudicator.campaign.folder import CampaignError

    monkeypatch.setattr(demo, "DEMO_TURN_LIMIT", 2)  # Secrets takes 5 turns: as if its end never came
    with pytest.raises(CampaignError, match="has not ended after 2 turns"):
        demo.play(tmp_path / "endless", "secrets", seed="endless", players=None, passwords=False)


DICT_METHOD_IDS = ["items", "keys", "values", "get", "pop", "copy", "update", "setdefault"]
"""Valid player ids that are also the names of a dict's methods: a template reading a view keyed by
player ids (`v.revealed[p]`, `v.ranks.items`) must find that player's data, never the method."""


def _seatings(game_id: str) -> list[list[str]]:
    """Enough campaigns of the game that every such id holds a seat in one of them."""
    seats = min(GAMES[game_id].max_players, len(DICT_METHOD_IDS))
    starts = range(0, len(DICT_METHOD_IDS), seats)
    return [(DICT_METHOD_IDS * 2)[start:start + seats] for start in starts]


def test_every_game_plays_to_the_end_with_player_ids_named_like_dict_methods(game_id: str, tmp_path: Path) -> None:
    for number, ids in enumerate(_seatings(game_id)):
        root = tmp_path / f"campaign-{number}"
        campaign = play(root, game_id, seed=f"methods-{number}", players=len(ids), passwords=False, ids=ids)
        assert campaign.game.is_over(campaign.state()) and audit(root).divergence is None
        for turn in _turns(campaign):
            results = json.loads((campaign.turn_dir(turn) / "results.json").read_text())
            assert all(s["status"] == "accepted" for s in results["submissions"].values()), (ids, turn)
        opening = (root / "turn-000" / "reports" / "public.md").read_text()
        assert all(player.capitalize() in opening for player in ids), opening


# -- the stand-ins (design 14, docs/standins.md) -------------------------------------------


@pytest.fixture(scope="module")
def played_by_standins(game_id: str, tmp_path_factory: pytest.TempPathFactory) -> Campaign:
    root = tmp_path_factory.mktemp(f"standins-{game_id}") / "campaign"
    return play(root, game_id, seed=f"standins-{game_id}", players=None, passwords=False, standins=True)


def test_stand_ins_play_a_whole_game_with_orders_that_stand(played_by_standins: Campaign) -> None:
    """Every seat played by the game's stand-in (`pbem demo --standins`): the game ends, the
    invariants hold, and no stand-in file is rejected and no stand-in order is void."""
    game = played_by_standins.game
    assert game.is_over(played_by_standins.state()) and game.winners(played_by_standins.state())
    for number in _turns(played_by_standins):
        assert not game.invariants(played_by_standins.state(number)), f"turn {number}"
        results = json.loads((played_by_standins.turn_dir(number) / "results.json").read_text())
        for player, submission in results["submissions"].items():
            assert submission["status"] == "accepted", f"turn {number}: {player}'s stand-in file: {submission['problems']}"
            void = [o for o in submission.get("orders", []) if o.get("void")]
            assert not void, f"turn {number}: {player}'s stand-in orders were void: {void}"
    assert audit(played_by_standins.root).divergence is None


def test_a_stand_in_reads_only_its_seats_view(finished: Campaign) -> None:
    """Change one player's hidden information: every other seat's stand-in writes the very same orders,
    with every seat at the table a stand-in's (the most a stand-in is told of others, `standin_view`)."""
    game = finished.game
    checked = 0
    for world in disguised_worlds(finished):
        if world.before == world.base_before:
            continue  # only the holder's orders differ: no stand-in reads this turn's orders
        due = game.due(world.base_before)
        for seat in due:
            if seat == world.holder:
                continue
            stream = lambda: Rng(finished.seed() or "", world.number).stream(f"standin/{seat}")  # noqa: E731
            disguised = game.standin_orders(standin_view(game, world.before, seat, due), seat, stream())
            assert disguised == game.standin_orders(standin_view(game, world.base_before, seat, due), seat, stream()), (
                f"turn {world.number}: {seat}'s stand-in changed its orders when {world.holder}'s secrets changed"
            )
            checked += 1
    if game.id not in ORDERS_ONLY_DISGUISES:
        assert checked > 0, "the game offered no disguised state to check the stand-ins against"


ORDERS_ONLY_DISGUISES = {"hidekids": "a kid's hiding place lives in the turn's orders, never in the state a stand-in reads"}
