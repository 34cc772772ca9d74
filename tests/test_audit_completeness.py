"""`pbem audit` accounts for every turn folder: a turn removed, cut off or added after the end is a divergence.

Design 8: `pbem audit DIR` replays every turn and exits 1 naming the first divergence. Replaying
only the turns that happen to be present is not enough: an archive with a turn deleted (and the
ones after it left in place), a turn whose manifest was removed, or the last turns cut off after
the seed was revealed must not pass as clean.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.audit import audit
from adjudicator.campaign.folder import Campaign, read_yaml
from adjudicator.cli import main
from adjudicator.campaign.demo import play, write_demo_orders
from adjudicator.campaign.create import create
from adjudicator.judge.replace import replace


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished, revealed secrets campaign, as `pbem demo secrets DIR` leaves it (turns 1-5)."""
    root = tmp_path_factory.mktemp("finished") / "c1"
    play(root, "secrets", "audit-completeness", None)
    assert (root / "reveal.yaml").is_file() and Campaign.open(root).over
    assert sorted(p.name for p in root.glob("turn-*")) == [f"turn-00{n}" for n in range(6)]
    return root


@pytest.fixture
def copy(finished: Path, tmp_path: Path) -> Path:
    target = tmp_path / "copy"
    shutil.copytree(finished, target)
    return target


def run_audit(capsys: pytest.CaptureFixture[str], root: Path) -> tuple[int, str]:
    code = main(["audit", str(root)])
    out, err = capsys.readouterr()
    return code, out + err


