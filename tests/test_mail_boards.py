"""Report mails carry the reader's board (design 18): plain text first, then HTML with the board as an inline PNG."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

from adjudicator.campaign.demo import play
from adjudicator.campaign.folder import Campaign, dump_yaml, read_yaml
from adjudicator.mail import reportmail
from adjudicator.judge.letters import welcome_messages
from adjudicator.mail.boards import board_png


def with_addresses(root: Path) -> Campaign:
    """The demo campaign at `root` with a GM's address and one for each seat, so that its mail is built."""
    config = read_yaml(root / "campaign.yaml")
    config["gm_email"] = "gm@example.org"
    for seat in config["players"]:
        seat["email"] = f"{seat['id']}@example.org"
    (root / "campaign.yaml").write_bytes(dump_yaml(config))
    return Campaign.open(root)


def test_each_report_mail_has_its_readers_board_inline(tmp_path: Path) -> None:
    root = tmp_path / "c"
    play(root, "jekyll", seed="boards-1", players=None, passwords=False)
    campaign = with_addresses(root)
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
        board = board_png("jekyll", campaign.game.view(state, player), "board-2").png
        assert image.get_content() == board, f"the board drawn from {player or 'the public'}'s own view"
        if player is not None:
            assert message.get_content_type() == "multipart/mixed", "the view file still follows as an attachment"


def test_the_welcome_shows_the_players_opening_board(tmp_path: Path) -> None:
    """The welcome carries the opening report, so it is a report mail like the others (a field trial found
    it plain text only)."""
    root = tmp_path / "c"
    play(root, "identity", seed="boards-1", players=None, passwords=False)
    campaign = with_addresses(root)
    files, _ = welcome_messages(campaign, mail_passwords=False)
    opening = campaign.state(0)
    for player in opening["players"]:
        message = email.message_from_bytes(files[f"turn-000/welcome-{player}.eml"], policy=email.policy.default)
        [image] = [p for p in message.walk() if p.get_content_type() == "image/png"]
        assert image.get_content() == board_png("identity", campaign.game.view(opening, player), "board-0").png
        assert "welcome" in message.get_body(("plain",)).get_content()
        assert any(p.get_filename() == f"{player}-turn-001.view.json" for p in message.walk()), "the view file still attached"


def test_every_card_is_drawn_in_its_own_colour_with_words_that_stand_out() -> None:
    """Identity's pink cards were drawn black (no fill for `c-pink`), and its black card's words black on black."""
    import re

    from adjudicator.games.identity.cards import BLACK, COLOURS
    from adjudicator.publish.svg import STYLE, Drawing, card

    fills = dict(re.findall(r"\.([\w-]+)\{fill:#([0-9a-f]{6}|[0-9a-f]{3})\}", STYLE.split("@media")[0]))
    for colour in (*COLOURS, BLACK):
        assert f"c-{colour}" in fills, f"no colour for Identity's {colour} cards"
        d = Drawing(60, 60, "a card", "a card", "k")
        card(d, 0, 0, colour, "+1", "a card")
        ink = re.findall(r'class="(on-[\w-]+) label"', d.svg())
        assert ink and ink[0] in fills

        def lightness(hex_colour: str) -> int:
            full = hex_colour if len(hex_colour) == 6 else "".join(c * 2 for c in hex_colour)
            return sum(int(full[i:i + 2], 16) for i in (0, 2, 4))

        assert abs(lightness(fills[f"c-{colour}"]) - lightness(fills[ink[0]])) > 300, f"the words on a {colour} card must stand out"


def test_hide_names_its_buildings_in_words_as_its_dice_do(tmp_path: Path) -> None:
    campaign = play(tmp_path / "h", "hide", seed="words", players=3, passwords=False)
    state = campaign.state(1)
    from adjudicator.publish.pictures import painter

    svg = painter("hide").board(campaign.game.view(state, None), "b").svg()
    assert ">army base<" in svg and ">army-base<" not in svg


