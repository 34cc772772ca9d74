"""The mail that carries a turn's reports: each report as the turn wrote it, after what its reader must
know first that the report cannot say.

    CAMPAIGN/mail/outbox/turn-NNN/report-<player>.eml   a player's report of turn NNN
    CAMPAIGN/mail/outbox/turn-NNN/report-public.eml     the public report of turn NNN

A report is a turn's output, replayed byte for byte by `pbem audit`, and the same whether the orders
came by mail or by the GM's hand; so what only the mail knows goes in the mail, above the report, in
paragraphs built from what the campaign recorded (never from the clock, so a message rebuilt later is
the same):

- a new player of the seat is told that the report was written for the one before (`pbem replace`);
- a player whose orders were filed but whose acknowledgement never went out, because the turn was
  adjudicated before it could (the last orders in, read in the same tick that adjudicated the turn),
  is told when their message was received and why the turn went at once: the report reads the
  orders back;
- everyone is told the pending turn's deadline when it is no longer the one the report gives (an
  absence moved it in the tick that adjudicated the turn, or the turn was held for the GM's preview
  and the deadline moved by the time held: judge/absences.py, campaign/rollback.py).
"""

from __future__ import annotations

import datetime as dt
import json

from ..campaign import schedule
from ..campaign.folder import DEADLINE_FILE, Campaign, turn_name
from ..publish.render import markdown_plain
from . import boards, deliver
from .compose import MailError, attach_view, gm_address, make_message, recipient, to_bytes
from .ingest import Entry, load_index


def _subject(campaign: Campaign, turn: int, what: str) -> str:
    when = "opening" if turn == 0 else f"turn {turn}"
    return f"[{campaign.config.get('name')}] {campaign.game.title}, {when}: {what}"


def _handed_over(campaign: Campaign, seat: str, turn: int, holder_turn: int) -> str:
    """A first paragraph for a report that reaches a new player of the seat (`pbem replace`): the
    report was written for whoever played the turn, and its narrative is theirs."""
    written_for, reader = campaign.holder(seat, max(turn, 1)), campaign.holder(seat, holder_turn)
    if not written_for or not reader or written_for.get("from") == reader.get("from"):
        return ""
    return (f"You take over the seat {seat} from {written_for.get('name')} from turn {holder_turn} on. This report of "
            f"{'the opening' if turn == 0 else f'turn {turn}'} was written for {written_for.get('name')}: what it says they "
            "did (or failed to do) was theirs. Its order form is yours.\n\n")


def _unacknowledged(campaign: Campaign, turn: int) -> dict[str, Entry]:
    """Seat -> the filed message of turn `turn` whose acknowledgement was written but never sent. Once the
    turn is adjudicated such an acknowledgement is outdated and never goes (mail/deliver.py), so this
    answer no longer changes: the report's mail says it instead."""
    sent = {entry["file"] for entry in deliver.sent_log(campaign.root) if not entry.get("refused")}
    found: dict[str, Entry] = {}
    for entry in load_index(campaign.root):
        if entry.status == "filed" and entry.turn == turn and entry.player and entry.acknowledged:
            if f"{turn_name(turn)}/ack-{entry.seq:05d}.eml" not in sent:
                found[entry.player] = entry
    return found


def _why_at_once(campaign: Campaign, turn: int) -> str:
    """Why turn `turn` went before an acknowledgement could: from what the turn recorded (its submissions,
    its moment) and its deadline."""
    results = json.loads((campaign.turn_dir(turn) / "results.json").read_bytes())
    complete = all(sub.get("status") == "accepted" for sub in results.get("submissions", {}).values())
    at = campaign.adjudicated_at(turn)
    when = f", on {schedule.local_text(campaign.schedule, at)}" if at is not None else ""
    try:
        due = schedule.of_campaign(campaign, turn)
    except schedule.ScheduleError:
        due = None
    if complete and (due is None or at is None or at < due.at):
        return f"Every due player had sent orders, so the judge adjudicated turn {turn} at once{when}"
    if due is not None and at is not None and at >= due.at:
        return f"Its deadline had passed, so the judge adjudicated turn {turn} at once{when}"
    return f"Turn {turn} was adjudicated{when}"


