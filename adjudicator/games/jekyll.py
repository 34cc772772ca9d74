"""Jekyll vs Hyde: two players, three rounds of ten tricks, potions and a shifting suit ranking.

Rules in our words: docs/rules/jekyll.md (decisions JEKYLL-1 onwards, each with a
data case in tests/cases/jekyll/). The Korean rulebook is the source; where the
English translation differs, the Korean stands.

A round is: the deal (chance), the `exchange` phase (both players give 1, 2 or 3
cards at once), then `trick` turns. A trick turn plays the pending trick with both
players' orders (NMR defaults for the silent) and goes on to later tricks for as
long as both players gave orders for them. A Greed potion's exchange is settled
by the `greed` list given with the trick order, or else by a `greed` phase of its own.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from ..rng import Rng, Stream
from .base import Event, Option, Order, Reading, Seat, State, View

# -- the cards -----------------------------------------------------------------

COLOURS = ("purple", "red", "green")
"""The three suits by colour, in the order we list them (not a ranking)."""
SUIT_NAMES = {"purple": "Pride", "red": "Wrath", "green": "Greed"}
NUMBERS = range(1, 8)
POTIONS = range(2, 6)
DECK = [f"{colour}{n}" for colour in COLOURS for n in NUMBERS] + [f"potion{n}" for n in POTIONS]
HAND = 10
SET_ASIDE = 5
TRICKS = 10
ROUNDS = 3
GREED_CARDS = 2
DEFAULT_NAME = "purple"
"""The colour named for a potion lead when the leader named none (JEKYLL-17)."""

_ALIASES = {"purple": "purple", "pride": "purple", "red": "red", "wrath": "red", "green": "green", "greed": "green"}
_COLOUR_CARD = re.compile(r"(purple|pride|red|wrath|green|greed)(\d+)\Z")
_POTION_CARD = re.compile(r"(?:potion(\d+)\+?|(\d+)\+|\+(\d+))\Z")
CARD_FORMS = "a colour and a number (purple5, red7, green1; pride5, wrath7, greed1 work too) or a potion (potion3 or 3+)"


class CardError(ValueError):
    """What a player wrote is not a card or a colour; the message says why."""


def is_potion(card: str) -> bool:
    return card.startswith("potion")


def colour(card: str) -> str | None:
    return None if is_potion(card) else card.rstrip("0123456789")


def number(card: str) -> int:
    return int(card[len(card.rstrip("0123456789")) :])


def strength(card: str) -> int:
    """Potion n+ beats the colour card n and loses to n+1 (JEKYLL-3): potions sit on the half steps."""
    return 2 * number(card) + (1 if is_potion(card) else 0)


def hand_order(card: str) -> tuple[int, int]:
    """How a hand is listed: purple, red, green, potions; low to high."""
    suit = COLOURS.index(colour(card)) if not is_potion(card) else len(COLOURS)  # type: ignore[arg-type]
    return suit, number(card)


def low_order(card: str) -> tuple[int, tuple[int, int]]:
    """'Lowest card first', used by every default: by strength, ties purple, red, green."""
    return strength(card), hand_order(card)


def sort_hand(cards: list[str]) -> list[str]:
    return sorted(cards, key=hand_order)


def parse_colour(value: Any) -> str:
    text = str(value).strip().casefold() if isinstance(value, str) else ""
    if text in _ALIASES:
        return _ALIASES[text]
    raise CardError(f"{_shown(value)} is not a colour: name purple (Pride), red (Wrath) or green (Greed)")


def parse_card(value: Any) -> str:
    """A card id (`purple5`, `potion3`) from what a player typed, or CardError saying why not."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise CardError(f"{_shown(value)} is not a card: write {CARD_FORMS}")
    if isinstance(value, int):
        raise CardError(
            f"a bare number ({_shown(value)}) is not a card: add its colour (purple{value}, red{value}, green{value}) "
            f"or write a potion as {value}+"
        )
    text = re.sub(r"[\s_-]+", "", value.casefold())
    match = _COLOUR_CARD.match(text)
    if match:
        n = int(match[2]) if len(match[2]) < 4 else 0
        if n not in NUMBERS:
            raise CardError(f"there is no {_shown(value)}: colour cards run from 1 to 7")
        return f"{_ALIASES[match[1]]}{n}"
    match = _POTION_CARD.match(text)
    if match:
        digits = next(g for g in match.groups() if g is not None)
        n = int(digits) if len(digits) < 4 else 0
        if n not in POTIONS:
            raise CardError(f"there is no {_shown(value)}: the potions are 2+, 3+, 4+ and 5+")
        return f"potion{n}"
    raise CardError(f"{_shown(value)} is not a card: write {CARD_FORMS}")


