import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

if os.environ.get("PBEM_THOROUGH") == "1":  # one switch for every suite's large counts (docs/reliability.md)
    os.environ.setdefault("HYPOTHESIS_PROFILE", "thorough")
    os.environ.setdefault("PBEM_CRASH_POINTS", "all")


def pytest_sessionstart(session: pytest.Session) -> None:
    """The boards are drawn (PNG) and measured in DejaVu Sans: installed first where a fresh machine lacks it."""
    from system import DEJAVU, need

    need(DEJAVU)


@pytest.fixture(scope="module")
def imap() -> Iterator[Any]:
    """A real Dovecot on a loopback port for the tests of one module (tests/servers.py)."""
    from servers import dovecot

    with dovecot() as server:
        yield server


@pytest.fixture
def smtp() -> Iterator[tuple[Any, str]]:
    """A real SMTP server (aiosmtpd) for one test: (its handler, HOST:PORT)."""
    from reliability_kit import smtp_server

    with smtp_server() as server:
        yield server
