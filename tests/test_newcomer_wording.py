"""Wrong or unhelpful words a newcomer met (issue 25 items 10 and 12): each said as the game and the player see it."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.games.identity.cards import read_card
from adjudicator.games.identity.reading import parse_bid
from adjudicator.games.jekyll.cards import parse_card
from adjudicator.games.base import VoidOrder

FOUR_COLOURS = ["orange", "purple", "blue", "green"]


def test_a_short_colour_is_read_among_the_decks_colours() -> None:
    assert read_card("b+2", FOUR_COLOURS) == "blue+2"
    with pytest.raises(VoidOrder, match="could be blue or black"):
        read_card("b+2", [*FOUR_COLOURS, "pink", "black"])


def test_no_potion_that_does_not_exist_is_suggested() -> None:
    with pytest.raises(VoidOrder) as one:
        parse_card(1)
    assert "1+" not in one.value.words and "purple1" in one.value.words
    with pytest.raises(VoidOrder) as three:
        parse_card(3)
    assert "3+" in three.value.words


@pytest.mark.parametrize("written", ["I bid +3 with blue -1 and green +4", "my bid is +3: blue-1, green+4", "I bid blue -1 and green +4."])
def test_a_bid_in_a_sentence_is_read(written: str) -> None:
    assert parse_bid(written, FOUR_COLOURS) == ["blue-1", "green+4"]


def test_a_bid_sentence_whose_total_is_not_its_cards_has_two_readings() -> None:
    with pytest.raises(VoidOrder) as void:
        parse_bid("I bid +5 with blue -1 and green +4", FOUR_COLOURS)
    assert void.value.code == "two_readings" and "+5" in void.value.words and "+3" in void.value.words


def test_your_own_sids_and_one_point_in_your_own_report() -> None:
    report = (Path(__file__).resolve().parent.parent / "turns" / "secrets-example").glob("turn-*/reports/*.txt")
    text = "\n".join(p.read_text(encoding="utf-8") for p in report)
    assert " 1 points" not in text and "STOLEN, 1 point to" in text
    for path in (Path(__file__).resolve().parent.parent / "turns" / "secrets-example").glob("turn-*/reports/tony.txt"):
        assert "- Tony's SID" not in path.read_text(encoding="utf-8")


def test_players_are_told_how_to_check_and_rules_docs_do_not_hand_them_the_gms_command() -> None:
    """Issue 25 item 7: docs/players.md names the view file and `pbem check --view`; the rules docs no longer
    tell players to run `pbem check FILE --campaign DIR`, which needs the GM's campaign folder."""
    docs = Path(__file__).resolve().parent.parent / "docs"
    guide = (docs / "players.md").read_text(encoding="utf-8")
    assert "view file" in guide and "pbem check tony.yaml --view" in guide
    for rules in (docs / "rules").glob("*.md"):
        for line in rules.read_text(encoding="utf-8").splitlines():
            assert not (line.startswith("`pbem check") and "--campaign DIR`" in line), f"{rules.name}: {line}"


def test_every_order_form_says_how_to_use_its_commented_examples() -> None:
    form = Path(__file__).resolve().parent.parent / "templates" / "common" / "_orders.txt.j2"
    assert "remove its # and fill it in" in form.read_text(encoding="utf-8")


def test_comma_text_where_a_list_is_asked_is_read_when_every_item_is_valid(tmp_path: Path) -> None:
    """Issue 25 item 9: `lift: bed, stove` is the list [bed, stove]; a text with an item that is not
    valid stays void, with the schema's words, rather than half read."""
    from adjudicator.campaign import pending
    from adjudicator.campaign.create import create
    from adjudicator.campaign.folder import Campaign

    root = tmp_path / "kids"
    create(root, "hidekids", [{"id": "wolf", "name": "Wolf"}, {"id": "kid", "name": "Kid"}], seed="comma", passwords=False)
    turn = pending.read(Campaign.open(root))
    read = turn.check_document({"player": "wolf", "turn": 1, "orders": [{"lift": "bed, stove"}]}, player="wolf", source="wolf.yaml")
    assert read.status == "accepted" and not read.void, read.readings
    assert read.readings[0].order is not None and "bed" in str(read.readings[0].order) and "stove" in str(read.readings[0].order)
    wrong = turn.check_document({"player": "wolf", "turn": 1, "orders": [{"lift": "bed, spaceship"}]}, player="wolf", source="wolf.yaml")
    assert wrong.void and wrong.void[0].void
