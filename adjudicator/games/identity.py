"""Identity: bid with two cards, then must-not-follow tricks; variants X (long game) and Y (randomized).

Rules in our words and the decisions IDENTITY-1 onwards: docs/rules/identity.md.
Each decision has a data case in tests/cases/identity/.

Cards are strings in the written form players type (`blue+2`, `orange-3`,
`black0`); the two copies of a card are interchangeable, so hands and piles are
sorted lists (multisets). A trick turn plays tricks from the players'
preference lists until a list no longer settles a play (IDENTITY-10), so email
play needs one round trip per few tricks, not per card.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from typing import Any

from ..rng import Rng, Stream
from .base import Event, Option, Order, Reading, Seat, State, View, leaders

COLOURS = ("orange", "purple", "blue", "green", "pink")
BLACK = "black"
NUMBERS = (-3, -2, -1, 1, 2, 3, 4)
POINTS = {0: 5, 1: 3, 2: 2}
"""Points by the difference between bid and wins; 3 or more scores nothing."""
VARIANTS = ("standard", "x", "y", "xy")


# -- cards ------------------------------------------------------------------------


def card_name(colour: str, number: int) -> str:
    return f"{colour}0" if number == 0 else f"{colour}{number:+d}"


ALL_CARDS: tuple[str, ...] = tuple(card_name(c, n) for c in COLOURS for n in NUMBERS) + (card_name(BLACK, 0),)
_FACE: dict[str, tuple[str, int]] = {card_name(c, n): (c, n) for c in COLOURS for n in NUMBERS}
_FACE[card_name(BLACK, 0)] = (BLACK, 0)
_RANK = {card: i for i, card in enumerate(ALL_CARDS)}


def colour(card: str) -> str:
    return _FACE[card][0]


def number(card: str) -> int:
    return _FACE[card][1]


def sort_cards(cards: list[str]) -> list[str]:
    """Colour order (orange, purple, blue, green, pink, black), then number."""
    return sorted(cards, key=_RANK.__getitem__)


def default_key(card: str) -> tuple[int, int]:
    """IDENTITY-8: the default plays the lowest number; colour order breaks ties."""
    return number(card), _RANK[card]


def playable(card: str, area: list[dict[str, Any]]) -> bool:
    """IDENTITY-6: differs in colour and in number from every face-up card in the play area."""
    return all(
        colour(card) != colour(p["card"]) and number(card) != number(p["card"]) for p in area if p["face_up"]
    )


def distinct(cards: list[str]) -> list[str]:
    return sort_cards(list(dict.fromkeys(cards)))


def deck(colours: list[str]) -> list[str]:
    """Every card of the colours in play, two copies each, in canonical order (IDENTITY-1)."""
    return [card for card in ALL_CARDS for _ in range(2) if colour(card) in colours]


def remove_cards(hand: list[str], cards: list[str]) -> list[str]:
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return rest


def holds(hand: list[str], cards: list[str]) -> bool:
    """Whether the hand holds all these cards (a card named twice needs both copies)."""
    have = Counter(hand)
    return all(have[c] >= n for c, n in Counter(cards).items())


_MINUS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-"})
_CARD_TEXT = re.compile(r"([a-z]+)\s*[\[(]?\s*([+-]?)\s*(\d+)\s*[\])]?\Z")
_CARD_TOKEN = re.compile(r"[a-z]+\s*[\[(]?\s*[+-]?\s*\d+\s*[\])]?|[^\s,;/]+")
_FILLER = frozenset({"and", "then", "or", "+", "&"})


def read_card(text: str) -> str:
    """The canonical card a player means by `text` (IDENTITY-20); ValueError says why not."""
    written = " ".join(str(text).split())
    match = _CARD_TEXT.match(written.lower().translate(_MINUS))
    if not match:
        raise ValueError(f"'{written}' is not a card: write a colour and a number, e.g. blue+2, orange-3, black0")
    prefix, sign, digits = match.groups()
    named = [c for c in (*COLOURS, BLACK) if c.startswith(prefix)]
    if len(named) != 1:
        raise ValueError(
            f"'{written}': '{prefix}' is not a colour" if not named
            else f"'{written}': '{prefix}' could be {' or '.join(named)}; write more of the colour"
        )
    value = -int(digits) if sign == "-" else int(digits)
    card = card_name(named[0], value)
    if card not in _FACE:
        rule = "the only black card is black0" if named[0] == BLACK else f"{named[0]} cards are -3, -2, -1, +1, +2, +3, +4"
        raise ValueError(f"'{written}' is not a card: {rule}")
    return card


def read_card_list(text: str) -> list[str]:
    """Every card named in a piece of text such as `blue+2, orange -3 and g4`."""
    cards = []
    for token in _CARD_TOKEN.findall(text.lower().translate(_MINUS)):
        if token not in _FILLER:
            cards.append(read_card(token))
    return cards


# -- order text ----------------------------------------------------------------------

_TRICK_PREFIX = re.compile(r"\s*trick\s*#?\s*(\d{1,3})\s*[:.)-]?", re.IGNORECASE)
_DOWN = re.compile(r"\b(?:face[\s_-]*down|down)\b\s*:?", re.IGNORECASE)
_PLAY = re.compile(r"\s*(?:play|face[\s_-]*up|up)\b\s*:?", re.IGNORECASE)
_BID = re.compile(r"\s*bids?\b\s*:?", re.IGNORECASE)


def parse_bid(item: Any) -> list[str]:
    """Cards of one bid item: `{bid: [a, b]}`, `"bid a b"`, `"a, b"` or a single card `"a"`."""
    if isinstance(item, dict) and "bid" in item:
        return [read_card(c) for c in item["bid"]]
    if isinstance(item, dict) or _TRICK_PREFIX.match(item):
        raise ValueError("the deal opens with bids: no trick can be played until every bid is in")
    text = item[m.end():] if (m := _BID.match(item)) else item
    cards = read_card_list(text)
    if not cards:
        raise ValueError("names no card: a bid is two cards of your hand, e.g. bid blue+2 orange-3")
    return cards


def parse_trick(item: Any) -> dict[str, Any]:
    """One trick list: `{trick: 3, play: [...], face_down: [...]}` or `"trick 3: play a b down c"`."""
    if isinstance(item, dict) and "bid" in item or isinstance(item, str) and _BID.match(item):
        raise ValueError("the bids of this deal are already revealed; this turn plays tricks")
    if isinstance(item, dict):
        return {
            "trick": item.get("trick"),
            "play": [read_card(c) for c in item.get("play", [])],
            "face_down": [read_card(c) for c in item.get("face_down", [])],
        }
    trick = None
    text = item
    if m := _TRICK_PREFIX.match(text):
        trick, text = int(m[1]), text[m.end():]
    parts = _DOWN.split(text, maxsplit=1)
    up = parts[0][m.end():] if (m := _PLAY.match(parts[0])) else parts[0]
    return {"trick": trick, "play": read_card_list(up), "face_down": read_card_list(parts[1]) if len(parts) > 1 else []}


def _written(item: Any) -> str:
    if isinstance(item, str):
        return " ".join(item.split())
    if "bid" in item:
        return "bid " + ", ".join(map(str, item["bid"]))
    parts = [f"trick {item['trick']}:" if "trick" in item else "next trick:"]
    parts += ["play", *map(str, item.get("play", []))] if item.get("play") else []
    parts += ["down", *map(str, item.get("face_down", []))] if item.get("face_down") else []
    return " ".join(parts)


# -- the game --------------------------------------------------------------------------


class Identity:
    id = "identity"
    title = "Identity"
    min_players = 3
    max_players = 6
    options = {
        "variant": Option(
            "standard",
            "standard (one deal), x (long game: two deals), y (randomized: black 0s shuffled in, 3-5 players), xy (both)",
            choices=VARIANTS,
        ),
        "doubled": Option(False, "long game only: the second deal's points count double"),
    }

    # -- setup and flow ------------------------------------------------------

    def setup(self, seats: list[Seat], options: dict[str, Any], rng: Rng) -> State:
        players = [seat.id for seat in seats]
        count = len(players)
        variant = options.get("variant", "standard")
        long_game = variant in ("x", "xy")
        # IDENTITY-17: with six players every card is already dealt, so Y adds nothing.
        randomized = variant in ("y", "xy") and count < 6
        colours = list(COLOURS[: min(count, 5)])
        if count == 6 or randomized:
            colours.append(BLACK)
        state: State = {
            "players": players,
            "names": {seat.id: seat.name for seat in seats},
            "turn": 0,
            "variant": variant,
            "long_game": long_game,
            "randomized": randomized,
            "doubled": bool(options.get("doubled", False)) and long_game,
            "colours": colours,
            "deals": 2 if long_game else 1,
            "score": {p: 0 for p in players},
            "results": [],
            "over": False,
        }
        starter = rng.stream("deal-1/starter").choice(players)  # IDENTITY-3
        return _new_deal(state, 1, starter, rng)

    def phase(self, state: State) -> str:
        return state["stage"]

    def due(self, state: State) -> list[str]:
        return [] if state["over"] else list(state["players"])

    def is_over(self, state: State) -> bool:
        return bool(state["over"])

    def winners(self, state: State) -> list[str]:
        if not state["over"]:
            return []
        return leaders(state["players"], state["score"])

    # -- what a player may know ------------------------------------------------

    def view(self, state: State, player: str | None) -> View:
        public = {
            key: copy.deepcopy(state[key])
            for key in (
                "players", "names", "turn", "variant", "long_game", "randomized", "doubled", "colours",
                "deals", "deal", "stage", "trick", "tricks", "leader", "starter", "bids", "plus", "minus",
                "score", "results", "over",
            )
        }
        public["winners"] = self.winners(state)
        public["player"] = player
        public["hand_counts"] = {p: len(state["hands"][p]) for p in state["players"]}
        public["removed_count"] = len(state["removed"])
        # IDENTITY-18: a face-down card is known to its player alone.
        public["played"] = [
            {**record, "plays": [
                play if play["face_up"] or play["player"] == player else {**play, "card": None}
                for play in record["plays"]
            ]}
            for record in state["played"]
        ]
        public["bid_values"] = {p: sum(map(number, c)) if c else None for p, c in state["bids"].items()}
        public["hand"] = list(state["hands"][player]) if player else []
        seen = [c for cards in state["bids"].values() for c in cards]
        seen += [p["card"] for r in public["played"] for p in r["plays"] if p["card"] is not None]
        public["unseen"] = sort_cards(list((Counter(deck(state["colours"])) - Counter(seen + public["hand"])).elements()))
        return public

    def player_fields(self, view: View) -> dict[str, dict[str, Any]]:
        fields: dict[str, dict[str, Any]] = {}
        for p in view["players"]:
            bid = view["bids"][p]
            fields[p] = {
                "score": view["score"][p],
                "deal_points": [r["rows"][p]["points"] * r["multiplier"] for r in view["results"]],
                "bid": view["bid_values"][p],
                "bid_cards": list(bid),
                "plus": view["plus"][p],
                "minus": view["minus"][p],
                "wins": view["plus"][p] - view["minus"][p],
                "cards_left": view["hand_counts"][p],
            }
            if p == view["player"]:
                fields[p]["hand"] = list(view["hand"])
        return fields

    # -- reading orders ------------------------------------------------------------

    def read_orders(self, view: View, player: str, items: list[tuple[int, Any]]) -> list[Reading]:
        if view["stage"] == "bid":
            return _read_bids(view, items)
        return _read_tricks(view, items)

    def default_orders(self, state: State, player: str, rng: Rng) -> list[Order]:
        # IDENTITY-4 and IDENTITY-8: a silent player's bid is drawn at random and
        # their plays follow the default rule, both inside resolve.
        return []

    # -- resolution ---------------------------------------------------------------------

    def resolve(self, state: State, orders: dict[str, list[Order]], rng: Rng) -> tuple[State, list[Event]]:
        new = copy.deepcopy(state)
        new["turn"] = state["turn"] + 1
        if state["stage"] == "bid":
            return new, _resolve_bids(new, orders, rng)
        events = play_tricks(new, orders)
        if new["trick"] > new["tricks"]:
            events += _end_deal(new, rng)
        return new, events

    # -- demo -------------------------------------------------------------------------

    def demo_orders(self, view: View, player: str, stream: Stream) -> list[Any]:
        hand = list(view["hand"])
        if view["stage"] == "bid":
            stream.shuffle(hand)
            a, b = hand[:2]
            form = stream.below(4)
            if form == 0:
                return [f"bid {_scribble(a, stream)} {_scribble(b, stream)}"]
            if form == 1:
                return [a, b]
            return [{"bid": [a, b]}]
        items: list[Any] = []
        last = min(view["tricks"], view["trick"] + stream.below(4))
        for trick in range(view["trick"], last + 1):
            play = [c for c in hand if stream.below(4)]
            down = [c for c in hand if stream.below(3)]
            stream.shuffle(play)
            stream.shuffle(down)
            form = stream.below(5)
            if form == 0:
                items.append(
                    ("" if trick == view["trick"] and stream.below(2) else f"trick {trick}: ")
                    + "play " + ", ".join(_scribble(c, stream) for c in play)
                    + (" down " + " ".join(down) if down else "")
                )
            else:
                items.append({"trick": trick, "play": play, "face_down": down})
        return items

    # -- conformance hooks ---------------------------------------------------------------

    def disguises(
        self, state: State, orders: dict[str, list[Order]], player: str, stream: Stream
    ) -> list[tuple[State, dict[str, list[Order]]]]:
        """Worlds that differ in cards only `player` has seen (see _disguised_worlds)."""
        if state["over"]:
            return []
        return _disguised_worlds(state, orders, player, stream)

    def invariants(self, state: State) -> list[str]:
        return _invariants(state)


# -- deals and bids --------------------------------------------------------------------


def _hand_size(players: int) -> int:
    """IDENTITY-19: 14 cards with 3-5 players, 12 with 6."""
    return 12 if players == 6 else 14


def _new_deal(state: State, deal: int, starter: str, rng: Rng) -> State:
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


def _read_bids(view: View, items: list[tuple[int, Any]]) -> list[Reading]:
    """IDENTITY-4: the bid is the first two cards named by the bid orders, in order."""
    hand = view["hand"]
    chosen: list[str] = []
    readings = []
    for index, item in items:
        reading = Reading(index=index, written=_written(item))
        readings.append(reading)
        try:
            cards = parse_bid(item)
        except ValueError as exc:
            reading.void = str(exc)
            continue
        if len(chosen) + len(cards) > 2:
            reading.void = (
                f"a bid is two cards and your earlier orders already named {', '.join(chosen)}" if chosen
                else f"a bid is two cards, not {len(cards)}"
            )
        elif not holds(remove_cards(hand, chosen), cards):
            reading.void = _not_held(cards, remove_cards(hand, chosen))
        else:
            chosen += cards
            reading.order = {"bid": cards}
            reading.meaning = "bid card" + ("s " if len(cards) > 1 else " ") + " and ".join(cards)
    accepted = [r for r in readings if r.accepted]
    if accepted:
        last = accepted[-1]
        if len(chosen) == 2:
            total = sum(map(number, chosen))
            wins = f"{total:+d} {'win' if abs(total) == 1 else 'wins'}" if total else "0 wins"
            last.meaning += f": your bid is {chosen[0]} + {chosen[1]} = {wins}"
        else:
            last.meaning += "; the second bid card will be drawn at random from the rest of your hand"
    return readings


def _not_held(cards: list[str], available: list[str]) -> str:
    """Why these cards cannot be named: the first one the hand lacks (a second copy counts)."""
    need = Counter(cards)
    card = next(c for c in cards if need[c] > available.count(c))
    if available.count(card):
        return f"you hold only one {card}"
    return f"you do not hold {card} (your cards: {', '.join(available) or 'none'})"


def _resolve_bids(state: State, orders: dict[str, list[Order]], rng: Rng) -> list[Event]:
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


# -- tricks ------------------------------------------------------------------------------


def _lists(orders: dict[str, list[Order]]) -> dict[str, dict[int, Order]]:
    """Each player's list per trick; several orders for one trick join in the order written (IDENTITY-11)."""
    lists: dict[str, dict[int, Order]] = {}
    for player, items in orders.items():
        mine = lists.setdefault(player, {})
        for order in items:
            if "trick" in order:
                joined = mine.setdefault(order["trick"], {"play": [], "face_down": []})
                joined["play"] = joined["play"] + order["play"]
                joined["face_down"] = joined["face_down"] + order["face_down"]
    return lists


