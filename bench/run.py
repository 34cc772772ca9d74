"""Benchmarks against the parse floor (docs/performance.md has the figures).

    python3 bench/run.py                          # everything, full size, 3 repetitions
    python3 bench/run.py --quick                  # small sizes, 1 repetition
    python3 bench/run.py --only batch,big         # some of: batch, stages, big, audit, check, demo, ingest
    python3 bench/run.py --where /dev/shm         # campaigns on a RAM disk: the file system's share apart

Every measurement runs in a fresh child process, so its peak memory (from wait4)
is its own; wall time is measured inside the child around the work alone, except
for `check`, which is a cold start and is timed from outside. Each floor is
measured in the same run on the same files: reading them and parsing them with
libyaml's C safe loader in one process. The stages measure times each stage of a
turn on the product's own functions and adds the contract floor: parse + write floor
+ rendering, what the design makes every run spend. Campaigns and orders come from seeds,
so every run measures the same work. Campaigns are played without passwords: a
password check is a deliberately slow scrypt hash (about 60 ms), which would
swamp everything else.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

# -- the work, run inside a child process -----------------------------------------


def make_campaigns(root: Path, count: int, players: int, tag: str) -> list[Path]:
    """One Secrets campaign created by `pbem new`, copied `count` times, each with its own orders."""
    from adjudicator.campaign.folder import Campaign
    from adjudicator.campaign.demo import write_demo_orders
    from adjudicator.campaign.create import create

    template = root / f"{tag}-template"
    options = [f"max_players={max(players, 6)}"]
    seats = [{"id": f"p{i}", "name": f"Player {i}"} for i in range(players)]
    create(template, "secrets", seats, seed="bench", passwords=False, options=options)
    folders = []
    for number in range(count):
        folder = root / f"{tag}-{number:05d}"
        shutil.copytree(template, folder)
        write_demo_orders(Campaign.open(folder), {}, purpose=f"bench/{number}")
        folders.append(folder)
    shutil.rmtree(template)
    return folders


def order_files(folders: list[Path]) -> list[Path]:
    return [p for folder in folders for p in sorted((folder / "turn-001" / "orders").iterdir())]


def measure_floor(paths: list[Path]) -> float:
    import yaml

    start = time.perf_counter()
    for path in paths:
        yaml.load(path.read_bytes(), Loader=yaml.CSafeLoader)
    return time.perf_counter() - start


def measure_write(folders: list[Path], into: Path) -> float:
    """The write floor: the files an adjudicated turn added (reports, results, state, manifest),
    created again under `into` with the same bytes, in one process: no reading, no checking,
    no rendering and no flush to disk. The folder contract's file-per-report cost, alone."""
    turns = []
    for folder in folders:
        done = folder / "turn-001"
        turns.append([(p.relative_to(done), p.read_bytes()) for p in sorted(done.rglob("*")) if p.is_file() and "orders" not in p.parts])
    start = time.perf_counter()
    for number, files in enumerate(turns):
        made = set()
        for relative, data in files:
            target = into / str(number) / relative
            if target.parent not in made:
                target.parent.mkdir(parents=True, exist_ok=True)
                made.add(target.parent)
            with open(target, "xb") as handle:
                handle.write(data)
    elapsed = time.perf_counter() - start
    shutil.rmtree(into)
    return elapsed


def measure_adjudicate(folders: list[Path], jobs: int) -> float:
    """`pbem adjudicate DIR... --jobs N` in-process, as the CLI runs it, on fresh copies."""
    from adjudicator.cli import main

    start = time.perf_counter()
    with open(os.devnull, "w") as quiet:
        stdout, sys.stdout = sys.stdout, quiet
        try:
            code = main(["adjudicate", "--jobs", str(jobs), *map(str, folders)])
        finally:
            sys.stdout = stdout
    elapsed = time.perf_counter() - start
    if code != 0:
        raise SystemExit(f"adjudicate failed with exit {code}")
    return elapsed


