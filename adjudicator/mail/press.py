"""Press: messages between players, relayed by the judge (design 12).

    CAMPAIGN/mail/press/<seq>.json                        each relayed press message (docs/mail-commands.md)
    CAMPAIGN/mail/outbox/turn-NNN/press-<seq>-<seat>.eml  its copy for one named player
    CAMPAIGN/mail/outbox/turn-NNN/press-<seq>-gm.eml      the GM's copy (`judge: press_copy_gm: true`)

`judge: press:` in campaign.yaml says what players may send: `none`, `signed` (the
default: receivers see who sent it), `anonymous` (they never do) or `grey` (the sender
chooses, `press anonymous TO...`). Each named player gets a message of their own, From
the judge's address, To their registered address only, so no receiver learns another's
address and nobody unnamed gets anything.

An anonymous copy is built from the text, the receiver and the turn alone: no address,
no Message-ID, no header of the sender's message, and no Date until the judge sends it
(mail/deliver.py). Its Message-ID counts the press the receiver got before (the first,
the second, ...), never the judge's count of all the mail it handled, which would tell
how busy the other players were. Two players sending the same anonymous text give the
receiver the same bytes.

Press is never a turn's input: nothing under mail/ is read by adjudication or audit.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..campaign.folder import Campaign, dump_json, turn_name
from ..common import atomic
from ..games.base import State
from . import compose

MODES = ("none", "signed", "anonymous", "grey")
MAX_PRESS_CHARS = 8000
"""The longest press text relayed, in characters: a long letter fits; a pasted book does not."""


class PressError(ValueError):
    """Press cannot be relayed; the message says why in words for the sender."""


def settings(campaign: Campaign) -> tuple[str, bool]:
    """(`judge: press:`, `judge: press_copy_gm:`) as campaign.yaml has them, checked."""
    judge = campaign.config.get("judge") or {}
    if not isinstance(judge, dict):
        raise PressError("campaign.yaml's judge: is not a mapping, so press is off until the GM fixes it")
    mode = str(judge.get("press", "signed")).strip().lower()
    if mode not in MODES:
        raise PressError(f"campaign.yaml's judge.press is '{mode[:40]}', not one of {', '.join(MODES)}; press is off until the GM fixes it")
    return mode, judge.get("press_copy_gm") is True


def press_dir(root: Path) -> Path:
    return compose.mail_dir(root) / "press"


@dataclass
class Record:
    """One relayed press message, as kept in mail/press/<seq>.json."""

    seq: int
    """The message's number in mail/ingest.jsonl."""
    turn: int
    """The pending turn when it was relayed."""
    sender: str
    receivers: list[str]
    """Seat ids, in seat order."""
    anonymous: bool
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "turn": self.turn, "from": self.sender, "to": self.receivers, "anonymous": self.anonymous, "text": self.text}


def records(root: Path) -> list[Record]:
    """Every press message kept, in arrival order."""
    folder = press_dir(root)
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        found.append(Record(data["seq"], data["turn"], data["from"], data["to"], data["anonymous"], data["text"]))
    return found


@dataclass
class Relayed:
    receipt: str
    """What the sender is told (relayed to whom, or why not)."""
    files: dict[str, bytes] = field(default_factory=dict)
    """Outbox files: one per named player with an address, and the GM's copy."""
    record: Record | None = None


def receivers(state: State, sender: str, words: str) -> list[str]:
    """The seats named in `words` (ids or display names, any case, separated by commas or blanks;
    `all` for every other player), in seat order, the sender left out; PressError naming any unknown."""
    players: list[str] = list(state["players"])
    names: dict[str, str] = state.get("names", {})
    by_word = {p.casefold(): p for p in players} | {str(names.get(p, p)).casefold(): p for p in players}
    named: set[str] = set()
    unknown: list[str] = []
    for piece in (p.strip() for p in words.replace(";", ",").split(",")):
        if not piece:
            continue
        if piece.casefold() == "all":  # `all` always means everyone, whatever a seat is called (issue 26.15)
            named.update(players)
            continue
        if piece.casefold() in by_word:  # a display name with blanks in it, between commas
            named.add(by_word[piece.casefold()])
            continue
        words_left = piece.split()
        while words_left:  # the longest run of words that names a player: `press David María José`
            key = words_left[0].casefold()
            size = 0 if key == "all" else next((n for n in range(len(words_left), 0, -1) if " ".join(words_left[:n]).casefold() in by_word), 0)
            if size:
                named.add(by_word[" ".join(words_left[:size]).casefold()])
            elif key == "all":
                named.update(players)
            elif key != "to":
                unknown.append(words_left[0])
            words_left = words_left[max(size, 1) :]
    if unknown:
        shown = ", ".join(f"'{w[:40]}'" for w in unknown[:5])
        raise PressError(f"{shown} names no player of this campaign (name players by id or name, or write all); nothing was relayed")
    named.discard(sender)
    if not named:
        raise PressError("it names no player but yourself (write the players' ids or names after press, or all); nothing was relayed")
    return [p for p in players if p in named]


_SIGN_OFF_MARKS = " \t-\u2013\u2014~.,!;"


def unsigned(text: str, names: list[str]) -> tuple[str, list[str]]:
    """An anonymous text without the lines at its end that only sign it: the sender's name, id or first
    name, as the seat or the From header has it (`Anna Berg`, `-- Anna`); the text and the lines cut."""
    known = {" ".join(n.split()).casefold() for n in names if n.strip()}
    known |= {n.split()[0] for n in known if len(n.split()) > 1 and len(n.split()[0]) > 1}
    lines = text.split("\n")
    cut: list[str] = []
    while lines and (not lines[-1].strip() or " ".join(lines[-1].strip(_SIGN_OFF_MARKS).split()).casefold() in known):
        line = lines.pop()
        if line.strip():
            cut.insert(0, line.strip())
    return "\n".join(lines), cut