def _shown(value: Any) -> str:
    text = str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else type(value).__name__
    text = " ".join(text.split())
    return "'" + (text if len(text) <= 30 else text[:29] + "…") + "'"


def cards_text(cards: list[str]) -> str:
    return ", ".join(cards) if cards else "none"


# -- the rules of one trick ----------------------------------------------------------


def legal_follows(hand: list[str], lead: str, named: str | None) -> list[str]:
    """The cards the follower may play (JEKYLL-5, JEKYLL-6)."""
    if is_potion(lead):
        wanted = [c for c in hand if named is not None and colour(c) == named]
        return wanted or list(hand)
    led = colour(lead)
    if any(colour(c) == led for c in hand):
        return [c for c in hand if colour(c) == led or is_potion(c)]
    return list(hand)


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


def effect_of(lead: str, follow: str) -> str | None:
    """A potion against a colour card: pride, greed or wrath by that card's colour; two potions: none (JEKYLL-11)."""
    if is_potion(lead) == is_potion(follow):
        return None
    other = follow if is_potion(lead) else lead
    return {"purple": "pride", "green": "greed", "red": "wrath"}[colour(other)]  # type: ignore[index]


def pick_cards(hand: list[str], wanted: list[str], count: int, potion_rule: bool) -> tuple[list[str], list[str]]:
    """The cards given in an exchange: the first `count` held cards of `wanted`, topped up with the lowest.

    Returns (given, filled): `filled` are those the default chose. With the
    potion rule (JEKYLL-13) a hand of two or more potions gives at least one.
    """
    picks: list[str] = []
    for card in wanted:
        if card in hand and card not in picks and len(picks) < count:
            picks.append(card)
    potions = [c for c in hand if is_potion(c)]
    need_potion = potion_rule and len(potions) >= 2 and not any(is_potion(c) for c in picks)
    if need_potion and len(picks) == count:
        picks.pop()
    filled: list[str] = []
    rest = sorted((c for c in hand if c not in picks), key=low_order)
    if need_potion:
        filled.append(min(potions, key=low_order))
    filled += [c for c in rest if c not in filled][: count - len(picks) - len(filled)]
    return picks + filled, filled


def exchange_count(round_number: int) -> int:
    """Round 1 exchanges one card, round 2 two, round 3 three."""
    return round_number


def on_hyde_half(marker: int, track: int) -> bool:
    """JEKYLL-2: with 10 steps, 0-4 is Jekyll's half and 5-10 Hyde's."""
    return 2 * marker >= track


# -- the game --------------------------------------------------------------------------


