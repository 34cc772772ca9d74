"""The example campaigns kept in turns/ replay byte for byte (design 3)."""

from pathlib import Path

import pytest

from adjudicator.campaign.audit import audit
from adjudicator.campaign.folder import Campaign

EXAMPLES = sorted(p.parent for p in (Path(__file__).resolve().parent.parent / "turns").glob("*/campaign.yaml"))


@pytest.mark.parametrize("root", EXAMPLES, ids=lambda p: p.name)
def test_example_campaign_audits_clean_to_the_end(root: Path) -> None:
    result = audit(root)
    assert result.divergence is None and Campaign.open(root).over
    assert result.note is None, "every report replays with today's templates: run turns/regenerate.py after changing them"


def test_every_game_has_an_example() -> None:
    from adjudicator.games import GAMES

    assert {Campaign.open(root).game.id for root in EXAMPLES} >= set(GAMES)
