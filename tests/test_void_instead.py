"""Every void or missing order is answered with what the rules put in its place (issue 25 item 1, design 17):
in the game's own terms, never only "this order does nothing", and an acknowledgement whose every order is
void says so in its first line."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

import pytest
from reliability_kit import NOW
from test_ingest import campaign, mail, maildir, order_text  # noqa: F401 - the fixture and the helpers

from adjudicator.campaign.create import create
from adjudicator.campaign.pipeline import Position, check_position
from adjudicator.games import get
from adjudicator.mail.ingest import ingest
from adjudicator.publish.render import Renderer

SEATS = [{"id": p, "name": p.capitalize()} for p in ("ann", "bob", "cyd", "dee")]


def _opening(tmp_path: Path, game_id: str, players: int = 4):  # noqa: ANN202
    root = tmp_path / game_id
    campaign = create(root, game_id, [dict(s) for s in SEATS[:players]], seed="instead")
    return get(game_id), campaign.state(0)


def _read(game, state, player: str, orders: list) -> object:  # noqa: ANN001
    return check_position(game, Position.of(game, state), {"player": player, "turn": 1, "orders": orders},
                          turn=1, expected_player=None, password_ok=None)


def _due(game, state) -> str:  # noqa: ANN001
    return game.due(state)[0]


@pytest.mark.parametrize(
    ("game_id", "players", "orders", "who", "words"),
    [
        ("secrets", 4, ["SID 99 guard 3"], "first", "none of your SIDs is placed"),
        ("secrets", 4, [{"sid": "x", "guard": 3}], "first", "none of your SIDs is placed"),
        ("hidekids", 4, ["hide: piano"], "kid", "caught at the growl, before the first lift"),
        ("hidekids", 4, [{"hide": ["bed", "tub"]}], "kid", "caught at the growl"),
        ("hidekids", 4, ["lift piano then bed"], "wolf", "lifts are drawn at random"),
        ("identity", 4, ["bid pink+9"], "first", "both bid cards are drawn at random"),
        ("identity", 4, [{"bid": 3}], "first", "both bid cards are drawn at random"),
        ("jekyll", 2, ["give purple99"], "first", "the rule gives your"),
        ("hide", 4, ["target: moon base"], "first", "becomes your target (HIDE-16)"),
        ("hide", 4, [{"target": 7}], "first", "becomes your target (HIDE-16)"),
    ],
)
def test_a_void_order_says_what_the_rules_put_in_its_place(tmp_path: Path, game_id: str, players: int, orders: list, who: str, words: str) -> None:
    game, state = _opening(tmp_path, game_id, players)
    if who == "kid":
        player = next(p for p in game.due(state) if p != state["wolf"])
    elif who == "wolf":
        player = state["wolf"]
    else:
        player = _due(game, state)
    sub = _read(game, state, player, orders)
    assert sub.status == "accepted" and sub.all_void, sub.problems
    [reading] = sub.readings
    assert words in reading.instead, reading.instead
    text = "\n".join(Renderer.for_campaign(game_id, tmp_path / game_id).readings(sub, "will do"))
    assert words in text and "will do nothing" not in text, text


def test_jekyll_potion_rule_is_not_followed_by_does_nothing(tmp_path: Path) -> None:
    from adjudicator.games.jekyll.reading import read_gifts

    view = {"hand": ["red2", "red3", "potion2", "potion3"], "players": ["a", "b"], "player": "a", "names": {"a": "A", "b": "B"}}
    [reading] = read_gifts(view, [(0, "red2")], 1, True)
    assert not reading.accepted and reading.void.endswith("is dropped"), reading.void
    assert "lowest potion, potion2" in reading.instead and "nothing" not in reading.instead


def test_an_empty_file_of_a_kid_says_it_is_caught(tmp_path: Path) -> None:
    game, state = _opening(tmp_path, "hidekids")
    kid = next(p for p in game.due(state) if p != state["wolf"])
    sub = _read(game, state, kid, [])
    assert "caught at the growl" in sub.instead


def test_an_acknowledgement_of_only_void_orders_says_so_first(campaign: Path, tmp_path: Path) -> None:  # noqa: F811
    text = order_text(campaign, "tony", ["SID 9 guard 1"])
    source = maildir(tmp_path, [mail("Tony <tony@example.org>", body=text, message_id="<v1@example.org>")])
    result = ingest(campaign, [source], now=NOW)
    assert [e.status for e in result.entries] == ["filed"]
    ack = email.message_from_bytes((campaign / "mail" / "outbox" / "turn-001" / "ack-00001.eml").read_bytes(), policy=email.policy.default)
    first = ack.get_content().splitlines()[0]
    assert "EVERY ORDER IS VOID" in first and "none of your SIDs is placed" in first, first
    assert "every one is VOID" in ack["Subject"]


def _jekyll_at_trick_one(tmp_path: Path) -> tuple[Path, list[str]]:
    """A Jekyll vs Hyde campaign whose pending turn (2) plays from trick 1 of round 1; Ann's hand."""
    from adjudicator.campaign.adjudicate import adjudicate
    from adjudicator.campaign.folder import Campaign

    root = tmp_path / "hyde"
    create(root, "jekyll", [{"id": "ann", "name": "Ann", "email": "ann@example.org"}, {"id": "bob", "name": "Bob", "email": "bob@example.org"}],
           seed="trial3", passwords=False, gm_email="GM <gm@example.org>")
    adjudicate(root, nmr=True)  # the exchange
    state = Campaign.open(root).state(1)
    assert state["phase"] == "trick" and state["trick"] == 1
    return root, list(state["hands"]["ann"])