def seat_order_from(players: list[str], leader: str) -> list[str]:
    start = players.index(leader)
    return players[start:] + players[:start]


def choose_play(
    hand: list[str], area: list[dict[str, Any]], plan: Order | None
) -> tuple[str, bool, str] | None:
    """(card, face up, how) for one player's moment, or None when the list does not settle it.

    IDENTITY-7: the first playable card of the play list; with nothing playable,
    the first held card of the face-down list. IDENTITY-9: one legal choice is forced.
    """
    up = [c for c in distinct(hand) if playable(c, area)]
    choices = up or distinct(hand)
    wanted = (plan or {}).get("play" if up else "face_down", [])
    pick = next((c for c in wanted if c in choices), None)
    if pick is not None:
        return pick, bool(up), "list"
    if len(choices) == 1:
        return choices[0], bool(up), "forced"
    return None


def default_play(hand: list[str], area: list[dict[str, Any]]) -> tuple[str, bool]:
    """IDENTITY-8: the lowest-numbered legal card, colour order breaking ties; no draw needed."""
    up = [c for c in distinct(hand) if playable(c, area)]
    return min(up or distinct(hand), key=default_key), bool(up)


def trick_plays(state: State, lists: dict[str, dict[int, Order]], first: bool) -> list[dict[str, Any]] | None:
    """Every play of the pending trick in play order, or None when a list does not settle it (IDENTITY-10)."""
    trick = state["trick"]
    area: list[dict[str, Any]] = []
    for player in seat_order_from(state["players"], state["leader"]):
        hand = state["hands"][player]
        settled = choose_play(hand, area, lists.get(player, {}).get(trick))
        if settled is None:
            if not first:
                return None
            card, face_up = default_play(hand, area)
            settled = (card, face_up, "default")
        card, face_up, how = settled
        area.append({"player": player, "card": card, "face_up": face_up, "how": how})
    return area


