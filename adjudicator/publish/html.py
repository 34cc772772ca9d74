"""The public report as HTML, for the archive's turn pages.

Like the BBCode copy (`bbcode`), this converts the Markdown that every game's public
template renders, and only what they write: headings, paragraphs, **bold**, *italic*,
`code spans`, [links](url), lists, quotes, fenced code and tables. It reads the same
syntax with bbcode's patterns. Everything else is text, escaped, so a player called
`<script>` stays a name. An image (`![board](turn-001.svg)`, the picture link a forum
shows) becomes a plain link: a page of the archive never loads anything by itself.
"""

from __future__ import annotations

import re
from html import escape

from .bbcode import (
    _BOLD,
    _BULLET,
    _CODE_SPAN,
    _ESCAPE,
    _FENCE,
    _HEADING,
    _INLINE_SYNTAX,
    _ITALIC,
    _NUMBERED,
    _TABLE_RULE,
    _alignments,
    _cells,
)

_IMAGE_OR_LINK = re.compile(r"!?\[([^\]\n]+)\]\(([^)\s]+)\)")
_SAFE_URL = re.compile(r"(https?://|\.{0,2}/|#|[A-Za-z0-9_.-]+(?:[/#?]|\Z))", re.IGNORECASE)
_HOLE = re.compile("\ue000(\\d+)\ue001")


def _href(url: str) -> str:
    """A link target as written, unless it could run code (`javascript:`): then it goes nowhere."""
    return escape(url, quote=True) if _SAFE_URL.match(url) else "#"


def inline(text: str) -> str:
    """One line of Markdown inline syntax as HTML; all other text escaped."""
    text = text.replace("\ue000", "\ufffd").replace("\ue001", "\ufffd")  # the placeholders are ours alone
    if not _INLINE_SYNTAX.search(text):  # most table cells: a number or a plain name
        return escape(text, quote=False)
    kept: list[str] = []

    def keep(html: str) -> str:
        kept.append(html)
        return f"\ue000{len(kept) - 1}\ue001"

    text = _CODE_SPAN.sub(lambda m: keep(f"<code>{escape(m.group(2).strip())}</code>"), text)
    text = _ESCAPE.sub(lambda m: keep(escape(m.group(1))), text)
    text = _IMAGE_OR_LINK.sub(lambda m: keep(f'<a href="{_href(m.group(2))}">') + m.group(1) + keep("</a>"), text)
    text = escape(text, quote=False)
    text = _BOLD.sub(lambda m: f"<strong>{m.group(2)}</strong>", text)
    text = _ITALIC.sub(lambda m: f"<em>{m.group(1) or m.group(2)}</em>", text)
    while _HOLE.search(text):  # a kept piece may hold another (a code span inside a link's words)
        text = _HOLE.sub(lambda m: kept[int(m.group(1))], text)
    return text


def _table(lines: list[str]) -> list[str]:
    header, rows = _cells(lines[0]), [_cells(line) for line in lines[2:]]
    aligns = (_alignments(lines[1]) + ["left"] * len(header))[: len(header)]

    def row(cells: list[str], tag: str) -> str:
        cells = (cells + [""] * len(header))[: len(header)]
        return "<tr>" + "".join(f'<{tag} class="{a}">{inline(c)}</{tag}>' for c, a in zip(cells, aligns)) + "</tr>"

    return ["<table>", "<thead>" + row(header, "th") + "</thead>", "<tbody>", *(row(r, "td") for r in rows), "</tbody>", "</table>"]


def to_html(markdown: str) -> str:
    """Convert the rendered Markdown of a public report to a fragment of HTML."""
    lines = markdown.replace("\r\n", "\n").split("\n")
    out: list[str] = []
    paragraph: list[str] = []

    def close_paragraph() -> None:
        if paragraph:
            out.append("<p>" + "<br>\n".join(inline(line) for line in paragraph) + "</p>")
            paragraph.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        table = line.lstrip().startswith("|") and i + 1 < len(lines) and _TABLE_RULE.match(lines[i + 1].strip())
        heading = _HEADING.match(line)
        listing = next(((p, tag) for p, tag in ((_BULLET, "ul"), (_NUMBERED, "ol")) if p.match(line)), None)
        if not line.strip():
            close_paragraph()
            i += 1
            continue
        if not (fence or table or heading or listing or line.startswith(">")):
            paragraph.append(line.strip())
            i += 1
            continue
        close_paragraph()
        if fence:
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip().startswith(fence.group(1))), len(lines))
            out.append("<pre><code>" + escape("\n".join(lines[i + 1:end])) + "</code></pre>")
            i = end + 1
        elif table:
            end = i + 2
            while end < len(lines) and lines[end].lstrip().startswith("|"):
                end += 1
            out += _table(lines[i:end])
            i = end
        elif heading:
            level = min(len(heading.group(1)) + 1, 6)  # the page's own title is the h1
            out.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
            i += 1
        elif listing:
            pattern, tag = listing
            items = []
            while i < len(lines) and pattern.match(lines[i]):
                items.append("<li>" + inline(pattern.match(lines[i]).group(1)) + "</li>")  # type: ignore[union-attr]
                i += 1
            out += [f"<{tag}>", *items, f"</{tag}>"]
        else:
            quoted = []
            while i < len(lines) and lines[i].startswith(">"):
                quoted.append(inline(lines[i][1:].strip()))
                i += 1
            out.append("<blockquote><p>" + "<br>\n".join(quoted) + "</p></blockquote>")
    close_paragraph()
    return "\n".join(out) + "\n"
