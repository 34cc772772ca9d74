"""Counter-strategies for bench/standins.py: a thoughtful newcomer per game (design 19).

Each is written from the rulebook alone: a player who reads the public record of past
turns (the seat's view, as a human reads their reports) and plays against what it shows,
without randomness beyond breaking ties. They are what a stand-in must not be farmed by:
the bench plays them in the measured seat among random players and among stand-ins.
A game without a counter here is measured without one (the table says so).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from adjudicator.common.rng import Stream
from adjudicator.games.base import View

Counter = Callable[[View, str, Stream], list[Any]]

# -- Hide the Kids! -------------------------------------------------------------

_PAYS = {"tub": 2.0, "clock": 1.3}
"""What a newcomer reads in the rulebook that draws a kid to a piece: the tub pays two pebbles, the
clock one and a token off the wolf."""


def hidekids(view: View, player: str, stream: Stream) -> list[Any]:
    """The wolf reads each kid's habits from the record (`_reading_wolf`); a kid hides where the pay
    is good and the wolf has not been lifting (`_kid`)."""
    if player == view["wolf"]:
        return _reading_wolf(view, stream)
    return _kid(view, player, stream)


def _best(scores: dict[str, float], stream: Stream, count: int) -> list[str]:
    """The `count` best, ties broken by the stream."""
    jitter = {p: stream.below(1000) / 1e6 for p in scores}
    return sorted(scores, key=lambda p: -(scores[p] + jitter[p]))[:count]


def _kid(view: View, player: str, stream: Stream) -> list[Any]:
    """Where pay is good and the wolf has not been lifting, never back where it was seen last turn."""
    history = view["history"]
    score = {p: _PAYS.get(p, 1.0) for p in view["furniture"]}
    turns = max(1, len(history))
    for turn in history:
        for lift in turn["lifts"]:
            score[lift["furniture"]] *= 1 - 0.6 / turns ** 0.5 / 2
    if history:
        for lift in history[-1]["lifts"]:
            score[lift["furniture"]] *= 0.5
        mine, _ = _sightings(history[-1]).get(player, (None, False))
        if mine:
            score[mine] *= 0.2
    return [{"hide": _best(score, stream, 1)[0]}]


# -- Hide the Kids!: the wolf, who reads each kid's habits ----------------------

Sighting = tuple[str | None, bool]
"""Where a kid was one turn (None: it did not hide) and whether it was caught."""
Context = tuple[str | None, bool, tuple[str, ...]]
"""What a kid's next choice is read against: its last sighting and the wolf's last lifts."""
MOVES = ("back", "lifted", "elsewhere")
"""Where a kid goes next, as a reader of the record sorts it: back where it was, under a piece the
wolf just lifted, or somewhere else."""
_LEAN = 2.0
"""How many sightings of its own a habit needs to count as much as what kids in general do."""


def _sightings(turn: dict[str, Any]) -> dict[str, Sighting]:
    seen: dict[str, Sighting] = {kid: (None, True) for kid in turn["not_hidden"]}
    seen.update({kid: (lift["furniture"], True) for lift in turn["lifts"] for kid in lift["found"]})
    seen.update({escape["kid"]: (escape["furniture"], False) for escape in turn["escaped"]})
    return seen


def _smoothed(counts: dict[str, float], toward: dict[str, float], strength: float = _LEAN) -> dict[str, float]:
    """Counts read as chances, pulled toward `toward` as if it had been seen `strength` times."""
    total = sum(counts.values()) + strength
    return {p: (counts.get(p, 0.0) + strength * chance) / total for p, chance in toward.items()}


@dataclass
class Habits:
    """What a kid (or the kids together) did, counted from the record."""

    where: dict[str, float] = field(default_factory=dict)
    after_me: dict[tuple[str | None, bool], dict[str, float]] = field(default_factory=dict)
    after_lift: dict[str, dict[str, float]] = field(default_factory=dict)
    moves: dict[bool, dict[str, float]] = field(default_factory=dict)

    def add(self, place: str, context: Context | None) -> None:
        _count(self.where, place)
        if context is None:
            return
        last, caught, lifted = context
        _count(self.after_me.setdefault((last, caught), {}), place)
        for piece in lifted:
            _count(self.after_lift.setdefault(piece, {}), place, 1 / len(lifted))
        _count(self.moves.setdefault(caught, {}), _move(place, context))


def _count(counts: dict[str, float], key: str, weight: float = 1.0) -> None:
    counts[key] = counts.get(key, 0.0) + weight


def _move(place: str, context: Context) -> str:
    last, _, lifted = context
    return "back" if place == last else "lifted" if place in lifted else "elsewhere"


def _guesses(own: Habits, kids: Habits, context: Context | None, furniture: list[str]) -> dict[str, dict[str, float]]:
    """Each way of reading the record, as chances of where the kid hides now: its own habit smoothed
    toward the kids' habit, smoothed toward what the rulebook pays."""
    paid = {p: _PAYS.get(p, 1.0) for p in furniture}
    pay = {p: w / sum(paid.values()) for p, w in paid.items()}
    where = _smoothed(own.where, _smoothed(kids.where, pay))
    guesses = {"where": where}
    if context is None:
        return guesses
    last, caught, lifted = context
    key = (last, caught)
    guesses["after_me"] = _smoothed(own.after_me.get(key, {}), _smoothed(kids.after_me.get(key, {}), where))
    after_lift = [_smoothed(own.after_lift.get(y, {}), _smoothed(kids.after_lift.get(y, {}), where)) for y in lifted]
    guesses["after_lift"] = {p: sum(g[p] for g in after_lift) / len(after_lift) for p in furniture}
    share = {move: sum(where[p] for p in furniture if _move(p, context) == move) for move in MOVES}
    chance = {move: s / sum(share.values()) for move, s in share.items()}
    anyway = _smoothed(_summed(own.moves.values()), _smoothed(kids.moves.get(caught, {}), chance))
    moves = _smoothed(own.moves.get(caught, {}), anyway)
    # Back or under a lift, the move is the habit, not the piece: the two lifts are one guess each.
    pieces = {move: sum(_move(p, context) == move for p in furniture) for move in MOVES}
    weights = {p: moves[m] * (where[p] / share[m] if m == "elsewhere" else 1 / pieces[m]) for p in furniture for m in [_move(p, context)]}
    guesses["moves"] = {p: w / sum(weights.values()) for p, w in weights.items()}  # a kid that did not hide has no "back"
    return guesses


