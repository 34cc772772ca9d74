"""The pending turn read once and checked once (campaign/pending.py): every part that speaks of it,
`pbem status`, the judge, acknowledgements, mail answers, `pbem check` and the reports, says the same."""

from __future__ import annotations

import datetime as dt
import email
import email.policy
from pathlib import Path

import pytest
import yaml
from test_ingest import mail, maildir, order_text

from adjudicator.campaign import pending
from adjudicator.campaign.adjudicate import Refused, adjudicate
from adjudicator.campaign.audit import audit
from adjudicator.campaign.create import create
from adjudicator.campaign.folder import Campaign
from adjudicator.cli import main
from adjudicator.judge.run import waiting_for
from adjudicator.mail.ingest import ingest

NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
PLAYERS = [
    {"id": "tony", "name": "Tony", "email": "tony@example.org"},
    {"id": "david", "name": "David", "email": "david@example.org"},
    {"id": "sue", "name": "Sue", "email": "sue@example.org"},
]


def _campaign(root: Path, game: str = "secrets") -> Path:
    create(root, game, [dict(p) for p in PLAYERS], seed=f"pending-{game}", gm_email="GM <gm@example.org>", name="Spies", passwords=True)
    return root


def _outbox(root: Path) -> dict[str, str]:
    box = root / "mail" / "outbox"
    found = {}
    for path in sorted(box.rglob("*.eml")):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        found[path.relative_to(box).as_posix()] = message.get_body(("plain",)).get_content()
    return found


def test_a_seat_the_standin_plays_is_never_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Sid's Secrets makes NMR public, so an acknowledgement says who is still missing: never the stand-in's seat."""
    root = _campaign(tmp_path / "spies")
    assert main(["standin", str(root), "sue", "on"]) == 0
    box = maildir(tmp_path, [mail("tony@example.org", attachment=order_text(root, "tony", ["SID 1 guard secret 1"]))])
    ingest(root, [box], now=NOW)
    [ack] = [text for name, text in _outbox(root).items() if "ack-" in name]
    assert "Still missing for turn 1: David." in ack and "Sue" not in ack
    assert waiting_for(Campaign.open(root)) == ["david"]
    capsys.readouterr()
    main(["status", str(root)])
    out = " ".join(capsys.readouterr().out.split())
    assert "Still waiting for: david" in out and "stand-in" in out


def test_a_refused_turn_leaves_nothing_of_the_standin_behind(tmp_path: Path) -> None:
    """The stand-in's orders live in memory until the commit: a turn refused after they were made writes nothing."""
    root = _campaign(tmp_path / "spies")
    assert main(["standin", str(root), "sue", "on"]) == 0
    templates = root / "templates"
    templates.mkdir()
    (templates / "public.md.j2").write_text("{{ 1 / 0 }}\n")  # a GM's broken template refuses the turn
    folder = root / "turn-001"
    before = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))
    with pytest.raises(Refused, match="template"):
        adjudicate(root, nmr=True)
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")) == before == ["orders"]
    (templates / "public.md.j2").unlink()
    assert main(["standin", str(root), "sue", "off"]) == 0
    outcome = adjudicate(root, nmr=True)
    assert outcome.output.standins == {} and not (folder / "orders" / "sue.yaml").exists()
    assert audit(root).divergence is None


def test_the_standins_files_are_committed_and_replayed(tmp_path: Path) -> None:
    root = _campaign(tmp_path / "spies")
    assert main(["standin", str(root), "sue", "on"]) == 0
    outcome = adjudicate(root, nmr=True)
    assert outcome.output.standins == {"sue": {"reason": "gm"}}
    assert (root / "turn-001" / "orders" / "sue.yaml").read_text().startswith("# Written by the stand-in")
    assert (root / "turn-001" / "standins.yaml").is_file()
    assert audit(root).divergence is None


def test_one_reading_for_every_route(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A void order reads the same, with what replaces it, in pbem check, the acknowledgement, the
    `orders` answer and the report: one template macro renders them all."""
    root = tmp_path / "ident"
    create(root, "identity", [dict(p) for p in PLAYERS], seed="pending-identity", gm_email="GM <gm@example.org>", name="Ident", passwords=True)
    campaign = Campaign.open(root)
    turn = pending.read(campaign)
    assert turn.game.phase(turn.state) == "bid"
    document = yaml.safe_load(order_text(root, "tony", [{"bid": ["nonsense", "more nonsense"]}]))
    sub = turn.check_document(document, player="tony", source="tony.yaml")
    assert sub.status == "accepted" and sub.void and sub.void[0].instead, "an Identity bid that is void draws cards instead"
    instead = sub.void[0].instead

    path = tmp_path / "tony.yaml"
    path.write_text(order_text(root, "tony", [{"bid": ["nonsense", "more nonsense"]}]))
    capsys.readouterr()
    assert main(["check", str(path), "--campaign", str(root)]) == 1
    checked = capsys.readouterr().out
    orders_mail = mail("tony@example.org", "orders\n" + f"password: {yaml.safe_load(path.read_text())['password']}\n", subject="orders")
    box = maildir(tmp_path, [mail("tony@example.org", attachment=path.read_text())])
    ingest(root, [box], now=NOW)
    ingest(root, [maildir(tmp_path, [orders_mail], "Second")], now=NOW)
    replies = _outbox(root)
    ack = next(text for name, text in replies.items() if "ack-" in name)
    answer = next(text for name, text in replies.items() if "reply-" in name)
    for said in (checked, ack, answer):
        assert instead in " ".join(said.split()), said
        assert "This order" not in said  # never "does nothing" where something replaces it
    adjudicate(root, nmr=True)
    report = (root / "turn-001" / "reports" / "tony.txt").read_text()
    assert instead in " ".join(report.split())


def test_status_and_check_agree_on_a_rejected_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _campaign(tmp_path / "spies")
    orders = root / "turn-001" / "orders"
    (orders / "tony.yaml").write_text(order_text(root, "tony", [], password="wrong"))
    verdict = pending.check(pending.read(Campaign.open(root)))
    assert verdict.submissions["tony"].status == "rejected" and "tony" in verdict.waiting
    capsys.readouterr()
    main(["status", str(root)])
    assert "tony (file rejected)" in capsys.readouterr().out
    assert main(["check", str(orders / "tony.yaml"), "--campaign", str(root)]) == 1
    assert "password: is not this player's password" in capsys.readouterr().out


def test_status_json_is_the_same_verdict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    root = _campaign(tmp_path / "spies")
    assert main(["standin", str(root), "sue", "on"]) == 0
    orders = root / "turn-001" / "orders"
    (orders / "tony.yaml").write_text(order_text(root, "tony", ["SID 1 guard secret 1"]))
    (orders / "Tony.txt").write_text("stray\n")
    capsys.readouterr()
    assert main(["status", str(root), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["waiting"] == ["david"] and printed["standins"] == ["sue"] and printed["due"] == ["tony", "david", "sue"]
    assert printed["submissions"]["tony"] == {"status": "accepted", "source": "orders/tony.yaml", "orders": 1, "void": 0, "problems": []}
    assert printed["ignored"] == {"Tony.txt": "the order file of tony is named tony.yaml"}
    assert printed["waiting"] == waiting_for(Campaign.open(root))
