"""Identity's and Jekyll vs Hyde's mail of plain sentences, as an outside trial's phone players wrote it (design 17):
a mail none of whose lines reads is answered line by line (NOT filed, why, what replaces it, how to write it, the
deadline), and a `check` of the same text reads it as filing would, never calling a file of void orders accepted."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

import pytest
import yaml
from judgekit import WEEKLY
from reliability_kit import NOW
from test_ingest import mail, maildir

from adjudicator.campaign.create import create
from adjudicator.mail.ingest import ingest

QUOTE = "\n\nSent from my iPhone\n\nOn Tue, 1 Dec 2026, GM wrote:\n> Welcome to the game.\n> Your hand is below.\n"
"""A phone's reply: the player's lines above, its signature, and the judge's mail quoted without its form."""


def _campaign(tmp_path: Path, game: str) -> Path:
    root = tmp_path / game
    count = 3 if game == "identity" else 2
    seats = [{"id": p, "name": p.title(), "email": f"{p}@example.org"} for p in ("ann", "bob", "cat")[:count]]
    create(root, game, seats, seed="words", gm_email="GM <gm@example.org>", name="Trial")
    settings = root / "campaign.yaml"
    config = yaml.safe_load(settings.read_text(encoding="utf-8"))
    config["schedule"] = dict(WEEKLY)
    settings.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return root


def _send(root: Path, tmp_path: Path, lines: str, subject: str = "Re: [Trial] welcome, Ann") -> tuple[object, email.message.EmailMessage]:
    password = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())["ann"]
    message = mail("Ann <ann@example.org>", f"{lines}\npassword: {password}{QUOTE}", subject=subject, message_id="<t@phone>")
    [entry] = ingest(root, [maildir(tmp_path, [message])], now=NOW).entries
    [path] = sorted((root / "mail" / "outbox").rglob("*.eml"))
    return entry, email.message_from_bytes(path.read_bytes(), policy=email.policy.default)


TRIAL_BIDS = "bid purple 4 and green two\nBid the 4 and the -2\nOops. bid green+4 orange+4\nSorry, I was away! bid purple three blue 9"
"""The trial's Identity lines (ann holds orange+4 and blue+4, purple+3; no green in a three-player deal)."""


def test_an_identity_mail_of_sentences_none_of_which_reads_is_answered_line_by_line(tmp_path: Path) -> None:
    root = _campaign(tmp_path, "identity")
    entry, reply = _send(root, tmp_path, TRIAL_BIDS)
    assert entry.status == "rejected" and not (root / "turn-001" / "orders" / "ann.yaml").exists()
    text = " ".join(reply.get_content().split())
    assert reply["Subject"].endswith("your message was not filed"), reply["Subject"]
    assert "NOT filed as orders" in text and "neither orders nor a command" not in text
    assert "1. bid purple 4 and green two -> VOID: 'green 2': green is not in this game: its colours are orange, purple and blue" in text
    assert "'4' names no colour: of that number you hold orange+4 and blue+4; write the one you mean, e.g. orange+4" in text
    assert "3. bid green+4 orange+4 -> VOID" in text and "Oops" not in text and "Sorry" not in text  # the chatter before an order
    assert "'blue 9' is not a card: blue cards are -3, -2, -1, +1, +2, +3, +4" in text
    assert text.count("In its place both bid cards are drawn at random from the rest of your hand (IDENTITY-4)") >= 4
    assert "Deadline for turn 1: Tuesday 8 December 2026, 20:00 CET" in text and "iPhone" not in text
    assert "Lines the judge reads for your seat now, for example: bid orange-3 blue+4 I bid +1 with orange-3 and blue+4" in text  # how to write them


def test_one_line_that_reads_files_the_mail_and_answers_the_other(tmp_path: Path) -> None:
    root = _campaign(tmp_path, "identity")
    entry, reply = _send(root, tmp_path, "bid purple three and blue four\nbid green two")
    assert entry.status == "filed", entry.reason
    text = " ".join(reply.get_content().split())
    assert "bid cards purple+3 and blue+4: your bid is purple+3 + blue+4 = +7 wins" in text
    assert "2. bid green two -> VOID: 'green 2': green is not in this game" in text


def test_a_check_of_the_same_lines_reads_them_as_filing_does(tmp_path: Path) -> None:
    root = _campaign(tmp_path, "identity")
    entry, reply = _send(root, tmp_path, TRIAL_BIDS, subject="check")
    assert entry.status == "answered" and not (root / "turn-001" / "orders" / "ann.yaml").exists()
    text = " ".join(reply.get_content().split())
    assert "accepted" not in text and "without the word check." not in text, text
    assert "no line stands as an order (each is answered below with why), so sent without the word check they would NOT be filed" in text
    assert "green is not in this game" in text and "In its place both bid cards are drawn at random" in text


def test_a_check_of_a_form_whose_every_order_is_void_is_not_called_accepted(tmp_path: Path) -> None:
    root = _campaign(tmp_path, "identity")
    password = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())["ann"]
    form = f'check\nplayer: ann\nturn: 1\npassword: "{password}"\norders:\n  - bid green+4 orange+4\n'
    [entry] = ingest(root, [maildir(tmp_path, [mail("ann@example.org", form, subject="check", message_id="<f@x>")])], now=NOW).entries
    [path] = sorted((root / "mail" / "outbox").rglob("*.eml"))
    text = " ".join(email.message_from_bytes(path.read_bytes(), policy=email.policy.default).get_content().split())
    assert entry.status == "answered"
    assert "for turn 1: read, but every order in it is void." in text and "accepted" not in text, text
    assert "Fix the void orders and check again, or, to file it as it is, send it again without the word check." in text