STAGES = (
    # (label, module, attribute): the stages of a turn, timed apart; none calls another
    ("opening the campaign (campaign.yaml)", "adjudicator.campaign.folder", "Campaign.open"),
    ("finishing interrupted swaps (recover)", "adjudicator.common.atomic", "recover"),
    ("reading the order files", "adjudicator.campaign.pending", "read_orders_folder"),
    ("checking the order files (parse, schemas, the game's reading)", "adjudicator.campaign.pending", "Pending.check_file"),
    ("resolving the orders", "adjudicator.campaign.turn", "resolve"),
    ("rendering the reports (Jinja)", "adjudicator.publish.render", "Renderer.render"),
    ("the BBCode form of the public report", "adjudicator.campaign.turn", "to_bbcode"),
    ("JSON of results, state and manifest", "adjudicator.campaign.turn", "dump_json"),
    ("building the turn folder (links, new files)", "adjudicator.common.atomic", "stage"),
    ("flushing to disk (syncfs)", "adjudicator.common.atomic", "flush"),
    ("swapping the folders in", "adjudicator.common.atomic", "swap"),
    ("making the renames durable", "adjudicator.common.atomic", "settle"),
    ("the GM's lines on the terminal (rich)", "adjudicator.commands.adjudicate", "_report_outcome"),
)


