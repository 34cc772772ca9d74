"""Orders in the players' own words, checked the way a player checks them (`pbem check FILE --campaign
DIR`) and filed from mail: Sid's Secrets sentences and several orders in one line (design 17), names
written without their accents (one matcher for every game), a file saved in a Windows code page."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from reliability_kit import NOW
from test_ingest import mail, maildir

from adjudicator.campaign.create import create
from adjudicator.campaign.pipeline import read_orders
from adjudicator.cli import main
from adjudicator.common.rng import Rng
from adjudicator.games.base import Seat
from adjudicator.games.secrets import GAME
from adjudicator.mail.ingest import ingest

PLAYERS = [{"id": seat, "name": name, "email": f"{seat}@example.org"}
           for seat, name in (("ed", "Ed Wu"), ("bob", "Bob"), ("carla", "Carla Díaz"), ("j1", "José"), ("j2", "Jose"))]
"""Carla's name has an accent; 'José' and 'Jose' are two seats that one spelling without accents would join."""


@pytest.fixture
def secrets(tmp_path: Path) -> Path:
    root = tmp_path / "sids"
    create(root, "secrets", [dict(p) for p in PLAYERS], seed="words", gm_email="GM <gm@example.org>", name="Sids")
    return root


def _password(root: Path, player: str) -> str:
    return yaml.safe_load((root / "gm" / "passwords.yaml").read_text())[player]


def _check(root: Path, tmp_path: Path, orders: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    order = tmp_path / "ed.yaml"
    order.write_text(f'player: ed\nturn: 1\npassword: "{_password(root, "ed")}"\norders:\n{orders}', encoding="utf-8")
    code = main(["check", str(order), "--campaign", str(root)])
    return code, " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("written, orders", [
    ("my sid 4 guards 9", [{"sid": 4, "guard": 9}]),
    ("SID 7 guards my 9", [{"sid": 7, "guard": 9}]),
    ("SID 4 steals secret 9 from Bob", [{"sid": 4, "steal": {"player": "bob", "secret": 9}}]),
    ("Steal Carla's secret 8 with SID 5", [{"sid": 5, "steal": {"player": "carla", "secret": 8}}]),
    ("guard my secret 6 with SID 3", [{"sid": 3, "guard": 6}]),
    ("SID 2 steals Bob's secret 10, SID 3 guards my secret 10",
     [{"sid": 2, "steal": {"player": "bob", "secret": 10}}, {"sid": 3, "guard": 10}]),
    ("my SID 2 nicks Bob's 10 and SID 3 sits on my 10",
     [{"sid": 2, "steal": {"player": "bob", "secret": 10}}, {"sid": 3, "guard": 10}]),
    ("SID 1 steal Bob 9, SID 6 steal Carla 6; then SID 7 protects secret 2",
     [{"sid": 1, "steal": {"player": "bob", "secret": 9}}, {"sid": 6, "steal": {"player": "carla", "secret": 6}},
      {"sid": 7, "guard": 2}]),
    ("SID 2 steal Carla Diaz 10", [{"sid": 2, "steal": {"player": "carla", "secret": 10}}]),
    ("SID 2 steal CARLA DÍAZ 10", [{"sid": 2, "steal": {"player": "carla", "secret": 10}}]),
    ("SID 2 steal ed wu 10", []),
    ("SID 4 steals Diaz's secret 9", [{"sid": 4, "steal": {"player": "carla", "secret": 9}}]),
    ("SID 2 steal Wu 10", []),
    ("SIDs 3 and 7 steal Bob 9", [{"sid": 3, "steal": {"player": "bob", "secret": 9}}, {"sid": 7, "steal": {"player": "bob", "secret": 9}}]),
    ("my SIDs 1, 2 & 5 sit on my 10", [{"sid": 1, "guard": 10}, {"sid": 2, "guard": 10}, {"sid": 5, "guard": 10}]),
])
def test_a_secrets_sentence_is_the_orders_it_means(written: str, orders: list) -> None:
    """Design 17: the rulebook's shorthand, the players' own verbs and word orders, several orders in one
    line; a name with or without its accents; the player's own name is no victim (void)."""
    state = GAME.setup([Seat(p["id"], p["name"]) for p in PLAYERS], {n: o.default for n, o in GAME.options.items()}, Rng("w", 0))
    readings = read_orders(GAME, state, "ed", [written])
    assert [r.order for r in readings if r.accepted] == orders, [r.void for r in readings]
    assert {r.index for r in readings} == {0}


