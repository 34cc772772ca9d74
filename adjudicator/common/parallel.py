"""Work spread over forked processes, for `--jobs`: results always in the order asked.

Forking lets the workers inherit what the parent already holds (a turn's state,
its events, the compiled templates) instead of receiving it pickled; only the
items and the results cross between processes. Where fork is missing, or one
process is asked for, the work runs here, in order, and gives the same results.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

Item = TypeVar("Item")
Value = TypeVar("Value")

_task: Callable[[Any], Any] | None = None
"""The function the forked workers run: set just before the fork, so it is never pickled."""


def can_fork() -> bool:
    import multiprocessing  # here, not at the top: a cold `pbem check` never forks

    return "fork" in multiprocessing.get_all_start_methods()


def _run_chunk(chunk: list[Any]) -> list[Any]:
    assert _task is not None
    return [_task(item) for item in chunk]


def ordered_map(task: Callable[[Item], Value], items: Sequence[Item], jobs: int, chunk: int = 0) -> Iterator[Value]:
    """`task(i) for i in items`, computed by `jobs` processes at once, yielded in order as they come.

    `chunk` items go to a process at a time (default: a quarter of each process's
    share, so one slow chunk does not leave the others idle).
    """
    global _task
    if jobs <= 1 or len(items) < 2 or not can_fork():
        yield from map(task, items)
        return
    import multiprocessing

    size = chunk or -(-len(items) // (jobs * 4))
    chunks = [list(items[i : i + size]) for i in range(0, len(items), size)]
    _task = task
    try:
        with multiprocessing.get_context("fork").Pool(min(jobs, len(chunks))) as pool:
            for values in pool.imap(_run_chunk, chunks):
                yield from values
    finally:
        _task = None
