"""Rule cases as data (design 9): one YAML file per decision or rulebook example.

A case file under tests/cases/<game>/ looks like this (every key but
`players` and `turns` is optional):

    description: what the case shows, in a sentence
    source: SECRETS-4            # the decision number, or "rulebook: <example>"
    players: [tony, david, sue]  # ids, in seat order; or a mapping id -> display name
    options: {turns: 5}          # game options, as pbem new --option would set them
    seed: case                   # the campaign seed (for games with chance)
    state: {...}                 # deep-merged into the opening state before turn 1
    turns:
      - orders:                  # per player: the `orders` list of their file; a due player
          tony: ["SID 1 steal david 8"]      #   left out sends nothing (NMR)
          david: [{sid: 3, guard: 8}]
        expect:
          void: {tony: [0]}      # indexes of void orders (players left out: none void)
          void_reason: {tony: {0: "captured"}}   # a substring of the reason
          void_instead: {tony: {0: "not placed"}}  # a substring of what replaces the void order
          meaning: {david: {0: "guards"}}        # a substring of what an order is read to mean
          events: [{code: stolen, thief: tony}]  # exactly these events, in order, each a subset
          events_include: [...]  # these events somewhere, each a subset
          players: {tony: {score: 15}}           # subsets of `pbem show --json` player fields
          state: {...}           # a subset of the full state after the turn
          phase: orders          # the phase after the turn
          due: [tony, david]     # who is due after the turn
          over: false
          winners: []

A single-turn case may put `orders` and `expect` at the top level instead of `turns`.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from adjudicator import games
from adjudicator.common import yamlsafe
from adjudicator.games.base import Seat, State
from adjudicator.campaign.create import parse_options
from adjudicator.campaign.pipeline import Submission, check_document, missing, resolve
from adjudicator.common.rng import Rng

CASES = Path(__file__).parent / "cases"


def all_cases() -> list[Path]:
    return sorted(CASES.glob("*/*.yaml"))


def deep_merge(base: Any, patch: Any) -> Any:
    if isinstance(base, dict) and isinstance(patch, dict):
        out = dict(base)
        for key, value in patch.items():
            out[key] = deep_merge(base.get(key), value) if key in base else copy.deepcopy(value)
        return out
    return copy.deepcopy(patch)


def subset_problems(expected: Any, actual: Any, where: str) -> list[str]:
    """Where `actual` fails to contain `expected` (dicts by key, everything else equal)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where}: expected a mapping, got {actual!r}"]
        problems: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                problems.append(f"{where}.{key}: missing (actual keys: {sorted(actual)})")
            else:
                problems.extend(subset_problems(value, actual[key], f"{where}.{key}"))
        return problems
    if expected != actual:
        return [f"{where}: expected {expected!r}, got {actual!r}"]
    return []


def _matches(expected: dict[str, Any], event: dict[str, Any]) -> bool:
    return not subset_problems(expected, event, "")


def run_case(path: Path) -> list[str]:
    """Play the case; return every way the outcome differs from its expectations."""
    case = yamlsafe.load(path.read_bytes())
    game = games.get(path.parent.name)
    raw_players = case["players"]
    if isinstance(raw_players, dict):
        seats = [Seat(str(k), str(v)) for k, v in raw_players.items()]
    else:
        seats = [Seat(p, p.capitalize()) for p in raw_players]
    options = parse_options(game, [])
    options.update(case.get("options", {}))
    seed = str(case.get("seed", "case"))
    state: State = game.setup(seats, options, Rng(seed, 0))
    if "state" in case:
        state = deep_merge(state, case["state"])
    turns = case.get("turns") or [{"orders": case.get("orders", {}), "expect": case.get("expect", {})}]
    problems: list[str] = []
    for number, step in enumerate(turns, start=1):
        where = f"turn {number}"
        subs: dict[str, Submission] = {}
        for player in game.due(state):
            orders = (step.get("orders") or {}).get(player)
            if orders is None:
                subs[player] = missing(player)
                continue
            document = {"player": player, "turn": number, "orders": orders}
            subs[player] = check_document(game, state, document, turn=number, expected_player=player, password_ok=None)
            if subs[player].nmr:
                problems.append(f"{where}: {player}'s file was rejected: {subs[player].problems}")
        for player in (step.get("orders") or {}):
            if player not in subs:
                problems.append(f"{where}: {player} sent orders but is not due")
        state, events, _ = resolve(game, state, subs, Rng(seed, number))
        problems.extend(_check(game, step.get("expect") or {}, state, events, subs, where))
    return problems


def _check(game: Any, expect: dict[str, Any], state: State, events: list[dict[str, Any]], subs: dict[str, Submission], where: str) -> list[str]:
    problems: list[str] = []
    for player, sub in subs.items():
        void = [r.index for r in sub.void]
        wanted = (expect.get("void") or {}).get(player, [])
        if void != wanted:
            reasons = {r.index: r.void for r in sub.void}
            problems.append(f"{where}: {player}'s void orders are {void} {reasons}, expected {wanted}")
    for player, reasons in (expect.get("void_reason") or {}).items():
        actual = {r.index: r.void or "" for r in subs[player].void}
        for index, text in reasons.items():
            if str(text).lower() not in actual.get(int(index), "").lower():
                problems.append(f"{where}: {player}'s order {index} void reason {actual.get(int(index))!r} lacks {text!r}")
    for key, said in (("void_instead", lambda r: r.instead if not r.accepted else ""), ("meaning", lambda r: r.meaning)):
        for player, texts in (expect.get(key) or {}).items():
            for index, text in texts.items():
                actual = [said(r) for r in subs[player].readings if r.index == int(index)]
                if not any(str(text).lower() in a.lower() for a in actual):
                    problems.append(f"{where}: {player}'s order {index} {key} {actual!r} lacks {text!r}")
    if "events" in expect:
        wanted_events = expect["events"]
        if len(wanted_events) != len(events) or not all(_matches(w, e) for w, e in zip(wanted_events, events)):
            problems.append(f"{where}: events were {events}, expected {wanted_events}")
    for wanted in expect.get("events_include", []):
        if not any(_matches(wanted, e) for e in events):
            problems.append(f"{where}: no event matches {wanted}; events were {events}")
    if "players" in expect:
        fields = game.player_fields(game.view(state, None))
        problems.extend(f"{where}: {p}" for p in subset_problems(expect["players"], fields, "players"))
    if "state" in expect:
        problems.extend(f"{where}: {p}" for p in subset_problems(expect["state"], state, "state"))
    for key, actual in (
        ("phase", lambda: game.phase(state)),
        ("due", lambda: game.due(state)),
        ("over", lambda: game.is_over(state)),
        ("winners", lambda: game.winners(state)),
    ):
        if key in expect and expect[key] != actual():
            problems.append(f"{where}: {key} is {actual()!r}, expected {expect[key]!r}")
    return problems