class Jekyll:
    id = "jekyll"
    title = "Jekyll vs Hyde"
    min_players = 2
    max_players = 2
    options = {
        "jekyll": Option(
            "first", "which listed player is Dr. Jekyll (the other is Mr. Hyde): first or second", choices=("first", "second")
        ),
        "track": Option(10, "steps on the identity track from Jekyll's home (0) to Hyde's home", minimum=2, maximum=40),
    }

    # -- setup and flow ------------------------------------------------------------

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng) -> State:
        players = [seat.id for seat in seats]
        jekyll = players[0] if options["jekyll"] == "first" else players[1]
        state: State = {
            "players": players,
            "names": {seat.id: seat.name for seat in seats},
            "roles": {p: "jekyll" if p == jekyll else "hyde" for p in players},
            "track": options["track"],
            "marker": 0,
            "history": [],
            "over": False,
            "winner": None,
        }
        _deal(state, 1, jekyll, rng)
        return state

    def phase(self, state: State) -> str:
        return state["phase"]

    def due(self, state: State) -> list[str]:
        if state["over"]:
            return []
        if state["phase"] == "greed":
            return [p for p in state["players"] if p not in state["greed"]["chosen"]]
        return list(state["players"])

    def is_over(self, state: State) -> bool:
        return state["over"]

    def winners(self, state: State) -> list[str]:
        return [state["winner"]] if state["over"] else []

    # -- what a player may know ------------------------------------------------------

    def view(self, state: State, player: str | None) -> View:
        public_keys = (
            "players", "names", "roles", "track", "marker", "history", "over", "winner", "round", "phase",
            "trick", "leader", "ranking", "played", "piles", "exchange_count",
        )
        view = {key: copy.deepcopy(state[key]) for key in public_keys}
        view["player"] = player
        view["hand_counts"] = {p: len(state["hands"][p]) for p in state["players"]}
        view["set_aside_count"] = len(state["set_aside"])
        view["tricks_won"] = {p: len(state["piles"][p]) for p in state["players"]}
        greed = state["greed"]
        view["greed"] = None if greed is None else {
            "trick": greed["trick"],
            "count": greed["count"],
            "waiting": [p for p in state["players"] if p not in greed["chosen"]],
            # What a player chose in advance is theirs alone until the cards change hands.
            "mine": copy.deepcopy(greed["chosen"].get(player)) if player else None,
        }
        mine = player is not None
        view["hand"] = list(state["hands"][player]) if mine else None
        view["received"] = copy.deepcopy(state["received"][player]) if mine else None
        view["gave"] = copy.deepcopy(state["gave"][player]) if mine else None
        return view

    def player_fields(self, view: View) -> dict[str, dict[str, Any]]:
        fields = {}
        for p in view["players"]:
            row: dict[str, Any] = {
                "role": view["roles"][p],
                "marker": view["marker"],
                "tricks": view["tricks_won"][p],
                "cards": view["hand_counts"][p],
                "leads": view["leader"] == p and not view["over"],
            }
            if p == view["player"]:
                row["hand"] = list(view["hand"])
            fields[p] = row
        return fields

    # -- reading orders ---------------------------------------------------------------

    def read_orders(self, view: View, player: str, items: list[tuple[int, Any]]) -> list[Reading]:
        if view["phase"] == "trick":
            return _read_tricks(view, items)
        if view["phase"] == "exchange":
            count, rule = view["exchange_count"], True
        else:
            count, rule = view["greed"]["count"], False
        return _read_gifts(view, items, count, rule)

    def default_orders(self, state: State, player: str, rng: Rng) -> list[Order]:
        # JEKYLL-18: the silent give nothing on paper; resolution gives (and plays) their lowest cards.
        return []

    # -- resolution ---------------------------------------------------------------------

    def resolve(self, state: State, orders: dict[str, list[Order]], rng: Rng) -> tuple[State, list[Event]]:
        new = copy.deepcopy(state)
        events: list[Event] = []
        if state["phase"] == "exchange":
            _exchange(new, orders, events)
        elif state["phase"] == "greed":
            _greed_step(new, orders, events)
        else:
            _play_tricks(new, orders, events, rng)
        return new, events

    # -- demo --------------------------------------------------------------------------------

    def demo_orders(self, view: View, player: str, stream: Stream) -> list[Any]:
        hand = list(view["hand"])
        if view["phase"] in ("exchange", "greed"):
            count = view["exchange_count"] if view["phase"] == "exchange" else view["greed"]["count"]
            stream.shuffle(hand)
            potions = [c for c in hand if is_potion(c)]
            gifts = hand[:count]
            if view["phase"] == "exchange" and len(potions) >= 2 and not any(is_potion(c) for c in gifts):
                gifts[-1] = potions[0]
            return [_demo_card(card, stream) for card in gifts]
        items: list[Any] = []
        ahead = min(1 + stream.below(4), TRICKS - view["trick"] + 1)
        for offset in range(ahead):
            stream.shuffle(hand)
            order = list(hand)
            name = stream.choice(list(COLOURS))
            greed = hand[:2] if stream.below(3) else []
            form = stream.below(4)
            if form == 0:
                text = f"trick {view['trick'] + offset}: " + ", ".join(order)
                items.append(text + f" name {name}" + (f" greed {' '.join(greed)}" if greed else ""))
            elif form == 1 and offset == 0:
                items.append(order)
            else:
                item: dict[str, Any] = {"trick": view["trick"] + offset, "play": order, "name": name}
                if greed:
                    item["greed"] = greed
                items.append(item)
        return items

    # -- conformance hooks ------------------------------------------------------------

    def disguises(
        self, state: State, orders: dict[str, list[Order]], player: str, stream: Stream
    ) -> list[tuple[State, dict[str, list[Order]]]]:
        """Swap cards of `player`'s hand with set-aside cards of the same suit (or potion for potion).

        Only cards the opponent cannot know about move: never one the opponent
        gave this player, and only swaps that leave every card played this turn,
        and every card the opponent receives, exactly as they were. Following or
        not following suit then tells the opponent the same in both worlds.
        """
        if state["over"]:
            return []
        opponent = _opponent(state, player)
        pending = state["greed"]["chosen"].get(player, []) if state["greed"] else []
        known = {g["card"] for g in state["gave"][opponent]} | set(pending)
        pairs = [
            (mine, aside)
            for mine in state["hands"][player]
            if mine not in known
            for aside in state["set_aside"]
            if colour(mine) == colour(aside)
        ]
        stream.shuffle(pairs)
        base = _trace(state, orders, opponent)
        kept: list[tuple[str, str]] = []
        worlds: list[tuple[State, dict[str, list[Order]]]] = []
        for mine, aside in pairs:
            if any(mine in pair or aside in pair for pair in kept):
                continue
            world = _swap(state, player, [(mine, aside)])
            if _trace(world, orders, opponent) == base:
                kept.append((mine, aside))
                worlds.append((world, orders))
            if len(kept) == 2:
                both = _swap(state, player, kept)  # both swaps at once, too
                if _trace(both, orders, opponent) == base:
                    worlds.append((both, orders))
                break
        return worlds

    def invariants(self, state: State) -> list[str]:
        problems: list[str] = []
        played = [c for t in state["played"] for c in (t["lead"], t["follow"])]
        everywhere = [c for p in state["players"] for c in state["hands"][p]] + state["set_aside"] + played
        if sorted(everywhere) != sorted(DECK):
            problems.append("the hands, the set-aside pile and the played tricks do not hold the 25 cards once each")
        if len(state["set_aside"]) != SET_ASIDE:
            problems.append(f"{len(state['set_aside'])} cards are set aside, not {SET_ASIDE}")
        sizes = {len(state["hands"][p]) for p in state["players"]}
        if sizes != {HAND - len(state["played"])}:
            problems.append(f"hand sizes {sorted(sizes)} do not match {len(state['played'])} tricks played")
        piles = sorted(n for p in state["players"] for n in state["piles"][p])
        if piles != [t["trick"] for t in state["played"]]:
            problems.append("the players' trick piles do not hold each played trick once")
        if not 0 <= state["marker"] <= state["track"]:
            problems.append(f"the marker {state['marker']} is off the track 0-{state['track']}")
        for h in state["history"]:
            if sum(h["tricks"].values()) != TRICKS or h["moved"] != abs(h["tricks"][state["players"][0]] - h["tricks"][state["players"][1]]):
                problems.append(f"round {h['round']} does not share out {TRICKS} tricks or moved the marker wrongly")
        moved = min(state["track"], sum(h["moved"] for h in state["history"]))
        if moved != state["marker"]:
            problems.append(f"the marker is on {state['marker']} but the rounds moved it {moved}")
        ranking = state["ranking"]
        if len(set(ranking)) != len(ranking) or len(ranking) not in (0, 1, 3) or not set(ranking) <= set(COLOURS):
            problems.append(f"the suit ranking {ranking} is not a ranking")
        hyde = next(p for p in state["players"] if state["roles"][p] == "hyde")
        if state["over"] and state["winner"] != (hyde if state["marker"] >= state["track"] else _opponent(state, hyde)):
            problems.append("the winner does not follow from the marker")
        return problems


