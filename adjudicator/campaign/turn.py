"""Everything a turn writes, computed from its inputs alone.

`opening` and `turn` return the turn folder's files as bytes without touching
the disk: `pbem adjudicate` commits them atomically and `pbem audit` compares
them with what is on disk, byte for byte. Nothing here reads a clock, a set's
order or the folder's location.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import heapq
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..common import parallel, yamlsafe
from ..common.rng import Rng, commitment
from ..games.base import Event, Game, Seat, State, visible
from ..publish.bbcode import to_bbcode
from ..publish.render import Renderer
from . import schedule, standins
from .folder import DEADLINE_FILE, Campaign, damaged, dump_json
from .pipeline import Problem, Roster, Submission, check_document, missing, resolve


@dataclass
class TurnOutput:
    turn: int
    files: dict[str, bytes]
    """Relative path in the turn folder -> content; includes manifest.json."""
    state: State
    submissions: dict[str, Submission]
    events: list[Event]
    stray: list[str]
    """Files of the orders folder that were not read, as the GM is told of them."""
    standins: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Seats whose orders this turn the stand-in wrote: seat -> why (campaign/standins.py)."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def load_submission(
    campaign: Campaign, state: State, turn: int, player: str, data: bytes, source: str, roster: Roster | None = None,
    former: dict[str, str] | None = None,
) -> Submission:
    """One order file, read and checked; any failure at all becomes that file's rejection."""
    try:
        document = yamlsafe.load(data)
    except yamlsafe.YamlError as exc:
        return Submission(player, "rejected", source, [Problem("(the whole file)", str(exc))])
    except Exception as exc:  # noqa: BLE001 - one player's bytes must never stop the run
        return Submission(player, "rejected", source, [Problem("(the whole file)", f"could not be read ({type(exc).__name__})")])
    try:
        return check_document(
            campaign.game,
            state,
            document,
            turn=turn,
            expected_player=player,
            password_ok=(lambda p, pw: campaign.password_ok(p, pw, turn)) if campaign.uses_passwords else None,
            source=source,
            roster=roster,
            former=former,
        )
    except Exception as exc:  # noqa: BLE001
        return Submission(player, "rejected", source, [Problem("(the whole file)", f"could not be checked ({type(exc).__name__})")])


def _manifest(turn: int, previous: bytes | None, inputs: dict[str, bytes], outputs: dict[str, bytes]) -> bytes:
    return dump_json(
        {
            "turn": turn,
            "adjudicator": __version__,
            "previous_manifest": sha256(previous) if previous is not None else None,
            "inputs": {name: sha256(data) for name, data in sorted(inputs.items())},
            "outputs": {name: sha256(data) for name, data in sorted(outputs.items())},
        }
    )


SEATS_FILE = "seats.yaml"
"""Written by `pbem replace` into the pending turn: seat id -> {name: new display name}."""


def next_deadline(campaign: Campaign, turn_number: int, over: bool, now: dt.datetime | None = None) -> bytes | None:
    """The recorded deadline of an adjudicated turn, or the schedule's for a turn being adjudicated now
    (at the moment `now`, which a schedule counting `from: adjudication` needs)."""
    folder = campaign.turn_dir(turn_number)
    if campaign.is_adjudicated(turn_number):
        path = folder / DEADLINE_FILE
        return path.read_bytes() if path.is_file() else None
    if over:
        return None
    try:
        if now is None and turn_number > 0 and schedule.counts_from_adjudication(campaign.schedule):
            raise schedule.ScheduleError("schedule.from: adjudication needs the moment of adjudication, and none was given")
        found = schedule.of_campaign(campaign, turn_number + 1, now if turn_number > 0 else None)
    except schedule.ScheduleError as exc:
        raise schedule.ScheduleError(f"{campaign.root / 'campaign.yaml'}: {exc}") from None
    return dump_json(found.to_json()) if found else None


def seat_changes(campaign: Campaign, turn_number: int) -> bytes | None:
    path = campaign.turn_dir(turn_number) / SEATS_FILE
    if turn_number > 0 and path.is_file():
        data = path.read_bytes()
        read_seat_changes(data, path)  # a damaged file is named now, before it is used
        return data
    return None


