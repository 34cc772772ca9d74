"""A GM's and a player's use of `pbem`, end to end, through the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from adjudicator.common.atomic import locked
from adjudicator.cli import main

REPO = Path(__file__).resolve().parent.parent


def pbem(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    root = tmp_path / "spies"
    code, out, _ = pbem(capsys, "new", root, "--game", "secrets", "--players", "tony=tony@example.org,david,sue", "--seed", "t")
    assert code == 0, out
    return root


def passwords(root: Path) -> dict[str, str]:
    return yaml.safe_load((root / "gm" / "passwords.yaml").read_text())


def send(root: Path, player: str, orders: list, turn: int = 1, password: str | None = None, name: str | None = None) -> Path:
    document = {"player": player, "turn": turn, "password": password or passwords(root)[player], "orders": orders}
    path = root / f"turn-{turn:03d}" / "orders" / (name or f"{player}.yaml")
    path.write_text(yaml.safe_dump(document))
    return path


def test_new_writes_hashes_not_passwords(campaign: Path) -> None:
    config = (campaign / "campaign.yaml").read_text()
    for password in passwords(campaign).values():
        assert password not in config
        for report in campaign.rglob("*.txt"):
            assert password not in report.read_text()
    settings = yaml.safe_load(config)
    assert all(p["password"].startswith("scrypt$") for p in settings["players"])
    assert settings["players"][0]["email"] == "tony@example.org"
    assert (campaign / "turn-000" / "reports" / "tony.txt").is_file()
    assert (campaign / "turn-001" / "orders").is_dir()


def test_new_refuses_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert pbem(capsys, "new", tmp_path / "a", "--game", "chess", "--players", "a,b,c")[2].count("the games are: ") == 1
    code, _, err = pbem(capsys, "new", tmp_path / "b", "--game", "secrets", "--players", "a,b")
    assert code == 1 and "3 to 6 players" in err
    code, _, err = pbem(capsys, "new", tmp_path / "c", "--game", "secrets", "--players", "Tony,b,c")
    assert code == 1 and "cannot be a player id" in err
    code, _, err = pbem(capsys, "new", tmp_path / "d", "--game", "secrets", "--players", "a,b,c", "--option", "turns=x")
    assert code == 1 and "whole number" in err
    assert not (tmp_path / "d").exists()


def test_seed_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = pbem(capsys, "new", tmp_path / "x", "--game", "secrets", "--players", "a,b,c", "--seed", "1", "--no-passwords")
    assert "Warning" in out and "guess" in out


def test_a_turn_from_status_to_report(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = pbem(capsys, "status", campaign)
    assert code == 0 and "Still waiting for: tony, david, sue" in out

    send(campaign, "tony", ["SID 1 steal David 8", {"sid": 3, "guard": 6}, {"sid": 9, "guard": 1}])
    code, out, _ = pbem(capsys, "check", campaign / "turn-001" / "orders" / "tony.yaml", "--campaign", campaign)
    assert code == 1  # one void order
    assert "SID 1 tries to steal david's secret 8 (worth 15)" in out
    assert "sid is 9, above the highest allowed value 7" in out

    code, _, err = pbem(capsys, "adjudicate", campaign)
    assert code == 1 and "waiting for orders from david, sue" in err

    send(campaign, "david", [], password="wrong")
    code, out, _ = pbem(capsys, "adjudicate", campaign, "--nmr")
    assert code == 0, out
    assert "file rejected: NMR" in out and "not this player's password" in out

    tony = (campaign / "turn-001" / "reports" / "tony.txt").read_text()
    assert "STOLEN, 15 points to you" in tony  # your own report names you as you (issue 25 item 10)
    assert "VOID" in tony and "your other orders stand" in tony
    david = (campaign / "turn-001" / "reports" / "david.txt").read_text()
    assert "REJECTED" in david and "not this player's password" in david
    public = (campaign / "turn-001" / "reports" / "public.md").read_text()
    assert "| david 8 | 15 | tony | 1 | 1 | nobody | stolen, +15 to tony |" in public
    assert "guard" not in public.split("## Standings")[0].lower().replace("guard ", "")  # Tony's unmet guard stays secret
    assert "No valid orders from: david, sue" in public

    code, out, _ = pbem(capsys, "report", campaign, "--player", "tony")
    assert code == 0 and out == tony
    code, out, _ = pbem(capsys, "show", campaign, "--json")
    shown = json.loads(out)
    assert shown == {
        "game": "secrets", "turn": 2, "phase": "orders", "due": ["tony", "david", "sue"], "over": False, "winners": [],
        "players": {
            "tony": {"score": 15, "secrets": list(range(1, 11)), "sids": list(range(1, 8))},
            "david": {"score": 0, "secrets": [1, 2, 3, 4, 5, 6, 7, 9, 10], "sids": list(range(1, 8))},
            "sue": {"score": 0, "secrets": list(range(1, 11)), "sids": list(range(1, 8))},
        },
    }
    code, out, _ = pbem(capsys, "audit", campaign)
    assert code == 0 and "Audit clean" in out


def test_guard_restriction_reaches_only_its_player(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    send(campaign, "tony", [{"sid": 3, "guard": 6}])
    send(campaign, "david", [])
    send(campaign, "sue", [])
    assert pbem(capsys, "adjudicate", campaign)[0] == 0
    assert "SID 3 may not guard secret 6" in (campaign / "turn-001" / "reports" / "tony.txt").read_text()
    for other in ("david.txt", "sue.txt", "public.md"):
        assert "guard" not in (campaign / "turn-001" / "reports" / other).read_text().split("WHAT HAPPENS NEXT")[0].lower()
    send(campaign, "tony", ["sid 3 guard secret 6"], turn=2)
    code, out, _ = pbem(capsys, "check", campaign / "turn-002" / "orders" / "tony.yaml", "--campaign", campaign)
    assert code == 1 and "may not guard secret 6 this turn" in out


def test_check_explains_a_rejected_file(campaign: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "mine.yaml"
    bad.write_text("player: tony\nturn: 2\norders: [1\n")
    code, out, _ = pbem(capsys, "check", bad, "--campaign", campaign)
    assert code == 1 and "not valid YAML" in out and "NMR" in out
    bad.write_text("player: tony\nturn: 2\npassword: x\norders: []\ncolour: red\n")
    code, out, _ = pbem(capsys, "check", bad, "--campaign", campaign)
    assert code == 1
    assert "unknown field \"colour\"" in out and "turn: says 2 but the pending turn is 1" in out
    good = send(campaign, "sue", [])
    code, out, _ = pbem(capsys, "check", good, "--campaign", campaign)
    assert code == 0 and "accepted for sue" in out


def test_digit_password_gets_a_clear_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "c"
    pbem(capsys, "new", root, "--game", "secrets", "--players", "no,off,yes", "--seed", "s")
    (root / "turn-001" / "orders" / "no.yaml").write_text("player: no\nturn: 1\npassword: 1234\norders: []\n")
    code, out, _ = pbem(capsys, "check", root / "turn-001" / "orders" / "no.yaml", "--campaign", root)
    assert code == 1 and "read as a number; put it in quotes" in out
    (root / "turn-001" / "orders" / "no.yaml").write_text(f"player: no\nturn: 1\npassword: {passwords(root)['no']}\norders: []\n")
    assert pbem(capsys, "check", root / "turn-001" / "orders" / "no.yaml", "--campaign", root)[0] == 0


def test_end_of_game_reveal_and_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "short"
    pbem(capsys, "new", root, "--game", "secrets", "--players", "a,b,c", "--no-passwords", "--option", "turns=1", "--seed", "s")
    code, _, err = pbem(capsys, "reveal", root)
    assert code == 1 and "not over" in err
    (root / "turn-001" / "orders" / "a.yaml").write_text("player: a\nturn: 1\norders: ['SID 7 steal b 10']\n")
    assert pbem(capsys, "adjudicate", root, "--nmr")[0] == 0
    assert not (root / "turn-002").exists()
    code, _, err = pbem(capsys, "adjudicate", root, "--nmr")
    assert code == 1 and "the game ended" in err
    shown = json.loads(pbem(capsys, "show", root, "--json")[1])
    assert shown["over"] and shown["winners"] == ["a"] and shown["turn"] == 1 and shown["due"] == []
    code, out, _ = pbem(capsys, "reveal", root)
    assert code == 0 and "Seed: s" in out
    assert yaml.safe_load((root / "reveal.yaml").read_text())["seed"] == "s"
    assert "The game is over" in (root / "turn-001" / "reports" / "public.md").read_text()


def test_one_refusal_does_not_stop_other_campaigns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("one", "two"):
        pbem(capsys, "new", tmp_path / name, "--game", "secrets", "--players", "a,b,c", "--no-passwords", "--seed", "s")
    code, out, err = pbem(capsys, "adjudicate", tmp_path / "one", tmp_path / "nowhere", tmp_path / "two", "--nmr")
    assert code == 1 and "no campaign.yaml" in err
    assert (tmp_path / "one" / "turn-001" / "manifest.json").is_file()
    assert (tmp_path / "two" / "turn-001" / "manifest.json").is_file()


def test_busy_campaign_is_refused(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with locked(campaign):
        code, _, err = pbem(capsys, "adjudicate", campaign, "--nmr")
    assert code == 1 and "busy" in err
    assert not (campaign / "turn-001" / "manifest.json").exists()


def test_usage_errors_exit_2() -> None:
    for args in ([], ["adjudicate"], ["frobnicate"], ["new", "x"]):
        result = subprocess.run([sys.executable, "-m", "adjudicator", *args], capture_output=True, cwd=REPO)
        assert result.returncode == 2, args


def test_a_batch_flushes_together_yet_each_campaign_stands_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pbem adjudicate` over many campaigns shares its flushes to disk (adjudicate.BATCH at a time);
    the turns it writes are the ones a run per campaign writes, refusals stay per campaign, and a
    folder named twice has two turns, one after the other, as if named in two runs."""
    from adjudicator.campaign import adjudicate as module

    monkeypatch.setattr(module, "BATCH", 3)
    names = [f"c{i}" for i in range(7)]
    for name in names:
        pbem(capsys, "new", tmp_path / "batch" / name, "--game", "secrets", "--players", "a,b,c", "--no-passwords", "--seed", name)
    (tmp_path / "batch" / "c4" / "turn-001" / "orders" / "a.yaml").write_text("player: a\nturn: 1\norders: ['SID 7 steal b 10']\n")
    import shutil

    shutil.copytree(tmp_path / "batch", tmp_path / "alone")
    folders = [tmp_path / "batch" / n for n in names]
    with locked(folders[5]):
        code, out, err = pbem(capsys, "adjudicate", *folders[:3], folders[1], *folders[3:], "--nmr")
    assert code == 1
    assert "c5 is busy" in err and err.count("pbem: ") == 1
    assert out.count("turn 1 adjudicated") == 6 and out.count("turn 2 adjudicated") == 1
    for name in names:
        alone = tmp_path / "alone" / name
        for _ in range({"c1": 2, "c5": 0}.get(name, 1)):
            assert pbem(capsys, "adjudicate", alone, "--nmr")[0] == 0
        for path in sorted(alone.rglob("*")):
            if path.is_file() and path.name != ".lock":
                batched = tmp_path / "batch" / name / path.relative_to(alone)
                assert batched.read_bytes() == path.read_bytes(), batched
        listed = [sorted(p.name for p in folder.iterdir() if p.name != ".lock") for folder in (tmp_path / "batch" / name, alone)]
        assert listed[0] == listed[1]