# -- rounds and exchanges ------------------------------------------------------------


def _opponent(state: State, player: str) -> str:
    return next(p for p in state["players"] if p != player)


def _role_player(state: State, role: str) -> str:
    return next(p for p in state["players"] if state["roles"][p] == role)


def _deal(state: State, round_number: int, leader: str, rng: Rng) -> None:
    """Shuffle all 25 cards; deal 10 each, one at a time, Jekyll first; set the last 5 aside (JEKYLL-1)."""
    deck = list(DECK)
    rng.stream(f"deal/round-{round_number}").shuffle(deck)
    jekyll, hyde = _role_player(state, "jekyll"), _role_player(state, "hyde")
    state["hands"] = {jekyll: sort_hand(deck[0 : 2 * HAND : 2]), hyde: sort_hand(deck[1 : 2 * HAND : 2])}
    state["set_aside"] = sort_hand(deck[2 * HAND :])
    state.update(
        round=round_number,
        phase="exchange",
        exchange_count=exchange_count(round_number),
        trick=1,
        leader=leader,
        ranking=[],  # JEKYLL-7: every round starts with the suits unranked
        played=[],
        piles={p: [] for p in state["players"]},
        received={p: [] for p in state["players"]},
        gave={p: [] for p in state["players"]},
        greed=None,
    )


def _gifts(orders: list[Order]) -> list[str]:
    return [o["give"] for o in orders if isinstance(o, dict) and isinstance(o.get("give"), str)]