def read_seat_changes(data: bytes, path: Path | str = SEATS_FILE) -> dict[str, dict[str, Any]]:
    """A turn's seats.yaml (written by `pbem replace`): seat id -> {name: the new player's name}."""
    try:
        changes = yamlsafe.load(data) or {}
    except yamlsafe.YamlError as exc:
        raise damaged(Path(path), f"not valid YAML: {exc}") from None
    if not isinstance(changes, dict) or not all(isinstance(c, dict) and "name" in c for c in changes.values()):
        raise damaged(Path(path), "not a list of seats, each with the name of its new player")
    return changes


def seat_history(campaign: Campaign, setup: dict[str, Any], turn_number: int) -> dict[str, list[dict[str, Any]]]:
    """Who held each seat for which turns, up to this turn, from the seats files of turns 1..N (inputs)."""
    history = {p["id"]: [{"name": p["name"], "from": 1, "to": None}] for p in setup["players"]}
    for number in range(1, turn_number + 1):
        data = seat_changes(campaign, number)
        if data is None:
            continue
        for seat, change in sorted(read_seat_changes(data).items()):
            if seat not in history:
                continue
            current = history[seat][-1]
            if current["from"] == number:  # handed over before playing a turn: leaves no trace
                current["name"] = change["name"]
            else:
                current["to"] = number - 1
                history[seat].append({"name": change["name"], "from": number, "to": None})
    return history


def pending_state(campaign: Campaign) -> State:
    """The state the pending turn starts from: the last turn's, with this turn's replacement names.

    `pbem check`, `status` and `ingest` read orders against it, as the adjudication will,
    so an order naming a replacement player by their new name means the same to all of them.
    """
    last = campaign.last_turn
    state = campaign.state(last)
    return state if campaign.game.is_over(state) else _apply_seat_changes(state, seat_changes(campaign, last + 1))


def _apply_seat_changes(state: State, data: bytes | None) -> State:
    """A replacement player's display name, from this turn on; the game's own data is otherwise untouched."""
    if data is None:
        return state
    names = {**state.get("names", {})}
    for seat, change in read_seat_changes(data).items():
        if seat in names:
            names[seat] = str(change["name"])
    return {**state, "names": names}


class VisibleEvents(Sequence[Event]):
    """The events one reader may see, in order, merged only when a template reads them.

    The public events are one shared list; a player's private events are a few
    indexes into the turn's events. A report that never lists every event (a
    large campaign's private report) costs nothing for them.
    """

    def __init__(self, events: list[Event], public: list[int], private: list[int]) -> None:
        self._events, self._public, self._private = events, public, private
        self._merged: list[Event] | None = None

    def _all(self) -> list[Event]:
        if self._merged is None:
            self._merged = [self._events[i] for i in heapq.merge(self._public, self._private)]
        return self._merged

    def __iter__(self) -> Iterator[Event]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._public) + len(self._private)

    def __getitem__(self, item: Any) -> Any:
        return self._all()[item]


class EventIndex:
    """Who may see each event and whom it is about, worked out once per turn, not once per reader."""

    def __init__(self, events: list[Event]) -> None:
        self._events = events
        self._public = [i for i, e in enumerate(events) if visible(e, None)]
        self._private: dict[str, list[int]] = {}
        self._about: dict[str, list[int]] = {}
        for i, event in enumerate(events):
            if not visible(event, None):
                for player in event["seen_by"]:
                    self._private.setdefault(player, []).append(i)
            for player in event.get("involves", ()):
                self._about.setdefault(player, []).append(i)

    def visible_to(self, player: str | None) -> VisibleEvents:
        own = self._private.get(player, []) if player is not None else []
        return VisibleEvents(self._events, self._public, own)

    def about(self, player: str) -> list[Event]:
        """The events a player may see that the game marked (`involves`) as about them."""
        return [self._events[i] for i in self._about.get(player, ()) if visible(self._events[i], player)]


