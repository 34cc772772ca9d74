"""The stand-in of Hide the Kids!: a mixed hider and a mixed seeker that read the public record.

Being predictable is what loses this game: a kid that always hides under the tub, or a
wolf that always lifts the same two pieces, is farmed by the first player who notices.
So both sides start from the balanced mix of the rulebook's payoffs (`BALANCED_LIFTS`,
`BALANCED_HIDING`: a mix no opponent can beat by always doing one thing) and lean away
from it only as far as the public record of past turns shows the other side is
predictable (the seat's view: every lift, who was found, who escaped where, who did
not hide). The habits read from the record are simple counts, each weighed against
what chance alone would give:

- a kid's habits: where it was seen, how often it went back where it was seen the turn
  before, how often it hid under a piece the wolf had just lifted;
- the wolf's habits: what it lifts, how often it lifts again what it lifted the turn
  before, how often it lifts where kids were seen (and where this kid was seen) the
  turn before.

The wolf expects a kid it knows nothing of yet to lean toward where the pay is
(`KIDS_PRIOR`), and leans a little that way from its first turn. A kid draws its place
from the mix weighed by what each piece pays times the chance it is not lifted (a place
where it was caught, or seen, counts against it as far as the wolf has shown it looks
there), weighed down again where its own record gives it away: a loss is weighed by what
it revealed (where it was seen, twice as much where it was caught, each older turn half as
much), so it does not go straight back where it was caught. Kids earlier in seat order
are expected where their own record sends them, and a kid leans away from those pieces;
another stand-in kid (the view names the seats the stand-in plays, as the public report
does) it shuns by the square of the chance it is not there, so one lift never finds two
stand-ins where one of them was all but certain to hide. The wolf draws its two lifts
with the marginal chances of its mix (systematic sampling: two different pieces, each
with its own chance). All chance comes from the seat's stream. docs/standins.md.
"""

from __future__ import annotations

import math
from typing import Any

from ...common.rng import Stream
from ..base import STANDINS, View
from .rules import FURNITURE, pebbles_at

CLOCK_WORTH = 0.5
"""What a kid counts the clock's harm to the wolf as, in pebbles."""
KID_PAYS = {piece: pebbles_at(piece) + (CLOCK_WORTH if piece == "clock" else 0.0) for piece in FURNITURE}
"""What an escape from each piece is worth to a kid."""
CLOCK_ESCAPE_COSTS = 2.5
"""What an escape from the clock costs the wolf beyond the kid's pebble, in tokens: the token the rulebook
takes, the wolf's one way to lose one, counted as a wolf learns to count it (docs/standins.md: counting it
1 with half the pebbles, as before 2026-12-02, left the stand-in wolf short of the bench's wolf that reads
the record)."""
WOLF_GAINS = {piece: 1.0 + pebbles_at(piece) + (CLOCK_ESCAPE_COSTS if piece == "clock" else 0.0) for piece in FURNITURE}
"""What finding a kid at each piece is worth to the wolf: a token, the pebbles denied, at the clock the token kept."""


def _balanced_lifts() -> dict[str, float]:
    """The lift chances that leave a kid the same worth at every piece: (1 - p) * pays is the same everywhere."""
    level = (len(FURNITURE) - 2) / sum(1 / KID_PAYS[p] for p in FURNITURE)
    return {p: 1 - level / KID_PAYS[p] for p in FURNITURE}


def _balanced_hiding() -> dict[str, float]:
    """The hiding chances that leave the wolf the same gain at every piece: q * gains is the same everywhere."""
    total = sum(1 / WOLF_GAINS[p] for p in FURNITURE)
    return {p: (1 / WOLF_GAINS[p]) / total for p in FURNITURE}


BALANCED_LIFTS = _balanced_lifts()
BALANCED_HIDING = _balanced_hiding()
KIDS_PRIOR = {p: 0.5 * BALANCED_HIDING[p] + 0.5 * KID_PAYS[p] / sum(KID_PAYS.values()) for p in FURNITURE}
"""Where the wolf expects a kid before its record shows any habit: half the balanced mix, half where
the rulebook's pay draws a newcomer (the tub pays double, the clock costs the wolf a token)."""
KID_SHARPNESS = 14.0
"""How strongly a kid prefers the better pieces (a softmax over worth): high enough to play well, low enough to stay unread."""
SEEN_TELLS = 1.0
CAUGHT_TELLS = 2.0
"""How much one sighting of a kid at a piece (an escape, a catch) points a reader of the record there:
the kid's leaning toward the piece is divided by one plus what the record tells of it."""
REVEALED_FADING = 0.5
"""How much less each older turn's sighting tells the reader of the record than the turn after."""
WOLF_LEAN_FIRST = 0.5
WOLF_LEAN_PER_TURN = 0.25
WOLF_LEAN_MAX = 0.95
"""How far the wolf leans from its balanced mix toward where kids are expected: on the first turn (from
KIDS_PRIOR alone), more with each turn of record, and at most. A wolf that lifts by the balanced mix
alone on the first turn gives away the kids who go where the pay is (in bench/standins.py it won 66%
of games where the counter-wolf won 69%; leaning 0.3 at once, 75%); with the clock counted as above,
leaning 0.5 at once and 0.95 at most, 81% where the counter-wolf that reads the record wins 77%.
Leaning 0.7 at once won a point or two more but lifted the tub and the clock together in 70% of
first turns (0.5: half), a pair a kid who knows the stand-in would simply avoid. The aim itself is
a soft choice (`_lifts`) and a twentieth stays balanced, so the lifts still mix."""


