"""A deal opens: shuffle and deal the hands (IDENTITY-2, IDENTITY-19), then take out and reveal the bids (IDENTITY-4/5)."""

from __future__ import annotations

from ...common.rng import Rng
from ..base import Event, Order, State
from .cards import deck, number, remove_cards, sort_cards


def _hand_size(players: int) -> int:
    """IDENTITY-19: 14 cards with 3-5 players, 12 with 6."""
    return 12 if players == 6 else 14


def new_deal(state: State, deal: int, starter: str, rng: Rng) -> State:
    """Shuffle the full deck (stream `deal-N`), deal in seat order, set the leftovers aside (IDENTITY-2)."""
    cards = deck(state["colours"])
    rng.stream(f"deal-{deal}").shuffle(cards)
    players = state["players"]
    size = _hand_size(len(players))
    state.update(
        deal=deal,
        stage="bid",
        hands={p: sort_cards(cards[i * size:(i + 1) * size]) for i, p in enumerate(players)},
        removed=sort_cards(cards[len(players) * size:]),
        bids={p: [] for p in players},
        trick=1,
        tricks=size - 2,
        starter=starter,
        leader=starter,
        played=[],
        plus={p: 0 for p in players},
        minus={p: 0 for p in players},
    )
    return state


def resolve_bids(state: State, orders: dict[str, list[Order]], rng: Rng) -> list[Event]:
    """IDENTITY-4/5: take each bid out of the hand; reveal every bid together."""
    deal = state["deal"]
    events: list[Event] = []
    drawn_for: dict[str, list[str]] = {}
    for player in state["players"]:
        cards = [c for order in orders.get(player, []) for c in order["bid"]][:2]
        rest = remove_cards(state["hands"][player], cards)
        if len(cards) < 2:
            stream = rng.stream(f"default/deal-{deal}/bid/{player}")
            drawn: list[str] = []
            while len(cards) < 2:
                card = stream.choice(rest)
                rest.remove(card)
                cards.append(card)
                drawn.append(card)
            drawn_for[player] = drawn
        state["bids"][player] = cards
        state["hands"][player] = rest
    state["stage"] = "trick"
    events.append({
        "code": "bids", "seen_by": "all", "deal": deal,
        "bids": {p: {"cards": state["bids"][p], "value": sum(map(number, state["bids"][p]))} for p in state["players"]},
        "leader": state["leader"],
    })
    for player, drawn in drawn_for.items():
        events.append({"code": "bid_drawn", "seen_by": [player], "player": player, "deal": deal, "cards": drawn})
    return events
