"""A small SVG writer for the archive's pictures: deterministic text, no browser needed.

Every picture is drawn from classes, not colours: the style sheet below gives each class
its colours for a light page and, under `prefers-color-scheme: dark`, for a dark one, so
a picture reads the same in both themes, inline in a page or opened on its own. Game
colours (a die's, a card's suit) keep one fill in both themes and always carry a letter
or a word as well, so nothing is told by colour alone. Every text is escaped.
"""

from __future__ import annotations

import re
from html import escape
from itertools import combinations

from . import fontwidth

STYLE = """
.paper{fill:#fdfcf8}.ink{fill:#1b1b1b}.muted{fill:#5b5b5b}.edge{stroke:#3a3a3a;fill:none}
.tile{fill:#ecebe4;stroke:#3a3a3a}.gone{fill:#d6d3c8;stroke:#8a8a8a;stroke-dasharray:3 2}
.mark{fill:#b3261e}.good{fill:#1f6f3a}.back{fill:#3d4f7a;stroke:#1b1b1b}.hot{stroke:#b3261e;fill:none;stroke-width:2}
.w2{stroke-width:2}.on-colour{fill:#111}.on-black{fill:#f4f4f4}.label{font:12px sans-serif}.small{font:10px sans-serif}.big{font:bold 15px sans-serif}
.c-red{fill:#e06060}.c-blue{fill:#6f9be0}.c-green{fill:#6cc070}.c-yellow{fill:#e8cf4a}.c-orange{fill:#ef9a45}
.c-purple{fill:#b48be0}.c-pink{fill:#f29ac8}.c-black{fill:#262626}.c-potion{fill:#b0b0b0}.c-none{fill:#cfcfcf}
.s0{stroke:#b3261e}.s1{stroke:#1f5fbf}.s2{stroke:#1f7f3a}.s3{stroke:#8a5a00}.s4{stroke:#7b3fa8}.s5{stroke:#00838f}
.s6{stroke:#c2185b}.s7{stroke:#5d6d1f}.s8{stroke:#4e342e}.s9{stroke:#37474f}
@media (prefers-color-scheme: dark){
.paper{fill:#1c1c1e}.ink{fill:#ececec}.muted{fill:#b0b0b0}.edge{stroke:#c8c8c8}
.tile{fill:#2e2e32;stroke:#c8c8c8}.gone{fill:#3a3a3e;stroke:#9a9a9a}
.mark{fill:#ff8a80}.good{fill:#7fd99a}.back{fill:#6f83b8;stroke:#ececec}.hot{stroke:#ff8a80}
.s0{stroke:#ff8a80}.s1{stroke:#8ab4f8}.s2{stroke:#81c995}.s3{stroke:#fdd663}.s4{stroke:#d7aefb}.s5{stroke:#78d9ec}
.s6{stroke:#ff8bcb}.s7{stroke:#c5e1a5}.s8{stroke:#bcaaa4}.s9{stroke:#b0bec5}}
""".strip()
"""The colours of every class a picture uses, for light and dark pages."""

SERIES = 10
"""Line classes s0..s9 for the chart's players."""


def text_of(value: object) -> str:
    """Text and attribute values, escaped (player names may hold `<`, `&` and quotes)."""
    return escape(str(value), quote=True)


def _num(value: float) -> str:
    """Coordinates written the same way every time: integers bare, others to one decimal."""
    if type(value) is int:  # nearly every coordinate
        return str(value)
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


