"""The judge's answers to commands by mail (design 12), each built for one seat from what that seat may know.

Every answer takes a Desk (the campaign's settings, the pending turn and its state, the moment
and the granted absences) and the asking seat, with that seat's own files. It reads the state
only through the game's view of the seat, its `due` and its `phase`: another player's secrets
cannot move a byte of it (tests/test_reliability_leaks.py). mail/commands.py decides who asks
and where the answer goes.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from ..campaign import absences, schedule
from ..campaign.folder import Campaign
from ..campaign.pending import OnPending, Pending, standing
from ..campaign.pipeline import Submission, nmr_means
from ..campaign.standins import GM
from ..common.resources import resource_path
from ..common.words import cell, headed, plural
from ..publish.render import Renderer
from . import press, preface
from .sentences import WHERE as SENTENCES

GUIDE = "send guide for the player's guide (how to send orders, your order form, the commands)"

FORM_HEADING = "WHAT HAPPENS NEXT"
"""The heading under which every game's private report (templates/<game>/private.txt.j2) says what the
next turn asks of the reader and gives their order form: the guide carries that part as it is."""


@dataclass
class Desk(OnPending):
    """What every answer is built from: the pending turn as read once (campaign/pending.py) and the
    moment (None: unknown; then no time left is said). Each answer takes the asking seat; it reads
    the state only through the game's view of that seat, its `due` and its `phase`."""

    turn: Pending
    now: dt.datetime | None = None

    def name(self, seat: str) -> str:
        return str(self.state.get("names", {}).get(seat, seat))

    @property
    def title(self) -> str:
        return f"{self.campaign.config.get('name')} ({self.campaign.game.title})"

    def readings(self, sub: Submission, verb: str) -> list[str]:
        """A checked order file in words, as the report, the acknowledgement and `pbem check` say it."""
        if sub.nmr:
            lines = ["REJECTED as a whole; you would count as NMR (no moves received). What is wrong:"]
            return lines + [f"  - {p.where}: {p.what}" for p in sub.problems]
        if not sub.readings:
            return ["It holds no orders (orders: []), which is a valid choice."]
        renderer = Renderer.for_campaign(self.campaign.game.id, self.campaign.root, self.campaign.site_base_url)
        return ["The orders as the adjudicator reads them:", *renderer.readings(sub, verb)]


def _deadline(desk: Desk) -> list[str]:
    if desk.over:  # after the last turn no message names a later turn or a deadline
        return []
    try:
        due = desk.turn.deadline()  # as `pbem status` reads it: the turns settled, the deadlines they recorded
    except schedule.ScheduleError:
        return ["Deadline: the GM's schedule cannot be read just now."]
    if due is None:
        return ["Deadline: none is set for this turn."]
    left = f" ({schedule.time_left(due, desk.now)})" if desk.now is not None else ""
    return [f"Deadline for turn {desk.pending}: {due.text}{left}."]


def command_list(campaign: Campaign) -> list[str]:
    mode = _press_mode(campaign)
    lines = [
        "  help               this list, the order format and the deadline",
        "  guide              the player's guide: how to send orders, your order form, the commands",
        "  status             the turn, its deadline, who is due, whether your orders are filed",
        "  orders             your orders filed for the pending turn, as the adjudicator reads them",
        "  check              with your order file below (or attached): how it would be read; nothing is filed",
        "  report [N]         your report of turn N again (without N: the latest)",
    ]
    if mode != "none":
        lines.append("  press TO...        with your text below: a message to the players you name (ids or names, or all)")
    if mode == "grey":
        lines.append("  press anonymous TO...  the same, without your name")
    if absences.auto(campaign) is None:
        lines.append("  absence FROM TO    ask the GM for an absence, e.g. absence 2026-12-24 2027-01-02")
    else:
        lines.append("  absence FROM TO    be away (granted within your absence budget), e.g. absence 2026-12-24 2027-01-02")
    lines.append("  resign             give up your seat: the first waiting player, or the stand-in, takes it over")
    return lines


