"""Everything a turn writes, computed from its inputs alone.

`opening` and `turn` return the turn folder's files as bytes: `pbem adjudicate`
commits them atomically and `pbem audit` compares them with what is on disk, byte
for byte. `turn` takes the pending turn as read and checked once (campaign/pending.py);
the one file it may still read is the next deadline an adjudicated turn recorded.
Nothing here reads a clock, a set's order or the folder's location.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import heapq
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import __version__
from ..common import parallel
from ..common.rng import Rng, commitment
from ..games.base import Event, Game, Seat, State, visible
from ..publish.bbcode import to_bbcode
from ..publish.render import Renderer
from . import schedule, standins
from .folder import ADJUDICATED_FILE, DEADLINE_FILE, Campaign, dump_json
from .pending import SEATS_FILE, Pending, Verdict
from .pending import processes as processes_for
from .pipeline import Submission, resolve


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


def _manifest(turn: int, previous: bytes | None, inputs: dict[str, bytes], outputs: dict[str, bytes], templates: str) -> bytes:
    """`templates`: the digest of the template set that rendered the reports (Renderer.digest), which
    tells `pbem audit` whether today's templates can replay them (campaign/audit.py)."""
    return dump_json(
        {
            "turn": turn,
            "adjudicator": __version__,
            "templates": templates,
            "previous_manifest": sha256(previous) if previous is not None else None,
            "inputs": {name: sha256(data) for name, data in sorted(inputs.items())},
            "outputs": {name: sha256(data) for name, data in sorted(outputs.items())},
        }
    )


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


def moment_record(campaign: Campaign, turn_number: int, at: dt.datetime | None) -> bytes | None:
    """ADJUDICATED_FILE: as the adjudicated turn recorded it, or the moment `at` for a turn being
    adjudicated (None without one). Only mail and the GM's commands read it; no report does."""
    if campaign.is_adjudicated(turn_number):
        path = campaign.turn_dir(turn_number) / ADJUDICATED_FILE
        return path.read_bytes() if path.is_file() else None
    return dump_json({"at": at.astimezone(dt.UTC).isoformat()}) if at is not None else None


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
    processes = processes_for(jobs, len(readers)) if renderer.campaign_root is None else 1
    files: dict[str, bytes] = {}
    for rendered in parallel.ordered_map(reports, readers, processes):
        for name, data in rendered.items():
            files[f"reports/{name}"] = data
    return files


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
    files["manifest.json"] = _manifest(0, None, inputs, outputs, renderer.digest)
    return TurnOutput(0, files, state, {}, [], [])


def turn(
    pending: Pending, verdict: Verdict, seed: str, renderer: Renderer, jobs: int = 1, now: dt.datetime | None = None, at: dt.datetime | None = None
) -> TurnOutput:
    """Add NMR defaults, resolve and render the checked pending turn: the whole turn as bytes.

    `verdict` is `pending.check`'s answer, with the stand-ins' files once they have played; `jobs`
    processes share the reports of a large campaign. `now` is the moment of adjudication; only a
    schedule counting `from: adjudication` reads it, and the deadline it gives is recorded in the
    turn (deadline.json), so a replay needs none. `at`, when given, is recorded as the turn's own
    moment (adjudicated.json); no output depends on it.
    """
    campaign, game, number, state = pending.campaign, pending.game, pending.number, pending.state
    rng = Rng(seed, number)
    submissions = verdict.submissions
    new_state, events, used = resolve(game, state, submissions, rng)
    played = verdict.played()
    results = {
        "turn": number,
        "phase": game.phase(state),
        "submissions": {p: s.to_json() for p, s in submissions.items()},
        "orders_resolved": used,
        "events": events,
        "stray_files": sorted(verdict.ignored),
        **({"standins": played} if played else {}),
    }
    outputs = {"results.json": dump_json(results), "state.json": dump_json(new_state)}
    deadline = next_deadline(campaign, number, game.is_over(new_state), now)
    outputs.update(render_reports(game, renderer, pending.setup, new_state, number, events, submissions, state, deadline, pending.history, jobs, played))
    inputs = {f"orders/{name}": data for name, data in verdict.orders.items()}
    if deadline is not None:
        inputs[DEADLINE_FILE] = deadline
    moment = moment_record(campaign, number, at)
    if moment is not None:
        inputs[ADJUDICATED_FILE] = moment
    if pending.folder.seats is not None:
        inputs[SEATS_FILE] = pending.folder.seats
    if verdict.record is not None:
        inputs[standins.RECORD_FILE] = verdict.record
    # The turn folder holds the very bytes it read, orders and seats included: a file changed
    # on disk meanwhile is not what this turn committed (campaign/adjudicate.py checks for it).
    files = {**inputs, **outputs, "manifest.json": _manifest(number, pending.previous_manifest, inputs, outputs, renderer.digest)}
    return TurnOutput(number, files, new_state, submissions, events, verdict.stray, played)


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