def measure_stages(folders: list[Path]) -> dict[str, float]:
    """`pbem adjudicate` over the folders in one process, with the time spent in each of
    STAGES summed (wrapped where the code looks them up); "the rest" is what none covers."""
    import importlib
    import inspect

    spent = dict.fromkeys([label for label, _, _ in STAGES], 0.0)
    calls = dict.fromkeys(spent, 0)

    def timed(label: str, function: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            calls[label] += 1
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[label] += time.perf_counter() - start

        return run

    for label, module_name, attribute in STAGES:
        owner: Any = importlib.import_module(module_name)
        *path, name = attribute.split(".")
        for part in path:
            owner = getattr(owner, part)
        wrapped = timed(label, getattr(owner, name))  # a classmethod comes back bound: keep it so
        setattr(owner, name, staticmethod(wrapped) if isinstance(inspect.getattr_static(owner, name), classmethod) else wrapped)
    total = measure_adjudicate(folders, 1)
    if not all(calls.values()):  # the code no longer goes through a wrapped name: the table would lie
        raise SystemExit(f"stages never reached: {[label for label, n in calls.items() if not n]}")
    spent["the rest (locks, turn logic, manifest hashes, ...)"] = total - sum(spent.values())
    spent["total"] = total
    return spent


def play(root: Path, game_id: str) -> tuple[Path, float]:
    """A demo campaign of one game; returns it and the time its turns took to adjudicate."""
    from adjudicator.campaign.adjudicate import adjudicate
    from adjudicator.campaign.demo import DEMO_TURN_LIMIT, write_demo_orders
    from adjudicator.campaign.create import create
    from adjudicator.campaign.folder import Campaign
    from adjudicator.games import GAMES

    game = GAMES[game_id]
    count = min(max(game.min_players, 4), game.max_players)
    create(root, game_id, [{"id": f"p{i}", "name": f"P{i}"} for i in range(count)], seed=f"bench-{game_id}", passwords=False)
    campaign = Campaign.open(root)
    spent = 0.0
    while not campaign.over:
        if campaign.last_turn >= DEMO_TURN_LIMIT:  # a game that never ends fails, as the demo does
            raise SystemExit(f"the {game_id} campaign has not ended after {DEMO_TURN_LIMIT} turns")
        write_demo_orders(campaign, {})
        start = time.perf_counter()
        adjudicate(root)
        spent += time.perf_counter() - start
    return root, spent


def measure_audit(root: Path) -> float:
    from adjudicator.campaign.audit import audit

    start = time.perf_counter()
    result = audit(root)
    elapsed = time.perf_counter() - start
    if result.divergence:
        raise SystemExit(result.divergence)
    return elapsed


def measure_engine(game_id: str, seconds: float) -> float:
    """Whole games per second, engine only: demo orders read and resolved, no files, no reports."""
    from adjudicator.games import GAMES
    from adjudicator.games.base import Seat
    from adjudicator.campaign.create import parse_options
    from adjudicator.campaign.pipeline import Submission, read_orders, resolve
    from adjudicator.common.rng import Rng

    game = GAMES[game_id]
    count = min(max(game.min_players, 4), game.max_players)
    seats = [Seat(f"p{i}", f"P{i}") for i in range(count)]
    games_played = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        seed = f"engine-{games_played}"
        state = game.setup(seats, parse_options(game, []), Rng(seed, 0))
        turn = 0
        while not game.is_over(state):
            turn += 1
            rng = Rng(seed, turn)
            subs = {}
            for player in game.due(state):
                items = game.demo_orders(game.view(state, player), player, rng.stream(f"demo/{player}"))
                subs[player] = Submission(player, "accepted", readings=read_orders(game, state, player, items))
            state, _, _ = resolve(game, state, subs, rng)
        games_played += 1
    return games_played / (time.perf_counter() - start)


def measure_ingest(root: Path, recorded: int, new: int) -> float:
    """Seconds `ingest` takes for `new` junk messages (strangers, no orders: the flood case) in a campaign
    whose index already records `recorded` messages (written straight into the journal, as ingest writes it)."""
    import datetime as dt
    import hashlib

    from adjudicator.campaign.create import create
    from adjudicator.mail import ingest

    root = Path(tempfile.mkdtemp(prefix=f"ingest-{recorded}-", dir=root))  # each repetition its own campaign
    campaign = root / "campaign"
    create(campaign, "secrets", [{"id": p, "name": p.title(), "email": f"{p}@example.org"} for p in ("ann", "bob", "cat")],
           seed="bench", passwords=False, gm_email="gm@example.org")
    (campaign / "mail").mkdir(mode=0o700)
    with open(ingest.index_path(campaign), "wb") as journal:
        for seq in range(1, recorded + 1):
            key = "sha256:" + hashlib.sha256(str(seq).encode()).hexdigest()
            journal.write(ingest._line(ingest.Entry(seq, key, f"<old{seq}@x>", f"spam{seq}@example.net", None, "Buy now", "rejected",
                                                    turn=1, reason="no orders", stored=f"mail/rejected/{seq:05d}.eml")))
    box = root / "box"
    (box / "new").mkdir(parents=True)
    (box / "cur").mkdir()
    for n in range(new):
        (box / "new" / f"{1700000000 + n}.m{n}").write_bytes(
            f"From: flood{n}@example.net\nTo: gm@example.org\nSubject: x\nMessage-ID: <new{n}@x>\n\nBuy now!\n".encode())
    start = time.perf_counter()
    result = ingest.ingest(campaign, [box], now=dt.datetime(2026, 12, 1, tzinfo=dt.UTC))
    spent = time.perf_counter() - start
    assert len(result.entries) == new
    return spent


def child(args: argparse.Namespace) -> None:
    """Run one measurement and print its figure as JSON."""
    work = Path(args.work)
    if args.measure == "prepare":  # tag, count, players -> folder names under work/source
        tag, count, players = args.names
        folders = make_campaigns(work / "source", int(count), int(players), tag)
        value: Any = [str(Path("source") / f.name) for f in folders]
    elif args.measure == "play":  # game -> [folder name, seconds its turns took]
        root, spent = play(work / f"audit-{args.names[0]}", args.names[0])
        value = [root.name, spent]
    elif args.measure == "floor":
        value = measure_floor(order_files([work / name for name in args.names]))
    elif args.measure == "write":
        value = measure_write([work / name for name in args.names], work / "written")
    elif args.measure == "adjudicate":  # jobs, folder names
        value = measure_adjudicate([work / name for name in args.names[1:]], int(args.names[0]))
    elif args.measure == "stages":
        value = measure_stages([work / name for name in args.names])
    elif args.measure == "audit":
        value = measure_audit(work / args.names[0])
    elif args.measure == "engine":
        value = measure_engine(args.names[0], float(args.names[1]))
    elif args.measure == "ingest":  # recorded, new
        value = measure_ingest(work, int(args.names[0]), int(args.names[1]))
    else:
        raise SystemExit(f"unknown measure {args.measure}")
    print(json.dumps(value))


# -- the orchestration, in the parent ------------------------------------------------


def run_child(*args: str) -> tuple[Any, float]:
    """(figure printed by the child, its peak resident memory in MiB).

    The parent stays small (it only orchestrates), because a child's peak memory as
    wait4 reports it includes what it inherited at fork. Every child starts with nothing
    waiting to be written to disk: the fresh copies made just before a measurement would
    otherwise be flushed by the turn's own syncfs and charged to it."""
    os.sync()
    process = subprocess.Popen([sys.executable, __file__, "--child", *args], stdout=subprocess.PIPE, cwd=REPO)
    assert process.stdout is not None
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"benchmark child {args} failed")
    return json.loads(out), usage.ru_maxrss / 1024


def fresh_copies(folders: list[Path], into: Path) -> list[str]:
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    for folder in folders:
        shutil.copytree(folder, into / folder.name)
    return [str(Path(into.name) / f.name) for f in folders]


