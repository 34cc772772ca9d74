"""The tests' own installer of Debian packages (tests/system.py): what it does where it cannot install."""

from pathlib import Path

import pytest

import system


def test_a_present_program_costs_a_look_and_nothing_more(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(system, "_install", lambda *_: pytest.fail("nothing to install"))
    assert system.need(system.OPENSSL) == system.OPENSSL


def test_a_missing_program_that_cannot_be_installed_fails_and_names_its_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = str(tmp_path / "no-such-program")
    monkeypatch.setitem(system.NEEDED, missing, ("some-debian-package",))
    monkeypatch.setattr(system.os, "geteuid", lambda: 1000)  # not root: apt-get would refuse
    with pytest.raises(AssertionError, match=r"no-such-program is missing .* apt-get install -y some-debian-package"):
        system.need(missing)