def test_the_finished_demo_audits_clean(finished: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_audit(capsys, finished)
    assert code == 0, out
    assert "Audit clean: the opening and 5 turns replay byte for byte." in out


def test_a_missing_turn_in_the_middle_is_a_divergence(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.rmtree(copy / "turn-003")
    code, out = run_audit(capsys, copy)
    assert code == 1, out
    assert "AUDIT FAILED at turn 3" in out
    assert "turn-003 is missing, but turn-004 and turn-005 follow it" in out


def test_a_turn_without_its_manifest_is_a_divergence(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (copy / "turn-002" / "manifest.json").unlink()
    code, out = run_audit(capsys, copy)
    assert code == 1, out
    assert "AUDIT FAILED at turn 2" in out
    assert "turn-002 has no manifest.json, yet holds what an adjudication writes (reports/, results.json, state.json)" in out


def test_a_revealed_campaign_cut_off_before_the_end_is_a_divergence(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.rmtree(copy / "turn-005")
    code, out = run_audit(capsys, copy)
    assert code == 1, out
    assert "the seed was revealed after turn 4 but the game is not over: later turns are missing (turn-005 is missing)" in out


def test_a_revealed_campaign_whose_last_turn_was_emptied_to_its_orders(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """turn-005 stripped to its orders looks like a pending turn, but the seed is revealed: the game was over."""
    for name in ("manifest.json", "state.json", "results.json"):
        (copy / "turn-005" / name).unlink()
    shutil.rmtree(copy / "turn-005" / "reports")
    code, out = run_audit(capsys, copy)
    assert code == 1, out
    assert "later turns are missing (turn-005 is not adjudicated)" in out


def test_a_turn_folder_after_the_end_of_the_game_is_a_divergence(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (copy / "turn-006" / "orders").mkdir(parents=True)
    code, out = run_audit(capsys, copy)
    assert code == 1, out
    assert "turn-006 exists, but the replayed game ended with turn 5" in out


def test_a_copy_of_a_turn_under_another_name_is_a_divergence(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(copy / "turn-002", copy / "turn-2")
    code, out = run_audit(capsys, copy)
    assert code == 1, out
    assert "turn-2 is named like a turn folder but not as pbem names them (turn-002)" in out


def test_run_time_folders_are_not_turns(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(copy / "turn-005", copy / ".turn-006.new")
    assert run_audit(capsys, copy)[0] == 0


# -- a campaign still running: the GM audits with gm/seed.yaml --------------------------------------


@pytest.fixture
def running(tmp_path: Path) -> Path:
    """A secrets campaign after turn 1, turn 2 pending with orders and a replacement player."""
    root = tmp_path / "running"
    create(root, "secrets", [{"id": p, "name": p.capitalize()} for p in ("ann", "ben", "cat")], seed="running", name="Running")
    campaign = Campaign.open(root)
    passwords = {str(k): str(v) for k, v in read_yaml(root / "gm" / "passwords.yaml").items()}
    write_demo_orders(campaign, passwords)
    adjudicate(root)
    write_demo_orders(campaign, passwords)
    replace(root, "cat", name="Cora")
    assert (root / "turn-002" / "seats.yaml").is_file() and list((root / "turn-002" / "orders").iterdir())
    return root


def test_the_pending_turn_is_not_a_divergence(running: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_audit(capsys, running)
    assert code == 0, out
    assert "the opening and 1 turn replay" in out


def test_no_pending_folder_at_all_is_not_a_divergence(running: Path) -> None:
    shutil.rmtree(running / "turn-002")
    assert audit(running).divergence is None


def test_a_turn_after_the_pending_one_is_a_divergence(running: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(running / "turn-001", running / "turn-003")
    code, out = run_audit(capsys, running)
    assert code == 1, out
    assert "turn-003 comes after the pending turn turn-002, which has not been adjudicated" in out


def test_a_pending_turn_holding_reports_is_cut_off(running: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (running / "turn-002" / "reports").mkdir()
    code, out = run_audit(capsys, running)
    assert code == 1, out
    assert "turn-002 has no manifest.json, yet holds what an adjudication writes (reports/)" in out


def test_a_revealed_seed_in_a_running_campaign_is_a_divergence(running: Path) -> None:
    seed = (running / "gm" / "seed.yaml").read_bytes()
    (running / "reveal.yaml").write_bytes(seed)
    result = audit(running)
    assert result.divergence is not None
    assert "the seed was revealed after turn 1 but the game is not over" in result.divergence
    assert "turn-002 is not adjudicated" in result.divergence


# -- what an adjudicated turn folder holds: only what its adjudication wrote (issue 15, item 13) ---------


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ("turn-002/notes.txt", "turn-002/notes.txt is not written by the replay (an adjudicated turn holds only what its adjudication wrote)"),
        ("turn-002/old/state.json", "turn-002/old is not written by the replay"),
        ("turn-000/orders/tony.yaml", "turn-000/orders is not written by the replay"),
        ("turn-003/reports/public.md.bak", "turn-003/reports/public.md.bak is not written by the replay"),
        ("turn-004/orders/README.txt", "turn-004/orders/README.txt was added after the turn was adjudicated"),
    ],
)
def test_a_file_added_to_an_adjudicated_turn_is_a_divergence(copy: Path, capsys: pytest.CaptureFixture[str], extra: str, words: str) -> None:
    path = copy / extra
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("added after the turn\n")
    code, out = run_audit(capsys, copy)
    assert code == 1 and words in " ".join(out.split()), out


def test_a_symlink_added_to_an_adjudicated_turns_orders_is_a_divergence(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Entries of orders/ that are not regular files are never read, but each is named in the
    turn's results.json (and so its manifest): one added later makes the replay differ."""
    (copy / "turn-002" / "orders" / "link.yaml").symlink_to(copy / "campaign.yaml")
    code, out = run_audit(capsys, copy)
    assert code == 1 and "turn-002/manifest.json differs from the replay" in out, out


def test_run_time_files_in_a_turn_are_not_divergences(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (copy / "turn-002" / ".lock").touch()
    (copy / "turn-002" / "orders" / ".tony.yaml.tmp").write_text("half")
    assert run_audit(capsys, copy)[0] == 0


def test_a_pending_turn_holding_a_stray_file_is_refused_before_anything_is_written(running: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Adjudicating would carry `notes.txt` into the committed turn (whose audit then fails) or
    drop it: the GM is told to move it, and nothing is written."""
    (running / "turn-002" / "notes.txt").write_text("remember to chase cat\n")
    code = main(["adjudicate", str(running), "--nmr"])
    out = " ".join(capsys.readouterr().err.split())
    assert code == 1 and "turn-002/notes.txt is not part of a turn (a pending turn folder holds only orders/ and, after pbem replace, seats.yaml); nothing was written" in out, out
    assert not (running / "turn-002" / "manifest.json").exists() and (running / "turn-002" / "notes.txt").is_file()
    (running / "turn-002" / "notes.txt").unlink()
    assert main(["adjudicate", str(running), "--nmr"]) == 0 and audit(running).divergence is None
