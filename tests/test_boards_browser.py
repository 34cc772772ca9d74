"""Every game's board looked at in headless Chromium, at a phone's width and a desktop's (design 18).

No text may overflow its box: each text stays inside its picture, inside the smallest
box (tile, card, die) that holds its anchor, and clear of every other text; and no page
is wider than the screen. Checked on the boards of a whole demo of each game whose
players have long names (the site's public and revealed boards, the chart, and the board
from each player's own view that their report mail carries), where the names used to be
cut ("Dmit…") or run out of their boxes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from chromium import Browser

from adjudicator.campaign.archive import write_site
from adjudicator.campaign.demo import play
from adjudicator.games import GAMES
from adjudicator.publish.pictures import painter
from adjudicator.publish.svg import SMALLEST

LONG_NAMES = ("maximiliana", "bartholomew", "konstantinos", "anastasiya", "christopher", "guinevere", "wilhelmina", "fitzgerald")
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}

OVERFLOWS = """(() => {
  const bad = [];
  for (const svg of document.querySelectorAll('svg')) {
    const vb = svg.viewBox.baseVal;
    const texts = [...svg.querySelectorAll('text')];
    const boxes = texts.map(t => t.getBBox());
    const rects = [...svg.querySelectorAll('rect')].filter(r => r.getAttribute('width') !== '100%').map(r => r.getBBox());
    texts.forEach((t, i) => {
      const b = boxes[i], said = JSON.stringify(t.textContent);
      if (b.x < vb.x - 0.5 || b.x + b.width > vb.x + vb.width + 0.5 || b.y < vb.y - 0.5 || b.y + b.height > vb.y + vb.height + 0.5)
        bad.push(said + ' runs out of the picture');
      const ax = +t.getAttribute('x'), ay = +t.getAttribute('y');
      let box = null;
      for (const r of rects)
        if (ax >= r.x && ax <= r.x + r.width && ay >= r.y && ay <= r.y + r.height && (!box || r.width * r.height < box.width * box.height)) box = r;
      if (box && (b.x < box.x - 0.5 || b.x + b.width > box.x + box.width + 0.5))
        bad.push(said + ' is wider than its box (' + b.width.toFixed(1) + ' in ' + box.width + ')');
      for (let j = 0; j < i; j++) {
        const o = boxes[j];
        if (b.x < o.x + o.width - 1 && o.x < b.x + b.width - 1 && b.y < o.y + o.height - 3 && o.y < b.y + b.height - 3)
          bad.push(said + ' overlaps ' + JSON.stringify(texts[j].textContent));
      }
    });
  }
  if (document.body && document.documentElement.scrollWidth > window.innerWidth + 1 && document.contentType === 'text/html')
    bad.push('the page is ' + document.documentElement.scrollWidth + ' px wide on a ' + window.innerWidth + ' px screen');
  return JSON.stringify(bad);
})()"""


READABLE = """((smallest) => {
  const bad = [];
  for (const svg of document.querySelectorAll('figure svg')) {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    for (const t of svg.querySelectorAll('text')) {
      const shown = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (shown < smallest - 0.01) bad.push(JSON.stringify(t.textContent) + ' is drawn ' + shown.toFixed(1) + ' px high');
    }
  }
  return JSON.stringify(bad);
})(%s)"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    started = Browser()
    yield started
    started.close()


@pytest.fixture(scope="module", params=sorted(GAMES))
def pictures(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The pages and pictures of one game's demo with long names: the last turn's page and a middle one,
    the index (the chart), and the last board from each player's view."""
    base = tmp_path_factory.mktemp(f"boards-{request.param}")
    campaign = play(base / "campaign", request.param, seed="site-1", players=None, passwords=False, ids=LONG_NAMES)
    out = base / "site"
    write_site(campaign.root, out)
    last = campaign.last_turn
    pages = [out / "index.html", out / f"turn-{last // 2:03d}.html", out / f"turn-{last:03d}.html"]
    state, game = campaign.state(), campaign.game
    for player in state["players"]:
        mine = out / f"view-{player}.svg"
        mine.write_text(painter(game.id).board(game.view(state, player), "v").svg())
        pages.append(mine)
    return pages


@pytest.mark.parametrize("screen", sorted(WIDTHS))
def test_no_text_overflows_its_box(browser: Browser, pictures: list[Path], screen: str) -> None:
    width, height = WIDTHS[screen]
    browser.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=screen == "phone")
    try:
        for page in pictures:
            browser.visit(page.as_uri(), page.parent.as_uri() + "/")
            found = json.loads(browser.call("Runtime.evaluate", expression=OVERFLOWS)["result"]["value"])
            assert found == [], f"{page.name} at {screen} width: {found[:8]}"
    finally:
        browser.call("Emulation.clearDeviceMetricsOverride")


def test_every_label_on_a_phone_is_drawn_at_a_readable_size(browser: Browser, pictures: list[Path]) -> None:
    """On a phone a page's board keeps its own size and its figure scrolls sideways: shrunk to the
    screen, a 680-wide board drew its 10 px labels 5 px high (design 18: every label readable)."""
    width, height = WIDTHS["phone"]
    browser.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=True)
    try:
        for page in (p for p in pictures if p.suffix == ".html"):
            browser.visit(page.as_uri(), page.parent.as_uri() + "/")
            found = json.loads(browser.call("Runtime.evaluate", expression=READABLE % SMALLEST)["result"]["value"])
            assert found == [], f"{page.name} on a phone: {found[:8]}"
    finally:
        browser.call("Emulation.clearDeviceMetricsOverride")


def test_the_check_finds_a_name_cut_by_its_box(browser: Browser, tmp_path: Path) -> None:
    """The same check on a card whose word runs over its edge: so the test above can fail."""
    bad = tmp_path / "bad.svg"
    bad.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 60" width="100" height="60">'
                   '<rect x="10" y="10" width="34" height="40"/><text x="27" y="30" text-anchor="middle" font-size="10">Bartholomew</text></svg>')
    browser.visit(bad.as_uri(), tmp_path.as_uri() + "/")
    found = json.loads(browser.call("Runtime.evaluate", expression=OVERFLOWS)["result"]["value"])
    assert any("wider than its box" in f for f in found), found