def orders(view: View, player: str, stream: Stream) -> list[Any]:
    if player == view["wolf"]:
        return [{"lift": _lifts(view, stream)}]
    return [{"hide": _hiding_place(view, player, stream)}]


# -- the record -------------------------------------------------------------


def _seen(turn: dict[str, Any]) -> dict[str, str]:
    """Where each kid was seen in one turn of the record (found or escaped)."""
    seen = {kid: lift["furniture"] for lift in turn["lifts"] for kid in lift["found"]}
    seen.update({escape["kid"]: escape["furniture"] for escape in turn["escaped"]})
    return seen


def _ratio(hits: float, tries: float, chance: float) -> float:
    """How much more often than chance something happened, pulled toward 1 while the record is short."""
    return (hits + 1.0) / (tries * chance + 1.0)


def _normalised(weights: dict[str, float], total: float = 1.0) -> dict[str, float]:
    whole = sum(weights.values())
    return {p: total * w / whole for p, w in weights.items()}


def _capped(chances: dict[str, float], total: float) -> dict[str, float]:
    """Chances scaled to sum to `total` with none above 1 (what is cut is shared among the rest)."""
    fixed: dict[str, float] = {}
    while True:
        free = {p: c for p, c in chances.items() if p not in fixed}
        scaled = _normalised(free, total - len(fixed))
        over = [p for p, c in scaled.items() if c > 1.0]
        if not over:
            return {**{p: 1.0 for p in fixed}, **scaled}
        fixed.update({p: 1.0 for p in over})


# -- what the wolf is expected to do (a kid's reckoning) ----------------------


def _expected_lifts(view: View, kid: str) -> dict[str, float]:
    """The chance the wolf lifts each piece this turn, as `kid` reckons it from the wolf's record."""
    history = view["history"]
    made = [turn for turn in history if not turn["lifts_drawn"]] or history
    counts = {p: 1.0 for p in FURNITURE}
    for turn in made:
        for lift in turn["lifts"]:
            counts[lift["furniture"]] += 1.0
    habit = _capped(counts, 2.0)
    lean = min(1.0, len(made) / 4)
    chances = {p: (1 - 0.8 * lean) * BALANCED_LIFTS[p] + 0.8 * lean * habit[p] for p in FURNITURE}
    if not history:
        return chances
    # The wolf's habits from one turn to the next: lifting again, lifting where kids (and this kid) were seen.
    again = seen_any = seen_me = 0.0
    pairs = 0
    for before, after in zip(history, history[1:]):
        if after["lifts_drawn"]:
            continue
        lifted = [lift["furniture"] for lift in after["lifts"]]
        earlier = {lift["furniture"] for lift in before["lifts"]}
        seen = _seen(before)
        again += sum(p in earlier for p in lifted) / 2
        seen_any += sum(p in seen.values() for p in lifted) / 2
        seen_me += sum(p == seen.get(kid) for p in lifted) / 2 if kid in seen else 2 / 7
        pairs += 1
    last = history[-1]
    last_lifted = {lift["furniture"] for lift in last["lifts"]}
    last_seen = _seen(last)
    share_seen = len(set(last_seen.values())) / len(FURNITURE)
    factors = {
        "again": _ratio(again, pairs, 2 / 7),
        "seen": _ratio(seen_any, pairs, max(share_seen, 1 / 7) * 2 / 2),
        "me": _ratio(seen_me, pairs, 2 / 7),
    }
    for piece in FURNITURE:
        if piece in last_lifted:
            chances[piece] *= factors["again"]
        if piece in last_seen.values():
            chances[piece] *= factors["seen"]
        if piece == last_seen.get(kid):
            chances[piece] *= factors["me"]
    return _capped(chances, 2.0)


def _hiding_chances(view: View, kid: str) -> dict[str, float]:
    """How `kid` (a stand-in) draws its place: a softmax over worth, weighed down where its record gives it away."""
    lifted = _expected_lifts(view, kid)
    worth = {p: (1 - lifted[p]) * KID_PAYS[p] for p in FURNITURE}
    best = max(worth.values())
    unread = _unread(view, kid)
    return _normalised({p: math.exp(KID_SHARPNESS * (w - best)) * unread[p] for p, w in worth.items()})


