"""How the stand-ins play (design 19, docs/standins.md): what each reads from its seat's view and
does with it, checked on the games' own states and over many draws of the seat's stream."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from adjudicator.campaign.audit import audit
from adjudicator.campaign.folder import Campaign, read_yaml
from adjudicator.common.rng import Rng
from adjudicator.games import GAMES
from adjudicator.games.base import Seat, State

# -- Sid's Secrets ---------------------------------------------------------------------------


def _secrets_after(first_turn: dict[str, list[dict[str, Any]]]) -> State:
    game = GAMES["secrets"]
    options = {name: option.default for name, option in game.options.items()}
    state = game.setup([Seat(p, p.title()) for p in ("ann", "bob", "cat", "dan")], options, Rng("secrets-focus", 0))
    state, _ = game.resolve(state, first_turn, Rng("secrets-focus", 1))
    return state


def _pair(a: str, b: str, victim: str, secret: int, sid: int) -> dict[str, list[dict[str, Any]]]:
    """Two thieves of equal strength on one unguarded secret: both frustrated, the secret stays."""
    steal = {"steal": {"player": victim, "secret": secret}}
    return {a: [{"sid": sid, **steal}], b: [{"sid": sid, **steal}]}


def _turn_of_pairs(secrets: tuple[int, int, int]) -> dict[str, list[dict[str, Any]]]:
    orders: dict[str, list[dict[str, Any]]] = {"ann": [], "bob": [], "cat": [], "dan": []}
    for pair in (_pair("ann", "cat", "bob", secrets[0], 3), _pair("ann", "bob", "cat", secrets[1], 2),
                 _pair("bob", "cat", "ann", secrets[2], 1)):
        for thief, items in pair.items():
            orders[thief] += items
    return orders


def _share_on_best(state: State, seat: str, draws: int = 300) -> float:
    """The share of the seat's stand-in steals that go to a secret numbered 8 or more."""
    game = GAMES["secrets"]
    view = game.view(state, seat)
    steals = [o["steal"]["secret"] for n in range(draws)
              for o in game.standin_orders(view, seat, Rng("draws", n).stream(f"standin/{seat}")) if "steal" in o]
    return sum(s >= 8 for s in steals) / len(steals)


def test_a_secrets_stand_in_leans_away_only_from_earlier_seats_that_steal_the_best() -> None:
    """Dan sits last. Where the record shows the three before him stealing anywhere (as random play
    does), he goes for the best secrets; where it shows them going for the best, he leaves those to
    them (three stand-ins never pile onto one secret). The same secrets are left in both records."""
    scattered = _secrets_after(_turn_of_pairs((1, 2, 3)))
    focused = _secrets_after(_turn_of_pairs((10, 9, 10)))
    assert scattered["secrets"] == focused["secrets"] and not scattered["stolen"]
    assert _share_on_best(scattered, "dan") > _share_on_best(focused, "dan") + 0.1


# -- Jekyll vs Hyde ----------------------------------------------------------------------------


def _hyde_trick_turns() -> list[tuple[State, str]]:
    """Trick turns of seeded games (the demo's random players), each with Mr. Hyde's seat."""
    from adjudicator.campaign.pipeline import read_orders

    game = GAMES["jekyll"]
    options = {name: option.default for name, option in game.options.items()}
    found = []
    for number in range(6):
        state = game.setup([Seat("jo", "Jo"), Seat("hy", "Hy")], options, Rng(f"hyde-{number}", 0))
        hyde = next(p for p, role in state["roles"].items() if role == "hyde")
        turn = 0
        while not game.is_over(state) and turn < 200:
            turn += 1
            rng = Rng(f"hyde-{number}", turn)
            if state["phase"] == "trick":
                found.append((state, hyde))
            orders = {}
            for player in game.due(state):
                written = game.demo_orders(game.view(state, player), player, rng.stream(f"demo/{player}"))
                orders[player] = [r.order for r in read_orders(game, state, player, written) if r.order is not None]
            state, _ = game.resolve(state, orders, rng)
    return found