def relay(campaign: Campaign, state: State, pending: int, over: bool, seq: int, sender: str, arguments: str, text: str,
          signer: str = "") -> Relayed:
    """Relay the press `text` from `sender` to the players `arguments` name, as campaign.yaml allows.
    `signer`: the From header's name, which an anonymous text's closing lines may sign with."""
    try:
        mode, copy_gm = settings(campaign)
        if mode == "none":
            raise PressError("this campaign has no press (campaign.yaml judge.press: none); nothing was relayed")
        if over:
            raise PressError("the game is over, so the judge relays no more press; nothing was relayed")
        words = arguments.split(None, 1)
        asked_anonymous = bool(words) and words[0].lower() == "anonymous"
        if asked_anonymous:
            arguments = words[1] if len(words) > 1 else ""
            if mode == "signed":
                raise PressError("this campaign's press is signed only (campaign.yaml judge.press: signed), so 'press anonymous' is refused; nothing was relayed")
        anonymous = mode == "anonymous" or (mode == "grey" and asked_anonymous)
        named = receivers(state, sender, arguments)
        left_out: list[str] = []
        if anonymous:  # design 12: nothing in it names its sender, the signature under the text included
            text, left_out = unsigned(text, [sender, str(state.get("names", {}).get(sender, "")), signer])
        text = text.strip("\n")
        if not text.strip():
            raise PressError("it has no text below the press line; nothing was relayed")
        if len(text) > MAX_PRESS_CHARS:
            raise PressError(f"its text is {len(text)} characters long, more than the {MAX_PRESS_CHARS} press may hold; nothing was relayed")
    except PressError as exc:
        return Relayed(f"Your press was NOT relayed: {exc}.")
    record = Record(seq, pending, sender, named, anonymous, text + "\n")
    files, unreachable = _copies(campaign, state, record, copy_gm)
    if not files or len(unreachable) == len(named):
        return Relayed("Your press was NOT relayed: none of the players you named can be reached by mail here; tell the GM.")
    names = state.get("names", {})
    reached = [names.get(p, p) for p in named if p not in unreachable]
    how = "anonymously (they are not told who sent it)" if anonymous else "signed with your name"
    receipt = f"Your press was relayed {how} to {', '.join(reached)}."
    if unreachable:
        receipt += f" It did not go to {', '.join(names.get(p, p) for p in unreachable)}: no address is registered for them (the GM keeps every press message)."
    if anonymous:  # the sender sees what the receivers read: nothing more of theirs went with it
        if left_out:
            receipt += f"\nLeft out, as it names you: {'; '.join(repr(line) for line in left_out)}."
        receipt += "\nYour signature, quoted text and password: line are never relayed. The text as they got it:\n\n"
        receipt += "".join(f"    {line}\n" for line in record.text.rstrip("\n").split("\n"))
    return Relayed(receipt, files, record)


def keep(root: Path, record: Record) -> None:
    """mail/press/<seq>.json: written before the outbox copies, under the same seq, so a run broken
    between the two writes the same files again and relays nothing twice."""
    compose.ensure_mail_dir(root)
    press_dir(root).mkdir(exist_ok=True)
    atomic.write_file(press_dir(root) / f"{record.seq:05d}.json", dump_json(record.to_json()))


def _copies(campaign: Campaign, state: State, record: Record, copy_gm: bool) -> tuple[dict[str, bytes], list[str]]:
    names = state.get("names", {})
    title = str(campaign.config.get("name"))
    folder = turn_name(record.turn)
    earlier = [r for r in records(campaign.root) if r.seq < record.seq]
    files: dict[str, bytes] = {}
    unreachable: list[str] = []
    if record.anonymous:
        subject, opening = f"[{title}] anonymous press", f"Anonymous press, turn {record.turn}. The judge does not say who sent it."
    else:
        sender = names.get(record.sender, record.sender)
        # Those it goes to: a seat nobody holds (resigned, vacant) is not named as a reader of it.
        to = ", ".join(names.get(p, p) for p in record.receivers if campaign.email(p, record.turn))
        subject, opening = f"[{title}] press from {sender}", f"Press from {sender} ({record.sender}) to {to}, turn {record.turn}."
    body = f"{opening}\n\n{record.text}\n-- \nRelayed by the judge of {title}. To answer, send the judge a mail starting: press NAMES\n"
    for receiver in record.receivers:
        address = campaign.email(receiver, record.turn)
        if not address:
            unreachable.append(receiver)
            continue
        ordinal = 1 + sum(receiver in r.receivers for r in earlier)  # this receiver's own count, nobody else's
        try:
            message = compose.make_message(
                campaign, kind=f"press-{ordinal}", turn=record.turn, to=[(str(names.get(receiver, receiver)), address)], subject=subject, body=body
            )
        except compose.MailError:
            unreachable.append(receiver)
            continue
        files[f"{folder}/press-{record.seq:05d}-{receiver}.eml"] = compose.to_bytes(message)
    if copy_gm and files:
        sender = names.get(record.sender, record.sender)
        how = "anonymous" if record.anonymous else "signed"
        to = ", ".join(f"{names.get(p, p)} ({p})" for p in record.receivers)
        gm_body = f"Press ({how}) from {sender} ({record.sender}) to {to}, turn {record.turn}:\n\n{record.text}"
        message = compose.make_message(
            campaign, kind=f"press-gm-{record.seq}", turn=record.turn, to=[("", compose.gm_address(campaign))], subject=f"[{title}] press from {sender} (GM copy)", body=gm_body
        )
        files[f"{folder}/press-{record.seq:05d}-gm.eml"] = compose.to_bytes(message)
    return files, unreachable