def render_reports(
    game: Game,
    renderer: Renderer,
    setup: dict[str, Any],
    state: State,
    turn: int,
    events: list[Event],
    submissions: dict[str, Submission],
    previous_state: State | None,
    deadline: bytes | None = None,
    seats: dict[str, list[dict[str, Any]]] | None = None,
    jobs: int = 1,
    standins_played: dict[str, dict[str, Any]] | None = None,
) -> dict[str, bytes]:
    over = game.is_over(state)
    upcoming = json.loads(deadline) if deadline else None
    common = {
        "campaign": {
            "name": setup["name"],
            "game": game.title,
            "game_id": game.id,
            "commitment": setup["seed_commitment"],
            "uses_passwords": setup["passwords"],
        },
        "turn": turn,
        "over": over,
        "winners": game.winners(state),
        "next": {"turn": turn + 1, "phase": game.phase(state), "due": game.due(state), "deadline": upcoming} if not over else None,
        "seats": seats or {p: [{"name": state.get("names", {}).get(p, p), "from": 1, "to": None}] for p in state["players"]},
        "nmr": sorted(p for p, s in submissions.items() if s.nmr),
        "due_this_turn": game.due(previous_state) if previous_state is not None else [],
        # Only templates of games whose rules make an NMR public name these (docs/standins.md).
        "standins": standins_played or {},
    }
    index = EventIndex(events)

    def reports(reader: str | None) -> dict[str, bytes]:
        """The public report (reader None, with its BBCode form) or one player's private report."""
        if reader is None:
            context = {**common, "player": None, "view": game.view(state, None), "events": index.visible_to(None), "my_events": []}
            rendered = renderer.render("public", "public", context)
            if "public.md" in rendered:  # every game gets BBCode for forums; a campaign's public.bbcode.j2 wins
                rendered.setdefault("public.bbcode", to_bbcode(rendered["public.md"].decode("utf-8")).encode("utf-8"))
            return rendered
        context = {
            **common,
            "player": reader,
            "view": game.view(state, reader),
            "events": index.visible_to(reader),
            "my_events": index.about(reader),
            "submission": submissions.get(reader),
        }
        return renderer.render("private", reader, context)

    readers: list[str | None] = [None, *state["players"]]
    # A campaign's own templates render here: when one fails, the GM is told its file and
    # line, which a worker process's traceback would not carry back.
    processes = _processes(jobs, len(readers)) if renderer.campaign_root is None else 1
    files: dict[str, bytes] = {}
    for rendered in parallel.ordered_map(reports, readers, processes):
        for name, data in rendered.items():
            files[f"reports/{name}"] = data
    return files


PARALLEL_FROM = 200
"""Players from which a turn spreads its order files and reports over `--jobs` processes:
below that, starting the processes costs more than they save."""


def _processes(jobs: int, players: int) -> int:
    return jobs if players >= PARALLEL_FROM else 1


def opening(campaign: Campaign, setup: dict[str, Any], seed: str, renderer: Renderer) -> TurnOutput:
    """Turn 0: deal and draw what the game needs, and the opening reports."""
    game = campaign.game
    seats = [Seat(p["id"], p["name"]) for p in setup["players"]]
    state = game.setup(seats, setup["options"], Rng(seed, 0))
    setup_bytes = dump_json(setup)
    outputs = {"state.json": dump_json(state)}
    inputs = {"setup.json": setup_bytes}
    deadline = next_deadline(campaign, 0, game.is_over(state))
    if deadline is not None:
        inputs[DEADLINE_FILE] = deadline
    outputs.update(render_reports(game, renderer, setup, state, 0, [], {}, None, deadline))
    files = {**inputs, **outputs}
    files["manifest.json"] = _manifest(0, None, inputs, outputs)
    return TurnOutput(0, files, state, {}, [], [])


