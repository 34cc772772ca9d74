"""Each game's pictures for the archive: pure functions from a view to SVG text.

A game's painter draws its board as a player at the table would see it, from the
view it is given: the public view (the site, the public report's mail) or one player's
view (that player's report mail: their hand, identity die, guards, marked as theirs);
after the reveal the same painter draws the whole
state (the public view with the hidden fields laid over it), so what was hidden
shows in the same picture. It also names the number the index's chart follows
over the turns (a score, the tokens, the tricks).

Every board has two layouts of the same content and legend: the wide one (520-780 units, for a
desktop's page) and the narrow one (svg.NARROW units, its rows wrapped), which a phone shows at about
its own size, so that every label reads there without zooming: the report mails, the chat posts
and the forum's link carry it, and the site shows it on a narrow screen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ... import games
from ..svg import NARROW, Drawing
from . import hide, hidekids, identity, jekyll, secrets

View = dict[str, Any]


@dataclass(frozen=True)
class Painter:
    board: Callable[..., Drawing]
    """`board(view, key, narrow=False)`: the board after a turn, from a view (`key` keeps its ids unique
    in a page), in its wide layout or its narrow one."""
    standing: Callable[[View], dict[str, int]]
    """The number per player that the standings chart follows."""
    standing_label: str
    """What that number is, in the game's words."""


PAINTERS: dict[str, Painter] = {
    "secrets": Painter(secrets.board, secrets.standing, "score"),
    "identity": Painter(identity.board, identity.standing, "score"),
    "hide": Painter(hide.board, hide.standing, "ranks on the hideout"),
    "hidekids": Painter(hidekids.board, hidekids.standing, "pebbles (kids) and kid tokens (wolf)"),
    "jekyll": Painter(jekyll.board, jekyll.standing, "marker spaces from the opponent's end"),
}


def painter(game_id: str) -> Painter:
    """The game's own painter; a game without one (a new game, before its pictures are drawn)
    gets a plain one: each player's `pbem show` fields, written out (docs/adding-a-game.md)."""
    if game_id in PAINTERS:
        return PAINTERS[game_id]
    fields = games.get(game_id).player_fields

    def board(view: View, key: str, narrow: bool = False) -> Drawing:
        rows = fields(view)
        # The narrow board: each player's fields on the line under their name.
        step, x, width = (38, 10, NARROW) if narrow else (24, 140, 660)
        d = Drawing(width, 30 + step * len(rows), f"{game_id} after turn {view.get('turn', '')}", "; ".join(
            f"{p}: " + ", ".join(f"{k} {v}" for k, v in sorted(f.items())) for p, f in rows.items()), key)
        for row, (player, values) in enumerate(rows.items()):
            d.text(10, 40 + step * row, view.get("names", {}).get(player, player), "ink label", room=width - 20 if narrow else 124)
            d.text(x, 40 + step * row + 14 * narrow, ", ".join(f"{k} {v}" for k, v in sorted(values.items())), "muted small", room=width - x - 10)
        return d

    def standing(view: View) -> dict[str, int]:
        return {p: next((v for v in f.values() if type(v) is int), 0) for p, f in fields(view).items()}

    return Painter(board, standing, "the first number of each player's fields")
