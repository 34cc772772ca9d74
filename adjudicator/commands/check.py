"""`pbem check`: check an order file before sending it."""

from __future__ import annotations

import argparse
from pathlib import Path

from .console import Failure

HELP = "check an order file before sending it"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="the order file, e.g. tony.yaml")
    p.add_argument("--campaign", required=True, metavar="DIR", help="the campaign folder")


def run(args: argparse.Namespace) -> int:
    from ..campaign.folder import Campaign
    from ..campaign.pipeline import check_document
    from ..campaign.turn import pending_state
    from ..common import yamlsafe

    campaign = Campaign.open(Path(args.campaign))
    last = campaign.last_turn
    state = pending_state(campaign)
    if campaign.game.is_over(state):
        raise Failure(f"{campaign.root}: the game is over; no orders are due")
    path = Path(args.file)
    try:
        with open(path, "rb") as handle:
            data = handle.read(yamlsafe.MAX_BYTES + 1)
    except OSError as exc:
        raise Failure(f"{path}: cannot read the order file ({exc.strerror or exc}); nothing was checked") from None
    ids = set(state["players"])
    expected = path.stem if path.stem in ids else None
    try:
        document = yamlsafe.load(data)
    except yamlsafe.YamlError as exc:
        print(f"{path}: REJECTED: {exc}")
        print("The whole file would be refused and you would count as NMR (no moves received).")
        return 1
    sub = check_document(
        campaign.game,
        state,
        document,
        turn=last + 1,
        expected_player=expected,
        password_ok=campaign.password_ok if campaign.uses_passwords else None,
        source=path.name,
    )
    if sub.nmr:
        print(f"{path}: REJECTED")
        for problem in sub.problems:
            print(f"  {path}::{problem.where}: {problem.what}")
        if sub.player in ids and sub.player not in campaign.game.due(state):
            print(f"{sub.player} has nothing to order this turn: the adjudicator would ignore the file.")
        else:
            print("The whole file would be refused and you would count as NMR (no moves received).")
        return 1
    print(f"{path}: accepted for {sub.player}, turn {last + 1}" + ("" if sub.readings else " (no orders)"))
    for reading in sub.readings:
        print(f"  {reading.index + 1:2d}. {reading.written}")
        if reading.accepted:
            print(f"      -> {reading.meaning}")
        else:
            print(f"      -> VOID ({path}::orders[{reading.index}]): {reading.void}. " + (reading.instead or "This order would do nothing; the others stand."))
    return 1 if sub.void else 0
