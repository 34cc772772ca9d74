"""`pbem run`: one tick of the judge over a campaign (design 11), each step as its own command does it.

    1. fetch    IMAP mailboxes into mail/inbox/ (mail/fetch.py)
    2. ingest   every source whose files changed since the last tick (mail/ingest.py); then
                resigned seats handed on and granted absences applied; after mail holding a
                resignation or an absence request, the tick's unsent acknowledgements built
                again, so that they say what holds after those steps (mail/ingest.py's refresh)
    3. decide   adjudicate early (every due player has an accepted file, `judge: early:`),
                or with NMRs once the deadline plus `judge: grace:` has passed; else wait
    4. mail     the welcome (first tick), the new turn's reports, a reminder at each offset,
                word to the GM; with --send, the outbox delivered once (mail/deliver.py)

    CAMPAIGN/mail/judge.json   what the judge has done that the outbox cannot tell: the
                               sources as last ingested, the turns whose reports are built,
                               the reminders built, whether the welcome was built

Each step takes the campaign lock as its command does; the whole tick holds `.judge.lock`,
so two ticks never interleave. Every step is safe to repeat: a message is ingested once
(its key), built once (its bytes), sent once (its Message-ID in mail/sent.json); judge.json
is written after what it records, so a kill between the two repeats the step, which writes
nothing new. A tick at the same moment as the last changes no file and sends nothing.

The moment (`now`) is an argument: it decides only whether a deadline or a reminder time
has passed, the Date of a sent message, and (with `from: adjudication`) the next deadline;
a turn the tick adjudicates records it (adjudicated.json), for the mail that tells of it.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import json
import smtplib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..campaign import pending, schedule, signup, standins
from ..campaign.adjudicate import Refused, adjudicate, prepare
from ..campaign.folder import Campaign, CampaignError, dump_json
from ..common import atomic
from ..common.words import plural
from ..mail import compose, deliver, fetch, inbox, reportmail, route
from ..mail.ingest import IngestResult, ingest, load_index, refresh
from ..campaign.standins import GM, abandoned_by, standins_record
from . import absences as absence_tick
from . import comeback, letters, notify, observers, preview, quiet, seats, shared
from . import signup as signup_tick
from .settings import JudgeSettings, read_settings

JUDGE_LOCK = ".judge.lock"


@dataclass
class Tick:
    """What one tick did to one campaign, for its one line."""

    root: Path | str
    """The campaign folder as `pbem run` was given it."""
    done: list[str] = field(default_factory=list)
    told: list[str] = field(default_factory=list)
    """What the GM must read whole (a player back at a seat the stand-in covers, judge/comeback.py): each its own
    sentence after the list of what the tick did, not one more item of it (trial 9: a run-on line)."""
    refused: str | None = None
    """Why the campaign could not be ticked (unreadable, busy, a step that failed); None when it was."""
    adjudicated: int | None = None
    """The turn this tick adjudicated, if any: a turn mailed by a tick that did not adjudicate it is named in its line."""
    built: int = 0
    """The messages this tick built, every kind (replies, welcomes, reports, reminders, the digest): the
    outbox's new files when it ends, but an acknowledgement the turn's adjudication overtook (never sent)."""
    sent: int = 0

    @property
    def busy(self) -> bool:
        """Whether the tick did anything."""
        return bool(self.done or self.told or self.built or self.sent)

    @property
    def line(self) -> str:
        """One line, whatever the reason holds (a YAML error spans several): cron logs are read with grep."""
        if not (self.busy or self.refused):
            return f"{self.root}: nothing to do"  # most lines of a host's tick: spared the work below
        said = [*self.done, *(f"{plural(n, 'message')} {what}" for n, what in ((self.built, "built"), (self.sent, "sent")) if n)]
        if self.refused:
            text = f"{self.root}: " + (", ".join(said) + "; then " if said else "") + f"refused: {self.refused}"
        else:
            text = f"{self.root}: {', '.join(said) if said else 'nothing to do'}"
        # Still one line (cron logs are grepped by the folder), the list closed by a full stop; no stop after the
        # last sentence, which may end with a command to copy (`pbem standin DIR SEAT off`).
        text += "".join(f". {sentence}" for sentence in self.told)
        return " ".join(text.split())


# -- judge.json ------------------------------------------------------------------------


def _record_path(root: Path) -> Path:
    return compose.mail_dir(root) / "judge.json"


def _load_record(root: Path, campaign: Campaign) -> dict[str, Any]:
    path = _record_path(root)
    if path.is_file():
        return json.loads(path.read_bytes())
    # A first tick: turns already adjudicated were mailed by the GM's own hand; welcome only a fresh campaign.
    last = campaign.last_turn
    return {"sources": {}, "reported": last, "reminded": [], "welcomed": last > 0, "digested": _digest_mark(root, campaign)}


def _digest_mark(root: Path, campaign: Campaign) -> dict[str, int]:
    """Where the GM's digest has got to: the last turn, ingested message and sent-log entry it told of."""
    # No "routed" mark: a shared address's mail routed to none while the campaign was signing up (it sends
    # no digest then) is told in its first digest.
    return {"turn": campaign.last_turn, "seq": len(load_index(root)), "sent": len(deliver.sent_log(root))}


