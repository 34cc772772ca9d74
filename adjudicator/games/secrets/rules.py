"""The rules of Sid's Secrets that settle a turn: values, groups, guards, thefts and captures."""

from __future__ import annotations

import copy

from ..base import Event, Order, State, leaders

RANKS = range(1, 8)
SECRETS = range(1, 11)
CAPTURE_POINTS = 5


def value(secret: int) -> int:
    """A secret is worth twice its number less one (SECRETS-9)."""
    return 2 * secret - 1


def is_over(state: State) -> bool:
    return state["turn"] >= state["turns"]


def winners(state: State) -> list[str]:
    if not is_over(state):
        return []
    return leaders(state["players"], state["score"])


def resolve(state: State, orders: dict[str, list[Order]]) -> tuple[State, list[Event]]:
    new = copy.deepcopy(state)
    new["turn"] = turn = state["turn"] + 1
    seat = {p: i for i, p in enumerate(state["players"])}
    # Group the SIDs of one player on one secret with one action (SECRETS-3).
    guards: dict[tuple[str, int], list[int]] = {}
    steals: dict[tuple[str, int], dict[str, list[int]]] = {}
    for player in state["players"]:
        for order in orders.get(player, []):
            if "guard" in order:
                guards.setdefault((player, order["guard"]), []).append(order["sid"])
            else:
                target = (order["steal"]["player"], order["steal"]["secret"])
                steals.setdefault(target, {}).setdefault(player, []).append(order["sid"])

    events: list[Event] = []
    lost_sids: dict[str, set[int]] = {p: set() for p in state["players"]}
    for owner, secret in sorted(steals, key=lambda t: (seat[t[0]], t[1])):
        attempts = {thief: sorted(sids) for thief, sids in sorted(steals[(owner, secret)].items(), key=lambda i: seat[i[0]])}
        guard = sorted(guards.get((owner, secret), []))
        settled = _contest(new, turn, owner, secret, guard, attempts, lost_sids)
        events.extend(settled)
        # SECRETS-10: every placed attempt is public; the state keeps the record for later turns' views.
        # A campaign begun before the record was kept (no "attempts" in its state) goes on without
        # one, so its turns replay byte for byte (pbem audit).
        if "attempts" in new:
            new["attempts"].extend(
                {"turn": turn, "owner": owner, "secret": secret, "thief": e["thief"], "sids": e["sids"],
                 "code": e["code"], "guard_strength": e.get("guard_strength")}
                for e in settled
            )

    new["restrictions"] = {p: [] for p in state["players"]}
    for (owner, secret), sids in sorted(guards.items(), key=lambda i: (seat[i[0][0]], i[0][1])):
        if (owner, secret) in steals:
            continue
        # SECRETS-7: an unmet guard may not guard the same secret next turn; only its player learns of it.
        new["restrictions"][owner].extend({"sid": sid, "secret": secret} for sid in sorted(sids))
        events.append(
            {"code": "guard_unmet", "seen_by": [owner], "involves": [owner], "owner": owner, "secret": secret,
             "sids": sorted(sids)}
        )
    for player, sids in lost_sids.items():
        new["sids"][player] = [r for r in state["sids"][player] if r not in sids]
    return new, events


def _contest(
    new: State,
    turn: int,
    owner: str,
    secret: int,
    guard: list[int],
    attempts: dict[str, list[int]],
    lost_sids: dict[str, set[int]],
) -> list[Event]:
    """Every placed steal on one secret, against its guard or against each other."""
    base = {"seen_by": "all", "owner": owner, "secret": secret, "value": value(secret), "turn": turn}
    strength = {thief: sum(sids) for thief, sids in attempts.items()}
    events: list[Event] = []
    if guard:  # SECRETS-4: a guarded secret is never stolen
        held = sum(guard)
        for thief, sids in attempts.items():
            event = {**base, "involves": [thief, owner], "thief": thief, "sids": sids, "strength": strength[thief],
                     "guard_sids": guard, "guard_strength": held}
            if strength[thief] <= held:
                lost_sids[thief].update(sids)
                points = CAPTURE_POINTS * len(sids)
                new["score"][owner] += points
                new["captured"].extend({"by": owner, "player": thief, "sid": sid, "turn": turn} for sid in sids)
                events.append({**event, "code": "captured", "points": points})
            else:
                events.append({**event, "code": "escaped"})
        return events
    # SECRETS-5: the strictly strongest group steals; a tie at the top frustrates everyone.
    top = max(strength.values())
    ahead = [thief for thief, s in strength.items() if s == top]
    rivals = [{"thief": t, "sids": s, "strength": strength[t]} for t, s in attempts.items()]
    for thief, sids in attempts.items():
        event = {**base, "involves": [thief, owner], "thief": thief, "sids": sids, "strength": strength[thief],
                 "rivals": rivals}
        if strength[thief] < top:
            events.append({**event, "code": "frightened"})
        elif len(ahead) > 1:
            events.append({**event, "code": "frustrated"})
        else:
            new["secrets"][owner].remove(secret)
            new["score"][thief] += value(secret)
            new["stolen"].append({"by": thief, "owner": owner, "secret": secret, "turn": turn})
            events.append({**event, "code": "stolen", "points": value(secret)})
    return events