def _swap_cards(state: State, given: dict[str, list[str]], via: str, trick: int | None) -> None:
    """Both players' chosen cards change hands at the same moment."""
    for giver, cards in given.items():
        taker = _opponent(state, giver)
        state["hands"][giver] = [c for c in state["hands"][giver] if c not in cards]
        for card in cards:
            state["gave"][giver].append({"card": card, "via": via, "trick": trick})
            state["received"][taker].append({"card": card, "via": via, "trick": trick})
    for giver, cards in given.items():
        taker = _opponent(state, giver)
        state["hands"][taker] = sort_hand(state["hands"][taker] + cards)


def _exchange(state: State, orders: dict[str, list[Order]], events: list[Event]) -> None:
    count = state["exchange_count"]
    given: dict[str, list[str]] = {}
    filled: dict[str, list[str]] = {}
    for p in state["players"]:
        given[p], filled[p] = pick_cards(state["hands"][p], _gifts(orders.get(p, [])), count, potion_rule=True)
    _swap_cards(state, given, "exchange", None)
    for p in state["players"]:
        events.append({"code": "exchanged", "seen_by": [p], "player": p, "round": state["round"],
                       "gave": sort_hand(given[p]), "received": sort_hand(given[_opponent(state, p)]),
                       "filled": sort_hand(filled[p])})
    events.append({"code": "exchange", "seen_by": "all", "round": state["round"], "count": count})
    state["phase"] = "trick"


def _greed_step(state: State, orders: dict[str, list[Order]], events: list[Event]) -> None:
    greed = state["greed"]
    chosen = dict(greed["chosen"])
    filled: dict[str, list[str]] = {p: [] for p in state["players"]}
    for p in state["players"]:
        if p not in chosen:
            chosen[p], filled[p] = pick_cards(state["hands"][p], _gifts(orders.get(p, [])), greed["count"], potion_rule=False)
    _finish_greed(state, greed["trick"], chosen, filled, events)
    state["greed"] = None
    state["phase"] = "trick"


def _finish_greed(state: State, trick: int, chosen: dict[str, list[str]], filled: dict[str, list[str]], events: list[Event]) -> None:
    _swap_cards(state, chosen, "greed", trick)
    for p in state["players"]:
        events.append({"code": "greed_exchanged", "seen_by": [p], "player": p, "round": state["round"], "trick": trick,
                       "gave": sort_hand(chosen[p]), "received": sort_hand(chosen[_opponent(state, p)]),
                       "filled": sort_hand(filled[p])})
    events.append({"code": "greed_exchange", "seen_by": "all", "round": state["round"], "trick": trick,
                   "count": len(chosen[state["players"][0]])})


def _end_round(state: State, events: list[Event], rng: Rng) -> None:
    """JEKYLL-15, JEKYLL-16: the difference in tricks moves the marker toward Hyde; then the next round or the end."""
    won = {p: len(state["piles"][p]) for p in state["players"]}
    moved = abs(won[state["players"][0]] - won[state["players"][1]])
    state["marker"] = min(state["track"], state["marker"] + moved)
    state["history"].append({"round": state["round"], "tricks": won, "moved": moved, "marker": state["marker"]})
    events.append({"code": "round_end", "seen_by": "all", "round": state["round"], "tricks": won,
                   "moved": moved, "marker": state["marker"], "track": state["track"]})
    hyde, jekyll = _role_player(state, "hyde"), _role_player(state, "jekyll")
    if state["marker"] >= state["track"] or state["round"] >= ROUNDS:
        state["over"] = True
        state["winner"] = hyde if state["marker"] >= state["track"] else jekyll
        events.append({"code": "game_over", "seen_by": "all", "winner": state["winner"],
                       "role": state["roles"][state["winner"]], "round": state["round"], "marker": state["marker"]})
        return
    leader = hyde if on_hyde_half(state["marker"], state["track"]) else jekyll
    _deal(state, state["round"] + 1, leader, rng)
    events.append({"code": "dealt", "seen_by": "all", "round": state["round"], "leader": leader,
                   "exchange_count": state["exchange_count"]})


# -- tricks -----------------------------------------------------------------------------