def _save_record(root: Path, record: dict[str, Any], before: bytes | None) -> None:
    data = dump_json(record)
    if data != before:  # a tick with nothing new writes nothing
        compose.ensure_mail_dir(root)
        atomic.write_file(_record_path(root), data)


def keep_facts(root: Path, facts: list[str]) -> bool:
    """What a command found that the GM's next digest tells (a seat handed on by `pbem ingest`); False
    when a tick is running, whose record would overwrite them (the command's own output said them)."""
    if not facts:
        return True
    try:
        with atomic.locked(root, JUDGE_LOCK, "another pbem run"), atomic.locked(root):
            campaign = Campaign.open(root)
            if read_settings(campaign).gm_digest:
                record = _load_record(root, campaign)
                record["facts"] = [*record.get("facts", []), *facts]
                _save_record(root, record, None)
    except atomic.Busy:
        return False
    return True


# -- who is waited for --------------------------------------------------------------------


def waiting_for(campaign: Campaign) -> list[str]:
    """Due players without an accepted order file for the pending turn (campaign/pending.py's one answer)."""
    return pending.check(pending.read(campaign)).waiting


# -- the steps -----------------------------------------------------------------------------


def _fetch(root: Path, settings: JudgeSettings, now: dt.datetime, tick: Tick, routed: frozenset[str]) -> None:
    imap = [s for s in settings.inbox if isinstance(s, fetch.ImapSource) and route.source_key(s) not in routed]
    if not imap:
        return
    password = fetch.imap_password(settings.imap_password_file, root)
    if password is None:
        raise fetch.FetchError(f"no IMAP password: set ${fetch.IMAP_PASSWORD_ENV} or give judge: imap_password_file:")
    fetched = 0
    with atomic.locked(root):
        for source in imap:
            fetched += fetch.fetch_imap(root, source, password, now, settings.imap_ca_file, settings.imap_mark_seen)
    if fetched:
        tick.done.append(f"{plural(fetched, 'message')} fetched")


def _ingest(root: Path, settings: JudgeSettings, now: dt.datetime, record: dict[str, Any], tick: Tick, routed: frozenset[str]) -> IngestResult:
    """Ingest the sources whose signature changed; the signatures are taken before reading, so
    mail that arrives while ingest reads is seen by the next tick. A source routed in this run (shared
    with another campaign) is not read here: what was routed to this campaign is in mail/inbox/."""
    sources = shared.read_by_tick(root, settings, routed)
    for source in sources:
        if not source.exists():
            raise fetch.FetchError(f"judge.inbox: {source}: no such Maildir, mbox or folder")
    seen = {str(s): fetch.signature(s) for s in sources}
    if all(record["sources"].get(name) == sig for name, sig in seen.items()):
        return IngestResult([], 0, [])
    result = ingest(root, sources, now=now, tick=True)
    record["sources"] = seen
    filed = sum(e.status == "filed" for e in result.entries)
    rejected = sum(e.status == "rejected" for e in result.entries)
    own = sum(e.status == "own" for e in result.entries)
    players = len(result.entries) - own
    answered = sum(e.status == "answered" for e in result.entries)  # commands, press: neither filed nor refused
    if players:
        tick.done.append(f"{plural(players, 'new message')} ({filed} filed, {f'{answered} answered, ' if answered else ''}{rejected} rejected)")
    if own:
        tick.done.append(f"{plural(own, 'message')} of the judge's own skipped")
    return result