def _summed(counts: Iterable[dict[str, float]]) -> dict[str, float]:
    total: dict[str, float] = {}
    for each in counts:
        for key, count in each.items():
            _count(total, key, count)
    return total


def _expected_kids(view: View) -> dict[str, dict[str, float]]:
    """Where each kid hides this turn, as the wolf reads the record: every way of reading it is weighed
    by how well it would have foretold that kid's own past turns (a log score)."""
    furniture = view["furniture"]
    kids = Habits()
    own = {kid: Habits() for kid in view["kids"]}
    score = {kid: {} for kid in view["kids"]}
    contexts: dict[str, Context | None] = {kid: None for kid in view["kids"]}
    for turn in view["history"]:
        seen = _sightings(turn)
        lifted = tuple(lift["furniture"] for lift in turn["lifts"])
        placed = [(kid, seen[kid][0]) for kid in view["kids"] if kid in seen and seen[kid][0] is not None]
        for kid, place in placed:
            for name, guess in _guesses(own[kid], kids, contexts[kid], furniture).items():
                score[kid][name] = score[kid].get(name, 0.0) + math.log(guess[place])
        for kid, place in placed:
            own[kid].add(place, contexts[kid])
            kids.add(place, contexts[kid])
        contexts = {kid: (*seen[kid], lifted) if kid in seen else None for kid in view["kids"]}
    expected = {}
    for kid in view["kids"]:
        guesses = _guesses(own[kid], kids, contexts[kid], furniture)
        best = max(score[kid].get(name, 0.0) for name in guesses)
        weight = {name: math.exp(score[kid].get(name, 0.0) - best) for name in guesses}
        expected[kid] = {p: sum(weight[n] * g[p] for n, g in guesses.items()) / sum(weight.values()) for p in furniture}
    return expected


_CLOCK_KEPT = 4.0
"""What a find at the clock is worth beyond its token and pebble: the token an escape there would cost,
the one way the wolf's count ever falls, counted as a newcomer learns to count it after a few games
(docs/standins.md: counting it 1 lost about six points of wins among random kids)."""


def _reading_wolf(view: View, stream: Stream) -> list[Any]:
    """The wolf lifts the two pieces where a find is worth most this turn: each kid's chance of being
    there (read from its habits, `_expected_kids`) times a token, the pebbles it would win there and,
    at the clock, the token it would cost (`_CLOCK_KEPT`); a kid nearer seven pebbles counts more."""
    from adjudicator.games.hidekids.rules import pebbles_at

    worth = {p: 1.0 + pebbles_at(p) + (_CLOCK_KEPT if p == "clock" else 0.0) for p in view["furniture"]}
    gain = {p: 0.0 for p in view["furniture"]}
    for kid, chances in _expected_kids(view).items():
        urgency = 1.0 + view["pebbles"][kid] / 7
        for piece, chance in chances.items():
            gain[piece] += urgency * chance * worth[piece]
    return [{"lift": _best(gain, stream, 2)}]


