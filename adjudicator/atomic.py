"""Crash-safe writes and the campaign lock.

A file is written to a dot-named temporary beside it, flushed to disk and
renamed over the old one. A whole turn is built in a dot-named folder and
swapped into place (see commit_folder); `recover` finishes or undoes a swap
that a crash interrupted, so a campaign is always either before or after a turn.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path


class Busy(RuntimeError):
    """Another pbem command holds the campaign's lock."""


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_new(path: Path, data: bytes, sync: bool = True) -> None:
    with open(path, "xb") as handle:
        handle.write(data)
        if sync:
            handle.flush()
            os.fsync(handle.fileno())


@cache
def _syncfs() -> Callable[[int], int] | None:
    """Linux's syncfs(2): flush one filesystem in one call (Python's os module lacks it).
    Looked up on first use, in the C library the interpreter already has loaded."""
    try:
        return ctypes.CDLL(None, use_errno=True).syncfs  # type: ignore[no-any-return]
    except (OSError, AttributeError):
        return None


def _flush(root: Path, paths: list[Path]) -> None:
    """Make the new files and folders under `root` durable before they are renamed into place.

    One syncfs for the whole tree costs about what one fsync does, where a turn
    writes some sixteen files; without syncfs each file and folder is fsynced.
    """
    syncfs = _syncfs()
    if syncfs is not None:
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
        try:
            if syncfs(fd) == 0:
                return
        finally:
            os.close(fd)
    for path in paths:
        with open(path, "rb") as handle:
            os.fsync(handle.fileno())
    for folder in sorted({p.parent for p in paths} | {root}, key=lambda p: -len(p.parts)):
        _fsync_dir(folder)


def _link_or_copy(source: str, target: str) -> None:
    """Inputs carried into a new turn folder are hard links: no bytes copied, and the
    original stays in place until the swap."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def write_file(path: Path, data: bytes) -> None:
    """Replace `path` with `data` atomically."""
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.unlink(missing_ok=True)
    _write_new(temporary, data)
    os.replace(temporary, path)
    _fsync_dir(path.parent)


def write_tree(root: Path, files: dict[str, bytes]) -> None:
    """Write new files under a fresh folder and make them durable (the folder itself is swapped)."""
    written = []
    for relative, data in sorted(files.items()):
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        _write_new(target, data, sync=False)
        written.append(target)
    _flush(root, written)


def _staging(final: Path) -> tuple[Path, Path]:
    return final.with_name(f".{final.name}.new"), final.with_name(f".{final.name}.old")


def commit_folder(final: Path, files: dict[str, bytes], keep_existing: bool = True) -> None:
    """Make `final` hold its current content plus `files`, in one step that a crash cannot split.

    The new folder is built completely under `.NAME.new`, then the old one is
    renamed away and the new one into place. A crash between those two renames
    leaves `.NAME.new` complete and `NAME` missing: `recover` rolls it forward.
    """
    new, old = _staging(final)
    if new.exists():
        shutil.rmtree(new)
    try:
        if keep_existing and final.exists():
            shutil.copytree(final, new, symlinks=True, copy_function=_link_or_copy)
        else:
            new.mkdir()
        write_tree(new, files)
    except BaseException:  # a full disk or a read-only folder: leave no half-built turn taking space
        shutil.rmtree(new, ignore_errors=True)
        raise
    if final.exists():
        if old.exists():
            shutil.rmtree(old)
        os.rename(final, old)
    os.rename(new, final)
    _fsync_dir(final.parent)
    if old.exists():
        shutil.rmtree(old)


def recover(parent: Path) -> None:
    """Finish or undo any folder swap under `parent` that a crash interrupted."""
    for entry in sorted(parent.iterdir()):
        name = entry.name
        if not (name.startswith(".") and name.endswith((".new", ".old"))):
            continue
        final = parent / name[1:-4]
        if name.endswith(".new"):
            if final.exists():
                shutil.rmtree(entry)  # the build never finished: the turn did not happen
            else:
                os.rename(entry, final)  # built completely, then interrupted mid-swap
        elif final.exists() or (parent / f".{final.name}.new").exists():
            shutil.rmtree(entry)
        else:
            os.rename(entry, final)
    _fsync_dir(parent)


@contextmanager
def locked(root: Path) -> Iterator[None]:
    """Hold the campaign's lock (an empty `.lock` file) or raise Busy at once."""
    handle = open(root / ".lock", "a+b")
    try:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EACCES):
                raise Busy(f"{root} is busy: another pbem command is working on it; try again shortly") from None
            raise
        yield
    finally:
        handle.close()
