"""`pbem ingest`: file orders from mail into the pending turn, once per message, losing nothing.

    CAMPAIGN/mail/ingest.json                          every message ever ingested, in arrival order
    CAMPAIGN/mail/turn-NNN/<player>/<seq>-<hash>.eml   each accepted message, raw, with the .yaml found in it
    CAMPAIGN/mail/rejected/<seq>-<hash>.eml            each refused message, raw, with <seq>-<hash>.txt: why
    CAMPAIGN/turn-NNN/orders/<player>.yaml             the newest accepted orders of each player

A message is known by its Message-ID (or, lacking one, the SHA-256 of its bytes):
one already in mail/ingest.json is skipped, so ingesting the same mailbox twice
changes nothing. Of a player's accepted messages for a turn, the newest by Date
(then by arrival) is filed; the others stay in mail/ as superseded. A message
is accepted when its order document passes the same checks as `pbem check`; a
message that fails them, names no player, or carries no orders is kept in
mail/rejected/ with the reason, and never replaces orders already filed.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..campaign import schedule
from ..campaign.adjudicate import prepare
from ..campaign.folder import Campaign, dump_json, turn_name
from ..campaign.pipeline import Submission, check_document
from ..campaign.turn import pending_state
from ..common import atomic, yamlsafe
from . import commands, compose, inbox

_AUTOMATIC_SENDERS = ("mailer-daemon@", "postmaster@", "noreply@", "no-reply@")


@dataclass
class Entry:
    """One message's line in mail/ingest.json."""

    seq: int
    key: str
    message_id: str
    sender: str
    date: str | None
    """The message's Date in UTC (ISO 8601); None when it has none that can be read."""
    subject: str
    status: str
    """`filed` (its orders are in the turn folder), `superseded` (a newer message of the player is filed), `rejected`,
    or `answered` (a command for the judge, mail/commands.py)."""
    turn: int | None = None
    player: str | None = None
    reason: str = ""
    found: str = ""
    """Where the order document was found (`attachment tony.yaml`, `the body`, ...)."""
    stored: str = ""
    """The raw message under mail/."""
    acknowledged: list[str] = field(default_factory=list)
    """Addresses the acknowledgement went to (empty when none was written)."""


@dataclass
class IngestResult:
    entries: list[Entry]
    """The messages this run handled (new ones only), in arrival order."""
    skipped: int
    """Messages seen in an earlier run."""
    notes: list[str]


# -- the index ------------------------------------------------------------------------


def index_path(root: Path) -> Path:
    return compose.mail_dir(root) / "ingest.json"


def load_index(root: Path) -> list[Entry]:
    path = index_path(root)
    if not path.is_file():
        return []
    return [Entry(**item) for item in json.loads(path.read_text(encoding="utf-8"))["messages"]]


def save_index(root: Path, entries: list[Entry]) -> None:
    path = index_path(root)
    compose.ensure_mail_dir(root)
    atomic.write_file(path, dump_json({"messages": [asdict(e) for e in entries]}))


def message_key(raw: bytes, message_id: str) -> str:
    return message_id if message_id else "sha256:" + hashlib.sha256(raw).hexdigest()


def _date(message: Any) -> str | None:
    text = inbox.header(message, "Date")
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    if when.tzinfo is None:  # RFC 5322's -0000: the zone is unknown; take it as UTC
        when = when.replace(tzinfo=dt.UTC)
    return when.astimezone(dt.UTC).isoformat()


def newer(a: Entry, b: Entry) -> bool:
    """Whether `a` is newer than `b`: by Date (a message without one counts as older), then by arrival."""
    return (a.date is not None, a.date or "", a.seq) > (b.date is not None, b.date or "", b.seq)


# -- one message -----------------------------------------------------------------------


@dataclass
class _Context:
    campaign: Campaign
    entries: list[Entry]
    pending: int
    state: dict[str, Any]
    over: bool
    message: Any = None
    """The message being handled (for the threading headers of its reply)."""
    now: dt.datetime | None = None
    """The moment, for the time left in a command's answer (None: not said)."""


def _automatic(message: Any, address: str, campaign: Campaign) -> str | None:
    """Why a message must get no reply (an auto-reply, a bounce, our own mail), or None."""
    auto = inbox.header(message, "Auto-Submitted").lower()
    if auto and auto != "no":
        return f"an automatic message (Auto-Submitted: {auto})"
    if address.startswith(_AUTOMATIC_SENDERS) or inbox.header(message, "Precedence").lower() in ("bulk", "junk", "list"):
        return "an automatic or bulk message (bounce, mailing list or no-reply sender)"
    if campaign.gm_email and address == email.utils.parseaddr(campaign.gm_email)[1].lower():
        return "a message from the GM address itself"
    return None


