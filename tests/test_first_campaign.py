"""What a new GM and new players trip over (issue 16, and the small items of issue 15): each
message says what is wrong in the players' words, once, and nothing untrue."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli import campaign, passwords, pbem  # noqa: F401  (campaign is a fixture)

from adjudicator.campaign.folder import Campaign
from adjudicator.campaign.pipeline import FORM_PASSWORD


def _check(capsys: pytest.CaptureFixture[str], root: Path, path: Path, text: str) -> tuple[int, str]:
    path.write_text(text, encoding="utf-8")
    code, out, _ = pbem(capsys, "check", path, "--campaign", root)
    return code, out


def test_a_misspelt_player_with_the_right_password_is_not_called_a_wrong_password(
    campaign: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path  # noqa: F811
) -> None:
    right = passwords(campaign)["tony"]
    code, out = _check(capsys, campaign, tmp_path / "tony.yaml", f'player: tonny\nturn: 1\npassword: "{right}"\norders: []\n')
    assert code == 1 and "says 'tonny' but the file is tony.yaml" in out, out
    assert "password" not in out and "expected form" not in out, out
    # Design 17: the display name, or the id in other capitals, is read as the id it names.
    code, out = _check(capsys, campaign, tmp_path / "tony.yaml", f'player: Tony\nturn: 1\npassword: "{right}"\norders: []\n')
    assert code == 0 and "accepted for tony" in out, out
    code, out = _check(capsys, campaign, tmp_path / "x.yaml", 'player: Sue\nturn: 1\npassword: "nope"\norders: []\n')
    assert "password: is not this player's password" in out and "not a player of this campaign" not in out, out


def test_the_forms_placeholder_password_is_named_as_such(campaign: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:  # noqa: F811
    form = (campaign / "turn-000" / "reports" / "tony.txt").read_text(encoding="utf-8")
    assert f'password: "{FORM_PASSWORD}"' in form
    code, out = _check(capsys, campaign, tmp_path / "tony.yaml", f'player: tony\nturn: 1\npassword: "{FORM_PASSWORD}"\norders: []\n')
    assert code == 1 and "you left the form's placeholder in" in out and "is not this player's password" not in out, out


def test_missing_fields_are_named_once_and_bare_keys_as_written(campaign: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:  # noqa: F811
    code, out = _check(capsys, campaign, tmp_path / "tony.yaml", "colour: red\n")
    assert out.count("is missing the field 'player', the field 'turn', the field 'orders'") == 1, out
    right = passwords(campaign)["tony"]
    code, out = _check(capsys, campaign, tmp_path / "tony.yaml", f'player: tony\nturn: 1\npassword: "{right}"\norders: []\nnull: 1\ntrue: 2\n')
    assert "the unknown field null, the unknown field true" in out, out
    assert "None" not in out and "True" not in out


def test_a_rejected_file_is_not_sent_by_hand_as_by_mail(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    orders = campaign / "turn-001" / "orders"
    right = passwords(campaign)
    for player in ("tony", "david"):
        (orders / f"{player}.yaml").write_text(f'player: {player}\nturn: 1\npassword: "{right[player]}"\norders: []\n')
    (orders / "sue.yaml").write_text('player: sue\nturn: 1\npassword: "wrong"\norders: []\n')
    code, out, _ = pbem(capsys, "status", campaign)
    assert "Every due player has sent" not in out and "Still waiting for: sue (file rejected)" in out, out
    assert "rejected" in out and "not this player's password" in out
    code, _, err = pbem(capsys, "adjudicate", campaign)
    assert code == 1 and "waiting for orders from sue (file rejected" in err and not (campaign / "turn-001" / "manifest.json").exists()
    (orders / "sue.yaml").write_text(f'player: sue\nturn: 1\npassword: "{right["sue"]}"\norders: []\n')
    assert "Every due player has sent a valid file." in pbem(capsys, "status", campaign)[1]
    assert pbem(capsys, "adjudicate", campaign)[0] == 0


def test_status_names_every_file_it_will_not_read(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    orders = campaign / "turn-001" / "orders"
    for name in ("Tony.yaml", "sue.yaml", "sue.yml", "C.yaml", "david.txt", "notes"):
        (orders / name).write_text("player: sue\nturn: 1\norders: []\n")
    code, out, _ = pbem(capsys, "status", campaign)
    lines = [line for line in out.splitlines() if line.startswith("Will not be read:")]
    assert lines == [
        "Will not be read: orders/C.yaml (no player is called C: an order file is named after its player's id, e.g. david.yaml)",
        "Will not be read: orders/Tony.yaml (the order file of tony is named tony.yaml)",
        "Will not be read: orders/david.txt (the order file of david is named david.yaml)",
        "Will not be read: orders/notes (not an order file: order files are named <player>.yaml)",
        "Will not be read: orders/sue.yml (sue.yaml is read instead: one file per player)",
    ], out
    code, out, _ = pbem(capsys, "adjudicate", campaign, "--nmr")
    assert "ignored in orders/: Tony.yaml (the order file of tony is named tony.yaml)" in out


def test_counts_agree_with_their_nouns(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    right = passwords(campaign)["sue"]
    (campaign / "turn-001" / "orders" / "sue.yaml").write_text(f'player: sue\nturn: 1\npassword: "{right}"\norders: [{{sid: 1, guard: 2}}]\n')
    out = pbem(capsys, "status", campaign)[1]
    assert "1 order " in out + " " and "1 orders" not in out


@pytest.mark.parametrize("address", ["notanemail", "a@b", "tony@@example.org", "tony @example.org", "tony@example..org", ".tony@example.org"])
def test_addresses_are_refused_at_once_in_new_and_replace(
    campaign: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, address: str  # noqa: F811
) -> None:
    code, _, err = pbem(capsys, "new", tmp_path / "c", "--game", "secrets", "--players", f"a={address},b,c")
    assert code == 1 and f"the email of player a '{address}' is not an email address: it " in err and not (tmp_path / "c").exists()
    code, _, err = pbem(capsys, "new", tmp_path / "d", "--game", "secrets", "--players", "a,b,c", "--gm-email", address)
    assert code == 1 and "--gm-email" in err and not (tmp_path / "d").exists()
    before = (campaign / "campaign.yaml").read_bytes()
    code, _, err = pbem(capsys, "replace", campaign, "sue", "--name", "Susan", "--email", address)
    assert code == 1 and f"--email '{address}' is not an email address" in err
    assert (campaign / "campaign.yaml").read_bytes() == before


@pytest.mark.parametrize("address", ["tony@bücher.de", "first.last+pbem@mail.example.co.uk"])
def test_real_addresses_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str], address: str) -> None:
    assert pbem(capsys, "new", tmp_path / "c", "--game", "secrets", "--players", f"a={address},b,c")[0] == 0


def test_a_game_for_exactly_two_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "Jekyll vs Hyde takes exactly 2 players, not 3" in pbem(capsys, "new", tmp_path / "j", "--game", "jekyll", "--players", "a,b,c")[2]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A whole demo campaign of every game, played once for the tests that read them."""
    from adjudicator.campaign.demo import play
    from adjudicator.games import GAMES

    root = tmp_path_factory.mktemp("demos")
    return {g: play(root / g, g, "first", None, False).root for g in GAMES}