def test_jobs_settle_campaigns_in_parallel_with_the_same_files_and_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from adjudicator.campaign import adjudicate as module

    monkeypatch.setattr(module, "BATCH", 2)  # several groups for the two processes to share
    names = [f"c{i}" for i in range(5)]
    for name in names:
        pbem(capsys, "new", tmp_path / "one" / name, "--game", "secrets", "--players", "a,b,c,d", "--no-passwords", "--seed", name)
        (tmp_path / "one" / name / "turn-001" / "orders" / "b.yaml").write_text("player: b\nturn: 1\norders: ['SID 6 steal a 9', 'SID 9 guard 1']\n")
    (tmp_path / "one" / "c3" / "turn-001" / "orders" / "c.yaml").write_text("not: [valid")
    shutil.copytree(tmp_path / "one", tmp_path / "two")
    runs = {}
    for folder, jobs in (("one", "1"), ("two", "2")):
        code, out, err = pbem(capsys, "adjudicate", *(tmp_path / folder / n for n in names), "--nmr", "--jobs", jobs)
        assert code == 0, err
        runs[folder] = out.replace(str(tmp_path / folder), "ROOT")
    assert runs["one"] == runs["two"] and runs["one"].count("turn 1 adjudicated") == 5 and "file rejected" in runs["one"]
    for name in names:
        one, two = tmp_path / "one" / name, tmp_path / "two" / name
        files = sorted(str(p.relative_to(one)) for p in one.rglob("*") if p.is_file())
        assert files == sorted(str(p.relative_to(two)) for p in two.rglob("*") if p.is_file())
        assert all((one / f).read_bytes() == (two / f).read_bytes() for f in files)
    with pytest.raises(SystemExit) as usage:
        main(["adjudicate", str(tmp_path / "one" / "c0"), "--jobs", "-1"])
    assert usage.value.code == 2 and "cannot be negative" in capsys.readouterr().err