def _unread(view: View, kid: str) -> dict[str, float]:
    """How far the public record leaves each piece unread as this kid's place (1: not read at all).

    A wolf reading the record lifts where the kid was seen; where it was caught tells the wolf twice
    over (the kid goes there, and the wolf itself looks there). Each older turn tells half as much."""
    read = {p: 0.0 for p in FURNITURE}
    for age, turn in enumerate(reversed(view["history"])):
        place = _seen(turn).get(kid)
        if place is not None:
            caught = any(kid in lift["found"] for lift in turn["lifts"])
            read[place] += REVEALED_FADING**age * (CAUGHT_TELLS if caught else SEEN_TELLS)
    return {p: 1.0 / (1.0 + r) for p, r in read.items()}


def _hiding_place(view: View, player: str, stream: Stream) -> str:
    return _draw(_placed(view, player), stream)


def _placed(view: View, player: str) -> dict[str, float]:
    """The chances `player` hides at each piece, after leaning away from the kids before it in seat order.

    Where a kid's own reckoning sends it, a later kid goes less; where another stand-in kid goes (its
    chances after its own leaning, worked out in seat order), far less: a stand-in's choice is sharp
    (KID_SHARPNESS), and halving a near-certain piece left two stand-ins under one tub, found by one
    lift (trial 9)."""
    standins = view.get(STANDINS, [])
    kids = view["kids"][: view["kids"].index(player) + 1]
    placed: dict[str, dict[str, float]] = {}
    for kid in kids:
        chances = _hiding_chances(view, kid)
        for earlier in kids[: kids.index(kid)]:
            if earlier in standins and kid in standins:
                shunned = {p: c * (1.0 - placed[earlier][p]) ** 2 for p, c in chances.items()}
                chances = shunned if sum(shunned.values()) > 0 else chances
            else:
                theirs = _hiding_chances(view, earlier)
                chances = {p: c / (1.0 + theirs[p]) for p, c in chances.items()}
        placed[kid] = _normalised(chances)
    return placed[player]


# -- what the kids are expected to do (the wolf's reckoning) -------------------


def _expected_hiding(view: View, kid: str) -> dict[str, float]:
    """The chance `kid` hides at each piece this turn, from its record (where seen, going back, dodging lifts)."""
    history = view["history"]
    counts = {p: 0.5 for p in FURNITURE}
    seen_turns = 0
    again = dodged = 0.0
    pairs = 0
    for index, turn in enumerate(history):
        place = _seen(turn).get(kid)
        if place is None:
            continue
        counts[place] += 1.0
        seen_turns += 1
        if index == 0:
            continue
        earlier = _seen(history[index - 1]).get(kid)
        lifted_before = {lift["furniture"] for lift in history[index - 1]["lifts"]}
        pairs += 1
        again += place == earlier
        dodged += place in lifted_before
    habit = _normalised(counts)
    lean = min(0.8, seen_turns / 5)
    chances = {p: (1 - lean) * KIDS_PRIOR[p] + lean * habit[p] for p in FURNITURE}
    if history:
        last = history[-1]
        earlier = _seen(last).get(kid)
        back = _ratio(again, pairs, 1 / 7)
        into_lifted = _ratio(dodged, pairs, 2 / 7)
        for lift in last["lifts"]:
            chances[lift["furniture"]] *= into_lifted
        if earlier is not None:
            chances[earlier] *= back
    return _normalised(chances)


def _lifts(view: View, stream: Stream) -> list[str]:
    gain = {p: 0.0 for p in FURNITURE}
    for kid in view["kids"]:
        urgency = 1.0 + view["pebbles"][kid] / 7  # a kid near seven pebbles is the one to stop
        for piece, chance in _expected_hiding(view, kid).items():
            gain[piece] += urgency * chance * WOLF_GAINS[piece]
    best = max(gain.values())
    aimed = _capped({p: math.exp(12.0 * (g / best - 1)) for p, g in gain.items()}, 2.0)
    lean = min(WOLF_LEAN_MAX, WOLF_LEAN_FIRST + WOLF_LEAN_PER_TURN * len(view["history"]))
    chances = {p: (1 - lean) * BALANCED_LIFTS[p] + lean * aimed[p] for p in FURNITURE}
    picked = _draw_two(chances, stream)
    return sorted(picked, key=lambda p: -gain[p])  # the likelier find first: a win can come at the first lift


# -- drawing -------------------------------------------------------------------

_GRAIN = 1_000_000


def _draw(chances: dict[str, float], stream: Stream) -> str:
    roll = stream.below(_GRAIN) / _GRAIN
    for piece in FURNITURE:
        roll -= chances[piece]
        if roll < 0:
            return piece
    return max(chances, key=lambda p: chances[p])


def _draw_two(chances: dict[str, float], stream: Stream) -> list[str]:
    """Two different pieces, each drawn with its own chance (the chances sum to 2, none above 1)."""
    roll = stream.below(_GRAIN) / _GRAIN
    picked: list[str] = []
    start = 0.0
    for piece in FURNITURE:
        end = start + chances[piece]
        if any(start <= mark < end for mark in (roll, roll + 1.0)):
            picked.append(piece)
        start = end
    for piece in sorted(FURNITURE, key=lambda p: -chances[p]):  # rounding at the very end of the line
        if len(picked) < 2 and piece not in picked:
            picked.append(piece)
    return picked[:2]
