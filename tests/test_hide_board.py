"""H.I.D.E.'s board says what the game and the player's report say, and only what it draws (an outside trial)."""

from __future__ import annotations

import html
import re
from pathlib import Path

from adjudicator.campaign.demo import play
from adjudicator.publish.pictures import painter


def _texts(svg: str) -> str:
    """A board's texts in the order drawn, one space between (a text set on two lines reads as one)."""
    return " ".join(html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg))


def test_a_hide_players_board_counts_their_face_down_intel_as_their_report_does(tmp_path: Path) -> None:
    """Trial: the board said `intel 4` where the report said `Face-down intel: 4, 1 rank card (worth 5)` (rank
    cards taken in an assassination count as intel, HIDE-6): both read the view's stack and its worth."""
    campaign = play(tmp_path / "h", "hide", seed="site-1", players=5, passwords=False)
    compared = []
    for turn in range(1, campaign.last_turn + 1):
        state = campaign.state(turn)
        for player in state["players"]:
            report = (campaign.turn_dir(turn) / "reports" / f"{player}.txt").read_text()
            said = re.search(r"Face-down intel: +(.*)", report)
            if said:
                for narrow in (False, True):
                    drawn = _texts(painter("hide").board(campaign.game.view(state, player), "b", narrow=narrow).svg())
                    assert f"face-down intel: {said[1]}" in drawn, f"turn {turn}, {player}: the report says {said[1]!r}"
                compared.append(said[1])
    assert any("rank card" in said for said in compared), "the demo has a stack with a rank card taken in an assassination"


def test_hide_says_only_what_its_board_shows(tmp_path: Path) -> None:
    """Trial: with four players (no security card, every die shown) the caption said "security card on one" and
    the legend listed the security card and a die not shown; the alt text said "army-base" where the game says
    "army base"."""
    seen = set()
    for players in (3, 4):
        campaign = play(tmp_path / f"h{players}", "hide", seed="words", players=players, passwords=False)
        for turn in range(campaign.last_turn + 1):
            state = campaign.state(turn)
            for player in (None, state["players"][0]):
                view = campaign.game.view(state, player)
                drawn = painter("hide").board(view, "b").svg()
                desc = drawn.split("<desc", 1)[1].split("</desc>", 1)[0]
                assert "army-base" not in desc and "power-plant" not in desc, desc
                secured = bool(view["security"])
                assert ("security card on one" in drawn) == secured and (">the security card<" in drawn) == secured
                dice = [*view["pool"], *(d for s in view["screens"].values() for d in (*s["top"], *s["front"]))]
                hidden = any(not d for d in dice)
                assert (">a die not shown<" in drawn) == hidden, f"turn {turn}: a die not shown is {hidden}"
                seen.add((players, secured))
    assert (3, True) in seen and (4, False) in seen, seen


def test_every_hide_die_has_its_colour_written_on_it(tmp_path: Path) -> None:
    """Dice were told apart by their fill alone: red and green look alike to many colour-blind players."""
    campaign = play(tmp_path / "h", "hide", seed="words", players=3, passwords=False)
    state = campaign.state(campaign.last_turn // 2)
    for narrow in (False, True):
        drawn = painter("hide").board(campaign.game.view(state, state["players"][0]), "b", narrow=narrow).svg()
        dice = {colour: drawn.count(f'class="c-{colour}"><title>') for colour in ("red", "blue", "green", "yellow")}  # not the legend's mark
        assert sum(dice.values()) > 3, dice
        for colour, count in dice.items():
            assert count == len(re.findall(rf'class="on-colour small"[^>]*>{colour}</text>', drawn)), f"{count} {colour} dice"
