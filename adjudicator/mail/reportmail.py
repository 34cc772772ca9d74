"""The mail that carries a turn's reports: each report as the turn wrote it, after what its reader must
know first that the report cannot say.

    CAMPAIGN/mail/outbox/turn-NNN/report-<player>.eml   a player's report of turn NNN
    CAMPAIGN/mail/outbox/turn-NNN/report-public.eml     the public report of turn NNN

A report is a turn's output, replayed byte for byte by `pbem audit`, and the same whether the orders
came by mail or by the GM's hand; so what only the mail knows goes in the mail, above the report, in
paragraphs built from what the campaign recorded (never from the clock, so a message rebuilt later is
the same):

- what the reader of any report must know first (a new holder of the seat; the pending turn's
  deadline when it moved since the report was written): mail/preface.py, shared with the `report`
  command's reply;
- a player whose orders were read in the very run that adjudicated the turn (so their acknowledgement
  never went out) is told that they were filed and counted: the report reads the orders back. Orders
  read by an earlier run were acknowledged then (or their acknowledgement waits in the outbox for the
  GM who runs without --send) and get no such paragraph.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from email.message import EmailMessage

from ..campaign import schedule, signup
from ..campaign.folder import Campaign, turn_name
from ..publish.render import markdown_plain
from . import boards, deliver, plainhtml, preface
from .compose import MailError, attach_view, gm_address, make_message, recipient, to_bytes
from .ingest import Entry, load_index


def _subject(campaign: Campaign, turn: int, what: str) -> str:
    when = "opening" if turn == 0 else f"turn {turn}"
    return f"[{campaign.config.get('name')}] {campaign.game.title}, {when}: {what}"


@dataclass(frozen=True)
class Acknowledged:
    """How the seats' own orders for a turn were answered before its report: what the report's mail says of them."""

    overtaken: dict[str, Entry]
    """Seat -> the filed message of the turn that the run adjudicating it had just read (its entry `received` at
    the moment the turn recorded), whose acknowledgement was therefore never sent: once the turn is adjudicated
    it is outdated and never goes (mail/deliver.py), so the report's mail says it instead."""
    told: frozenset[str]
    """The seats an acknowledgement of their accepted orders for the turn went to (the sent log says so): what it
    said, the report's preface need not say again in full. One still in the outbox is not counted: once the turn
    is adjudicated it is outdated and never goes, so the report is the first to tell them."""


def _acknowledged(campaign: Campaign, turn: int) -> Acknowledged:
    at = campaign.adjudicated_at(turn)
    sent = {entry["file"] for entry in deliver.sent_log(campaign.root) if not entry.get("refused")}
    overtaken: dict[str, Entry] = {}
    told: set[str] = set()
    for entry in load_index(campaign.root):
        if entry.status not in ("filed", "superseded") or entry.turn != turn or not entry.player or not entry.acknowledged:
            continue
        if f"{turn_name(turn)}/ack-{entry.seq:05d}.eml" in sent:
            told.add(entry.player)
        elif at is not None and entry.received and dt.datetime.fromisoformat(entry.received) == at and entry.status == "filed":
            overtaken[entry.player] = entry
    return Acknowledged(overtaken, frozenset(told))


def _received(campaign: Campaign, turn: int, entry: Entry) -> str:
    """The paragraph for a player whose filed orders were read in the run that adjudicated the turn (see
    `Acknowledged.overtaken`): they counted; no word of being late, since they were not."""
    dated = f" (your message dated {schedule.local_text(campaign.schedule, dt.datetime.fromisoformat(entry.date))})" if entry.date else ""
    at = campaign.adjudicated_at(turn)
    when = f" on {schedule.local_text(campaign.schedule, at)}" if at is not None else ""
    why = {"early": ", yours being the last the turn waited for", "at the deadline": ", as its deadline had come"}.get(schedule.timing(campaign, turn), "")
    return (f"Your orders for turn {turn}{dated} were filed and counted. The judge read them in the same run in which it "
            f"adjudicated the turn{when}{why}, so no separate acknowledgement went out: this report is the answer to them, "
            "and reads them back.\n\n")


