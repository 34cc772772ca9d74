"""The stand-in of Jekyll vs Hyde: play to the side's goal, Jekyll to even the tricks, Hyde to widen the gap.

Before each trick the stand-in decides whether it wants to take it: Dr. Jekyll wants
the round's trick counts even (he takes a trick when behind, gives one away when ahead),
Mr. Hyde wants them far apart: a lopsided round helps him whichever way it leans, so he
takes tricks while ahead or level and gives them away when behind, the count leaning by
the strength of his hand (a strong hand goes on taking a trick or two behind, a weak one
sheds a trick or two ahead). Leading, it tries each card (and, for a potion, each colour
to name) against hands the opponent may hold, drawn from the cards it has not seen, and
leads the one most likely to get what it wants. Following, it picks the ordering of its
hand that most often gets what it wants against the leads it has not seen. It expects the
opponent to follow for their own side's goal (RATIONAL), not at random. It orders every
trick to the round's end (JEKYLL-20), each judged the same way on the round as it imagines
it after the earlier ones (each going a way drawn by its chance). In the exchanges it keeps its
potions (giving one only when the rule makes it) and gives the colour cards that make the hands
what its side wants: Mr. Hyde his lowest when he takes tricks and his highest when he sheds them,
Dr. Jekyll those nearest the middle. Only the seat's own view is read. docs/standins.md.
"""

from __future__ import annotations

from typing import Any, Literal

from ...common.rng import Stream
from ..base import View
from .cards import COLOURS, DECK, TRICKS, colour, is_potion, low_order, strength
from .ranking import lead_wins, rank_colours
from .tricks import legal_follows

Lead = tuple[str, str | None, list[str]]
"""A lead the opponent may make, the colour named if it is a potion, and the cards that may follow it."""
SAMPLES = 24
"""Opponent hands tried for each possible lead."""
LEAN = 10.0
"""Mr. Hyde's lean in tricks is LEAN times (the share of the other cards his hand beats less a half): 0 (the
count alone) let the counter-Jekyll of bench/counters.py win 52.5% of 400 games, 10 45.2%, 20 47.8%."""
RATIONAL = 0.8
"""How far the stand-in expects the opponent to follow for their own side's goal rather than at random."""
MIDDLE = strength("purple4")
"""The middle of a colour's strengths: Dr. Jekyll gives the colour cards nearest it at a round's exchange."""
Giving = Literal["weakest", "strongest", "middle"]
"""Which colour cards a seat gives first in an exchange (`_giving`)."""


def orders(view: View, player: str, stream: Stream) -> list[Any]:
    hand = list(view["hand"])
    if view["phase"] in ("exchange", "greed"):
        exchange = view["phase"] == "exchange"
        count = view["exchange_count"] if exchange else view["greed"]["count"]
        return [{"give": card} for card in _gifts(hand, count, potion_rule=exchange, giving=_giving(view, player))]
    # Ahead (JEKYLL-20) to the round's end, so the seat never holds the campaign to one trick a
    # turn (design 19). Each later trick's order is judged like the pending one's, on the round as
    # the seat imagines it after the earlier ones: each trick going a way drawn by its chance, its
    # card gone from its hand. Ordered-ahead tricks are played only while the opponent ordered
    # them too, so against one trick a turn they cost nothing; the pending trick's order is the
    # same as ordering one trick a turn.
    plan = []
    imagined = view
    for _ in range(max(1, min(TRICKS - view["trick"], len(hand) - 1))):  # the last trick plays itself (JEKYLL-22)
        order, imagined = _trick_order(imagined, player, stream, hand)
        plan.append(order)
    return plan


