"""The pending turn: read once, checked once, and the one answer every part reports (style 9).

    read(campaign)     -> Pending   everything the pending turn depends on, taken from the disk once:
                                    the order files as the bytes read, the seats files and who held each
                                    seat, the stand-in record and the seats the stand-in plays, the setup
    check(pending)     -> Verdict   each due seat's submission with its readings (void orders with what
                                    replaces them), who the turn waits for, the seats the stand-in plays,
                                    the files it will not read and why

`pbem status`, the judge's decisions (early, reminders), the acknowledgements, the mail commands'
answers, `pbem check` and the reports are reporters of that Verdict: none of them works out on
its own who is missing or how a file reads. `pbem adjudicate` adds the stand-ins' orders to it in
memory (campaign/standins.py) and `turn.turn` resolves and renders it; `pbem audit` reads a
committed turn folder the same way (`replay`) and checks it with the same `check`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from ..common import ordertext, parallel, yamlsafe
from ..games.base import Game, State
from . import absences, schedule, standins
from .folder import Campaign, damaged
from .pipeline import Position, Problem, Roster, Submission, check_position, missing

SEATS_FILE = "seats.yaml"
"""Written by `pbem replace` into the pending turn: seat id -> {name: new display name}, with `vacant: true`
when a resignation left the seat to nobody (the stand-in plays it; its name stays the player's)."""

ORDER_SUFFIXES = ("yaml", "yml")

PARALLEL_FROM = 200
"""Players from which a turn spreads its order files and reports over `--jobs` processes:
below that, starting the processes costs more than they save."""


def processes(jobs: int, players: int) -> int:
    return jobs if players >= PARALLEL_FROM else 1


# -- what a turn folder holds -----------------------------------------------------------------


def read_orders_folder(folder: Path) -> tuple[dict[str, bytes], list[str]]:
    """Every regular file of the orders folder, by name; symlinks and folders are skipped and named.

    A file is read only up to one byte past the size limit: a larger one is
    rejected whatever follows, and a huge file must not fill the memory. The
    manifest hashes the bytes read.
    """
    found: dict[str, bytes] = {}
    skipped: list[str] = []
    if not folder.is_dir():
        return found, skipped
    for path in sorted(folder.iterdir()):
        if path.name.startswith("."):
            continue
        if path.is_symlink() or not path.is_file():
            skipped.append(path.name)
            continue
        with open(path, "rb") as handle:
            found[path.name] = handle.read(yamlsafe.MAX_BYTES + 1)
    return found, skipped


def _read_optional(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() else None


@dataclass(frozen=True)
class TurnFolder:
    """What a turn folder holds when it is read: the turn commits exactly these bytes, and
    `changes` tells what differs in the folder later."""

    entries: frozenset[str]
    """The names in the turn folder itself (dot-named run-time files aside)."""
    orders: dict[str, bytes]
    skipped: tuple[str, ...]
    """Entries of orders/ that are not regular files: never read, recorded as ignored."""
    seats: bytes | None
    """seats.yaml (pbem replace), as read."""
    standins: bytes | None
    """standins.yaml: in a committed turn, the seats the stand-in played. A pending folder holds one
    only when an earlier version of pbem wrote the stand-ins' files there (it now keeps them in memory)."""

    @classmethod
    def read(cls, folder: Path) -> TurnFolder:
        entries = frozenset(e.name for e in folder.iterdir() if not e.name.startswith(".")) if folder.is_dir() else frozenset()
        orders, skipped = read_orders_folder(folder / "orders")
        seats = _read_optional(folder / SEATS_FILE)
        if seats is not None:
            read_seat_changes(seats, folder / SEATS_FILE)  # a damaged file is named now, before it is used
        record = _read_optional(folder / standins.RECORD_FILE)
        standins.parse_record(record, folder / standins.RECORD_FILE)  # named now too
        return cls(entries, orders, tuple(skipped), seats, record)

    def not_of_a_turn(self) -> list[str]:
        """Entries no pending turn folder holds: the adjudication would carry them into the committed turn."""
        return sorted(self.entries - {"orders", SEATS_FILE, standins.RECORD_FILE})

    def changes(self, later: TurnFolder) -> list[str]:
        """The paths (relative to the turn folder) that differ in `later`: arrived, changed or gone."""
        changed = {f"orders/{n}" for n in self.orders.keys() | later.orders.keys() if self.orders.get(n) != later.orders.get(n)}
        changed |= {f"orders/{n}" for n in set(self.skipped) ^ set(later.skipped)}
        changed |= set(self.entries ^ later.entries)
        if self.seats != later.seats:
            changed.add(SEATS_FILE)
        if self.standins != later.standins:
            changed.add(standins.RECORD_FILE)
        return sorted(changed)


# -- seats handed over (pbem replace) -----------------------------------------------------------


def read_seat_changes(data: bytes, path: Path | str = SEATS_FILE) -> dict[str, dict[str, Any]]:
    """A turn's seats.yaml (written by `pbem replace`): seat id -> {name: the new player's name}."""
    try:
        changes = yamlsafe.load(data) or {}
    except yamlsafe.YamlError as exc:
        raise damaged(Path(path), f"not valid YAML: {exc}") from None
    if not isinstance(changes, dict) or not all(isinstance(c, dict) and "name" in c for c in changes.values()):
        raise damaged(Path(path), "not a list of seats, each with the name of its new player")
    return changes


def seat_changes(campaign: Campaign, turn_number: int) -> bytes | None:
    """Turn N's seats.yaml as bytes (None when the seat holders did not change that turn)."""
    path = campaign.turn_dir(turn_number) / SEATS_FILE
    if turn_number > 0 and path.is_file():
        data = path.read_bytes()
        read_seat_changes(data, path)
        return data
    return None


def seat_history(setup: dict[str, Any], changes: Iterable[tuple[int, bytes | None]]) -> dict[str, list[dict[str, Any]]]:
    """Who held each seat for which turns, from the setup and each turn's seats file (inputs of their turns)."""
    history = {p["id"]: [{"name": p["name"], "from": 1, "to": None}] for p in setup["players"]}
    for number, data in changes:
        if data is None:
            continue
        for seat, change in sorted(read_seat_changes(data).items()):
            if seat not in history:
                continue
            current = history[seat][-1]
            # A seat left vacant (a resignation: `vacant: true`) is the stand-in's until a takeover.
            holder = {"name": change["name"], **({"vacant": True} if change.get("vacant") else {})}
            if current["from"] == number:  # handed over before playing a turn: leaves no trace
                current.pop("vacant", None)
                current.update(holder)
            else:
                current["to"] = number - 1
                history[seat].append({**holder, "from": number, "to": None})
    return history


def with_seat_names(state: State, data: bytes | None) -> State:
    """A replacement player's display name, from this turn on; the game's own data is otherwise untouched."""
    if data is None:
        return state
    names = {**state.get("names", {})}
    for seat, change in read_seat_changes(data).items():
        if seat in names:
            names[seat] = str(change["name"])
    return {**state, "names": names}


def pending_state(campaign: Campaign) -> State:
    """The state the pending turn starts from, with this turn's replacement names: what a part that
    needs only names and the phase reads, without the order files."""
    last = campaign.last_turn
    state = campaign.state(last)
    return state if campaign.game.is_over(state) else with_seat_names(state, seat_changes(campaign, last + 1))


# -- the pending turn --------------------------------------------------------------------------


@dataclass(frozen=True)
class Pending:
    """Everything one turn depends on, read once: from the pending folder (`read`) or, for the
    audit, from a committed turn folder (`replay`). Nothing reads the disk after this."""

    campaign: Campaign
    number: int
    """The turn: the pending one, or the committed one being replayed."""
    before: State
    """The state the turn starts from, as the turn before committed it."""
    folder: TurnFolder
    setup: dict[str, Any]
    history: dict[str, list[dict[str, Any]]]
    """Who held each seat for which turns, up to this one (pbem replace)."""
    previous_manifest: bytes | None
    """The manifest of the turn before, which this turn's manifest chains to."""
    covered: dict[str, standins.Due] = field(default_factory=dict)
    """The due seats the stand-in plays unless their players send a file (none in a replay: its record says)."""

    @property
    def game(self) -> Game:
        return self.campaign.game

    @property
    def over(self) -> bool:
        return self.game.is_over(self.before)

    @cached_property
    def state(self) -> State:
        """The starting state with this turn's replacement names: orders are read against it."""
        return self.before if self.over else with_seat_names(self.before, self.folder.seats)

    @cached_property
    def roster(self) -> Roster:
        return Roster.of(self.game, self.state)

    @cached_property
    def former(self) -> dict[str, str]:
        """The display names of players who handed a seat over by this turn -> the seat, so that an
        order naming one is told whose the seat is now."""
        return {holder["name"]: seat for seat, holders in sorted(self.history.items()) for holder in holders[:-1]}

    @cached_property
    def position(self) -> Position:
        return Position.of(self.game, self.state, self.roster, self.former)

    @cached_property
    def absences(self) -> list[absences.Absence]:
        """The absences granted (gm/absences.yaml)."""
        return absences.granted(self.campaign.root)

    def absences_not_over(self, now: dt.datetime | None) -> list[absences.Absence]:
        """The absences granted that have not ended by `now` (all of them when the moment is unknown): an
        absence ends at midnight after its last day in the campaign's zone, wherever the GM runs the judge."""
        if now is None:
            return self.absences
        zone = schedule.local_zone(self.campaign.schedule)[1]
        return [a for a in self.absences if absences.bounds(a, zone)[1] > now]

    def deadline(self, now: dt.datetime | None = None) -> schedule.Deadline | None:
        """This turn's deadline from the campaign's schedule (None without one); ScheduleError when it cannot be read."""
        return schedule.of_campaign(self.campaign, self.number, now)

    def due(self, player: str) -> bool:
        return player in self.roster.due

    @cached_property
    def due_seats(self) -> list[str]:
        """The seats due this turn, in seat order (none once the game is over): the list every reporter names."""
        return [] if self.over else self.game.due(self.state)

    def plays(self, seat: str) -> bool:
        """Whether the stand-in writes this due seat's orders: it covers the seat, which has no file of its own."""
        return seat in self.covered and seat not in self.sorted_files[0]

    @cached_property
    def sorted_files(self) -> tuple[dict[str, str], dict[str, str]]:
        """Due seat -> its order file's name, and every other entry of orders/ -> why it is not read."""
        by_player, ignored = sort_order_files(self.folder.orders, self.roster)
        ignored.update(dict.fromkeys(self.folder.skipped, "not a regular file; ignored"))
        return by_player, ignored

    def submission(self, player: str) -> Submission:
        """One due seat's file as `check` reads it (`missing` when it has none): what a mail command
        answers for that seat alone, without checking every other seat's file."""
        name = self.sorted_files[0].get(player)
        return missing(player) if name is None else self.check_file(player, self.folder.orders[name], f"orders/{name}")

    def with_order_file(self, name: str, data: bytes) -> Pending:
        """The pending turn once the file orders/`name` holds `data` (ingest files one message at a time)."""
        return replace(self, folder=replace(self.folder, orders={**self.folder.orders, name: data}))

    def check_document(self, document: Any, *, player: str | None, source: str) -> Submission:
        """A parsed order file, checked as the adjudication will check it: its envelope (the password
        included) against this turn, its orders against the player's own view."""
        campaign, number = self.campaign, self.number
        password_ok = (lambda p, pw: campaign.password_ok(p, pw, number)) if campaign.uses_passwords else None
        return check_position(self.game, self.position, document, turn=number, expected_player=player, password_ok=password_ok, source=source)

    def check_file(self, player: str | None, data: bytes, source: str) -> Submission:
        """One order file's bytes, read and checked; any failure at all becomes that file's rejection."""
        recorded = self.campaign.recorded_rejection(self.number, source)
        if recorded is not None:  # an export: the file was refused while it still held its password
            return Submission(recorded[0], "rejected", source, [Problem(where, what) for where, what in recorded[1]])
        try:
            document = ordertext.load(data)
        except yamlsafe.YamlError as exc:
            return Submission(player or "?", "rejected", source, [Problem("(the whole file)", str(exc))])
        except Exception as exc:  # noqa: BLE001 - one player's bytes must never stop the run
            return Submission(player or "?", "rejected", source, [Problem("(the whole file)", f"could not be read ({type(exc).__name__})")])
        try:
            return self.check_document(document, player=player, source=source)
        except Exception as exc:  # noqa: BLE001
            return Submission(player or "?", "rejected", source, [Problem("(the whole file)", f"could not be checked ({type(exc).__name__})")])


class OnPending:
    """For a value that holds the pending turn as `turn` (a mail command's desk, an ingest slice):
    the campaign, the turn's number, its state and whether the game is over, named once."""

    turn: Pending

    @property
    def campaign(self) -> Campaign:
        return self.turn.campaign

    @property
    def pending(self) -> int:
        return self.turn.number

    @property
    def state(self) -> State:
        return self.turn.state

    @property
    def over(self) -> bool:
        return self.turn.over


def read(campaign: Campaign) -> Pending:
    """The pending turn of a campaign, read once (a campaign that is over gives its last state and no files)."""
    last = campaign.last_turn
    before = campaign.state(last)
    number = last + 1
    if campaign.game.is_over(before):
        return Pending(campaign, number, before, TurnFolder(frozenset(), {}, (), None, None), campaign.setup_record(), {}, None)
    return replay(campaign, number, before, campaign.setup_record(), standins.due(campaign, last, before))


def replay(campaign: Campaign, number: int, before: State, setup: dict[str, Any], covered: dict[str, standins.Due] | None = None) -> Pending:
    """Turn `number` read from its folder: the pending turn (`read`), or a committed turn as it was when it
    was adjudicated (its own folder holds its inputs, the stand-ins' files and record included)."""
    folder = TurnFolder.read(campaign.turn_dir(number))
    history = seat_history(setup, [*((n, seat_changes(campaign, n)) for n in range(1, number)), (number, folder.seats)])
    previous = (campaign.turn_dir(number - 1) / "manifest.json").read_bytes()
    return Pending(campaign, number, before, folder, setup, history, previous, covered or {})


# -- the one answer ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """What the pending turn holds, checked: the one answer every part reports."""

    submissions: dict[str, Submission]
    """Every due seat, in seat order: its file as checked, or `missing`."""
    files: dict[str, str]
    """Due seat -> the name of its order file in orders/."""
    ignored: dict[str, str]
    """Every other entry of orders/ -> why it is not read."""
    standins: dict[str, standins.Due]
    """The due seats without a file of their own that the stand-in plays."""
    covered: dict[str, standins.Due]
    """Every due seat the stand-in covers, with why: the turn never waits for one, even with a rejected file of its own."""
    orders: dict[str, bytes]
    """The order files the turn reads and commits, by name (the stand-ins' included once they have played)."""
    record: bytes | None = None
    """The turn's standins.yaml, when the stand-in wrote any of its files."""
    filed: dict[str, str] | None = None
    """Order file name -> the SHA-256 of the file as filed, where it is not the hash of the bytes read
    (an export, whose files lost their passwords: campaign/exported.py)."""

    @property
    def waiting(self) -> list[str]:
        """The due seats without an accepted file (a rejected file counts as none), the stand-in's aside:
        the turn waits for them, and they are NMR if it is adjudicated at the deadline."""
        return [p for p, sub in self.submissions.items() if sub.nmr and p not in self.covered]

    @property
    def back(self) -> dict[str, standins.Due]:
        """The seats the stand-in covers whose player sent accepted orders of their own: those play this turn.
        An abandoned seat is then abandoned no more; the GM's stand-in stays on for any later turn without orders."""
        return {p: d for p, d in self.covered.items() if p in self.files and not self.submissions[p].nmr}

    @property
    def stray(self) -> list[str]:
        """The entries of orders/ that are not read, each with why, as the GM is told of them."""
        return [f"{name} ({why})" for name, why in sorted(self.ignored.items())]

    def to_json(self) -> dict[str, Any]:
        """The verdict for scripts (`pbem status --json`, docs/json-output.md)."""
        return {
            "waiting": self.waiting,
            "standins": sorted(self.standins),
            "covered": {seat: self._cover_json(seat) for seat in sorted(self.covered)},
            "submissions": {
                p: {
                    "status": sub.status,
                    "source": sub.source,
                    "orders": len(sub.readings),
                    "void": len(sub.void),
                    "problems": [{"where": x.where, "what": x.what} for x in sub.problems],
                }
                for p, sub in self.submissions.items()
            },
            "ignored": dict(sorted(self.ignored.items())),
        }

    def _cover_json(self, seat: str) -> dict[str, Any]:
        """Why the stand-in covers `seat`, for scripts: the record's reason with the words `pbem status` prints."""
        due = self.covered[seat]
        when = {"after": due.after} if due.after is not None else {"since": due.since} if due.since is not None else {}
        return {"reason": due.reason, "why": due.why, "plays": seat in self.standins, **when}

    def played(self) -> dict[str, dict[str, Any]]:
        """The seats whose file this turn is the very one the stand-in wrote: seat -> {reason, after}."""
        if self.record is None:
            return {}
        _, record = standins.parse_record(self.record)
        filed = self.filed or {}
        return standins.played(record, {p: filed.get(name) or standins.digest(self.orders[name]) for p, name in self.files.items()})

    def with_file(self, player: str, name: str, data: bytes, submission: Submission) -> Verdict:
        """The verdict once `player`'s file `name` holds `data` (ingest files orders one message at a time)."""
        return replace(
            self,
            submissions={**self.submissions, player: submission},
            files={**self.files, player: name},
            orders={**self.orders, name: data},
            standins={p: d for p, d in self.standins.items() if p != player},
        )


def standing(submission: Submission, played: bool) -> str:
    """One due seat in one word, as every reporter says it (`pbem status`, the mail's `status`):
    `stand-in` (`played`: the stand-in writes its orders), `missing`, `rejected` (a file the turn will
    not read: it waits as for none), or `valid`."""
    if played:
        return "stand-in"
    if submission.status == "missing":
        return "missing"
    return "rejected" if submission.nmr else "valid"


def sort_order_files(names: Iterable[str], roster: Roster) -> tuple[dict[str, str], dict[str, str]]:
    """Whose file each name of the orders folder is: player -> file name, and every other
    file -> why it is not read, with the name that would be. A file from a player with
    nothing to order is not read."""
    by_player: dict[str, str] = {}
    ignored: dict[str, str] = {}
    lowered = {player.casefold(): player for player in roster.players}
    for name in sorted(names):
        stem, dot, ext = name.rpartition(".")
        if not dot:
            stem, ext = name, ""
        if ext in ORDER_SUFFIXES and stem in roster.players:
            if stem in by_player:
                ignored[name] = f"{by_player[stem]} is read instead: one file per player"
            elif stem not in roster.due:
                ignored[name] = f"{stem} has nothing to order this turn"
            else:
                by_player[stem] = name
            continue
        meant = lowered.get(stem.casefold())
        if meant is not None and ext.casefold() in (*ORDER_SUFFIXES, "txt", "yaml.txt"):
            ignored[name] = f"the order file of {meant} is named {meant}.yaml"
        elif ext in ORDER_SUFFIXES:
            ignored[name] = f"no player is called {stem}: an order file is named after its player's id, e.g. {min(roster.players)}.yaml"
        else:
            ignored[name] = "not an order file: order files are named <player>.yaml"
    return by_player, ignored


def check(pending: Pending, jobs: int = 1) -> Verdict:
    """Each due seat's file checked, as the adjudication will check it; the seats the stand-in plays."""
    folder = pending.folder
    if pending.over:
        return Verdict({}, {}, {}, {}, {}, {})
    by_player, ignored = pending.sorted_files
    due = pending.due_seats
    submissions = dict(zip(due, parallel.ordered_map(pending.submission, due, processes(jobs, len(due)))))
    played_by_standin = {p: d for p, d in pending.covered.items() if pending.plays(p)}
    filed = {name: found for name, data in folder.orders.items() if (found := pending.campaign.as_filed(pending.number, name, data)) is not None}
    return Verdict(submissions, dict(by_player), dict(ignored), played_by_standin, dict(pending.covered), dict(folder.orders), folder.standins, filed or None)
