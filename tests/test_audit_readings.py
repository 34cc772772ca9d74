"""`pbem audit` across a better order reader (docs/archive.md, "Audit across a better order reader").

The reader improves between releases: this week "SID 6 steal Bartholomew 9" (one word of a display
name, SECRETS-15) came to name the player Bartholomew Smith, where an older reader found no player
"Bartholomew" and read the order as void. A campaign adjudicated by that older reader must still
audit clean after the upgrade: the turn is replayed from the readings its results.json records.

No reader is mocked. An older reader's turn is made the way it would have been written: the turn is
adjudicated with an order today's reader also finds no player in ("Bartholomeu"), then every file of
the turn says "Bartholomew" instead, as the older reader's would have (the order file as the player
sent it, the recorded reading, the reports), and the manifest chain is sealed again over the files
as they now are, as turn.py seals it. Later turns are adjudicated on top of it.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from adjudicator.campaign import pending
from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.audit import audit
from adjudicator.campaign.create import create
from adjudicator.campaign.demo import write_demo_orders
from adjudicator.campaign.export import export
from adjudicator.campaign.folder import Campaign, dump_json, read_yaml
from adjudicator.campaign.reveal import reveal
from adjudicator.campaign.pipeline import as_recorded
from adjudicator.campaign.turn import sha256, turn
from adjudicator.cli import main
from adjudicator.publish.render import Renderer

TONY = "tony"
OLD, NEW = b"Bartholomeu", b"Bartholomew"
NO_PLAYER = "void (there is no player called 'Bartholomew' (players: tony (Tony), bart (Bartholomew Smith), maria (Maria)))"
STEAL = "SID 6 tries to steal Bartholomew Smith's secret 9 (worth 17)"


def seal(root: Path, first: int) -> None:
    """Seal the manifests of turns `first` on over their files as they are now, each chained to the one
    before it, as turn.py writes them (same fields, same order, same JSON): what an older release wrote."""
    number = first
    while (root / f"turn-{number:03d}" / "manifest.json").is_file():
        folder = root / f"turn-{number:03d}"
        manifest = json.loads((folder / "manifest.json").read_bytes())
        manifest["previous_manifest"] = sha256((root / f"turn-{number - 1:03d}" / "manifest.json").read_bytes())
        for side in ("inputs", "outputs"):
            manifest[side] = {name: sha256((folder / name).read_bytes()) for name in manifest[side]}
        (folder / "manifest.json").write_bytes(dump_json(manifest))
        number += 1


def as_an_older_reader_wrote_it(turn: Path, files: list[str], ours: bytes, theirs: bytes) -> None:
    """The turn's `files` as the older reader's turn holds them: `theirs` where ours says `ours`."""
    for name in files:
        path = turn / name
        assert ours in path.read_bytes() or name.startswith("reports/"), name
        path.write_bytes(path.read_bytes().replace(ours, theirs))


def turn_one(
    tmp_path: Path, files: list[str], order: str = "SID 6 steal Bartholomeu 9", ours: bytes = OLD, theirs: bytes = NEW,
    passwords: bool = False, later: int = 2,
) -> Path:
    """A Secrets campaign whose turn 1 an older reader adjudicated with Tony's `order` (`theirs` for `ours`:
    "SID 6 steal Bartholomew 9") read as void, its `files` written as that reader wrote them, then `later`
    turns adjudicated today."""
    root = tmp_path / "spies"
    names = {"tony": "Tony", "bart": "Bartholomew Smith", "maria": "Maria"}
    create(root, "secrets", [{"id": p, "name": n} for p, n in names.items()], seed="reader", name="spies", passwords=passwords)
    known = {str(k): str(v) for k, v in read_yaml(root / "gm" / "passwords.yaml").items()} if passwords else {}
    write_demo_orders(Campaign.open(root), known)
    password = f"password: {json.dumps(known[TONY])}\n" if passwords else ""
    (root / "turn-001" / "orders" / "tony.yaml").write_text(f"player: tony\nturn: 1\n{password}orders:\n  - {order}\n", encoding="utf-8")
    adjudicate(root)
    as_an_older_reader_wrote_it(root / "turn-001", files, ours, theirs)
    seal(root, 1)
    for _ in range(later):
        write_demo_orders(Campaign.open(root), known)
        adjudicate(root)
    return root


EVERY_FILE = ["orders/tony.yaml", "results.json", *(f"reports/{n}" for n in ("tony.txt", "bart.txt", "maria.txt", "public.md", "public.bbcode"))]


@pytest.fixture
def upgraded(tmp_path: Path) -> Path:
    return turn_one(tmp_path, EVERY_FILE)


def audit_json(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    code = main(["audit", str(root), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_an_order_todays_reader_reads_differently_audits_clean_with_a_line_naming_it(upgraded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = audit(upgraded)
    assert result.divergence is None and result.turns == 3, result.divergence
    assert [r.to_json() for r in result.read_differently] == [
        {"turn": 1, "player": TONY, "order": 1, "written": "SID 6 steal Bartholomew 9", "then": NO_PLAYER, "today": STEAL}
    ]
    assert result.reports_by_chain == set(), "the reports replay byte for byte from the recorded readings"
    assert main(["audit", str(upgraded)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "Audit clean: the opening and 3 turns replay byte for byte.",
        f'turn 1, Tony\'s orders, order 1 "SID 6 steal Bartholomew 9": read then as {NO_PLAYER}, read today as {STEAL}. '
        "The turn was replayed from the readings it was adjudicated with.",
    ]
    code, found = audit_json(upgraded, capsys)
    assert code == 0 and found["clean"] and found["divergence"] is None and found["turns"] == 3
    assert found["notes"] == out[1:] and [r["note"] for r in found["read_differently"]] == out[1:]
    assert found["read_differently"][0]["then"] == NO_PLAYER and found["read_differently"][0]["today"] == STEAL


def test_reports_in_the_wording_of_their_day_are_checked_against_the_chain(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Tony's report still says "Bartholomeu" (today's rendering of the recorded readings is not its
    bytes): checked against the manifest chain, and the line says so. A change to it still fails."""
    root = turn_one(tmp_path, ["orders/tony.yaml", "results.json"])
    result = audit(root)
    assert result.divergence is None and result.reports_by_chain == {1}, result.divergence
    assert result.notes == [
        f'turn 1, Tony\'s orders, order 1 "SID 6 steal Bartholomew 9": read then as {NO_PLAYER}, read today as {STEAL}. '
        "The turn was replayed from the readings it was adjudicated with; its reports match the SHA-256 chain of its manifest, "
        "not today's wording."
    ]
    report = root / "turn-001" / "reports" / "tony.txt"
    report.write_bytes(report.read_bytes() + b"\nBart is a traitor.\n")
    code, found = audit_json(root, capsys)
    assert code == 1 and not found["clean"] and found["turns"] == 1 and found["notes"] == []
    assert found["divergence"].startswith("turn-001/reports/tony.txt was changed after the turn was adjudicated"), found


