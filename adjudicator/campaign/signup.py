"""Sign-up: a campaign open for players, and the start that deals it (design 16).

An open campaign is a campaign.yaml with a `signup:` section and no opening yet:

    signup:
      seats: 5                      # N, from `pbem new --open N`
      waiting:                      # beyond N, in order of arrival (id, name, email)
      - {id: bob, name: Bob, email: bob@example.org}
      observers: [carol@example.org]
      started: "2026-12-01T20:00:00+00:00"   # written by the start, before the opening
    players: [...]                  # the seats taken so far, as pbem new writes them

Everything else is the campaign pbem new writes (seed committed in gm/seed.yaml, passwords
hashed in players and kept in gm/passwords.yaml): a seat taken by `join` is a seat like any
other, so every command that reads seats reads it. What is missing is turn-000: every command
that needs a turn says the campaign is signing up (folder.Campaign.last_turn).

Each change is written to campaign.yaml atomically before anyone is told of it, keeping every
other byte of the GM's file; a join repeated (a kill before its message was recorded) finds
the address already seated and seats nobody twice. The start writes campaign.yaml (passwords
already there, `started:`, a `schedule: start:` given as a duration made a time), then the
opening folder swapped into place: a kill in between is finished by the next start.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..common import atomic
from ..common.address import address_problem
from ..common.rng import commitment
from ..common.spelling import plain_ascii
from ..publish.render import Renderer
from . import auth
from .folder import (
    PLAYER_ID,
    RESERVED_NAMES,
    Campaign,
    CampaignError,
    display_name,
    dump_yaml,
    read_yaml,
    read_yaml_object,
    rewrite_config,
    turn_name,
)
from .schedule import ScheduleError, duration
from .turn import new_setup, opening

KEY = "signup"


class SignupError(CampaignError):
    """A sign-up request refused; the message says why, in words for the player."""


def is_open(campaign: Campaign) -> bool:
    """Whether the campaign is signing up: a `signup:` section and no opening dealt yet."""
    return KEY in campaign.config and not campaign.is_adjudicated(0)


@dataclass(frozen=True)
class Signup:
    """The sign-up section read once, with the seats taken."""

    seats: int
    players: list[dict[str, Any]]
    waiting: list[dict[str, Any]]
    observers: list[str]
    started: str | None

    @property
    def full(self) -> bool:
        return len(self.players) >= self.seats


def read(campaign: Campaign) -> Signup:
    section = campaign.config.get(KEY)
    where = f"{campaign.root / 'campaign.yaml'}: signup:"
    if not isinstance(section, dict):
        raise CampaignError(f"{where} must be a mapping (seats:, waiting:, observers:)")
    seats = section.get("seats")
    if not isinstance(seats, int) or isinstance(seats, bool) or seats < 1:
        raise CampaignError(f"{where} seats: '{seats}' is not a number of seats")
    waiting = section.get("waiting") or []
    observers = section.get("observers") or []
    if not isinstance(waiting, list) or not all(isinstance(w, dict) and "id" in w for w in waiting):
        raise CampaignError(f"{where} waiting: must be a list of entries (id, name, email)")
    if not isinstance(observers, list):
        raise CampaignError(f"{where} observers: must be a list of addresses")
    started = section.get("started")
    return Signup(seats, campaign.players, list(waiting), [str(o) for o in observers], str(started) if started else None)


def capacity(campaign: Campaign) -> tuple[int, int]:
    """(fewest, most) players the game takes with the campaign's options."""
    game = campaign.game
    return game.min_players, int((campaign.config.get("options") or {}).get("max_players", game.max_players))


# -- addresses and seat ids ----------------------------------------------------------


def bare(address: str) -> str:
    return email.utils.parseaddr(address)[1].strip().lower()


def local_part(address: str) -> str:
    """`Jean.Dupont+pbem@example.org` -> `Jean.Dupont` (the +tag is the player's filing, not their name)."""
    return bare(address).partition("@")[0].partition("+")[0]