def play_tricks(state: State, orders: dict[str, list[Order]]) -> list[Event]:
    """Play the pending trick, then each next trick the lists settle (IDENTITY-10). Changes `state`."""
    lists = _lists(orders)
    events: list[Event] = []
    first = True
    while state["trick"] <= state["tricks"]:
        plays = trick_plays(state, lists, first)
        if plays is None:
            break
        events += _take_trick(state, plays)
        first = False
    return events


def _take_trick(state: State, plays: list[dict[str, Any]]) -> list[Event]:
    """IDENTITY-13/14: lowest face-up card leads next, highest takes the plus trick, face-down cards are minus tricks."""
    up = [p for p in plays if p["face_up"]]
    lowest = min(up, key=lambda p: number(p["card"]))
    highest = max(up, key=lambda p: number(p["card"]))
    record = {
        "deal": state["deal"],
        "trick": state["trick"],
        "leader": state["leader"],
        "plays": [{"player": p["player"], "card": p["card"], "face_up": p["face_up"]} for p in plays],
        "plus": highest["player"],
        "next_leader": lowest["player"],
    }
    for play in plays:
        state["hands"][play["player"]] = remove_cards(state["hands"][play["player"]], [play["card"]])
        if not play["face_up"]:
            state["minus"][play["player"]] += 1
    state["plus"][highest["player"]] += 1
    state["played"].append(record)
    state["leader"] = lowest["player"]
    state["trick"] += 1
    public = {**record, "plays": [p if p["face_up"] else {**p, "card": None} for p in record["plays"]]}
    events: list[Event] = [{"code": "trick", "seen_by": "all", **public, "highest": highest["card"],
                            "lowest": lowest["card"], "last": record["trick"] == state["tricks"]}]
    for play in plays:
        if not play["face_up"]:
            events.append({"code": "face_down", "seen_by": [play["player"]], "deal": record["deal"],
                           "trick": record["trick"], "player": play["player"], "card": play["card"]})
        if play["how"] == "default":  # IDENTITY-21: only the player learns their list did not settle it
            events.append({"code": "default_play", "seen_by": [play["player"]], "deal": record["deal"],
                           "trick": record["trick"], "player": play["player"], "card": play["card"],
                           "face_up": play["face_up"]})
    return events


