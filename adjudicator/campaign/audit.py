"""`pbem audit`: replay every turn from its inputs and compare every output byte for byte.

Besides the bytes of every replayed turn, the audit accounts for every turn folder
(`turn-NNN`) in the campaign, so that an archive with a turn removed or cut off
cannot pass for a clean one:

- The replay runs from the opening through each turn that has a manifest.json,
  in order, and stops at the first turn without one, or when the game is over.
- After the last replayed turn L, the only turn folder allowed is the pending
  turn, turn L+1, and only while the game is not over. The pending turn is told
  apart by what it holds: nothing that an adjudication writes (manifest.json,
  state.json, results.json, deadline.json, adjudicated.json, reports/), only what waits for the
  adjudication (orders/, and seats.yaml from `pbem replace`). A turn L+1 that
  holds any of the adjudication's files has been cut off (its manifest is gone).
- Any turn folder after turn L+1 (a gap in the numbering, or a turn after the
  pending one) and any turn folder after the end of the game is a divergence; so
  is a folder named like a turn but not as pbem names them (`turn-3`, `turn-0003`).
- When the seed has been revealed (reveal.yaml, written by `pbem reveal` only once
  the game is over), the replay must reach the end of the game: a revealed
  campaign whose replay stops before the end has lost its later turns.

Dot-named entries (`.turn-003.new`, `.lock`) are run-time files and are not turns.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..common.rng import commitment
from ..common.words import plural
from ..publish.render import Renderer
from . import pending
from .adjudicate import from_template, template_problem
from .exported import open_for_audit, originals
from .folder import Campaign, CampaignError, dump_json, read_yaml, turn_name
from .recorded import ReadDifferently, read_then
from .turn import TurnOutput, opening, sha256, turn

REVEAL_FILE = "reveal.yaml"
"""Written by `pbem reveal` (adjudicator/campaign/reveal.py) into the campaign folder once the game is over."""


@dataclass
class AuditResult:
    turns: int
    """How many turns (after the opening) were replayed; on a divergence, the turn where it was found."""
    divergence: str | None
    """The first difference found, in words; None when the replay matches."""
    rendered_elsewhere: dict[int, str] = field(default_factory=dict)
    """Turns whose reports another template set rendered (turn -> the adjudicator version that wrote
    it): their rules' outputs were replayed, their reports checked against the manifest chain only."""
    read_differently: list[ReadDifferently] = field(default_factory=list)
    """Orders today's reader reads otherwise than their turn recorded, in unchanged files: their turns
    were replayed from the recorded readings (campaign/recorded.py)."""
    reports_by_chain: set[int] = field(default_factory=set)
    """Turns replayed from recorded readings whose reports today's rendering of those readings does
    not give byte for byte: checked against the manifest chain only, as for another template set."""

    @property
    def note(self) -> str | None:
        """One line on the turns whose reports were not replayed, or None when every report was."""
        if not self.rendered_elsewhere:
            return None
        versions = ", ".join(sorted(set(self.rendered_elsewhere.values())))
        return (
            f"{_spans(sorted(self.rendered_elsewhere))} rendered by another template set (adjudicator {versions}): "
            "the rules' outputs replay byte for byte; the reports match the SHA-256 chain of their manifests, "
            "not today's templates"
        )

    @property
    def notes(self) -> list[str]:
        """Every line the audit adds to a clean result: the template line, then one per order read differently."""
        return ([self.note] if self.note else []) + [self.said(r) for r in self.read_differently]

    def said(self, order: ReadDifferently) -> str:
        """The order's line, saying where its turn's reports could only be checked against the chain."""
        if order.turn not in self.reports_by_chain:
            return order.line
        return f"{order.line[:-1]}; its reports match the SHA-256 chain of its manifest, not today's wording."

    def to_json(self) -> dict[str, Any]:
        """The result for scripts (`pbem audit --json`, docs/json-output.md)."""
        return {
            "clean": self.divergence is None,
            "turns": self.turns,
            "divergence": self.divergence,
            "notes": self.notes if self.divergence is None else [],
            "rendered_elsewhere": {str(n): v for n, v in sorted(self.rendered_elsewhere.items())},
            "read_differently": [{**r.to_json(), "note": self.said(r)} for r in self.read_differently],
        }


