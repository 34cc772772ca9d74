"""`pbem site`: write the campaign's public archive, a static web site (docs/archive.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "write the campaign's archive as a static web site (the whole record once the seed is revealed)"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder")
    p.add_argument("out", help="the folder to write the site into (made if needed)")


def run(args: argparse.Namespace) -> int:
    from ..campaign.archive import write_site

    summary = write_site(Path(args.dir), Path(args.out))
    print(f"Wrote {summary.pages} pages and {len(summary.files) - summary.pages} pictures to {args.out}; open {Path(args.out) / 'index.html'}.")
    return 0