def _due_now(campaign: Campaign, settings: JudgeSettings, now: dt.datetime) -> tuple[bool | None, str]:
    """Whether the pending turn is adjudicated now: (False: early, True: with NMRs, None: wait), and why."""
    if campaign.over:
        return None, ""
    turn = pending.read(campaign)
    verdict = pending.check(turn)
    missing = verdict.waiting
    played = f", the stand-in plays {', '.join(verdict.standins)}" if verdict.standins else ""
    if not missing and settings.early:
        return False, f"turn {turn.number} adjudicated early (every due player has sent orders{played})"
    due = turn.deadline()
    if due is not None and due.at + settings.grace <= now:
        late = f", NMR: {', '.join(missing)}" if missing else ""
        return True, f"turn {turn.number} adjudicated at the deadline{late}{played}"
    return None, ""


def _adjudicate(root: Path, settings: JudgeSettings, now: dt.datetime, tick: Tick, reported: int = 0) -> str | None:
    """Adjudicate the pending turn when it is time; the reason it was refused, or None."""
    campaign = Campaign.open(root)
    if preview.held(campaign, settings.preview, reported) is not None:
        return None  # the GM's preview comes first: no later turn until pbem release (or rollback)
    nmr, words = _due_now(campaign, settings, now)
    if nmr is None:
        return None
    try:
        adjudicate(root, nmr=nmr, now=now, at=now)  # the turn records the judge's moment: its mail tells it
    except (Refused, CampaignError) as exc:
        return str(exc)
    done = Campaign.open(root)
    gone = abandoned_by(done, done.last_turn)  # told with that turn, as pbem adjudicate and the seat's report mail do
    if gone:
        words += f"; abandoned: {', '.join(seat.seat for seat in gone)} (the stand-in plays from turn {done.last_turn + 1})"
    tick.done.append(words)
    tick.adjudicated = done.last_turn
    return None


def _absences(root: Path, settings: JudgeSettings, record: dict[str, Any], tick: Tick, tell: bool) -> None:
    """judge: absences: auto: a granted absence that covers the pending deadline moves it (judge/absences.py)."""
    with atomic.locked(root):
        moved = absence_tick.apply(root, tell)
    tick.done.extend(moved)
    if moved and settings.gm_digest:
        record["facts"] = [*record.get("facts", []), *moved]


def _bounces(campaign: Campaign, entries: list[Any]) -> dict[str, bytes]:
    """Word to the GM of each bounce among the messages just ingested, naming the seats it is about."""
    files: dict[str, bytes] = {}
    for entry in entries:
        if entry.status != "rejected" or not entry.reason.startswith("an automatic"):
            continue
        raw = (campaign.root / entry.stored).read_bytes()
        message = inbox.parse(raw)
        report = message.get_content_type() == "multipart/report" or entry.sender.startswith(("mailer-daemon@", "postmaster@"))
        if not report:
            continue
        text = raw.decode("utf-8", "replace").lower()
        addresses = {p["id"]: email.utils.parseaddr(campaign.email(p["id"]) or "")[1].lower() for p in campaign.players}
        seats = [seat for seat, address in addresses.items() if address and address in text]
        name, data = letters.bounce(campaign, campaign.last_turn + 1, seats, entry.subject, entry.stored)
        files[name] = data
    return files