def test_ids_that_yaml_reads_as_values_are_quoted_in_the_form_and_explained_when_bare(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "odd"
    assert pbem(capsys, "new", root, "--game", "secrets", "--players", "null,true,off", "--no-passwords", "--seed", "q")[0] == 0
    report = (root / "turn-000" / "reports" / "null.txt").read_text()
    form = report[report.index("player: "):]
    assert form.startswith('player: "null"\n')
    assert 'player: "true"' in (root / "turn-000" / "reports" / "true.txt").read_text()
    assert "player: off\n" in (root / "turn-000" / "reports" / "off.txt").read_text()  # read as text: no quotes
    order = root / "turn-001" / "orders" / "null.yaml"
    order.write_text(form.replace("orders:\n", "orders: []\n", 1))  # the form as sent back, no orders
    code, out, _ = pbem(capsys, "check", order, "--campaign", root)
    assert code == 0, out
    order.write_text("player: null\nturn: 1\norders: []\n")
    code, out, _ = pbem(capsys, "check", order, "--campaign", root)
    assert code == 1 and 'player: must be text, not empty (YAML reads a bare null that way: to mean the text null, put it in quotes: "null")' in out


def test_messages_say_why_a_value_was_not_what_was_typed(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    order = campaign / "turn-001" / "orders" / "tony.yaml"
    password = passwords(campaign)["tony"]
    order.write_text(f'player: tony\nturn: 1\npassword: "{password}"\norders:\n  - {{sid: 1234567890123456789, guard: 1}}\n  - 42\n  - [1, 2]\n')
    code, out, _ = pbem(capsys, "check", order, "--campaign", campaign)
    assert code == 1
    assert "sid must be a whole number, not the text \"1234567890123456789\" (19 digits: numbers of more than 18 digits are not read)" in out
    assert "the order must be a mapping or text, not the number 42" in out
    assert "the order must be a mapping or text, not a list" in out
    order.write_text(f'player: tony\nturn: 1\npassword: "{password}"\norders:\n#  - {{sid: 1, guard: 2}}\n')  # a form sent back unfilled
    code, out, _ = pbem(capsys, "check", order, "--campaign", campaign)
    assert code == 0 and "accepted for tony, turn 1 (no orders)" in out


def test_a_file_from_a_player_with_nothing_to_order_is_named_as_ignored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "hide"
    assert pbem(capsys, "new", root, "--game", "hide", "--players", "a,b,c", "--no-passwords", "--seed", "x")[0] == 0
    order = root / "turn-001" / "orders" / "b.yaml"
    order.write_text("player: b\nturn: 1\norders: []\n")  # in H.I.D.E.'s first turn only a is due
    code, out, _ = pbem(capsys, "check", order, "--campaign", root)
    assert code == 1 and "b is not due to send orders this turn" in out
    assert "the adjudicator would ignore the file" in out and "NMR" not in out
    code, out, _ = pbem(capsys, "adjudicate", root, "--nmr")
    assert code == 0 and "b.yaml (b has nothing to order this turn)" in out
    assert json.loads((root / "turn-001" / "results.json").read_text())["stray_files"] == ["b.yaml"]


def test_report_prints_the_markdown_public_report_not_its_bbcode_copy(capsys: pytest.CaptureFixture[str]) -> None:
    example = REPO / "turns" / "secrets-example"
    code, out, _ = pbem(capsys, "report", example)
    assert code == 0 and out == (example / "turn-005" / "reports" / "public.md").read_text()


def test_a_reader_that_goes_away_is_not_a_failure() -> None:
    """`pbem report DIR | head -1`: the pipe closes early; no error, no traceback."""
    report = subprocess.Popen([sys.executable, "-m", "adjudicator", "report", "turns/secrets-example"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO)
    assert report.stdout is not None and report.stderr is not None
    report.stdout.readline()
    report.stdout.close()
    assert report.wait() == 0
    assert report.stderr.read() == b""


def test_mail_options_that_cannot_work_are_usage_errors(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args, words in ((["--send"], "--send needs --smtp HOST:PORT"), (["--send", "--smtp", "nohost"], "--smtp takes HOST:PORT")):
        with pytest.raises(SystemExit) as usage:
            main(["mail", str(campaign), *args])
        assert usage.value.code == 2 and words in capsys.readouterr().err


def test_reading_problems_name_the_file_without_blaming_the_disk(tmp_path: Path, campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = pbem(capsys, "check", tmp_path, "--campaign", campaign)
    assert code == 1 and err == f"pbem: {tmp_path}: cannot read the order file (Is a directory); nothing was checked\n"
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = pbem(capsys, "reveal", empty)
    assert code == 1 and "is not a campaign folder" in err
    assert list(empty.iterdir()) == []  # no lock file left in a folder that is no campaign


def test_a_potion_written_with_a_leading_plus_stays_a_potion(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """YAML 1.2 would read a bare `+4` as the number 4; the loader keeps the text, so Jekyll's `+4` is potion4."""
    root = tmp_path / "jk"
    assert pbem(capsys, "new", root, "--game", "jekyll", "--players", "tony,mel", "--no-passwords", "--seed", "s1")[0] == 0
    code, out, _ = pbem(capsys, "show", root, "--json", "--player", "tony")
    potion = next(card for card in json.loads(out)["players"]["tony"]["hand"] if card.startswith("potion"))
    order = root / "turn-001" / "orders" / "tony.yaml"
    order.write_text(f"player: tony\nturn: 1\norders:\n  - +{potion.removeprefix('potion')}\n")
    code, out, _ = pbem(capsys, "check", order, "--campaign", root)
    assert code == 0 and f"give {potion} to" in out, out


@pytest.mark.parametrize(
    ("names", "words"),
    [
        ("a=b", "'b' (for 'a') is already the id of 'b'"),
        ("a=Sam,b=SAM", "is already the display name of"),
        ("a=Bell\x07", "holds a control character"),
    ],
)
def test_display_names_tell_players_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str], names: str, words: str) -> None:
    code, _, err = pbem(capsys, "new", tmp_path / "c", "--game", "secrets", "--players", "a,b,c", "--names", names, "--no-passwords")
    assert code == 1 and words in err, err
    assert not (tmp_path / "c").exists()


@pytest.mark.parametrize(
    "option, value, words",
    [
        ("--names", "a=Line1\nBcc: x@y.org", "the display name of 'a' holds a line break (U+000A)"),
        ("--names", "a=Tab\tbed", "the display name of 'a' holds a control character (U+0009)"),
        ("--names", "a=Para\u2029graph", "holds a line break (U+2029)"),
        ("--name", "Evil\nBcc: victim@example.org", "the campaign name (--name, or the folder's name) holds a line break (U+000A)"),
        ("--name", "Evil\r\n", "holds a line break (U+000D)"),
        ("--name", "Bell\x07", "holds a control character (U+0007)"),
        ("--name", "\u200f", "holds an invisible formatting character (U+200F)"),
    ],
)
def test_names_with_line_breaks_or_control_characters_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, words: str) -> None:
    """Issue 15, item 7: a name is one line of plain text; a line break would reach reports and mail headers."""
    root = tmp_path / "c"
    code, _, err = pbem(capsys, "new", root, "--game", "secrets", "--players", "a,b,c", option, value, "--no-passwords")
    assert code == 1 and words in err, err
    assert not root.exists() and list(tmp_path.iterdir()) == []


def test_markup_in_campaign_text_is_shown_not_obeyed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "[red]dir[/red]"
    code, out, _ = pbem(capsys, "new", root, "--game", "secrets", "--players", "a,b,c", "--name", "[red]Evil[/red] [link=http://x]y[/link]", "--no-passwords")
    assert code == 0 and "campaign [red]Evil[/red] [link=http://x]y[/link] in" in out and str(root) in out
    (root / "turn-001" / "orders" / "b.yaml").write_text('player: "[blink]b[/blink]"\nturn: 1\norders: []\n')
    code, out, _ = pbem(capsys, "status", root)
    assert code == 0 and out.startswith("[red]Evil[/red] [link=http://x]y[/link] (Sid's Secrets)")
    assert "[blink]b[/blink]" in out


@pytest.mark.parametrize("moment", ["import:adjudicator.commands.new", "1@.big.new", "40@.big.new"])
def test_ctrl_c_is_one_line_and_leaves_nothing_half_done(tmp_path: Path, moment: str) -> None:
    """SIGINT to `pbem new` (30 players) held at a known moment by tests/crashpoint.py: while Python is
    still loading pbem, at the campaign's first write, and with the campaign half built. The moments are
    named by what happens there, not counted among all writes: a fresh clone's first run also writes
    Python's bytecode cache, which once made "the first write" an import's."""
    import signal
    import time

    root = tmp_path / "big"
    signals = tmp_path / ".signals"
    signals.mkdir()
    env = {**os.environ, "PBEM_PAUSED": str(signals / "paused"), "PBEM_RELEASE": str(signals / "release")}
    players = ",".join(f"p{i}" for i in range(30))
    run = subprocess.Popen(
        [sys.executable, str(REPO / "tests" / "crashpoint.py"), f"pause={moment}", "new", str(root), "--game", "secrets",
         "--players", players, "--option", "max_players=30"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO, env=env,
    )
    try:
        deadline = time.monotonic() + 600  # against a hang only: the wait ends when the command is held
        while not (signals / "paused").exists():
            assert run.poll() is None, run.communicate()
            assert time.monotonic() < deadline, f"pbem new never reached {moment}"
            time.sleep(0.01)
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=600)
    finally:
        (signals / "release").touch()  # a command the signal missed goes on and ends
        run.wait(timeout=600)
    assert run.returncode == 130, (out, err)
    assert err.startswith("pbem: interrupted; nothing was half written") and "Traceback" not in err, err
    assert err.count("\n") == 1, err
    assert not root.exists() and list(tmp_path.iterdir()) == [signals]  # no campaign, no staging folder beside it


@pytest.mark.parametrize("quotes", ["\u201c\u201d", "\u201e\u201c", "\u2018\u2019", "\u00ab\u00bb"])
def test_a_password_in_typographic_quotes_is_the_text_inside_them(campaign: Path, capsys: pytest.CaptureFixture[str], quotes: str) -> None:
    """Mail programs turn the order form's straight quotes into typographic ones; YAML keeps those as text."""
    order = campaign / "turn-001" / "orders" / "tony.yaml"
    password = passwords(campaign)["tony"]
    order.write_text(f"player: tony\nturn: 1\npassword: {quotes[0]}{password}{quotes[1]}\norders: []\n")
    code, out, _ = pbem(capsys, "check", order, "--campaign", campaign)
    assert code == 0, out
    order.write_text(f"player: tony\nturn: 1\npassword: {quotes[0]}wrong{quotes[1]}\norders: []\n")
    code, out, _ = pbem(capsys, "check", order, "--campaign", campaign)
    assert code == 1 and "password: is not this player's password" in out