class Drawing:
    """One SVG picture, built element by element; `svg()` gives its text.

    `key` makes the ids of its title and description unique in a page that shows
    several pictures (the turn page, the record). A narrow picture (NARROW units or less), shown at
    about its own size on a phone, shrinks no text to fit below SMALLEST_NARROW; a wide one, below SMALLEST."""

    def __init__(self, width: float, height: float, title: str, desc: str, key: str) -> None:
        self.width, self.height = width, height
        self.title, self.desc, self.key = title, desc, key
        self.smallest = SMALLEST_NARROW if width <= NARROW else SMALLEST
        self._parts: list[str] = []

    def rect(self, x: float, y: float, w: float, h: float, cls: str, rx: float = 0, tip: str = "") -> None:
        """A box; `tip` is a title that a pointer or a screen reader shows for it."""
        corner = f' rx="{_num(rx)}"' if rx else ""
        shape = f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}"{corner} class="{cls}"'
        self._parts.append(f"{shape}><title>{text_of(tip)}</title></rect>" if tip else f"{shape}/>")

    def circle(self, x: float, y: float, r: float, cls: str) -> None:
        self._parts.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}" class="{cls}"/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, cls: str) -> None:
        self._parts.append(f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" class="{cls}"/>')

    def polyline(self, points: list[tuple[float, float]], cls: str) -> None:
        joined = " ".join(f"{_num(x)},{_num(y)}" for x, y in points)
        self._parts.append(f'<polyline points="{joined}" class="{cls}" fill="none" stroke-width="2"/>')

    def text(self, x: float, y: float, words: object, cls: str = "ink label", anchor: str = "start", room: float | None = None) -> None:
        """A text; with `room` (its box's width), drawn whole within it: a smaller size where it is too
        long, and squeezed to the room where even the smallest readable size is not enough. Never cut."""
        where = "" if anchor == "start" else f' text-anchor="{anchor}"'
        shown = " ".join(str(words).split()) if room is not None else words
        fitted = "" if room is None else _fitted(str(shown), cls, room, self.smallest)
        self._parts.append(f'<text x="{_num(x)}" y="{_num(y)}"{where} class="{cls}"{fitted}>{text_of(shown)}</text>')

    def lines(self, x: float, y: float, lines: list[str], cls: str, anchor: str = "start", room: float = 0, leading: float = 12) -> None:
        """A text already `broken` into lines, the first at `y`, each `leading` under the one above, all
        at one size: the size the widest needs to fit `room` (a name does not change size halfway)."""
        where = "" if anchor == "start" else f' text-anchor="{anchor}"'
        size = min(_shrunk(line, cls, room, self.smallest) for line in lines)
        for i, line in enumerate(lines):
            fitted = _fitted(line, cls, room, self.smallest, size)
            self._parts.append(f'<text x="{_num(x)}" y="{_num(y + i * leading)}"{where} class="{cls}"{fitted}>{text_of(line)}</text>')

    def svg(self) -> str:
        title_id, desc_id = f"{self.key}-title", f"{self.key}-desc"
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_num(self.width)} {_num(self.height)}" '
            f'width="{_num(self.width)}" height="{_num(self.height)}" role="img" aria-labelledby="{title_id} {desc_id}">'
            f'<title id="{title_id}">{text_of(self.title)}</title><desc id="{desc_id}">{text_of(self.desc)}</desc>'
            f"<style>{STYLE}</style>"
            f'<rect width="100%" height="100%" class="paper"/>'
        )
        return head + "".join(self._parts) + "</svg>\n"


def card(d: Drawing, x: float, y: float, colour: str, face: str, tip: str, face_down: bool = False) -> None:
    """A playing card: its colour, its face in words, and a hatched edge when it was played face down."""
    if colour == "back":
        d.rect(x, y, 34, 48, "back", 4, tip)
        return
    d.rect(x, y, 34, 48, f"c-{colour}", 4, tip)
    if face_down:
        d.rect(x + 2, y + 2, 30, 44, "hot", 3)
    ink = "on-black" if colour == "black" else "on-colour"  # Identity's black card: light words on it
    # Within the face-down frame (30 wide) and clear of it: on a narrow board "purple" is squeezed at 10 px, not set at 8.
    d.text(x + 17, y + 20, face, f"{ink} label", "middle", 28)
    d.text(x + 17, y + 38, colour, f"{ink} small", "middle", 28)


HAND_LINE = 9
"""A hand's cards in one line on a narrow board (a wide board has them in one row beside the hand's name)."""


