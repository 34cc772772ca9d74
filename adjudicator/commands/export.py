"""`pbem export`: a copy of a revealed campaign that anyone can audit, with nothing private in it (docs/archive.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "after the reveal: copy the campaign for anyone to audit (no addresses, passwords, gm/ or mail/)"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the revealed campaign")
    p.add_argument("out", help="the new folder for the copy")


def run(args: argparse.Namespace) -> int:
    from ..campaign.export import export

    turns = export(Path(args.dir), Path(args.out))
    print(f"Exported {args.dir} to {args.out}: the opening and {turns} turns, audited clean. Anyone can check it with: pbem audit {args.out}")
    return 0
