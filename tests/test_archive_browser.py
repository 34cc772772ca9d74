"""Every page of a demo site of each game, in headless Chromium (design 13).

Each page must load from file://, log no console error and no failed load, and ask for
nothing outside the site folder; the page and its pictures must take the dark theme
when the reader's system asks for it. A screenshot of each game's board is kept as a
test artifact (in $PBEM_ARTIFACTS, default build/artifacts/ in the repository).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from chromium import Browser

from adjudicator.campaign.archive import write_site
from adjudicator.campaign.demo import play
from adjudicator.campaign.folder import dump_json
from adjudicator.games import GAMES

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(os.environ.get("PBEM_ARTIFACTS", REPO / "build" / "artifacts"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    started = Browser()  # raises, naming what is missing, when Chromium cannot start: never a silent skip
    yield started
    started.close()


@pytest.fixture(scope="module", params=sorted(GAMES))
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp(f"site-{request.param}")
    campaign = play(base / "campaign", request.param, seed="site-1", players=None, passwords=True)
    press = campaign.root / "mail" / "press"
    press.mkdir(parents=True)
    players = campaign.state()["players"]
    (press / "00001.json").write_bytes(dump_json({"turn": 1, "from": players[0], "to": players[1:], "anonymous": False, "text": "Good luck <all> & sundry"}))
    out = base / "site"
    write_site(campaign.root, out)
    return out


def test_every_page_loads_cleanly_and_stays_inside_the_site(browser: Browser, site: Path) -> None:
    inside = site.as_uri() + "/"
    pages = sorted(site.glob("*.html")) + sorted(site.glob("*.svg"))
    assert (site / "press.html").is_file() and (site / "seed.html").is_file()
    for page in pages:
        visit = browser.visit(page.as_uri(), inside)
        assert visit.loaded, f"{page.name} did not finish loading"
        assert visit.errors == [], f"{page.name}: {visit.errors}"
        assert visit.requests == [], f"{page.name} asked for {visit.requests}"


def test_pages_and_pictures_follow_the_dark_theme(browser: Browser, site: Path) -> None:
    page = sorted(site.glob("turn-*.html"))[-1].as_uri()
    probe = (
        "[getComputedStyle(document.body).backgroundColor,"
        " getComputedStyle(document.querySelector('svg rect.paper')).fill,"
        " getComputedStyle(document.querySelector('svg text.ink')).fill].join('|')"
    )
    colours = {}
    for scheme in ("light", "dark"):
        browser.call("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": scheme}])
        browser.visit(page, site.as_uri() + "/")
        colours[scheme] = browser.call("Runtime.evaluate", expression=probe)["result"]["value"].split("|")
    browser.call("Emulation.setEmulatedMedia", features=[])
    for light, dark in zip(colours["light"], colours["dark"]):
        assert light != dark, f"the dark theme changes nothing: {colours}"


def test_a_screenshot_of_each_board_is_kept(browser: Browser, site: Path) -> None:
    board = sorted(site.glob("turn-*.svg"))[-1]
    game = site.parent.name.removeprefix("site-").rstrip("0123456789")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    target = ARTIFACTS / f"site-{game}.png"
    browser.photograph(board, target)
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and target.stat().st_size > 2000
    shutil.copy(board, ARTIFACTS / f"site-{game}.svg")


def test_the_checks_catch_a_page_that_leaves_the_site(browser: Browser, tmp_path: Path) -> None:
    """The same visit on a page that breaks every rule: so the checks above can fail."""
    bad = tmp_path / "bad.html"
    bad.write_text('<!DOCTYPE html><title>x</title><img src="https://cdn.example.org/x.png"><script>console.error("boom")</script>')
    visit = browser.visit(bad.as_uri(), tmp_path.as_uri() + "/")
    assert visit.requests == ["https://cdn.example.org/x.png"]
    assert "boom" in visit.errors