# -- scoring and the long game -------------------------------------------------------------


def points(bid: int, wins: int) -> int:
    """IDENTITY-15: 5 for an exact bid, 3 one off, 2 two off, nothing further off."""
    return POINTS.get(abs(bid - wins), 0)


def _end_deal(state: State, rng: Rng) -> list[Event]:
    """Score the finished deal; in the long game deal the second (IDENTITY-16); else the game ends."""
    deal = state["deal"]
    multiplier = 2 if state["doubled"] and deal == 2 else 1
    rows = {}
    for p in state["players"]:
        bid = sum(map(number, state["bids"][p]))
        wins = state["plus"][p] - state["minus"][p]
        rows[p] = {"bid": bid, "plus": state["plus"][p], "minus": state["minus"][p], "wins": wins,
                   "difference": abs(bid - wins), "points": points(bid, wins)}
        state["score"][p] += rows[p]["points"] * multiplier
    result = {"deal": deal, "multiplier": multiplier, "rows": rows, "bids": copy.deepcopy(state["bids"])}
    state["results"].append(result)
    events: list[Event] = [{"code": "deal_scored", "seen_by": "all", **copy.deepcopy(result),
                            "score": dict(state["score"])}]
    if deal < state["deals"]:
        low = min(rows[p]["points"] for p in state["players"])
        tied = [p for p in state["players"] if rows[p]["points"] == low]
        starter = tied[0] if len(tied) == 1 else rng.stream(f"deal-{deal + 1}/starter").choice(tied)
        _new_deal(state, deal + 1, starter, rng)
        events.append({"code": "new_deal", "seen_by": "all", "deal": deal + 1, "starter": starter, "tied": tied})
    else:
        state["over"] = True
        events.append({"code": "game_over", "seen_by": "all", "winners": leaders(state["players"], state["score"])})
    return events