def _build_mail(root: Path, settings: JudgeSettings, now: dt.datetime, record: dict[str, Any], refusal: str | None, arrived: list[Any], tick: Tick) -> None:
    campaign = prepare(root)
    if not campaign.gm_email:  # no GM address, no mail; what there was to mail is past, not owed when one is added
        record.update(welcomed=True, reported=campaign.last_turn)
        return
    built: dict[str, bytes] = {}
    notes: list[str] = []  # a seat without an address, say: the GM must mail that one by hand
    marks: list[tuple[str, Any]] = []
    if not record["welcomed"]:
        files, said = letters.welcome_messages(campaign, settings.mail_passwords)
        built.update(files)
        built.update(observers.report_messages(campaign, 0))  # who watched before the start sees the opening too
        notes += said
        marks.append(("welcomed", True))
    last = campaign.last_turn
    hold = preview.held(campaign, settings.preview, record["reported"])
    for turn in range(record["reported"] + 1, last + 1 if hold is None else hold):
        if turn != tick.adjudicated and not settings.preview:  # a run killed between the turn and its mail: this line is the first to tell it
            tick.done.append(f"{_turn_facts(campaign, turn)[0]} (by an earlier run that stopped before its mail)")
        files, said = reportmail.report_messages(campaign, turn)
        built.update(files)
        notes += said
        built.update(observers.report_messages(campaign, turn))  # `observe`: the public report, nothing private
    if hold is not None:  # judge: preview: the turn's reports to the GM only, until pbem release
        name, data = preview.letter(campaign, hold)
        built[name] = data
    marks.append(("reported", last if hold is None else hold - 1))
    reminded = set(record["reminded"])
    told: list[str] = []
    due = None if campaign.over or hold is not None else schedule.of_campaign(campaign, last + 1)
    if due is not None and now < due.at:
        passed = [offset for offset, span in settings.remind if now >= due.at - span]  # farthest first
        folded = letters.handed_back(root, last + 1) if passed else set()
        for player in waiting_for(campaign) if passed else []:
            keys = [f"{last + 1}/{player}/{offset}" for offset in passed]
            if keys[-1] not in reminded and player in folded:  # the letter going with this tick names the deadline: one mail, not two
                told.append(f"{player} (by the letter handing the seat back)")
            elif keys[-1] not in reminded:  # only the nearest offset passed: a tick late after a host was down sends one, not each
                letter = letters.reminder(campaign, player, last + 1, passed[-1], due)
                if letter:
                    built[letter[0]] = letter[1]
                    told.append(player)
            reminded.update(keys)
    if told:  # the line names whom: "1 message built" alone left the GM guessing what went out
        tick.done.append(f"reminded {', '.join(told)} of turn {last + 1}'s deadline")
    marks.append(("reminded", sorted(reminded)))
    if refusal:
        name, data = letters.refused_turn(campaign, last + 1, refusal)
        built[name] = data
    built.update(_bounces(campaign, arrived))
    compose.write_outbox(root, built)  # first the mail, then the record that it was built
    readdressed = deliver.readdress(root, campaign, {e.seq: e.player for e in load_index(root) if e.player})
    if readdressed:
        tick.done.append(f"{plural(len(readdressed), 'message')} rebuilt for a corrected address ({', '.join(readdressed)})")
    for key, value in marks:
        record[key] = value
    tick.done.extend(f"note: {note}" for note in notes)


def _send(root: Path, smtp: deliver.Smtp, now: dt.datetime, tick: Tick) -> str | None:
    refused: list[str] = []
    try:
        sent = deliver.send(root, smtp, clock=lambda: now, on_refused=lambda name, message, reason: refused.append(f"{name} ({reason})"))
    except (OSError, smtplib.SMTPException, compose.MailError) as exc:
        return f"mail not sent ({exc}); what was delivered is recorded, the rest goes with the next tick"
    tick.sent += len(sent)
    if refused:
        return f"the server refused {', '.join(refused)}"
    return None


def send_answers(homes: list[Path], smtp: deliver.Smtp, now: dt.datetime) -> list[tuple[str, bool]]:
    """After the run's ticks: send the replies a shared address's routing built then (judge/shared.py's
    `answer_routed`: a `list` or which-game reply counts the seats the same ticks' joins took) from the
    campaign that keeps them, in this run, not an hour later with its next tick. Each line, and whether
    it is a failure."""
    lines = []
    for home in dict.fromkeys(homes):
        sent = Tick(home)
        try:
            with atomic.locked(home, JUDGE_LOCK, "another pbem run"):
                why = _send(home, smtp, now, sent)
        except atomic.Busy as exc:
            why = f"{exc}; they go with its next tick"
        if why:
            lines.append((f"{home}: replies of the shared address: {why}", True))
        elif sent.sent:
            lines.append((f"{home}: {plural(sent.sent, 'reply', 'replies')} of the shared address sent", False))
    return lines


