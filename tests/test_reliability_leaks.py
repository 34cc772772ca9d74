"""Nobody sees what is not theirs, in any game, through any output a player gets.

1. Non-interference at every turn of random demo campaigns of every game: each
   player's hidden information is changed in every way the game's `disguises`
   offers (hands, hiding places, identity dice, unattacked guards, exchanged and
   set-aside cards); every other player's report (with its order form), the
   public reports, their `show --json --player` output and the reading of their
   own orders (what `pbem check` and the acknowledgement print) must not move by a byte;
   nor may their answers to every mail command (help, status, orders, check, report, press).
2. A whole campaign of every game played by email (ingest, adjudicate, mail, and every
   command and press by mail): no password, password hash, seed or other player's
   address in any report, outbox message, `pbem check` output or `show --json --player` output.

CI plays one campaign per game; PBEM_THOROUGH=1 plays four seeds per game.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
from pathlib import Path
from typing import Any

import pytest
import yaml
from reliability_kit import NOW, THOROUGH, order_mail
from worlds import disguised_worlds

from adjudicator.campaign import pending
from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.demo import DEMO_NAMES, play
from adjudicator.campaign.folder import Campaign
from adjudicator.campaign.pipeline import check_document
from adjudicator.campaign.show import show_json
from adjudicator.cli import main
from adjudicator.common import yamlsafe
from adjudicator.common.rng import Rng
from adjudicator.games import GAMES
from adjudicator.mail import answers as replies
from adjudicator.mail.boards import board_png
from adjudicator.publish.pictures import painter
from adjudicator.mail import press
from adjudicator.mail.ingest import ingest

SEEDS = ["leak-2", "leak-3", "leak-6", "leak-8"] if THOROUGH else ["leak-2"]  # seeds where every game offers disguised worlds


def shown(game: Any, state: dict[str, Any], player: str | None) -> dict[str, Any]:
    """What `pbem show --json --player` prints for a state (cli.show_json reads it from the folder)."""
    over = game.is_over(state)
    return {
        "phase": game.phase(state), "due": [] if over else game.due(state), "over": over,
        "winners": game.winners(state), "players": game.player_fields(game.view(state, player)),
    }


def readings(game: Any, state: dict[str, Any], document: Any, turn: int) -> list[tuple[Any, ...]]:
    """A player's own order file as `pbem check` and the acknowledgement read it."""
    sub = check_document(game, state, document, turn=turn, expected_player=document["player"], password_ok=None)
    return [(r.written, r.order, r.meaning, r.void) for r in sub.readings] + [(p.where, p.what) for p in sub.problems]


@pytest.fixture(scope="module", params=[(g, s) for g in sorted(GAMES) for s in SEEDS], ids=lambda p: f"{p[0]}-{p[1]}")
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Campaign:
    game_id, seed = request.param
    root = tmp_path_factory.mktemp(game_id) / "campaign"
    return play(root, game_id, seed=seed, players=None, passwords=False)


def test_shown_is_what_pbem_show_prints(played: Campaign) -> None:
    for player in [None, *played.state()["players"]]:
        printed = show_json(played.root, player)
        assert {k: v for k, v in printed.items() if k not in ("game", "turn")} == shown(played.game, played.state(), player)


def test_no_player_learns_another_players_secrets(played: Campaign) -> None:
    game = played.game
    compared = 0
    for world in disguised_worlds(played, purpose="leak"):
        number, holder = world.number, world.holder
        for name, as_played, disguised in world.others_reports():
            assert disguised == as_played, f"turn {number}: {name} moved with {holder}'s secrets"
        files = {p: played.turn_dir(number) / "orders" / f"{p}.yaml" for p in game.due(world.base_before)}
        documents = {p: yamlsafe.load(f.read_bytes()) for p, f in files.items() if f.is_file()}
        for other in [None, *(p for p in world.base_before["players"] if p != holder)]:
            assert shown(game, world.after, other) == shown(game, world.base_after, other), f"turn {number}: show --player {other}"
            assert shown(game, world.before, other) == shown(game, world.base_before, other)
            if other in documents:
                mine = documents[other]
                assert readings(game, world.before, mine, number) == readings(game, world.base_before, mine, number), (
                    f"turn {number}: {other}'s check moved"
                )
        compared += 1
    assert compared > 0, "the game offered no disguised worlds"
    print(f"FIGURE {game.id} disguised worlds compared: {compared} over {played.last_turn} turns, leaks 0")


