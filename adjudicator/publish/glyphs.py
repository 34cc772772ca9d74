"""The SVG a board's PNG is drawn from: the site's picture, with each text as its glyphs' outlines.

resvg spends most of a board's time on its texts: for every picture it builds its font database,
shapes each text and reads each glyph from the font file anew (docs/performance.md, "Boards in
the report mails"). Here each `<text>` is shaped by HarfBuzz (uharfbuzz, the engine that resvg's
own shaper, rustybuzz, is a port of: the same kerning, ligatures and marks) in the same DejaVu Sans
files, and replaced by one `<path>` of its glyphs' outlines, each glyph read once per process.
What resvg then draws is what it drew from the text, to a fraction of a pixel.

Also dropped, as a PNG cannot use them: titles and descriptions (for screen readers and pointers)
and `@media` rules (resvg ignores them: a PNG has no colour scheme; same bytes with or without).

A text this cannot draw stays a `<text>` for resvg: a character DejaVu Sans lacks (another
script, which resvg finds in the machine's other fonts), a class without a font size in
publish/svg.py's SIZES, children (`<tspan>`), a style other than the `font-size` that svg.py
writes, or any attribute svg.py does not write. So does every text when the font files are
missing.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import uharfbuzz

from .svg import SIZES

FONTS = Path("/usr/share/fonts/truetype/dejavu")
"""Debian's fonts-dejavu-core: DejaVu Sans, the family publish/png.py names to resvg."""

SVG = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG)  # written back as the SVG's default namespace, not as `ns0:`

_DROPPED = {f"{{{SVG}}}title", f"{{{SVG}}}desc"}
_MEDIA = re.compile(r"@media[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}")
_FONT_SIZE = re.compile(r"font-size:(\d+(?:\.\d+)?)px")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_LAID_OUT_HERE = {"x", "y", "text-anchor", "class", "style", "textLength", "lengthAdjust"}
"""The attributes of a text that svg.py writes and this layout follows; a text with any other
(`dx`, `rotate`, a transform, a `font-weight`) is left to resvg."""
_SHIFT = {"start": 0.0, "middle": 0.5, "end": 1.0}
"""How much of its width a text's `text-anchor` moves it to the left."""


def outlined(svg: str) -> str:
    """The picture `svg` as a PNG shows it, with every text it can draw as a path (see above)."""
    root = ET.fromstring(svg)
    for parent in list(root.iter()):  # listed first: the loop replaces elements
        kept = []
        for child in parent:
            if child.tag in _DROPPED:
                continue
            if child.tag == f"{{{SVG}}}style" and child.text:
                child.text = _MEDIA.sub("", child.text)
            path = _path(child) if child.tag == f"{{{SVG}}}text" else None
            kept.append(child if path is None else path)
        parent[:] = kept
    return ET.tostring(root, encoding="unicode")


def _path(text: ET.Element) -> ET.Element | None:
    """One text as the path of its glyphs, in its class's fill; None where resvg must draw it itself."""
    classes = text.get("class", "").split()
    font = next((SIZES[name] for name in classes if name in SIZES), None)
    style = text.get("style")
    fitted = _FONT_SIZE.fullmatch(style) if style else None
    where = (text.get("x", "0"), text.get("y", "0"), text.get("textLength", "0"))
    if font is None or len(text) or (style and not fitted) or not set(text.attrib) <= _LAID_OUT_HERE \
            or not all(_NUMBER.fullmatch(number) for number in where) or not _font_files_present():
        return None
    size, bold = (float(fitted.group(1)) if fitted else font[0]), font[1]
    shaped = _shape(text.text or "", bold)
    if shaped is None:
        return None
    outline, advance = shaped
    scale = size / _face(bold).upem
    across = scale  # stretched or squeezed to `textLength` (svg.py's last resort: `spacingAndGlyphs`)
    width = advance * scale
    if float(where[2]) and advance:
        width = float(where[2])
        across = width / advance
    x = float(where[0]) - width * _SHIFT.get(text.get("text-anchor", "start"), 0.0)
    y = float(where[1])
    return ET.Element(f"{{{SVG}}}path", {
        "class": text.get("class", ""),
        "transform": f"matrix({_exact(across)} 0 0 {_exact(-scale)} {_exact(x)} {_exact(y)})",
        "d": outline,
    })