def _spans(numbers: list[int]) -> str:
    """`turns 0-4 and 7 were`, `turn 3 was`: the turns, in runs."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    words = [str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs]
    listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    return f"turn {listed} was" if len(numbers) == 1 else f"turns {listed} were"


def _recorded(data: bytes) -> dict[str, Any]:
    """The recorded manifest as a dict, or {} when it is not one (its plain difference says so)."""
    try:
        found = json.loads(data)
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def _as_recorded(replayed: bytes, theirs: dict[str, Any], label: str, filed: dict[str, dict[str, str]], reports_as_recorded: bool) -> bytes:
    """The replay's manifest with what the replay cannot know taken from the recorded one: the
    adjudicator version and the template digest that wrote it (either absent from manifests older
    than the field); with `reports_as_recorded` (another template set rendered the turn), the reports'
    hashes; and, in an export, the hashes of order files as filed before their passwords were taken
    out (only for a file still as exported: one changed since then keeps its own hash, and diverges)."""
    if not theirs:
        return replayed
    ours = json.loads(replayed)
    for key in ("adjudicator", "templates"):
        ours.pop(key, None)
        if key in theirs:
            ours[key] = theirs[key]
    if reports_as_recorded and isinstance(theirs.get("outputs"), dict):
        kept = {n: d for n, d in ours["outputs"].items() if not n.startswith(REPORTS)}
        ours["outputs"] = dict(sorted({**kept, **{n: d for n, d in theirs["outputs"].items() if n.startswith(REPORTS)}}.items()))
    for name, digest in ours["inputs"].items():
        record = filed.get(f"{label}/{name}")
        if record is not None and record.get("exported") == digest:
            ours["inputs"][name] = record["filed"]
    return dump_json(ours)


REPORTS = "reports/"


def _reports_differ(folder: Path, output: TurnOutput) -> bool:
    """Whether the reports on disk are not, name for name and byte for byte, those the replay renders."""
    replayed = {n: d for n, d in output.files.items() if n.startswith(REPORTS)}
    on_disk = {f"{REPORTS}{p.name}" for p in (folder / "reports").iterdir()} if (folder / "reports").is_dir() else set()
    return on_disk != set(replayed) or any((folder / n).read_bytes() != d for n, d in replayed.items() if (folder / n).is_file())


def _compare(
    folder: Path, output: TurnOutput, filed: dict[str, dict[str, str]], templates: str, read_then: bool = False
) -> tuple[str | None, bool]:
    """(the first file whose bytes differ from the replay, or that one side lacks; whether the
    turn's reports were checked against its manifest only, another template set having rendered them,
    or, with `read_then`, the turn being replayed from the readings it recorded).

    The turn folder holds nothing else: every entry of its own and of reports/ is one the
    replay writes (a `notes.txt` added to an adjudicated turn is a divergence, not a file
    the archive may carry unchecked). Every entry of orders/ is read by the replay, or named
    in results.json as not a regular file. Dot-named entries are run-time files.

    Reports are replayed byte for byte, unless they differ and the manifest records a template
    digest other than today's `templates` (or none, being older than the field): then each report
    on disk must be one the manifest lists, with the SHA-256 it records, and the manifest itself
    must replay with those hashes, so the chain still binds them. The same holds for a turn replayed
    from its recorded readings (`read_then`): today's words for a void order may not be its day's."""
    label = folder.name
    recorded_manifest = folder / "manifest.json"
    theirs = _recorded(recorded_manifest.read_bytes()) if recorded_manifest.is_file() else {}
    elsewhere = (read_then or theirs.get("templates") != templates) and _reports_differ(folder, output)
    expected = dict(output.files)
    if elsewhere:
        recorded = theirs.get("outputs") if isinstance(theirs.get("outputs"), dict) else {}
        expected = {n: d for n, d in expected.items() if not n.startswith(REPORTS)}
        for name in sorted(n for n in recorded if n.startswith(REPORTS)):
            path = folder / name
            if not path.is_file():
                return f"{label}/{name} is missing from the campaign but its manifest.json records it", True
            if sha256(path.read_bytes()) != recorded[name]:
                return f"{label}/{name} was changed after the turn was adjudicated (its SHA-256 is not the one manifest.json records)", True
            expected[name] = path.read_bytes()
    for name in sorted(expected):
        path = folder / name
        if not path.is_file():
            return f"{label}/{name} is missing from the campaign but the replay writes it", elsewhere
        data = expected[name]
        on_disk = path.read_bytes()
        if name == "manifest.json":
            data = _as_recorded(data, theirs, label, filed, elsewhere)
        if on_disk != data:
            return (_changed_input(folder, on_disk, data) if name == "manifest.json" else None) or f"{label}/{name} differs from the replay", elsewhere
    written = {name.partition("/")[0] for name in expected} | ({"orders"} if output.turn > 0 else set())
    for path in sorted(folder.iterdir()):
        if not path.name.startswith(".") and path.name not in written:
            return f"{label}/{path.name} is not written by the replay (an adjudicated turn holds only what its adjudication wrote)", elsewhere
    reports = folder / "reports"
    if reports.is_dir():
        for path in sorted(reports.iterdir()):
            if f"{REPORTS}{path.name}" not in expected:
                why = "is not recorded in its manifest.json" if elsewhere else "is not written by the replay"
                return f"{label}/reports/{path.name} {why}", elsewhere
    return None, elsewhere


def _changed_input(folder: Path, recorded: bytes, replayed: bytes) -> str | None:
    """The input (an order file, the seats or the deadline) whose bytes are not those the turn's
    manifest recorded: a hand edit after the turn is named as such, not as a manifest that differs."""
    try:
        was, now = json.loads(recorded)["inputs"], json.loads(replayed)["inputs"]
    except (ValueError, KeyError, TypeError):
        return None  # the manifest itself is damaged: the plain difference says so
    for name in sorted(set(was) | set(now)):
        where = f"{folder.name}/{name}"
        if name not in now:
            return f"{where} was removed after the turn was adjudicated (its manifest.json records it)"
        if name not in was:
            return f"{where} was added after the turn was adjudicated (its manifest.json does not record it)"
        if was[name] != now[name]:
            return f"{where} was changed after the turn was adjudicated (its SHA-256 is not the one manifest.json records)"
    return None


def audit(root: Path, renderer: Renderer | None = None) -> AuditResult:
    try:
        return _audit(root, renderer)
    except Exception as exc:
        if not from_template(exc):
            raise
        raise CampaignError(template_problem(Path(root), exc)) from None


def _audit(root: Path, renderer: Renderer | None = None) -> AuditResult:
    campaign = open_for_audit(root)
    filed = originals(campaign)
    seed = campaign.seed()
    if seed is None:
        raise CampaignError(
            f"{campaign.root}: no seed to replay with (reveal.yaml after pbem reveal, or gm/seed.yaml for the GM)"
        )
    setup = campaign.setup_record()
    if commitment(seed) != setup["seed_commitment"]:
        return AuditResult(0, "the seed does not match the commitment published at the start (turn-000/setup.json)")
    if (campaign.root / REVEAL_FILE).is_file():
        revealed = read_yaml(campaign.root / REVEAL_FILE)
        if revealed.get("seed_commitment") not in (None, setup["seed_commitment"]):
            return AuditResult(0, "reveal.yaml names a different commitment from turn-000/setup.json")
    renderer = renderer or Renderer.for_campaign(campaign.game.id, campaign.root, campaign.site_base_url)
    found = AuditResult(0, None)

    def compared(number: int, out: TurnOutput, read_then: bool = False) -> str | None:
        folder = campaign.turn_dir(number)
        problem, other = _compare(folder, out, filed, renderer.digest, read_then)
        manifest = _recorded((folder / "manifest.json").read_bytes()) if other else {}
        if other and manifest.get("templates") != renderer.digest:
            found.rendered_elsewhere[number] = str(manifest.get("adjudicator", "before 0.1.0"))
        elif other:
            found.reports_by_chain.add(number)
        return problem

    def failed(number: int, problem: str) -> AuditResult:
        return replace(found, turns=number, divergence=problem)

    out = opening(campaign, setup, seed, renderer)
    problem = compared(0, out)
    if problem:
        return failed(0, problem)
    state = out.state
    number = 0
    while not campaign.game.is_over(state) and campaign.is_adjudicated(number + 1):
        number += 1
        read = pending.replay(campaign, number, state, setup)
        verdict, differences = _as_adjudicated(read, pending.check(read))
        try:
            out = turn(read, verdict, seed, renderer)
        except Exception as exc:  # noqa: BLE001 - only with recorded readings; anything else is raised
            if not differences or from_template(exc):
                raise
            # A record rewritten by hand can hold orders no reader ever gave: a divergence, never a crash.
            return failed(number, f"{turn_name(number)}/results.json records readings that today's rules cannot resolve "
                                  f"({type(exc).__name__}), for {plural(len(differences), 'order')} that today's reader reads differently")
        problem = compared(number, out, bool(differences))
        if problem:
            if differences:
                problem += (f" (the turn was replayed from the readings its results.json records for {plural(len(differences), 'order')} "
                            "that today's reader reads differently)")
            return failed(number, problem)
        found.read_differently += differences
        state = out.state
    result = _account_for_turns(campaign, number, campaign.game.is_over(state))
    return replace(found, turns=result.turns, divergence=result.divergence)


def _as_adjudicated(read: pending.Pending, verdict: pending.Verdict) -> tuple[pending.Verdict, list[ReadDifferently]]:
    """The verdict a committed turn replays with: today's, but for files whose recorded readings
    today's reader does not give while their bytes are the ones the manifest records (campaign/recorded.py)."""
    folder = read.campaign.turn_dir(read.number)
    results, manifest = folder / "results.json", _recorded((folder / "manifest.json").read_bytes())
    inputs = manifest.get("inputs")
    if not results.is_file() or not isinstance(inputs, dict):
        return verdict, []  # a damaged turn: the plain difference says so
    return read_then(read, verdict, results.read_bytes(), inputs)


def _account_for_turns(campaign: Campaign, last: int, over: bool) -> AuditResult:
    """After a clean replay of turns 1..`last`: every turn folder beyond it is the pending turn or a divergence."""
    broken = campaign.chain_break(last, over)
    if broken is not None:
        return AuditResult(*broken)
    pending = last + 1
    if not over and (campaign.root / REVEAL_FILE).is_file():
        status = "is not adjudicated" if campaign.turn_dir(pending).exists() else "is missing"
        return AuditResult(
            pending, f"the seed was revealed after turn {last} but the game is not over: later turns are missing ({turn_name(pending)} {status})"
        )
    return AuditResult(last, None)
