"""What the boards in the report mails cost (design 18, issue 28): per board, per turn's mails, per batch tick.

    python3 bench/boards.py [--repeat 5] [--campaigns 100] [--zoom 1.5] [--where /dev/shm]

All figures are CPU time of this process (user + system, `time.process_time`), the median of
--repeat runs: other work on a shared machine inflates wall time far more than CPU time.

1. Per board: each game's board from a player's view and the public view, in its wide layout (the
   site's on a desktop) and its narrow one (the mails'), rendered to PNG (publish/png.py) at --zoom
   (default: the shipped ZOOM), a fresh draw each time; and a picture of the narrow public board's
   size with nothing on its paper: what its pixels cost (filled and written as PNG) whatever is drawn.
2. Per turn's mails: `reportmail.report_messages` for turn 2 of a five-player demo campaign of each
   game (Jekyll vs Hyde: two players), each repetition with no board drawn before; and the
   part of it spent rasterising.
3. A batch tick: `pbem run` over --campaigns five-player Secrets campaigns whose every seat has
   filed orders, so each adjudicates turn 1; once with a GM address (the reports are mailed,
   boards and all, into the outbox; nothing is sent), once the same with no board drawn (every
   picture empty: what the mails cost before the boards) and once without (no mail is built).
   Both on fresh copies; per campaign, and scaled to 1,000 campaigns (the work is per campaign).
   Then the tick with mails again with `--jobs 2`, as wall time (the work is in the forked
   processes, whose CPU this process does not count), beside the same tick's wall time alone.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from adjudicator.campaign.demo import DEMO_NAMES, play, write_demo_orders  # noqa: E402
from adjudicator.campaign.create import create  # noqa: E402
from adjudicator.campaign.folder import Campaign, dump_yaml, read_yaml  # noqa: E402
from adjudicator.cli import main as pbem  # noqa: E402
from adjudicator.games import GAMES  # noqa: E402
from adjudicator.mail import boards, reportmail  # noqa: E402
from adjudicator.publish import png  # noqa: E402
from adjudicator.publish.pictures import painter  # noqa: E402
from adjudicator.publish.svg import Drawing  # noqa: E402

NOW = "2026-12-02T12:00+00:00"


def cpu(work: Callable[[], object], repeat: int, before: Callable[[], object] = lambda: None) -> float:
    """The median CPU seconds of `work`, each run after `before` (not timed)."""
    times = []
    for _ in range(repeat):
        before()
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return statistics.median(times)


def with_addresses(root: Path, gm: bool = True) -> None:
    config = read_yaml(root / "campaign.yaml")
    if gm:
        config["gm_email"] = "gm@example.org"
    else:
        config.pop("gm_email", None)
    for seat in config["players"]:
        seat["email"] = f"{seat['id']}@example.org"
    (root / "campaign.yaml").write_bytes(dump_yaml(config))


def per_board(work: Path, repeat: int) -> list[tuple[str, float]]:
    rows = []
    for game_id in sorted(GAMES):
        campaign = play(work / f"board-{game_id}", game_id, seed="bench-boards", players=2 if game_id == "jekyll" else 5, passwords=False)
        state = campaign.state(2)
        for player in (state["players"][0], None):
            for layout, narrow in (("wide", False), ("narrow", True)):
                svg = painter(game_id).board(campaign.game.view(state, player), "board-2", narrow=narrow).svg()
                label = f"one board, {game_id}, {'a player' if player else 'public'}, {layout}"
                rows.append((label, cpu(lambda: png.png(svg), repeat, png.png.cache_clear)))
        drawing = painter(game_id).board(campaign.game.view(state, None), "board-2", narrow=True)
        paper = Drawing(drawing.width, drawing.height, drawing.title, drawing.desc, "board-2").svg()
        rows.append((f"  its paper alone (the pixels' floor), {game_id}", cpu(lambda: png.png(paper), repeat, png.png.cache_clear)))
    return rows


def per_turn(work: Path, repeat: int) -> list[tuple[str, float]]:
    import resvg_py

    rows = []
    drawing = [0.0]
    rasterise = resvg_py.svg_to_bytes

    def timed(**options: object) -> object:
        started = time.process_time()
        try:
            return rasterise(**options)
        finally:
            drawing[0] += time.process_time() - started

    resvg_py.svg_to_bytes = timed  # the product's own calls, timed where they reach resvg
    try:
        for game_id in sorted(GAMES):
            root = work / f"board-{game_id}"
            with_addresses(root)
            campaign = Campaign.open(root)
            count = len(campaign.state(2)["players"])
            drawing[0] = 0.0
            total = cpu(lambda: reportmail.report_messages(campaign, 2), repeat, png.png.cache_clear)
            rows.append((f"a turn's mails, {game_id}, {count} players + public", total))
            rows.append((f"  of which drawing the {count + 1} boards (mean)", drawing[0] / repeat))
    finally:
        resvg_py.svg_to_bytes = rasterise
    return rows


def batch(work: Path, count: int, repeat: int) -> list[tuple[str, float]]:
    """Each campaign has its own seed, so its orders and boards are its own (copies would share
    every board, which the per-process cache of publish/png.py would draw once for all)."""
    models = []
    for number in range(count):
        model = work / "batch-models" / f"c{number:05d}"
        create(model, "secrets", [{"id": p, "name": p.capitalize()} for p in DEMO_NAMES[:5]], seed=f"bench-batch-{number}", name=f"c{number}", passwords=False)
        write_demo_orders(Campaign.open(model), {})
        models.append(model)
    rows = []
    for label, gm, drawn in (("with mails", True, True), ("no board drawn", True, False), ("without mails", False, False)):
        for model in models:
            with_addresses(model, gm)
        with contextlib.ExitStack() as stack:
            if not drawn:  # the mails as they were before the boards: the same mails, each with an empty picture
                stack.enter_context(replaced(boards, "png", lambda svg: b""))
            seconds = statistics.median(tick(work, models, attempt, time.process_time) for attempt in range(repeat))
        rows.append((f"pbem run, {count} five-player campaigns adjudicating, {label}", seconds))
        rows.append((f"  the same, scaled to 1,000 campaigns, {label}", seconds * 1000 / count))
    for model in models:
        with_addresses(model, True)
    for jobs in (1, 2):
        seconds = statistics.median(tick(work, models, attempt, time.perf_counter, jobs) for attempt in range(repeat))
        rows.append((f"  with mails, --jobs {jobs}: wall time, scaled to 1,000", seconds * 1000 / count))
    return rows


@contextlib.contextmanager
def replaced(module: object, name: str, value: object) -> Iterator[None]:
    """`module.name` set to `value` for the block (a measurement's device, never the product's)."""
    kept = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, kept)


def tick(work: Path, models: list[Path], attempt: int, clock: Callable[[], float], jobs: int = 1) -> float:
    """One `pbem run` over fresh copies of the models, timed by `clock`."""
    roots = [work / f"batch-{attempt}" / model.name for model in models]
    for model, root in zip(models, roots):
        shutil.copytree(model, root)
    png.png.cache_clear()
    out = io.StringIO()
    started = clock()
    with contextlib.redirect_stdout(out):
        code = pbem(["run", *map(str, roots), "--now", NOW, "--jobs", str(jobs)])
    seconds = clock() - started
    if code != 0 or not all(Campaign.open(r).is_adjudicated(1) for r in roots):
        raise SystemExit(f"pbem run did not adjudicate every campaign: {out.getvalue()[-2000:]}")
    shutil.rmtree(work / f"batch-{attempt}")
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--campaigns", type=int, default=100)
    parser.add_argument("--zoom", type=float, default=png.ZOOM, help=f"pixels per SVG unit (shipped: {png.ZOOM})")
    parser.add_argument("--where", help="folder to make the campaigns in (default: the system's temporary folder)")
    args = parser.parse_args(argv)
    png.ZOOM = args.zoom
    with tempfile.TemporaryDirectory(dir=args.where) as temporary:
        work = Path(temporary)
        rows = per_board(work, args.repeat) + per_turn(work, args.repeat) + batch(work, args.campaigns, args.repeat)
    print(f"{'measure (zoom ' + str(args.zoom) + ')':66}  {'CPU ms':>9}")
    for label, seconds in rows:
        print(f"{label:66}  {1000 * seconds:9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