PNG_WORLDS = 4
"""Worlds per game whose boards are compared as PNG bytes too (a PNG costs tens of milliseconds; every
world's boards are compared as SVG, the text the PNG is rendered from)."""


def test_each_players_board_is_a_function_of_their_view(played: Campaign) -> None:
    """The board in a report mail (mail/boards.py: the narrow one, SVG and PNG bytes) and the site's wide one:
    another player's secrets never move them."""
    game, draw = played.game, painter(played.game.id).board
    compared = 0
    for world in disguised_worlds(played, purpose="leak"):
        for other in [None, *(p for p in world.base_after["players"] if p != world.holder)]:
            seen, base = game.view(world.after, other), game.view(world.base_after, other)
            for narrow in (False, True):
                assert draw(seen, "b", narrow=narrow).svg() == draw(base, "b", narrow=narrow).svg(), (
                    f"turn {world.number}: {other}'s {'narrow' if narrow else 'wide'} board moved with {world.holder}'s secrets"
                )
            if compared < PNG_WORLDS:
                assert board_png(game.id, seen, "b") == board_png(game.id, base, "b"), f"turn {world.number}: {other}'s PNG moved"
        compared += 1
    assert compared > 0, "the game offered no disguised worlds"
    print(f"FIGURE {game.id} boards compared: {compared} worlds ({min(compared, PNG_WORLDS)} as PNG), leaks 0")


def answers(campaign: Campaign, number: int, before: dict[str, Any], reports: dict[str, bytes], player: str, filed: bytes | None) -> list[str]:
    """Every answer the judge would mail `player` while turn `number` is pending and `before` is its state."""
    desk = replies.Desk(pending.replay(campaign, number, before, campaign.setup_record()))
    report = reports.get(f"reports/{player}.txt")
    return [
        replies.help_reply(desk, player),
        replies.status_reply(desk, player),
        replies.orders_reply(desk, player),
        replies.check_reply(desk, player, filed if filed is not None else b"orders: []\n", "the body"),
        replies.report_reply(desk, player, number, report.decode("utf-8") if report is not None else None),
        press.relay(campaign, before, number, False, 1, player, "all", "Hello.").receipt,
    ]


def test_command_answers_are_functions_of_the_seats_view(played: Campaign) -> None:
    compared = 0
    for world in disguised_worlds(played, purpose="leak"):
        number, holder = world.number, world.holder
        for other in (p for p in world.base_before["players"] if p != holder):
            path = played.turn_dir(number) / "orders" / f"{other}.yaml"
            filed = path.read_bytes() if path.is_file() else None
            as_played = answers(played, number, world.base_before, world.base_reports, other, filed)
            disguised = answers(played, number, world.before, world.reports, other, filed)
            for word, a, b in zip(["help", "status", "orders", "check", "report", "press"], as_played, disguised, strict=True):
                assert a == b, f"turn {number}: {other}'s answer to {word} moved with {holder}'s secrets"
            compared += 1
    assert compared > 0, "the game offered no disguised worlds"
    print(f"FIGURE {played.game.id} command answers compared: {compared * 6}, leaks 0")


# -- a campaign by email: no secret in anything a player gets ----------------------------------------