@pytest.mark.parametrize("lines", ["bid purple 4 and green two", "the weather is nice"])
def test_the_all_void_answer_needs_a_registered_seat(tmp_path: Path, lines: str) -> None:
    # A stranger's sentences are no seat's orders: no reply at all, as before.
    root = _campaign(tmp_path, "identity")
    message = mail("someone@else.example", f"{lines}\n", subject="hi", message_id="<s@x>")
    [entry] = ingest(root, [maildir(tmp_path, [message])], now=NOW).entries
    assert entry.status == "rejected" and not list((root / "mail" / "outbox").rglob("*.eml"))


def test_a_jekyll_exchange_mail_files_the_gift_and_answers_the_trick_line_beside_it(tmp_path: Path) -> None:
    # The trial's Greed-exchange mail had its trick line voided and the whole mail refused (ann holds red3).
    root = _campaign(tmp_path, "jekyll")
    entry, reply = _send(root, tmp_path, "give red three\ntrick 2: purple4")
    assert entry.status == "filed", entry.reason
    text = " ".join(reply.get_content().split())
    assert reply["Subject"].endswith("1 of 2 orders VOID"), reply["Subject"]
    assert "give red3 to Bob (card 1 of 1)" in text
    assert "2. trick 2: purple4 -> VOID: this turn is the exchange before the round's tricks, so no trick is played in it" in text


@pytest.mark.parametrize("game", ["identity", "jekyll"])
def test_help_guide_and_welcome_give_the_sentences_the_judge_reads(tmp_path: Path, game: str) -> None:
    # The trial's Identity players saw only 'ONE ORDER' in the help: each now gets sentences legal for their seat now,
    # and each reads as an order of the pending phase with nothing void.
    from adjudicator.campaign.pipeline import Position, read_view_orders
    from adjudicator.campaign.folder import Campaign
    from adjudicator.games import get
    from adjudicator.judge.letters import welcome_messages

    root = _campaign(tmp_path, game)
    rules = get(game)
    state = Campaign.open(root).state(0)
    examples = rules.form_examples(rules.view(state, "ann"), "ann")
    assert examples, game
    for example in examples:  # each a way to write this turn's orders, read on its own
        readings = read_view_orders(rules, rules.phase(state), Position.of(rules, state).view_of("ann"), "ann", [example])
        assert all(r.accepted for r in readings), [(r.written, r.void) for r in readings]
    password = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())["ann"]
    asked = [mail("ann@example.org", f"{word}\npassword: {password}\n", subject=word, message_id=f"<{word}@x>") for word in ("help", "guide")]
    ingest(root, [maildir(tmp_path, asked)], now=NOW)
    replies = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default).get_content()
               for p in sorted((root / "mail" / "outbox").rglob("*.eml"))]
    files, _ = welcome_messages(Campaign.open(root), mail_passwords=False)
    welcome = next(email.message_from_bytes(data, policy=email.policy.default) for name, data in files.items() if "ann" in name)
    for text in [*replies, welcome.get_body(("plain",)).get_content()]:
        assert "Plain sentences from your seat's address, one order to a line with your password: line, are your orders" in text, text
        assert all(f"  {example}\n" in text for example in examples), text


@pytest.mark.parametrize("game", ["identity", "jekyll"])
def test_every_sentence_shown_reads_as_an_order_in_every_turn_of_the_example_campaign(game: str) -> None:
    # Bids, tricks, exchanges and Greed steps alike: a sentence the judge shows a player must read as it is.
    from adjudicator.campaign.pipeline import read_view_orders
    from adjudicator.common import yamlsafe
    from adjudicator.games import get

    rules, seen = get(game), set()
    for path in sorted((Path(__file__).parent.parent / "turns" / f"{game}-example").glob("turn-*/state.json")):
        state = yamlsafe.load(path.read_bytes())
        for player in rules.due(state):
            view = rules.view(state, player)
            for example in rules.form_examples(view, player):
                readings = read_view_orders(rules, rules.phase(state), view, player, [example])
                assert readings and all(r.accepted for r in readings), (path.parent.name, player, example, [r.void for r in readings])
                seen.add(rules.phase(state))
    assert len(seen) >= 2, seen



@pytest.mark.parametrize("greeting, order", [("Hi", "bid purple three and blue four"), ("Thanks", "bid purple 3 blue 4")])
def test_an_order_after_a_greeting_and_a_comma_is_filed_and_a_signature_so_set_off_is_not_an_order(
    tmp_path: Path, greeting: str, order: str
) -> None:
    """"Thanks, bid purple 3 blue 4" is as short as "Thanks, all": it was taken for a greeting and the order lost
    without a word; a longer one was answered VOID, as no game reads an order that starts "Hi,"."""
    root = _campaign(tmp_path, "identity")
    entry, reply = _send(root, tmp_path, f"{greeting}, {order}\nCheers, Ann")
    assert entry.status == "filed", entry.reason
    text = " ".join(reply.get_content().split())
    assert "bid cards purple+3 and blue+4: your bid is purple+3 + blue+4 = +7 wins" in text
    assert "Cheers" not in text and f"{greeting}," not in text and "VOID" not in text
    filed = yaml.safe_load((root / "turn-001" / "orders" / "ann.yaml").read_text(encoding="utf-8"))
    assert filed["orders"] == [order]
