"""Crash-safe writes and the campaign lock.

A file is written to a dot-named temporary beside it, flushed to disk and
renamed over the old one. A whole turn is built in a dot-named folder (`stage`),
made durable (`flush`, which a batch of campaigns shares), swapped into place
(`swap`) and the renames made durable (`settle`). `recover` undoes a swap that a
crash interrupted (or finishes one whose old folder was being removed), so a
campaign is always either before or after a turn.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import shutil
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
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


def _filesystems(paths: Iterable[Path]) -> dict[int, Path]:
    """One folder per filesystem among `paths` (campaigns of one batch may live on several disks)."""
    found: dict[int, Path] = {}
    for path in paths:
        found.setdefault(os.stat(path).st_dev, path)
    return found


def _sync_filesystems(folders: Iterable[Path]) -> bool:
    """syncfs(2) once per filesystem holding `folders`; False where syncfs is missing or fails."""
    syncfs = _syncfs()
    if syncfs is None:
        return False
    for folder in _filesystems(folders).values():
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            if syncfs(fd) != 0:
                return False
        finally:
            os.close(fd)
    return True


@dataclass
class Staged:
    """A folder built completely under `.NAME.new`, not yet durable and not yet in place."""

    final: Path
    new: Path
    written: list[Path] = field(default_factory=list)
    folders: set[Path] = field(default_factory=set)
    check: Callable[[Path], list[str]] | None = None
    """Given the old folder once `swap` has renamed it away (no file can arrive in it by its name
    any more), what in it changed since the build began; `swap` puts the old folder back and
    discards the build when it names anything."""


def _link_tree(source: Path, target: Path, staged: Staged, replaced: set[Path]) -> None:
    """`source`'s files hard-linked into a new folder `target` (but those in `replaced`, which
    are written anew): no bytes copied, and the originals stay in place until the swap."""
    os.mkdir(target)
    staged.folders.add(target)
    for entry in sorted(os.scandir(source), key=lambda e: e.name):
        destination = target / entry.name
        # A dot-named entry is a run-time file (an editor's `.tony.yaml.tmp`, here now and gone the next
        # instant): never part of a turn.
        if destination in replaced or entry.name.startswith("."):
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                _link_tree(Path(entry.path), destination, staged, replaced)
            elif entry.is_symlink():
                os.symlink(os.readlink(entry.path), destination)
            else:
                try:
                    os.link(entry.path, destination)
                except FileNotFoundError:
                    raise
                except OSError:  # a filesystem without hard links
                    shutil.copy2(entry.path, destination)
                staged.written.append(destination)
        except FileNotFoundError:  # removed while the build was made: the check at the swap names it as gone
            continue


def _write_files(staged: Staged, root: Path, files: dict[str, bytes]) -> None:
    for relative, data in sorted(files.items()):
        target = root / relative
        if target.parent not in staged.folders:
            target.parent.mkdir(parents=True, exist_ok=True)
            staged.folders.add(target.parent)
        _write_new(target, data, sync=False)
        staged.written.append(target)


def flush(batch: Sequence[Staged]) -> None:
    """Make staged folders durable before they are renamed into place.

    One syncfs per filesystem costs about what one fsync does, where a turn
    writes some sixteen files, and a batch of turns shares it; without syncfs
    each file and folder is fsynced.
    """
    if not batch or _sync_filesystems(s.new for s in batch):
        return
    for staged in batch:
        for path in staged.written:
            with open(path, "rb") as handle:
                os.fsync(handle.fileno())
        for folder in sorted(staged.folders, key=lambda p: -len(p.parts)):
            _fsync_dir(folder)


def write_file(path: Path, data: bytes) -> None:
    """Replace `path` with `data` atomically."""
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.unlink(missing_ok=True)
    _write_new(temporary, data)
    os.replace(temporary, path)
    _fsync_dir(path.parent)


def replace_file(path: Path, data: bytes) -> None:
    """Replace `path` with `data` atomically for readers, without waiting for the disk: a
    command that writes many files (the archive site's pages) makes them durable together
    afterwards, with one `settle` of their folder."""
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.unlink(missing_ok=True)
    _write_new(temporary, data, sync=False)
    os.replace(temporary, path)


def write_tree(root: Path, files: dict[str, bytes]) -> None:
    """Write new files under a fresh folder and make them durable (the folder itself is swapped)."""
    staged = Staged(root, root)
    _write_files(staged, root, files)
    staged.folders.add(root)
    flush([staged])


def _staging(final: Path) -> tuple[Path, Path]:
    return final.with_name(f".{final.name}.new"), final.with_name(f".{final.name}.old")


def stage(final: Path, files: dict[str, bytes], keep_existing: bool = True, check: Callable[[Path], list[str]] | None = None) -> Staged:
    """Build what `final` will hold (its current content, where `files` write over it) under
    `.NAME.new`; `check` is what `swap` asks of the old folder (see Staged.check)."""
    new, _ = _staging(final)
    if new.exists():
        shutil.rmtree(new)
    staged = Staged(final, new, check=check)
    try:
        if keep_existing and final.exists():
            _link_tree(final, new, staged, {new / name for name in files})
        else:
            new.mkdir()
            staged.folders.add(new)
        _write_files(staged, new, files)
    except BaseException:  # a full disk or a read-only folder: leave no half-built turn taking space
        discard(staged)
        raise
    return staged


def discard(staged: Staged) -> None:
    shutil.rmtree(staged.new, ignore_errors=True)


def swap(staged: Staged) -> list[str]:
    """Rename the old folder away and the new one into place, and return []. A crash between
    the two renames leaves `.NAME.new` complete, `.NAME.old` and no `NAME`: `recover` puts the
    old folder back (the swap did not happen, and a file saved into the old folder just before
    is not lost); a crash once `NAME` is in place leaves the swap done. The renames are
    durable once `settle` has run over the parent folder.

    When the staged `check` finds the old folder changed since the build began (someone saved
    a file into it meanwhile), the old folder is put back as it is, the build is discarded and
    what changed is returned: nothing the build did not see is removed with the old folder."""
    _, old = _staging(staged.final)
    if staged.final.exists():
        if old.exists():
            shutil.rmtree(old)
        os.rename(staged.final, old)
        changed = staged.check(old) if staged.check is not None else []
        if changed:
            os.rename(old, staged.final)
            discard(staged)
            return changed
    os.rename(staged.new, staged.final)
    if old.exists():
        shutil.rmtree(old)
    return []


def settle(parents: Iterable[Path]) -> None:
    """Make renames in `parents` durable: one syncfs per filesystem, or an fsync per folder."""
    parents = sorted(set(parents))
    if parents and not _sync_filesystems(parents):
        for parent in parents:
            _fsync_dir(parent)


def recover(parent: Path) -> None:
    """Finish or undo any folder swap under `parent` that a crash interrupted."""
    changed = False
    for entry in sorted(parent.iterdir()):
        name = entry.name
        if not (name.startswith(".") and name.endswith((".new", ".old"))):
            continue
        changed = True
        final = parent / name[1:-4]
        if name.endswith(".new"):  # sorted before `.NAME.old`: handled first
            if final.exists() or (parent / f".{final.name}.old").exists():
                shutil.rmtree(entry)  # the build never finished, or the swap was cut between its renames: undone
            else:
                os.rename(entry, final)  # built completely where no folder stood: the swap is finished
        elif final.exists():
            shutil.rmtree(entry)  # the swap was done; only the removal of the old folder was cut short
        else:
            os.rename(entry, final)  # cut between the two renames: the old folder comes back
    if changed:
        _fsync_dir(parent)


LOCK_WAIT = 3.0
"""Seconds a command waits for another to let go of the campaign before calling it busy: `pbem ingest`
works through a flood in slices and lets go between them, so `pbem adjudicate` at the deadline gets in."""


@contextmanager
def locked(root: Path, name: str = ".lock", holder: str = "another pbem command", wait: float = LOCK_WAIT) -> Iterator[None]:
    """Hold the campaign's lock (an empty `.lock` file, or another dot-named one), waiting up to
    `wait` seconds for it, or raise Busy."""
    handle = open(root / name, "a+b")
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
                if time.monotonic() >= deadline:
                    raise Busy(f"{root} is busy: {holder} is working on it; try again shortly") from None
                time.sleep(0.01)
        yield
    finally:
        handle.close()
