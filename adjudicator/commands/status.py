"""`pbem status`: turn, phase, who is due, who has sent valid orders."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..common.words import plural
from .console import Failure, console, literal
from .run import moment

HELP = "turn, phase, who is due, who has sent valid orders"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder (the one pbem new made)")
    p.add_argument("--json", action="store_true", help="print the pending turn's state for scripts (docs/json-output.md)")
    p.add_argument("--now", type=moment, metavar="TIME",
                   help="the moment to tell the time left from instead of the clock (a simulated week), as pbem run takes it")


def run(args: argparse.Namespace) -> int:
    from rich.table import Table

    from ..campaign import pending, signup
    from ..campaign.folder import Campaign
    from ..common import clock
    from ..judge.settings import read_settings

    campaign = Campaign.open(Path(args.dir))  # read-only: only a locked command may repair a crashed turn
    read_settings(campaign)  # judge: as `pbem run` reads it: a mistake (a notify URL, a key) is named now, before a tick
    if signup.is_open(campaign):
        return _print_signup(campaign, args.json)
    game = campaign.game
    turn = pending.read(campaign)
    state = turn.state
    if args.json:
        _print_json(turn)
        return 0
    out = console()
    if turn.over:
        winners = ", ".join(state.get("names", {}).get(p, p) for p in game.winners(state))
        out.print(f"{campaign.config['name']} ({game.title}): over after turn {turn.number - 1}; winners: {winners}", markup=False)
        return 0
    out.print(f"{campaign.config['name']} ({game.title}): turn {turn.number}, phase {game.phase(state)}", markup=False)
    from ..campaign.rollback import withheld

    if withheld(campaign, turn.number - 1):  # judge: preview: true
        out.print(f"Turn {turn.number - 1} is held for your preview: pbem release {campaign.root} mails it, pbem rollback {campaign.root} takes it back", markup=False)
    verdict = pending.check(turn)
    names = state.get("names", {})
    table = Table("player", "orders", "detail")
    for player, sub in verdict.submissions.items():
        who = literal(f"{player} ({names[player]})" if names.get(player, player) != player else player)
        word = pending.standing(sub, player in verdict.standins)
        if word == "stand-in":
            table.add_row(who, "[cyan]stand-in[/]", literal(f"the stand-in writes this seat's orders when the turn is adjudicated: {verdict.standins[player].why}"))
        elif word == "missing":
            table.add_row(who, "[red]missing[/]", "")
        elif word == "rejected":  # a rejected file is not sent: the turn waits for it as for a missing one
            table.add_row(who, "[red]rejected[/]", literal(f"{sub.source}: " + "; ".join(f"{p.where}: {p.what}" for p in sub.problems)))
        else:
            void = len(sub.void)
            table.add_row(who, "[green]valid[/]", literal(plural(len(sub.readings), "order") + (f", {void} void" if void else "") + _back(verdict, player)))
    out.print(table)
    waiting = [p + (" (file rejected)" if verdict.submissions[p].status == "rejected" else "") for p in verdict.waiting]
    played = list(verdict.standins)
    done = "Every due player has sent a valid file" + (f"; the stand-in plays {', '.join(played)}." if played else ".")
    out.print(f"Still waiting for: {', '.join(waiting)}" if waiting else done, markup=False)
    for name, why in sorted(verdict.ignored.items()):
        out.print(f"[yellow]Will not be read:[/] orders/{literal(name)} ({literal(why)})")
    now = args.now or clock.now()
    _print_deadline(out, turn, now)
    _print_absences(out, turn, now)
    return 0


def _back(verdict: Any, player: str) -> str:
    """A seat the stand-in covers whose player sent orders of their own: what becomes of the stand-in (trial 8)."""
    covered = verdict.back.get(player)
    if covered is None:
        return ""
    from ..campaign.standins import ABANDONED

    if covered.reason == ABANDONED:
        return f"; the player is back: the seat ({covered.why}) is abandoned no more, the stand-in stops"
    return f"; the player's own, over the stand-in ({covered.why}), which still plays any turn they send nothing"


def _print_signup(campaign: Any, as_json: bool) -> int:
    """An open campaign (campaign/signup.py): seats taken of N, who joined, the waiting list's length."""
    import json

    from ..campaign import signup

    document = signup.status_json(campaign)
    if as_json:
        print(json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False))
        return 0
    out = console()
    taken = len(document["players"])
    out.print(f"{campaign.config['name']} ({campaign.game.title}): signing up, {taken} of {plural(document['seats'], 'seat')} taken", markup=False)
    for entry in campaign.players:
        out.print(f"  {entry['id']} ({entry['name']})" if entry["name"] != entry["id"] else f"  {entry['id']}", markup=False)
    if document["waiting"]:
        out.print(f"Waiting list: {plural(document['waiting'], 'player')}", markup=False)
    if document["start"] == "gm":
        out.print("The game starts when the GM runs pbem start (judge: start: gm).", markup=False)
    else:
        out.print("The game starts on the judge's tick that fills the last seat (or pbem start sooner).", markup=False)
    return 0


def _print_json(turn: Any) -> None:
    """The same answer as the table, for scripts: one object, keys sorted."""
    import json

    from ..campaign import pending
    from ..campaign.schedule import ScheduleError

    game = turn.game
    document: dict[str, Any] = {"game": game.id, "turn": turn.number if not turn.over else turn.number - 1, "over": turn.over}
    if not turn.over:
        try:
            due = turn.deadline()
        except ScheduleError as exc:
            raise Failure(f"{turn.campaign.root}/campaign.yaml: {exc}") from None
        document |= {"phase": game.phase(turn.state), "due": turn.due_seats, "deadline": due.to_json() if due else None,
                     **pending.check(turn).to_json()}
    print(json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False))


def _print_deadline(out: Any, turn: Any, now: Any) -> None:
    """The one line of `status` that tells the time left, from `now` (the clock or `--now`): it writes nothing."""

    from ..campaign.schedule import ScheduleError, time_left

    campaign, pending = turn.campaign, turn.number
    try:
        due = turn.deadline()
    except ScheduleError as exc:
        raise Failure(f"{campaign.root}/campaign.yaml: {exc}") from None
    if due is None:
        out.print("Deadline: none in the schedule (campaign.yaml schedule:)")
        return
    left = time_left(due, now)
    colour = "red" if left.startswith("passed") else "green"
    out.print(f"Deadline for turn {pending}: {literal(due.text)} ([{colour}]{left}[/])")


def _print_absences(out: Any, turn: Any, now: Any) -> None:
    """The absences the GM granted (`pbem absence`) that have not ended by `now`: what the players' own
    `status` by mail lists too."""
    names = turn.state.get("names", {})
    for absence in turn.absences_not_over(now):
        out.print(f"Absence granted: {literal(names.get(absence.seat, absence.seat))} ({absence.seat}), {absence.text}")