def test_a_void_jekyll_trick_order_says_play_stops_there_and_the_later_tricks_wait(tmp_path: Path) -> None:
    """Trial 3: `trick 2: gren6, red5` got only "This order will do nothing; your other orders stand", and her
    trick 3 was then dropped unexplained. JEKYLL-20: a trick with no order stops the turn's play before it;
    the answer says so, in the acknowledgement and in the report, with "did you mean" for the slip."""
    from adjudicator.campaign.adjudicate import adjudicate

    root, hand = _jekyll_at_trick_one(tmp_path)
    colour = next(card for card in hand if not card.startswith("potion"))
    slip = colour[:2] + colour[3:]  # `green6` written `gren6`
    orders = [f"trick 1: {hand[-1]}", f"trick 2: {slip}, {hand[1]}", f"trick 3: {hand[2]}"]
    body = "player: ann\nturn: 2\norders:\n" + "".join(f'  - "{order}"\n' for order in orders)
    ingest(root, [maildir(tmp_path, [mail("Ann <ann@example.org>", body=body, message_id="<h2@example.org>")])], now=NOW)
    ack = email.message_from_bytes((root / "mail" / "outbox" / "turn-002" / "ack-00001.eml").read_bytes(), policy=email.policy.default)
    text = " ".join(ack.get_body(("plain",)).get_content().split())
    instead = ("With no order standing for trick 2, this turn's play stops before it (JEKYLL-20): trick 2 waits for your orders "
               "of the next turn; your orders for trick 3 are not used this turn (send them again then).")
    assert f"'{slip}' is not a card" in text and f"did you mean {colour}?" in text, text
    assert instead in text and "nothing" not in text, text
    adjudicate(root, nmr=True)
    report = " ".join((root / "turn-002" / "reports" / "ann.txt").read_text().split())
    assert instead in report and f"did you mean {colour}?" in report, report


def test_an_identity_card_one_slip_from_a_held_card_is_named_but_not_guessed(tmp_path: Path) -> None:
    game, state = _opening(tmp_path, "identity", 4)
    player = _due(game, state)
    held = next(card for card in state["hands"][player] if card[-2] in "+-" and card[2] != card[3])
    slip = held[:2] + held[3] + held[2] + held[4:]  # `purple+4` written `puprle+4`
    sub = _read(game, state, player, [f"bid {slip} {state['hands'][player][-1]}"])
    [reading] = sub.readings
    assert not reading.accepted and f"did you mean {held}?" in reading.void, reading.void


@pytest.mark.parametrize(("game_id", "players"), [("jekyll", 2), ("hide", 4)])
def test_a_file_of_no_orders_is_not_told_its_other_orders_stand(tmp_path: Path, game_id: str, players: int) -> None:
    """An outside trial's `orders: []` was answered "...; your other orders stand" when there were none."""
    game, state = _opening(tmp_path, game_id, players)
    if game_id == "hide":
        state = dict(state, stage="mission", mission_turn=1, pool=[{"colour": "red", "icon": "gun"}])
    player = _due(game, state)
    empty = _read(game, state, player, [])
    assert empty.instead and "other orders stand" not in empty.instead, empty.instead


def test_a_void_hide_order_beside_one_that_stands_says_which_plays_not_that_it_does_nothing(tmp_path: Path) -> None:
    """Design 17 for H.I.D.E.: 'then satelite' after a target that stands, a gadget misspelt after a pick that
    stands: each void one says what plays in its place, never "This order will do nothing"."""
    game, state = _opening(tmp_path, "hide", 4)
    player = _due(game, state)
    sub = _read(game, state, player, ["target the sub", "then satelite"])
    text = "\n".join(Renderer.for_campaign("hide", tmp_path / "hide").readings(sub, "will do"))
    assert "In its place nothing changes: your target stays the submarine, as your order 1 says." in text and "will do nothing" not in text, text
    mission = dict(state, stage="mission", mission_turn=1, pool=[{"colour": "red", "icon": "gun"}, {"colour": "blue", "icon": "satellite"}])
    sub = _read(game, mission, _due(game, mission), ["pick blue satellite", "gadget red gun to satelite"])
    text = "\n".join(Renderer.for_campaign("hide", tmp_path / "hide").readings(sub, "will do"))
    assert "In its place nothing is done: your pick is played as your order 1 says; your other orders stand." in text, text
    assert "will do nothing" not in text
