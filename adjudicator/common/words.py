"""Counted nouns in the words people read (reports, boards, replies, the command line): one rule for
the singular and the plural, so that no part writes `1 kid tokens`."""

from __future__ import annotations


def noun(count: int, singular: str, many: str | None = None) -> str:
    """The noun for `count` things: `singular` for exactly one, else `many` (default: `singular` + s)."""
    return singular if count == 1 else many or singular + "s"


def plural(count: int, singular: str, many: str | None = None) -> str:
    """`1 order`, `2 orders`, `0 orders`; `1 die`, `3 dice` with `many`."""
    return f"{count} {noun(count, singular, many)}"
