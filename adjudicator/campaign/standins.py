"""Stand-ins for abandoned seats (design 14): which seats a stand-in plays, and its order files.

A seat is played by the game's stand-in in the pending turn when it has no order file
of its own and either

- the GM said so: `pbem standin DIR SEAT on` records `standins: {SEAT: {on: true, from: N}}`
  in campaign.yaml (N: the pending turn then), or
- its player resigned and nobody took it yet: the resignation writes the same `on` and names the
  seat in `signup: vacant:` (campaign/signup.py); the stand-in's record says `vacant`, not `gm`, or
- it is abandoned: `judge: abandon_after: K` is set and the seat's current holder sent
  no valid orders K turns in a row (turns the seat was not due are skipped), or the
  stand-in already played it as abandoned the turn before. A player who sends orders
  again takes the seat back; `pbem standin DIR SEAT off` (`on: false, from: N`) stops
  the stand-in and counts NMRs afresh from turn N; `pbem replace` counts them afresh
  from the new player's first turn.

The stand-in writes the seat's order file as a player would (with the seat's password from
gm/passwords.yaml when the campaign uses them), in memory, when the turn is adjudicated
(`play`); the committed turn holds it as `turn-NNN/orders/SEAT.yaml`, with `turn-NNN/standins.yaml`
(seat -> why, and the SHA-256 of the file it wrote). That record is an input of the turn, hashed by
its manifest, so `pbem audit` replays the turn like any other. A turn that is refused leaves
nothing of the stand-in behind.

Which seats the stand-in covers (`due`) is read once with the pending turn (campaign/pending.py).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..common import atomic, yamlsafe
from ..common.rng import Rng
from ..common.words import plural
from ..games.base import State, standin_view
from .folder import Campaign, CampaignError, damaged, dump_yaml, read_yaml, rewrite_config

RECORD_FILE = "standins.yaml"
"""In a turn folder: the seats whose order files the stand-in wrote for that turn."""
PURPOSE = "standin"
"""The stand-in of seat S draws its chance from the turn's stream `standin/S` (docs/randomness.md)."""
GM = "gm"
ABANDONED = "abandoned"
VACANT = "vacant"
"""A seat whose player resigned (campaign.yaml `signup: vacant:`), played by the stand-in until a takeover."""


@dataclass(frozen=True)
class Due:
    """A seat the stand-in plays in the pending turn, unless its player sends orders."""

    seat: str
    reason: str
    """`gm` (pbem standin ... on), `vacant` (its player resigned: `signup: vacant:`) or `abandoned` (judge: abandon_after)."""
    after: int | None = None
    """For an abandoned seat: the NMRs in a row that made it so."""
    since: int | None = None
    """For the GM's word (and a resignation's): the turn `pbem standin ... on` took effect. Not in the turn's record."""

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, **({"after": self.after} if self.after is not None else {})}

    @property
    def why(self) -> str:
        """Why the stand-in covers the seat, in the words `pbem status`, the GM's digest and the seat's player read."""
        if self.reason == ABANDONED:
            return f"abandoned after {plural(self.after or 0, 'turn')} without valid orders in a row"
        if self.reason == VACANT:
            return "vacant since its player resigned"
        return f"at the GM's word, from turn {self.since}"


def abandon_after(campaign: Campaign) -> int | None:
    """`judge: abandon_after: N` in campaign.yaml, or None when seats are never abandoned."""
    judge = campaign.config.get("judge") or {}
    value = judge.get("abandon_after") if isinstance(judge, dict) else None
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise CampaignError(f"{campaign.root / 'campaign.yaml'}: judge: abandon_after must be a whole number of turns, 1 or more, not {value!r}")
    return value


def settings(campaign: Campaign) -> dict[str, dict[str, Any]]:
    """The GM's word per seat: {seat: {on: bool, from: turn}}."""
    found = campaign.config.get("standins") or {}
    if not isinstance(found, dict) or not all(isinstance(v, dict) and isinstance(v.get("on"), bool) for v in found.values()):
        raise CampaignError(f"{campaign.root / 'campaign.yaml'}: standins must map seats to {{on: true or false, from: turn}}")
    return found


