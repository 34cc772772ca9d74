"""What the reader of a seat's report must know first that the report cannot say, put above the report
by its mail (mail/reportmail.py) and by the `report` command's reply (mail/commands.py) alike:

- a new holder of the seat is told that the report was written for the one before (`pbem replace`,
  a takeover);
- the pending turn's deadline, read where `pbem status` reads it (campaign/schedule.py's `of_campaign`,
  through the turns settled and what they recorded), when it is no longer the one the report gives:
  an absence moved it, or the GM's preview held the turn and `pbem release` moved it by the time held.

- a seat that the turn abandoned (`judge: abandon_after:`) is told so with that turn's report, not a
  turn later: from the next turn the stand-in plays it, unless its player sends orders (the report's
  order form still works). The report cannot say it: whether a seat is abandoned depends on the
  campaign's settings, not on the turn's inputs alone.

- a seat the GM handed to the stand-in (`pbem standin DIR SEAT on`) whose player still plays turns of
  their own is told, with the last turn's report, that the stand-in stays on: it plays any turn they send
  nothing, and the judge does not wait for them (trial 8: a player back from holiday learnt it only when
  the stand-in lost his game four days before the deadline). The acknowledgement of their orders says the
  same (`gm_standin_stays`, mail/ingest.py): where it went out (the sent log) with the GM's word already
  on, the report says it again in one line only (trial 9: the same 75 words twice); where the report is
  the first to tell them (their acknowledgement overtaken by the turn or still unsent when it was
  adjudicated, orders filed by hand, the word given in the turn itself, so perhaps after the
  acknowledgement), in full.

Built from what the campaign recorded, never from the clock, so a message rebuilt later is the same.
"""

from __future__ import annotations

import json

from ..campaign import schedule
from ..campaign.folder import DEADLINE_FILE, Campaign
from ..campaign.standins import GM, Due, abandoned_by, due, settings, standins_record
from ..common.words import plural


def handed_over(campaign: Campaign, seat: str, turn: int, holder_turn: int) -> str:
    """A first paragraph for a report that reaches a new player of the seat (`pbem replace`): the
    report was written for whoever played the turn, and its narrative is theirs."""
    written_for, reader = campaign.holder(seat, max(turn, 1)), campaign.holder(seat, holder_turn)
    if not written_for or not reader or written_for.get("from") == reader.get("from"):
        return ""
    return (f"You take over the seat {seat} from {written_for.get('name')} from turn {holder_turn} on. This report of "
            f"{'the opening' if turn == 0 else f'turn {turn}'} was written for {written_for.get('name')}: what it says they "
            "did (or failed to do) was theirs. Its order form is yours.\n\n")


def abandoned(campaign: Campaign, seat: str, turn: int) -> str:
    """For the report of the turn that abandoned the seat: what changes from the next turn, and how to keep it."""
    gone = [due for due in abandoned_by(campaign, turn) if due.seat == seat]
    if not gone:
        return ""
    return (f"Your seat now counts as abandoned: {plural(gone[0].after or 0, 'turn')} in a row without valid orders. From turn "
            f"{turn + 1} the judge's stand-in plays it, from your seat's view alone. To play it yourself, send your orders "
            f"for turn {turn + 1} with the form at the end of this report: the stand-in plays only a turn for which no "
            "file of yours is filed.\n\n")


def gm_standin_stays(covered: Due) -> str:
    """What the player of a seat the GM's stand-in covers must know, whenever they send orders of their own."""
    return (f"The GM has the judge's stand-in on your seat (since turn {covered.since}): it plays every turn for which you "
            "send no orders, from your seat's view alone, and the judge does not wait for you: such a turn is adjudicated "
            "as soon as the other players' orders are in, even before its deadline. To have the seat back for every turn, "
            "ask the GM to take the stand-in off it.")


def standin_stays(campaign: Campaign, seat: str, turn: int, acknowledged: bool = False) -> str:
    """For the last turn's report of a seat the GM's stand-in covers in the pending turn, that its player played
    (the stand-in's own turns say so in the report: templates/common/_standins.j2); in one line when the
    acknowledgement of their orders for `turn` went out (`acknowledged`) and the GM's word was on before that turn."""
    if turn != campaign.last_turn or campaign.over or not settings(campaign).get(seat, {}).get("on") or seat in standins_record(campaign, turn):
        return ""  # (the GM's word read first: a campaign's every report mail asks)
    covered = due(campaign, turn, campaign.state(turn)).get(seat)
    if covered is None or covered.reason != GM:
        return ""
    if acknowledged and covered.since is not None and covered.since < turn:  # the word was on when they were acknowledged
        return (f"As the acknowledgement of your orders said, the GM's stand-in stays on your seat: it plays turn {turn + 1} "
                "unless you send your orders for it with the form at the end of this report.\n\n")
    return (f"{gm_standin_stays(covered)} Send your orders for turn {turn + 1} with the form at the end of this report "
            "to play that turn yourself.\n\n")


def deadline_moved(campaign: Campaign, turn: int) -> str:
    """For the report of the last turn: the pending turn's deadline, when it is not the one the report gives."""
    if turn != campaign.last_turn or campaign.over:
        return ""
    path = campaign.turn_dir(turn) / DEADLINE_FILE
    written = schedule.Deadline.from_json(json.loads(path.read_bytes())) if path.is_file() else None
    try:
        now = schedule.of_campaign(campaign, turn + 1)
    except schedule.ScheduleError:
        return ""
    if now is None or (written is not None and written.at == now.at):
        return ""
    if written is None:  # the report names no deadline: the schedule came after it (an opening report, say)
        return f"Orders for turn {turn + 1} are due by {now.text}: this report was written before that deadline was set.\n\n"
    return (f"The deadline for turn {turn + 1} has moved since this report was written: orders for turn {turn + 1} "
            f"are now due by {now.text}.\n\n")


def preface(campaign: Campaign, seat: str, turn: int, holder_turn: int, first: str = "", acknowledged: bool = False) -> str:
    """What the reader of a seat's report of `turn` must know first that the report cannot say: who it was
    written for (a new holder of the seat; else `first`), that the turn abandoned the seat, that the GM's stand-in
    stays on the seat (in one line when their `acknowledged` orders were told so), and the pending turn's deadline,
    from the one place `pbem status` reads it, when it moved since. The report's mail and the `report` command's
    reply both put it above the report, so neither gives a deadline of its own."""
    return ((handed_over(campaign, seat, turn, holder_turn) or first) + abandoned(campaign, seat, turn)
            + standin_stays(campaign, seat, turn, acknowledged) + deadline_moved(campaign, turn))
