"""Small wordings an outside trial's new players met (Sid's Secrets and H.I.D.E.): each read as they are meant."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.campaign.create import create
from adjudicator.campaign.folder import Campaign
from adjudicator.campaign.turn import render_reports
from adjudicator.cli import main
from adjudicator.games import get
from adjudicator.publish.render import Renderer

EXAMPLE = Path(__file__).resolve().parent.parent / "turns" / "hide-example"


def _check(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> str:
    root = tmp_path / "spies"
    create(root, "secrets", [{"id": "tony", "name": "Tony"}, {"id": "david", "name": "David"}, {"id": "maria", "name": "Maxi"}],
           seed="wording", passwords=False)
    path = tmp_path / "maria.txt"
    path.write_text(text, encoding="utf-8")
    main(["check", str(path), "--campaign", str(root)])
    return capsys.readouterr().out


def test_a_line_of_orders_split_at_its_commas_numbers_each_part(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _check(tmp_path, capsys, "SID 1 steal david 8, SID 2 guard secret 10, SID 9 steal tony 9\nSID 3 guard secret 4\n")
    assert "  1a. SID 1 steal david 8\n" in out and "  1b. SID 2 guard secret 10\n" in out and "  1c. SID 9 steal tony 9\n" in out
    assert "   2. SID 3 guard secret 4\n" in out and "maria.txt, order 1c): there is no SID 9" in out


@pytest.mark.parametrize("signed", ["xx Maxi", "Maxi xx", "x"])
def test_kisses_and_the_seats_name_sign_off_and_are_no_order(tmp_path: Path, capsys: pytest.CaptureFixture[str], signed: str) -> None:
    out = _check(tmp_path, capsys, f"SID 1 steal david 8\n{signed}\n")
    assert "maria.txt: accepted for maria, turn 1" in out and "VOID" not in out, out


def test_one_rank_card_goes_face_down() -> None:
    report = (EXAMPLE / "turn-009" / "reports" / "alice.txt").read_text(encoding="utf-8")
    assert "(1 raises the rank, 1 goes face down as intel)" in report


def test_an_agent_out_of_the_round_is_told_there_is_nothing_to_order_until_the_next_round() -> None:
    """The report of an agent shot out of the round, in a campaign with a deadline: no "Deadline for your
    orders" above "nothing to send", but that nothing is to be ordered until the next round, and when that is."""
    campaign = Campaign.open(EXAMPLE)
    game = get("hide")
    state = campaign.state(9)
    deadline = {"turn": 10, "at": "2026-12-08T19:00:00+00:00", "zone": "Europe/Berlin", "text": "Tuesday 8 December 2026, 20:00 CET (Europe/Berlin)"}
    setup = json.loads((EXAMPLE / "turn-000" / "setup.json").read_text(encoding="utf-8"))
    reports = render_reports(game, Renderer.for_campaign("hide", EXAMPLE), setup, state, 9, [], {}, campaign.state(8), json.dumps(deadline).encode())
    chiara = reports["reports/chiara.txt"].decode("utf-8")
    assert "Deadline for your orders" not in chiara
    assert "You are out of this round: you have nothing to order until the next round." in chiara
    assert "It ends after turn 10 at the latest (mission turn 4)" in chiara
    assert "(The orders for turn 10, from the agents who send them, are due by Tuesday 8 December 2026, 20:00 CET (Europe/Berlin).)" in chiara
    assert "Deadline for your orders for turn 10: Tuesday 8 December 2026" in reports["reports/alice.txt"].decode("utf-8")
