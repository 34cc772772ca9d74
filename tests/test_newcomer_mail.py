"""Newcomers' first order mails, read as a fair GM would read them (issue 25, design 17).

Each mail is read on both routes that must agree: the mail path (the order form found in the body,
then checked as ingest checks it) and `pbem check FILE --view VIEWFILE` on the same text saved as a
file. Each case says what a fair GM would take it to mean: the orders' meanings, all accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.campaign.demo import play
from adjudicator.campaign.pipeline import Position, check_position
from adjudicator.campaign.viewfile import for_report
from adjudicator.cli import main
from adjudicator.common import ordertext
from adjudicator.mail.inbox import orders_in_text


@pytest.fixture(scope="module")
def campaigns(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    return {g: play(tmp_path_factory.mktemp(g) / "c", g, "corpus-1", None, False) for g in ("secrets", "hidekids", "identity", "jekyll", "hide")}


def _seat(campaign: object, game_id: str) -> tuple[str, dict[str, str]]:
    state = campaign.state(0)  # type: ignore[attr-defined]
    players = state["players"]
    if game_id == "secrets":
        me, other = players[0], players[1]
        view = campaign.game.view(state, me)  # type: ignore[attr-defined]
        sid = view["sids"][me][0]
        return me, {"me": me, "Me": state["names"][me], "other": other, "Other": state["names"][other], "sid": str(sid)}
    if game_id in ("identity", "jekyll", "hide"):
        me = campaign.game.due(state)[0]  # type: ignore[attr-defined]
        view = campaign.game.view(state, me)  # type: ignore[attr-defined]
        words = {"me": me, "Me": state["names"][me]}
        if game_id == "identity":  # two cards of the hand, and what they add up to
            a, b = view["hand"][0], view["hand"][-1]
            total = sum(int(c.replace("black", "").lstrip("abcdefghijklmnopqrstuvwxyz")) for c in (a, b))
            words.update(a=a, b=b, A=a.replace("+", " +").replace("-", " -").title(), total=f"{total:+d}")
        elif game_id == "jekyll":  # the card given: a potion (the potion rule binds with two of them)
            potion = next(c for c in view["hand"] if c.startswith("potion"))
            words.update(potion=potion, n=potion.removeprefix("potion"))
        return me, words
    kid = next(p for p in players if p != state["wolf"])
    return kid, {"me": kid, "Me": state["names"][kid], "wolf": state["wolf"], "Wolf": state["names"][state["wolf"]]}


SECRETS = [
    ("typographic quotes", "player: {me}\nturn: 1\norders:\n  - \u201cSID {sid} steal {other} 10\u201d\n", "steal"),
    ("en dash list marker", "player: {me}\nturn: 1\norders:\n\u2013 SID {sid} steal {other} 10\n", "steal"),
    ("bullet list marker", "player: {me}\nturn: 1\norders:\n  \u2022 SID {sid} guard secret 3\n", "guard"),
    ("star list marker", "player: {me}\nturn: 1\norders:\n* SID {sid} guard secret 3\n", "guard"),
    ("nbsp indentation", "player: {me}\nturn: 1\norders:\n\u00a0\u00a0- SID {sid} guard 3\n", "guard"),
    ("tab indentation", "player: {me}\nturn: 1\norders:\n\t- SID {sid} guard 3\n", "guard"),
    ("keys in capitals", "Player: {me}\nTURN: 1\nORDERS:\n  - SID {sid} guard 3\n", "guard"),
    ("display name for the id", "player: {Me}\nturn: 1\norders:\n  - SID {sid} guard 3\n", "guard"),
    ("id in capitals", "player: {ME}\nturn: 1\norders:\n  - SID {sid} guard 3\n", "guard"),
    ("shorthand taken for a key", "player: {me}\nturn: 1\norders:\n  - SID {sid}: steal {other} 10\n", "steal"),
    ("natural sentence", "player: {me}\nturn: 1\norders:\n  - SID {sid} steals {Other}'s secret 10\n", "steal"),
    ("comma text for sid", "player: {me}\nturn: 1\norders:\n  - {{sid: \"{sid}\", guard: 3}}\n", None),
    ("signature and greeting", "Hi GM!\n\nplayer: {me}\nturn: 1\norders:\n  - SID {sid} guard 3\n\n-- \n{Me}\nSent from my phone\n", "guard"),
    ("code fence", "Here you go:\n```yaml\nplayer: {me}\nturn: 1\norders:\n  - SID {sid} guard 3\n```\nthanks\n", "guard"),
    ("bottom-posted below a quoted report", "On Mon, GM wrote:\n> player: {me}\n> orders:\n\nplayer: {me}\nturn: 1\norders:\n  - SID {sid} guard 3\n", "guard"),
]

HIDEKIDS = [
    ("hide me under the bed", "player: {me}\nturn: 1\norders:\n  - hide me under the bed\n", "bed"),
    ("typographic quotes", "player: {me}\nturn: 1\norders:\n  - hide: \u201cbed\u201d\n", "bed"),
    ("capital key in the order", "player: {me}\nturn: 1\norders:\n  - Hide: stove\n", "stove"),
    ("bullet", "player: {me}\nturn: 1\norders:\n\u2022 stove\n", "stove"),
    ("display name", "player: {Me}\nturn: 1\norders:\n  - bed\n", "bed"),
    ("tabs", "player: {me}\nturn: 1\norders:\n\t- hide: bed\n", "bed"),
    ("untouched form", "player: {me}\nturn: 1\norders:\n#  - hide: FURNITURE\n", ""),
    ("hide in the bathtub", "player: {me}\nturn: 1\norders:\n  - I hide in the bathtub\n", "tub"),
    ("keys in capitals", "PLAYER: {me}\nTurn: 1\nOrders:\n  - hide: clock\n", "clock"),
    ("signature", "player: {me}\nturn: 1\norders:\n  - under the bed\n--\n{Me}\n", "bed"),
]


IDENTITY = [
    ("canonical bid", "player: {me}\nturn: 1\norders:\n  - bid: [{a}, {b}]\n", "your bid is"),
    ("bid in a sentence", "player: {me}\nturn: 1\norders:\n  - I bid {total} with {A} and {b}\n", "your bid is"),
    ("typographic quotes around the cards", "player: {me}\nturn: 1\norders:\n  - bid: [\u201c{a}\u201d, \u201c{b}\u201d]\n", "your bid is"),
    ("comma text where a list is asked", "player: {me}\nturn: 1\norders:\n  - bid: {a}, {b}\n", "your bid is"),
    ("two bullets of one card", "player: {me}\nturn: 1\norders:\n\u2022 {a}\n\u2022 {b}\n", "bid card"),
    ("keys in capitals and the display name", "Player: {Me}\nTurn: 1\nOrders:\n  - bid {a} {b}\n", "your bid is"),
    ("colon after bid", "player: {me}\nturn: 1\norders:\n  - \"bid: {a}, {b}\"\n", "your bid is"),
    ("tabs and a signature", "player: {me}\nturn: 1\norders:\n\t- bid {a} and {b}\n\n-- \n{Me}\n", "your bid is"),
    ("code fence", "My bid:\n```\nplayer: {me}\nturn: 1\norders:\n  - bid {a} {b}\n```\n", "your bid is"),
    ("bottom-posted", "On Mon, GM wrote:\n> YOUR HAND\n> orders:\n\nplayer: {me}\nturn: 1\norders:\n  - bid {a} {b}\n", "your bid is"),
    ("untouched form", "player: {me}\nturn: 1\norders:\n#  - bid: [CARD, CARD]\n", ""),
]

JEKYLL = [
    ("canonical give", "player: {me}\nturn: 1\norders:\n  - give: {potion}\n", "give " + "{potion}"),
    ("give in words", "player: {me}\nturn: 1\norders:\n  - give {potion}\n", "give {potion}"),
    ("potion as n+", "player: {me}\nturn: 1\norders:\n  - \"{n}+\"\n", "give {potion}"),
    ("potion with a space", "player: {me}\nturn: 1\norders:\n  - give potion {n}\n", "give {potion}"),
    ("typographic quotes", "player: {me}\nturn: 1\norders:\n  - \u201c{potion}\u201d\n", "give {potion}"),
    ("capital key in the order", "player: {me}\nturn: 1\norders:\n  - Give: {potion}\n", "give {potion}"),
    ("en dash marker", "player: {me}\nturn: 1\norders:\n\u2013 give {potion}\n", "give {potion}"),
    ("display name and capitals", "PLAYER: {Me}\nTURN: 1\nORDERS:\n  - {potion}\n", "give {potion}"),
    ("nbsp indentation", "player: {me}\nturn: 1\norders:\n\u00a0\u00a0- give {potion}\n", "give {potion}"),
    ("greeting and signature", "Hello,\n\nplayer: {me}\nturn: 1\norders:\n  - give {potion}\n\nCheers\n-- \n{Me}\n", "give {potion}"),
    ("untouched form", "player: {me}\nturn: 1\norders:\n#  - give: CARD\n", ""),
]

HIDE = [
    ("canonical target", "player: {me}\nturn: 1\norders:\n  - target: satellite\n", "satellite: your target"),
    ("building alone", "player: {me}\nturn: 1\norders:\n  - satellite\n", "satellite: your target"),
    ("short form", "player: {me}\nturn: 1\norders:\n  - target sat\n", "satellite: your target"),
    ("capitals", "player: {me}\nturn: 1\norders:\n  - Target: Army Base\n", "army base: your target"),
    ("typographic quotes", "player: {me}\nturn: 1\norders:\n  - \u201csubmarine\u201d\n", "submarine: your target"),
    ("bullet", "player: {me}\nturn: 1\norders:\n\u2022 power plant\n", "power plant: your target"),
    ("keys in capitals and display name", "Player: {Me}\nOrders:\n  - target: sub\nTurn: 1\n", "submarine: your target"),
    ("tab indentation", "player: {me}\nturn: 1\norders:\n\t- target: plant\n", "power plant: your target"),
    ("signature", "player: {me}\nturn: 1\norders:\n  - satellite\n--\n{Me}\nSent from my phone\n", "satellite: your target"),
    ("target with a colon inside the text", "player: {me}\nturn: 1\norders:\n  - \"target: satellite\"\n", "satellite: your target"),
    ("untouched form", "player: {me}\nturn: 1\norders:\n#  - target: BUILDING\n", ""),
]


def _cases() -> list[tuple[str, str, str, str | None]]:
    return ([("secrets", *c) for c in SECRETS] + [("hidekids", *c) for c in HIDEKIDS] + [("identity", *c) for c in IDENTITY]
            + [("jekyll", *c) for c in JEKYLL] + [("hide", *c) for c in HIDE])


@pytest.mark.parametrize(("game_id", "what", "template", "meaning"), _cases(), ids=[f"{c[0]}-{c[1]}" for c in _cases()])
def test_a_newcomer_mail_is_read_as_meant_on_both_routes(
    campaigns: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str], game_id: str, what: str, template: str, meaning: str | None
) -> None:
    campaign = campaigns[game_id]
    player, words = _seat(campaign, game_id)
    text = template.format(ME=player.upper(), **words)
    state = campaign.state(0)  # type: ignore[attr-defined]
    game = campaign.game  # type: ignore[attr-defined]
    found = orders_in_text(text)
    sub = check_position(game, Position.of(game, state), ordertext.load(found.data), turn=1, expected_player=None, password_ok=None)
    if meaning is None:  # a form with a wrong-typed field stays void with its reason, never guessed
        assert sub.status == "accepted" and sub.void, what
        return
    assert sub.status == "accepted", f"{what}: {sub.problems}"
    assert not sub.void, f"{what}: {[r.void for r in sub.void]}"
    meaning = meaning.format(**words)
    assert all(meaning in r.meaning for r in sub.readings), [r.meaning for r in sub.readings]
    view = tmp_path / f"{player}.view.json"
    view.write_bytes(for_report(campaign, 0, player) or b"")
    order = tmp_path / f"{player}.yaml"
    order.write_text(text, encoding="utf-8")
    code = main(["check", str(order), "--view", str(view)])
    out = capsys.readouterr().out
    assert code == 0, f"{what}:\n{out}"
    for reading in sub.readings:
        assert reading.meaning in out


def test_check_refuses_the_password_placeholder_as_mail_does(campaigns: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    campaign = campaigns["secrets"]
    player, words = _seat(campaign, "secrets")
    view = tmp_path / "v.view.json"
    view.write_bytes(for_report(campaign, 0, player) or b"")
    order = tmp_path / f"{player}.yaml"
    order.write_text(f'player: {player}\nturn: 1\npassword: "your password"\norders: []\n', encoding="utf-8")
    assert main(["check", str(order), "--view", str(view)]) == 1
    assert "placeholder" in capsys.readouterr().out


def test_an_old_view_file_is_named_as_such(campaigns: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    campaign = campaigns["secrets"]
    player, _ = _seat(campaign, "secrets")
    view = tmp_path / "v.view.json"
    view.write_bytes(for_report(campaign, 0, player) or b"")
    order = tmp_path / f"{player}.yaml"
    order.write_text(f"player: {player}\nturn: 2\norders: []\n", encoding="utf-8")
    assert main(["check", str(order), "--view", str(view)]) == 1
    assert "your view file v.view.json is from turn 1" in capsys.readouterr().out


@pytest.mark.parametrize("written", ["I lift the bed first and then the stove", "lift the bed, then the stove.", "I'll lift bed then stove"])
def test_the_wolf_lifting_in_a_sentence_is_read(written: str) -> None:
    """Issue 25 item 10: "the wolf does not hide" was said to a wolf who wrote a lift sentence."""
    from adjudicator.games.hidekids.reading import read_orders

    view = {"wolf": "wolf"}
    [reading] = read_orders(view, "wolf", [(0, written)])
    assert reading.accepted and reading.order == {"lift": ["bed", "stove"]}, reading.void
