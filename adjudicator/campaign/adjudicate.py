"""`pbem adjudicate`: settle the pending turn of a campaign and commit it atomically."""

from __future__ import annotations

import datetime as dt
import functools
import traceback
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..common import atomic, parallel
from ..games.base import State
from ..publish.render import Renderer
from . import pending, rollback, standins
from .folder import Campaign, CampaignError
from .turn import TurnOutput, turn


class Refused(RuntimeError):
    """The turn was not adjudicated; the message says why."""


@dataclass
class Outcome:
    campaign: Campaign
    output: TurnOutput
    missing: list[str] = field(default_factory=list)


def from_template(exc: BaseException) -> bool:
    """Whether an exception is a template's failure: Jinja's own, or any error raised inside a template's code
    (a GM's `{{ 1 / 0 }}` or a range past the sandbox's limit)."""
    # Imported only on failure: a cold `pbem status` need not load Jinja.
    from jinja2 import TemplateError

    if isinstance(exc, TemplateError):
        return True
    return isinstance(exc, Exception) and any(f.filename.endswith(".j2") for f in traceback.extract_tb(exc.__traceback__))


def template_problem(root: Path, exc: BaseException) -> str:
    """A report template that fails (usually a GM's own, in CAMPAIGN/templates/), in words, with its file and line.

    The turn is refused and nothing is written: a report cannot be skipped, since
    the audit replays every report, and the GM can fix the template and run again.
    """
    where = getattr(exc, "filename", None) or getattr(exc, "name", None)
    line = getattr(exc, "lineno", None)
    for frame in traceback.extract_tb(exc.__traceback__):  # a runtime error: the template's own frame says where
        if frame.filename.endswith(".j2"):
            where, line = frame.filename, frame.lineno
    place = f"{where}, line {line}" if where and line else (where or "a report template")
    return f"{root}: the report template {place} failed ({type(exc).__name__}: {exc}); nothing was written, fix the template and run again"


def unexpected(root: Path, exc: Exception) -> str:
    """An error nothing foresaw, in words: where, what, that nothing was written, and what to do."""
    return (
        f"{root}: the turn could not be adjudicated ({type(exc).__name__}: {exc}); nothing was written. "
        f"A file of the campaign may be damaged (`pbem audit {root}` names the first that differs), "
        "or this is a bug in pbem: please report this message"
    )


def prepare(root: Path) -> Campaign:
    """Open a campaign, finishing any turn a crash interrupted, and open the pending turn folder."""
    return _opened(root)[0]


def _opened(root: Path) -> tuple[Campaign, int, State]:
    """What `prepare` does, with the last adjudicated turn and its state, read once."""
    rollback.finish(Path(root))  # a `pbem rollback` a kill cut short (campaign/rollback.py)
    campaign = Campaign.open(root)
    atomic.recover(campaign.root)
    last = campaign.last_turn
    state = campaign.state(last)
    if not campaign.game.is_over(state):
        (campaign.turn_dir(last + 1) / "orders").mkdir(parents=True, exist_ok=True)  # where players' files go
    return campaign, last, state