def _welcome_html(root: Path, game: str, seed: str) -> tuple[Campaign, dict[str, str]]:
    play(root, game, seed=seed, players=None, passwords=False)
    campaign = with_addresses(root)
    files, _ = welcome_messages(campaign, mail_passwords=False)
    pages = {}
    for player in campaign.state(0)["players"]:
        message = email.message_from_bytes(files[f"turn-000/welcome-{player}.eml"], policy=email.policy.default)
        pages[player] = message.get_body(("html",)).get_content()
    return campaign, pages


def test_the_opening_boards_say_what_has_not_happened_yet_in_the_games_words(tmp_path: Path) -> None:
    """Trial 5: Identity's welcome board read 'bid None' in its alt text and 'tricks of this deal, in the order
    played' over no trick; Hide the Kids!' opening said the wolf had lifted framed pieces 'this turn'."""
    from adjudicator.publish.pictures import identity

    campaign, pages = _welcome_html(tmp_path / "id", "identity", "boards-1")
    for page in pages.values():
        assert "bid None" not in page and "bid not shown yet" in page
    opening = identity.board(campaign.game.view(campaign.state(0), None), "b").svg()
    assert "tricks of this deal: none played yet" in opening and "in the order played" not in opening
    later = campaign.state(campaign.last_turn)
    drawn = identity.board(campaign.game.view(later, None), "b").svg()
    tricks = [t for t in later.get("played", []) if t.get("deal") == later.get("deal")]
    assert tricks, "the demo's last deal has tricks"
    names = later["names"]
    for trick in tricks:  # each trick row says who played its cards, in order
        assert "by " + ", ".join(names[p["player"]] for p in trick["plays"]) in drawn

    from adjudicator.publish.pictures import hidekids

    kids = play(tmp_path / "hk", "hidekids", seed="boards-1", players=None, passwords=False)
    first = hidekids.board(kids.game.view(kids.state(0), None), "k").svg()
    assert "nothing lifted yet" in first and "the wolf lifted the framed pieces this turn" not in first
    assert "the wolf lifted the framed pieces this turn" in hidekids.board(kids.game.view(kids.state(1), None), "k").svg()


def test_a_reports_html_flows_its_paragraphs_and_keeps_its_tables_and_form_line_for_line(tmp_path: Path) -> None:
    """Trial 7: the HTML part was the text report in a <pre>, so on a phone (some 45 columns) every line
    the template broke at 72 broke again, and the rules of '=' ran off the screen. Prose the template
    broke is one paragraph now; tables, lists and the order form stay as written; a rule is a rule."""
    from adjudicator.mail.plainhtml import text_html

    text = ("Sid Winter 2026 (Sid's Secrets): welcome, Ann.\n\n"
            "To send orders, reply to this message with your order file attached (a\n"
            ".yaml file) or pasted into the body, starting with the line 'player: ann',\n"
            "as the order form at the end of the report shows. A message whose Subject is a command\n"
            "to the judge:\n"
            "  help               this list, the order format and the deadline\n"
            + "=" * 72 + "\n"
            "STANDINGS\n"
            "  Ann                 0 points   10 secrets, 7 SIDs left\n"
            "Send it back as ann.yaml (or paste it into your mail), every line below as it is:\n\n"
            "# Lines starting with # are ignored. To give an order, copy an example line below orders:,\n"
            "# remove its # and fill it in. Sent back untouched, this form is a valid file of no orders.\n"
            "player: ann\nturn: 1\norders:\n#  - {sid: 1, guard: N}\n")
    page = text_html(text)
    assert ("To send orders, reply to this message with your order file attached (a .yaml file) or pasted into the body, "
            "starting with the line &#x27;player: ann&#x27;, as the order form at the end of the report shows. A message "
            "whose Subject is a command to the judge:\n  help  ") in page
    assert ">STANDINGS\n  Ann                 0 points" in page, "a heading and a table row stay lines of their own"
    assert "below orders:,\n# remove its #" in page and "\nplayer: ann\nturn: 1\norders:\n#  - {sid: 1, guard: N}" in page
    assert "=" * 10 not in page and page.count("<hr>") == 1
    assert page.count("<pre ") == 2

    campaign, pages = _welcome_html(tmp_path / "s", "secrets", "flow-1")
    for page in pages.values():  # a real welcome's HTML part: its first paragraph flows, its form stays
        assert "order file attached (a .yaml file) or pasted into the body" in page
        assert "\norders:\n" in page
