"""`pbem audit`: replay every turn from its inputs and compare every output byte for byte."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .adjudicate import from_template, read_orders_folder, template_problem
from .campaign import Campaign, CampaignError, read_yaml
from .render import Renderer
from .rng import commitment
from .turn import TurnOutput, opening, turn


@dataclass
class AuditResult:
    turns: int
    """How many turns (after the opening) were replayed."""
    divergence: str | None
    """The first difference found, in words; None when the replay matches."""


def _compare(folder: Path, output: TurnOutput) -> str | None:
    """The first file whose bytes differ from the replay, or that one side lacks."""
    label = folder.name
    for name in sorted(output.files):
        path = folder / name
        if not path.is_file():
            return f"{label}/{name} is missing from the campaign but the replay writes it"
        if path.read_bytes() != output.files[name]:
            return f"{label}/{name} differs from the replay"
    reports = folder / "reports"
    if reports.is_dir():
        for path in sorted(reports.iterdir()):
            if f"reports/{path.name}" not in output.files:
                return f"{label}/reports/{path.name} is not written by the replay"
    return None


def audit(root: Path, renderer: Renderer | None = None) -> AuditResult:
    try:
        return _audit(root, renderer)
    except Exception as exc:
        if not from_template(exc):
            raise
        raise CampaignError(template_problem(Path(root), exc)) from None


def _audit(root: Path, renderer: Renderer | None = None) -> AuditResult:
    campaign = Campaign.open(root)
    seed = campaign.seed()
    if seed is None:
        raise CampaignError(
            f"{campaign.root}: no seed to replay with (reveal.yaml after pbem reveal, or gm/seed.yaml for the GM)"
        )
    setup = campaign.setup_record()
    if commitment(seed) != setup["seed_commitment"]:
        return AuditResult(0, "the seed does not match the commitment published at the start (turn-000/setup.json)")
    if (campaign.root / "reveal.yaml").is_file():
        revealed = read_yaml(campaign.root / "reveal.yaml")
        if revealed.get("seed_commitment") not in (None, setup["seed_commitment"]):
            return AuditResult(0, "reveal.yaml names a different commitment from turn-000/setup.json")
    renderer = renderer or Renderer.for_campaign(campaign.game.id, campaign.root)
    out = opening(campaign, setup, seed, renderer)
    problem = _compare(campaign.turn_dir(0), out)
    if problem:
        return AuditResult(0, problem)
    state = out.state
    number = 0
    while campaign.is_adjudicated(number + 1):
        number += 1
        folder = campaign.turn_dir(number)
        previous = (campaign.turn_dir(number - 1) / "manifest.json").read_bytes()
        order_bytes, _ = read_orders_folder(folder / "orders")
        out = turn(campaign, number, state, order_bytes, previous, seed, renderer)
        problem = _compare(folder, out)
        if problem:
            return AuditResult(number, problem)
        state = out.state
    return AuditResult(number, None)
