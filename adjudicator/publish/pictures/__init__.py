"""Each game's pictures for the archive: pure functions from a view to SVG text.

A game's painter draws its board as a player at the table would see it, from the
view it is given: the public view (the site, the public report's mail) or one player's
view (that player's report mail: their hand, identity die, guards, marked as theirs);
after the reveal the same painter draws the whole
state (the public view with the hidden fields laid over it), so what was hidden
shows in the same picture. It also names the number the index's chart follows
over the turns (a score, the tokens, the tricks).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ... import games
from ..svg import Drawing
from . import hide, hidekids, identity, jekyll, secrets

View = dict[str, Any]


@dataclass(frozen=True)
class Painter:
    board: Callable[[View, str], Drawing]
    """The board after a turn, from a view (`key` keeps its ids unique in a page)."""
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

    def board(view: View, key: str) -> Drawing:
        rows = fields(view)
        d = Drawing(660, 30 + 24 * len(rows), f"{game_id} after turn {view.get('turn', '')}", "; ".join(
            f"{p}: " + ", ".join(f"{k} {v}" for k, v in sorted(f.items())) for p, f in rows.items()), key)
        for row, (player, values) in enumerate(rows.items()):
            d.text(10, 40 + 24 * row, view.get("names", {}).get(player, player), "ink label", room=124)
            d.text(140, 40 + 24 * row, ", ".join(f"{k} {v}" for k, v in sorted(values.items())), "muted small", room=510)
        return d

    def standing(view: View) -> dict[str, int]:
        return {p: next((v for v in f.values() if type(v) is int), 0) for p, f in fields(view).items()}

    return Painter(board, standing, "the first number of each player's fields")
