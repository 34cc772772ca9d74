"""Stand-ins for abandoned seats (design 14, docs/standins.md): who is played, the files written,
what the GM and the public are told, and that audit replays a stand-in's turn like any other."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from adjudicator.campaign.adjudicate import Refused, adjudicate
from adjudicator.campaign.audit import audit
from adjudicator.campaign.create import create
from adjudicator.campaign.demo import write_demo_orders
from adjudicator.campaign.folder import Campaign, CampaignError, read_yaml
from adjudicator.campaign.standins import RECORD_FILE
from adjudicator.cli import main

PLAYERS = [{"id": p, "name": p.title()} for p in ("ann", "bob", "cat")]


def pbem(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out + err


def _new(root: Path, game: str = "secrets", *, passwords: bool = True, abandon_after: int | None = None) -> dict[str, str]:
    create(root, game, PLAYERS, seed=f"standins-{game}", passwords=passwords)
    if abandon_after is not None:
        config = read_yaml(root / "campaign.yaml")
        config["judge"] = {"abandon_after": abandon_after}
        (root / "campaign.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    return {str(k): str(v) for k, v in read_yaml(root / "gm" / "passwords.yaml").items()} if passwords else {}


def _orders_except(root: Path, passwords: dict[str, str], silent: str | None) -> None:
    write_demo_orders(Campaign.open(root), passwords)
    if silent is not None:
        (Campaign.open(root).turn_dir(Campaign.open(root).last_turn + 1) / "orders" / f"{silent}.yaml").unlink()


def _results(root: Path, turn: int) -> dict:
    return json.loads((root / f"turn-{turn:03d}" / "results.json").read_text())


def test_a_seat_silent_abandon_after_turns_in_a_row_is_played_by_the_standin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "camp"
    passwords = _new(root, abandon_after=2)
    _orders_except(root, passwords, "cat")
    code, out = pbem(capsys, "adjudicate", root, "--nmr")
    assert code == 0 and "abandoned" not in out  # one NMR is not yet two in a row
    _orders_except(root, passwords, "cat")
    code, out = pbem(capsys, "adjudicate", root, "--nmr")
    assert "cat: abandoned after 2 turns without valid orders in a row: the stand-in plays the seat from turn 3" in " ".join(out.split())

    _orders_except(root, passwords, "cat")  # cat is silent again: the stand-in covers the seat, nobody waits
    code, out = pbem(capsys, "adjudicate", root)
    assert code == 0, out
    assert "cat: orders written by the stand-in (abandoned seat, 2 NMRs in a row)" in out
    written = (root / "turn-003" / "orders" / "cat.yaml").read_text()
    assert written.startswith("# Written by the stand-in") and f"password: {passwords['cat']}" in written
    results = _results(root, 3)
    assert results["standins"] == {"cat": {"reason": "abandoned", "after": 2}}
    cat = results["submissions"]["cat"]
    assert cat["status"] == "accepted" and cat["orders"] and not [o for o in cat["orders"] if o["void"]]
    public = (root / "turn-003" / "reports" / "public.md").read_text()
    # Sid's Secrets makes an NMR public (SECRETS-20), so the public is told who stands in, and why.
    assert "Played by the stand-in this turn: Cat (the seat was abandoned after 2 turns without valid orders)." in public
    assert "The stand-in wrote your orders for turn 3: your seat counted as abandoned after 2 turns without valid orders." in (
        root / "turn-003" / "reports" / "cat.txt").read_text()
    manifest = json.loads((root / "turn-003" / "manifest.json").read_text())
    assert RECORD_FILE in manifest["inputs"]
    assert audit(root).divergence is None

    # Cat comes back: their own file is theirs, and the seat is no longer abandoned.
    _orders_except(root, passwords, None)
    adjudicate(root)
    assert "standins" not in _results(root, 4)
    _orders_except(root, passwords, "cat")
    with pytest.raises(Refused, match="waiting for orders from cat"):
        adjudicate(root)  # one NMR after playing again is not an abandonment
    assert audit(root).divergence is None


def test_the_gm_turns_a_standin_on_and_off(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "camp"
    passwords = _new(root)
    code, out = pbem(capsys, "standin", root, "bob", "on")
    assert code == 0 and "from turn 1" in out
    assert read_yaml(root / "campaign.yaml")["standins"] == {"bob": {"on": True, "from": 1}}
    _orders_except(root, passwords, "bob")
    code, out = pbem(capsys, "status", root)  # the seat is not waited for, and status says why
    assert code == 0 and "Every due player has sent a valid file; the stand-in plays bob." in out and "Still waiting" not in out
    outcome = adjudicate(root)
    assert outcome.output.standins == {"bob": {"reason": "gm"}}
    assert "Played by the stand-in this turn: Bob (at the GM's word)." in (root / "turn-001" / "reports" / "public.md").read_text()

    code, out = pbem(capsys, "standin", root, "bob", "off")
    assert code == 0 and "no stand-in from turn 2" in out
    _orders_except(root, passwords, "bob")
    with pytest.raises(Refused, match="waiting for orders from bob"):
        adjudicate(root)
    assert not (root / "turn-002" / "orders" / "bob.yaml").exists() and not (root / "turn-002" / RECORD_FILE).exists()
    adjudicate(root, nmr=True)
    assert _results(root, 2)["submissions"]["bob"]["status"] == "missing"
    assert audit(root).divergence is None

    code, out = pbem(capsys, "standin", root, "zed", "on")
    assert code == 1 and "no seat 'zed'" in out


def test_two_secrets_stand_ins_at_one_table_know_each_other_and_never_go_for_one_secret(tmp_path: Path) -> None:
    """The GM hands Bob and Cat to the stand-in: each turn's stand-in files come from views that name
    both seats (Sid's Secrets' public report names them), and no secret gets SIDs from both."""
    from adjudicator.common.rng import Rng
    from adjudicator.games.base import STANDINS, standin_view

    root = tmp_path / "camp"
    passwords = _new(root)
    for seat in ("bob", "cat"):
        assert main(["standin", str(root), seat, "on"]) == 0
    for number in (1, 2, 3):
        _orders_except(root, passwords, "bob")
        (root / f"turn-{number:03d}" / "orders" / "cat.yaml").unlink()
        adjudicate(root)
        campaign = Campaign.open(root)
        before, game = campaign.state(number - 1), campaign.game
        targets = {}
        for seat in ("bob", "cat"):
            filed = read_yaml(root / f"turn-{number:03d}" / "orders" / f"{seat}.yaml")["orders"]
            view = standin_view(game, before, seat, ["cat", "bob"])
            assert view[STANDINS] == ["bob", "cat"]
            assert filed == game.standin_orders(view, seat, Rng(campaign.seed() or "", number).stream(f"standin/{seat}"))
            targets[seat] = {(o["steal"]["player"], o["steal"]["secret"]) for o in filed if "steal" in o}
        assert targets["bob"] and targets["cat"] and not targets["bob"] & targets["cat"], f"turn {number}: {targets}"
    assert audit(root).divergence is None


def test_a_players_own_file_in_place_of_the_standins_counts_as_the_players(tmp_path: Path) -> None:
    root = tmp_path / "camp"
    passwords = _new(root)
    pbem_word = main(["standin", str(root), "cat", "on"])
    assert pbem_word == 0
    _orders_except(root, passwords, None)
    # The stand-in filed first (as when a refused run had filed it), then the player's own file arrived.
    (root / "turn-001" / RECORD_FILE).write_text(yaml.safe_dump({"cat": {"reason": "gm", "sha256": "0" * 64}}))
    outcome = adjudicate(root)
    assert outcome.output.standins == {}
    assert "standins" not in _results(root, 1)
    assert "Played by the stand-in" not in (root / "turn-001" / "reports" / "public.md").read_text()
    assert audit(root).divergence is None


def test_a_standin_without_the_seats_password_says_so_and_writes_nothing(tmp_path: Path) -> None:
    root = tmp_path / "camp"
    passwords = _new(root)
    main(["standin", str(root), "cat", "on"])
    (root / "gm" / "passwords.yaml").write_text(yaml.safe_dump({k: v for k, v in passwords.items() if k != "cat"}))
    _orders_except(root, passwords, "cat")
    with pytest.raises(CampaignError, match="has no password for cat"):
        adjudicate(root)
    assert not (root / "turn-001" / "orders" / "cat.yaml").exists()
    assert not (root / "turn-001" / "manifest.json").exists()


def test_a_bad_abandon_after_is_named(tmp_path: Path) -> None:
    root = tmp_path / "camp"
    passwords = _new(root, abandon_after=0)
    _orders_except(root, passwords, None)
    with pytest.raises(CampaignError, match="abandon_after must be a whole number of turns, 1 or more, not 0"):
        adjudicate(root)


@pytest.mark.parametrize("game", ["identity", "hide", "jekyll"])
def test_where_an_nmr_is_private_a_standins_turn_looks_like_the_players_own(game: str, tmp_path: Path) -> None:
    """The same orders, written by the stand-in or sent by the player: every report the same, byte for byte."""
    root = tmp_path / "standin"
    players = PLAYERS[:2] if game == "jekyll" else PLAYERS
    create(root, game, players, seed=f"private-{game}", passwords=False)
    seat = players[-1]["id"]
    main(["standin", str(root), seat, "on"])
    for number in (1, 2):
        write_demo_orders(Campaign.open(root), {})
        (root / f"turn-{number:03d}" / "orders" / f"{seat}.yaml").unlink()
        own = tmp_path / f"own-{number}"
        shutil.copytree(root, own)
        adjudicate(root)  # the stand-in files the seat's orders
        filed = root / f"turn-{number:03d}" / "orders" / f"{seat}.yaml"
        shutil.copy(filed, own / f"turn-{number:03d}" / "orders" / f"{seat}.yaml")  # the player sends the very same
        adjudicate(own)
        assert json.loads((root / f"turn-{number:03d}" / "results.json").read_text())["standins"] == {seat: {"reason": "gm"}}
        for report in sorted((root / f"turn-{number:03d}" / "reports").iterdir()):
            if report.stem != seat:
                assert report.read_bytes() == (own / f"turn-{number:03d}" / "reports" / report.name).read_bytes(), f"turn {number}: {report.name}"
        # The seat's own report alone says who wrote its orders.
        assert f"The stand-in wrote your orders for turn {number}: the GM handed your seat to it." in (
            root / f"turn-{number:03d}" / "reports" / f"{seat}.txt").read_text()
        assert "stand-in" not in (own / f"turn-{number:03d}" / "reports" / f"{seat}.txt").read_text()
    assert audit(root).divergence is None


def test_pbem_demo_standins_plays_every_seat_with_the_stand_in(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from adjudicator.common.rng import Rng

    root = tmp_path / "demo"
    code, out = pbem(capsys, "demo", "hidekids", root, "--standins", "--no-passwords", "--seed", "s")
    assert code == 0 and "audit: clean" in out, out
    campaign = Campaign.open(root)
    game, opening = campaign.game, campaign.state(0)
    for player in game.due(opening):
        sent = yaml.safe_load((root / "turn-001" / "orders" / f"{player}.yaml").read_text())["orders"]
        assert sent == game.standin_orders(game.view(opening, player), player, Rng(campaign.seed() or "", 1).stream(f"standin/{player}"))


def test_a_damaged_standins_record_is_named_and_nothing_is_written(tmp_path: Path) -> None:
    root = tmp_path / "camp"
    passwords = _new(root)
    main(["standin", str(root), "cat", "on"])
    _orders_except(root, passwords, "cat")
    (root / "turn-001" / RECORD_FILE).write_text("cat: [not, a, record]\n")
    with pytest.raises(CampaignError, match=r"turn-001/standins.yaml is damaged \(not a list of seats"):
        adjudicate(root)
    assert not (root / "turn-001" / "manifest.json").exists() and not (root / "turn-001" / "orders" / "cat.yaml").exists()


def test_a_replacement_player_starts_with_no_nmrs_and_a_finished_game_needs_no_stand_in(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from adjudicator.judge.replace import replace

    root = tmp_path / "camp"
    passwords = _new(root, abandon_after=1)
    _orders_except(root, passwords, "cat")
    adjudicate(root, nmr=True)  # cat's one NMR abandons the seat at abandon_after: 1
    replace(root, "cat", "Carla")
    passwords = {str(k): str(v) for k, v in read_yaml(root / "gm" / "passwords.yaml").items()}
    _orders_except(root, passwords, "cat")
    with pytest.raises(Refused, match="waiting for orders from cat"):
        adjudicate(root)  # Carla has missed nothing yet: the seat is hers to play
    while not Campaign.open(root).over:
        _orders_except(root, passwords, None)
        adjudicate(root)
    code, out = pbem(capsys, "standin", root, "cat", "on")
    assert code == 1 and "the game is over" in out


def test_the_report_mail_of_the_turn_that_abandons_a_seat_tells_its_player(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trial 5: the turn that abandoned a seat mailed its player a plain report with an order form, and only the next
    turn's report said the stand-in had played. The mail of that turn's report says it first."""
    import email
    import email.policy

    from adjudicator.mail.reportmail import report_messages

    root = tmp_path / "camp"
    passwords = _new(root, abandon_after=2)
    config = read_yaml(root / "campaign.yaml")
    config["gm_email"] = "gm@example.org"
    for seat in config["players"]:
        seat["email"] = f"{seat['id']}@example.org"
    (root / "campaign.yaml").write_text(yaml.safe_dump(config, sort_keys=False))

    def said(turn: int, seat: str) -> str:
        files, _ = report_messages(Campaign.open(root), turn)
        message = email.message_from_bytes(files[f"turn-{turn:03d}/report-{seat}.eml"], policy=email.policy.default)
        return " ".join(message.get_body(("plain",)).get_content().split())

    for turn in (1, 2):
        _orders_except(root, passwords, "cat")
        assert pbem(capsys, "adjudicate", root, "--nmr")[0] == 0
    told = said(2, "cat")
    assert told.startswith("Your seat now counts as abandoned: 2 turns in a row without valid orders. From turn 3 the judge's stand-in plays it"), told
    assert "send your orders for turn 3 with the form at the end of this report" in told
    assert "abandoned" not in said(1, "cat") and "abandoned" not in said(2, "ann")
