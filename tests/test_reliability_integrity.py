"""A careless GM's hand edits and a damaged archive are refused by the campaign itself, before anything is written.

Issue 15: a typo in a seat's entry of campaign.yaml (items 3), a name that breaks a line or
hides a character (items 7 and 11), turns that are not a clean chain (item 8), and `pbem new`
given a folder it cannot make its own (item 13). Each is refused by `Campaign.open` (or its
`last_turn`), the one door every command goes through, so no command can forget the check.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from reliability_kit import assert_clean_failure, order_mail, pbem, snapshot

from adjudicator.campaign import create as create_module
from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.create import create
from adjudicator.campaign.folder import Campaign, CampaignError, name_key
from adjudicator.cli import main

PLAYERS = [{"id": p, "name": p.title(), "email": f"{p}@example.org"} for p in ("tony", "david", "sue")]


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out + err


def _settings(root: Path) -> dict:
    return yaml.safe_load((root / "campaign.yaml").read_text())


def _edit(root: Path, change) -> None:  # type: ignore[no-untyped-def]
    config = _settings(root)
    change(config)
    (root / "campaign.yaml").write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))


def _seat(config: dict, seat: str) -> dict:
    return next(p for p in config["players"] if p["id"] == seat)


@pytest.fixture
def guarded(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A secrets campaign with passwords after turn 1; turn 2 has every player's right file."""
    root = tmp_path / "spies"
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="integrity", gm_email="gm@example.org")
    passwords = {str(k): str(v) for k, v in yaml.safe_load((root / "gm" / "passwords.yaml").read_text()).items()}
    for turn in (1, 2):
        for player, password in passwords.items():
            (root / f"turn-00{turn}" / "orders" / f"{player}.yaml").write_text(
                f"player: {player}\nturn: {turn}\npassword: {password}\norders: []\n"
            )
        if turn == 1:
            adjudicate(root)
    return root, passwords


# -- item 3: a typo in a seat's entry refuses the turn, naming campaign.yaml, the entry and what is wrong --


SEAT_TYPOS = [
    ("since is '2a', not a turn number", lambda s: s.update(since="2a")),
    ("since is 'True', not a turn number", lambda s: s.update(since=True)),
    ("since is 2 but the history is empty", lambda s: s.update(since=2)),
    ("since is 3 but the history covers turns 1 to 1", lambda s: s.update(since=3, history=[{"name": "Old", "from": 1, "to": 1, "password": s["password"]}])),
    ("history entry 1 has from 'one' and to '1'", lambda s: s.update(since=2, history=[{"name": "Old", "from": "one", "to": 1, "password": s["password"]}])),
    ("history entry 1 has from '1' and to '-1'", lambda s: s.update(since=2, history=[{"name": "Old", "from": 1, "to": -1, "password": s["password"]}])),
    ("history entry 1 has from '2' and to '0'", lambda s: s.update(since=3, history=[{"name": "Old", "from": 2, "to": 0, "password": s["password"]}])),
    ("history entry 1 starts at turn 2", lambda s: s.update(since=3, history=[{"name": "Old", "from": 2, "to": 2, "password": s["password"]}])),
    ("history is not a list of earlier players", lambda s: s.update(since=2, history="Old, turn 1")),
    ("history entry 1 has no password hash", lambda s: s.update(since=2, history=[{"name": "Old", "from": 1, "to": 1}])),
    ("the current player has a password hash that is damaged", lambda s: s.update(password=s["password"][:-3] + "zzz")),
    ("the current player has no password hash", lambda s: s.pop("password")),
]


