"""The players' table of `pbem show` and of the demo's final standings: the fields of
`pbem show --json`, headed in the game's own words, values as people write them, fitted
to the terminal."""

from __future__ import annotations

from typing import Any


def standings(game: Any, data: dict[str, Any], names: dict[str, str], title: str, width: int) -> Any:
    """A rich table of `data["players"]` (show_json's) fitted to `width` columns: a row per
    player, or, when that is too wide, a row per field with a column per player."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    labels: dict[str, str] = dict(game.field_labels)
    present = {k for row in data["players"].values() for k in row}
    fields = [k for k in labels if k in present] + sorted(present - set(labels))
    heads = [labels.get(k, k.replace("_", " ")) for k in fields]
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


def cell(value: Any) -> str:
    """A value as a person writes it: yes/no, a dash for nothing, lists separated by commas."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(cell, value)) or "-"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {cell(v)}" for k, v in value.items()) or "-"
    return str(value)