def _registered_seat(campaign: Campaign, address: str, turn: int) -> str | None:
    for player in campaign.players:
        registered = campaign.email(player["id"], turn)
        if address and registered and registered.lower() == address:
            return str(player["id"])
    return None


def _reply_address(message: Any, address: str) -> str:
    """Where a reply goes: a usable Reply-To, else the sender's address ("" when neither is usable)."""
    _, reply_to = email.utils.parseaddr(inbox.header(message, "Reply-To"))
    reply_to = reply_to.strip().lower()
    if inbox.usable_address(reply_to):
        return reply_to
    return address if inbox.usable_address(address) else ""


def handle(ctx: _Context, incoming: inbox.Incoming, seq: int) -> Entry:
    """Decide one new message; write its files; return its index entry (not yet saved)."""
    root, campaign = ctx.campaign.root, ctx.campaign
    oversize = len(incoming.raw) > inbox.MAX_MESSAGE_BYTES
    try:  # an oversize message is not parsed whole: its headers are enough to name and refuse it
        message = inbox.parse(incoming.raw[: inbox.HEADER_BYTES] if oversize else incoming.raw)
        message_id = inbox.message_id(message)
        _, address = inbox.sender(message)
        subject = inbox.header(message, "Subject")
        date = _date(message)
    except Exception:  # noqa: BLE001 - junk is kept, never fatal
        message, message_id, address, subject, date = None, "", "", "", None
    ctx.message = message
    key = message_key(incoming.raw, message_id)
    entry = Entry(seq, key, message_id, address, date, subject[:200], "rejected")
    label = f"{seq:05d}-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:10]}"

    def reject(reason: str, player: str | None = None, document: str = "", reply: bool = False) -> Entry:
        entry.reason, entry.player, entry.found = reason, player, document
        entry.stored = f"mail/rejected/{label}.eml"
        atomic.write_file(_ensure(root / entry.stored), incoming.raw)
        atomic.write_file(root / f"mail/rejected/{label}.txt", f"{incoming.source}\n{reason}\n".encode("utf-8", "replace"))
        if reply and message is not None and campaign.gm_email:
            entry.acknowledged = _write_refusal(ctx, entry, message, _reply_address(message, address))
        return entry

    if message is None:
        return reject("not a readable email message")
    if oversize:
        return reject(f"larger than {inbox.MAX_MESSAGE_BYTES // (1024 * 1024)} MiB; not read")
    automatic = _automatic(message, address, campaign)
    if automatic:
        return reject(automatic)
    inbound = commands.Inbound(campaign, ctx.pending, ctx.state, ctx.over, ctx.now, message, incoming.raw, seq, label, address)
    command = commands.recognise(message)
    if command is not None:  # a command for the judge (mail/commands.py), not orders
        return commands.answer(inbound, command, entry)
    seat_by_address = _registered_seat(campaign, address, ctx.pending)
    try:
        found = inbox.find_orders(message)
    except inbox.NoOrders as exc:  # neither orders nor a command: the registered sender gets the list of commands
        return commands.not_understood(inbound, reject(f"no orders: {exc}", seat_by_address), str(exc))
    except inbox.BadOrderFile as exc:
        return reject(f"the order file cannot be read: {exc}", seat_by_address, reply=True)
    except Exception as exc:  # noqa: BLE001
        return reject(f"no orders: the message could not be taken apart ({type(exc).__name__})", seat_by_address)
    try:
        document = yamlsafe.load(found.data)
    except yamlsafe.YamlError as exc:
        return reject(f"the order file ({found.where}) cannot be read: {exc}", seat_by_address, found.where, reply=True)
    except Exception as exc:  # noqa: BLE001
        return reject(f"the order file ({found.where}) cannot be read ({type(exc).__name__})", seat_by_address, found.where, reply=True)
    if ctx.over:
        return reject("the game is over; no orders are due", seat_by_address, found.where, reply=True)
    named = document.get("player") if isinstance(document, dict) else None
    if not isinstance(named, str) or campaign.player(named) is None:
        what = f"names the player '{str(named)[:40]}', who is not in this campaign" if named is not None else "names no player (player: your id)"
        return reject(f"matches no player: the order file {what}", seat_by_address, found.where, reply=True)
    sub = check_document(
        campaign.game,
        ctx.state,
        document,
        turn=ctx.pending,
        expected_player=None,
        password_ok=(lambda p, pw: campaign.password_ok(p, pw, ctx.pending)) if campaign.uses_passwords else None,
        source=found.where,
    )
    registered = campaign.email(named, ctx.pending)
    if sub.nmr:
        problems = "; ".join(f"{p.where}: {p.what}" for p in sub.problems)
        return reject(f"the order file for {named} was refused: {problems}", named, found.where, reply=True)
    if not campaign.uses_passwords and registered and registered.lower() != address:
        return reject(
            f"sent for {named} from {address or 'an unknown address'}, not the address registered for that seat, "
            "and this campaign has no passwords to prove who sent it",
            named,
            found.where,
            reply=True,
        )
    return _accept(ctx, entry, incoming, message, found, sub, label, address)


