"""A player who comes back to a seat the stand-in plays, and what the GM sees (outside trial 8): through the
judge's real path (`pbem run` over an mbox, as tests/test_judge.py ticks it), each with what the player's
acknowledgement and report say, the run line, the GM's digest and `pbem status`; `pbem standin DIR SEAT off`
and the seat's player told; "I am back now" read as chatter, not as a hiding place."""

from __future__ import annotations

import email
import email.policy
import hashlib
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import yaml
from judgekit import append_mbox, outbox
from reliability_kit import smtp_server

from adjudicator.campaign.create import create
from adjudicator.campaign.folder import Campaign
from adjudicator.cli import main
from adjudicator.judge import comeback
from adjudicator.mail.chatter import chatter
from adjudicator.mail.ingest import load_index

SEATS = ("wes", "kim", "lou", "max")
"""Wes is the wolf (the first seat); the others are kids."""
PLACES = {"kim": "hide under the bed", "lou": "hide behind the door", "max": "hide in the cupboard"}
DAILY = {"timezone": "UTC", "start": "2026-12-03 20:00", "every": "1 day"}


def _campaign(tmp_path: Path, **judge: Any) -> tuple[Path, dict[str, str]]:
    root = tmp_path / "hk"
    create(root, "hidekids", [{"id": s, "name": s.title(), "email": f"{s}@example.org"} for s in SEATS], seed="trial8",
           gm_email="GM <gm@example.org>", name="hk")
    settings = root / "campaign.yaml"
    config = yaml.safe_load(settings.read_text(encoding="utf-8"))
    config["schedule"] = dict(DAILY)
    config["judge"] = {"inbox": [str(tmp_path / "hk.mbox")], **judge}
    settings.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    (tmp_path / "hk.mbox").touch()
    return root, yaml.safe_load((root / "gm" / "passwords.yaml").read_text(encoding="utf-8"))


