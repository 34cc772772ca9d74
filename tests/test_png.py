"""Boards as PNG (publish/png.py), drawn from the site's SVG with each text as its glyphs' outlines
(publish/glyphs.py): the picture a player sees does not change, only what resvg has to do for it."""

from __future__ import annotations

from pathlib import Path

import pytest
import resvg_py

from adjudicator.campaign.demo import play
from adjudicator.games import GAMES
from adjudicator.publish import png
from adjudicator.publish.glyphs import outlined
from adjudicator.publish.pictures import painter
from adjudicator.publish.svg import Drawing, card
from pngpixels import pixels


def resvgs_own(svg: str) -> bytes:
    """The PNG resvg draws from the SVG as the site has it, texts and all (what publish/png.py drew before)."""
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=png.ZOOM, sans_serif_family=png.SANS, font_family=png.SANS))


def fresh_png(svg: str) -> bytes:
    png.png.cache_clear()
    return png.png(svg)


def test_texts_drawn_as_outlines_give_the_very_pixels_resvg_draws_from_the_texts() -> None:
    picture = Drawing(360, 150, "Every kind of text a board writes", "anchors, sizes, bold, kerning, accents", "t")
    picture.rect(4, 4, 80, 30, "tile", 3, tip="a tile with a pointer's tip")
    picture.text(10, 22, "Ångström & <Zoë> fi AVATAR To Wa", "ink label")
    picture.text(180, 50, "Dmitri steals", "mark big", "middle")
    picture.text(350, 72, "captured: 7 by Esther", "muted small", "end")
    picture.text(180, 96, "a caption a little too long for its box", "ink label", "middle", room=190)
    card(picture, 10, 100, "pink", "Hyde", "Hyde, pink")
    svg = picture.svg()
    prepared = outlined(svg)
    assert "<text" not in prepared and prepared.count("<path") == 6, "every text, the card's two too, is a path"
    assert "<title" not in prepared and "<desc" not in prepared and "@media" not in prepared, "nothing a PNG cannot show"
    assert "font-size:" in svg.split("a caption")[0].rsplit("<text", 1)[1], "the fitted text is set smaller, and drawn so"
    assert pixels(fresh_png(svg)) == pixels(resvgs_own(svg))


def test_a_text_squeezed_to_its_room_is_drawn_within_a_shade_of_resvgs_own() -> None:
    picture = Drawing(120, 60, "Squeezed", "svg.py's last resort: textLength", "t")
    picture.text(60, 30, "a submarine's berth", "on-colour small", "middle", room=34)
    svg = picture.svg()
    assert 'lengthAdjust="spacingAndGlyphs"' in svg and "<text" not in outlined(svg)
    width, height, ours = pixels(fresh_png(svg))
    theirs = pixels(resvgs_own(svg))
    assert (width, height) == theirs[:2]
    shades = [abs(a - b) for a, b in zip(ours, theirs[2])]
    assert max(shades) <= 24 and sum(shades) / len(shades) < 0.05, "resvg spreads squeezed glyphs a hair differently"


def test_a_name_beyond_dejavu_stays_a_text_for_resvg_to_find_a_font_for() -> None:
    picture = Drawing(200, 50, "Names", "one in a script DejaVu Sans does not have", "t")
    picture.text(10, 20, "Ωmega", "ink label")
    picture.text(10, 40, "名前", "ink label")
    svg = picture.svg()
    prepared = outlined(svg)
    assert prepared.count("<text") == 1 and "名前</text>" in prepared, "Greek is in DejaVu; the Japanese name is not"
    assert pixels(fresh_png(svg)) == pixels(resvgs_own(svg))


def test_every_games_board_has_every_text_outlined_and_draws_the_same_bytes_each_time(tmp_path: Path) -> None:
    for game_id in sorted(GAMES):
        campaign = play(tmp_path / game_id, game_id, seed="png-1", players=2 if game_id == "jekyll" else 5, passwords=False)
        state = campaign.state(2)
        svg = painter(game_id).board(campaign.game.view(state, state["players"][0]), "board-2").svg()
        assert "<text" not in outlined(svg), game_id
        assert fresh_png(svg) == fresh_png(svg), f"{game_id}: the same SVG, the same bytes"


def test_without_the_dejavu_files_every_text_is_left_for_resvg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator.publish import glyphs

    picture = Drawing(200, 40, "Names", "a host without fonts-dejavu-core", "t")
    picture.text(10, 20, "Alice", "ink label")
    monkeypatch.setattr(glyphs, "FONTS", tmp_path / "no-fonts")
    glyphs._font_files_present.cache_clear()
    try:
        prepared = outlined(picture.svg())
    finally:
        glyphs._font_files_present.cache_clear()
    assert prepared.count("<text") == 1 and "<path" not in prepared, "the text as it was: resvg draws it in whatever font it finds"


def test_a_text_laid_out_in_ways_svg_py_never_writes_is_left_for_resvg() -> None:
    svg = Drawing(200, 60, "Odd texts", "by hand", "t").svg().replace("</svg>", (
        '<text x="10" y="20" class="ink label" rotate="30">turned</text>'
        '<text x="10 20" y="40" class="ink label">two places</text>'
        '<text x="10" y="50" class="ink label"><tspan>spanned</tspan></text>'
        '<text x="90" y="50" class="ink label">plain</text></svg>'))
    prepared = outlined(svg)
    assert prepared.count("<text") == 3 and prepared.count("<path") == 1
    assert pixels(fresh_png(svg)) == pixels(resvgs_own(svg))
