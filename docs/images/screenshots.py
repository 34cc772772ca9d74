"""Redraw the archive screenshots of docs/archive.md, one board per game.

    python3 docs/images/screenshots.py

Each game's demo (seed site-1, as the browser tests play it) is written as a site, and
its last board in its wide layout is photographed by headless Chromium (tests/chromium.py;
Debian's chromium package), and its last turn page at a phone's width (`phone-<game>.png`,
with the narrow board the page shows there). The pictures are of the public board: what
anyone may see.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from chromium import Browser  # noqa: E402

from adjudicator.campaign.archive import write_site  # noqa: E402
from adjudicator.campaign.demo import play  # noqa: E402
from adjudicator.games import GAMES  # noqa: E402


def main() -> int:
    browser = Browser()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for game_id in sorted(GAMES):
                campaign = play(Path(tmp) / game_id, game_id, seed="site-1", players=None, passwords=False)
                out = Path(tmp) / f"{game_id}-site"
                write_site(campaign.root, out)
                board = sorted(out.glob("turn-*-wide.svg"))[-1]
                target = HERE / f"site-{game_id}.png"
                browser.photograph(board, target, max_height=600)
                print(f"{target.relative_to(REPO)}: {target.stat().st_size // 1024} KiB")
                phone = HERE / f"phone-{game_id}.png"
                page = board.with_name(board.name.replace("-wide.svg", ".html"))
                browser.screenshot(page.as_uri(), phone, 390, 844)
                print(f"{phone.relative_to(REPO)}: {phone.stat().st_size // 1024} KiB")
    finally:
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
