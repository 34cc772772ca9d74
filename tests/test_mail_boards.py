"""Report mails carry the reader's board (design 18): plain text first, then HTML with the board as an inline PNG."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

from adjudicator.campaign.demo import play
from adjudicator.campaign.folder import Campaign, dump_yaml, read_yaml
from adjudicator.mail import reportmail
from adjudicator.mail.boards import board_png


def test_each_report_mail_has_its_readers_board_inline(tmp_path: Path) -> None:
    root = tmp_path / "c"
    play(root, "jekyll", seed="boards-1", players=None, passwords=False)
    config = read_yaml(root / "campaign.yaml")
    config["gm_email"] = "gm@example.org"
    for seat in config["players"]:
        seat["email"] = f"{seat['id']}@example.org"
    (root / "campaign.yaml").write_bytes(dump_yaml(config))
    campaign = Campaign.open(root)
    files, notes = reportmail.report_messages(campaign, 2)
    assert notes == []
    assert reportmail.report_messages(campaign, 2)[0] == files, "the same mails, byte for byte, on every build"
    state = campaign.state(2)
    for player in [*state["players"], None]:
        message = email.message_from_bytes(files[f"turn-002/report-{player or 'public'}.eml"], policy=email.policy.default)
        alternative = next(p for p in message.walk() if p.get_content_type() == "multipart/alternative")
        plain, related = alternative.get_payload()
        assert plain.get_content_type() == "text/plain", "plain text first"
        html, image = related.get_payload()
        assert image.get_content_type() == "image/png"
        assert f'src="cid:{image["Content-ID"].strip("<>")}"' in html.get_content()
        board, _ = board_png("jekyll", campaign.game.view(state, player), "board-2")
        assert image.get_content() == board, f"the board drawn from {player or 'the public'}'s own view"
        if player is not None:
            assert message.get_content_type() == "multipart/mixed", "the view file still follows as an attachment"
