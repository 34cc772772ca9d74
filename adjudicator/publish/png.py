"""Boards as PNG, for the readers that do not show SVG: mail clients, forums, chat services.

The PNG is rendered from the very SVG the site draws, by resvg (through its Python
binding, resvg-py: one self-contained wheel, no system library). The same SVG gives
the same bytes on every run: resvg draws without threads or clocks, and the font is
named here rather than left to whatever the machine lists first, so the picture uses
DejaVu Sans, the font Debian's browsers draw the site's `sans-serif` with (other
scripts fall back to the machine's other fonts). docs/archive.md says why resvg and
not CairoSVG.

resvg is handed the SVG with each text already as its glyphs' outlines (publish/glyphs.py:
the same pixels, without resvg building its font database and shaping every text anew for
every picture). A PNG still costs tens of milliseconds of CPU (filling the glyphs and shapes,
and the pixels themselves), so each distinct board is drawn once per process: the public
board of a turn serves the public report's mail and every `judge: notify:` post of the
same tick, and a player's board every message that carries it. docs/performance.md has
the figures.
"""

from __future__ import annotations

from functools import lru_cache

SANS = "DejaVu Sans"
"""The family the pictures' `sans-serif` is drawn with (fonts-dejavu-core, on every Debian with a desktop font)."""

ZOOM = 1.5
"""Pixels per SVG unit. The mails carry the narrow board (360 units), which a phone shows at about
its own size: 540 pixels for 360 CSS px, a little soft on a phone of 2 to 3 device pixels to a CSS
px, but every label at 9.5 CSS px or more, where the wide board (780-1170 pixels) came out at 4-6;
2 would be sharp on a 2x phone for about a third more CPU (docs/performance.md, "Boards in the
report mails")."""

KEPT = 64
"""Boards kept drawn in one process: every board of a turn of the largest table (8 seats and the
public) several times over, so a tick's public board is still there for its notify posts."""


@lru_cache(maxsize=KEPT)
def png(svg: str) -> bytes:
    """The PNG of one picture's SVG text, the same bytes every time (drawn once per process, see above)."""
    import resvg_py  # imported here: only the commands that draw a PNG pay for loading them

    from .glyphs import outlined

    return bytes(resvg_py.svg_to_bytes(svg_string=outlined(svg), zoom=ZOOM, sans_serif_family=SANS, font_family=SANS))