def turn(
    campaign: Campaign,
    turn_number: int,
    state: State,
    order_bytes: dict[str, bytes],
    previous_manifest: bytes,
    seed: str,
    renderer: Renderer,
    jobs: int = 1,
    skipped: Sequence[str] = (),
    checked: dict[str, Submission] | None = None,
    now: dt.datetime | None = None,
) -> TurnOutput:
    """Check every file, add NMR defaults, resolve, render: the whole turn as bytes.

    `order_bytes` maps each regular file in the orders folder to its content, `skipped`
    names the other entries there (symlinks, FIFOs, folders: never read, but recorded
    as ignored so that one added later is a divergence); `jobs` processes share the
    order files and the reports of a large campaign. `checked` is what `check_files`
    made of these same files, when the caller has already asked.

    `now` is the moment of adjudication; only a schedule counting `from: adjudication` reads it,
    and the deadline it gives is recorded in the turn (deadline.json), so a replay needs none.
    """
    game = campaign.game
    setup = campaign.setup_record()
    rng = Rng(seed, turn_number)
    seats_bytes = seat_changes(campaign, turn_number)
    state = _apply_seat_changes(state, seats_bytes)
    roster = Roster.of(game, state)
    by_player, ignored = sort_order_files(order_bytes, roster)
    ignored.update(dict.fromkeys(skipped, "not a regular file; ignored"))
    submissions = checked if checked is not None else check_files(campaign, state, turn_number, order_bytes, by_player, roster, jobs)
    stray = sorted(ignored)
    new_state, events, used = resolve(game, state, submissions, rng)
    standins_bytes, record = standins.read_record(campaign.turn_dir(turn_number))
    played = standins.played(record, {p: order_bytes[name] for p, name in by_player.items()})
    results = {
        "turn": turn_number,
        "phase": game.phase(state),
        "submissions": {p: s.to_json() for p, s in submissions.items()},
        "orders_resolved": used,
        "events": events,
        "stray_files": stray,
        **({"standins": played} if played else {}),
    }
    outputs = {"results.json": dump_json(results), "state.json": dump_json(new_state)}
    deadline = next_deadline(campaign, turn_number, game.is_over(new_state), now)
    history = seat_history(campaign, setup, turn_number)
    outputs.update(render_reports(game, renderer, setup, new_state, turn_number, events, submissions, state, deadline, history, jobs, played))
    inputs = {f"orders/{name}": data for name, data in order_bytes.items()}
    if deadline is not None:
        inputs[DEADLINE_FILE] = deadline
    if seats_bytes is not None:
        inputs[SEATS_FILE] = seats_bytes
    if standins_bytes is not None:
        inputs[standins.RECORD_FILE] = standins_bytes
    # The turn folder holds the very bytes it read, orders and seats included: a file changed
    # on disk meanwhile is not what this turn committed (campaign/adjudicate.py checks for it).
    files = {**inputs, **outputs, "manifest.json": _manifest(turn_number, previous_manifest, inputs, outputs)}
    return TurnOutput(turn_number, files, new_state, submissions, events, [f"{name} ({ignored[name]})" for name in stray], played)


def sort_order_files(names: Iterable[str], roster: Roster) -> tuple[dict[str, str], dict[str, str]]:
    """Whose file each name of the orders folder is: player -> file name, and every other
    file -> why it is not read, with the name that would be (`pbem status` shows them before
    the turn, `adjudicate` after it). A file from a player with nothing to order is not read."""
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


ORDER_SUFFIXES = ("yaml", "yml")


def check_files(
    campaign: Campaign, state: State, turn: int, order_bytes: dict[str, bytes], by_player: dict[str, str], roster: Roster, jobs: int = 1
) -> dict[str, Submission]:
    """Each due player's file of the pending turn, checked (missing when there is none)."""
    due = campaign.game.due(state)
    former = former_names(campaign, turn)

    def submission(player: str) -> Submission:
        if player not in by_player:
            return missing(player)
        name = by_player[player]
        return load_submission(campaign, state, turn, player, order_bytes[name], f"orders/{name}", roster, former)

    return dict(zip(due, parallel.ordered_map(submission, due, _processes(jobs, len(due)))))


def former_names(campaign: Campaign, turn: int) -> dict[str, str]:
    """The display names of players who handed a seat over by `turn` -> the seat (from the seats
    files, inputs of their turns), so that an order naming one is told whose the seat is now."""
    if not any(seat_changes(campaign, number) for number in range(1, turn + 1)):
        return {}
    history = seat_history(campaign, campaign.setup_record(), turn)
    return {holder["name"]: seat for seat, holders in sorted(history.items()) for holder in holders[:-1]}


def check_pending(campaign: Campaign, state: State, turn: int, order_bytes: dict[str, bytes], jobs: int = 1) -> dict[str, Submission]:
    """Each due player's file of the pending turn checked against `state`, the last turn's, as the
    adjudication will check it (with this turn's replacement names): `status`, `mail --remind` and
    `adjudicate`'s refusal all count a player as sent only for an accepted file."""
    state = _apply_seat_changes(state, seat_changes(campaign, turn))
    roster = Roster.of(campaign.game, state)
    return check_files(campaign, state, turn, order_bytes, sort_order_files(order_bytes, roster)[0], roster, jobs)


def new_setup(name: str, game: Game, players: list[dict[str, Any]], options: dict[str, Any], seed: str, passwords: bool) -> dict[str, Any]:
    """The record of what pbem new fixed; it is turn 0's input and never changes."""
    return {
        "name": name,
        "game": game.id,
        "players": [{"id": p["id"], "name": p["name"]} for p in players],
        "options": options,
        "seed_commitment": commitment(seed),
        "passwords": passwords,
    }

