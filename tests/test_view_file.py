"""A player's view file: `pbem check FILE --view VIEWFILE` with nothing else, and nothing in it
beyond that player's view (issue 16 item 8, issue 15 item 1's check half)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from worlds import disguised_worlds

from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.demo import play, write_demo_orders
from adjudicator.campaign.folder import Campaign
from adjudicator.campaign.viewfile import for_report, view_file
from adjudicator.cli import main
from adjudicator.games import GAMES

REPO = Path(__file__).resolve().parent.parent


def pbem(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module", params=sorted(GAMES))
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Campaign:
    return play(tmp_path_factory.mktemp(request.param) / "campaign", request.param, seed="leak-2", players=None, passwords=False)


def test_a_view_file_holds_nothing_beyond_its_players_view(played: Campaign) -> None:
    """Another player's secrets changed (the disguised worlds of every turn): every other
    player's view file stays byte for byte the same."""
    game, name = played.game, played.config["name"]
    compared = 0
    for world in disguised_worlds(played, purpose="view-file"):
        for other in (p for p in world.base_after["players"] if p != world.holder):
            disguised = view_file(game, name, False, world.after, world.number + 1, other)
            assert disguised == view_file(game, name, False, world.base_after, world.number + 1, other), (
                f"turn {world.number}: {other}'s view file moved with {world.holder}'s secrets")
            compared += 1
    assert compared, "no disguised world to compare"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_check_with_a_view_file_alone_reads_as_the_campaign_does(game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Three turns of a demo, then the demo's orders for the fourth checked by the GM (--campaign)
    and by each player with only their view file, in a folder with nothing else, in a fresh process."""
    root = tmp_path / "campaign"
    pbem(capsys, "new", root, "--game", game_id, "--players", "ann,ben,cat,dan" if game_id != "jekyll" else "ann,ben",
         "--no-passwords", "--seed", "view")
    campaign = Campaign.open(root)
    for _ in range(3):
        write_demo_orders(campaign, {})
        adjudicate(root)
    write_demo_orders(campaign, {}, purpose="check")
    alone = tmp_path / "player"
    alone.mkdir()
    orders = campaign.turn_dir(campaign.last_turn + 1) / "orders"
    checked = 0
    for order in sorted(orders.iterdir()):
        player = order.stem
        view = alone / f"{player}.view.json"
        view.write_bytes(for_report(campaign, campaign.last_turn, player) or b"")
        mine = alone / order.name
        shutil.copy(order, mine)
        code, out, _ = pbem(capsys, "check", mine, "--campaign", root)
        theirs = subprocess.run([sys.executable, "-m", "adjudicator", "check", mine.name, "--view", view.name],
                                cwd=alone, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
        assert theirs.returncode == code == 0, theirs.stdout + theirs.stderr + out
        assert theirs.stdout.replace(mine.name, str(mine)).splitlines() == out.splitlines()
        checked += 1
    assert checked


def test_a_file_for_another_seat_learns_nothing_of_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "spies"
    assert pbem(capsys, "new", root, "--game", "secrets", "--players", "a,b,c", "--no-passwords", "--seed", "v")[0] == 0
    code, view, _ = pbem(capsys, "report", root, "--turn", 0, "--player", "a", "--view")
    assert code == 0 and json.loads(view)["player"] == "a"
    (tmp_path / "a.view.json").write_text(view)
    probe = tmp_path / "b.yaml"
    probe.write_text(yaml.safe_dump({"player": "b", "turn": 1, "orders": [{"sid": 1, "guard": 3}, "SID 2 steal c 4"]}))
    code, out, _ = pbem(capsys, "check", probe, "--view", tmp_path / "a.view.json")
    assert code == 1 and "REJECTED" in out and "says 'b'" in out and "a's view file" in out
    assert "guard" not in out.split("REJECTED", 1)[1] and "steal" not in out  # not one order of b's is read


def test_a_view_file_comes_with_each_report_and_says_what_is_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "spies"
    pbem(capsys, "new", root, "--game", "secrets", "--players", "a,b,c", "--seed", "v")
    order = tmp_path / "a.yaml"
    order.write_text("player: a\nturn: 1\norders: []\n")
    assert "no such view file" in pbem(capsys, "check", order, "--view", tmp_path / "none.json")[2]
    assert "not a view file" in pbem(capsys, "check", order, "--view", order)[2]
    code, view, _ = pbem(capsys, "report", root, "--player", "a", "--view")
    (tmp_path / "a.view.json").write_text(view)
    code, out, _ = pbem(capsys, "check", order, "--view", tmp_path / "a.view.json")
    assert code == 0 and "accepted for a, turn 1" in out and "The password is not checked here" in out
    assert "--view needs --player" in pbem(capsys, "report", root, "--view")[2]


def test_check_refuses_what_is_not_a_regular_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import os

    root = tmp_path / "spies"
    pbem(capsys, "new", root, "--game", "secrets", "--players", "a,b,c", "--seed", "v")
    fifo = tmp_path / "a.yaml"
    os.mkfifo(fifo)  # reading it would wait for a writer for ever
    code, _, err = pbem(capsys, "check", fifo, "--campaign", root)
    assert code == 1 and "not a regular file" in err
