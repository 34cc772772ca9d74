"""`pbem replace`: a seat changes hands; history, passwords, names, reports and the audit stay right."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.audit import audit
from adjudicator.campaign.folder import Campaign
from adjudicator.cli import main


def pbem(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def passwords(root: Path) -> dict[str, str]:
    return yaml.safe_load((root / "gm" / "passwords.yaml").read_text())


def send(root: Path, player: str, turn: int, orders: list, password: str) -> None:
    document = {"player": player, "turn": turn, "password": password, "orders": orders}
    (root / f"turn-{turn:03d}" / "orders" / f"{player}.yaml").write_text(yaml.safe_dump(document))


@pytest.fixture
def campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    root = tmp_path / "spies"
    code, out, _ = pbem(capsys, "new", root, "--game", "secrets", "--players", "tony=tony@example.org,david,sue", "--seed", "r",
                        "--names", "tony=Tony,david=David,sue=Sue", "--gm-email", "gm@example.org")
    assert code == 0, out
    return root


def test_a_seat_changes_hands_and_every_turn_still_audits(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = passwords(campaign)["tony"]
    send(campaign, "tony", 1, ["SID 1 steal David 8"], old)
    assert adjudicate(campaign, nmr=True).output.submissions["tony"].status == "accepted"
    turn_one = {p.name: p.read_bytes() for p in (campaign / "turn-001" / "reports").iterdir()}
    send(campaign, "tony", 2, ["SID 2 steal Sue 3"], old)  # sent before the GM replaces Tony

    code, out, _ = pbem(capsys, "replace", campaign, "tony", "--name", "Bärbel", "--email", "baerbel@example.org")
    assert code == 0, out
    assert "from turn 2" in out and "gm/replaced/turn-002-tony.yaml" in out
    new = passwords(campaign)["tony"]
    assert new != old and new not in out
    assert not (campaign / "turn-002" / "orders" / "tony.yaml").exists()
    seat = Campaign.open(campaign).player("tony")
    assert seat["name"] == "Bärbel" and seat["since"] == 2 and seat["email"] == "baerbel@example.org"
    assert [(h["name"], h["from"], h["to"], h["email"]) for h in seat["history"]] == [("Tony", 1, 1, "tony@example.org")]

    send(campaign, "tony", 2, [], old)
    code, out, _ = pbem(capsys, "check", campaign / "turn-002" / "orders" / "tony.yaml", "--campaign", campaign)
    assert code == 1 and "not this player's password" in out
    send(campaign, "tony", 2, ["SID 2 steal Sue 3"], new)
    send(campaign, "david", 2, ["SID 4 steal Bärbel 5"], passwords(campaign)["david"])
    code, out, _ = pbem(capsys, "check", campaign / "turn-002" / "orders" / "david.yaml", "--campaign", campaign)
    assert code == 0 and "SID 4 tries to steal Bärbel's secret 5" in out  # the new name counts from turn 2 on
    output = adjudicate(campaign, nmr=True).output
    assert output.submissions["tony"].status == "accepted"
    assert output.submissions["david"].readings[0].accepted
    assert output.state["names"]["tony"] == "Bärbel"

    report = (campaign / "turn-002" / "reports" / "tony.txt").read_text()
    assert "for Bärbel (tony)" in report and "This seat has been played by: Tony (turn 1), Bärbel (from turn 2)." in report
    public = (campaign / "turn-002" / "reports" / "public.md").read_text()
    assert "**Replacement players:**" in public and "- seat tony: Tony \\(turn 1\\), then Bärbel \\(from turn 2\\)" in public
    assert {p.name: p.read_bytes() for p in (campaign / "turn-001" / "reports").iterdir()} == turn_one
    assert "seats.yaml" in (campaign / "turn-002" / "manifest.json").read_text()
    assert audit(campaign).divergence is None

    # the latest report now goes to the new player's address
    assert pbem(capsys, "mail", campaign)[0] == 0
    assert "baerbel@example.org" in (campaign / "mail" / "outbox" / "turn-002" / "report-tony.eml").read_text()


def test_a_changed_seat_name_is_an_audited_input(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert pbem(capsys, "replace", campaign, "sue", "--name", "Sam")[0] == 0
    adjudicate(campaign, nmr=True)
    (campaign / "turn-001" / "seats.yaml").write_text("sue: {name: Someone Else}\n")
    assert "turn-001/seats.yaml was changed after the turn was adjudicated" in (audit(campaign).divergence or "")


def test_two_replacements_before_a_turn_leave_one_history_entry(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    adjudicate(campaign, nmr=True)
    assert pbem(capsys, "replace", campaign, "david", "--name", "Dora")[0] == 0
    assert pbem(capsys, "replace", campaign, "david", "--name", "Dan")[0] == 0
    seat = Campaign.open(campaign).player("david")
    assert seat["name"] == "Dan" and [h["name"] for h in seat["history"]] == ["David"]
    assert yaml.safe_load((campaign / "turn-002" / "seats.yaml").read_text()) == {"david": {"name": "Dan"}}
    adjudicate(campaign, nmr=True)
    assert "David (turn 1), Dan (from turn 2)" in (campaign / "turn-002" / "reports" / "david.txt").read_text()
    assert audit(campaign).divergence is None


def test_replace_refuses_unknown_seats_and_finished_games(tmp_path: Path, campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = pbem(capsys, "replace", campaign, "zoe", "--name", "Zoe")
    assert code == 1 and "no seat 'zoe'" in err
    short = tmp_path / "short"
    pbem(capsys, "new", short, "--game", "secrets", "--players", "a,b,c", "--no-passwords", "--option", "turns=1", "--seed", "s")
    adjudicate(short, nmr=True)
    code, _, err = pbem(capsys, "replace", short, "a", "--name", "Al")
    assert code == 1 and "game is over" in err


def test_a_seat_handed_over_before_turn_1_has_no_history_to_show(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Replaced before anyone played: the newcomer holds the seat from turn 1, and no report lists
    the first player as having played `turns 1-0`."""
    assert pbem(capsys, "replace", campaign, "tony", "--name", "Carl")[0] == 0
    assert pbem(capsys, "replace", campaign, "tony", "--name", "Dora")[0] == 0
    assert pbem(capsys, "adjudicate", campaign, "--nmr")[0] == 0
    for report in ("tony.txt", "public.md"):
        text = (campaign / "turn-001" / "reports" / report).read_text()
        assert "turns 1-0" not in text and "played by" not in text and "Replacement players" not in text, report
    assert "Dora" in (campaign / "turn-001" / "reports" / "tony.txt").read_text()


