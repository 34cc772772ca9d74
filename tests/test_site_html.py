"""The public report as HTML (publish/html.py) and the SVG writer (publish/svg.py): player text stays text."""

from __future__ import annotations

from pathlib import Path
from xml.dom import minidom

import pytest

from adjudicator.publish.html import to_html
from adjudicator.publish.svg import Drawing

REPO = Path(__file__).resolve().parent.parent


def test_the_markdown_the_templates_write_becomes_html() -> None:
    html = to_html("# Title\n\nSome **bold** and *it*, `code <x>`.\n\n| a | b |\n| --- | ---: |\n| 1 | 2 |\n\n- one\n- two\n\n> quoted\n")
    assert "<h2>Title</h2>" in html
    assert "<p>Some <strong>bold</strong> and <em>it</em>, <code>code &lt;x&gt;</code>.</p>" in html
    assert '<th class="right">b</th>' in html and '<td class="right">2</td>' in html
    assert "<ul>\n<li>one</li>\n<li>two</li>\n</ul>" in html
    assert "<blockquote><p>quoted</p></blockquote>" in html


@pytest.mark.parametrize("text", ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "a & b", "\ue0000\ue001"])
def test_player_text_is_escaped(text: str) -> None:
    html = to_html(f"Player: {text}\n\n| name |\n| --- |\n| {text} |\n")
    assert "<script" not in html and "<img" not in html and "\ue000" not in html
    assert "&amp;" in to_html("a & b")


def test_a_picture_is_a_link_and_a_script_link_goes_nowhere() -> None:
    assert to_html("![board](turn-001.svg)") == '<p><a href="turn-001.svg">board</a></p>\n'
    assert 'href="#"' in to_html("[x](javascript:alert)")
    assert 'href="https://example.org/a"' in to_html("[x](https://example.org/a)")


def test_every_shipped_public_report_converts(tmp_path: Path) -> None:
    for report in sorted(REPO.glob("turns/*/turn-*/reports/public.md")):
        html = to_html(report.read_text())
        minidom.parseString(f"<div>{html.replace('<br>', '<br/>')}</div>")  # well formed, every tag closed


def test_svg_text_and_titles_are_escaped() -> None:
    d = Drawing(10, 10, "a <b> & \"c\"", "</desc><script>", "k")
    d.text(1, 1, "<script>x</script>")
    d.rect(0, 0, 1, 1, "tile", tip="'quoted' & <tag>")
    svg = d.svg()
    assert "<script" not in svg
    doc = minidom.parseString(svg)
    assert doc.getElementsByTagName("title")[0].firstChild.data == 'a <b> & "c"'
    assert doc.getElementsByTagName("text")[0].firstChild.data == "<script>x</script>"