def tick(root: Path | str, now: dt.datetime, smtp: deliver.Smtp | None = None, routed: frozenset[str] = frozenset(),
         records: quiet.Records | None = None) -> Tick:
    """One tick of one campaign; never raises for a problem of this campaign (it is in the Tick).
    `routed`: the campaign's sources that this run shares with other campaigns and routes (judge/shared.py);
    `records`: the run's quiet records (judge/quiet.py), each read once."""
    result = Tick(root)
    if quiet.is_quiet(root, now, smtp is not None, routed, records):
        return result
    root = Path(root)  # made only for a campaign that is looked at: pathlib costs a quiet one more than its stats
    try:
        Campaign.open(root)
    except (CampaignError, OSError) as exc:
        result.refused = f"could not be read: {exc}"
        _tell_gm_unreadable(root, str(exc), now, smtp)
        return result
    try:
        with atomic.locked(root, JUDGE_LOCK, "another pbem run"):
            before = compose.outbox_names(root)
            try:
                _steps(root, now, smtp, result, routed)
            finally:  # every step's mail counted once (replies, welcomes, reports, the digest); not an acknowledgement
                result.built = len(deliver.going(root, compose.outbox_names(root) - before))  # the turn overtook
    except CampaignError as exc:  # damaged or mistyped: nothing can go on until the GM looks
        result.refused = f"could not be read: {exc}"
        _tell_gm_unreadable(root, str(exc), now, smtp)
    except (fetch.FetchError, atomic.Busy, compose.MailError, OSError) as exc:
        result.refused = str(exc)
    except Exception as exc:  # noqa: BLE001 - damage no check foresaw, or a bug: this campaign only
        result.refused = f"unexpected error ({type(exc).__name__}: {exc}); nothing was half written"
    return result


def _steps(root: Path, now: dt.datetime, smtp: deliver.Smtp | None, result: Tick, routed: frozenset[str]) -> None:
    opening: list[str] = []  # the sign-up's facts of a tick that starts the campaign: in its digest
    if signup.is_open(Campaign.open(root)):  # sign-up (judge/signup.py): its mail, and the start once full
        _fetch(root, read_settings(Campaign.open(root)), now, result, routed)
        with atomic.locked(root):
            still_open, opening = signup_tick.tick(root, now, result.done, routed)
            if still_open:
                signup_tick.digest(root, opening)
                result.refused = _send(root, smtp, now, result) if smtp is not None else None
                return
    with atomic.locked(root):
        campaign = prepare(root)
        settings = read_settings(campaign)
        record = _load_record(root, campaign)
        if not _record_path(root).is_file():  # the first tick's starting point, kept before any step can move it
            _save_record(root, record, None)
        before = _record_path(root).read_bytes()
        preview.after_rollback(root, record)  # a turn pbem rollback took back is told and mailed again
        quiet.prepare(root)
        looked = quiet.looked_at(campaign.last_turn + 1, bool(routed))
        seen = quiet.stamps(root, looked)  # before looking: what moves meanwhile is looked at next time
    if smtp is not None and smtp.cafile is None and settings.smtp_ca_file:
        smtp = replace(smtp, cafile=settings.smtp_ca_file)
    _fetch(root, settings, now, result, routed)
    with atomic.locked(root):  # list, join (the waiting list), observe, takeover: answered before ingest (judge/signup.py)
        facts = opening + signup_tick.running(root, now, result.done, routed)
    ingested = _ingest(root, settings, now, record, result, routed)
    arrived = ingested.entries
    if arrived:  # a seat's own player wrote while the stand-in covers it: the GM's line says so at once
        result.told.extend(comeback.told(Campaign.open(root), [e.seq for e in arrived]))
    facts += seats.settle(root)  # resigned seats handed on, takeovers done (judge/seats.py)
    result.done.extend(f for f in facts if f not in result.done)
    if facts and settings.gm_digest:
        record["facts"] = [*record.get("facts", []), *facts]
    _absences(root, settings, record, result, tell=True)
    with atomic.locked(root):  # the acknowledgements give the deadline and who is missing as they now hold
        refresh(root, ingested, now)
    settled = Campaign.open(root).last_turn
    refusal = _adjudicate(root, settings, now, result, record["reported"])
    if Campaign.open(root).last_turn != settled:  # the new turn's deadline moves in this tick, not the next
        _absences(root, settings, record, result, tell=False)
    with atomic.locked(root):
        _build_mail(root, settings, now, record, refusal, arrived, result)
        _save_record(root, record, before)
        problem = _send(root, smtp, now, result) if smtp is not None else None
    # judge: notify: (judge/notify.py), outside the lock; only turns whose reports went to the players (never a held preview)
    notify.post_turns(root, result.done, now, tell_gm=not settings.gm_digest, upto=record["reported"])
    if settings.gm_digest:
        with atomic.locked(root):
            _digest(root, record, smtp, now, result)
            _save_record(root, record, before)
    if refusal:
        result.refused = refusal
    elif problem:
        result.refused = problem
    keys = [route.source_key(s) for s in settings.inbox]
    if result.refused is not None or any(isinstance(s, fetch.ImapSource) and route.source_key(s) not in routed for s in settings.inbox):
        quiet.forget(root)
    elif not result.busy:
        quiet.remember(root, looked, seen, record["sources"], _next_due(Campaign.open(root), settings, now), smtp is not None, inbox=keys, routed=routed,
                        shares=shared.pointers(root))
    else:
        after = quiet.looked_at(Campaign.open(root).last_turn + 1, bool(routed))
        quiet.remember(root, after, quiet.stamps(root, after), record["sources"], None, smtp is not None, only_at=now, inbox=keys, routed=routed,
                        shares=shared.pointers(root))