def test_each_outgoing_players_orders_are_kept(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A seat handed over twice before a turn: both outgoing players' order files stay in gm/replaced/."""
    send(campaign, "tony", 1, [{"sid": 1, "guard": 2}], passwords(campaign)["tony"])
    assert pbem(capsys, "replace", campaign, "tony", "--name", "Carl")[0] == 0
    send(campaign, "tony", 1, [{"sid": 2, "guard": 3}], passwords(campaign)["tony"])
    code, out, _ = pbem(capsys, "replace", campaign, "tony", "--name", "Dora")
    assert code == 0 and "gm/replaced/turn-001-tony-2.yaml" in out
    kept = sorted((campaign / "gm" / "replaced").iterdir())
    assert [p.name for p in kept] == ["turn-001-tony-2.yaml", "turn-001-tony.yaml"]
    assert "guard: 3" in kept[0].read_text() and "guard: 2" in kept[1].read_text()


def test_a_new_name_must_be_a_name_of_its_own(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert pbem(capsys, "replace", campaign, "sue", "--name", "Suzy")[0] == 0
    for name, words in (("SUZY", "already the display name of 'sue'"), ("david", "already the id of 'david'"), ("Carl\u202eevil", "invisible formatting character (U+202E)")):
        code, _, err = pbem(capsys, "replace", campaign, "tony", "--name", name)
        assert code == 1 and words in err, err
    assert Campaign.open(campaign).player("tony")["name"] == "Tony"  # nothing changed


def test_unsent_mail_for_the_outgoing_player_is_dropped(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import email
    import email.policy
    import json

    outbox = campaign / "mail" / "outbox"
    assert pbem(capsys, "mail", campaign, "--turn", "0")[0] == 0
    assert pbem(capsys, "mail", campaign, "--remind")[0] == 0
    report, reminder = outbox / "turn-000" / "report-tony.eml", outbox / "turn-001" / "remind-tony.eml"
    assert "tony@example.org" in report.read_text() and "tony@example.org" in reminder.read_text()
    public = outbox / "turn-000" / "report-public.eml"
    public_id = email.message_from_bytes(public.read_bytes(), policy=email.policy.default)["Message-ID"]

    assert pbem(capsys, "replace", campaign, "tony", "--name", "Bärbel", "--email", "baerbel@example.org")[0] == 0
    assert not report.exists() and not reminder.exists() and public.exists()  # nothing else is touched
    assert pbem(capsys, "mail", campaign, "--turn", "0")[0] == 0
    assert pbem(capsys, "mail", campaign, "--remind")[0] == 0
    assert "baerbel@example.org" in report.read_text() and "tony@example.org" not in report.read_text()
    assert "baerbel@example.org" in reminder.read_text() and "tony@example.org" not in reminder.read_text()
    built = {p: p.read_bytes() for p in outbox.rglob("*.eml")}
    assert pbem(capsys, "mail", campaign, "--remind")[0] == 0 and pbem(capsys, "mail", campaign, "--turn", "0")[0] == 0
    assert {p: p.read_bytes() for p in outbox.rglob("*.eml")} == built  # a second run changes nothing

    # a message already handed to the server is part of the record: it stays
    sent = email.message_from_bytes(report.read_bytes(), policy=email.policy.default)["Message-ID"]
    log = [{"message_id": sent, "file": "turn-000/report-tony.eml"}, {"message_id": public_id, "file": "turn-000/report-public.eml"}]
    (campaign / "mail" / "sent.json").write_text(json.dumps({"sent": log}))
    assert pbem(capsys, "replace", campaign, "tony", "--name", "Carla", "--email", "carla@example.org")[0] == 0
    assert report.exists() and not reminder.exists()


def test_a_seat_in_the_middle_of_an_indented_list_is_rewritten_alone(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 5: with the players' list indented (as the sign-up writes it), handing over any seat but the last
    glued the next seat's `- id:` onto the end of the password line, and the campaign could no longer be read."""
    path = campaign / "campaign.yaml"
    text = path.read_text()
    players_at = text.index("\nplayers:") + 1
    head, players = text[:players_at], text[players_at:]
    lines = players.split("\n", 1)[1].split("\n")
    cut = next((i for i, line in enumerate(lines) if line and not line.startswith(("- ", "  "))), len(lines))
    listed, rest = "\n".join(lines[:cut]), "\n" + "\n".join(lines[cut:])
    indented = "\n".join(("  " + line if line else line) for line in listed.split("\n"))
    indented = indented.replace("  - id: sue", "  # Sue plays from Lisbon\n  - id: sue  # the last seat")
    path.write_text(head + "players:  # three seats\n" + indented + rest)
    before = Campaign.open(campaign).config

    code, out, _ = pbem(capsys, "replace", campaign, "david", "--name", "Xavier", "--email", "x@example.org")
    assert code == 0, out
    after_text = path.read_text()
    after = Campaign.open(campaign).config  # reads: no line glued onto another
    assert [p["id"] for p in after["players"]] == ["tony", "david", "sue"]
    assert after["players"][1]["name"] == "Xavier" and after["players"][1]["email"] == "x@example.org"
    assert after["players"][0] == before["players"][0] and after["players"][2] == before["players"][2]
    assert "\nplayers:  # three seats\n" in after_text
    assert "  # Sue plays from Lisbon\n  - id: sue  # the last seat" in after_text
    assert "\n  - id: david\n" in after_text


def test_every_past_turn_names_who_held_the_seat_then_in_reports_standings_and_the_site(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 5: after Carol's seat passed to Erin, the standings' 'Seen at' and the revealed site's papers of
    turn 1 named Erin for the turn Carol played."""
    root = tmp_path / "kids"
    code, out, _ = pbem(capsys, "new", root, "--game", "hidekids", "--players", "alice,carol,bob", "--seed", "h", "--option", "wolf=first",
                        "--names", "alice=Alice,carol=Carol,bob=Bob")
    assert code == 0, out
    send(root, "carol", 1, [{"hide": "tub"}], passwords(root)["carol"])
    adjudicate(root, nmr=True)
    assert pbem(capsys, "replace", root, "carol", "--name", "Erin")[0] == 0
    while not Campaign.open(root).over:  # nobody hides after that: the wolf takes a kid token for each kid at each growl
        adjudicate(root, nmr=True)
    last = Campaign.open(root).last_turn
    public = (root / f"turn-{last:03d}" / "reports" / "public.md").read_text()
    seen = next(line for line in public.splitlines() if line.startswith("| Erin |"))
    assert "| Carol: tub; Erin: " + ", ".join(["not hidden"] * (last - 1)) + " |" in seen, seen
    private = (root / f"turn-{last:03d}" / "reports" / "bob.txt").read_text()
    assert "seen: Carol: tub; Erin: not hidden" in private, private
    bob = next(line for line in public.splitlines() if line.startswith("| Bob |"))
    assert "Carol" not in bob and "Erin" not in bob, "a seat that never changed hands is listed as before"

    assert pbem(capsys, "reveal", root)[0] == 0
    assert pbem(capsys, "site", root, tmp_path / "site")[0] == 0
    turn_one = (tmp_path / "site" / "turn-001.html").read_text()
    assert "<summary>Carol (<code>carol</code>)</summary>" in turn_one and "Erin (<code>carol</code>)" not in turn_one, "turn 1's papers are Carol's"
    later = (tmp_path / "site" / f"turn-{last:03d}.html").read_text()
    assert "<summary>Erin (<code>carol</code>)</summary>" in later
    index = (tmp_path / "site" / "index.html").read_text()
    assert "<th>Played by</th>" in index and "Carol (turn 1), then Erin (from turn 2)" in index