# -- Sid's Secrets --------------------------------------------------------------


def secrets(view: View, player: str, stream: Stream) -> list[Any]:
    """Guard the best secret with just enough (a 7 alone stops any single SID); steal the best
    secrets of others that the public record shows unguarded, avoiding what was guarded before;
    go after the same secret as nobody else if possible (lowest seats' targets are guessed)."""
    from adjudicator.games.secrets.rules import value

    sids = sorted(view["sids"][player], reverse=True)
    mine = sorted(view["secrets"][player], reverse=True)
    banned = {(r["sid"], r["secret"]) for r in view["restrictions"]}
    attempts = view.get("attempts", [])
    guarded = {(a["owner"], a["secret"]) for a in attempts if a["code"] in ("captured", "escaped")}
    tried = {(a["owner"], a["secret"]): a["turn"] for a in attempts}
    items: list[Any] = []
    free = list(sids)
    # Guard: the best secret with the lowest group that reaches 7 (a 7 alone if it may).
    if mine:
        secret = mine[0]
        group = next(([s] for s in sorted(free) if s >= 7 and (s, secret) not in banned), None)
        if group is None:
            group = []
            for s in free:
                if (s, secret) not in banned and sum(group) < 7:
                    group.append(s)
        for s in group:
            free.remove(s)
            items.append({"sid": s, "guard": secret})
    scored = []
    for victim in view["players"]:
        if victim == player:
            continue
        for secret in view["secrets"][victim]:
            worth = value(secret)
            if (victim, secret) in guarded:
                worth *= 0.2
            elif (victim, secret) in tried:
                worth *= 0.8
            scored.append((worth + stream.below(1000) / 1e4, victim, secret))
    scored.sort(reverse=True)
    for sid, (_, victim, secret) in zip(sorted(free, reverse=True), scored):
        items.append({"sid": sid, "steal": {"player": victim, "secret": secret}})
    return items


# -- Identity -------------------------------------------------------------------


def identity(view: View, player: str, stream: Stream) -> list[Any]:
    """Bid what the hand's cards would win if each took the trick whenever every other card of the
    trick is lower (the chance counted from the cards not seen); then play high while short of the
    bid, low once it is reached, and give up the card least needed when forced face down. One trick a
    turn, as a careful newcomer orders."""
    from adjudicator.games.identity.cards import distinct, number

    hand = list(view["hand"])
    unseen = list(view["unseen"])
    others = len(view["players"]) - 1

    def wins(card: str) -> float:
        lower = sum(number(c) < number(card) for c in unseen)
        return (lower / max(1, len(unseen))) ** others

    if view["stage"] == "bid":
        best: tuple[float, float, list[str]] | None = None
        for i in range(len(hand)):
            for j in range(i + 1, len(hand)):
                rest = [c for k, c in enumerate(hand) if k not in (i, j)]
                miss = abs(number(hand[i]) + number(hand[j]) - sum(wins(c) for c in rest))
                key = (miss, stream.below(1000) / 1e3)
                if best is None or key < best[:2]:
                    best = (*key, [hand[i], hand[j]])
        assert best is not None
        return [{"bid": best[2]}]
    need = (view["bid_values"][player] or 0) - (view["plus"][player] - view["minus"][player])
    low_first = sorted(distinct(hand), key=number)
    play = list(reversed(low_first)) if need > 0 else low_first
    down = low_first if need >= 0 else list(reversed(low_first))
    return [{"trick": view["trick"], "play": play, "face_down": down}]


# -- H.I.D.E. ---------------------------------------------------------------------