def _turn_facts(campaign: Campaign, turn: int) -> list[str]:
    """What the GM should know of an adjudicated turn, from its files alone (so a tick killed half way
    and run again tells the same): who was NMR, which seats the stand-in played, which it newly took."""
    record = standins_record(campaign, turn)
    nmr = [seat for seat in campaign.recorded_nmr(turn) if seat not in record]
    when = schedule.timing(campaign, turn)
    words = f"turn {turn} adjudicated{' ' + when if when else ''}" + (f"; NMR: {', '.join(nmr)}" if nmr else "; every due seat had orders")
    if record:
        words += f"; the stand-in played {', '.join(sorted(record))}"
    facts = [words]
    # Told with the turn that abandoned the seat, as `pbem adjudicate` tells it, not a turn later when the
    # stand-in first plays it: the GM may still want to write to the player or turn the stand-in off.
    facts += [f"{seat.seat} abandoned after {plural(seat.after or 0, 'turn')} without valid orders in a row: the stand-in plays the seat "
              f"from turn {turn + 1} (pbem standin {campaign.root} {seat.seat} off stops it)"
              for seat in abandoned_by(campaign, turn, record)]
    # A seat the GM's stand-in has covered since an earlier turn, whose player played the turn before, is
    # played again, not newly (trial 8: "newly ... from turn 7" of a stand-in the GM switched on at turn 3).
    fresh = [seat for seat in record if not standins.played_when_last_due(campaign, seat, turn)]
    covered = standins.due(campaign, turn - 1, campaign.state(turn - 1)) if any(record[seat].get("reason") == GM for seat in fresh) else {}
    since = {seat: covered[seat].since or turn for seat in fresh if seat in covered and covered[seat].reason == GM}
    again = sorted(seat for seat in fresh if since.get(seat, turn) < turn)
    new = sorted(seat for seat in fresh if seat not in again)
    if new:
        facts.append(f"newly played by the stand-in from turn {turn}: " + ", ".join(f"{seat} ({record[seat].get('reason', '')})" for seat in new))
    if again:
        facts.append(f"played by the stand-in again in turn {turn}, its player having sent nothing: "
                     + ", ".join(f"{seat} (gm, on since turn {since[seat]})" for seat in again))
    return facts


def _tenure_end(holder: dict[str, Any]) -> str:
    return "before playing a turn" if holder["to"] < holder["from"] else f"after turn {holder['to']}"


def _former_holder(campaign: Campaign, sender: str) -> str:
    """For a refused message: whether its sender once held a seat they no longer hold (resigned, or replaced),
    so the GM reads a wrong password as what it is."""
    address = signup.bare(sender or "")
    if not address or any(signup.bare(str(p.get("email") or "")) == address for p in campaign.players):
        return ""
    left = [f"{p['id']} ({_tenure_end(h)})" for p in campaign.players for h in p.get("history") or [] if signup.bare(str(h.get("email") or "")) == address]
    return f" (the sender no longer holds a seat: they left {', '.join(left)})" if left else ""


