"""Every game's board looked at in headless Chromium, at a phone's width and a desktop's (design 18).

No text may overflow its box: each text stays inside its picture, inside the smallest
box (tile, card, die) that holds its anchor, and clear of every other text; and no page
scrolls sideways. Checked on the boards of a whole demo of each game whose
players have long names (the site's public and revealed boards in both layouts, the chart, and
the board from each player's own view that their report mail carries, wide and narrow), where the
names used to be cut ("Dmit…") or run out of their boxes. On a phone every label, on the site's
page and in the report mail's PNG as the mail shows it, comes out at svg.READABLE CSS px or more.
"""

from __future__ import annotations

import email
import email.policy
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from chromium import Browser

from adjudicator.campaign.archive import write_site
from adjudicator.campaign.demo import play
from adjudicator.games import GAMES
from adjudicator.mail import reportmail
from adjudicator.publish.pictures import painter
from adjudicator.publish.png import ZOOM, png
from adjudicator.publish.svg import READABLE
from pngpixels import pixels
from test_mail_boards import with_addresses

LONG_NAMES = ("maximiliana", "bartholomew", "konstantinos", "anastasiya", "christopher", "guinevere", "wilhelmina", "fitzgerald")
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}

OVERFLOWS = """(() => {
  const bad = [];
  for (const svg of document.querySelectorAll('svg')) {
    if (!svg.getClientRects().length) continue;  // the layout the page does not show at this width
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
  // A phone widens its layout to what the page holds (innerWidth grows with it): compare with the screen's own width.
  const screen = document.documentElement.clientWidth;
  if (document.body && document.documentElement.scrollWidth > screen + 1 && document.contentType === 'text/html')
    bad.push('the page is ' + document.documentElement.scrollWidth + ' px wide on a ' + screen + ' px screen');
  return JSON.stringify(bad);
})()"""