@pytest.mark.parametrize(("words", "typo"), SEAT_TYPOS, ids=[w for w, _ in SEAT_TYPOS])
def test_a_typo_in_a_seat_entry_refuses_every_command_before_anything_is_written(
    guarded: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str], words: str, typo
) -> None:  # type: ignore[no-untyped-def]
    """Before: sue's right file was "rejected: could not be checked (ValueError)" or "not this
    player's password", and the turn committed with sue as NMR."""
    root, _ = guarded
    _edit(root, lambda config: typo(_seat(config, "sue")))
    before = snapshot(root)
    for command in (("adjudicate", root, "--nmr"), ("status", root), ("check", root / "turn-002" / "orders" / "sue.yaml", "--campaign", root)):
        code, out = run(capsys, *command)
        assert code == 1, (command, out)
        assert f"{root / 'campaign.yaml'}: the entry of 'sue'" in out and words in out, (command, out)
        assert "fix campaign.yaml and run the command again (nothing was changed)" in out
    assert snapshot(root) == before and not (root / "turn-002" / "manifest.json").exists()


def test_a_deleted_seat_entry_refuses_the_turn(guarded: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]) -> None:
    root, _ = guarded
    _edit(root, lambda config: config.update(players=[p for p in config["players"] if p["id"] != "sue"]))
    before = snapshot(root)
    code, out = run(capsys, "adjudicate", root, "--nmr")
    assert code == 1 and "the seat sue of this campaign (turn-000/setup.json) has no entry in players" in out, out
    assert snapshot(root) == before


def test_an_entry_for_no_seat_is_refused(guarded: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]) -> None:
    root, _ = guarded
    _edit(root, lambda config: config["players"].append({**_seat(config, "sue"), "id": "zed", "name": "Zed"}))
    code, out = run(capsys, "adjudicate", root, "--nmr")
    assert code == 1 and "zed is listed in players but is not a seat of this campaign" in out, out


def test_a_seat_handed_over_by_replace_still_opens_and_audits(guarded: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]) -> None:
    """The checks accept what `pbem replace` writes: since, and a history from turn 1 on."""
    root, _ = guarded
    assert run(capsys, "replace", root, "sue", "--name", "Susan")[0] == 0
    assert run(capsys, "replace", root, "sue", "--name", "Suzanne")[0] == 0  # twice before the turn: no trace
    assert _seat(_settings(root), "sue")["history"][0] == {**_seat(_settings(root), "sue")["history"][0], "from": 1, "to": 1}
    assert run(capsys, "adjudicate", root, "--nmr")[0] == 0
    assert run(capsys, "replace", root, "sue", "--name", "Sunny")[0] == 0
    assert [(h["from"], h["to"]) for h in _seat(_settings(root), "sue")["history"]] == [(1, 1), (2, 2)]
    assert run(capsys, "audit", root)[0] == 0
    # One with an address who leaves before playing is kept (to = from - 1): mail still to them stays theirs.
    assert run(capsys, "replace", root, "sue", "--name", "Sam", "--email", "sam@example.org")[0] == 0
    assert run(capsys, "replace", root, "sue", "--name", "Sid")[0] == 0
    assert [(h["name"], h["from"], h["to"]) for h in _seat(_settings(root), "sue")["history"]] == [("Sue", 1, 1), ("Suzanne", 2, 2), ("Sam", 3, 2)]  # Sunny had no address: no trace
    assert run(capsys, "adjudicate", root, "--nmr")[0] == 0 and run(capsys, "audit", root)[0] == 0


# -- items 7 and 11: names are one line of visible text, and two names that look alike are one name --


HAND_EDITED_NAMES = [
    ("sue", "Evil\nBcc: victim@example.org", "the display name of 'sue' holds a line break (U+000A)"),
    ("sue", "Sue\u200b", "the display name of 'sue' holds an invisible formatting character (U+200B)"),
    ("sue", "\u200fSue", "holds an invisible formatting character (U+200F)"),
    ("sue", "David\u200d", "'David\u200d' (for 'sue') is already the id of 'david' (written 'david' there; names are compared without case, accents, letter width or invisible characters)"),
    ("sue", "Ｄａｖｉｄ", "'Ｄａｖｉｄ' (for 'sue') is already the id of 'david'"),
    ("sue", "\u3164", "the display name of 'sue' is empty"),
    ("sue", "Dave", None),
    ("sue", "TONY", "'TONY' (for 'sue') is already the id of 'tony'"),
]