# -- reading trick orders ----------------------------------------------------------------------


def _read_tricks(view: View, items: list[tuple[int, Any]]) -> list[Reading]:
    """IDENTITY-11/12: one list per trick of this deal, naming only cards held now."""
    hand = view["hand"]
    taken: dict[int, list[Reading]] = {}
    readings = []
    for index, item in items:
        reading = Reading(index=index, written=_written(item))
        readings.append(reading)
        try:
            order = parse_trick(item)
        except ValueError as exc:
            reading.void = str(exc)
            continue
        trick = view["trick"] if order["trick"] is None else order["trick"]
        order["trick"] = trick
        missing = [c for c in order["play"] + order["face_down"] if c not in hand][:1]
        if trick < view["trick"]:
            reading.void = f"trick {trick} has already been played; the next trick is {view['trick']}"
        elif trick > view["tricks"]:
            reading.void = f"this deal has only {view['tricks']} tricks"
        elif missing:
            reading.void = _not_held(missing, hand)
        else:
            reading.order = order
            taken.setdefault(trick, []).append(reading)
    for trick, group in taken.items():
        joined = {"trick": trick, "play": [], "face_down": []}
        for reading in group:
            joined["play"] += reading.order["play"]
            joined["face_down"] += reading.order["face_down"]
        for reading in group:
            reading.meaning = _trick_meaning(joined, view["trick"])
            if len(group) > 1:
                orders = ", ".join(str(r.index + 1) for r in group)
                reading.meaning = f"orders {orders} join into one list for " + reading.meaning
    return readings