def _taken_ids(campaign: Campaign, signup: Signup) -> set[str]:
    ids = {str(p["id"]) for p in signup.players} | {str(w["id"]) for w in signup.waiting}
    for entry in signup.players:
        ids |= {str(h.get("id", "")) for h in entry.get("history") or []}
    return ids


def seat_id(wanted: str, taken: set[str]) -> str:
    """A valid player id made from a name or an address's local part, unique among `taken`:
    accents dropped and letters such as ł, ø, ß, æ written in ASCII (l, o, ss, ae), anything but
    letters and digits made `-`, a leading letter ensured, 40 characters at most, never a reserved
    word; `-2`, `-3`... when taken."""
    text = plain_ascii(wanted)
    slug = "".join(c if c.isalnum() else "-" for c in text)
    slug = "-".join(part for part in slug.split("-") if part)
    if not slug or not slug[0].isalpha():
        slug = "p-" + slug if slug else "player"
    slug = slug[:36].rstrip("-")
    if slug in RESERVED_NAMES:
        slug = f"{slug}-player"
    candidate, number = slug, 1
    while candidate in taken:
        number += 1
        candidate = f"{slug}-{number}"
    assert PLAYER_ID.match(candidate), candidate
    return candidate


def where_is(signup: Signup, address: str) -> tuple[str, str] | None:
    """('seated' or 'waiting', the id) for an address, or None."""
    address = bare(address)
    for entry in signup.players:
        if entry.get("email") and bare(str(entry["email"])) == address:
            return "seated", str(entry["id"])
    for entry in signup.waiting:
        if entry.get("email") and bare(str(entry["email"])) == address:
            return "waiting", str(entry["id"])
    return None


# -- changes ---------------------------------------------------------------------------


@dataclass
class Joined:
    seat: str
    name: str
    place: int = 0
    """0: seated; else the place on the waiting list (1 is next)."""
    already: bool = False
    """The address was already seated or waiting: nothing changed (a repeated message)."""
    full: bool = False
    """This join took the last seat."""


def shown_as(name: str, signed: str, fallback: str, seat: str, others: list[dict[str, Any]]) -> str:
    """The display name of a seat taken by mail, one rule for `join` and `takeover`: the name the command
    gives (refused in words when it cannot be one), else the name the From header signs with (`Quinn Lee
    <quinn@new.example>`) when it can be one, else `fallback`."""
    if name.strip():
        return display_name(name, seat, others)
    if signed.strip() and "@" not in signed:  # a From name that is an address would show it to every player
        try:
            return display_name(signed, seat, others)
        except CampaignError:
            pass  # a From name that cannot be a seat's (taken, reserved, not plain text) is no refusal: it was not asked for
    return display_name(fallback, seat, others)


def join(root: Path, address: str, name: str = "", signed: str = "") -> Joined:
    """Seat `address` (or put it on the waiting list); the caller holds the campaign lock. `signed`: the
    From header's name (shown_as)."""
    campaign = Campaign.open(root)
    running = not is_open(campaign)
    if running and campaign.over:
        raise SignupError("the game is over; there is no seat to join (send list for the games signing up now)")
    if running and KEY not in campaign.config:
        raise SignupError("the game has started; sign-up is closed (a vacant seat can be taken with takeover SEAT)")
    signup = read(campaign)
    problem = address_problem(address)
    if problem:
        raise SignupError(f"your address '{address[:80]}' cannot be used: it {problem}")
    found = where_is(signup, address)
    if found is not None:
        kind, seat = found
        entry = next(e for e in (signup.players if kind == "seated" else signup.waiting) if e["id"] == seat)
        place = 0 if kind == "seated" else 1 + [w["id"] for w in signup.waiting].index(seat)
        return Joined(seat, str(entry.get("name", seat)), place, already=True)
    wanted = " ".join(name.split())[:80] or local_part(address)
    seat = seat_id(wanted, _taken_ids(campaign, signup))
    others = [*signup.players, *signup.waiting]
    display = shown_as(name, signed, seat, seat, others)  # a hostile or taken name is refused in words
    entry: dict[str, Any] = {"id": seat, "name": display, "email": bare(address)}
    if not signup.full and not running:
        if campaign.uses_passwords:
            _new_password(campaign, entry)
        write_config(campaign, {"players": [*signup.players, entry]})
        return Joined(seat, display, full=len(signup.players) + 1 >= signup.seats)
    write_config(campaign, {KEY: {**campaign.config[KEY], "waiting": [*signup.waiting, entry]}})
    return Joined(seat, display, place=len(signup.waiting) + 1)