def _ensure(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _accept(
    ctx: _Context, entry: Entry, incoming: inbox.Incoming, message: Any, found: inbox.OrderDocument, sub: Submission, label: str, address: str
) -> Entry:
    campaign, root, player = ctx.campaign, ctx.campaign.root, sub.player
    entry.turn, entry.player, entry.found = ctx.pending, player, found.where
    folder = f"mail/{turn_name(ctx.pending)}/{player}"
    entry.stored = f"{folder}/{label}.eml"
    atomic.write_file(_ensure(root / entry.stored), incoming.raw)
    atomic.write_file(root / f"{folder}/{label}.yaml", found.data)
    current = next((e for e in ctx.entries if e.status == "filed" and e.turn == ctx.pending and e.player == player), None)
    if current is None or newer(entry, current):
        atomic.write_file(campaign.turn_dir(ctx.pending) / "orders" / f"{player}.yaml", found.data)
        entry.status = "filed"
        if current is not None:
            current.status, current.reason = "superseded", f"replaced by message {entry.seq} ({entry.message_id or entry.key})"
    else:
        entry.status = "superseded"
        entry.reason = f"message {current.seq}, dated later, is already filed"
    if campaign.gm_email:
        to = _reply_address(message, address)
        entry.acknowledged = _write_ack(ctx, entry, sub, to, current)
    return entry


# -- acknowledgements -------------------------------------------------------------------


def _header_lines(entry: Entry) -> list[str]:
    return [
        f"  Date:       {entry.date or '(none)'}",
        f"  Message-ID: {entry.message_id or '(none)'}",
        f"  Orders:     {entry.found}",
    ]


def _still_missing(ctx: _Context) -> list[str]:
    orders = ctx.campaign.turn_dir(ctx.pending) / "orders"
    names = ctx.state.get("names", {})
    return [names.get(p, p) for p in ctx.campaign.game.due(ctx.state) if not any((orders / f"{p}.{ext}").is_file() for ext in ("yaml", "yml"))]


def _deadline_line(ctx: _Context) -> list[str]:
    try:
        due = schedule.deadline(ctx.campaign.schedule, ctx.pending)
    except schedule.ScheduleError:
        return []
    return [f"Deadline for turn {ctx.pending}: {due.text}."] if due else []


def _write_ack(ctx: _Context, entry: Entry, sub: Submission, reply_to: str, replaced: Entry | None) -> list[str]:
    campaign = ctx.campaign
    player = sub.player
    name = ctx.state.get("names", {}).get(player, player)
    lines = [f"{campaign.config.get('name')} ({campaign.game.title}): orders for turn {ctx.pending} received from {name} ({player}).", ""]
    lines += ["Your message:", *_header_lines(entry), ""]
    if entry.status == "filed":
        lines.append(f"These orders are filed for turn {ctx.pending}." + (f" They replace your earlier message ({replaced.message_id or replaced.key})." if replaced else ""))
        lines.append("If you send orders again before the turn is adjudicated, the newest message counts.")
    else:
        lines.append(f"NOT USED: a message of yours with a later Date ({replaced.date if replaced else '?'}) is already filed for turn {ctx.pending}.")
        lines.append("This one is kept on file but will not be adjudicated. Send your orders again if you want these.")
    lines.append("")
    if not sub.readings:
        lines.append("Your order file holds no orders (orders: []), which is a valid choice.")
    else:
        lines.append("Your orders as the adjudicator read them:")
        for reading in sub.readings:
            lines.append(f"  {reading.index + 1:2d}. {reading.written}")
            if reading.accepted:
                lines.append(f"      -> {reading.meaning}")
            else:
                lines.append(f"      -> VOID: {reading.void}. This order will do nothing; your other orders stand.")
    lines.append("")
    missing = _still_missing(ctx)
    lines.append(f"Still missing for turn {ctx.pending}: {', '.join(missing)}." if missing else f"Every player has sent orders for turn {ctx.pending}.")
    lines += _deadline_line(ctx)
    registered = (campaign.email(player, ctx.pending) or "").strip()
    _, registered_address = email.utils.parseaddr(registered)
    reply_to = reply_to if inbox.usable_address(reply_to) else ""
    to = [(name, reply_to)] if reply_to else []
    cc = []
    if registered and registered_address.lower() != reply_to:
        if reply_to:
            lines += ["", "This message came from an address other than the one registered for your seat; its password",
                      "was right, so the orders are filed, and a copy of this acknowledgement goes to the registered address."]
        else:
            lines += ["", "The sender's address of this message could not be read; its password was right, so the",
                      "orders are filed, and this acknowledgement goes to the address registered for your seat."]
        cc = [(name, registered)]
    if not to:
        to, cc = cc, []
    if not to:
        return []
    body = "\n".join(lines) + "\n"
    written = _write_message(ctx, entry, body, to, cc, f"orders received from {name}")
    if not written and cc:  # the sender's address could not be written to: the registered address still hears of it
        written = _write_message(ctx, entry, body, cc, [], f"orders received from {name}")
    return written


def _write_refusal(ctx: _Context, entry: Entry, message: Any, reply_to: str) -> list[str]:
    if not reply_to:
        return []
    campaign = ctx.campaign
    lines = [f"{campaign.config.get('name')} ({campaign.game.title}): your message was NOT filed as orders.", ""]
    lines += ["Your message:", *_header_lines(entry)[:2], ""]
    lines += ["Why:", f"  {entry.reason}", ""]
    lines.append("Nothing from this message is used, and any orders filed before it stand unchanged.")
    if not ctx.over:
        lines.append(f"Fix the problem and send the whole order file for turn {ctx.pending} again")
        lines.append("(attached as a .yaml file, or pasted into the body, starting with the line 'player: ...').")
    lines += _deadline_line(ctx)
    return _write_message(ctx, entry, "\n".join(lines) + "\n", [("", reply_to)], [], "your message was not filed")


def _write_message(ctx: _Context, entry: Entry, body: str, to: list[tuple[str, str]], cc: list[tuple[str, str]], what: str) -> list[str]:
    campaign = ctx.campaign
    parent, references = inbox.thread_ids(ctx.message) if ctx.message is not None else ("", [])
    try:
        message = compose.make_message(
            campaign,
            kind="ack",
            turn=ctx.pending,
            to=to,
            cc=cc,
            subject=f"[{campaign.config.get('name')}] turn {ctx.pending}: {what}",
            body=body,
            in_reply_to=parent,
            references=references,
        )
    except compose.MailError:
        return []  # an address we cannot write to: the entry still records the message
    compose.write_outbox(campaign.root, {f"{turn_name(ctx.pending)}/ack-{entry.seq:05d}.eml": compose.to_bytes(message)})
    return [address for _, address in to + cc]


# -- the command --------------------------------------------------------------------------


def ingest(root: Path, sources: list[Path], now: dt.datetime | None = None) -> IngestResult:
    """File every new message of the sources, and answer the commands among them (`now`: the
    moment their answers count the time left from); hold the campaign lock throughout."""
    Campaign.open(root)
    for source in sources:
        if not source.exists():
            raise FileNotFoundError(2, "no such mailbox, folder or file", str(source))
    with atomic.locked(Path(root)):
        campaign = prepare(Path(root))
        last = campaign.last_turn
        state = pending_state(campaign)
        over = campaign.game.is_over(state)
        entries = load_index(campaign.root)
        known = {e.key for e in entries}
        ctx = _Context(campaign, entries, last + 1, state, over, now=now)
        handled: list[Entry] = []
        skipped = 0
        notes = [] if campaign.gm_email else ["campaign.yaml has no gm_email: no acknowledgements were written"]
        for incoming in inbox.read_sources(sources, notes):
            try:
                parsed_id = inbox.message_id(inbox.parse(incoming.raw[: inbox.HEADER_BYTES] if len(incoming.raw) > inbox.MAX_MESSAGE_BYTES else incoming.raw))
            except Exception:  # noqa: BLE001
                parsed_id = ""
            key = message_key(incoming.raw, parsed_id)
            if key in known:
                skipped += 1
                continue
            compose.ensure_mail_dir(campaign.root)
            entry = handle(ctx, incoming, len(entries) + 1)
            entries.append(entry)
            known.add(key)
            handled.append(entry)
            save_index(campaign.root, entries)
        return IngestResult(handled, skipped, notes)