def _trick_meaning(order: Order, pending: int) -> str:
    trick = order["trick"]
    text = f"trick {trick}: " + (
        "face up the first playable of " + ", ".join(order["play"]) if order["play"] else "no face-up list"
    )
    text += (
        "; with nothing playable, face down the first you still hold of " + ", ".join(order["face_down"])
        if order["face_down"] else "; no face-down list"
    )
    fallback = (
        "the default plays your lowest legal card" if trick == pending
        else f"play stops before trick {trick} and waits for new orders (unless you have only one choice)"
    )
    return text + f"; where this does not settle your play, {fallback}"


def _scribble(card: str, stream: Stream) -> str:
    """The demo writes cards the way people type them, now and then."""
    roll = stream.below(6)
    if roll == 0:
        return card.capitalize()
    if roll == 1:
        return f"{colour(card)} {number(card):+d}" if number(card) else "Black 0"
    if roll == 2 and number(card) > 0:
        return f"{colour(card)}{number(card)}"
    return card


# -- disguises and invariants ----------------------------------------------------------------


def _hidden_elsewhere(state: State, player: str) -> list[tuple[str, int, int]]:
    """Cards nobody but `player` has seen, outside their hand: (card, trick index or -1 for removed, play index)."""
    spots = [(card, -1, i) for i, card in enumerate(state["removed"])]
    for t, record in enumerate(state["played"]):
        for i, play in enumerate(record["plays"]):
            if play["player"] == player and not play["face_up"]:
                spots.append((play["card"], t, i))
    return spots