def test_an_order_file_changed_after_the_turn_still_diverges(upgraded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Today's reader reads the changed file otherwise than recorded, but its bytes are not the ones the
    manifest records: no recorded reading stands for it, and the audit fails exactly as before."""
    path = upgraded / "turn-001" / "orders" / "tony.yaml"
    path.write_bytes(path.read_bytes().replace(b"Bartholomew 9", b"Bartholomew 8"))
    code, found = audit_json(upgraded, capsys)
    assert code == 1 and found["read_differently"] == [] and found["turns"] == 1
    assert found["divergence"] == (
        "turn-001/orders/tony.yaml was changed after the turn was adjudicated (its SHA-256 is not the one manifest.json records)"
    )


def test_recorded_readings_that_do_not_give_the_recorded_state_still_diverge(upgraded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """results.json rewritten (and the chain sealed again) to say the older reader read the order as a
    steal of secret 8: replayed from that reading, the turn's state and results are not the recorded ones."""
    path = upgraded / "turn-001" / "results.json"
    results = json.loads(path.read_bytes())
    (reading,) = results["submissions"][TONY]["orders"]
    reading.update(order={"sid": 6, "steal": {"player": "bart", "secret": 8}}, meaning=STEAL.replace("9 (worth 17)", "8 (worth 15)"), void=None)
    path.write_bytes(dump_json(results))
    seal(upgraded, 1)
    code, found = audit_json(upgraded, capsys)
    assert code == 1 and found["turns"] == 1 and found["read_differently"] == [], found
    assert found["divergence"] == (
        "turn-001/manifest.json differs from the replay (the turn was replayed from the readings its results.json records "
        "for 1 order that today's reader reads differently)"
    )


def test_an_order_file_rewritten_with_its_whole_chain_is_never_silent(upgraded: Path) -> None:
    """The limit docs/archive.md names: whoever rewrites an order file and seals every manifest from its
    turn on again could already re-adjudicate the game from there; here the audit at least names the
    order whose recorded reading the file no longer gives, word for word."""
    path = upgraded / "turn-001" / "orders" / "tony.yaml"
    path.write_bytes(path.read_bytes().replace(b"Bartholomew 9", b"Bartholomew 8"))
    seal(upgraded, 1)
    result = audit(upgraded)
    assert result.divergence is None
    assert [(r.written, r.then, r.today) for r in result.read_differently] == [
        ("SID 6 steal Bartholomew 8", NO_PLAYER, STEAL.replace("9 (worth 17)", "8 (worth 15)"))
    ]


def test_an_order_read_today_as_two_is_one_line_with_both_readings(tmp_path: Path) -> None:
    """SECRETS-14: "SIDs 3 and 7 steal Bart 9", which an older reader did not understand, is read today as
    two orders from one line: one line in the note, with both of today's readings."""
    root = turn_one(tmp_path, EVERY_FILE, order="SIDz 3 and 7 steal Bart 9", ours=b"SIDz", theirs=b"SIDs")
    result = audit(root)
    assert result.divergence is None and result.reports_by_chain == set(), result.divergence
    (found,) = result.read_differently
    assert (found.order, found.written) == (1, "SIDs 3 and 7 steal Bart 9")
    assert found.then.startswith("void (not understood: write 'SID <rank> steal <player> <secret>'")
    assert found.today == (
        "SID 3 tries to steal Bartholomew Smith's secret 9 (worth 17); SID 7 tries to steal Bartholomew Smith's secret 9 (worth 17)"
    )


@pytest.mark.parametrize("order", [{"sid": "six", "steal": {"player": "bart", "secret": 9}}, {"sid": 6, "steal": "bart"}, "SID 6"])
def test_a_recorded_order_no_reader_gives_is_a_divergence_not_a_crash(upgraded: Path, order: object, capsys: pytest.CaptureFixture[str]) -> None:
    """results.json edited by hand to record a canonical order that is not one: the audit fails, naming the turn's results."""
    path = upgraded / "turn-001" / "results.json"
    results = json.loads(path.read_bytes())
    (reading,) = results["submissions"][TONY]["orders"]
    reading.update(order=order, meaning="SID 6 does something", void=None)
    path.write_bytes(dump_json(results))
    code, found = audit_json(upgraded, capsys)
    assert code == 1 and found["turns"] == 1, found
    assert found["divergence"].startswith("turn-001/results.json records readings that today's rules cannot resolve (")
    assert found["divergence"].endswith("), for 1 order that today's reader reads differently")


def test_the_export_of_such_a_campaign_audits_clean_with_the_same_line(tmp_path: Path) -> None:
    """Design 15: pbem export works for every campaign pbem audit passes. Tony's file loses its password in
    the export; the hash it had as filed (export.json) is the one its manifest records."""
    root = turn_one(tmp_path, EVERY_FILE, passwords=True, later=4)
    assert Campaign.open(root).over
    reveal(root)
    original = audit(root)
    assert original.divergence is None and len(original.notes) == 1 and "Tony's orders, order 1" in original.notes[0]
    export(root, tmp_path / "public")
    password = read_yaml(root / "gm" / "passwords.yaml")[TONY].encode()
    assert password in (root / "turn-001" / "orders" / "tony.yaml").read_bytes()
    assert password not in (tmp_path / "public" / "turn-001" / "orders" / "tony.yaml").read_bytes()
    result = audit(tmp_path / "public")
    assert result.divergence is None and result.notes == original.notes, result.divergence


EXAMPLES = sorted(p.parent for p in (Path(__file__).resolve().parent.parent / "turns").glob("*/campaign.yaml"))


@pytest.mark.parametrize("root", EXAMPLES, ids=lambda p: p.name)
def test_every_example_turn_replays_byte_for_byte_from_its_recorded_readings(root: Path) -> None:
    """What results.json records of each accepted file is all a replay needs, in every game: each example
    turn, every accepted file taken as recorded (pipeline.as_recorded), gives its state, results and
    reports byte for byte. (The manifest's template digest is the audit's to reconcile: test_examples.)"""
    campaign = Campaign.open(root)
    seed, setup = campaign.seed(), campaign.setup_record()
    renderer = Renderer.for_campaign(campaign.game.id, campaign.root, campaign.site_base_url)
    state, number, taken = campaign.state(0), 0, 0
    while not campaign.game.is_over(state):
        number += 1
        read = pending.replay(campaign, number, state, setup)
        verdict = pending.check(read)
        record = json.loads((campaign.turn_dir(number) / "results.json").read_bytes())["submissions"]
        submissions = {
            p: as_recorded(campaign.game, read.position, p, record[p]) if sub.status == "accepted" else sub for p, sub in verdict.submissions.items()
        }
        taken += sum(sub.status == "accepted" for sub in verdict.submissions.values())
        out = turn(read, replace(verdict, submissions=submissions), seed, renderer)
        for name, data in sorted(out.files.items()):
            assert name == "manifest.json" or (campaign.turn_dir(number) / name).read_bytes() == data, f"turn {number}: {name}"
        state = out.state
    assert taken > number, "most turns hold accepted files"
