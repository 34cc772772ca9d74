"""Every example an order form suggests is legal for its player at that moment (issue 16 item 10):
each is checked with `pbem check FILE --view VIEWFILE` against the view file of the same report,
for every report of a demo campaign of every game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from adjudicator.campaign.demo import play
from adjudicator.campaign.viewfile import for_report
from adjudicator.cli import main
from adjudicator.common import yamlsafe
from adjudicator.games import GAMES

PLACEHOLDER = re.compile(r"\b(PLAYER|N|CARD|FIRST|SECOND|FURNITURE)\b|\.\.\.")
"""Words a form's template lines hold where the player fills in their own choice: not examples."""


def examples(report: str) -> list[object]:
    """The concrete orders in a report's order form: the shorthand it offers ("works too",
    "or just") and commented-out order lines with nothing left to fill in."""
    if "\norders:\n" not in report:
        return []
    found: list[object] = []
    for line in report.split("\norders:\n", 1)[1].splitlines():
        text = line.lstrip("# ").rstrip()
        if "works too:" in line or "or just" in line:
            found += [yamlsafe.load(quoted) for quoted in re.findall(r'- ("[^"]*")', line)]
            found += re.findall(r"or just\s+- (\w+)", line)
        elif line.startswith("#") and text.startswith("- ") and not PLACEHOLDER.search(text):
            found.append(yamlsafe.load(text[2:].split("  #", 1)[0].strip()))
    return found


@pytest.mark.parametrize("seed", ["forms-1", "forms-2"])
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_example_in_every_order_form_passes_check(
    game_id: str, seed: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    campaign = play(tmp_path / "c", game_id, seed, None, False)
    checked = 0
    for turn in range(campaign.last_turn):
        for player in campaign.state(turn)["players"]:
            found = examples((campaign.turn_dir(turn) / "reports" / f"{player}.txt").read_text(encoding="utf-8"))
            if not found:
                continue
            view = tmp_path / f"{player}.view.json"
            view.write_bytes(for_report(campaign, turn, player) or b"")
            for example in found:
                order = tmp_path / f"{player}.yaml"
                order.write_text(yaml.safe_dump({"player": player, "turn": turn + 1, "orders": [example]}), encoding="utf-8")
                code = main(["check", str(order), "--view", str(view)])
                out = capsys.readouterr().out
                assert code == 0, f"turn {turn}, {player}'s form suggests {example!r}:\n{out}"
                checked += 1
    assert checked, f"no example found in any {game_id} order form"


def test_the_secrets_form_suggests_no_captured_sid_and_no_stolen_secret() -> None:
    """The form of a player whose SID 1 was captured and whose rival's secret 8 is gone."""
    game = GAMES["secrets"]
    view = {"players": ["ann", "bob"], "sids": {"ann": [2, 3], "bob": [1]}, "secrets": {"ann": [1, 6, 9], "bob": [2, 3]},
            "restrictions": [{"sid": 3, "secret": 9}]}
    assert game.form_examples(view, "ann") == ["SID 2 steal bob 3", "SID 3 guard secret 6"]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_form_sent_back_untouched_is_valid_and_says_nothing(game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 25 item 5, design 17: no live placeholder line (Jekyll's `give: CARD`, `name: purple`,
    `greed: [CARD, CARD]`, Hide the Kids' `hide: FURNITURE`, H.I.D.E.'s live target): the form as sent,
    returned untouched, is a valid file of no orders."""
    campaign = play(tmp_path / "c", game_id, "forms-1", None, False)
    checked = 0
    for turn in range(min(campaign.last_turn, 6)):
        for player in campaign.state(turn)["players"]:
            report = (campaign.turn_dir(turn) / "reports" / f"{player}.txt").read_text(encoding="utf-8")
            if "\norders:\n" not in report or "\nplayer: " not in report:
                continue
            form = report[report.index("\nplayer: ") + 1 :]
            view = tmp_path / f"{player}.view.json"
            view.write_bytes(for_report(campaign, turn, player) or b"")
            order = tmp_path / f"{player}.yaml"
            order.write_text(form, encoding="utf-8")
            code = main(["check", str(order), "--view", str(view)])
            out = capsys.readouterr().out
            if game_id == "identity" and "trick:" in form.split("\norders:\n", 1)[1].split("\n", 1)[0]:
                assert code == 0, out  # the trick form's empty lists: valid, settled by the default
            else:
                assert code == 0 and "(no orders)" in out, f"turn {turn}, {player}:\n{form}\n{out}"
            checked += 1
    assert checked
