"""Disguised worlds of a played campaign, for the non-interference checks (design 7).

For every adjudicated turn and every player due in it, the turn is resolved again as it
was played and in each world the game's `disguises` offers: worlds that differ only in
what that player alone knows. The checks then compare what everyone else gets.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.campaign.folder import Campaign
from adjudicator.publish.render import Renderer
from adjudicator.common.rng import Rng
from adjudicator.campaign.turn import render_reports


@dataclass
class World:
    number: int
    """The turn."""
    holder: str
    """The player whose secrets differ between the two worlds."""
    before: dict[str, Any]
    orders: dict[str, Any]
    after: dict[str, Any]
    reports: dict[str, bytes]
    """The turn's reports in this world."""
    base_before: dict[str, Any]
    base_orders: dict[str, Any]
    base_after: dict[str, Any]
    base_reports: dict[str, bytes]
    """The same, as the turn was played."""

    def others_reports(self) -> Iterator[tuple[str, bytes, bytes]]:
        """(report name, as played, in this world) for every report not the holder's own."""
        for name, data in self.base_reports.items():
            if Path(name).stem != self.holder:
                yield name, data, self.reports[name]


def disguised_worlds(campaign: Campaign, purpose: str = "disguise") -> Iterator[World]:
    game, setup, seed = campaign.game, campaign.setup_record(), campaign.seed()
    assert seed is not None, "the campaign's seed is needed to replay its turns"
    renderer = Renderer(game.id, None)
    for number in range(1, campaign.last_turn + 1):
        before = campaign.state(number - 1)
        orders = json.loads((campaign.turn_dir(number) / "results.json").read_text())["orders_resolved"]
        base_after, base_events = game.resolve(before, orders, Rng(seed, number))
        base_reports = render_reports(game, renderer, setup, base_after, number, base_events, {}, before)
        for holder in game.due(before):
            stream = Rng(seed, number).stream(f"{purpose}/{holder}")
            for world_before, world_orders in game.disguises(before, orders, holder, stream):
                after, events = game.resolve(world_before, world_orders, Rng(seed, number))
                reports = render_reports(game, renderer, setup, after, number, events, {}, world_before)
                yield World(number, holder, world_before, world_orders, after, reports, before, orders, base_after, base_reports)
