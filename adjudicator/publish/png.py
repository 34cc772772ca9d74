"""Boards as PNG, for the readers that do not show SVG: mail clients, forums, chat services.

The PNG is rendered from the very SVG the site draws, by resvg (through its Python
binding, resvg-py: one self-contained wheel, no system library). The same SVG gives
the same bytes on every run: resvg draws without threads or clocks, and the font is
named here rather than left to whatever the machine lists first, so the picture uses
DejaVu Sans, the font Debian's browsers draw the site's `sans-serif` with (other
scripts fall back to the machine's other fonts). docs/archive.md says why resvg and
not CairoSVG.
"""

from __future__ import annotations

SANS = "DejaVu Sans"
"""The family the pictures' `sans-serif` is drawn with (fonts-dejavu-core, on every Debian with a desktop font)."""

ZOOM = 2
"""Pixels per SVG unit: twice the size, so the small labels stay sharp on a phone's screen."""


def png(svg: str) -> bytes:
    """The PNG of one picture's SVG text, the same bytes every time."""
    import resvg_py  # imported here: only the commands that draw a PNG pay for loading it

    return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=ZOOM, sans_serif_family=SANS, font_family=SANS))