def leave(root: Path, address: str) -> tuple[str, str] | None:
    """Remove the address's seat (before the start) or waiting place: ('seated'|'waiting', id), or None."""
    campaign = Campaign.open(root)
    if KEY not in campaign.config:
        return None
    signup = read(campaign)
    found = where_is(signup, address)
    if found is None:
        return None
    kind, seat = found
    if kind == "seated" and not is_open(campaign):
        raise SignupError("the game has started: a seated player resigns (resign, with the password) instead")
    if kind == "seated":
        write_config(campaign, {"players": [p for p in signup.players if p["id"] != seat]})
        _forget_password(campaign, seat)
    else:
        write_config(campaign, {KEY: {**campaign.config[KEY], "waiting": [w for w in signup.waiting if w["id"] != seat]}})
    return found


def observe(root: Path, address: str, on: bool) -> bool:
    """Add (or remove) an observer; whether anything changed."""
    campaign = Campaign.open(root)
    if KEY not in campaign.config:
        write_config(campaign, {KEY: {"seats": len(campaign.players), "observers": [bare(address)] if on else []}})
        return on
    section = dict(campaign.config[KEY])
    observers = [str(o) for o in section.get("observers") or []]
    address = bare(address)
    if (address in observers) == on:
        return False
    section["observers"] = [*observers, address] if on else [o for o in observers if o != address]
    write_config(campaign, {KEY: section})
    return True


def observers(campaign: Campaign) -> list[str]:
    section = campaign.config.get(KEY)
    return [str(o) for o in (section.get("observers") or [])] if isinstance(section, dict) else []


def _new_password(campaign: Campaign, entry: dict[str, Any]) -> None:
    """A password for a new seat: kept in gm/passwords.yaml first, then its hash in the entry."""
    password = auth.new_password()
    path = campaign.root / "gm" / "passwords.yaml"
    path.parent.mkdir(mode=0o700, exist_ok=True)
    known = (read_yaml(path) or {}) if path.is_file() else {}
    atomic.write_file(path, dump_yaml({**known, entry["id"]: password}))
    entry["password"] = auth.hash_password(password)


def _forget_password(campaign: Campaign, seat: str) -> None:
    path = campaign.root / "gm" / "passwords.yaml"
    if path.is_file():
        known = read_yaml(path) or {}
        known.pop(seat, None)
        atomic.write_file(path, dump_yaml(known))


# -- the start -------------------------------------------------------------------------


@dataclass
class Started:
    campaign: Campaign
    players: list[str] = field(default_factory=list)
    deadline: str | None = None


