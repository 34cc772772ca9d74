"""The Debian packages the tests' real servers and browser come from, installed by the tests themselves.

README's test command (`pip install '.[test]' && python3 -m pytest -q`) must work on a fresh
machine, which has Python and the OS but not Dovecot or Chromium. So each test that needs one of
these asks `need(...)` before it starts it: a program already there costs a file check; a missing
one is installed with apt-get when the tests run as root (as on CI and a fresh machine), once, under
a lock that two test runs on one machine share. Where it cannot be installed (not root, no apt-get,
the install failed), the test fails and says what to install: it is never skipped.

`.ci/run` calls `python3 tests/system.py` first, so that CI installs them all before the clock of
any test starts.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

DOVECOT = "/usr/sbin/dovecot"
"""The judge's IMAP tests' server (tests/servers.py)."""
OPENSSL = "/usr/bin/openssl"
"""It makes that Dovecot's self-signed certificate."""
CHROMIUM = "/usr/bin/chromium"
"""The archive's and the boards' browser tests (tests/chromium.py)."""
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
"""The font the boards' PNGs are drawn in and their texts measured by (publish/png.py)."""

NEEDED: dict[str, tuple[str, ...]] = {
    DOVECOT: ("dovecot-imapd",),
    OPENSSL: ("openssl",),
    CHROMIUM: ("chromium",),
    DEJAVU: ("fonts-dejavu-core",),
}
"""What each test needs on disk, and the Debian packages that put it there."""

LOCK = Path("/tmp/pbem-tests-apt.lock")
"""Held while installing: two test runs on one machine (a venv and the bare interpreter) must not
run apt-get at once, and the second finds the first's install done."""

_updated = False


def need(path: str) -> str:
    """`path` (one of NEEDED's), installed first if it is missing; an AssertionError that says why if it cannot be."""
    if os.path.exists(path):
        return path
    packages = NEEDED[path]
    apt = shutil.which("apt-get")
    assert apt and os.geteuid() == 0, (
        f"{path} is missing and these tests cannot install it (they need root and apt-get): "
        f"apt-get install -y {' '.join(packages)}")
    with open(LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(path):  # another run may have installed it while this one waited
            _install(apt, packages)
    assert os.path.exists(path), f"apt-get installed {' '.join(packages)}, but {path} is still missing"
    return path


def _install(apt: str, packages: tuple[str, ...]) -> None:
    global _updated
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    if not _updated:  # a fresh machine's package lists are empty
        _run([apt, "-o", "DPkg::Lock::Timeout=600", "update"], environment)
        _updated = True
    # Another apt on the machine (an unattended upgrade) holds dpkg's lock for a while: wait for it.
    _run([apt, "-o", "DPkg::Lock::Timeout=600", "install", "-y", *packages], environment)


def _run(command: list[str], environment: dict[str, str]) -> None:
    done = subprocess.run(command, env=environment, capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}"


if __name__ == "__main__":
    for needed in NEEDED:
        print(need(needed))