def _decoded(path: Path) -> str:
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    # The body, its HTML alternative and any view file; the board's PNG holds no text to search (its words
    # are in the HTML's alt text), and test_each_players_board_is_a_function_of_their_view checks its bytes.
    parts = [part.get_content() for part in message.walk() if not part.is_multipart() and part.get_content_maintype() != "image"]
    return str(message["To"]) + str(message["Cc"] or "") + str(message["Subject"]) + "".join(
        p if isinstance(p, str) else p.decode("utf-8") for p in parts)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_no_password_seed_or_address_reaches_a_player(game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = GAMES[game_id]
    count = min(max(game.min_players, 3), game.max_players)
    root = tmp_path / "campaign"
    seed = f"{game_id}-seed-9c1e7b"
    ids = DEMO_NAMES[:count]
    code = main(["new", str(root), "--game", game_id, "--players", ",".join(f"{p}={p}@example.org" for p in ids),
                 "--gm-email", "gm@example.org", "--seed", seed])
    assert code == 0
    passwords = {str(k): str(v) for k, v in yaml.safe_load((root / "gm" / "passwords.yaml").read_text()).items()}
    hashes = [p["password"] for p in yaml.safe_load((root / "campaign.yaml").read_text())["players"]]
    facing: dict[str, list[str]] = {p: [] for p in [*ids, "public"]}  # what each player (or the forum) receives
    campaign = Campaign.open(root)
    while not campaign.over and (THOROUGH or campaign.last_turn < 3):  # CI: three turns by email; thorough: the whole game
        state = campaign.state()
        pending = campaign.last_turn + 1
        inbox = tmp_path / f"inbox-{pending}"
        inbox.mkdir()
        for player in game.due(state):
            orders = game.demo_orders(game.view(state, player), player, Rng(seed, pending).stream(f"mail/{player}"))
            text = yaml.safe_dump({"player": player, "turn": pending, "password": passwords[player], "orders": orders}, sort_keys=False, allow_unicode=True)
            (inbox / f"{player}.eml").write_bytes(order_mail(f"{player}@example.org", text, f"<{player}.{pending}@x>"))
            checked = tmp_path / f"{player}.yaml"
            checked.write_text(text)
            main(["check", str(checked), "--campaign", str(root)])
            facing[player].append(capsys.readouterr().out)
        asking = tmp_path / f"commands-{pending}"  # every command by mail, and press to all
        asking.mkdir()
        for player in ids:
            for word in ("help", "status", "orders", "report", f"press all\nfrom {player}, turn {pending}"):
                body = f"{word}\npassword: {passwords[player]}\n"
                (asking / f"{player}-{word[:6]}.eml").write_bytes(order_mail(f"{player}@example.org", body, f"<{player}.{word[:6]}.{pending}@x>", attach=False))
        assert all(e.status == "filed" for e in ingest(root, [inbox], now=NOW).entries)
        answered = ingest(root, [asking], now=NOW).entries
        assert all(e.status == "answered" and e.acknowledged == [f"{e.player}@example.org"] for e in answered), [(e.status, e.player, e.found, e.reason, e.acknowledged) for e in answered]
        adjudicate(root, nmr=True)
        assert main(["mail", str(root)]) == 0
        capsys.readouterr()
        for player in [*ids, None]:
            main(["show", str(root), "--json", *(["--player", player] if player else [])])
            facing[player or "public"].append(capsys.readouterr().out)
    for path in sorted(root.glob("turn-*/reports/*")):
        facing[path.stem if path.stem in facing else "public"].append(path.read_text())
    for path in sorted((root / "mail" / "outbox").rglob("*.eml")):
        owner = next((p for p in ids if path.stem.endswith(f"-{p}")), None)
        if owner is None and path.stem.startswith(("ack-", "reply-")):
            owner = next(p for p in ids if f"{p}@example.org" in _decoded(path))
        facing[owner or "public"].append(_decoded(path))
    assert sum(len(v) for v in facing.values()) > 4 * len(ids)
    assert len(list((root / "mail" / "outbox").rglob("ack-*.eml"))) >= len(ids), "every filed message is acknowledged"
    for reader, texts in facing.items():
        everything = "\n".join(texts)
        assert seed not in everything, f"the seed reached {reader}"
        assert "scrypt$" not in everything and not any(h in everything for h in hashes)
        for player, password in passwords.items():
            assert password not in everything, f"{player}'s password reached {reader}"
            if player != reader:
                assert f"{player}@example.org" not in everything, f"{player}'s address reached {reader}"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_sign_up_replies_and_welcomes_hold_only_the_readers_own(game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27: join, leave, list, observe replies and the welcome at the start each reach one address,
    and name no other player's address or password, no hash and not the seed; the GM's digest (design 15:
    joins are in it) names addresses but no password, hash or seed."""
    game = GAMES[game_id]
    count = min(max(game.min_players, 3), game.max_players)
    root = tmp_path / "campaign"
    seed = f"{game_id}-seed-5d2a10"
    assert main(["new", str(root), "--game", game_id, "--open", str(count), "--gm-email", "gm@example.org", "--seed", seed]) == 0
    with open(root / "campaign.yaml", "a") as settings:
        settings.write(f"judge:\n  inbox: [{tmp_path / 'in'}]\n")
    (tmp_path / "in").mkdir()
    ids = DEMO_NAMES[: count + 1]
    senders = [*ids, "watcher", "stranger"]
    words = {**{p: f"join {p}" for p in ids}, "watcher": "observe", "stranger": "list"}
    for number, who in enumerate(senders):
        (tmp_path / "in" / f"{number:02d}-{who}.eml").write_bytes(
            f"From: {who}@example.org\nSubject: hi\nMessage-ID: <{who}@x>\n\n{words[who]}\n".encode())
    assert main(["run", str(root), "--now", "2026-12-01T12:00+00:00"]) == 0
    out = capsys.readouterr().out
    assert "started" in out, out
    passwords = {str(k): str(v) for k, v in yaml.safe_load((root / "gm" / "passwords.yaml").read_text()).items()}
    assert sorted(passwords) == sorted(ids[:count])
    received: dict[str, list[str]] = {}
    for path in sorted((root / "mail" / "outbox").rglob("*.eml")):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        received.setdefault(email.utils.parseaddr(str(message["To"]))[1], []).append(_decoded(path))
    assert {f"{p}@example.org" for p in senders} <= set(received), sorted(received)
    for reader, texts in received.items():
        everything = "\n".join(texts)
        assert seed not in everything and "scrypt$" not in everything
        for player in senders:
            # The GM's digest names who joined and observes (the GM holds every address in campaign.yaml);
            # no one else is told another's address, and nobody, the GM included, a password.
            if f"{player}@example.org" != reader and reader != "gm@example.org":
                assert f"{player}@example.org" not in everything, f"{player}'s address reached {reader}"
        for player, password in passwords.items():
            if f"{player}@example.org" != reader:
                assert password not in everything, f"{player}'s password reached {reader}"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_turn_held_for_preview_reaches_the_gm_only(game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27: with judge: preview: true, nothing of the held turn (its reports) reaches a player or the
    public address, by the judge's mail or by a player's `report`; the preview goes to the GM's address."""
    game = GAMES[game_id]
    count = min(max(game.min_players, 3), game.max_players)
    root = tmp_path / "campaign"
    seed = f"{game_id}-seed-71aa0e"
    ids = DEMO_NAMES[:count]
    assert main(["new", str(root), "--game", game_id, "--players", ",".join(f"{p}={p}@example.org" for p in ids),
                 "--gm-email", "gm@example.org", "--seed", seed, "--no-passwords"]) == 0
    with open(root / "campaign.yaml", "a") as settings:
        settings.write(f"public_email: forum@example.org\njudge:\n  inbox: [{tmp_path / 'in'}]\n  preview: true\n")
    (tmp_path / "in").mkdir()
    state = Campaign.open(root).state()
    for player in game.due(state):
        orders = game.demo_orders(game.view(state, player), player, Rng(seed, 1).stream(f"mail/{player}"))
        text = yaml.safe_dump({"player": player, "turn": 1, "orders": orders}, sort_keys=False, allow_unicode=True)
        (tmp_path / "in" / f"{player}.eml").write_bytes(order_mail(f"{player}@example.org", text, f"<{player}.1@x>"))
    assert main(["run", str(root), "--now", "2026-12-01T12:00+00:00"]) == 0
    assert Campaign.open(root).last_turn == 1, capsys.readouterr().out
    for player in ids:
        for word in ("report", "report 1", "status", "help"):
            (tmp_path / "in" / f"{player}-{word}.eml").write_bytes(order_mail(f"{player}@example.org", f"{word}\n", f"<{player}.{word}@x>", attach=False))
    assert main(["run", str(root), "--now", "2026-12-01T12:30+00:00"]) == 0
    capsys.readouterr()
    held = [path.read_text() for path in sorted((root / "turn-001" / "reports").glob("*")) if path.suffix in (".txt", ".md")]
    marks = {line for text in held for line in text.splitlines() if "turn 1" in line.lower() and len(line) > 20}
    assert marks, "the held reports have lines that name their turn"
    previews = 0
    for path in sorted((root / "mail" / "outbox").rglob("*.eml")):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        to = email.utils.parseaddr(str(message["To"]))[1]
        if to == "gm@example.org":
            previews += "gm-preview" in path.name
            continue
        text = _decoded(path)
        assert not [m for m in marks if m in text], f"{path.name} to {to} holds the held turn"
    assert previews == 1


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_an_absence_that_moves_the_deadline_is_nobody_elses_news_where_nmr_is_private(game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27: with judge: absences: auto, the grant's reply goes to the asker alone, the moved deadline is
    told to each player still due without saying whose absence moved it, and where the game keeps NMR private
    no other player's status reply lists the absence."""
    game = GAMES[game_id]
    count = min(max(game.min_players, 3), game.max_players)
    root = tmp_path / "campaign"
    ids = DEMO_NAMES[:count]
    assert main(["new", str(root), "--game", game_id, "--players", ",".join(f"{p}={p}@example.org" for p in ids),
                 "--gm-email", "gm@example.org", "--seed", f"{game_id}-absent", "--no-passwords"]) == 0
    with open(root / "campaign.yaml", "a") as settings:
        settings.write(f"schedule: {{timezone: UTC, start: '2026-12-08 20:00', every: 7 days}}\n"
                       f"judge:\n  inbox: [{tmp_path / 'in'}]\n  absences: auto\n  absence_budget: 10 days\n")
    (tmp_path / "in").mkdir()
    asker = game.due(Campaign.open(root).state())[0]
    (tmp_path / "in" / "0-absence.eml").write_bytes(order_mail(f"{asker}@example.org", "absence 2026-12-07 2026-12-09\n", "<abs@x>", attach=False))
    assert main(["run", str(root), "--now", "2026-12-01T12:00+00:00"]) == 0
    out = capsys.readouterr().out
    assert "moved" in out, out
    for n, player in enumerate(ids):
        (tmp_path / "in" / f"{n + 1}-status.eml").write_bytes(order_mail(f"{player}@example.org", "status\n", f"<st.{player}@x>", attach=False))
    assert main(["run", str(root), "--now", "2026-12-01T12:30+00:00"]) == 0
    capsys.readouterr()
    told = 0
    for path in sorted((root / "mail" / "outbox").rglob("*.eml")):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        to = email.utils.parseaddr(str(message["To"]))[1]
        text = _decoded(path)
        if "/deadline-" in path.as_posix() or path.name.startswith("deadline-"):
            told += 1
            assert "absence" not in text.lower() and asker not in text.replace(to, "") or to == f"{asker}@example.org"
        if to in ("gm@example.org", f"{asker}@example.org"):
            continue
        assert "2026-12-07" not in text or game.nmr_public, f"{path.name} to {to} names the absence"
    assert told >= 1


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_seats_life_after_the_start_holds_only_the_readers_own(game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27: a resignation, the waiting player who takes the seat, a takeover, a join and an observer after
    the start: each message reaches one address and holds no other address, no other password, no hash, not
    the seed; the observers' reports hold nothing of any private report."""
    game = GAMES[game_id]
    count = min(max(game.min_players, 3), game.max_players)
    root = tmp_path / "campaign"
    seed = f"{game_id}-seed-4b7e21"
    assert main(["new", str(root), "--game", game_id, "--open", str(count), "--gm-email", "gm@example.org", "--seed", seed]) == 0
    with open(root / "campaign.yaml", "a") as settings:
        settings.write(f"judge:\n  inbox: [{tmp_path / 'in'}]\n")
    (tmp_path / "in").mkdir()
    ids = DEMO_NAMES[: count + 1]

    def send(who: str, text: str, n: int) -> None:
        (tmp_path / "in" / f"{n:03d}-{who}.eml").write_bytes(f"From: {who}@example.org\nSubject: hi\nMessage-ID: <{who}.{n}@x>\n\n{text}\n".encode())

    for n, who in enumerate(ids):
        send(who, f"join {who}", n)
    assert main(["run", str(root), "--now", "2026-12-01T12:00+00:00"]) == 0
    first = {str(k): str(v) for k, v in yaml.safe_load((root / "gm" / "passwords.yaml").read_text()).items()}
    resigning, second = ids[0], ids[1]
    send(resigning, f"resign\npassword: {first[resigning]}", 20)  # ids[-1] waits: takes the seat at once
    send("watcher", "observe", 21)
    send("latecomer", "join Late Comer", 22)
    assert main(["run", str(root), "--now", "2026-12-01T12:30+00:00"]) == 0
    send(second, f"resign\npassword: {first[second]}", 23)  # the latecomer waits: takes this one
    assert main(["run", str(root), "--now", "2026-12-01T13:00+00:00"]) == 0
    out = capsys.readouterr().out
    assert out.count("taken by") == 2, out
    state = Campaign.open(root).state()
    passwords = {str(k): str(v) for k, v in yaml.safe_load((root / "gm" / "passwords.yaml").read_text()).items()}
    for n, player in enumerate(game.due(state)):
        orders = game.demo_orders(game.view(state, player), player, Rng(seed, 1).stream(f"mail/{player}"))
        text = yaml.safe_dump({"player": player, "turn": 1, "password": passwords[player], "orders": orders}, sort_keys=False, allow_unicode=True)
        holder = Campaign.open(root).player(player)["email"]
        (tmp_path / "in" / f"{40 + n:03d}-orders.eml").write_bytes(order_mail(holder, text, f"<{player}.o1@x>"))
    assert main(["run", str(root), "--now", "2026-12-01T14:00+00:00"]) == 0
    assert Campaign.open(root).last_turn == 1, capsys.readouterr().out
    hashes = [p["password"] for p in yaml.safe_load((root / "campaign.yaml").read_text())["players"]]
    secrets = {**{f"old-{k}": v for k, v in first.items()}, **passwords}
    owners = {"old-" + p: f"{p}@example.org" for p in first}
    owners.update({p: Campaign.open(root).player(p)["email"] for p in passwords})
    private = [line for path in (root / "turn-001" / "reports").glob("*.txt") for line in path.read_text().splitlines() if len(line) > 30]
    received: dict[str, list[str]] = {}
    for path in sorted((root / "mail" / "outbox").rglob("*.eml")):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        reader = email.utils.parseaddr(str(message["To"]))[1]
        received.setdefault(reader, []).append(_decoded(path))
        if "/observe-" in path.as_posix() or path.name.startswith("observe-"):
            assert reader == "watcher@example.org" and not [line for line in private if line in _decoded(path)]
    assert "watcher@example.org" in received and "latecomer@example.org" in received
    everyone = [*ids, "watcher", "latecomer"]
    for reader, texts in received.items():
        if reader == "gm@example.org":
            continue
        everything = "\n".join(texts)
        assert seed not in everything and "scrypt$" not in everything and not any(h in everything for h in hashes)
        for who in everyone:
            if f"{who}@example.org" != reader:
                assert f"{who}@example.org" not in everything, f"{who}'s address reached {reader}"
        for key, password in secrets.items():
            if owners[key] != reader:
                assert password not in everything, f"{key}'s password reached {reader}"