def _play_tricks(state: State, orders: dict[str, list[Order]], events: list[Event], rng: Rng) -> None:
    """The pending trick, then each later one both players ordered, until an order, a choice or the round runs out."""
    plans = {p: {o["trick"]: o for o in orders.get(p, []) if isinstance(o, dict) and "trick" in o} for p in state["players"]}
    start_round, played_now = state["round"], []
    while state["phase"] == "trick" and not state["over"] and state["round"] == start_round:
        t = state["trick"]
        forced = all(len(state["hands"][p]) == 1 for p in state["players"])
        if played_now and not forced and any(t not in plans[p] for p in state["players"]):
            break  # JEKYLL-20: later tricks are played only while both players ordered them
        _play_trick(state, {p: None if forced else plans[p].get(t) for p in state["players"]}, forced, events)
        played_now.append(t)
        if state["trick"] > TRICKS:
            _end_round(state, events, rng)
    stopped_at = state["trick"]
    for p in state["players"]:
        unused = sorted(n for n in plans[p] if n not in played_now)
        if unused:
            # Each player learns only what the stop already tells them: whose order was missing, if theirs was not.
            why = "greed_step" if state["phase"] == "greed" else (
                "you_silent" if stopped_at not in plans[p] else "opponent_silent")
            events.append({"code": "orders_unused", "seen_by": [p], "player": p, "tricks": unused, "why": why,
                           "stopped_at": stopped_at})


def _first(cards: list[str], allowed: list[str]) -> str | None:
    return next((c for c in cards if c in allowed), None)


def _play_trick(state: State, plan: dict[str, Order | None], forced: bool, events: list[Event]) -> None:
    t, leader = state["trick"], state["leader"]
    follower = _opponent(state, leader)
    hands = state["hands"]
    lead_plan, follow_plan = plan[leader] or {}, plan[follower] or {}

    lead = _first(lead_plan.get("play", []), hands[leader])
    if lead is None:
        lead = min(hands[leader], key=low_order)  # JEKYLL-19
        if not forced:
            events.append(_defaulted(leader, t, lead, lead_plan))
    named = None
    if is_potion(lead) and not forced:
        named = lead_plan.get("name")
        if named not in COLOURS:
            named = DEFAULT_NAME
            events.append({"code": "named_default", "seen_by": [leader], "player": leader, "trick": t, "colour": named})
    legal = legal_follows(hands[follower], lead, named)
    follow = _first(follow_plan.get("play", []), legal)
    if follow is None:
        follow = min(legal, key=low_order)
        if not forced:
            events.append(_defaulted(follower, t, follow, follow_plan))

    hands[leader] = [c for c in hands[leader] if c != lead]
    hands[follower] = [c for c in hands[follower] if c != follow]
    before = state["ranking"]
    ranking = rank_colours(before, [lead, follow])
    winner = leader if lead_wins(lead, follow, ranking) else follower
    loser = _opponent(state, winner)
    effect = effect_of(lead, follow)
    state["piles"][winner].append(t)
    taken = None
    if effect == "pride" and len(state["piles"][loser]) > 0:  # JEKYLL-12: the opponent's latest trick
        taken = state["piles"][loser].pop()
        state["piles"][winner].append(taken)
        state["piles"][winner].sort()
    ranked = ranking
    if effect == "wrath":  # JEKYLL-8: the reset clears the colours of this very trick too
        ranking = []
    state["ranking"] = ranking
    record = {"trick": t, "leader": leader, "follower": follower, "lead": lead, "follow": follow, "named": named,
              "winner": winner, "effect": effect, "taken": taken, "ranked": ranked, "ranking": ranking, "forced": forced}
    state["played"].append(record)
    events.append({"code": "trick", "seen_by": "all", "round": state["round"], **record, "before": before,
                   "tricks": {p: len(state["piles"][p]) for p in state["players"]}})
    state["leader"] = winner
    state["trick"] = t + 1
    if effect == "greed":
        _greed_after(state, t, plan, events)


def _defaulted(player: str, trick: int, card: str, plan: Order) -> Event:
    return {"code": "played_default", "seen_by": [player], "player": player, "trick": trick, "card": card,
            "why": "none_legal" if plan else "no_order"}


def _greed_after(state: State, trick: int, plan: dict[str, Order | None], events: list[Event]) -> None:
    """JEKYLL-14: two cards each (one if one is left); an advance `greed` list settles it, else a greed step."""
    count = min(GREED_CARDS, len(state["hands"][state["players"][0]]))
    if count == 0:
        return
    chosen: dict[str, list[str]] = {}
    filled: dict[str, list[str]] = {p: [] for p in state["players"]}
    for p in state["players"]:
        hand = state["hands"][p]
        if len(hand) <= count:  # no choice to make: the whole hand goes
            chosen[p] = list(hand)
        elif plan[p] is not None and "greed" in plan[p]:  # type: ignore[operator]
            chosen[p], filled[p] = pick_cards(hand, plan[p]["greed"], count, potion_rule=False)  # type: ignore[index]
    waiting = [p for p in state["players"] if p not in chosen]
    if waiting:
        state["greed"] = {"trick": trick, "count": count, "chosen": chosen}
        state["phase"] = "greed"
        events.append({"code": "greed_waiting", "seen_by": "all", "round": state["round"], "trick": trick,
                       "count": count, "waiting": waiting})
        return
    _finish_greed(state, trick, chosen, filled, events)