def _send(tmp_path: Path, seat: str, turn: int, text: str, password: str) -> None:
    """A player's mail of plain sentences, as the trial's players wrote them from their phones."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = f"{seat.title()} <{seat}@example.org>", "gm@example.org", "Re: [hk] my turn"
    message["Date"] = f"Thu, 0{2 + turn} Dec 2026 10:00:00 +0000"
    message["Message-ID"] = f"<{seat}.{turn}.{hashlib.sha256(text.encode()).hexdigest()[:12]}@example.org>"
    message.set_content(f"{text}\npassword: {password}\n")
    append_mbox(tmp_path / "hk.mbox", bytes(message))


def _turn(tmp_path: Path, turn: int, passwords: dict[str, str], *seats: str, lou: str | None = None) -> None:
    _send(tmp_path, "wes", turn, "lift the stove and the clock", passwords["wes"])
    for seat in seats:
        _send(tmp_path, seat, turn, PLACES[seat], passwords[seat])
    if lou is not None:
        _send(tmp_path, "lou", turn, lou, passwords["lou"])


def _tick(capsys: pytest.CaptureFixture[str], root: Path, turn: int) -> str:
    code = main(["run", str(root), "--now", f"2026-12-0{2 + turn}T11:00+00:00"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    return " ".join(out.split())


def _status(capsys: pytest.CaptureFixture[str], root: Path) -> str:
    """`pbem status` on a terminal wide enough that no cell of its table wraps."""
    with pytest.MonkeyPatch.context() as wide:
        wide.setenv("COLUMNS", "400")
        assert main(["status", str(root), "--now", "2026-12-03T11:00+00:00"]) == 0
    return " ".join(capsys.readouterr().out.split())


def _mail(root: Path, name: str) -> email.message.EmailMessage:
    return email.message_from_bytes((root / "mail" / "outbox" / name).read_bytes(), policy=email.policy.default)


def _text(root: Path, name: str) -> str:
    part = _mail(root, name).get_body(("plain",))
    assert part is not None
    return " ".join(part.get_content().split())


def _digests(root: Path, turn: int) -> str:
    return " ".join(_text(root, n) for n in outbox(root) if n.startswith(f"turn-{turn:03d}/gm-digest"))


def _ack(root: Path, seat: str, turn: int) -> str:
    [name] = [n for n in outbox(root) if n.startswith(f"turn-{turn:03d}/ack-") and seat in str(_mail(root, n)["To"])]
    return name


def test_a_player_back_at_a_seat_the_gms_stand_in_plays_and_the_gm_are_told(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 8: Lou came back to a seat the GM had given the stand-in; his orders played that turn, and nobody
    told him or the GM that the stand-in stayed on. The next turn went four days early, the stand-in played
    Lou's seat, and the digest called it "newly played by the stand-in" though the GM had switched it on long before."""
    root, passwords = _campaign(tmp_path, gm_digest=True)
    assert main(["standin", str(root), "lou", "on"]) == 0
    capsys.readouterr()
    _turn(tmp_path, 1, passwords, "kim", "max")
    assert "turn 1 adjudicated early" in _tick(capsys, root, 1)
    assert "newly played by the stand-in from turn 1: lou (gm)" in _digests(root, 2)

    _turn(tmp_path, 2, passwords, "kim", "max", lou="Sorry, I was away! I am back now.\nhide behind the door")
    _send(tmp_path, "lou", 2, "status", passwords["lou"])  # his `status` by mail says it too
    line = _tick(capsys, root, 2)
    told = (f"lou sent orders of their own for turn 2 while your stand-in is on for the seat (since turn 1): they play turn 2, and the "
            f"stand-in goes on playing every turn lou sends nothing, without the judge waiting for them; if lou is back for good: "
            f"pbem standin {root} lou off")
    assert told in line and "turn 2 adjudicated early" in line, line
    assert line.endswith(f" messages built. {told}"), line  # its own sentence, not an item of the list (trial 9)
    assert told in _digests(root, 3)
    ack = _ack(root, "lou", 2)
    assert "VOID" not in str(_mail(root, ack)["Subject"])  # "I am back now." is no hiding place (item 4)
    said = _text(root, ack)
    assert "These orders of yours are used for turn 2, not the stand-in's. The GM has the judge's stand-in on your seat (since turn 1): it " \
           "plays every turn for which you send no orders, from your seat's view alone, and the judge does not wait for you" in said, said
    assert "ask the GM to take the stand-in off it" in said and "am back now" not in said
    [answer] = [_text(root, n) for n in outbox(root) if n.startswith("turn-002/") and "status for Lou" in _text(root, n)]
    assert "Your orders for turn 2: filed, 1 order. The GM has the judge's stand-in on your seat (since turn 1)" in answer, answer
    [report] = [n for n in outbox(root) if n.startswith("turn-002/report-lou")]
    assert "The GM has the judge's stand-in on your seat (since turn 1)" in _text(root, report)
    assert "Send your orders for turn 3 with the form at the end of this report to play that turn yourself." in _text(root, report)
    assert "the stand-in writes this seat's orders when the turn is adjudicated: at the GM's word, from turn 1" in _status(capsys, root)

    _turn(tmp_path, 3, passwords, "kim", "max")
    assert "turn 3 adjudicated early" in _tick(capsys, root, 3)
    digest = _digests(root, 4)
    assert "played by the stand-in again in turn 3, its player having sent nothing: lou (gm, on since turn 1)" in digest, digest
    assert "newly played" not in digest
    # The other kids were told nothing of it: Lou's own business stays his.
    assert not any("stand-in" in _text(root, n) for n in outbox(root) if n.startswith("turn-002/ack-") and "kim" in str(_mail(root, n)["To"]))