def _disguised_worlds(
    state: State, orders: dict[str, list[Order]], player: str, stream: Stream
) -> list[tuple[State, dict[str, list[Order]]]]:
    """Other worlds that only `player` can tell apart.

    Nobody else has seen the player's hand, their face-down cards or the removed
    cards; the others do know every face-up card and bid, the number of tricks
    played and that each face-down play was made with nothing playable. So the
    worlds (a) swap an unplayed hand card with a face-down or removed card, or
    (b) put face down another card of the hand this turn; the player's orders
    become explicit lists that repeat their plays. A world is kept only if those
    plays are legal in it, including every earlier face-down play.
    """
    trial = copy.deepcopy(state)
    if state["stage"] == "bid":
        mine = [c for o in orders.get(player, []) for c in o["bid"]]
        if len(mine) < 2:
            return []  # the bid would be drawn from the hand itself
        kept_orders = orders
        final_hand = remove_cards(state["hands"][player], mine)
        plays: list[dict[str, Any]] = []
    elif not orders.get(player):
        return []  # a silent player's default plays follow from their hand, so they are not disguised
    else:
        play_tricks(trial, orders)
        plays = [dict(p, trick=r["trick"]) for r in trial["played"][len(state["played"]):] for p in r["plays"]
                 if p["player"] == player]
        final_hand = trial["hands"][player]
        kept_orders = {**orders, player: _replay_orders(plays)}
    worlds = []
    spots = _hidden_elsewhere(state, player)
    candidates = [(a, s) for a in distinct(final_hand) for s in spots if s[0] != a]
    stream.shuffle(candidates)
    for a, (b, t, i) in candidates[:6]:
        world = copy.deepcopy(state)
        world["hands"][player] = sort_cards(remove_cards(world["hands"][player], [a]) + [b])
        if t < 0:
            world["removed"] = sort_cards(remove_cards(world["removed"], [b]) + [a])
        else:
            world["played"][t]["plays"][i]["card"] = a
        if _replays(world, kept_orders, player, plays):
            worlds.append((world, kept_orders))
            break
    downs = [p for p in plays if not p["face_up"]]
    swaps = [(p, z) for p in downs for z in distinct(final_hand) if z != p["card"]]
    stream.shuffle(swaps)
    for down, other in swaps[:6]:
        moved = [dict(p, card=other) if p is down else p for p in plays]
        changed = {**orders, player: _replay_orders(moved)}
        if _replays(state, changed, player, moved):
            worlds.append((state, changed))
            break
    return worlds