@pytest.mark.parametrize(("seat", "name", "words"), HAND_EDITED_NAMES, ids=[n.encode("unicode_escape").decode() for _, n, _ in HAND_EDITED_NAMES])
def test_a_hand_edited_name_is_checked_as_new_and_replace_check_it(
    guarded: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str], seat: str, name: str, words: str
) -> None:
    root, _ = guarded
    _edit(root, lambda config: _seat(config, seat).update(name=name))
    if words is None:
        assert Campaign.open(root).player(seat)["name"] == name
        return
    code, out = run(capsys, "adjudicate", root, "--nmr")
    assert code == 1 and words in out, out
    with pytest.raises(CampaignError):
        Campaign.open(root)


def test_a_hand_edited_campaign_name_with_a_line_break_is_refused(guarded: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]) -> None:
    root, _ = guarded
    _edit(root, lambda config: config.update(name="Spies\nBcc: victim@example.org"))
    code, out = run(capsys, "status", root)
    assert code == 1 and "the campaign name (name:) holds a line break (U+000A)" in out, out


LOOK_ALIKES = [
    ("a=Bob,b=Bob\u200b", "the display name of 'b' holds an invisible formatting character (U+200B)"),
    ("a=Bob,b=\u200fBob", "the display name of 'b' holds an invisible formatting character (U+200F)"),
    ("a=Jos\u00e9,b=Jose\u0301", "'Jos\u00e9' (for 'b') is already the display name of 'a' (written '"),
    ("a=Bob,b=Bob\u200d", "is already the display name of 'a'"),
    ("a=Bob,b=\uff22\uff4f\uff42", "is already the display name of 'a'"),
    ("a=Stra\u00dfe,b=STRASSE", "is already the display name of 'a'"),
    ("a=Bob,b=Bob\ufe0f", "is already the display name of 'a'"),
]


@pytest.mark.parametrize(("names", "words"), LOOK_ALIKES, ids=[n.encode("unicode_escape").decode() for n, _ in LOOK_ALIKES])
def test_look_alike_display_names_are_refused_by_new(tmp_path: Path, capsys: pytest.CaptureFixture[str], names: str, words: str) -> None:
    code, out = run(capsys, "new", tmp_path / "c", "--game", "secrets", "--players", "a,b,c", "--names", names, "--no-passwords")
    assert code == 1 and words.replace("'Jos\u00e9'", "'Jose\u0301'") in out, out
    assert not (tmp_path / "c").exists()


def test_look_alike_names_are_refused_by_replace(guarded: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]) -> None:
    root, _ = guarded
    before = snapshot(root)
    for name, words in (("Tony\u200b", "invisible formatting character (U+200B)"), ("ＴＯＮＹ", "already the id of 'tony' (written 'tony' there; names are compared without case"),
                        ("Sue\nBcc: x@y.org", "holds a line break")):
        code, out = run(capsys, "replace", root, "sue", "--name", name)
        assert code == 1 and words in out, out
    assert snapshot(root) == before


def test_names_that_need_joiners_are_kept_as_written(tmp_path: Path) -> None:
    """The zero-width joiners that Persian, the Indic scripts and emoji need are not refused."""
    names = {"a": "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "b": "\u0915\u094d\u200d\u0937", "c": "\U0001f468\u200d\U0001f469\u200d\U0001f467"}
    root = create(tmp_path / "c", "secrets", [{"id": k, "name": v} for k, v in names.items()], seed="j", passwords=False).root
    assert {p["id"]: p["name"] for p in Campaign.open(root).players} == names
    assert name_key("Jos\u00e9") == name_key("JOSE\u0301") and name_key("Bob") != name_key("Bobby")


# -- item 8: turns that are not a clean chain: every command refuses, naming the gap --


@pytest.fixture
def three_turns(tmp_path: Path) -> Path:
    root = tmp_path / "spies"
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="chain", gm_email="gm@example.org", passwords=False)
    for _ in range(3):
        adjudicate(root, nmr=True)
    return root


