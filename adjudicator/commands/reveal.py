"""`pbem reveal`: after the game: publish the seed."""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "after the game: publish the seed"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder (the one pbem new made)")


def run(args: argparse.Namespace) -> int:
    from ..campaign.reveal import reveal

    seed, commitment = reveal(Path(args.dir))
    print(f"Seed: {seed}\nCommitment: {commitment}\nWritten to {Path(args.dir) / 'reveal.yaml'}; anyone can now run pbem audit.")
    return 0
