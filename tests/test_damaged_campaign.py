"""A campaign whose own files are damaged (state.json, setup.json, gm/seed.yaml, reveal.yaml):
every command says which file and what is wrong in one line and exits 1, never with a Python
traceback, and `pbem adjudicate` goes on with the other campaigns it was given."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.campaign.folder import Campaign, CampaignError, read_json_object
from adjudicator.cli import main
from adjudicator.campaign.create import create

REPO = Path(__file__).resolve().parent.parent
PLAYERS = ("a", "b", "c")
RESTORE = "cannot be read until it is restored"

DIR = "a folder"
MISSING = "no file"

# content -> the words the message must hold (besides the file's name)
JSON_DAMAGE = {
    b"{bad": "not valid JSON: Expecting property name",
    b"": "it is empty",
    b"  \n": "it is empty",
    b"\xff\xfe\x00\x81garbage\x00": "not UTF-8 text",
    b"[" * 100_000: "not valid JSON",
    b"[]": "a list where an object should be",
    b'"state"': "a text where an object should be",
    b"null": "null where an object should be",
    b"42": "a number where an object should be",
    DIR: "a folder where the file should be",
    MISSING: "is missing",
}
STATE_SHAPES = {
    b'{"turn": 1}': 'it has no "players"',
    b'{"players": "a,b,c"}': '"players" is a text where a list should be',
}
SETUP_SHAPES = {
    b'{"players": []}': 'it has no "name"',
    b'{"name": "q", "players": {}, "options": {}, "seed_commitment": "x", "passwords": false}': '"players" is an object where a list should be',
    b'{"name": "q", "players": ["a"], "options": {}, "seed_commitment": "x", "passwords": false}': 'an entry of "players"',
}
SEED_DAMAGE = {
    b"seed: [\n": "not valid YAML",
    b"": "it is empty",
    b"# nothing\n": "it is empty",
    b"\xff\xfe\x00\x81garbage": "not valid YAML",
    b"- seed\n": "a list where a mapping (key: value lines) should be",
    b"just some words\n": "a text where a mapping",
    b"{}\n": 'it has no "seed"',
    b"seed:\n": '"seed" is null where the seed',
    b"seed: [1, 2]\n": '"seed" is a list where the seed',
    b"seed: " + b"9" * 5000 + b"\n": "not valid YAML: Exceeds the limit",
}


def _ids(cases: dict) -> list[str]:
    """Each case is named by what the message must say."""
    return list(cases.values())


def pbem(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out and "Traceback" not in err, err
    return code, out, err


def new(root: Path) -> Path:
    create(root, "secrets", [{"id": p, "name": p.title()} for p in PLAYERS], seed="z", passwords=False)
    return root


def damage(path: Path, content: bytes | str) -> None:
    if path.is_dir():
        path.rmdir()
    elif path.exists():
        path.unlink()
    if content == DIR:
        path.mkdir()
    elif content != MISSING:
        path.write_bytes(content)  # type: ignore[arg-type]


@pytest.fixture
def two(tmp_path: Path) -> tuple[Path, Path]:
    """q1 (to be damaged) and q2 (healthy), both waiting for turn 1."""
    return new(tmp_path / "q1"), new(tmp_path / "q2")


def assert_one_line_naming(err: str, path: Path, words: str) -> None:
    line = next((line for line in err.splitlines() if str(path) in line), None)
    assert line is not None, f"{path} not named in: {err!r}"
    assert line.startswith("pbem: ") and words in line, line
    if words != "is missing" and "seed" not in path.name:
        assert RESTORE in line and "backup" in line, line


def adjudicate_both(capsys: pytest.CaptureFixture[str], q1: Path, q2: Path, *extra: str) -> str:
    """`pbem adjudicate q1 q2 --nmr`: q1's problem is named, q2's turn is done, exit 1."""
    before = sorted(p.name for p in q1.iterdir() if not p.name.startswith("."))
    code, out, err = pbem(capsys, "adjudicate", q1, q2, "--nmr", *extra)
    assert code == 1, (out, err)
    assert (q2 / "turn-001" / "manifest.json").is_file(), err
    assert "q2: turn 1 adjudicated" in " ".join(out.split())
    assert "q1" not in out and len(err.strip().splitlines()) == 1, err
    assert sorted(p.name for p in q1.iterdir() if not p.name.startswith(".")) == before  # nothing new in the damaged campaign (.lock is a run-time file)
    return err


# -- state.json -------------------------------------------------------------------------------------


@pytest.mark.parametrize("content", [*JSON_DAMAGE, *STATE_SHAPES], ids=_ids({**JSON_DAMAGE, **STATE_SHAPES}))
def test_a_damaged_opening_state(two: tuple[Path, Path], capsys: pytest.CaptureFixture[str], content: bytes | str) -> None:
    q1, q2 = two
    path = q1 / "turn-000" / "state.json"
    damage(path, content)
    words = {**JSON_DAMAGE, **STATE_SHAPES}[content]
    assert_one_line_naming(adjudicate_both(capsys, q1, q2), path, words)
    assert not (q1 / "turn-001" / "manifest.json").exists()
    for command in (("status", q1), ("show", q1, "--json"), ("show", q1), ("check", q1 / "turn-001" / "orders" / "a.yaml", "--campaign", q1)):
        code, out, err = pbem(capsys, *command)
        assert code == 1 and out == "", (command, out)
        assert len(err.strip().splitlines()) == 1, err
        assert_one_line_naming(err, path, words)
    code, out, _ = pbem(capsys, "audit", q1)  # the audit replays the state and finds it differs or is gone
    assert code == 1 and "AUDIT FAILED at turn 0: turn-000/state.json" in out


@pytest.mark.parametrize("content", [b"{bad", b"[]", b'{"turn": 1}', DIR, MISSING], ids=["json", "list", "no-players", "folder", "missing"])
def test_a_damaged_state_of_an_adjudicated_turn(two: tuple[Path, Path], capsys: pytest.CaptureFixture[str], content: bytes | str) -> None:
    q1, q2 = two
    assert pbem(capsys, "adjudicate", q1, "--nmr")[0] == 0
    path = q1 / "turn-001" / "state.json"
    damage(path, content)
    words = {**JSON_DAMAGE, **STATE_SHAPES}[content]
    assert_one_line_naming(adjudicate_both(capsys, q1, q2), path, words)
    assert not (q1 / "turn-002" / "manifest.json").exists()
    for command in (("status", q1), ("show", q1, "--json")):
        code, out, err = pbem(capsys, *command)
        assert code == 1 and out == ""
        assert_one_line_naming(err, path, words)


def test_the_healthy_campaigns_go_on_in_worker_processes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    q1, q2 = new(tmp_path / "q1"), new(tmp_path / "q2")
    path = q1 / "turn-000" / "state.json"
    damage(path, b"{bad")
    err = adjudicate_both(capsys, q1, q2, "--jobs", "2")
    assert_one_line_naming(err, path, "not valid JSON")


# -- setup.json --------------------------------------------------------------------------------------


@pytest.mark.parametrize("content", [*JSON_DAMAGE, *SETUP_SHAPES], ids=_ids({**JSON_DAMAGE, **SETUP_SHAPES}))
def test_a_damaged_setup_record(two: tuple[Path, Path], capsys: pytest.CaptureFixture[str], content: bytes | str) -> None:
    q1, q2 = two
    path = q1 / "turn-000" / "setup.json"
    damage(path, content)
    words = {**JSON_DAMAGE, **SETUP_SHAPES}[content]
    assert_one_line_naming(adjudicate_both(capsys, q1, q2), path, words)
    assert not (q1 / "turn-001" / "manifest.json").exists()
    code, out, err = pbem(capsys, "audit", q1)
    assert code == 1 and out == ""
    assert_one_line_naming(err, path, words)


# -- gm/seed.yaml and reveal.yaml ---------------------------------------------------------------------------


@pytest.mark.parametrize("content", list(SEED_DAMAGE), ids=_ids(SEED_DAMAGE))
def test_a_damaged_seed(two: tuple[Path, Path], capsys: pytest.CaptureFixture[str], content: bytes) -> None:
    q1, q2 = two
    path = q1 / "gm" / "seed.yaml"
    damage(path, content)
    words = SEED_DAMAGE[content]
    err = adjudicate_both(capsys, q1, q2)
    assert_one_line_naming(err, path, words)
    assert RESTORE in err
    assert not (q1 / "turn-001" / "manifest.json").exists()
    code, out, err = pbem(capsys, "audit", q1)
    assert code == 1 and out == ""
    assert_one_line_naming(err, path, words)


@pytest.mark.parametrize("content", [DIR, MISSING], ids=["folder", "missing"])
def test_a_seed_that_is_not_there(two: tuple[Path, Path], capsys: pytest.CaptureFixture[str], content: str) -> None:
    q1, q2 = two
    damage(q1 / "gm" / "seed.yaml", content)
    err = adjudicate_both(capsys, q1, q2)
    assert "q1: the seed is missing (gm/seed.yaml)" in err
    code, _, err = pbem(capsys, "audit", q1)
    assert code == 1 and "no seed to replay with" in err and "gm/seed.yaml" in err


def test_a_damaged_reveal(two: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    q1, q2 = two
    path = q1 / "reveal.yaml"  # read before gm/seed.yaml, by anyone auditing
    damage(path, b"seed: [\n")
    assert_one_line_naming(adjudicate_both(capsys, q1, q2), path, "not valid YAML")
    damage(path, b"commitment: abc\n")
    code, _, err = pbem(capsys, "audit", q1)
    assert code == 1
    assert_one_line_naming(err, path, 'it has no "seed"')


def test_a_huge_number_in_campaign_yaml(two: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    q1, q2 = two
    path = q1 / "campaign.yaml"
    path.write_bytes(path.read_bytes() + b"note: " + b"9" * 5000 + b"\n")
    adjudicate_both(capsys, q1, q2)
    code, _, err = pbem(capsys, "status", q1)
    assert code == 1 and f"{path} is not valid YAML" in err


# -- the reviewer's steps, as a GM types them -----------------------------------------------------------------


def test_the_reported_steps_in_a_real_process(tmp_path: Path) -> None:
    q1, q2 = new(tmp_path / "q1"), new(tmp_path / "q2")
    (q1 / "turn-000" / "state.json").write_text("{bad\n")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "adjudicator", *args], cwd=tmp_path, capture_output=True, text=True,
                              env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}, timeout=120, check=False)

    for args in (("adjudicate", "q1", "q2", "--nmr"), ("status", "q1"), ("show", "q1", "--json")):
        result = run(*args)
        assert result.returncode == 1, result.stderr
        assert "Traceback" not in result.stderr + result.stdout, result.stderr
        assert result.stderr.startswith("pbem: q1/turn-000/state.json is damaged (not valid JSON: Expecting property name"), result.stderr
        assert "git checkout" in result.stderr
    assert (q2 / "turn-001" / "manifest.json").is_file()


# -- the reader itself -----------------------------------------------------------------------------------------


def test_the_reader_returns_a_sound_file_unchanged(two: tuple[Path, Path]) -> None:
    q1, _ = two
    path = q1 / "turn-000" / "state.json"
    assert read_json_object(path, {"players": list}) == json.loads(path.read_text())
    campaign = Campaign.open(q1)
    assert campaign.state(0)["players"] == list(PLAYERS)
    assert [p["id"] for p in campaign.setup_record()["players"]] == list(PLAYERS)
    assert campaign.seed() == "z"


def test_the_reader_raises_campaign_error_naming_the_file(two: tuple[Path, Path]) -> None:
    q1, _ = two
    path = q1 / "turn-000" / "state.json"
    path.write_text('{"players": 3}')
    with pytest.raises(CampaignError, match=r"state\.json is damaged \(\"players\" is a number where a list should be\)"):
        Campaign.open(q1).state()


# -- damage no check foresees, and a damaged seats.yaml -------------------------------------------


def test_damage_no_check_foresees_names_the_campaign_and_the_rest_go_on(two: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """A state that has the fields every state has but not the game's own: the game's code fails.
    The campaign is named in one line, nothing is written to it, the other campaign gets its turn."""
    q1, q2 = two
    damage(q1 / "turn-000" / "state.json", b'{"players": ["a", "b", "c"]}')
    err = adjudicate_both(capsys, q1, q2)
    assert err.startswith(f"pbem: {q1}: the turn could not be adjudicated (KeyError")
    assert "nothing was written" in err and f"pbem audit {q1}" in err
    code, out, _ = pbem(capsys, "audit", q1)  # and the audit the message points to names the file
    assert code == 1 and "turn-000/state.json differs" in out
    code, _, err = pbem(capsys, "status", q1)
    assert code == 1 and err.startswith("pbem: unexpected error (KeyError") and len(err.strip().splitlines()) == 1


def test_a_damaged_seats_file(two: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    q1, q2 = two
    seats = q1 / "turn-001" / "seats.yaml"
    for content, words in ((b"a: [\n", "not valid YAML"), (b"a: Alice\n", "not a list of seats")):
        damage(seats, content)
        err = adjudicate_both(capsys, q1, q2) if content.startswith(b"a: [") else pbem(capsys, "adjudicate", q1, "--nmr")[2]
        assert_one_line_naming(err, seats, words)
