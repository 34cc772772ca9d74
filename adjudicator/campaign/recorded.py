"""The readings a committed turn was adjudicated with, for `pbem audit` across a better order reader.

The manifest chain binds an order file's bytes; results.json records how they were read (each
order's words, canonical order, meaning or reason it is void). The reader improves between
releases (a word of a display name, several SIDs in one order, H.I.D.E. choices on one line), so
today's reader may read an unchanged file differently from the reader of its day. Replaying such a
turn with today's readings would report a damaged archive where nothing was touched.

`read_then` takes, for each accepted file whose bytes are the ones the manifest records and whose
recorded readings today's reader does not give, the recorded readings instead; the audit then
replays the turn from them and checks everything else byte for byte (docs/archive.md, "Audit across
a better order reader"). A file changed since, or one rejected then or now, keeps today's reading:
its difference stays a divergence.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from ..common import ordertext, yamlsafe
from ..games.base import Reading
from . import schemas
from .pending import Pending, Verdict
from .pipeline import Submission, as_meant, as_recorded
from .turn import sha256


@dataclass(frozen=True)
class ReadDifferently:
    """One order that today's reader reads otherwise than the turn recorded it."""

    turn: int
    player: str
    """The seat whose file it is."""
    name: str
    """The seat's display name in that turn."""
    order: int
    """Its place in the file's `orders`, counted from 1 as players count."""
    written: str
    """The order as the file says it, in one line (not as the record says it: a file rewritten with its
    whole chain shows here beside the reading the record claims)."""
    then: str
    """How the turn read it (and was adjudicated with)."""
    today: str
    """How today's reader reads it."""

    @property
    def line(self) -> str:
        return (
            f'turn {self.turn}, {self.name}\'s orders, order {self.order} "{self.written}": read then as {self.then}, '
            f"read today as {self.today}. The turn was replayed from the readings it was adjudicated with."
        )

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "player": self.player, "order": self.order, "written": self.written, "then": self.then, "today": self.today}


def read_then(pending: Pending, verdict: Verdict, results: bytes, inputs: dict[str, Any]) -> tuple[Verdict, list[ReadDifferently]]:
    """The verdict to replay a committed turn with, and each order read otherwise than `results`
    (the turn's results.json) records it. `inputs`: the SHA-256 of each input its manifest records.
    With no such order, the verdict itself and []."""
    try:
        recorded = json.loads(results)["submissions"]
    except (ValueError, KeyError, TypeError):
        return verdict, []  # a damaged results.json: the plain difference says so
    if not isinstance(recorded, dict):
        return verdict, []
    taken: dict[str, Submission] = {}
    differences: list[ReadDifferently] = []
    as_read = _plain({player: today.to_json() for player, today in verdict.submissions.items()})  # one pass, not one per seat
    for player, today in verdict.submissions.items():
        record, name = recorded.get(player), verdict.files.get(player)
        if name is None or today.status != "accepted" or as_read[player] == record:
            continue
        as_filed = (verdict.filed or {}).get(name) or sha256(verdict.orders[name])
        if inputs.get(f"orders/{name}") != as_filed or not isinstance(record, dict) or record.get("source") != today.source:
            continue  # changed since the turn, or not this file's record: a divergence, as ever
        try:
            then = as_recorded(pending.game, pending.position, player, record)
        except ValueError:
            continue
        taken[player] = then
        shown = pending.state.get("names", {}).get(player, player)
        written = _as_written(pending, verdict.orders[name])
        differences += [
            ReadDifferently(pending.number, player, shown, index + 1, written[index] if index < len(written) else words, said_then, said_today)
            for index, words, said_then, said_today in _orders_read_otherwise(then.readings, today.readings)
        ]
    if not taken:
        return verdict, []
    return replace(verdict, submissions={**verdict.submissions, **taken}), differences


def _as_written(pending: Pending, data: bytes) -> list[str]:
    """Each order of an accepted file in one line as its player wrote it (one order may give several
    readings, each with its own words); [] should the file not read."""
    try:
        document = as_meant(ordertext.load(data), pending.position)
        return [schemas.echo(item) for item in document["orders"]]
    except (yamlsafe.YamlError, ValueError, KeyError, TypeError):
        return []


def _orders_read_otherwise(then: list[Reading], today: list[Reading]) -> list[tuple[int, str, str, str]]:
    """(index, words, then, today) for each order of the file read otherwise; an order may give
    several readings (Sid's Secrets' comma form), said together. Where the words say the same
    (only the canonical order moved), the canonical orders are said."""
    found = []
    for index in sorted({r.index for r in then} | {r.index for r in today}):
        was, now = [r for r in then if r.index == index], [r for r in today if r.index == index]
        if [_as_json(r) for r in was] == [_as_json(r) for r in now]:
            continue
        said_then, said_today = _said(was, False), _said(now, False)
        if said_then == said_today:
            said_then, said_today = _said(was, True), _said(now, True)
        found.append((index, (now or was)[0].written, said_then, said_today))
    return found


def _as_json(reading: Reading) -> list[Any]:
    """A reading without its words: those are the unchanged file's own, echoed (once cut at 100 characters, now
    whole), so an order whose echo alone differs is not read otherwise, and its turn replays from the record."""
    return _plain([reading.order, reading.meaning, reading.void])


def _plain(value: Any) -> Any:
    """A value as results.json holds it (tuples as lists), to compare with what it records."""
    return json.loads(json.dumps(value))


def _said(readings: list[Reading], canonical: bool) -> str:
    """Readings in words: the meaning of each that stands, `void (why)` for each that does not."""
    if not readings:
        return "no order"
    words = []
    for r in readings:
        if r.void is not None:
            words.append(f"void ({r.void})")
        else:
            words.append(json.dumps(r.order, sort_keys=True) if canonical else r.meaning or json.dumps(r.order, sort_keys=True))
    return "; ".join(words)