RAW = ("None", "True", "False", "['", "…", "_")
"""What raw data looks like in a table: Python values, lists as Python writes them, cut cells, JSON keys."""


@pytest.mark.parametrize("width", [80, 160])
def test_show_and_the_demo_print_tables_in_the_games_words_that_fit(
    finished: dict[str, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    from adjudicator.games import GAMES

    monkeypatch.setenv("COLUMNS", str(width))
    for game_id, root in finished.items():
        game = GAMES[game_id]
        code, out, _ = pbem(capsys, "show", root)
        name = Campaign.open(root).config["name"]
        assert code == 0 and out.startswith(f"{name} ({game.title}): over after turn "), out
        table = out.split("\n", 1)[1].rsplit("Winners:", 1)[0]
        assert all(len(line) <= width for line in out.splitlines()), out
        assert not [raw for raw in RAW if raw in table], (game_id, out)
        data = json.loads(pbem(capsys, "show", root, "--json", "--player", Campaign.open(root).players[0]["id"])[1])
        assert {k for row in data["players"].values() for k in row} <= set(game.field_labels), game_id  # every field has words
        player = Campaign.open(root).players[0]["id"]
        code, out, _ = pbem(capsys, "show", root, "--player", player)
        assert code == 0 and "'s view" in out and all(len(line) <= width for line in out.splitlines())


def test_the_demo_ends_with_the_public_report_and_what_to_try_next(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = pbem(capsys, "demo", "hide", tmp_path / "d", "--no-passwords")
    assert code == 0 and not [raw for raw in RAW if raw in out.split("Campaign folder")[0]], out
    assert all(len(line) <= 80 for line in out.split("Campaign folder")[0].splitlines()), out
    public = next(line for line in out.splitlines() if line.startswith("Public report of the last turn: "))
    assert public.endswith("/reports/public.md") and Path(public.split(": ", 1)[1]).is_file()
    assert "Try next: pbem report " in out and "pbem new DIR --game hide" in out


def test_a_refused_smtp_connection_names_the_server(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    root = tmp_path / "c"
    pbem(capsys, "new", root, "--game", "secrets", "--players", "a=a@example.org,b,c", "--gm-email", "gm@example.org")

    with socket.socket() as probe:  # a port nobody listens on: bound, never listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        code, _, err = pbem(capsys, "mail", root, "--send", "--smtp", f"127.0.0.1:{port}")
    assert code == 1 and f"mail delivery to 127.0.0.1:{port} stopped: Connection refused" in err, err
    assert "[Errno" not in err


def test_help_describes_every_argument_the_games_and_their_options(capsys: pytest.CaptureFixture[str]) -> None:
    from adjudicator.cli import build_parser
    from adjudicator.games import GAMES

    parser = build_parser()
    for name, sub in parser._subparsers._group_actions[0].choices.items():  # type: ignore[union-attr]
        undescribed = [a.dest for a in sub._actions if a.help is None]
        assert not undescribed, (name, undescribed)
    text = parser._subparsers._group_actions[0].choices["new"].format_help()  # type: ignore[union-attr]
    assert "--game GAME" in text and all(game_id in text for game_id in GAMES)
    for game in GAMES.values():
        assert f"{game.id} ({game.title})" in text
        assert all(f"{key}=" in text for key in game.options)


def test_a_void_identity_bid_says_the_bid_is_drawn_at_random(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "id"
    assert pbem(capsys, "new", root, "--game", "identity", "--players", "a,b,c", "--no-passwords", "--seed", "void-bid")[0] == 0
    hand = json.loads((root / "turn-000" / "state.json").read_text())["hands"]["a"]
    absent = next(f"{c}-{n}" for c in ("purple", "blue", "green", "orange") for n in range(1, 4) if f"{c}-{n}" not in hand)
    path = root / "turn-001" / "orders" / "a.yaml"
    path.write_text(f"player: a\nturn: 1\norders:\n  - bid {absent}, {absent}\n")
    code, out, _ = pbem(capsys, "check", path, "--campaign", root)
    assert code == 1 and "VOID" in out and "In its place both bid cards are drawn at random from the rest of your hand" in out, out
    assert "would do nothing" not in out
    pbem(capsys, "adjudicate", root, "--nmr")
    report = (root / "turn-001" / "reports" / "a.txt").read_text()
    assert "In its place both bid cards are drawn at random" in report and "This order does nothing" not in report


def test_a_replacement_edits_only_its_entry_tells_the_outgoing_player_and_mails_one_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "spies"
    pbem(capsys, "new", root, "--game", "secrets", "--players", "ann=ann@example.org,bob=bob@example.org,cy=cy@example.org",
         "--names", "ann=Ann Marie", "--gm-email", "gm@example.org", "--seed", "r")
    settings = root / "campaign.yaml"
    written = settings.read_text().replace("\nplayers:\n", '\n# the GM\'s own note\nschedule:\n  timezone: Europe/London\n'
                                                          '  start: "2026-11-10 20:00"\n  every: 7 days\nplayers:\n')
    settings.write_text(written)
    assert pbem(capsys, "adjudicate", root, "--nmr")[0] == 0
    code, out, _ = pbem(capsys, "replace", root, "ann", "--name", "Zoe", "--email", "zoe@example.org")
    assert code == 0 and "--player ann" in out and "handover-ann.eml" in out, out
    after = settings.read_text()
    assert 'start: "2026-11-10 20:00"' in after and "# the GM's own note" in after
    assert after.split("- id: bob")[1] == written.split("- id: bob")[1]  # the other entries, byte for byte
    told = (root / "mail" / "outbox" / "turn-002" / "handover-ann.eml").read_text()
    assert "To: Ann Marie <ann@example.org>" in told and "played by Zoe" in told

    code, out, _ = pbem(capsys, "mail", root, "--turn", 1, "--player", "ann")
    assert code == 0, out
    built = sorted(p.name for p in (root / "mail" / "outbox" / "turn-001").iterdir())
    assert built == ["report-ann.eml"], built
    import email
    import email.policy

    message = email.message_from_bytes((root / "mail" / "outbox" / "turn-001" / "report-ann.eml").read_bytes(), policy=email.policy.default)
    assert message["To"].addresses[0].addr_spec == "zoe@example.org"
    body = message.get_body(("plain",)).get_content()
    assert body.startswith("You take over the seat ann from Ann Marie from turn 2 on. This report of turn 1 was written for Ann Marie")
    assert "no player 'zed'" in pbem(capsys, "mail", root, "--player", "zed")[2]


def test_an_order_naming_a_player_who_left_says_whose_the_seat_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "spies"
    pbem(capsys, "new", root, "--game", "secrets", "--players", "ann,bob,cy", "--names", "ann=Ann Marie", "--no-passwords", "--seed", "r")
    pbem(capsys, "adjudicate", root, "--nmr")
    pbem(capsys, "replace", root, "ann", "--name", "Zoe")
    order = root / "turn-002" / "orders" / "bob.yaml"
    order.write_text('player: bob\nturn: 2\norders: ["SID 1 steal Ann Marie 3"]\n')
    code, out, _ = pbem(capsys, "check", order, "--campaign", root)
    assert code == 1 and "(Ann Marie handed the seat ann over to Zoe: name the seat ann or its new player)" in out, out
    pbem(capsys, "adjudicate", root, "--nmr")
    assert "Ann Marie handed the seat ann over to Zoe" in (root / "turn-002" / "reports" / "bob.txt").read_text()


def test_audit_names_an_order_file_edited_after_its_turn(campaign: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    right = passwords(campaign)["sue"]
    (campaign / "turn-001" / "orders" / "sue.yaml").write_text(f'player: sue\nturn: 1\npassword: "{right}"\norders: []\n')
    assert pbem(capsys, "adjudicate", campaign, "--nmr")[0] == 0
    (campaign / "turn-001" / "orders" / "sue.yaml").write_text(f'player: sue\nturn: 1\npassword: "{right}"\norders: [{{sid: 1, guard: 2}}]\n')
    code, out, _ = pbem(capsys, "audit", campaign)
    assert code == 1 and "turn-001/orders/sue.yaml was changed after the turn was adjudicated" in out, out