def _digest(root: Path, record: dict[str, Any], smtp: deliver.Smtp | None, now: dt.datetime, tick: Tick) -> None:
    """The GM's digest (design 15): one message for what this tick did, built from the campaign's files
    since the last digest (turns, refused messages, delivery failures), then sent with the rest."""
    campaign = Campaign.open(root)
    if not campaign.gm_email:
        return
    mark = record.get("digested") or _digest_mark(root, campaign)
    facts: list[str] = record.pop("facts", [])
    rolled = record.get("rolled_back", [])  # before the turns: a turn rolled back and adjudicated again is told in that order
    facts += [f"turn {preview.turn_of(name)} rolled back by the GM (kept as gm/rolled-back/{name}); its orders are pending again" for name in rolled[mark.get("rolled", 0):]]
    for turn in range(mark["turn"] + 1, campaign.last_turn + 1):
        facts += _turn_facts(campaign, turn)
    entries = load_index(root)
    facts += comeback.told(campaign, [entry.seq for entry in entries[mark["seq"]:]], entries)
    for entry in entries[mark["seq"]:]:
        # (a takeover is told by the sign-up's own fact and the seat's hand-over, judge/seats.py: not a third time here)
        # A command nobody could be proved to have sent is told too: its sender may be a player writing from
        # another address, who got no answer (design 12: nothing goes to an address no seat has).
        if entry.status == "answered" and (entry.found.startswith(("the command 'absence'", "the command 'resign'")) or entry.reason.startswith("not answered")):
            facts.append(f"{entry.found.split(' in ')[0].removeprefix('the ')} from {entry.player or entry.sender}: {entry.reason}")
        if entry.status == "rejected":
            facts.append(f"message {entry.seq} from {entry.sender or 'an unknown sender'} ({entry.subject[:60]!r}) not filed: {entry.reason}{_former_holder(campaign, entry.sender)}")
    hold = preview.held(campaign, read_settings(campaign).preview, record["reported"])
    if hold is not None and hold != mark.get("held"):  # told once: a tick at the same moment again says nothing new
        facts.append(f"turn {hold} is held for your preview (judge: preview: true): `pbem release {root}` mails its reports, `pbem rollback {root}` takes it back")
    log = deliver.sent_log(root)
    for entry in log[mark["sent"]:]:
        if entry.get("refused") or entry.get("not_delivered_to"):
            facts.append(f"delivery failed: {entry['file']} ({entry.get('refused') or entry.get('not_delivered_to')}); fix the address in campaign.yaml or with pbem replace: the next tick sends it again")
    posts = notify.failures(root, campaign.schedule)
    facts += [why for key, why in posts.items() if key not in mark.get("notify", [])]
    routed = route.ledger(root)  # a shared judge address's mail routed to no campaign, kept here (mail/route.py)
    facts += route.told(routed[mark.get("routed", 0):])
    record["digested"] = {"turn": campaign.last_turn, "seq": len(entries), "sent": len(log), "rolled": len(rolled), "notify": sorted(posts), "routed": len(routed),
                          **({"held": hold} if hold is not None else {})}
    if not facts:
        return
    name, data = letters.digest(campaign, campaign.last_turn + (0 if campaign.over else 1), facts)
    compose.write_outbox(root, {name: data})
    if smtp is not None:
        try:
            tick.sent += len(deliver.send(root, smtp, clock=lambda: now, only=lambda file: file == name))
        except (OSError, smtplib.SMTPException, compose.MailError):
            pass  # it waits in the outbox for the next tick, which says why it could not send


def _next_due(campaign: Campaign, settings: JudgeSettings, now: dt.datetime) -> dt.datetime | None:
    """The next moment the pending turn's schedule makes the judge act: a reminder time, or the
    deadline plus grace; None when nothing will fall due by the clock alone."""
    if campaign.over:
        return None
    due = schedule.of_campaign(campaign, campaign.last_turn + 1)
    if due is None:
        return None
    return min([due.at + settings.grace, *(due.at - span for _, span in settings.remind if now < due.at - span)])


def _tell_gm_unreadable(root: Path, reason: str, now: dt.datetime, smtp: deliver.Smtp | None) -> None:
    """A campaign that cannot be read still gets word to its GM, once, when its folder and GM address can be found."""
    if not root.is_dir():
        return
    try:
        letter = letters.unreadable(root, reason)
        if letter is None:
            return
        with atomic.locked(root, JUDGE_LOCK, "another pbem run"):
            compose.write_outbox(root, {letter[0]: letter[1]})
            if smtp is not None:
                deliver.send(root, smtp, clock=lambda: now)
    except (OSError, smtplib.SMTPException, compose.MailError, atomic.Busy):
        pass  # the line printed for this campaign says it all; the next tick tries again