def _replay_orders(plays: list[dict[str, Any]]) -> list[Order]:
    return [
        {"trick": p["trick"], "play": [p["card"]] if p["face_up"] else [], "face_down": [] if p["face_up"] else [p["card"]]}
        for p in plays
    ]


def _replays(world: State, orders: dict[str, list[Order]], player: str, plays: list[dict[str, Any]]) -> bool:
    """Whether, in `world`, the player's plays come out as `plays` and every face-down play of the deal is legal."""
    trial = copy.deepcopy(world)
    if world["stage"] == "trick":
        before = len(trial["played"])
        play_tricks(trial, orders)
        got = [dict(p, trick=r["trick"]) for r in trial["played"][before:] for p in r["plays"] if p["player"] == player]
        if got != plays:
            return False
    return not _illegal_face_downs(trial, player)


def _illegal_face_downs(state: State, player: str) -> list[int]:
    """Tricks in which `player` played face down while holding a playable card."""
    hand = list(state["hands"][player])
    for record in state["played"]:
        hand += [p["card"] for p in record["plays"] if p["player"] == player]
    wrong = []
    for record in state["played"]:
        area: list[dict[str, Any]] = []
        for play in record["plays"]:
            if play["player"] == player:
                if not play["face_up"] and any(playable(c, area) for c in hand):
                    wrong.append(record["trick"])
                hand.remove(play["card"])
            area.append(play)
    return wrong


def _invariants(state: State) -> list[str]:
    problems = []
    located = [c for hand in state["hands"].values() for c in hand]
    located += [c for bid in state["bids"].values() for c in bid]
    located += [p["card"] for r in state["played"] for p in r["plays"]] + state["removed"]
    if sort_cards(located) != deck(state["colours"]):
        extra = Counter(located) - Counter(deck(state["colours"]))
        lost = Counter(deck(state["colours"])) - Counter(located)
        problems.append(f"cards not conserved: extra {sorted(extra.elements())}, missing {sorted(lost.elements())}")
    for p in state["players"]:
        plus = sum(1 for r in state["played"] if r["plus"] == p)
        minus = sum(1 for r in state["played"] for x in r["plays"] if x["player"] == p and not x["face_up"])
        if (plus, minus) != (state["plus"][p], state["minus"][p]):
            problems.append(f"{p}'s plus/minus tricks {state['plus'][p]}/{state['minus'][p]} are not the {plus}/{minus} played")
        earned = sum(r["rows"][p]["points"] * r["multiplier"] for r in state["results"])
        if earned != state["score"][p]:
            problems.append(f"{p}'s score {state['score'][p]} is not the {earned} their deals earned")
        if wrong := _illegal_face_downs(state, p):
            problems.append(f"{p} played face down while holding a playable card in tricks {wrong}")
    for r in state["results"]:
        for p, row in r["rows"].items():
            if row["points"] != points(row["bid"], row["wins"]):
                problems.append(f"deal {r['deal']}: {p} scored {row['points']}, not what the table gives")
    for r in state["played"]:
        up = [x["card"] for x in r["plays"] if x["face_up"]]
        if len({colour(c) for c in up}) != len(up) or len({number(c) for c in up}) != len(up):
            problems.append(f"trick {r['trick']}: two face-up cards share a colour or a number")
    if len({len(h) for h in state["hands"].values()}) > 1:
        problems.append("hands are of different sizes between tricks")
    return problems


GAME = Identity()
