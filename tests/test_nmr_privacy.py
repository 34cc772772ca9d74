"""Who sent no valid orders is that player's business wherever it would tell which plays were
the default (IDENTITY-21, JEKYLL-25, HIDE-16, and any game added later unless its rules doc
says otherwise): a turn in which a player is NMR and the same turn in which that player sends,
as orders, exactly what the default chose give every other player and the public the very
same reports, byte for byte."""

from __future__ import annotations

import json
import shutil
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import yaml
from reliability_kit import NOW

from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.create import create
from adjudicator.campaign.demo import write_demo_orders
from adjudicator.campaign.folder import Campaign
from adjudicator.cli import main
from adjudicator.games import GAMES
from adjudicator.mail.ingest import ingest

TURNS = 4


def _as_sent(order: Any) -> Any:
    """A resolved order as a player would write it: without the adjudicator's own marks (`nmr`)."""
    return {k: v for k, v in order.items() if k != "nmr"} if isinstance(order, dict) else order


NMR_IS_PUBLIC = {game_id for game_id, game in GAMES.items() if game.nmr_public}
"""Games whose rules docs make an NMR public (SECRETS-20, HIDEKIDS-5); every other registered game is checked."""


def test_the_games_whose_nmr_is_public_are_the_ones_their_rules_say() -> None:
    assert NMR_IS_PUBLIC == {"secrets", "hidekids"}


@pytest.mark.parametrize("game", sorted(set(GAMES) - set(NMR_IS_PUBLIC)))
def test_an_nmr_and_the_same_orders_sent_look_the_same_to_everyone_else(game: str, tmp_path: Path) -> None:
    root = tmp_path / game
    count = min(max(GAMES[game].min_players, 3), GAMES[game].max_players)
    players = ["ann", "bob", "cat"][:count]
    create(root, game, [{"id": p, "name": p.title()} for p in players], seed="nmr-privacy", passwords=False)
    for number in range(1, TURNS + 1):
        campaign = Campaign.open(root)
        write_demo_orders(campaign, {})
        silent = campaign.game.due(campaign.state())[number % len(campaign.game.due(campaign.state()))]
        folder = f"turn-{number:03d}"
        nmr, sent = tmp_path / "nmr", tmp_path / "sent"
        for world in (nmr, sent):
            shutil.rmtree(world, ignore_errors=True)
            shutil.copytree(root, world)
        (nmr / folder / "orders" / f"{silent}.yaml").unlink()
        adjudicate(nmr, nmr=True)
        chosen = json.loads((nmr / folder / "results.json").read_text())["orders_resolved"][silent]
        order_file = {"player": silent, "turn": number, "orders": [_as_sent(o) for o in chosen]}
        (sent / folder / "orders" / f"{silent}.yaml").write_text(yaml.safe_dump(order_file))
        submission = adjudicate(sent).output.submissions[silent]
        assert submission.status == "accepted" and not [r.void for r in submission.readings if r.void], submission
        for report in sorted((nmr / folder / "reports").iterdir()):
            if report.stem != silent:
                assert report.read_bytes() == (sent / folder / "reports" / report.name).read_bytes(), f"turn {number}: {report.name}"
        adjudicate(root)


@pytest.mark.parametrize("game", sorted(set(GAMES) - NMR_IS_PUBLIC))
def test_no_mail_tells_a_player_who_else_has_sent_orders(game: str, tmp_path: Path) -> None:
    """Regression (issue 15, 5): acknowledgements ended "Still missing for turn 1: Carol." in games whose
    rules keep NMR private. Every mail Ann gets (a reminder, a refusal, an acknowledgement) is the same
    byte for byte whether Bob has sent his orders or not."""
    count = min(max(GAMES[game].min_players, 3), GAMES[game].max_players)
    players = [{"id": p, "name": p.title(), "email": f"{p}@example.org"} for p in ["ann", "bob", "cat"][:count]]
    root = tmp_path / game
    create(root, game, players, seed="nmr-mail", passwords=False, gm_email="gm@example.org")
    campaign = Campaign.open(root)
    write_demo_orders(campaign, {})
    orders = root / "turn-001" / "orders"
    ann = (orders / "ann.yaml").read_text()
    for player in players:
        (orders / f"{player['id']}.yaml").unlink(missing_ok=player["id"] != "ann")
    seen = {}
    for bob_sent in (False, True):
        world = tmp_path / f"bob-sent-{bob_sent}"
        shutil.copytree(root, world)
        if bob_sent:
            write_demo_orders(Campaign.open(world), {})  # everyone else's orders
            (world / "turn-001" / "orders" / "ann.yaml").unlink()
        assert main(["mail", str(world), "--remind"]) == 0
        box = tmp_path / f"box-{bob_sent}"
        box.mkdir()
        for n, body in enumerate(["player: ann\nturn: [1\n", ann]):
            message = EmailMessage()
            message["From"], message["To"], message["Message-ID"] = "ann@example.org", "gm@example.org", f"<ann{n}@x>"
            message["Date"] = f"Mon, 30 Nov 2026 1{n}:00:00 +0000"
            message.set_content(body)
            (box / f"{n}.eml").write_bytes(message.as_bytes())
        assert all(e.player == "ann" for e in ingest(world, [box], now=NOW).entries)
        outbox = world / "mail" / "outbox" / "turn-001"
        seen[bob_sent] = {p.name: p.read_bytes() for p in sorted(outbox.iterdir()) if p.name.startswith(("ack-", "remind-ann"))}
    assert sorted(seen[False]) == ["ack-00001.eml", "ack-00002.eml", "remind-ann.eml"]
    assert seen[False] == seen[True]