class Table:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, str, str]] = []

    def add(self, name: str, value: str, memory: float | None, ratio: str, target: str) -> None:
        self.rows.append((name, value, "" if memory is None else f"{memory:.0f}", ratio, target))

    def print(self) -> None:
        header = ("measure", "median", "peak MiB", "ratio", "target")
        widths = [max(len(r[i]) for r in [header, *self.rows]) for i in range(5)]
        for row in [header, *self.rows]:
            print("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))))


def repeated(times: int, *args: str, prepare: Any = None) -> tuple[float, float]:
    values, memory = [], []
    for _ in range(times):
        child_args = prepare() if prepare else args
        value, peak = run_child(*child_args)
        values.append(value)
        memory.append(peak)
    return statistics.median(values), max(memory)


def prepared(work: Path, tag: str, count: int, players: int) -> tuple[list[Path], list[str]]:
    names, _ = run_child("prepare", str(work), tag, str(count), str(players))
    return [work / name for name in names], names


CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def adjudicated(table: Table, work: Path, folders: list[Path], names: list[str], label: str, repeat: int) -> float:
    """Floor, adjudication (in one process, and with --jobs for every core) and write floor
    of one set of campaigns, as table rows; returns the one-process adjudication time."""
    floor, floor_mem = repeated(repeat, "floor", str(work), *names)
    copies: list[str] = []

    def fresh(jobs: int) -> tuple[str, ...]:
        copies[:] = fresh_copies(folders, work / "run")
        return ("adjudicate", str(work), str(jobs), *copies)

    spent, mem = repeated(repeat, prepare=lambda: fresh(1))
    if CORES > 1:
        shared, shared_mem = repeated(repeat, prepare=lambda: fresh(CORES))
    written, written_mem = repeated(repeat, "write", str(work), *copies)
    count = sum(len(list((f / "turn-001" / "orders").iterdir())) for f in folders)
    files = sum(1 for c in copies for p in (work / c / "turn-001").rglob("*") if p.is_file() and "orders" not in p.parts)
    table.add(f"floor: parse {count} order files", f"{floor:.3f} s", floor_mem, "1.0", "")
    table.add(f"write floor: create the {files} files the turns add", f"{written:.3f} s", written_mem, f"{written / floor:.1f}x floor", "")
    table.add(label, f"{spent:.3f} s", mem, f"{spent / floor:.1f}x floor ({spent / (floor + written):.1f}x parse+write)", "<= 2x")
    if CORES > 1:
        ratio = f"{shared / floor:.1f}x floor ({shared / (floor + written):.1f}x parse+write)"
        table.add(f"{label}, --jobs {CORES}", f"{shared:.3f} s", shared_mem, ratio, "<= 2x")
    return spent


def bench_batch(table: Table, work: Path, campaigns: int, repeat: int) -> None:
    folders, names = prepared(work, "batch", campaigns, 6)
    adjudicated(table, work, folders, names, f"pbem adjudicate x{campaigns} six-player", repeat)


def bench_stages(table: Table, work: Path, campaigns: int, players: int, repeat: int) -> None:
    """Where a campaign's turn goes, stage by stage, against its share of the floor; and the
    least any adjudicator bound by the contract must spend: parse the orders, render the
    reports (design 7: Jinja templates) and create the files (design 4: one per report)."""
    folders, names = prepared(work, f"stages{players}", campaigns, players)
    floor, _ = repeated(repeat, "floor", str(work), *names)
    runs, writes = [], []
    for _ in range(repeat):
        copies = fresh_copies(folders, work / "run")
        value, _ = run_child("stages", str(work), *copies)
        runs.append(value)
        written, _ = run_child("write", str(work), *copies)
        writes.append(written)
    what = f"{players}-player campaigns" if campaigns > 1 else f"one {players}-player turn"
    share = floor / campaigns * 1000  # ms of the floor per campaign
    table.add(f"stages, {what}: floor, parse {players} order files", f"{share:.3f} ms", None, "1.0", "")
    per_campaign = {label: statistics.median(run[label] for run in runs) / campaigns * 1000 for label in runs[0]}
    for label, ms in per_campaign.items():
        table.add(f"stages, {what}: {label}", f"{ms:.3f} ms", None, f"{ms / share:.2f}x floor", "")
    rendering = sum(per_campaign[label] for label, _, attribute in STAGES if attribute in ("Renderer.render", "to_bbcode"))
    least = share + statistics.median(writes) / campaigns * 1000 + rendering
    table.add(f"stages, {what}: contract floor (parse + write floor + rendering)", f"{least:.3f} ms", None, f"{least / share:.2f}x floor", "")


def bench_big(table: Table, work: Path, sizes: list[int], repeat: int) -> None:
    times = {}
    for size in sizes:
        folders, names = prepared(work, f"big{size}", 1, size)
        times[size] = adjudicated(table, work, folders, names, f"one turn, {size} players", repeat)
    for small, large in zip(sizes, sizes[1:]):
        ratio = times[large] / times[small]
        table.add(f"time({large}) / time({small})", "", None, f"{ratio:.1f}", f"<= {large / small * 1.1:.0f}")


def bench_audit(table: Table, work: Path, repeat: int) -> None:
    from adjudicator.games import GAMES

    for game_id in sorted(GAMES):
        (root, spent), _ = run_child("play", str(work), game_id)
        audit_time, mem = repeated(repeat, "audit", str(work), root)
        table.add(f"pbem audit, {game_id} demo", f"{audit_time:.3f} s", mem, f"{audit_time / spent:.2f}x its turns", "<= 1.5x")


def bench_check(table: Table, work: Path, repeat: int) -> None:
    folders, _ = prepared(work, "check", 1, 6)
    order = sorted((folders[0] / "turn-001" / "orders").iterdir())[0]

    def cold(command: list[str]) -> float:
        runs = []
        for _ in range(max(5, repeat * 3)):
            start = time.perf_counter()
            subprocess.run(command, check=False, stdout=subprocess.DEVNULL, cwd=REPO)
            runs.append(time.perf_counter() - start)
        return statistics.median(runs)

    floor = cold([sys.executable, "-c", "import yaml"])
    spent = cold([sys.executable, "-m", "adjudicator", "check", str(order), "--campaign", str(folders[0])])
    table.add("python -c 'import yaml' (cold)", f"{floor:.3f} s", None, "1.0", "")
    table.add("pbem check one file (cold)", f"{spent:.3f} s", None, f"{spent / floor:.1f}x", "<= 3x")


def bench_demo(table: Table, work: Path, seconds: float) -> None:
    from adjudicator.games import GAMES

    for game_id in sorted(GAMES):
        rate, mem = run_child("engine", str(work), game_id, str(seconds))
        table.add(f"engine: whole {game_id} games", f"{rate:.1f}/s", mem, "", "")


def bench_ingest(table: Table, work: Path, recorded: list[int], new: int, repeat: int) -> None:
    """The cost of a message does not grow with the messages recorded before it (issue 15: a flood)."""
    base = None
    for count in recorded:
        spent, mem = repeated(repeat, "ingest", str(work), str(count), str(new))
        base = base or spent
        table.add(f"pbem ingest {new} new messages, {count} recorded", f"{spent:.2f} s ({1000 * spent / new:.1f} ms each)", mem,
                  f"{spent / base:.2f}x", "~1x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="pbem-adjudicator benchmarks")
    parser.add_argument("--child", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="small sizes, one repetition")
    parser.add_argument("--only", default="batch,stages,big,audit,check,demo,ingest")
    parser.add_argument("--recorded", help="messages already recorded for the ingest measure, e.g. 0,10000,100000")
    parser.add_argument("--campaigns", type=int)
    parser.add_argument("--big", help="player counts for the one-turn test, e.g. 1000,10000")
    parser.add_argument("--repeat", type=int)
    parser.add_argument("--where", help="folder to make the campaigns in (default: the system's temporary folder); e.g. /dev/shm for a RAM disk")
    args = parser.parse_args(argv)
    if args.child:
        measure, work, *names = args.child
        child(argparse.Namespace(measure=measure, work=work, names=names))
        return 0
    campaigns = args.campaigns or (20 if args.quick else 1000)
    sizes = [int(n) for n in (args.big or ("100,1000" if args.quick else "1000,10000")).split(",")]
    repeat = args.repeat or (1 if args.quick else 3)
    table = Table()
    with tempfile.TemporaryDirectory(prefix="pbem-bench-", dir=args.where) as tmp:
        work = Path(tmp)
        chosen = args.only.split(",")
        if "batch" in chosen:
            bench_batch(table, work, campaigns, repeat)
        if "stages" in chosen:
            bench_stages(table, work, campaigns, 6, repeat)
            bench_stages(table, work, 1, sizes[0], repeat)
        if "big" in chosen:
            bench_big(table, work, sizes, repeat)
        if "audit" in chosen:
            bench_audit(table, work, repeat)
        if "check" in chosen:
            bench_check(table, work, repeat)
        if "demo" in chosen:
            bench_demo(table, work, 0.5 if args.quick else 3.0)
        if "ingest" in chosen:
            recorded = [int(n) for n in (args.recorded or ("0,1000" if args.quick else "0,10000,100000")).split(",")]
            bench_ingest(table, work, recorded, 50 if args.quick else 1000, repeat)
    table.print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
