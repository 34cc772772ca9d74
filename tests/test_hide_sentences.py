"""H.I.D.E. read from the players' own sentences (design 17, HIDE-28): each phrasing a player writes for
each order kind of each step, read as the one canonical order it means; a sentence with two meanings or
a word that is no building answered with what it may be, never guessed."""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

import pytest
import yaml
from reliability_kit import NOW
from test_hide import _mission_state, _read
from test_ingest import mail, maildir

from adjudicator.campaign.create import create
from adjudicator.games.hide import GAME
from adjudicator.mail.ingest import ingest

SUB, SAT, BASE, PLANT = "submarine", "satellite", "army-base", "power-plant"


def _orders(stage: str, items: list) -> list:
    state = _mission_state(["anna", "ben", "chiara", "dev"])  # chiara's identity die: red army base
    state["stage"] = stage
    if stage != "mission":
        state["security"] = None
    return GAME.read_orders(GAME.view(state, "chiara"), "chiara", list(enumerate(items)))


@pytest.mark.parametrize("sentence, building", [
    ("I go for the submarine", SUB), ("target the sub", SUB), ("then satellite", SAT),
    ("hide me at the power plant", PLANT), ("or the sub if I cant", SUB), ("My target is the Army Base.", BASE),
    ("I'll target the sat please", SAT), ("second choice: the power plant", PLANT), ("I want the submarine", SUB),
    ("if it's secured, the satellite", SAT), ("raid the army base", BASE), ("target: satellite", SAT), ("sub", SUB),
])
def test_an_identity_sentence_names_its_target(sentence: str, building: str) -> None:
    [reading] = _orders("identity", [sentence])
    assert reading.order == {"target": building}, reading.void


@pytest.mark.parametrize("sentence, building", [
    ("secure the submarine", SUB), ("put the security card on the sub", SUB), ("security on the power plant", PLANT),
    ("I guard the satellite", SAT), ("security satellite", SAT),
])
def test_a_security_sentence_names_the_secured_building(sentence: str, building: str) -> None:
    [reading] = _orders("security", [sentence])
    assert reading.order == {"security": building}, reading.void


_GUESS_BEN = [{"player": "ben", "colour": "blue", "icon": SUB}]


@pytest.mark.parametrize("sentence, order", [
    ("I pick the red army base", {"pick": {"colour": "red", "icon": BASE}}),
    ("if gone, the blue submarine", {"pick": {"colour": "blue", "icon": SUB}}),
    ("then red army base", {"pick": {"colour": "red", "icon": BASE}}),
    ("I pick the blue submarine and guess anna red satellite",
     {"pick": {"colour": "blue", "icon": SUB}, "guess": [{"player": "anna", "colour": "red", "icon": SAT}]}),
    ("pick the red gun and turn it into a satellite and guess that ben is blue sub",
     {"pick": {"colour": "red", "icon": "gun"}, "gun": SAT, "guess": _GUESS_BEN}),
    ("I take the green gun and keep it", {"pick": {"colour": "green", "icon": "gun"}, "gun": "keep"}),
    ("grab the yellow gun as a sub", {"pick": {"colour": "yellow", "icon": "gun"}, "gun": SUB}),
    ("I'll take the red sat, guess Ben's die is blue sub",
     {"pick": {"colour": "red", "icon": SAT}, "guess": _GUESS_BEN}),
    ("use my gadget on the yellow gun to make it a satellite",
     {"gadget": {"die": {"colour": "yellow", "icon": "gun"}, "to": SAT}}),
    ("gadget: the blue army base and turn it into a sub",
     {"gadget": {"die": {"colour": "blue", "icon": BASE}, "to": SUB}}),
    ("if I'm the last man, I take the power plant", {"last_man": PLANT}),
    ("last man standing: the sub", {"last_man": SUB}),
    ("pick red gun as satellite guess ben blue submarine", {"pick": {"colour": "red", "icon": "gun"}, "gun": SAT,
                                                            "guess": _GUESS_BEN}),
])
def test_a_mission_sentence_is_the_order_it_means(sentence: str, order: dict) -> None:
    [reading] = _orders("mission", [sentence])
    assert reading.order == order, reading.void


@pytest.mark.parametrize("stage, sentence, reason", [
    ("identity", "I search the bank",
     "'bank' is not a building: your target may be army base, satellite, submarine or power plant"),
    ("identity", "the submarine or the satellite",
     "'the submarine or the satellite' names submarine and satellite: write one building per line, the one you "
     "want most first"),
    ("security", "secure the sub and the sat",
     "'secure the sub and the sat' names submarine and satellite: write one building per line, the one you "
     "want most first"),
    ("mission", "I pick the purple gun", "'purple' is not a die colour: the colours are red, blue, green and yellow"),
])
def test_a_sentence_with_no_building_or_two_is_answered_not_guessed(stage: str, sentence: str, reason: str) -> None:
    state = _mission_state(["anna", "ben", "chiara", "dev"])
    state["stage"], state["security"] = stage, None
    assert _read(state, "chiara", [sentence]) == [reason]


def _mailed_by_dev(tmp_path: Path, lines: str) -> tuple[Path, object]:
    """A four-agent campaign (no security step) and Dev's mail of `lines` with his password, ingested."""
    root = tmp_path / "spies"
    seats = [{"id": p, "name": p.title(), "email": f"{p}@example.org"} for p in ("anna", "ben", "chiara", "dev")]
    create(root, "hide", seats, seed="words", gm_email="GM <gm@example.org>", name="Spies")
    password = yaml.safe_load((root / "gm" / "passwords.yaml").read_text())["dev"]
    message = mail("Dev <dev@example.org>", f"{lines}password: {password}\n", subject="go", message_id="<h@x>")
    [entry] = ingest(root, [maildir(tmp_path, [message])], now=NOW).entries
    return root, entry


def _filed(root: Path) -> list:
    return yaml.safe_load((root / "turn-001" / "orders" / "dev.yaml").read_text())["orders"]


def test_a_mail_of_sentences_is_the_seats_targets(tmp_path: Path) -> None:
    """The trial's mail 'target the sub / then satellite' from the seat's address with its password: filed as
    the seat's identity orders."""
    root, entry = _mailed_by_dev(tmp_path, "Hi,\ntarget the sub\nthen satellite\n")
    assert entry.status == "filed", entry.reason
    assert _filed(root) == ["target the sub", "then satellite"]


def test_a_mail_line_meant_as_a_target_that_names_no_building_is_answered(tmp_path: Path) -> None:
    """The trial's 'I search the bank' / 'or the sub if I cant': the bank is answered as no building, with the
    buildings it may be, not left out as words that are no order; the sub stands; a greeting is left out."""
    root, entry = _mailed_by_dev(tmp_path, "Hi GM,\nI search the bank\nor the sub if I cant\n")
    assert entry.status == "filed", entry.reason
    assert _filed(root) == ["I search the bank", "or the sub if I cant"]
    [path] = sorted((root / "mail" / "outbox").rglob("*.eml"))
    ack = " ".join(email.message_from_bytes(path.read_bytes(), policy=email.policy.default).get_content().split())
    assert "'bank' is not a building: your target may be army base, satellite, submarine or power plant" in ack
    assert "Hi GM" not in ack.split("received from")[1], "a greeting is no order: not listed as one"