def _staged_turn(
    root: Path, nmr: bool, renderer: Renderer | None, jobs: int = 1, now: dt.datetime | None = None, at: dt.datetime | None = None
) -> tuple[Outcome, atomic.Staged]:
    """Settle the pending turn and build its folder beside the old one; the caller holds the
    lock, makes the folder durable and swaps it in. Raises Refused when it cannot be done.

    The stages: read the pending turn once, check it, add the stand-ins' orders, resolve and
    render (turn.turn); the disk is read here at the start and written at the commit."""
    campaign, last, state = _opened(root)
    game = campaign.game
    if game.is_over(state):
        raise Refused(f"{campaign.root}: the game ended with turn {last}; there is nothing to adjudicate")
    read = pending.read(campaign)
    folder = campaign.turn_dir(read.number)
    foreign = read.folder.not_of_a_turn()
    if foreign:
        raise Refused(
            f"{campaign.root}: {', '.join(f'{folder.name}/{name}' for name in foreign)} "
            f"{'is' if len(foreign) == 1 else 'are'} not part of a turn (a pending turn folder holds only orders/ and, "
            "after pbem replace, seats.yaml); nothing was written: move it out of the turn folder and run again"
        )
    verdict = pending.check(read, jobs)
    missing = verdict.waiting
    if missing and not nmr:  # a rejected file is not sent, as it is not filed when it comes by mail
        raise Refused(
            f"{campaign.root}: turn {read.number} is still waiting for orders from "
            + ", ".join(p + (" (file rejected: see pbem status)" if verdict.submissions[p].status == "rejected" else "") for p in missing)
            + "; adjudicate with --nmr once the deadline has passed"
        )
    verdict = with_standins(read, verdict)
    seed = campaign.seed()
    if seed is None:
        raise CampaignError(f"{campaign.root}: the seed is missing (gm/seed.yaml); the turn cannot be drawn")
    renderer = renderer or Renderer.for_campaign(game.id, campaign.root, campaign.site_base_url)
    try:
        output = turn(read, verdict, seed, renderer, jobs, now=now, at=at)
    except Exception as exc:
        if not from_template(exc):
            raise
        raise Refused(template_problem(campaign.root, exc)) from None
    return Outcome(campaign, output, missing), atomic.stage(folder, output.files, check=lambda old: read.folder.changes(pending.TurnFolder.read(old)))


def with_standins(read: pending.Pending, verdict: pending.Verdict) -> pending.Verdict:
    """The verdict with the stand-in's order file for each seat it plays, checked as a player's
    file is: in memory, so that a turn refused later leaves nothing of them behind."""
    seats = list(verdict.standins.values())
    files, record = standins.play(read.campaign, read.number, read.state, seats)
    for d in seats:
        name = f"{d.seat}.yaml"
        verdict = verdict.with_file(d.seat, name, files[name], read.check_file(d.seat, files[name], f"orders/{name}"))
    return replace(verdict, record=standins.merge_record(verdict.record, record)) if record is not None else verdict


