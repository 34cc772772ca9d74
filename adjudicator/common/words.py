"""Counted nouns in the words people read (reports, boards, replies, the command line): one rule for
the singular and the plural, so that no part writes `1 kid tokens`; and a standings value as people
write it, for the GM's table and a player's mail alike."""

from __future__ import annotations

from typing import Any


def noun(count: int, singular: str, many: str | None = None) -> str:
    """The noun for `count` things: `singular` for exactly one, else `many` (default: `singular` + s)."""
    return singular if count == 1 else many or singular + "s"


def plural(count: int, singular: str, many: str | None = None) -> str:
    """`1 order`, `2 orders`, `0 orders`; `1 die`, `3 dice` with `many`."""
    return f"{count} {noun(count, singular, many)}"


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


def headed(labels: dict[str, str], rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The fields `rows` hold, each with its heading: the game's `field_labels` first, in their order, then
    any other in name order, headed by its name in words."""
    present = {k for row in rows for k in row}
    fields = [k for k in labels if k in present] + sorted(present - set(labels))
    return [(k, labels.get(k, k.replace("_", " "))) for k in fields]