def test_a_player_back_at_an_abandoned_seat_ends_it_and_both_are_told(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 8 (hk2): Max, abandoned after one NMR, wrote again; design 14 ends the abandonment, but the run line,
    the digest and `pbem status` were silent, and Max's acknowledgement did not say the stand-in stopped."""
    root, passwords = _campaign(tmp_path, gm_digest=True, abandon_after=1)
    _turn(tmp_path, 1, passwords, "kim", lou="hide behind the door")
    main(["run", str(root), "--now", "2026-12-03T21:00+00:00"])  # max sends nothing: NMR at the deadline, abandoned
    capsys.readouterr()
    for seat in ("kim", "lou"):
        _send(tmp_path, seat, 2, PLACES[seat], passwords[seat])
    _send(tmp_path, "max", 2, "I'm back!\nhide in the cupboard", passwords["max"])  # the wolf's are not in: the turn waits
    line = _tick(capsys, root, 2)
    told = ("max is back: orders of their own for turn 2 are filed, so the seat (abandoned after 1 turn without valid orders in a row) "
            "is abandoned no more and the stand-in stops playing it")
    assert told in line and told in _digests(root, 2), line
    assert f" built. {told}" in line, line
    said = _text(root, _ack(root, "max", 2))
    assert "Your seat counted as abandoned after 1 turn without valid orders in a row, so it was the judge's stand-in's to play. These orders take " \
           "it back: they are used for turn 2, and the stand-in stops. It would take 1 turn in a row without valid orders to abandon the seat again." in said, said
    assert "VOID" not in said
    status = _status(capsys, root)
    assert "the player is back: the seat (abandoned after 1 turn without valid orders in a row) is abandoned no more, the stand-in stops" in status, status
    assert main(["standin", str(root), "max", "off"]) == 0  # a seat that was abandoned: "again" is true of it
    assert "after 1 turn without valid orders in a row, counted from turn 2, it counts as abandoned again." in " ".join(capsys.readouterr().out.split())


def test_pbem_standin_off_tells_the_seats_player_and_the_gm_why_it_was_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 8: `off` sent the player no word, and told the GM the seat "counts as abandoned again" though it
    never had been."""
    root, _ = _campaign(tmp_path, abandon_after=3)
    assert main(["standin", str(root), "lou", "on"]) == 0
    assert main(["standin", str(root), "lou", "off"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("Seat lou: no stand-in from turn 1 on (it played the seat, at the GM's word, from turn 1); a silent seat gets the game's NMR "
            "default; after 3 turns without valid orders in a row, counted from turn 1, it counts as abandoned.") in out, out
    assert "abandoned again" not in out and "lou is told that the seat is theirs again" in out
    [letter] = [n for n in outbox(root) if n.startswith("turn-001/standin-off-lou-")]
    said = _text(root, letter)
    assert "the GM has handed your seat back to you, Lou (lou)" in said and "from turn 1 it no longer is, and the judge waits for your orders" in said
    assert "Orders for turn 1 are due by Thursday 3 December 2026, 20:00 UTC" in said
    assert "you are caught at the growl, before the first lift (HIDEKIDS-5)" in said, said
    assert "[hk] turn 1: your seat is yours again" in str(_mail(root, letter)["Subject"])
    assert main(["standin", str(root), "lou", "off"]) == 0  # nothing was on: nothing to tell
    assert "no stand-in from turn 1 on (none was playing it)" in capsys.readouterr().out
    assert len([n for n in outbox(root) if "standin-off" in n]) == 1
    with smtp_server() as (server, address):  # the judge's tick delivers it, once, as it does every letter of the outbox
        for _ in range(2):
            assert main(["run", str(root), "--now", "2026-12-03T11:00+00:00", "--send", "--smtp", address]) == 0
    handed = [(to, m) for to, m in server.received if "your seat is yours again" in str(m["Subject"])]
    assert [to for to, _ in handed] == [["lou@example.org"]], server.received


@pytest.mark.parametrize("line", ["I am back now.", "I'm back", "I’m back!", "back again", "Back now", "I am back again",
                                  "I'm back, sorry about that.", "Hi all, I'm back for a bit!"])  # the last two: trial 9
def test_a_line_saying_the_player_is_back_is_chatter(line: str) -> None:
    assert chatter(line)


@pytest.mark.parametrize("line", ["back", "back to the tub", "I am back now, hide behind the door", "I am back in the tub",
                                  "I'm back, hide under the tub", "Hi all, hide behind the door"])
def test_an_order_that_has_back_in_it_is_no_chatter(line: str) -> None:
    """A line wrongly taken for chatter is an order lost without a word: only the whole line of being back is."""
    assert not chatter(line)


def test_orders_sent_before_the_gms_word_are_not_told_as_sent_over_the_stand_in(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Read over the trial's whole record, Lou's orders of turn 1 were told as sent "while your stand-in is on
    (since turn 3)": the GM's word covers the turns from the one it was given in, not those before."""
    root, passwords = _campaign(tmp_path)
    _turn(tmp_path, 1, passwords, "kim", "max", lou="hide behind the door")
    assert "turn 1 adjudicated early" in _tick(capsys, root, 1)
    assert main(["standin", str(root), "lou", "on"]) == 0
    assert comeback.told(Campaign.open(root), [e.seq for e in load_index(root)]) == []
    _turn(tmp_path, 2, passwords, "kim", "max", lou="hide behind the door")
    assert "lou sent orders of their own for turn 2 while your stand-in is on for the seat (since turn 2)" in _tick(capsys, root, 2)


ACROSS_A_GREED_STEP = Path(__file__).parent / "campaigns" / "abandoned-across-a-greed-step"
"""Trial 9's Jekyll vs Hyde campaign to turn 7 (its folders' states, results and stand-in records): Ben silent in
turns 3 and 4, abandoned after turn 4, played by the stand-in in turn 5; turn 6 was Ann's Greed step alone."""


def test_a_turn_an_abandoned_seat_was_not_due_in_neither_abandons_it_again_nor_hands_it_to_the_stand_in_anew() -> None:
    from adjudicator.campaign.folder import Campaign
    from adjudicator.campaign.standins import abandoned_by
    from adjudicator.judge.run import _turn_facts

    campaign = Campaign.open(ACROSS_A_GREED_STEP)
    assert campaign.game.due(campaign.state(5)) == ["ann"]  # turn 6: the Greed step, Ben not due
    assert {turn: [d.seat for d in abandoned_by(campaign, turn)] for turn in range(1, 8)} == {
        1: [], 2: [], 3: [], 4: ["ben"], 5: [], 6: [], 7: []}  # told once, with turn 4, not again with turn 6
    assert any("newly played by the stand-in from turn 5: ben (abandoned)" in f for f in _turn_facts(campaign, 5))
    assert not any("newly" in f or "abandoned" in f for f in _turn_facts(campaign, 6) + _turn_facts(campaign, 7))
    assert "the stand-in played ben" in _turn_facts(campaign, 7)[0]


def test_status_json_says_why_the_stand_in_covers_each_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 9: `pbem status` said why the stand-in played a seat, `pbem status --json` only that it did."""
    import json

    root, passwords = _campaign(tmp_path, abandon_after=1)
    assert main(["standin", str(root), "lou", "on"]) == 0
    _turn(tmp_path, 1, passwords, "kim")
    main(["run", str(root), "--now", "2026-12-03T21:00+00:00"])  # max sends nothing: NMR at the deadline, abandoned
    _send(tmp_path, "max", 2, "hide in the cupboard", passwords["max"])  # max comes back; lou stays away
    main(["run", str(root), "--now", "2026-12-04T11:00+00:00"])
    capsys.readouterr()
    assert main(["status", str(root), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["standins"] == ["lou"]  # unchanged beside the new field
    assert printed["covered"] == {
        "lou": {"reason": "gm", "why": "at the GM's word, from turn 1", "since": 1, "plays": True},
        "max": {"reason": "abandoned", "why": "abandoned after 1 turn without valid orders in a row", "after": 1, "plays": False},
    }, printed["covered"]
    status = _status(capsys, root)
    assert all(cover["why"] in status for cover in printed["covered"].values()), status  # the text says the same words


def _received(server: Any, seat: str) -> list[str]:
    return [str(m["Subject"]) for to, m in server.received if to == [f"{seat}@example.org"]]


def _ticks(root: Path, address: str, *moments: str) -> None:
    for moment in moments:
        assert main(["run", str(root), "--now", moment, "--send", "--smtp", address]) == 0


def _handed_back_after_the_welcome(root: Path, server: Any, address: str) -> None:
    """The welcome out (and forgotten), then the GM's `pbem standin lou on` and `off`: a hand-back letter in the outbox."""
    _ticks(root, address, "2026-12-01T11:00+00:00")
    server.received.clear()
    assert main(["standin", str(root), "lou", "on"]) == 0
    assert main(["standin", str(root), "lou", "off"]) == 0


def test_the_hand_back_letter_carries_the_deadline_and_no_reminder_goes_beside_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 9: the GM ran `pbem standin ... off` and the next tick, within a day of the deadline, sent Lou the
    letter and "your orders are missing (24 hours left)" at once. One mail now; the others are reminded as ever."""
    root, _ = _campaign(tmp_path)
    with smtp_server() as (server, address):
        _handed_back_after_the_welcome(root, server, address)
        capsys.readouterr()
        _ticks(root, address, *["2026-12-03T11:00+00:00"] * 2)  # a tick run again sends nothing twice, and no late reminder either
    line = " ".join(capsys.readouterr().out.split())
    assert "reminded wes, kim, lou (by the letter handing the seat back), max of turn 1's deadline" in line, line
    [letter] = _received(server, "lou")
    assert "your seat is yours again" in letter
    assert "Orders for turn 1 are due by Thursday 3 December 2026, 20:00 UTC" in _text(root, next(n for n in outbox(root) if "standin-off-lou" in n))
    assert [len(_received(server, seat)) for seat in ("wes", "kim", "max")] == [1, 1, 1]
    assert not [n for n in outbox(root) if n.startswith("turn-001/remind-lou")]


def test_a_hand_back_letter_sent_a_tick_before_leaves_the_reminder_due(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Only a letter that goes with the same tick takes the reminder's place: one sent the day before does not."""
    root, _ = _campaign(tmp_path)
    with smtp_server() as (server, address):
        _handed_back_after_the_welcome(root, server, address)
        _ticks(root, address, "2026-12-02T11:00+00:00", "2026-12-03T11:00+00:00")  # the letter goes 33 hours before the deadline
    received = _received(server, "lou")
    assert len(received) == 2 and "your seat is yours again" in received[0] and "your orders are missing (24 hours left)" in received[1], received


FULL = "The GM has the judge's stand-in on your seat (since turn 1): it plays every turn for which you send no orders"
REMINDER = ("As the acknowledgement of your orders said, the GM's stand-in stays on your seat: it plays turn 3 unless you send "
            "your orders for it with the form at the end of this report.")


def test_the_stand_in_staying_on_is_said_in_full_once_then_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 9: Lou read the same paragraph in the acknowledgement of his orders and again above his report. Said
    in full by the first mail that tells him; the report that follows his acknowledgement, sent, gives one line."""
    root, passwords = _campaign(tmp_path)
    assert main(["standin", str(root), "lou", "on"]) == 0
    with smtp_server() as (server, address):
        _turn(tmp_path, 1, passwords, "kim", "max")
        _ticks(root, address, "2026-12-03T11:00+00:00")
        _send(tmp_path, "lou", 2, "hide behind the door", passwords["lou"])  # his orders first: acknowledged, and sent
        _ticks(root, address, "2026-12-04T09:00+00:00")
        assert FULL in _text(root, _ack(root, "lou", 2))
        server.received.clear()
        _turn(tmp_path, 2, passwords, "kim", "max")
        capsys.readouterr()
        _ticks(root, address, "2026-12-04T11:00+00:00")
    assert "turn 2 adjudicated early" in " ".join(capsys.readouterr().out.split())
    assert len(_received(server, "lou")) == 1  # his report
    [report] = [_text(root, n) for n in outbox(root) if n.startswith("turn-002/report-lou")]
    assert REMINDER in report and FULL not in report, report


def test_an_acknowledgement_never_sent_leaves_the_report_to_say_it_in_full(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A GM who ticks without --send: Lou's acknowledgement still waited in the outbox when the turn was adjudicated,
    so it is outdated and never goes; his report must not point to it, and says it all."""
    root, passwords = _campaign(tmp_path)
    assert main(["standin", str(root), "lou", "on"]) == 0
    _turn(tmp_path, 1, passwords, "kim", "max")
    assert "turn 1 adjudicated early" in _tick(capsys, root, 1)
    _send(tmp_path, "lou", 2, "hide behind the door", passwords["lou"])
    assert main(["run", str(root), "--now", "2026-12-04T09:00+00:00"]) == 0
    assert FULL in _text(root, _ack(root, "lou", 2))
    _turn(tmp_path, 2, passwords, "kim", "max")
    assert "turn 2 adjudicated early" in _tick(capsys, root, 2)
    [report] = [_text(root, n) for n in outbox(root) if n.startswith("turn-002/report-lou")]
    assert FULL in report and REMINDER not in report, report


def test_a_report_that_is_the_first_to_tell_says_it_in_full(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The other order of events: Lou's orders were the last in, so the tick that read them adjudicated the turn and
    his acknowledgement never went; his report is the first mail to tell him, and says it all."""
    root, passwords = _campaign(tmp_path)
    assert main(["standin", str(root), "lou", "on"]) == 0
    _turn(tmp_path, 1, passwords, "kim", "max")
    assert "turn 1 adjudicated early" in _tick(capsys, root, 1)
    _turn(tmp_path, 2, passwords, "kim", "max", lou="hide behind the door")
    assert "turn 2 adjudicated early" in _tick(capsys, root, 2)
    [report] = [_text(root, n) for n in outbox(root) if n.startswith("turn-002/report-lou")]
    assert FULL in report and "Send your orders for turn 3 with the form at the end of this report to play that turn yourself." in report
    assert REMINDER not in report


def test_a_jekyll_stand_ins_long_orders_are_echoed_whole_in_the_seats_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 9: the seat's report showed the stand-in's order as "greed: red1, green1, p…". Every order now reads
    whole where the player (or the GM) reads it, wrapped under its number instead of cut."""
    import json

    root = tmp_path / "jk"
    create(root, "jekyll", [{"id": s, "name": s.title(), "email": f"{s}@example.org"} for s in ("ann", "ben")], seed="trial9", name="jk")
    for seat in ("ann", "ben"):
        assert main(["standin", str(root), seat, "on"]) == 0
    longest = 0
    for number in range(1, 7):
        if main(["adjudicate", str(root)]) != 0:  # two stand-ins may end the game in a few turns
            assert number > 2 and "the game ended" in capsys.readouterr().err
            break
        results = json.loads((root / f"turn-{number:03d}" / "results.json").read_bytes())
        for seat, submission in results["submissions"].items():
            report = (root / f"turn-{number:03d}" / "reports" / f"{seat}.txt").read_text(encoding="utf-8")
            assert "…" not in report
            for order in submission["orders"]:
                longest = max(longest, len(order["written"]))
                assert order["written"] in " ".join(report.split()), (number, seat, order["written"])
    capsys.readouterr()
    assert longest > 100, "some order is longer than one line of the report: the case of the trial"