def changed_meanwhile(root: Path, folder: str, changed: list[str]) -> Refused:
    """A file saved into the pending turn while it was being adjudicated: the turn is not committed
    (it would hold bytes it did not read, or lose the file); the next run reads it."""
    shown = ", ".join(f"{folder}/{name}" for name in changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
    return Refused(
        f"{root}: {shown} arrived, changed or went away while {folder} was being adjudicated; nothing was "
        "written and every file is as it was left: run pbem adjudicate again to adjudicate the turn with it"
    )


def _open_next_turn(outcome: Outcome) -> None:
    """The orders folder of the turn after, where players' files will be dropped. The turn is
    in place already; if the disk refuses the folder now, the next adjudicate, ingest or replace makes it."""
    if not outcome.campaign.game.is_over(outcome.output.state):
        try:
            (outcome.campaign.turn_dir(outcome.output.turn + 1) / "orders").mkdir(parents=True, exist_ok=True)
        except OSError:
            pass


def _require_campaign(root: Path) -> None:
    """A folder that is no campaign is named as such, before any lock file is made in it."""
    if not (root / "campaign.yaml").is_file():
        Campaign.open(root)  # raises CampaignError in words


def adjudicate(
    root: Path, *, nmr: bool = False, renderer: Renderer | None = None, jobs: int = 1, now: dt.datetime | None = None, at: dt.datetime | None = None
) -> Outcome:
    """Adjudicate the pending turn; raise Refused (nothing written) when it cannot be done.
    `jobs` processes share the reading and the reports of a large campaign; `now` is the moment
    of adjudication (a schedule counting `from: adjudication` records the next deadline from it); `at`,
    the moment the turn records as its own (adjudicated.json): the judge's tick gives its `now`, which
    its mail tells players; a command run by hand records none, so that running it again after a kill
    writes the very same bytes."""
    [(_, result)] = _adjudicate_group([Path(root)], nmr, renderer, jobs, now, at)
    if not isinstance(result, Outcome):
        raise result
    return result


Result = Outcome | Refused | atomic.Busy | CampaignError | OSError

BATCH = 64
"""Campaigns settled before one flush to disk: the flush (one syncfs) costs about as much as
settling a small campaign's turn, so a batch shares it. Each campaign stays locked until its
turn is in place; a crash leaves each campaign of the batch before or after its turn."""


def adjudicate_many(roots: Iterable[Path], *, nmr: bool = False, jobs: int = 1, now: dt.datetime | None = None) -> Iterator[tuple[Path, Result]]:
    """Adjudicate the pending turn of each campaign, in order, sharing flushes to disk.

    Yields each folder with its Outcome or with the error that refused it; a
    refusal of one campaign changes nothing in the others. With `jobs` above 1
    the groups of campaigns are settled by that many processes at once (results
    still come in the order given); a single campaign, or a run that names a
    folder twice (its turns must follow one another), settles one campaign at a
    time and lets each large turn share its work among the processes instead.
    """
    folders = [Path(r) for r in roots]
    named = [f.resolve() for f in folders]
    twice = len(set(named)) < len(named)
    workers = 1 if twice or not parallel.can_fork() else max(1, min(jobs, len(folders)))
    size = max(1, min(BATCH, -(-len(folders) // workers)))  # every process gets work, each group shares a flush
    groups: list[list[Path]] = []
    in_group: set[Path] = set()
    for folder, resolved in zip(folders, named):
        if not groups or len(groups[-1]) >= size or resolved in in_group:
            groups.append([])  # a folder named twice waits for the next group
            in_group = set()
        groups[-1].append(folder)
        in_group.add(resolved)
    if workers == 1 or len(groups) == 1:  # one campaign at a time, each turn free to use the processes
        for group in groups:
            yield from _adjudicate_group(group, nmr, jobs=jobs, now=now)
        return
    for results in parallel.ordered_map(functools.partial(_group_in_worker, nmr=nmr, now=now), groups, workers, chunk=1):
        yield from results


def _group_in_worker(group: list[Path], nmr: bool, now: dt.datetime | None = None) -> list[tuple[Path, Result]]:
    """One group, settled in a worker process; the written files stay on disk, not in the reply."""
    results = _adjudicate_group(group, nmr, now=now)
    for _, result in results:
        if isinstance(result, Outcome):
            result.output.files = {}
    return results


def _adjudicate_group(
    group: list[Path], nmr: bool, renderer: Renderer | None = None, jobs: int = 1, now: dt.datetime | None = None, at: dt.datetime | None = None
) -> list[tuple[Path, Result]]:
    results: list[tuple[Path, Result]] = []
    staged: list[tuple[int, atomic.Staged]] = []  # (index in results, the built turn)
    with ExitStack() as locks:
        try:
            for root in group:
                try:
                    _require_campaign(root)
                    locks.enter_context(atomic.locked(root))
                    outcome, built = _staged_turn(root, nmr, renderer, jobs, now, at)
                except (Refused, atomic.Busy, CampaignError, OSError) as exc:
                    results.append((root, exc))
                    continue
                except Exception as exc:  # noqa: BLE001  damage no check foresaw, or a bug: this campaign
                    results.append((root, Refused(unexpected(root, exc))))  # is named and left as it was; the rest go on
                    continue
                staged.append((len(results), built))
                results.append((root, outcome))
            atomic.flush([built for _, built in staged])
        except OSError as exc:  # the disk failed the flush: no turn of the group happened
            for index, built in staged:
                atomic.discard(built)
                results[index] = (results[index][0], exc)
            return results
        except BaseException:
            for _, built in staged:
                atomic.discard(built)
            raise
        swapped = []
        for index, built in staged:
            root = results[index][0]
            try:
                changed = atomic.swap(built)
            except OSError as exc:
                results[index] = (root, exc)
                continue
            if changed:
                results[index] = (root, changed_meanwhile(root, built.final.name, changed))
                continue
            swapped.append(built)
        atomic.settle(built.final.parent for built in swapped)
        for _, outcome in results:
            if isinstance(outcome, Outcome):
                _open_next_turn(outcome)
    return results