def start(root: Path, now: dt.datetime) -> Started:
    """Deal the opening from the committed seed; the caller holds the campaign lock. Refused
    (SignupError) when the campaign is not open or has fewer players than the game takes."""
    campaign = Campaign.open(root)
    if not is_open(campaign):
        if KEY in campaign.config and campaign.is_adjudicated(0):
            raise SignupError(f"{campaign.root}: the game has already started")
        raise SignupError(f"{campaign.root}: not a sign-up campaign (pbem new --open N makes one)")
    signup = read(campaign)
    fewest, most = capacity(campaign)
    if not fewest <= len(signup.players) <= most:
        raise SignupError(
            f"{campaign.root}: {campaign.game.title} takes {fewest} to {most} players and {len(signup.players)} "
            f"{'has' if len(signup.players) == 1 else 'have'} joined; nothing was started"
        )
    seed = read_yaml_object(campaign.root / "gm" / "seed.yaml", {"seed": object})["seed"]
    if commitment(str(seed)) != campaign.config.get("seed_commitment"):
        raise CampaignError(f"{campaign.root}/gm/seed.yaml does not match the seed commitment in campaign.yaml; nothing was started")
    updates: dict[str, Any] = {}
    if not signup.started:
        updates[KEY] = {**campaign.config[KEY], "started": now.isoformat(timespec="seconds")}
    first = _first_deadline(campaign, now)
    if first is not None:
        updates["schedule"] = {**campaign.config["schedule"], "start": first}
    if updates:
        write_config(campaign, updates)
        campaign = Campaign.open(root)
    setup = new_setup(str(campaign.config["name"]), campaign.game, campaign.players, campaign.config.get("options") or {}, str(seed), campaign.uses_passwords)
    try:
        out = opening(campaign, setup, str(seed), Renderer(campaign.game.id, None))
    except ValueError as exc:
        raise SignupError(str(exc)) from None
    staging = campaign.root / f".{turn_name(0)}.new"
    if staging.exists():
        shutil.rmtree(staging)
    atomic.write_tree(staging, out.files)
    os.rename(staging, campaign.turn_dir(0))  # the commit point: from here the game has started
    (campaign.turn_dir(1) / "orders").mkdir(parents=True, exist_ok=True)
    campaign = Campaign.open(root)
    from .schedule import of_campaign

    due = of_campaign(campaign, 1)
    return Started(campaign, [p["id"] for p in campaign.players], due.text if due else None)


def _first_deadline(campaign: Campaign, now: dt.datetime) -> str | None:
    """`schedule: start:` given as a DURATION ('3 days'): the time it names after `now`, in the campaign's zone."""
    schedule = campaign.config.get("schedule")
    if not isinstance(schedule, dict) or "start" not in schedule:
        return None
    try:
        span = duration(schedule["start"], "schedule.start")
    except ScheduleError:
        return None  # a time, read by the schedule as ever
    from zoneinfo import ZoneInfo

    zone = ZoneInfo(str(schedule.get("timezone") or "UTC"))
    return (now.astimezone(zone) + span).strftime("%Y-%m-%d %H:%M")


# -- campaign.yaml, changed key by key ------------------------------------------------------


def write_config(campaign: Campaign, updates: dict[str, Any]) -> None:
    """campaign.yaml with each top-level key of `updates` replaced (or added at the end), every other
    byte as the GM wrote it (folder.rewrite_config, as every command that writes it); then campaign.config updated."""
    path = campaign.root / "campaign.yaml"
    atomic.write_file(path, rewrite_config(path, updates))
    campaign.config.update(updates)


def status_json(campaign: Campaign) -> dict[str, Any]:
    """What `pbem status --json` prints for an open campaign: no address."""
    signup = read(campaign)
    return {
        "game": campaign.game.id,
        "signing_up": True,
        "seats": signup.seats,
        "players": [p["id"] for p in signup.players],
        "waiting": len(signup.waiting),
        "observers": len(signup.observers),
        "start": start_mode(campaign),
    }


def start_mode(campaign: Campaign) -> str:
    judge = campaign.config.get("judge") or {}
    mode = judge.get("start", "full") if isinstance(judge, dict) else "full"
    if mode not in ("full", "gm"):
        raise CampaignError(f"{campaign.root / 'campaign.yaml'}: judge.start: '{mode}' is not full or gm")
    return str(mode)


# -- the seat's life after the start -----------------------------------------------------------