def _press_words(campaign: Campaign) -> str:
    return {"none": "Press: none in this campaign.", "signed": "Press is signed: the players you write to see your name.",
            "anonymous": "Press is anonymous: the players you write to are never told who sent it.",
            "grey": "Press is signed unless you write press anonymous."}[_press_mode(campaign)]


def _press_mode(campaign: Campaign) -> str:
    try:
        return press.settings(campaign)[0]
    except press.PressError:
        return "none"


def how_to_ask(campaign: Campaign) -> list[str]:
    lines = ["Write the command as the Subject of your mail, or as its first line."]
    if campaign.uses_passwords:
        lines.append("This campaign uses passwords: add a line  password: YOUR PASSWORD  to every command.")
    return lines


def sentence_examples(campaign: Campaign, view: Any, seat: str) -> list[str]:
    """How to give this turn's orders as plain sentences, with the game's examples legal for the seat now
    (design 17), for the help, the guide and the welcome alike; nothing for a game that gives none."""
    examples = campaign.game.form_examples(view, seat)
    if not examples:
        return []
    password = " with your password: line" if campaign.uses_passwords else ""
    return [f"No form at hand? Plain sentences from your seat's address, one order to a line{password}, are your orders, e.g.:",
            *(f"  {example}" for example in examples)]


def help_reply(desk: Desk, seat: str) -> str:
    game = desk.campaign.game
    lines = [f"{desk.title}: the judge's commands, for {desk.name(seat)} ({seat}).", "", *how_to_ask(desk.campaign), "", *command_list(desk.campaign), ""]
    lines += [_press_words(desk.campaign), ""]
    if desk.over:
        lines += [*game_over(desk), "", "report and status still answer."]
    else:
        phase = game.phase(desk.state)
        document = _schema_document(game.id, phase)
        lines.append(f"Orders for turn {desk.pending} (phase {phase}): an order file, attached as a .yaml file or pasted into the mail:")
        lines += [f"  player: {seat}", f"  turn: {desk.pending}"]
        if desk.campaign.uses_passwords:
            lines.append('  password: "YOUR PASSWORD"')
        lines += ["  orders:", "    - ONE ORDER", "    - ANOTHER ORDER"]
        if document.get("description"):
            lines += ["", f"Each order ({document.get('title', 'order')}): {document['description']}"]
        lines += ["The order form at the end of your latest report has the lines for you (send: report).", ""]
        sentences = sentence_examples(desk.campaign, desk.turn.position.view_of(seat), seat) if desk.turn.due(seat) else []
        lines += [*sentences, ""] if sentences else []
        lines += _deadline(desk)
    lines += ["", f"More: {GUIDE}."]
    return "\n".join(lines) + "\n"


def _schema_document(game_id: str, phase: str) -> dict[str, Any]:
    path = resource_path("schemas", f"{game_id}/{phase}.json")
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def guide_reply(desk: Desk, seat: str, report: str | None) -> str:
    """The player's guide for this campaign and seat, in plain text (issue 24 item 11: players have no copy of
    pbem's docs, and docs/players.md is the web page, for every game): how to send orders by mail, this
    turn's order form with this game's examples as the seat's latest report (`report`, None when there is
    none to give) has them, and the commands."""
    uses_passwords = desk.campaign.uses_passwords
    sentences = sentence_examples(desk.campaign, desk.turn.position.view_of(seat), seat) if not desk.over and desk.turn.due(seat) else []
    lines = [f"{desk.title}: the player's guide, for {desk.name(seat)} (seat id: {seat}).", "",
             "SENDING ORDERS BY MAIL",
             "Each report the judge mails you ends with an order form made for you. Reply to that mail with",
             "the form filled in, written ABOVE the quoted report (or attached as a .yaml file): the judge",
             "never reads quoted lines (starting with >), your signature, or a forwarded mail.",
             f"- Send the whole form, from the line  player: {seat}  on. Lines starting with # are ignored.",
             ]
    if uses_passwords:
        lines.append('- Write your seat\'s password (from your welcome mail) in the line  password: "..."  of every mail.')
    lines += ["- You may send orders again before the deadline: the newest mail counts. Every order mail is",
              "  answered with your orders as the judge reads them, and what replaces an order that does nothing.",
              *(["- " + sentences[0], *sentences[1:]] if sentences else [
                  "- No form at hand? Write your orders as plain sentences, one to a line, from the address the",
                  "  judge has for you" + (", with your password line." if uses_passwords else ".")]),
              "- No orders by the deadline: you count as NMR (no moves received) and the game's default plays for you.",
              ""]
    lines += _form(desk, report)
    lines += ["COMMANDS", *how_to_ask(desk.campaign), *command_list(desk.campaign), _press_words(desk.campaign)]
    return "\n".join(lines) + "\n"