def due(campaign: Campaign, last: int, state: State) -> dict[str, Due]:
    """The seats due in the turn after `last` that the stand-in plays if they send nothing."""
    limit = abandon_after(campaign)
    word = settings(campaign)
    found: dict[str, Due] = {}
    if limit is None and not word:
        return found  # the usual campaign: nothing to look up, whatever its size
    holders = {p["id"]: p for p in campaign.players}
    signup = campaign.config.get("signup")
    vacant = signup.get("vacant") or {} if isinstance(signup, dict) else {}  # campaign/signup.py's `vacant`, which imports this module
    results: dict[int, dict[str, Any]] = {}  # each turn's results.json read once, however many seats look at it
    for seat in campaign.game.due(state):
        gm = word.get(seat)
        if gm and gm["on"] and int(gm.get("from", 1)) <= last + 1:  # a resignation says `on` as the GM's word does; the record keeps the true reason
            # (a word given later than the turn asked of, by the GM's digest looking back at a turn, did not cover it)
            found[seat] = Due(seat, VACANT if seat in vacant else GM, since=int(gm.get("from", 1)))
        elif limit is not None:
            # NMRs count from the holder's first turn (pbem replace) and from the GM's last `off`.
            since = max(int(holders[seat].get("since", 1)), int(gm.get("from", 1)) if gm else 1)
            streak = _abandoned(campaign, results, seat, last, since, limit)
            if streak is not None:
                found[seat] = Due(seat, ABANDONED, streak)
    return found


def _abandoned(campaign: Campaign, results: dict[int, dict[str, Any]], seat: str, last: int, since: int, limit: int) -> int | None:
    """The NMR streak that abandoned the seat, walking back from `last` to `since`; None if it is not."""
    count = 0
    for number in range(last, since - 1, -1):
        if number not in results:
            results[number] = campaign.recorded_results(number)
        submission = results[number]["submissions"].get(seat)
        if submission is None:
            continue  # not due that turn
        played = results[number].get("standins", {}).get(seat)
        if played is not None:
            return int(played["after"]) if played["reason"] == ABANDONED else None
        if submission["status"] == "accepted":
            return None
        count += 1
        if count >= limit:
            return count
    return None


def play(campaign: Campaign, number: int, state: State, seats: list[Due]) -> tuple[dict[str, bytes], bytes | None]:
    """The stand-in's order file for each seat, written as a player would write it, and the turn's record
    of them (standins.yaml): values only. The turn commits both, so the audit replays them."""
    if not seats:
        return {}, None
    game = campaign.game
    seed = campaign.seed()
    if seed is None:
        raise CampaignError(f"{campaign.root}: the seed is missing (gm/seed.yaml); no stand-in can play")
    passwords = _passwords(campaign, [d.seat for d in seats])
    rng = Rng(seed, number)
    files: dict[str, bytes] = {}
    record: dict[str, dict[str, Any]] = {}
    played = [d.seat for d in seats]
    for d in seats:
        written = game.standin_orders(standin_view(game, state, d.seat, played), d.seat, rng.stream(f"{PURPOSE}/{d.seat}"))
        document: dict[str, Any] = {"player": d.seat, "turn": number}
        if d.seat in passwords:
            document["password"] = passwords[d.seat]
        document["orders"] = written
        data = f"# Written by the stand-in for {d.seat}'s seat ({d.reason}): see docs/standins.md\n".encode() + dump_yaml(document)
        files[f"{d.seat}.yaml"] = data
        record[d.seat] = {**d.to_json(), "sha256": hashlib.sha256(data).hexdigest()}
    return files, dump_yaml(dict(sorted(record.items())))


def _passwords(campaign: Campaign, seats: list[str]) -> dict[str, str]:
    if not campaign.uses_passwords:
        return {}
    path = campaign.root / "gm" / "passwords.yaml"
    known = read_yaml(path) if path.is_file() else {}
    known = known if isinstance(known, dict) else {}
    lacking = [s for s in seats if s not in known]
    if lacking:
        raise CampaignError(
            f"{path} has no password for {', '.join(lacking)}: the stand-in signs a seat's orders with it; "
            "put it back (or turn the stand-in off with pbem standin DIR SEAT off)"
        )
    return {s: str(known[s]) for s in seats}