def vacant(campaign: Campaign) -> dict[str, int]:
    """Seats whose player resigned: seat -> the first turn the seat is vacant (the stand-in plays it)."""
    section = campaign.config.get(KEY)
    found = section.get("vacant") if isinstance(section, dict) else None
    return {str(k): int(v) for k, v in found.items()} if isinstance(found, dict) else {}


def joinable(campaign: Campaign) -> list[str]:
    """The vacant seats a `join` to the waiting list takes, in the order it takes them: those no
    `takeover` has asked for (a takeover names its seat, so it goes first)."""
    section = campaign.config.get(KEY)
    asked = {str(r.get("seat")) for r in (section.get("takeovers") or [] if isinstance(section, dict) else [])}
    return [seat for seat in sorted(vacant(campaign)) if seat not in asked]


def resign(campaign: Campaign, seat: str, pending: int) -> None:
    """The seat is vacant from `pending`: the stand-in plays it (campaign.yaml `standins:`, as
    `pbem standin SEAT on` writes it) until someone takes it over. The caller holds the lock."""
    from .standins import settings as standin_word

    if seat in vacant(campaign):
        raise SignupError(f"the seat {seat} is already vacant since turn {vacant(campaign)[seat]}")
    section = dict(campaign.config.get(KEY) or {"seats": len(campaign.players), "observers": []})
    section["vacant"] = {**vacant(campaign), seat: pending}
    word = {**standin_word(campaign), seat: {"on": True, "from": pending}}
    write_config(campaign, {KEY: section, "standins": dict(sorted(word.items()))})


@dataclass(frozen=True)
class Takeover:
    seat: str
    gm: bool
    """judge: takeover: gm: the request only tells the GM, who runs pbem replace."""


def takeover(root: Path, address: str, seat: str, name: str = "", signed: str = "") -> Takeover:
    """`takeover SEAT` from an address not seated there: recorded in `signup: takeovers:` for the judge's
    tick (judge/seats.py hands the seat over); refused in words when the seat is not open. The caller holds the lock."""
    from .standins import ABANDONED, due

    campaign = Campaign.open(root)
    if campaign.over:
        raise SignupError("the game is over; there is no seat to take")
    problem = address_problem(address)
    if problem:
        raise SignupError(f"your address '{address[:80]}' cannot be used: it {problem}")
    if campaign.player(seat) is None:
        raise SignupError(f"there is no seat '{seat[:40]}' (write list to see the campaign; a takeover names a seat: takeover SEAT)")
    section = campaign.config.get(KEY) if isinstance(campaign.config.get(KEY), dict) else {"seats": len(campaign.players), "observers": []}
    for entry in campaign.players:
        if entry.get("email") and bare(str(entry["email"])) == bare(address):
            raise SignupError(f"you already hold the seat {entry['id']} in this game")
    abandoned = {s for s, d in due(campaign, campaign.last_turn, campaign.state()).items() if d.reason == ABANDONED}
    if seat not in vacant(campaign) and seat not in abandoned:
        raise SignupError(f"the seat {seat} is not vacant: its player holds it (only a vacant or abandoned seat can be taken over)")
    judge = campaign.config.get("judge") or {}
    if isinstance(judge, dict) and judge.get("takeover") == "gm":
        return Takeover(seat, gm=True)
    requests = list(section.get("takeovers") or [])
    first = next((r for r in requests if r.get("seat") == seat), None)
    if first is not None:
        if bare(str(first.get("email", ""))) == bare(address):
            return Takeover(seat, gm=False)  # asked again: nothing changes
        raise SignupError(f"someone else asked first to take over the seat {seat}")
    others = [p for p in campaign.players if p["id"] != seat]
    display = shown_as(name, signed, local_part(address), seat, others)
    write_config(campaign, {KEY: {**section, "takeovers": [*requests, {"seat": seat, "name": display, "email": bare(address)}]}})
    return Takeover(seat, gm=False)