def _every_command(root: Path, tmp_path: Path) -> list[tuple[object, ...]]:
    message = tmp_path / "sue.eml"
    message.write_bytes(order_mail("sue@example.org", "player: sue\nturn: 3\norders: []\n", "<sue@x>", attach=False))
    order = tmp_path / "sue.yaml"
    order.write_text("player: sue\nturn: 3\norders: []\n")
    return [
        ("adjudicate", root, "--nmr"),
        ("ingest", root, message),
        ("mail", root),
        ("replace", root, "sue", "--name", "Susan"),
        ("reveal", root),
        ("status", root),
        ("check", order, "--campaign", root),
        ("show", root, "--json"),
        ("report", root),
    ]


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (lambda root: (root / "turn-002" / "manifest.json").unlink(),
         "turn-002 has no manifest.json, yet holds what an adjudication writes (reports/, results.json, state.json): the turn was cut off or its manifest removed"),
        (lambda root: shutil.rmtree(root / "turn-002"), "turn-002 is missing, but turn-003 and turn-004 follow it: a turn is missing from the campaign"),
        (lambda root: shutil.copytree(root / "turn-001", root / "turn-7"), "turn-7 is named like a turn folder but not as pbem names them (turn-007)"),
        (lambda root: (root / "turn-006" / "orders").mkdir(parents=True), "turn-006 comes after the pending turn turn-004, which has not been adjudicated"),
    ],
    ids=["manifest deleted", "turn deleted", "misnamed turn", "turn after the pending one"],
)
def test_turns_that_are_not_a_clean_chain_are_refused_by_every_command(three_turns: Path, tmp_path: Path, damage, words: str) -> None:  # type: ignore[no-untyped-def]
    """Before: a deleted turn-002/manifest.json made turn 2 pending again: `ingest` filed into it
    (overwriting the orders an audit needs), `status` and `check` showed turn 2 as due."""
    root = three_turns
    damage(root)
    before = snapshot(root)
    for command in _every_command(root, tmp_path):
        result = pbem(*command)
        assert_clean_failure(result)
        assert result.returncode == 1, (command, result.stdout, result.stderr)
        assert "its turns are not a clean chain" in result.stderr and words in result.stderr, (command, result.stderr)
        assert snapshot(root) == before, command
    assert not (root / "mail").exists()


def test_a_clean_chain_is_not_refused(three_turns: Path, tmp_path: Path) -> None:
    """The same commands on the undamaged campaign (the control for the test above)."""
    for command in _every_command(three_turns, tmp_path)[:4]:
        result = pbem(*command)
        assert_clean_failure(result)
        assert "clean chain" not in result.stderr, (command, result.stderr)


# -- item 13: `pbem new` given a folder it cannot make its own --


@pytest.mark.parametrize("folder", [".", "..", "camp/..", "./"])
def test_new_refuses_the_current_folder_or_a_parent_in_words(tmp_path: Path, folder: str) -> None:
    (tmp_path / "camp").mkdir()
    result = pbem("new", folder, "--game", "secrets", "--players", "a,b,c", "--no-passwords", cwd=tmp_path / "camp")
    assert_clean_failure(result)
    assert result.returncode == 1 and "is the current folder or one above it; give pbem new the name of a new folder" in result.stderr, result.stderr
    assert list((tmp_path / "camp").iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["camp"]


def test_new_reads_dot_dot_as_written_and_makes_no_other_folder(tmp_path: Path) -> None:
    result = pbem("new", "x/../y", "--game", "secrets", "--players", "a,b,c", "--no-passwords", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["y"] and Campaign.open(tmp_path / "y").last_turn == 0


def test_a_refused_new_leaves_no_folder_it_made(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A refusal after the staging folder was made (the game refusing its seats at setup) takes
    away the staging folder and the folders above it that pbem new made for it, and no others."""
    def refuse(*_: object) -> None:
        raise ValueError("the game refuses these seats")

    monkeypatch.setattr(create_module, "opening", refuse)
    (tmp_path / "kept").mkdir()
    code, out = run(capsys, "new", tmp_path / "kept" / "deep" / "er" / "camp", "--game", "secrets", "--players", "a,b,c", "--no-passwords")
    assert code == 1 and "the game refuses these seats" in out, out
    assert sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")) == ["kept"]
