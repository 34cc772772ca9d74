"""Shared pieces of the reliability suites (tests/test_reliability_*.py): real commands, real mail.

`PBEM_THOROUGH=1` switches every suite to its large counts (docs/reliability.md).
"""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
CRASHPOINT = Path(__file__).resolve().parent / "crashpoint.py"
THOROUGH = os.environ.get("PBEM_THOROUGH") == "1"
ENV = {**os.environ, "PYTHONPATH": str(REPO)}
NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
"""The moment in-process ingests run at (the mail of the suites is dated before it)."""


def pbem(*args: Any, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The real command in a child process, from this checkout (never an installed copy)."""
    return subprocess.run(
        [sys.executable, "-m", "adjudicator", *map(str, args)], capture_output=True, text=True, env=ENV, cwd=cwd or REPO, timeout=timeout, check=False
    )


def crashpoint(point: int | str, *args: Any, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The real command, killed (or paused) before its Nth file-system change: see tests/crashpoint.py."""
    return subprocess.run(
        [sys.executable, str(CRASHPOINT), str(point), *map(str, args)], capture_output=True, text=True, env={**ENV, **(env or {})}, timeout=120, check=False
    )


def uninterrupted(before: Path, at: Path, command: str, *args: Any) -> tuple[int, dict[str, bytes]]:
    """`pbem COMMAND` run once, whole, on a copy of `before` made at `at`: (its file-system changes, the files it leaves)."""
    shutil.copytree(before, at)
    counted = crashpoint(0, command, at, *args)
    assert counted.returncode == 0, counted.stderr
    return int(counted.stderr.strip().splitlines()[-1]), snapshot(at)


def spread(count: int, wanted: int) -> list[int]:
    """`wanted` points spread evenly over 1..count (every point when thorough)."""
    if THOROUGH or count <= wanted:
        return list(range(1, count + 1))
    return sorted({1 + (count - 1) * i // (wanted - 1) for i in range(wanted)})


def snapshot(root: Path, skip: tuple[str, ...] = ()) -> dict[str, bytes]:
    """Every visible file: run-time dot files and folders are not part of a campaign's state."""
    found = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if path.is_file() and not any(part.startswith(".") for part in relative.parts) and str(relative) not in skip:
            found[str(relative)] = path.read_bytes()
    return found


def assert_clean_failure(result: subprocess.CompletedProcess[str], allowed: tuple[int, ...] = (0, 1)) -> None:
    """Exit 0 or 1, and never a Python traceback."""
    assert result.returncode in allowed, (result.returncode, result.stderr[-2000:])
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout, result.stderr[-2000:]


# -- a real SMTP server ----------------------------------------------------------------


class Inbox:
    """An aiosmtpd handler that keeps every message it accepts."""

    def __init__(self) -> None:
        self.received: list[tuple[list[str], EmailMessage]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        self.received.append((list(envelope.rcpt_tos), message))
        return "250 Message accepted for delivery"

    def ids(self) -> list[str]:
        return [str(m["Message-ID"]) for _, m in self.received]


@contextmanager
def smtp_server() -> Iterator[tuple[Inbox, str]]:
    from aiosmtpd.controller import Controller

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, f"127.0.0.1:{port}"
    finally:
        controller.stop()


def order_mail(sender: str, text: str, message_id: str, date: str = "Mon, 30 Nov 2026 10:00:00 +0000", attach: bool = True) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "gm@example.org", "orders"
    message["Date"], message["Message-ID"] = date, message_id
    if attach:
        message.set_content("Orders attached.\n")
        message.add_attachment(text.encode("utf-8"), maintype="application", subtype="octet-stream", filename="orders.yaml")
    else:
        message.set_content(text)
    return message.as_bytes()