def _trick_order(view: View, player: str, stream: Stream, held: list[str]) -> tuple[dict[str, Any], View]:
    """The order for the view's pending trick, and the view the seat imagines after it. `held`: the
    seat's hand now, every card of which its list names (below)."""
    hand = list(view["hand"])
    want = _wants_trick(view, player)
    order: dict[str, Any] = {"trick": view["trick"]}
    leads = _unseen_leads(view, hand)
    listed, got = _follow_list(view, hand, want, leads)  # got: the chance it gets what it wants
    if view["leader"] == player:
        card, name, got = _lead(view, player, hand, want, stream)
        # The lead first: if the seat follows after all (an earlier trick went otherwise), the
        # card it meant to lead with is the first it plays if it may.
        order["play"] = [card] + [c for c in listed if c != card]
        spent = card
    else:
        order["play"], name = listed, None
        spent = _likely_follow(listed, leads)
    # A later trick's list is judged on an imagined hand; should the real play keep a card it imagined
    # spent, the list still names it (strongest first to take, weakest first to give), so it never runs
    # dry into the lowest card (JEKYLL-19) that a player who reads their report would call careless.
    order["play"] += [c for c in sorted(held, key=low_order, reverse=want) if c not in order["play"]]
    # A name for a potion led from the list too, if an earlier trick makes the seat the leader.
    order["name"] = name if name is not None else _named(hand)
    order["greed"] = _gifts(hand, 3, potion_rule=False, giving=_giving(view, player))  # in case the trick calls a Greed exchange
    # The round as imagined goes on from an outcome drawn by its chance (the trick is the seat's with
    # chance `got` if it wants it, 1 - `got` if not). Always the likelier outcome did worse for
    # Mr. Hyde among random players (docs/standins.md).
    takes = got if want else 1 - got
    return order, _after(view, player, spent, stream.below(1000) < 1000 * takes)


def _after(view: View, player: str, spent: str, won: bool) -> View:
    """The view after the pending trick as the seat imagines it: `spent` played, the trick won or given."""
    opponent = next(p for p in view["players"] if p != player)
    winner = player if won else opponent
    imagined = dict(view)
    imagined["hand"] = [c for c in view["hand"] if c != spent]
    imagined["spent"] = [*view.get("spent", []), spent]
    imagined["hand_counts"] = {p: n - 1 for p, n in view["hand_counts"].items()}
    imagined["tricks_won"] = {p: n + (p == winner) for p, n in view["tricks_won"].items()}
    imagined["leader"] = winner
    imagined["trick"] = view["trick"] + 1
    imagined["ranking"] = rank_colours(view["ranking"], [spent])
    return imagined


def _likely_follow(listed: list[str], leads: list[Lead]) -> str:
    """The card of the follow list played against the most of the leads the seat has not seen."""
    played = [next(c for c in listed if c in legal) for _, _, legal in leads]
    return max(listed, key=played.count) if played else listed[0]


def _named(hand: list[str]) -> str:
    """The colour to name with a potion led from a list: the one the seat holds most of."""
    held = [colour(c) for c in hand if not is_potion(c)]
    return max(COLOURS, key=lambda named: sum(h == named for h in held))


def _gifts(hand: list[str], count: int, potion_rule: bool, giving: Giving = "weakest") -> list[str]:
    """The colour cards `giving` names first, then potions; the lowest potion (the highest where it
    gives its strongest) first when two or more potions oblige one (JEKYLL-13)."""
    potions = sorted((c for c in hand if is_potion(c)), key=low_order, reverse=giving == "strongest")
    colours = [c for c in hand if not is_potion(c)]
    if giving == "middle":
        colours.sort(key=lambda c: (abs(strength(c) - MIDDLE), low_order(c)))
    else:
        colours.sort(key=low_order, reverse=giving == "strongest")
    first = potions[:1] if potion_rule and len(potions) >= 2 else []
    rest = [c for c in colours + potions if c not in first]
    return (first + rest)[:count]