def _received(campaign: Campaign, turn: int, entry: Entry) -> str:
    """The paragraph for a player whose filed orders were never acknowledged (see `_unacknowledged`)."""
    dated = f" (your message dated {schedule.local_text(campaign.schedule, dt.datetime.fromisoformat(entry.date))})" if entry.date else ""
    return (f"Your orders for turn {turn} were received and filed{dated}. {_why_at_once(campaign, turn)}, before their "
            "acknowledgement could go out: this report is the answer to them, and reads them back.\n\n")


def _deadline_moved(campaign: Campaign, turn: int) -> str:
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
    return (f"The deadline for turn {turn + 1} has moved since this report was written: orders for turn {turn + 1} "
            f"are now due by {now.text}.\n\n")


def report_messages(campaign: Campaign, turn: int) -> tuple[dict[str, bytes], list[str]]:
    """One message per player with an address, and one for the public report: (outbox files, notes for the GM).

    A player's report goes to whoever holds the seat for the next turn, who acts on
    its order form (after `pbem replace`, the new player gets the latest report).
    """
    if not campaign.is_adjudicated(turn):
        raise MailError(f"turn {turn} of {campaign.root} has not been adjudicated; there is no report to mail")
    reports = campaign.turn_dir(turn) / "reports"
    state = campaign.state(turn)
    names = state.get("names", {})
    over = campaign.game.is_over(state)
    files: dict[str, bytes] = {}
    notes: list[str] = []
    folder = turn_name(turn)
    moved = _deadline_moved(campaign, turn)
    unacknowledged = _unacknowledged(campaign, turn) if turn > 0 else {}
    for player in state["players"]:
        path = reports / f"{player}.txt"
        if not path.is_file():
            notes.append(f"{player}: no plain-text report {path}")
            continue
        holder_turn = turn if over else turn + 1
        name, address = recipient(campaign, player, holder_turn, names)
        if not address:
            notes.append(f"{player}: no email in campaign.yaml; send {path} yourself")
            continue
        first = _handed_over(campaign, player, turn, holder_turn)
        if not first and player in unacknowledged:  # a new player of the seat sent no orders for this turn
            first = _received(campaign, turn, unacknowledged[player])
        try:
            message = make_message(
                campaign,
                kind=f"report-{player}",
                turn=turn,
                to=[(name, address)],
                subject=_subject(campaign, turn, f"report for {name}"),
                body=first + moved + path.read_text(encoding="utf-8"),
            )
        except MailError as exc:  # one bad address in campaign.yaml must not hold up everyone's report
            notes.append(f"{player}: {exc}; fix campaign.yaml and run pbem mail again")
            continue
        seen = campaign.game.view(state, player)  # the board from this player's view alone (design 18)
        boards.with_board(message, campaign.game.id, seen, boards.text_html(message.get_content()), f"board-{turn}")
        attach_view(message, campaign, turn, player)
        files[f"{folder}/report-{player}.eml"] = to_bytes(message)
    public = reports / "public.md"
    if public.is_file():
        target = str(campaign.config.get("public_email") or gm_address(campaign))
        message = make_message(
            campaign,
            kind="report-public",
            turn=turn,
            to=[("", target)],
            subject=_subject(campaign, turn, "public report"),
            body=moved + markdown_plain(public.read_text(encoding="utf-8")),  # sent as text/plain: no Markdown escapes
        )
        board_view = campaign.game.view(state, None)
        boards.with_board(message, campaign.game.id, board_view, boards.markdown_html(public.read_text(encoding="utf-8")), f"board-{turn}")
        files[f"{folder}/report-public.eml"] = to_bytes(message)
    return files, notes