def hand_height(cards: int, narrow: bool) -> float:
    """How tall a hand of `cards` cards draws (see `hand`)."""
    return 56 * (1 + max(0, cards - 1) // HAND_LINE) + 20 if narrow else 56


def hand(d: Drawing, y: float, whose: str, cards: int, narrow: bool, beside: float) -> list[tuple[float, float]]:
    """A hand's name at `y`, and where its cards go: beside the name in one row on a wide board (from
    `beside`), under it in lines of HAND_LINE on a narrow one. Its height is `hand_height`."""
    if not narrow:
        d.text(10, y + 20, whose, "ink label", room=beside - 16)
        return [(beside + i * 38, y) for i in range(cards)]
    d.text(10, y + 14, whose, "ink label", room=d.width - 20)
    return [(10 + i % HAND_LINE * 38, y + 20 + i // HAND_LINE * 56) for i in range(cards)]


SIZES = {"big": (15, True), "label": (12, False), "small": (10, False)}
"""The font of each text class in STYLE: size in px, bold."""

SMALLEST = 8
"""No text of a wide board is set smaller than this (px) to fit: below it, it is squeezed to its room instead."""

NARROW = 360
"""The width of every board's narrow layout (SVG units), the one the report mails, chat posts and forum
links carry and the site shows on a phone. A phone 390 CSS px wide (375 for the smaller ones) shows it
in a box of 343-374 px, so at 0.95-1 of its size: its texts, never below SMALLEST_NARROW, come out at
READABLE or more. The wide layouts (520-780 units) came out at 0.44-0.66 there: 4-6 px labels."""

SMALLEST_NARROW = 10
"""No text of a narrow board is set smaller than this (px, the `small` class's own size) to fit."""

READABLE = 9
"""The smallest a label may come out on a phone's screen, in CSS px (design 18: every label readable);
tests/test_boards_browser.py holds every board a phone is shown to it."""


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide `text` draws in DejaVu Sans at `size` px, a little generously (no kerning counted)."""
    table = fontwidth.BOLD if bold else fontwidth.REGULAR
    last = fontwidth.FIRST + len(table)
    units = sum(table[ord(c) - fontwidth.FIRST] if fontwidth.FIRST <= ord(c) < last else fontwidth.WIDE for c in text)
    return units * size / 1000 * 1.02


def _font(cls: str) -> tuple[float, bool]:
    """The size (px) and boldness of a text of class `cls`."""
    return next((SIZES[c] for c in cls.split() if c in SIZES), SIZES["label"])


def _shrunk(text: str, cls: str, room: float, smallest: float) -> float:
    """The size `text` of class `cls` is set at to fit `room` px: its own, or smaller, but not below `smallest`."""
    size, bold = _font(cls)
    wide = text_width(text, size, bold)
    return size if wide <= room else max(smallest, int(size * room / wide * 2) / 2)  # to half a pixel, so the bytes are stable


def _fitted(text: str, cls: str, room: float, smallest: float, size: float | None = None) -> str:
    """The attributes that make `text` of class `cls` fit `room` px at `size` (by default the largest that
    fits, no smaller than `smallest`), squeezed where it is still too wide: none when it fits as it is."""
    own, bold = _font(cls)
    size = _shrunk(text, cls, room, smallest) if size is None else size
    if size == own and text_width(text, size, bold) <= room:
        return ""
    style = f' style="font-size:{_num(size)}px"'
    if text_width(text, size, bold) <= room:
        return style
    return f'{style} textLength="{_num(room)}" lengthAdjust="spacingAndGlyphs"'


def _pieces(text: str) -> list[tuple[str, str]]:
    """Where `text` may break: each piece with what joins it to the next (a space between words, nothing
    after a hyphen: "Fitzwilliam-" and "Ashworth" are one word broken where it is joined)."""
    pieces = []
    for word in text.split():
        parts = re.split(r"(?<=-)(?=[^-])", word)
        pieces += [(part, "") for part in parts[:-1]] + [(parts[-1], " ")]
    return pieces


def broken(text: str, cls: str, room: float, most: int = 3) -> list[str]:
    """`text` (a name) in as few lines of class `cls` as set it at its own size within `room`, at most
    `most`, broken between its words or after a hyphen, never inside a word, and as even as they can be.
    Where no way fits, the way whose widest line is the narrowest, so that it shrinks the least."""
    size, bold = _font(cls)
    pieces = _pieces(text)
    ways = []
    for count in range(min(most, len(pieces))):
        for cuts in combinations(range(1, len(pieces)), count):
            bounds = [0, *cuts, len(pieces)]
            lines = ["".join(p + j for p, j in pieces[a:b]).strip() for a, b in zip(bounds, bounds[1:])]
            widest = max(text_width(line, size, bold) for line in lines)
            ways.append(((0, len(lines), widest) if widest <= room else (1, widest, len(lines)), lines))
    return min(ways, key=lambda way: way[0])[1] if ways else [text]


def wrapped(items: list[str], cls: str, room: float, joiner: str = ", ") -> list[str]:
    """`items` joined by `joiner` into lines of class `cls` of at most `room` px, all at its size: a line
    breaks between items (the joiner's comma at its end), and within an item too long for a line of its own
    between its words (`broken`)."""
    size, bold = _font(cls)
    mark = joiner.rstrip()  # it ends a line the list goes on from, so that a list read down the lines stays a list
    room -= text_width(mark, size, bold)  # and has its room in every line
    lines: list[str] = []
    for item in items:
        joined = lines[-1] + joiner + item if lines else item
        if lines and text_width(joined, size, bold) <= room:
            lines[-1] = joined
        else:
            if lines:
                lines[-1] += mark
            lines += broken(item, cls, room, most=4)
    return lines


def legend(d: Drawing, y: float, items: list[tuple[str, str]]) -> None:
    """A key under a board: each mark (a class of `rect`, or `circle:` and a class) with its meaning, in
    as many lines as it takes (the picture grows to hold them)."""
    x = 10
    for mark, meaning in items:
        wide = 16 + text_width(meaning, 10) + 14
        if x > 10 and x + wide > d.width - 10:
            x, y = 10, y + 16
        if mark.startswith("circle:"):
            d.circle(x + 5, y - 4, 5, mark.removeprefix("circle:"))
        else:
            d.rect(x, y - 9, 10, 10, mark, 2)
        d.text(x + 16, y, meaning, "muted small", room=d.width - x - 26)
        x += wide
    d.height = max(d.height, y + 10)