def test_a_name_without_its_accents_is_the_player_through_check(secrets: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue: '{player: Carla Diaz}' was void ("there is no player called 'Carla Diaz'") for the seat 'Carla Díaz'."""
    code, out = _check(secrets, tmp_path, "  - {sid: 2, steal: {player: Carla Diaz, secret: 10}}\n", capsys)
    assert code == 0, out
    assert "SID 2 tries to steal Carla Díaz's secret 10" in out


def test_two_players_one_spelling_is_answered_not_guessed(secrets: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """'José' and 'Jose' are two seats: 'Jose' names its exact holder, 'Josè' (both once accents are folded)
    is answered with both."""
    code, out = _check(secrets, tmp_path, "  - SID 1 steal Jose 10\n  - SID 2 steal Josè 9\n", capsys)
    assert code == 1
    assert "SID 1 tries to steal Jose's secret 10" in out
    assert "'Josè' is the name of more than one player (j1, j2): name the player by id" in out


def test_two_orders_in_one_line_through_check(secrets: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _check(secrets, tmp_path, "  - SID 2 steals Bob's secret 10, SID 3 guards my secret 10\n", capsys)
    assert code == 0, out
    assert "SID 2 tries to steal Bob's secret 10" in out and "SID 3 guards your secret 10" in out


def test_a_windows_code_page_file_is_answered_with_the_line_and_the_fix(secrets: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file saved in Windows-1252 (smart quotes around the password) is not guessed at: the answer names the
    line, the column, what the byte would be in Windows-1252 and how to send it again."""
    order = tmp_path / "ed.yaml"
    order.write_bytes(f"player: ed\nturn: 1\npassword: \u201c{_password(secrets, 'ed')}\u201d\norders: []\n".encode("cp1252"))
    assert main(["check", str(order), "--campaign", str(secrets)]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert ("the file is not UTF-8 text: line 3, column 11 holds the byte 0x93 ('\u201c' in Windows-1252, the code page "
            "Windows editors save in), which UTF-8 does not allow; save the file as UTF-8") in out
    assert _password(secrets, "ed") not in out


def test_a_mail_of_two_orders_in_a_sentence_is_filed(secrets: Path, tmp_path: Path) -> None:
    """The trial's mail 'my SID 2 nicks Bob's 10 and SID 3 sits on my 10', from Ed's address with his password."""
    body = f"my SID 2 nicks Bob's 10 and SID 3 sits on my 10\npassword: {_password(secrets, 'ed')}\n"
    [entry] = ingest(secrets, [maildir(tmp_path, [mail("Ed Wu <ed@example.org>", body, subject="orders", message_id="<w1@x>")])],
                     now=NOW).entries
    assert entry.status == "filed", entry.reason
    filed = yaml.safe_load((secrets / "turn-001" / "orders" / "ed.yaml").read_text())
    assert filed["orders"] == ["my SID 2 nicks Bob's 10 and SID 3 sits on my 10"]


def test_a_player_line_without_the_names_accents_is_the_seat(secrets: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`player: Carla Diaz` found the seat whose name is Carla Díaz, as a steal naming her does (one matcher)."""
    order = tmp_path / "carla.yaml"
    order.write_text(f'player: Carla Diaz\nturn: 1\npassword: "{_password(secrets, "carla")}"\norders:\n  - {{sid: 1, guard: 3}}\n', encoding="utf-8")
    code = main(["check", str(order), "--campaign", str(secrets)])
    out = " ".join(capsys.readouterr().out.split())
    assert code == 0 and "is not a player" not in out, out


def test_a_player_is_named_by_one_word_of_the_display_name_as_at_the_table() -> None:
    """An outside trial: four players of nine wrote `SID 6 steal Bartholomew 9` for "Bartholomew
    Fitzwilliam-Ashworth" and lost the order ("there is no player called 'Bartholomew'"). A word of the
    name now names the player; a word two names share names both (answered, never guessed); an id, a
    whole name and a one-word name still come first."""
    from adjudicator.games.players import named

    seats = ["bart", "kostas", "ed1", "ed2", "wu"]
    names = {"bart": "Bartholomew Fitzwilliam-Ashworth", "kostas": "Konstantinos Papadopoulos", "ed1": "Ed Wu",
             "ed2": "Ed Smith", "wu": "Wu"}
    assert named(seats, names, "Bartholomew") == ["bart"]
    assert named(seats, names, "fitzwilliam-ashworth") == ["bart"]
    assert named(seats, names, "PAPADOPOULOS") == ["kostas"]
    assert named(seats, names, "Ed") == ["ed1", "ed2"]
    assert named(seats, names, "Wu") == ["wu"], "the seat whose id (and whole name) is Wu, not a word of Ed Wu's"
    assert named(seats, names, "Smith") == ["ed2"]
    assert named(seats, names, "Fitzwilliam") == [], "a part of a hyphenated word is no word of the name"