def seat_report(campaign: Campaign, turn: int, seat: str, first: str = "", acknowledged: bool = False) -> tuple[EmailMessage | None, str]:
    """The mail of `seat`'s report of `turn` to whoever holds the seat for the next turn (the last turn's
    holder once the game is over), under its `preface` (`acknowledged`: an acknowledgement of the seat's own
    orders for `turn` went out); or None with a note for the GM (empty when there is nothing for the GM to do:
    a resigned seat that nobody holds)."""
    path = campaign.turn_dir(turn) / "reports" / f"{seat}.txt"
    if not path.is_file():
        return None, f"{seat}: no plain-text report {path}"
    state = campaign.state(turn)
    holder_turn = turn if campaign.game.is_over(state) else turn + 1
    name, address = recipient(campaign, seat, holder_turn, state.get("names", {}))
    if not address:
        if seat in signup.vacant(campaign):
            return None, ""  # a resigned seat nobody holds: nobody to send it to, nothing for the GM to do
        return None, f"{seat}: no email in campaign.yaml; send {path} yourself"
    preamble = preface.preface(campaign, seat, turn, holder_turn, first, acknowledged)
    try:
        message = make_message(campaign, kind=f"report-{seat}", turn=turn, to=[(name, address)],
                               subject=_subject(campaign, turn, f"report for {name}"), body=preamble + path.read_text(encoding="utf-8"))
    except MailError as exc:  # one bad address in campaign.yaml must not hold up everyone's report
        return None, f"{seat}: {exc}; fix campaign.yaml and run pbem mail again"
    seen = campaign.game.view(state, seat)  # the board from this player's view alone (design 18)
    boards.with_board(message, campaign.game.id, seen, plainhtml.text_html(message.get_content()), f"board-{turn}")
    attach_view(message, campaign, turn, seat)
    return message, ""


def report_messages(campaign: Campaign, turn: int) -> tuple[dict[str, bytes], list[str]]:
    """One message per player with an address, and one for the public report: (outbox files, notes for the GM).

    A player's report goes to whoever holds the seat for the next turn, who acts on
    its order form (after `pbem replace`, the new player gets the latest report).
    """
    if not campaign.is_adjudicated(turn):
        raise MailError(f"turn {turn} of {campaign.root} has not been adjudicated; there is no report to mail")
    reports = campaign.turn_dir(turn) / "reports"
    state = campaign.state(turn)
    files: dict[str, bytes] = {}
    notes: list[str] = []
    folder = turn_name(turn)
    moved = preface.deadline_moved(campaign, turn)
    answered = _acknowledged(campaign, turn) if turn > 0 else Acknowledged({}, frozenset())
    for player in state["players"]:
        # a new player of the seat sent no orders for this turn: the handover paragraph replaces this one
        first = _received(campaign, turn, answered.overtaken[player]) if player in answered.overtaken else ""
        message, note = seat_report(campaign, turn, player, first, player in answered.told)
        if note:
            notes.append(note)
        if message is not None:
            files[f"{folder}/report-{player}.eml"] = to_bytes(message)
    if (reports / "public.md").is_file():
        target = str(campaign.config.get("public_email") or gm_address(campaign))
        message = public_message(campaign, turn, "report-public", target, _subject(campaign, turn, "public report"), moved)
        files[f"{folder}/report-public.eml"] = to_bytes(message)
    return files, notes


def public_message(campaign: Campaign, turn: int, kind: str, to: str, subject: str, before: str = "", after: str = "") -> EmailMessage:
    """The mail of turn `turn`'s public report to one address (the GM's or the forum's, an observer's): the
    report as plain text between `before` and `after`, then as HTML with the public board inline (design 18).
    MailError when the address cannot be written to."""
    public = (campaign.turn_dir(turn) / "reports" / "public.md").read_text(encoding="utf-8")
    message = make_message(campaign, kind=kind, turn=turn, to=[("", to)], subject=subject,
                           body=before + markdown_plain(public) + after)  # sent as text/plain: no Markdown escapes
    board_view = campaign.game.view(campaign.state(turn), None)
    boards.with_board(message, campaign.game.id, board_view, boards.markdown_html(public), f"board-{turn}")
    return message