def _form(desk: Desk, report: str | None) -> list[str]:
    """The part of the seat's latest report that says what the pending turn asks and gives the order form."""
    if desk.over:
        return ["The game is over: no orders are due.", ""]
    start = report.find(f"\n{FORM_HEADING}\n") if report is not None else -1
    if start < 0:
        return [f"Your order form for turn {desk.pending} comes with your next report.", *_deadline(desk), ""]
    form = report[start + 1:].rstrip("\n").split("\n")
    while form and (not form[-1].strip() or form[-1].startswith("# Send the judge")):  # the report's pointer to this very guide
        form.pop()
    return [f"YOUR ORDERS FOR TURN {desk.pending} (as your report of turn {desk.pending - 1} gives them)", *form[1:], ""]


def game_over(desk: Desk) -> list[str]:
    """What every answer says once the game is over (design 15): its end, the winners and the final
    standings, from the public view only (the table `pbem show` prints), and that no orders are due."""
    winners = desk.campaign.game.winners(desk.state)
    return [f"The game is over after turn {desk.pending - 1}. Winners: {', '.join(desk.name(p) for p in winners) or 'none'}.",
            "No orders are due, and none are filed.", "", *final_standings(desk)]


def final_standings(desk: Desk) -> list[str]:
    """The last standings, a line per player with the winners marked, from the public view: the fields
    `pbem show` prints in its table, under the same headings."""
    game = desk.campaign.game
    winners = game.winners(desk.state)
    players = game.player_fields(game.view(desk.state, None))
    fields = headed(dict(game.field_labels), list(players.values()))
    lines = ["FINAL STANDINGS"]
    for player, row in players.items():
        said = "; ".join(f"{head}: {cell(row[k])}" for k, head in fields if k in row)
        lines.append(f"  {desk.name(player)}{' (winner)' if player in winners else ''}: {said}")
    return lines