def hide(view: View, player: str, stream: Stream) -> list[Any]:
    """Target the richest building the others are least likely to want (intel over one plus the
    rivals' dice already showing it); take dice that land on top of the screen (life in a showdown,
    and a shot), a gun turned to the target; shoot the rival whose screen pins down the identity,
    as the public dice on each screen allow."""
    from adjudicator.games.hide.components import BUILDINGS, COLOURS, GUN, die_key, richest, shares_feature
    from adjudicator.games.hide.mission import placed_die

    def intel(b: str) -> int:
        return sum(view["buildings"][b])

    if view["stage"] == "security":
        return [{"security": sorted(BUILDINGS, key=lambda b: -intel(b))[1]}]
    if view["stage"] == "identity":
        allowed = [b for b in BUILDINGS if b != view["security"]]
        score = {b: intel(b) + 1 + stream.below(100) / 1e3 for b in allowed}
        return [{"target": b} for b in sorted(allowed, key=lambda b: -score[b])]
    identity_die = view["identity"]
    guesses = []
    for rival in view["players"]:
        if rival == player or rival in view["out"]:
            continue
        screen = view["screens"][rival]
        fits = [
            (colour, b) for colour in COLOURS for b in BUILDINGS if b != view["security"]
            and all(shares_feature(d, {"colour": colour, "icon": b}) for d in screen["top"])
            and not any(shares_feature(d, {"colour": colour, "icon": b}) for d in screen["front"])
        ]
        if fits:
            colour, b = max(fits, key=lambda f: (intel(f[1]), -COLOURS.index(f[0])))
            guesses.append((len(fits), rival, {"player": rival, "colour": colour, "icon": b}))
    guesses.sort(key=lambda g: (g[0], view["players"].index(g[1])))
    top, front = [], []
    for c, icon in sorted({(d["colour"], d["icon"]) for d in view["pool"]}, key=lambda t: die_key({"colour": t[0], "icon": t[1]})):
        item: dict[str, Any] = {"pick": {"colour": c, "icon": icon}}
        if icon == GUN:
            item["gun"] = identity_die["icon"]
        if shares_feature(placed_die(item["pick"], item.get("gun"), identity_die), identity_die):
            if guesses:
                item["guess"] = [dict(g[2]) for g in guesses]
            top.append(item)
        else:
            front.append(item)
    return [*top, *front, {"last_man": richest(view["buildings"])}]


# -- Jekyll vs Hyde -----------------------------------------------------------------


def jekyll(view: View, player: str, stream: Stream, ahead: bool = False) -> list[Any]:
    """Jekyll wants the round's tricks even, Hyde far apart: take the trick when that helps, else
    give it. Leading to take: the strongest card of the colour the opponent has shown none of, else
    the strongest; to give: the weakest card of a colour the opponent still follows. Following: the
    strongest legal card to take, the weakest to give. Exchanges give the lowest colour cards.

    One trick a turn, so it sees every trick played before it orders the next. `ahead`: as a
    stand-in's seat must (design 19: a seat it plays never slows the campaign), it also orders every
    later trick of the round, each with the wish it has now: its hand strongest first to take,
    weakest first to give (the engine plays the first card still held that the trick allows)."""
    from adjudicator.games.jekyll.cards import COLOURS, TRICKS, colour, is_potion, low_order

    hand = list(view["hand"])
    potions = sorted((c for c in hand if is_potion(c)), key=low_order)
    colours = sorted((c for c in hand if not is_potion(c)), key=low_order)
    if view["phase"] in ("exchange", "greed"):
        count = view["exchange_count"] if view["phase"] == "exchange" else view["greed"]["count"]
        first = potions[:1] if view["phase"] == "exchange" and len(potions) >= 2 else []
        return [{"give": c} for c in (first + [c for c in colours + potions if c not in first])[:count]]
    opponent = next(p for p in view["players"] if p != player)
    mine, theirs = view["tricks_won"][player], view["tricks_won"][opponent]
    want = mine < theirs if view["roles"][player] == "jekyll" else mine >= theirs
    strongest = sorted(hand, key=low_order, reverse=True)
    weakest = colours + potions
    order: dict[str, Any] = {"trick": view["trick"], "greed": weakest[:3]}
    held = [colour(c) for c in colours]
    # A potion led to take names the colour it holds least of, to give the one it holds most of.
    named = min(COLOURS, key=lambda n: (held.count(n), COLOURS.index(n))) if want else max(COLOURS, key=held.count)
    listed = strongest if want else weakest
    later = [{"trick": t, "play": listed, "name": named, "greed": weakest[:3]} for t in range(view["trick"] + 1, TRICKS)] if ahead else []
    if view["leader"] != player:
        order["play"] = listed
        return [order, *later]
    # The public record: colours the opponent did not follow this round (void in them, as far as known).
    void = {colour(r["lead"]) for r in view["played"] if r["follower"] == opponent and not is_potion(r["lead"])
            and not is_potion(r["follow"]) and colour(r["follow"]) != colour(r["lead"])}
    if want:
        # Lead where the opponent must follow and is shown weak: the strongest card of a colour they still hold.
        pick = next((c for c in strongest if not is_potion(c) and colour(c) not in void), strongest[0])
    else:
        pick = next((c for c in weakest if colour(c) not in void), weakest[0])
    order["play"] = [pick]
    if is_potion(pick):
        order["name"] = named
    return [order, *later]


COUNTERS: dict[str, Counter] = {"hidekids": hidekids, "hide": hide, "identity": identity, "jekyll": jekyll, "secrets": secrets}

AHEAD: dict[str, Counter] = {"jekyll": partial(jekyll, ahead=True)}
"""The trick games' counters on a stand-in seat's terms: ordering to the round's end, as design 19
binds the stand-in to, rather than one trick a turn (bench/standins.py's "counter, ahead")."""
