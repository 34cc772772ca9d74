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
