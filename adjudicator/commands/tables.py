"""The players' table of `pbem show` and of the demo's final standings: the fields of
`pbem show --json`, headed in the game's own words, values as people write them, fitted
to the terminal."""

from __future__ import annotations

from typing import Any

from ..common.words import cell, headed


def standings(game: Any, data: dict[str, Any], names: dict[str, str], title: str, width: int) -> Any:
    """A rich table of `data["players"]` (show_json's) fitted to `width` columns: a row per
    player, or, when that is too wide, a row per field with a column per player."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    pairs = headed(dict(game.field_labels), list(data["players"].values()))
    fields, heads = [k for k, _ in pairs], [head for _, head in pairs]
    players = list(data["players"])
    who = [names.get(p, p) + (" (winner)" if p in data["winners"] else "") for p in players]
    rows = [[cell(data["players"][p].get(k)) for k in fields] for p in players]

    def table(header: list[str], body: list[list[str]]) -> Table:
        made = Table(title=escape(title))
        for text in header:
            made.add_column(escape(text), overflow="fold")
        for row in body:
            made.add_row(*map(escape, row))
        return made

    wide = table(["player", *heads], [[name, *row] for name, row in zip(who, rows)])
    if Console(width=10_000).measure(wide).maximum <= width:
        return wide
    return table(["", *who], [[head, *(row[i] for row in rows)] for i, head in enumerate(heads)])