def test_a_jekyll_stand_in_orders_ahead_while_it_gives_tricks_away_and_one_at_a_time_while_it_takes_them() -> None:
    """Mr. Hyde wants tricks while ahead or level: the lead that takes one is judged from the tricks
    just played, so he orders that trick alone; behind, he sheds them, ordered as far as that holds."""
    game = GAMES["jekyll"]
    taking = shedding = 0
    for state, hyde in _hyde_trick_turns():
        view = game.view(state, hyde)
        jekyll = next(p for p in view["players"] if p != hyde)
        behind = view["tricks_won"][jekyll] - view["tricks_won"][hyde]
        tricks = [o["trick"] for o in game.standin_orders(view, hyde, Rng("ahead", 1).stream(f"standin/{hyde}"))]
        if behind <= 0:
            assert tricks == [view["trick"]], (view["tricks_won"], tricks)
            taking += 1
        elif behind >= 2 and len(view["hand"]) >= 2:
            assert len(tricks) == min(behind, len(view["hand"])), (view["tricks_won"], tricks)
            shedding += 1
    assert taking and shedding


# -- campaigns the stand-ins played before they changed -----------------------------------------

OLDER = Path(__file__).resolve().parent / "campaigns" / "older-standins"
"""Made with the stand-ins of Sid's Secrets and Jekyll vs Hyde as they were before issue 29's last
changes (every seat the stand-in's, at the GM's word): pbem at commit 86fce19."""


@pytest.mark.parametrize("made", sorted(OLDER.iterdir()), ids=lambda p: p.name)
def test_a_campaign_an_earlier_stand_in_played_still_audits_clean(made: Path, tmp_path: Path) -> None:
    """A stand-in's order file is an input of its turn, hashed by the manifest: the audit replays it
    as filed and never asks the stand-in again. So a campaign made by an earlier stand-in replays
    byte for byte, though today's stand-in would write other orders in some of its turns."""
    root = tmp_path / made.name
    shutil.copytree(made, root)
    assert audit(root).divergence is None
    campaign = Campaign.open(root)
    game, seed = campaign.game, campaign.seed() or ""
    compared = differ = 0
    for number in range(1, campaign.last_turn + 1):
        record = campaign.turn_dir(number) / "standins.yaml"
        for seat in sorted(read_yaml(record)) if record.is_file() else []:
            filed = read_yaml(campaign.turn_dir(number) / "orders" / f"{seat}.yaml")["orders"]
            now = game.standin_orders(game.view(campaign.state(number - 1), seat), seat, Rng(seed, number).stream(f"standin/{seat}"))
            compared += 1
            differ += filed != now
    assert compared and differ, f"{compared} stand-in files compared, {differ} differ from today's stand-in"


# -- Hide the Kids! -----------------------------------------------------------------------------


def test_the_wolf_stand_in_leans_toward_where_the_pay_is_from_its_first_turn_and_still_mixes() -> None:
    """With no record yet, newcomer kids go where the rulebook pays (the tub pays double): the wolf
    lifts the tub more often than its balanced mix alone would (59%), yet not always the same two."""
    from adjudicator.games.hidekids.standin import BALANCED_LIFTS

    game = GAMES["hidekids"]
    options = {name: option.default for name, option in game.options.items()}
    state = game.setup([Seat(p, p.title()) for p in ("wolf", "ann", "bob", "cat")], options, Rng("first-lift", 0))
    wolf = state["wolf"]
    view = game.view(state, wolf)
    lifts = [tuple(game.standin_orders(view, wolf, Rng("first-lift", n).stream(f"standin/{wolf}"))[0]["lift"]) for n in range(400)]
    tub = sum("tub" in pair for pair in lifts) / len(lifts)
    assert tub > BALANCED_LIFTS["tub"] + 0.07
    assert sum(set(pair) != {"tub", "clock"} for pair in lifts) > 0.3 * len(lifts)
