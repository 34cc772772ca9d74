"""The stand-in of Jekyll vs Hyde: play to the side's goal, Jekyll to even the tricks, Hyde to widen the gap.

Before each trick the stand-in decides whether it wants to take it: Dr. Jekyll wants
the round's trick counts even (he takes a trick when behind, gives one away when ahead),
Mr. Hyde wants them far apart (he takes tricks while ahead or level, gives them away
when behind, since a lopsided round helps him whichever way it leans). Leading, it tries
each card (and, for a potion, each colour to name) against hands the opponent may hold,
drawn from the cards it has not seen, and leads the one most likely to get what it
wants. Following, it lists its cards strongest first when it wants the trick and weakest
first (potions last, since a potion beats the low cards of a colour) when it does not.
It expects the opponent to follow for their own side's goal (RATIONAL), not at random.
While it gives tricks away it orders ahead (JEKYLL-20) for as many tricks as that cannot
change, with the list it would follow with; while it wants tricks it orders one at a time,
since the lead that takes one is judged from the tricks just played. In the exchanges it keeps its potions and gives its lowest
colour cards, giving a potion only when the rule makes it. Only the seat's own view is read. docs/standins.md.
"""

from __future__ import annotations

from typing import Any

from ...common.rng import Stream
from ..base import View
from .cards import COLOURS, DECK, TRICKS, colour, is_potion, low_order, strength
from .ranking import lead_wins, rank_colours
from .tricks import legal_follows

SAMPLES = 24
"""Opponent hands tried for each possible lead."""
RATIONAL = 0.8
"""How far the stand-in expects the opponent to follow for their own side's goal rather than at random."""


def orders(view: View, player: str, stream: Stream) -> list[Any]:
    hand = list(view["hand"])
    if view["phase"] == "exchange":
        return [{"give": card} for card in _gifts(hand, view["exchange_count"], potion_rule=True)]
    if view["phase"] == "greed":
        return [{"give": card} for card in _gifts(hand, view["greed"]["count"], potion_rule=False)]
    want = _wants_trick(view, player)
    order: dict[str, Any] = {"trick": view["trick"]}
    if view["leader"] == player:
        card, name = _lead(view, player, hand, want, stream)
        order["play"] = [card]
        if name is not None:
            order["name"] = name
    else:
        order["play"] = _follow_list(view, hand, want)
    order["greed"] = _gifts(hand, 3, potion_rule=False)  # in case the trick calls a Greed exchange
    orders = [order]
    # Ahead (JEKYLL-20), while the seat gives tricks away: for as many tricks as it will not
    # want one whatever happens, the list that best sheds them whether it leads or follows (a
    # lead is the first card of the list still held). Shedding hardly depends on the cards not
    # yet seen. Taking a trick does: the lead that takes it is chosen against the opponent's
    # possible hands as the tricks before reveal them, and a list written turns ahead leads
    # worse (Mr. Hyde won 3 to 7 points less often in bench/standins.py), so while the seat
    # wants tricks it orders one at a time.
    ahead = 1 if want else min(_wants_hold(view, player), TRICKS - view["trick"] + 1, len(hand))
    listed = order["play"] if view["leader"] != player else _follow_list(view, hand, want)
    for k in range(1, ahead):
        orders.append({"trick": view["trick"] + k, "play": list(listed), "name": _named(hand),
                       "greed": list(order["greed"])})
    return orders


def _wants_hold(view: View, player: str) -> int:
    """For how many tricks from the pending one what the seat wants holds, however they fall."""
    opponent = next(p for p in view["players"] if p != player)
    lead = view["tricks_won"][player] - view["tricks_won"][opponent]
    if view["roles"][player] == "jekyll":  # wants a trick while behind: behind by d holds d tricks
        return -lead if lead < 0 else lead + 1
    return lead + 1 if lead >= 0 else -lead  # Hyde: wants while ahead or level


def _named(hand: list[str]) -> str:
    """The colour to name with a potion led from a list: the one the seat holds most of."""
    held = [colour(c) for c in hand if not is_potion(c)]
    return max(COLOURS, key=lambda named: sum(h == named for h in held))


