"""`pbem reveal`: after the game, publish the seed so that anyone can audit every draw."""

from __future__ import annotations

from pathlib import Path

from ..common.atomic import locked, write_file
from ..common.rng import commitment
from .folder import Campaign, CampaignError, dump_yaml


def reveal(root: Path) -> tuple[str, str]:
    Campaign.open(root)  # a folder that is no campaign is named as such before a lock file is made in it
    with locked(root):
        campaign = Campaign.open(root)
        if not campaign.over:
            raise CampaignError(f"{root}: the game is not over; revealing the seed now would let players foresee every draw")
        seed = campaign.seed()
        if seed is None:
            raise CampaignError(f"{root}: gm/seed.yaml is missing, so there is no seed to reveal")
        published = campaign.setup_record()["seed_commitment"]
        if commitment(seed) != published:
            raise CampaignError(f"{root}: gm/seed.yaml does not match the published commitment {published}")
        write_file(root / "reveal.yaml", dump_yaml({"seed": seed, "seed_commitment": published}))
        return seed, published
