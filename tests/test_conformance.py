"""One conformance suite for every registered game (style 7).

Demo to the end with invariants at every step, audit clean and tamper-evident,
byte-identical outputs under other hash seeds and folder names, and
non-interference: worlds that differ only in one player's secrets give every
other player (and the public) the very same report.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.audit import audit
from adjudicator.campaign import Campaign
from adjudicator.demo import play
from adjudicator.games import GAMES
from worlds import disguised_worlds

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module", params=sorted(GAMES))
def finished(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Campaign:
    root = tmp_path_factory.mktemp(request.param) / "campaign"
    return play(root, request.param, seed=f"conformance-{request.param}", players=None, passwords=False)


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


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_outputs_are_byte_identical_across_hash_seeds_and_folders(game_id: str, tmp_path: Path) -> None:
    trees = []
    for hashseed, folder in (("1", "first"), ("4242", "second/deeper")):
        root = tmp_path / folder / "camp"
        root.parent.mkdir(parents=True)
        env = {**os.environ, "PYTHONHASHSEED": hashseed, "PYTHONPATH": str(REPO)}
        subprocess.run(
            [sys.executable, "-m", "adjudicator", "demo", game_id, str(root), "--seed", "same", "--no-passwords"],
            check=True, env=env, capture_output=True, cwd=tmp_path,
        )
        trees.append(_tree(root))
    assert trees[0].keys() == trees[1].keys()
    differing = [name for name in trees[0] if trees[0][name] != trees[1][name]]
    assert not differing


def test_non_interference(finished: Campaign) -> None:
    """Change one player's hidden information: nobody else's report moves by a byte."""
    checked = 0
    for world in disguised_worlds(finished):
        for name, played, disguised in world.others_reports():
            assert disguised == played, f"turn {world.number}: {name} moved when {world.holder}'s secrets changed"
            checked += 1
    assert checked > 0, "the game offered no disguised worlds to check"