# -- reading orders --------------------------------------------------------------------

_TRICK_WORD = re.compile(r"trick\s*(\d+)\s*:?", re.IGNORECASE)


def _read_gifts(view: View, items: list[tuple[int, Any]], count: int, potion_rule: bool) -> list[Reading]:
    """Exchange and greed orders: one card given per item (JEKYLL-13, JEKYLL-14)."""
    hand = view["hand"]
    opponent = next(p for p in view["players"] if p != view["player"])
    whom = view["names"][opponent]
    readings: list[Reading] = []
    accepted: list[Reading] = []
    for index, item in items:
        raw = item.get("give") if isinstance(item, dict) else item
        reading = Reading(index=index, written=_written(item))
        readings.append(reading)
        try:
            card = parse_card(re.sub(r"(?i)^\s*give\s+", "", raw) if isinstance(raw, str) else raw)
        except CardError as exc:
            reading.void = f"{exc} (in this phase each order names one card you give)"
            continue
        if card not in hand:
            reading.void = f"you do not hold {card} (your hand: {cards_text(hand)})"
        elif any(r.order["give"] == card for r in accepted):  # type: ignore[index]
            reading.void = f"{card} is already given by an earlier order"
        elif len(accepted) >= count:
            reading.void = f"you give only {count} {'card' if count == 1 else 'cards'} now, so {card} is one too many"
        else:
            reading.order = {"give": card}
            accepted.append(reading)
            reading.meaning = f"give {card} to {whom} (card {len(accepted)} of {count})"
    potions = [c for c in hand if is_potion(c)]
    gifts = [r.order["give"] for r in accepted]  # type: ignore[index]
    if potion_rule and len(potions) >= 2 and len(gifts) == count and not any(is_potion(c) for c in gifts):
        last = accepted[-1]
        lowest = min(potions, key=low_order)
        last.void = (f"you hold {len(potions)} potions, so your exchange must include one; {last.order['give']} "  # type: ignore[index]
                     f"is dropped and your lowest potion, {lowest}, is given instead")
        last.order, last.meaning = None, ""
    return readings


def _written(item: Any) -> str:
    if isinstance(item, str):
        return " ".join(item.split())[:120]
    if isinstance(item, list):
        return ", ".join(str(x) for x in item)[:120]
    if isinstance(item, dict):
        return "; ".join(f"{k}: {_written(v) if isinstance(v, (list, dict)) else v}" for k, v in item.items())[:120]
    return str(item)[:120]


def _parse_trick_text(text: str) -> dict[str, Any]:
    """'trick 4: red7, purple2, 3+ name green greed red1 purple1' -> the parts of a trick order."""
    parts: dict[str, Any] = {}
    match = _TRICK_WORD.match(text.strip())
    if match:
        parts["trick"] = int(match[1]) if len(match[1]) < 4 else 0
        text = text.strip()[match.end():]
    section = "play"
    for token in _card_words(text):
        word = token.casefold()
        if word in ("name", "names", "naming", "call", "calls"):
            section = "name"
        elif word in ("greed", "give", "gives"):
            section = "greed"
        elif section == "name":
            if "name" in parts:
                raise CardError(f"name only one colour, not also {_shown(token)}")
            parts["name"] = token
        else:
            parts.setdefault(section, []).append(token)
    if "play" not in parts:
        raise CardError("no card to play: write e.g. 'trick 3: red7, purple2, 3+'")
    if section == "name" and "name" not in parts:
        raise CardError("'name' must be followed by a colour (purple, red or green)")
    return parts


def _card_words(text: str) -> list[str]:
    """Words of a written order, with 'purple 5' and 'potion 3' joined into one card.

    'greed 5' is the Greed card 5; a lone 'greed' is the keyword that starts a Greed list.
    """
    joined: list[str] = []
    for token in re.sub(r"[,;:]", " ", text).split():
        if joined and re.fullmatch(r"\d+\+?", token) and joined[-1].casefold() in (*_ALIASES, "potion"):
            joined[-1] += token
        else:
            joined.append(token)
    return joined


def _as_list(value: Any) -> list[Any]:
    """A card list as written in the mapping form: a list, or one text of cards."""
    if isinstance(value, list):
        return value
    return _card_words(value) if isinstance(value, str) else [value]