def _giving(view: View, player: str) -> Giving:
    """Which colour cards the seat gives in an exchange: the hands make the round.

    Mr. Hyde wants the round lopsided, and lopsided hands make it so: shedding (a weak hand at the
    round's exchange, or behind when a Greed exchange comes) he gives his strongest, so that his
    hand sheds and the opponent's takes; taking, his weakest. Giving his weakest always, he evened
    the hands for Dr. Jekyll: the counter-Jekyll won 45% of its games against him, 13% after.
    Dr. Jekyll wants it even, so at the round's exchange he gives the cards nearest the middle and
    keeps both ends, to take a trick or give one as the count asks: giving his weakest, he won 15%
    against a Hyde who makes the hands lopsided (the stand-in), 28% after (docs/standins.md). In a
    Greed exchange, his weakest."""
    if view["roles"][player] == "jekyll":
        return "middle" if view["phase"] == "exchange" else "weakest"
    return "weakest" if _wants_trick(view, player) else "strongest"


def _wants_trick(view: View, player: str) -> bool:
    opponent = next(p for p in view["players"] if p != player)
    mine, theirs = view["tricks_won"][player], view["tricks_won"][opponent]
    if view["roles"][player] == "jekyll":
        return mine < theirs
    # Mr. Hyde: only the seat's own hand is known, so an opponent Hyde is judged by the count alone.
    lean = _hand_lean(view) if player == view["player"] else 0.0
    return mine - theirs + lean >= 0


def _hand_lean(view: View) -> float:
    """Mr. Hyde's lean toward taking tricks (above 0) or shedding them (below), in tricks, from his round's hand.

    A lopsided round helps him whichever way it leans, and a strong hand takes tricks more
    easily than it sheds them (a weak one the reverse). Judged by the count alone, one trick
    lost early turned a strong hand to shedding against a Jekyll who evens the count, and that
    Jekyll won more often than against random play (docs/standins.md). The hand is the one he
    holds with the cards he played this round: the share of the other cards each beats, less a half.
    """
    player = view["player"]
    played = [r["lead"] if r["leader"] == player else r["follow"] for r in view["played"]]
    held = [*view["hand"], *played, *view.get("spent", [])]
    others = [c for c in DECK if c not in held]
    beaten = sum(strength(c) > strength(o) for c in held for o in others) / (len(held) * len(others))
    return LEAN * (beaten - 0.5)


def _unseen_leads(view: View, hand: list[str]) -> list[Lead]:
    """Each lead the opponent may make (a card the seat has not seen, a potion with each colour named),
    with the cards of `hand` that may follow it."""
    known, pool = _unseen(view, hand)
    return [(lead, name, legal_follows(hand, lead, name))
            for lead in known + pool for name in (COLOURS if is_potion(lead) else (None,))]


def _follow_list(view: View, hand: list[str], want: bool, leads: list[Lead]) -> tuple[list[str], float]:
    """Of a few ways to order the hand, the one that most often gets what the seat wants against the
    leads the seat has not seen (`_unseen_leads`), and how often it does."""
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
        for lead, _, legal in leads:
            follow = next(c for c in listed if c in legal)
            won += not lead_wins(lead, follow, rank_colours(view["ranking"], [lead, follow]))
        score = won / len(leads) if want else 1 - won / len(leads)
        if best is None or score > best[0]:
            best = (score, listed)
    assert best is not None
    return best[1], best[0]


def _unseen(view: View, hand: list[str]) -> tuple[list[str], list[str]]:
    """(cards the opponent surely holds, cards that may be theirs or set aside) as the seat knows them."""
    played = {c for record in view["played"] for c in (record["lead"], record["follow"])} | set(view.get("spent", []))
    given = [g["card"] for g in view["gave"] if g["card"] not in played]
    pool = [c for c in DECK if c not in hand and c not in played and c not in given]
    return given, pool


def _lead(view: View, player: str, hand: list[str], want: bool, stream: Stream) -> tuple[str, str | None, float]:
    """The lead (and colour named) most likely to get what the seat wants, and that chance."""
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
    return best[1], best[2], best[0][0]


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