SHOWN_SIZES = """((smallest) => {
  const bad = [];
  for (const svg of document.querySelectorAll('figure svg')) {
    if (!svg.getClientRects().length) continue;  // the wide layout, not shown on a phone
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
        for layout, narrow in (("wide", False), ("narrow", True)):
            mine = out / f"view-{player}-{layout}.svg"
            mine.write_text(painter(game.id).board(game.view(state, player), "v", narrow=narrow).svg())
            pages.append(mine)
    return pages + sorted(out.glob("turn-*.svg"))


@pytest.fixture(scope="module", params=sorted(GAMES))
def mails(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, Path]]:
    """Each report mail of the last turn of one game's demo with long names, its HTML part as a page
    with its board's PNG beside it (the `cid:` link pointed at the file), and the board's SVG, checked
    to be the one the PNG was drawn from."""
    base = tmp_path_factory.mktemp(f"mails-{request.param}")
    play(base / "campaign", request.param, seed="site-1", players=None, passwords=False, ids=LONG_NAMES)
    campaign = with_addresses(base / "campaign")
    last = campaign.last_turn
    files, _ = reportmail.report_messages(campaign, last)
    state = campaign.state(last)
    found = []
    for player in [*state["players"], None]:
        message = email.message_from_bytes(files[f"turn-{last:03d}/report-{player or 'public'}.eml"], policy=email.policy.default)
        [image] = [p for p in message.walk() if p.get_content_type() == "image/png"]
        drawing = painter(campaign.game.id).board(campaign.game.view(state, player), f"board-{last}", narrow=True)
        assert image.get_content() == png(drawing.svg()), f"{player or 'public'}: the mail's PNG is drawn from the narrow SVG"
        assert pixels(image.get_content())[0] == round(drawing.width * ZOOM)
        page, picture = base / f"mail-{player or 'public'}.html", base / f"board-{player or 'public'}.svg"
        (base / f"board-{player or 'public'}.png").write_bytes(image.get_content())
        html = message.get_body(("html",)).get_content()
        page.write_text(re.sub(r'src="cid:[^"]+"', f'src="board-{player or "public"}.png"', html))
        picture.write_text(drawing.svg())
        found.append((page, picture))
    return found


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
    """On a phone a page shows each picture's narrow layout, at about its own size: shrunk to the
    screen, a 680-wide board drew its 10 px labels 5 px high (design 18: every label readable), and
    kept at its size it showed a third of itself and scrolled sideways."""
    width, height = WIDTHS["phone"]
    browser.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=True)
    try:
        for page in (p for p in pictures if p.suffix == ".html"):
            browser.visit(page.as_uri(), page.parent.as_uri() + "/")
            found = json.loads(browser.call("Runtime.evaluate", expression=SHOWN_SIZES % READABLE)["result"]["value"])
            assert found == [], f"{page.name} on a phone: {found[:8]}"
            shown = browser.call("Runtime.evaluate", expression="[...document.querySelectorAll('figure svg')].filter(s => s.getClientRects().length).length")
            assert shown["result"]["value"] == len(re.findall(r"<figure>", page.read_text())), f"{page.name}: one picture shown per figure"
    finally:
        browser.call("Emulation.clearDeviceMetricsOverride")


SQUEEZED = """((least) => {
  const bad = [];
  for (const t of document.querySelectorAll('text[textLength]')) {
    const whole = t.cloneNode(true);  // the same words at the same size, not squeezed: their own width
    whole.removeAttribute('textLength'); whole.removeAttribute('lengthAdjust');
    t.parentNode.appendChild(whole);
    const ratio = +t.getAttribute('textLength') / whole.getComputedTextLength();
    whole.remove();
    if (ratio < least) bad.push(JSON.stringify(t.textContent) + ' squeezed to ' + ratio.toFixed(2) + ' of its width');
  }
  return JSON.stringify(bad);
})(%s)"""

LEAST_SQUEEZE = 0.75
"""A word may be drawn narrower than itself to fit (svg.py's last resort) to no less than this: at 0.86 a
name still reads, at 0.47 ("captured: 1 by Anastasiya, 2 by ..." in a line of its own) it does not."""


def test_no_name_or_label_is_squeezed_past_reading(browser: Browser, pictures: list[Path]) -> None:
    """Whole is not enough: a name fitted to its box by squeezing its letters must still read (design 18)."""
    browser.call("Emulation.clearDeviceMetricsOverride")
    for page in pictures:
        browser.visit(page.as_uri(), page.parent.as_uri() + "/")
        found = json.loads(browser.call("Runtime.evaluate", expression=SQUEEZED % LEAST_SQUEEZE)["result"]["value"])
        assert found == [], f"{page.name}: {found[:8]}"


LABELS = """JSON.stringify([...document.querySelectorAll('text')].map(t => [t.textContent, parseFloat(getComputedStyle(t).fontSize)]))"""
IMAGE_SCALE = """(() => { const i = document.querySelector('img'); return i.complete && i.naturalWidth ? i.getBoundingClientRect().width : -1; })()"""


def test_every_label_of_the_mails_board_reads_on_a_phone(browser: Browser, mails: list[tuple[Path, Path]]) -> None:
    """The report mail's board (its PNG, drawn from the narrow SVG at png.ZOOM pixels a unit) as a
    phone 390 px wide shows the mail: the picture shrunk to the screen where it is wider, each label
    at its size in the SVG times the picture's width on the screen over its width in units. The wide
    board's PNG came out there at 4-6 px a label."""
    width, height = WIDTHS["phone"]
    for page, picture in mails:
        browser.call("Emulation.clearDeviceMetricsOverride")
        browser.visit(picture.as_uri(), picture.parent.as_uri() + "/")
        labels = json.loads(browser.call("Runtime.evaluate", expression=LABELS)["result"]["value"])
        units = float(re.search(r'viewBox="0 0 ([\d.]+) ', picture.read_text()).group(1))  # type: ignore[union-attr]
        browser.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=True)
        visit = browser.visit(page.as_uri(), page.parent.as_uri() + "/")
        assert visit.loaded and not visit.requests, f"{page.name}: the mail's page fetches nothing"
        shown = browser.call("Runtime.evaluate", expression=IMAGE_SCALE)["result"]["value"]
        assert shown > 0, f"{page.name}: the board's PNG is not shown"
        small = [f"{words!r} at {size * shown / units:.1f} px" for words, size in labels if size * shown / units < READABLE - 0.01]
        assert labels and small == [], f"{page.name} on a phone, the board {shown:.0f} px wide: {small[:8]}"
        found = json.loads(browser.call("Runtime.evaluate", expression=OVERFLOWS)["result"]["value"])
        assert found == [], f"{page.name} on a phone: {found[:8]}"
    browser.call("Emulation.clearDeviceMetricsOverride")


def test_the_check_finds_a_name_cut_by_its_box(browser: Browser, tmp_path: Path) -> None:
    """The same check on a card whose word runs over its edge: so the test above can fail."""
    bad = tmp_path / "bad.svg"
    bad.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 60" width="100" height="60">'
                   '<rect x="10" y="10" width="34" height="40"/><text x="27" y="30" text-anchor="middle" font-size="10">Bartholomew</text></svg>')
    browser.visit(bad.as_uri(), tmp_path.as_uri() + "/")
    found = json.loads(browser.call("Runtime.evaluate", expression=OVERFLOWS)["result"]["value"])
    assert any("wider than its box" in f for f in found), found