def status_reply(desk: Desk, seat: str) -> str:
    game = desk.campaign.game
    lines = [f"{desk.title}: status for {desk.name(seat)} ({seat}).", ""]
    if desk.over:
        lines += game_over(desk)
    else:
        lines.append(f"Turn {desk.pending}, phase {game.phase(desk.state)}.")
        lines += _deadline(desk)
        turn = desk.turn
        # Who the stand-in plays is said only where the rules make an NMR public, as in the reports (docs/standins.md).
        shown = [desk.name(p) + (" (the stand-in plays this seat)" if game.nmr_public and turn.plays(p) else "") for p in turn.due_seats]
        lines.append(f"Due this turn: {', '.join(shown)}.")
        sub = turn.submission(seat) if turn.due(seat) else None
        word = standing(sub, turn.plays(seat)) if sub is not None else None
        if sub is None:
            lines.append("You have nothing to order this turn.")
        elif word == "stand-in":
            lines.append(f"Your orders for turn {desk.pending}: none filed; the stand-in plays your seat unless you send orders.")
        elif word == "missing":
            lines.append(f"Your orders for turn {desk.pending}: none filed yet.")
        elif word == "rejected":
            lines.append(f"Your orders for turn {desk.pending}: a file is filed but it is REJECTED (send: orders, for why).")
        else:
            void = f", {len(sub.void)} of them void" if sub.void else ""
            lines.append(f"Your orders for turn {desk.pending}: filed, {plural(len(sub.readings), 'order')}{void}.")
            covered = turn.covered.get(seat)
            if covered is not None and covered.reason == GM:  # as the acknowledgement of those orders said (trial 8)
                lines.append(preface.gm_standin_stays(covered))
    current = desk.turn.absences_not_over(desk.now)  # past absences are no news
    if not desk.campaign.game.nmr_public:  # nobody learns whose absence moved a deadline (design 16)
        current = [a for a in current if a.seat == seat]
    if current:
        public = "Absences granted by the GM:" if absences.auto(desk.campaign) is None else "Absences granted:"
        lines += ["", public if desk.campaign.game.nmr_public else "Your absences granted:"]
        lines += [f"  {desk.name(a.seat)}: {a.text}" for a in current]
    return "\n".join(lines) + "\n"


def orders_reply(desk: Desk, seat: str) -> str:
    lines = [f"{desk.title}: orders filed for {desk.name(seat)} ({seat}).", ""]
    if desk.over:
        lines += game_over(desk)
    elif not desk.turn.due(seat):
        lines.append(f"You have nothing to order in turn {desk.pending}.")
    elif (sub := desk.turn.submission(seat)).status == "missing":
        lines.append(f"No orders are filed for you for turn {desk.pending}. Without them you count as NMR (no moves received). "
                     f"{nmr_means(desk.campaign.game, desk.turn.position, seat)}".rstrip())
    else:
        lines.append(f"For turn {desk.pending} this file is filed for you (the newest you sent).")
        lines += desk.readings(sub, "does")
    return "\n".join(lines) + "\n"


def check_reply(desk: Desk, seat: str, data: bytes | Unreadable, where: str) -> str:
    """The reading `pbem check` gives of an order file (`data`: its bytes, or why none could be taken from the mail)."""
    lines = [f"{desk.title}: your order file checked, {desk.name(seat)} ({seat}). Nothing was filed.", ""]
    if desk.over:
        lines += game_over(desk)
    elif isinstance(data, Unreadable):
        lines += [f"No order file could be read: {data.reason}.", "Send check with your order file below it, or attached as a .yaml file."]
    else:
        sub = desk.turn.check_file(seat, data, where)
        if sub.nmr and not desk.turn.due(seat):
            lines.append(f"You have nothing to order in turn {desk.pending}: the adjudicator would ignore the file.")
        elif where == SENTENCES and not sub.orders and not sub.nmr:  # as filing reads them: none reads, none is filed
            lines.append(f"The sentences of your mail for turn {desk.pending}: no line stands as an order (each is answered "
                         "below with why), so sent without the word check they would NOT be filed.")
            lines += desk.readings(sub, "would do")
        else:
            lines.append(f"The file ({where}) for turn {desk.pending}: " + (f"{sub.standing}." if not sub.nmr else ""))
            lines += desk.readings(sub, "would do")
        lines += ["", "Write each order as the answers above say and check again, or send help for the order format."
                  if where == SENTENCES and not sub.orders else
                  "Fix the void orders and check again, or, to file it as it is, send it again without the word check."
                  if sub.void else "To file it, send it again without the word check."]
    return "\n".join(lines) + "\n"


def report_reply(desk: Desk, seat: str, turn: int, report: str | None) -> str:
    if report is None:
        last = desk.pending - 1
        return f"{desk.title}: there is no report of turn {turn} for {desk.name(seat)}; reports exist for turns 0 to {last} (report N).\n"
    return report


@dataclass(frozen=True)
class Unreadable:
    """No order file could be taken from a `check` mail; `reason` says why."""

    reason: str
