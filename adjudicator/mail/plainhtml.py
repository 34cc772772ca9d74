"""A plain-text report as HTML that reads on a phone: its paragraphs flowing, its tables and forms line for line.

The text reports are written for a fixed-width reader: prose is broken at about 72 columns, tables
and the order form are set in columns. Shown as it is on a phone (some 45 columns of monospace),
every broken prose line broke again, so paragraphs came out as ragged pairs of lines, and the
rules of `=` ran off the screen. Here a prose line that the template broke is joined to the
next one, so the reader's screen breaks the paragraph where it must; indented lines (tables, lists,
the examples), form lines (`# ...`, `player: ...`) and short lines (headings) stay as written; a rule
becomes a rule. The plain-text part of the mail is unchanged: it is what a player replies to.
"""

from __future__ import annotations

import re
from html import escape

_RULE = re.compile(r"^\s*([=\-_])\1{9,}\s*$")
_PROSE_START = re.compile(r"^[^\W_]|^[(.\"'\u2018\u201c]")
"""A line that starts as prose does: a letter or a digit, an opening bracket or quote, or the dot of a
file's name (`.yaml file`); not `#`, `-`, `*`, `>` or a space."""
_FORM_KEY = re.compile(r"^[A-Za-z_]+:(\s|$)")
"""A line of the order form (`player: ann`, `orders:`): never part of a paragraph."""
BROKEN = 50
"""A prose line at least this long, followed by more prose, was broken by the template (its lines run to about 72)."""

_BLOCK = '<pre style="white-space:pre-wrap;overflow-wrap:anywhere;font-family:monospace;margin:0 0 1em">{}</pre>'


def _joins(line: str, after: str) -> bool:
    """Whether `after` goes on the paragraph `line` ends: both prose, `line` long enough to have been
    broken, and not the lead-in of a list (`...these words:`) or the end of a sentence's line of its own."""
    return (len(line) >= BROKEN and bool(_PROSE_START.match(line)) and bool(_PROSE_START.match(after))
            and not line.rstrip().endswith(":") and not _FORM_KEY.match(after) and not _FORM_KEY.match(line))


def text_html(text: str) -> str:
    """`text` as blocks of preformatted lines, prose joined into paragraphs, each rule a horizontal rule."""
    blocks: list[list[str]] = [[]]
    for line in text.split("\n"):
        if _RULE.match(line):
            blocks.append([])
        elif blocks[-1] and line and _joins(blocks[-1][-1], line):
            blocks[-1][-1] += " " + line.strip()
        else:
            blocks[-1].append(line)
    shown = ["\n".join(block).strip("\n") for block in blocks]
    return "\n<hr>\n".join(_BLOCK.format(escape(block)) if block else "" for block in shown)
