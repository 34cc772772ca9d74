"""Who beats whom: the suit ranking the colours fix as they are played, and the winner of a trick under it."""

from __future__ import annotations

from .cards import COLOURS, colour, is_potion, number, strength


def rank_colours(ranking: list[str], played: list[str]) -> list[str]:
    """Each colour takes the lowest free place as it first appears; the second fixes the third (JEKYLL-8)."""
    ranking = list(ranking)
    for card in played:
        c = colour(card)
        if c is None or c in ranking:
            continue
        ranking.append(c)
        if len(ranking) == 2:
            ranking.append(next(x for x in COLOURS if x not in ranking))
    return ranking


def lead_wins(lead: str, follow: str, ranking: list[str]) -> bool:
    """Who takes the trick, given the ranking after both cards were placed (JEKYLL-9, JEKYLL-10)."""
    if is_potion(lead) or is_potion(follow):
        return strength(lead) > strength(follow)
    if colour(lead) == colour(follow):
        return number(lead) > number(follow)
    return ranking.index(colour(lead)) > ranking.index(colour(follow))  # type: ignore[arg-type]