def _read_tricks(view: View, items: list[tuple[int, Any]]) -> list[Reading]:
    """Trick orders: a preference list per trick, with an optional named colour and Greed list (JEKYLL-20)."""
    gone = {c: t["trick"] for t in view["played"] for c in (t["lead"], t["follow"])}
    hand = view["hand"]
    readings: list[Reading] = []
    expected = view["trick"]
    for index, item in items:
        reading = Reading(index=index, written=_written(item))
        readings.append(reading)
        try:
            parts = _parse_trick_text(item) if isinstance(item, str) else (
                {"play": item} if isinstance(item, list) else dict(item))
        except CardError as exc:
            reading.void = str(exc)
            expected += 1
            continue
        trick = parts.get("trick", expected)
        expected = trick + 1
        try:
            play = [parse_card(c) for c in _as_list(parts.get("play"))]
            greed = [parse_card(c) for c in _as_list(parts["greed"])] if "greed" in parts else None
            name = parse_colour(parts["name"]) if "name" in parts else None
        except CardError as exc:
            reading.void = str(exc)
            continue
        if not 1 <= trick <= TRICKS:
            reading.void = f"there is no trick {trick}: a round has tricks 1 to {TRICKS}"
        elif trick < view["trick"]:
            reading.void = f"trick {trick} of this round has been played already; the next trick is {view['trick']}"
        elif not play:
            reading.void = "no card to play is listed"
        elif all(c in gone for c in play):
            reading.void = "every card listed was played earlier this round: " + ", ".join(f"{c} (trick {gone[c]})" for c in play)
        else:
            reading.order = {"trick": trick, "play": list(dict.fromkeys(play))}
            if name is not None:
                reading.order["name"] = name
            if greed is not None:
                reading.order["greed"] = list(dict.fromkeys(greed))
            reading.meaning = _trick_meaning(reading.order, hand, gone)
    by_trick: dict[int, list[Reading]] = {}
    for reading in readings:
        if reading.order is not None:
            by_trick.setdefault(reading.order["trick"], []).append(reading)
    for trick, same in by_trick.items():
        if len(same) > 1:  # like two orders for one SID: neither stands
            for reading in same:
                reading.order, reading.meaning = None, ""
                reading.void = f"trick {trick} was given {len(same)} orders, so none of them stands"
    return readings


def _trick_meaning(order: Order, hand: list[str], gone: dict[str, int]) -> str:
    play = order["play"]
    text = f"trick {order['trick']}: " + (
        f"you play {play[0]} if you may" if len(play) == 1 else f"you play the first you hold and may play of {', '.join(play)}"
    )
    if "name" in order:
        text += f"; if you lead a potion you name {order['name']} ({SUIT_NAMES[order['name']]})"
    if "greed" in order:
        text += f"; in a Greed exchange after it you give the first you hold of {', '.join(order['greed'])}"
    stale = [c for c in play if c in gone]
    absent = [c for c in play if c not in gone and c not in hand]
    if stale:
        text += f" (skipped: {', '.join(stale)}, played earlier this round)"
    if absent:
        text += f" (not in your hand now, so used only if you receive it: {', '.join(absent)})"
    return text


# -- demo and disguise helpers ---------------------------------------------------------------


def _demo_card(card: str, stream: Stream) -> Any:
    """A card as a player might write it: the id, a potion as 'n+', or the mapping form."""
    form = stream.below(3)
    if form == 0:
        return {"give": card}
    if form == 1 and is_potion(card):
        return f"{number(card)}+"
    return card


def _swap(state: State, player: str, pairs: list[tuple[str, str]]) -> State:
    world = copy.deepcopy(state)
    for mine, aside in pairs:
        world["hands"][player] = sort_hand([aside if c == mine else c for c in world["hands"][player]])
        world["set_aside"] = sort_hand([mine if c == aside else c for c in world["set_aside"]])
    return world


def _trace(state: State, orders: dict[str, list[Order]], opponent: str) -> Any:
    """What the opponent and the public see of a turn: every card played and given to the opponent."""
    # The deal of a next round is the only draw, and it does not depend on the hands: any seed will do here.
    new, events = GAME.resolve(state, orders, Rng("disguise-trace", 0))
    seen = [
        {k: e.get(k) for k in ("code", "trick", "lead", "follow", "named", "winner", "taken", "received", "waiting")}
        for e in events
        if e["code"] in ("trick", "greed_waiting") or (e["code"] in ("exchanged", "greed_exchanged") and e["player"] == opponent)
    ]
    return seen, new["phase"], new["trick"], new["hands"].get(opponent)


GAME = Jekyll()
