"""Every rule case under tests/cases/<game>/ (see tests/casefile.py for the format)."""

from pathlib import Path

import pytest

from casefile import CASES, all_cases, run_case


@pytest.mark.parametrize("path", all_cases(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_case(path: Path) -> None:
    problems = run_case(path)
    assert not problems, "\n".join(problems)


def test_every_game_has_cases() -> None:
    from adjudicator.games import GAMES

    for game_id in GAMES:
        assert len(list((CASES / game_id).glob("*.yaml"))) >= 20, f"{game_id} needs its rule cases"
