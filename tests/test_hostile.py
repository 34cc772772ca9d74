"""Random and hostile order files for every game: never a crash, always words, nobody else affected.

CI runs a couple of hundred examples per game; `HYPOTHESIS_PROFILE=thorough
python -m pytest tests/test_hostile.py` runs 10,000.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.common import yamlsafe
from adjudicator.games import GAMES
from adjudicator.games.base import Seat
from adjudicator.campaign.create import parse_options
from adjudicator.campaign.pipeline import Problem, Submission, check_document, resolve
from adjudicator.common.rng import Rng

settings.register_profile("ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

SEED = "hostile"


def opening(game_id: str) -> tuple[Any, dict[str, Any]]:
    game = GAMES[game_id]
    count = min(max(game.min_players, 3), game.max_players)
    seats = [Seat(f"p{i}", f"Player {i}") for i in range(count)]
    return game, game.setup(seats, parse_options(game, []), Rng(SEED, 0))


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.text(max_size=30), st.sampled_from(["no", "off", "012", "1:20", "2026-01-01", "SID 1 steal p1 8", "black0", "\u202e", "p\u0130"]),
)
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=30
)
junk = st.one_of(
    st.binary(max_size=300),
    st.sampled_from([
        b"a: &x [1]\nb: *x", b"!!python/object/apply:os.system ['true']", b"a: 1\na: 1", b"<<: {a: 1}",
        b"[" * 5000, b"\x00\x01", b"---\n---\n", b"\xef\xbb\xbf", b"orders: " + b"9" * 6000,
    ]),
)


def documents(player: str) -> st.SearchStrategy[bytes]:
    envelope = st.fixed_dictionaries(
        {"player": st.one_of(st.just(player), scalars), "turn": st.one_of(st.just(1), scalars), "orders": st.lists(values, max_size=8)}
    )
    as_yaml = st.one_of(envelope, values).map(lambda d: yaml.safe_dump(d, allow_unicode=True).encode("utf-8", "surrogatepass"))
    return st.one_of(as_yaml, junk)


def read(game: Any, state: dict[str, Any], player: str, data: bytes) -> Submission:
    """The shell's reading of one file, as turn.load_submission does it, minus passwords."""
    try:
        document = yamlsafe.load(data)
    except yamlsafe.YamlError as exc:
        return Submission(player, "rejected", "x.yaml", [Problem("(the whole file)", str(exc))])
    return check_document(game, state, document, turn=1, expected_player=player, password_ok=None, source="x.yaml")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_hostile_files_never_crash_and_are_explained(game_id: str) -> None:
    game, state = opening(game_id)
    due = game.due(state)
    victim, others = due[0], due[1:]
    honest = {}
    for other in others:
        orders = game.demo_orders(game.view(state, other), other, Rng(SEED, 1).stream(f"demo/{other}"))
        honest[other] = yaml.safe_dump({"player": other, "turn": 1, "orders": orders}).encode()

    @given(documents(victim))
    def check(data: bytes) -> None:
        sub = read(game, state, victim, data)
        assert sub.status in ("accepted", "rejected")
        if sub.status == "rejected":
            assert sub.problems and all(p.what.strip() for p in sub.problems)
        for reading in sub.readings:
            assert reading.accepted or reading.void.strip()
            assert reading.accepted == (reading.order is not None)
        subs = {victim: sub, **{o: read(game, state, o, honest[o]) for o in others}}
        assert all(subs[o].status == "accepted" and not subs[o].void for o in others)
        resolve(game, state, subs, Rng(SEED, 1))

    check()