def _shape(words: str, bold: bool) -> tuple[str, int] | None:
    """The outlines of `words` laid out by HarfBuzz, in font units from the origin, and their advance;
    None when a character is not in the font."""
    buffer = uharfbuzz.Buffer()
    buffer.add_str(words)
    buffer.guess_segment_properties()
    uharfbuzz.shape(_font(bold), buffer)
    parts, pen = [], 0
    for glyph, position in zip(buffer.glyph_infos, buffer.glyph_positions):
        if glyph.codepoint == 0:  # .notdef: the font has no glyph for it
            return None
        start, rest = _glyph(bold, glyph.codepoint)
        if rest:
            parts.append(f"M{_num(pen + position.x_offset + start[0])} {_num(position.y_offset + start[1])}{rest}")
        pen += position.x_advance
    return "".join(parts), pen


@cache
def _glyph(bold: bool, gid: int) -> tuple[tuple[float, float], str]:
    """One glyph's outline: its first point, and the rest of its path relative to it (so that one
    string serves every place the glyph is drawn; only the first move is written for each)."""
    pen = _RelativePen()
    _font(bold).draw_glyph_with_pen(gid, pen)
    return pen.first, "".join(pen.parts)


class _RelativePen:
    """Receives a glyph's outline from HarfBuzz (the fontTools pen protocol) as relative SVG path commands."""

    def __init__(self) -> None:
        self.first: tuple[float, float] = (0.0, 0.0)
        self.parts: list[str] = []
        self._contour: tuple[float, float] | None = None  # the start of the current contour
        self._at: tuple[float, float] = (0.0, 0.0)

    def _rel(self, *points: tuple[float, float]) -> str:
        return " ".join(f"{_num(x - self._at[0])} {_num(y - self._at[1])}" for x, y in points)

    def moveTo(self, point: tuple[float, float]) -> None:  # noqa: N802 (the pen protocol's names)
        if self._contour is None:
            self.first = point
        else:
            self.parts.append(f"m{_num(point[0] - self._contour[0])} {_num(point[1] - self._contour[1])}")
        self._contour = self._at = point

    def lineTo(self, point: tuple[float, float]) -> None:  # noqa: N802
        self.parts.append(f"l{self._rel(point)}")
        self._at = point

    def qCurveTo(self, control: tuple[float, float], point: tuple[float, float]) -> None:  # noqa: N802
        self.parts.append(f"q{self._rel(control, point)}")
        self._at = point

    def curveTo(self, first: tuple[float, float], second: tuple[float, float], point: tuple[float, float]) -> None:  # noqa: N802
        """Cubic curves (fonts with CFF outlines; TrueType's DejaVu has none, but HarfBuzz asks every pen for it)."""
        self.parts.append(f"c{self._rel(first, second, point)}")
        self._at = point

    def closePath(self) -> None:  # noqa: N802
        self.parts.append("z")
        self._at = self._contour or self._at


def _num(value: float) -> str:
    """Font units: whole, or halves where HarfBuzz puts an implied point midway (exact either way)."""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def _exact(value: float) -> str:
    """A transform's number, the same text every run, far finer than a pixel."""
    return f"{value:.9g}"


@cache
def _font_files_present() -> bool:
    return all(_file(bold).is_file() for bold in (False, True))


def _file(bold: bool) -> Path:
    return FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")


@cache
def _face(bold: bool) -> uharfbuzz.Face:
    return uharfbuzz.Face(_file(bold).read_bytes())


@cache
def _font(bold: bool) -> uharfbuzz.Font:
    """The font at its own units (the default scale: its units per em), so every position is whole."""
    return uharfbuzz.Font(_face(bold))