def _gifts(hand: list[str], count: int, potion_rule: bool) -> list[str]:
    """The lowest colour cards; the lowest potion first when two or more potions oblige one (JEKYLL-13)."""
    potions = sorted((c for c in hand if is_potion(c)), key=low_order)
    colours = sorted((c for c in hand if not is_potion(c)), key=low_order)
    first = potions[:1] if potion_rule and len(potions) >= 2 else []
    rest = [c for c in colours + potions if c not in first]
    return (first + rest)[:count]


def _wants_trick(view: View, player: str) -> bool:
    opponent = next(p for p in view["players"] if p != player)
    mine, theirs = view["tricks_won"][player], view["tricks_won"][opponent]
    if view["roles"][player] == "jekyll":
        return mine < theirs
    return mine >= theirs


def _follow_list(view: View, hand: list[str], want: bool) -> list[str]:
    """Of a few ways to order the hand, the one that most often gets what the seat wants against any lead."""
    known, pool = _unseen(view, hand)
    leads = [(lead, name) for lead in known + pool for name in (COLOURS if is_potion(lead) else (None,))]
    rank = {c: i for i, c in enumerate(view["ranking"])}
    colours = sorted((c for c in hand if not is_potion(c)), key=low_order)
    potions = sorted((c for c in hand if is_potion(c)), key=low_order)
    candidates = [
        sorted(hand, key=low_order, reverse=True),  # strongest first
        colours + potions,  # weakest colour cards first, potions last
        sorted(hand, key=lambda c: (rank.get(c.rstrip("0123456789"), 3 if not is_potion(c) else 4), strength(c)), reverse=True),
        sorted(hand, key=lambda c: (rank.get(c.rstrip("0123456789"), -1 if not is_potion(c) else 4), strength(c))),
    ]
    best: tuple[float, list[str]] | None = None
    for listed in candidates:
        won = 0.0
        for lead, name in leads:
            legal = legal_follows(hand, lead, name)
            follow = next(c for c in listed if c in legal)
            won += not lead_wins(lead, follow, rank_colours(view["ranking"], [lead, follow]))
        score = won / len(leads) if want else 1 - won / len(leads)
        if best is None or score > best[0]:
            best = (score, listed)
    assert best is not None
    return best[1]


def _unseen(view: View, hand: list[str]) -> tuple[list[str], list[str]]:
    """(cards the opponent surely holds, cards that may be theirs or set aside) as the seat knows them."""
    played = {c for record in view["played"] for c in (record["lead"], record["follow"])}
    given = [g["card"] for g in view["gave"] if g["card"] not in played]
    pool = [c for c in DECK if c not in hand and c not in played and c not in given]
    return given, pool


def _lead(view: View, player: str, hand: list[str], want: bool, stream: Stream) -> tuple[str, str | None]:
    opponent = next(p for p in view["players"] if p != player)
    known, pool = _unseen(view, hand)
    size = view["hand_counts"][opponent]
    hands = []
    for _ in range(SAMPLES):
        shuffled = list(pool)
        stream.shuffle(shuffled)
        hands.append(known + shuffled[: max(0, size - len(known))])
    best: tuple[tuple[float, int], str, str | None] | None = None
    for card in hand:
        for name in (COLOURS if is_potion(card) else (None,)):
            chance = sum(_wins_against(view, card, name, h) for h in hands) / len(hands)
            # Equally good leads: the weaker card when taking the trick (the strong ones are kept
            # for later), the stronger when giving it away (shed while it loses).
            key = (chance if want else 1 - chance, -strength(card) if want else strength(card))
            if best is None or key > best[0]:
                best = (key, card, name)
    assert best is not None  # the leader holds a card
    return best[1], best[2]


def _wins_against(view: View, lead: str, named: str | None, opponent_hand: list[str]) -> float:
    """The chance the lead takes the trick when the opponent follows with any legal card alike."""
    if not opponent_hand:
        return 1.0
    legal = legal_follows(opponent_hand, lead, named)
    wins = [lead_wins(lead, follow, rank_colours(view["ranking"], [lead, follow])) for follow in legal]
    # The opponent is not random: they follow to get what their side wants, as far as
    # their cards let them (mostly: a player may misjudge, so a little of chance stays).
    theirs = next(p for p in view["players"] if p != view["player"])
    rational = float(all(wins)) if _wants_trick(view, theirs) else float(any(wins))
    return RATIONAL * rational + (1 - RATIONAL) * sum(wins) / len(wins)