def parse_record(data: bytes | None, path: Path | str = RECORD_FILE) -> tuple[bytes | None, dict[str, dict[str, Any]]]:
    """A turn's standins.yaml, as bytes (an input of the turn) and as seat -> {reason, after,
    sha256}; (None, {}) when the stand-in wrote nothing for that turn."""
    if data is None:
        return None, {}
    try:
        record = yamlsafe.load(data) or {}
    except yamlsafe.YamlError as exc:
        raise damaged(Path(path), f"not valid YAML: {exc}") from None
    if not isinstance(record, dict) or not all(isinstance(v, dict) and "sha256" in v and "reason" in v for v in record.values()):
        raise damaged(Path(path), "not a list of seats, each with why the stand-in played it and the SHA-256 of its file")
    return data, record


def merge_record(old: bytes | None, new: bytes | None) -> bytes | None:
    """One record from a pending folder's (left by an earlier version of pbem) and this turn's stand-ins."""
    if old is None or new is None:
        return new if old is None else old
    merged = {**parse_record(old)[1], **parse_record(new)[1]}
    return dump_yaml(dict(sorted(merged.items())))


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def played(record: dict[str, dict[str, Any]], digests: dict[str, str]) -> dict[str, dict[str, Any]]:
    """The seats whose order file this turn is the very one the stand-in wrote: seat -> {reason, after}.
    `digests`: seat -> the SHA-256 of its order file as filed (in an export, from before its password was taken out)."""
    found = {}
    for seat, entry in sorted(record.items()):
        if digests.get(seat) == entry["sha256"]:
            found[seat] = {k: v for k, v in entry.items() if k != "sha256"}
    return found


def set_word(root: Path, seat: str, on: bool) -> tuple[Campaign, int, Due | None]:
    """`pbem standin DIR SEAT on|off`: the GM's word, from the pending turn on. Returns the campaign, that turn,
    and whether and why the stand-in covered the seat before (what `off` tells the GM and the seat's player)."""
    Campaign.open(root)  # a folder that is no campaign is named before a lock file is made in it
    with atomic.locked(Path(root)):
        campaign = Campaign.open(root)
        state = campaign.state()
        if campaign.game.is_over(state):
            raise CampaignError(f"{campaign.root}: the game is over; no seat needs a stand-in")
        if campaign.player(seat) is None:
            raise CampaignError(f"no seat '{seat}' in {campaign.root}; seats: {', '.join(p['id'] for p in campaign.players)}")
        pending = campaign.last_turn + 1
        before = due(campaign, campaign.last_turn, state).get(seat)
        word = {**settings(campaign), seat: {"on": on, "from": pending}}
        atomic.write_file(campaign.root / "campaign.yaml", rewrite_config(campaign.root / "campaign.yaml", {"standins": dict(sorted(word.items()))}))
        return Campaign.open(root), pending, before


def newly_abandoned(campaign: Campaign, turn: int, state: State, played_now: dict[str, Any]) -> list[Due]:
    """The seats that adjudicated turn `turn` abandoned (the GM is told): the stand-in takes them from the next turn.
    Only a seat due in that turn: one that was not (the other player's Greed step in Jekyll vs Hyde) added no NMR
    and is abandoned, if at all, since an earlier turn (trial 9: told "now abandoned" a second time)."""
    if abandon_after(campaign) is None or campaign.game.is_over(state):
        return []
    was_due = campaign.recorded_due(turn)
    return [d for d in due(campaign, turn, state).values() if d.reason == ABANDONED and d.seat not in played_now and d.seat in was_due]


def played_when_last_due(campaign: Campaign, seat: str, turn: int) -> bool:
    """Whether the stand-in played `seat` in the last turn before `turn` in which the seat was due: a seat it
    goes on playing after a turn it had no part in is not newly its own."""
    for earlier in range(turn - 1, 0, -1):
        if seat in campaign.recorded_due(earlier):
            return seat in standins_record(campaign, earlier)
    return False


def standins_record(campaign: Campaign, turn: int) -> dict[str, dict[str, Any]]:
    """The seats the stand-in played in an adjudicated turn (its standins.yaml), with why."""
    path = campaign.turn_dir(turn) / RECORD_FILE
    return parse_record(path.read_bytes() if path.is_file() else None, path)[1]


def abandoned_by(campaign: Campaign, turn: int, record: dict[str, dict[str, Any]] | None = None) -> list[Due]:
    """The seats adjudicated turn `turn` abandoned, which the stand-in plays from the next (`record`: the
    turn's standins.yaml when the caller has read it)."""
    if abandon_after(campaign) is None or turn < 1:
        return []  # the usual campaign: no turn's state to read
    return newly_abandoned(campaign, turn, campaign.state(turn), standins_record(campaign, turn) if record is None else record)
