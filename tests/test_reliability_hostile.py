"""Hostile order files at every phase of every game: in process by the thousand, and through the real CLI.

Demo campaigns are played until each phase of the game is pending; then one
player's file is replaced by generated input (valid orders mutated, or a
hostile file) and the others keep their demo orders. Required for every
example: no traceback, exit 0 or 1 only, the file or order explained in words
with its location, and every other player's reading unchanged.

CI: 40 examples per phase in process and a sample of 6 files per phase through
`pbem adjudicate` (one process over many campaign copies) and `pbem check`.
`PBEM_THOROUGH=1`: 10,000 examples per game in process, 40 files per phase through the CLI.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import asdict
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reliability_kit import NOW, THOROUGH, assert_clean_failure, pbem

from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.create import create
from adjudicator.campaign.demo import DEMO_NAMES
from adjudicator.campaign.folder import Campaign
from adjudicator.campaign.pipeline import resolve
from adjudicator.campaign import pending as pending_turn
from adjudicator.campaign.pending import pending_state
from adjudicator.common import yamlsafe
from adjudicator.common.rng import Rng
from adjudicator.games import GAMES
from adjudicator.mail.ingest import MESSAGES_PER_SENDER, ingest, load_index

PER_GAME = 10_000 if THOROUGH else 200
CLI_SAMPLE = 40 if THOROUGH else 6

# -- campaigns at every phase -------------------------------------------------------------


def _phases(game_id: str, folder: Path) -> dict[str, Path]:
    """A copy of a demo campaign as it stands when each phase first becomes pending (demo orders filed).

    Every phase has a schema file; demo campaigns with new seeds are played until
    each one has been pending (H.I.D.E.'s security phase needs a gun that secured nothing).
    """
    from adjudicator.campaign.demo import write_demo_orders
    from adjudicator.common.resources import resource_dir

    game = GAMES[game_id]
    wanted = {path.stem for path in (resource_dir("schemas") / game_id).glob("*.json")}
    count = min(max(game.min_players, 3), game.max_players)
    found: dict[str, Path] = {}
    for attempt in range(30):
        root = folder / f"play-{attempt}"
        campaign = create(root, game_id, [{"id": n, "name": n.title()} for n in DEMO_NAMES[:count]], seed=f"phases-{game_id}-{attempt}", passwords=False)
        while not campaign.over:
            write_demo_orders(campaign, {})
            phase = game.phase(pending_state(campaign))
            if phase not in found:
                found[phase] = folder / f"phase-{phase}"
                shutil.copytree(root, found[phase])
            adjudicate(root, nmr=True)
        if set(found) >= wanted:
            return found
    raise AssertionError(f"{game_id}: no demo campaign reached the phases {sorted(wanted - set(found))}")


@pytest.fixture(scope="module", params=sorted(GAMES))
def phases(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Path]]:
    return request.param, _phases(request.param, tmp_path_factory.mktemp(request.param))


# -- what a hostile player sends ------------------------------------------------------------

LOOKALIKES = ["\u0430lice", "ALICE", "alice ", "al\u200bice", "\u202ealice", "bruno\u0000", "ｂｒｕｎｏ", "p\u0130", "nobody", "alice/../gm"]
HOSTILE_SCALARS = st.one_of(
    st.sampled_from([10**30, -(10**30), 2**63, -1, 0, 1.5, float("inf"), True, None, "", "x" * 5000, *LOOKALIKES, "1e9", "0x10", "no", "~"]),
    st.integers(min_value=-100, max_value=100),
    st.text(max_size=20),
)
FILE_JUNK = st.sampled_from([
    b"a: &x [1]\nb: *x\n", b"player: alice\nturn: 1\norders: !!python/object/apply:os.system ['true']\n", b"player: a\nplayer: a\n",
    b"<<: {player: alice}\nturn: 1\norders: []\n", b"orders: " + b"[" * 5000, b"player: alice\x00\n", b"---\nplayer: a\n---\nplayer: b\n",
    b"\xef\xbb\xbfplayer: alice\n", b"\xff\xfe\x00p", b"orders: [" + b"9" * 6000 + b"]", b"player: alice\nturn: 1\norders: []\n" + b"#" * 70_000,
    b"!!binary aGVsbG8=", b"? [a]\n: b\n", b"%YAML 1.1\n---\nplayer: alice\n", b"player: !custom alice\n",
])


def _mutate(value: Any, data: st.DataObject) -> Any:
    """One random change somewhere in a valid order: a leaf replaced, a key dropped or added, a type changed."""
    if isinstance(value, dict) and value and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(value, key=str)))
        action = data.draw(st.sampled_from(["recurse", "drop", "extra", "rename"]))
        out = dict(value)
        if action == "recurse":
            out[key] = _mutate(value[key], data)
        elif action == "drop":
            del out[key]
        elif action == "extra":
            out[data.draw(st.text(min_size=1, max_size=8))] = data.draw(HOSTILE_SCALARS)
        else:
            out[str(key).upper() + "\u0301"] = out.pop(key)
        return out
    if isinstance(value, list) and value and data.draw(st.booleans()):
        index = data.draw(st.integers(0, len(value) - 1))
        return [*value[:index], _mutate(value[index], data), *value[index + 1 :]]
    return data.draw(st.one_of(HOSTILE_SCALARS, st.just([value]), st.just({"x": value}), st.just(str(value))))


def hostile_file(data: st.DataObject, player: str, demo: dict[str, Any]) -> bytes:
    """Valid orders with one mutation, a mutated envelope, or a hostile file."""
    kind = data.draw(st.sampled_from(["order", "order", "orders", "envelope", "junk"]))
    if kind == "junk":
        return data.draw(FILE_JUNK | st.binary(max_size=200))
    document = {**demo, "player": player}
    if kind == "order" and document["orders"]:
        document["orders"] = _mutate(list(document["orders"]), data)
    elif kind == "orders":
        document["orders"] = data.draw(st.lists(HOSTILE_SCALARS | st.dictionaries(st.text(max_size=6), HOSTILE_SCALARS, max_size=3), max_size=6))
    else:
        document = _mutate(document, data)
    dumped = yaml.safe_dump(document, allow_unicode=True, sort_keys=data.draw(st.booleans()))
    return dumped.encode("utf-8", "surrogatepass")


def _victim(root: Path) -> tuple[Campaign, dict[str, Any], str, dict[str, Any]]:
    campaign = Campaign.open(root)
    state = pending_state(campaign)
    victim = campaign.game.due(state)[0]
    demo = yamlsafe.load((campaign.turn_dir(campaign.last_turn + 1) / "orders" / f"{victim}.yaml").read_bytes())
    return campaign, state, victim, demo


def _explained(sub: Any, report: str) -> None:
    """A rejection or a void order is in the player's report, in words, with where it is."""
    flat = " ".join(report.split())
    if sub.nmr:
        assert sub.problems and "REJECTED" in flat
        for problem in sub.problems:
            assert problem.what.strip() and " ".join(f"{problem.where}: {problem.what}".split()) in flat
    for reading in sub.readings:
        assert (reading.order is not None) == reading.accepted
        if not reading.accepted:
            assert reading.void.strip() and " ".join(f"VOID: {reading.void}".split()) in flat


# -- in process: thousands ------------------------------------------------------------------


def _throw_at(root: Path, examples: int) -> int:
    """`examples` hostile files for the due player of one phase, each read and resolved in process."""
    campaign, state, victim, demo = _victim(root)
    game = campaign.game
    turn = pending_turn.read(campaign)
    pending = turn.number
    others = {p: turn.submission(p) for p in game.due(state)[1:]}
    baseline = {p: s.to_json() for p, s in others.items()}
    tried = 0

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.data())
    def check(data: st.DataObject) -> None:
        nonlocal tried
        tried += 1
        raw = hostile_file(data, victim, demo)
        sub = turn.check_file(victim, raw, f"orders/{victim}.yaml")
        assert sub.status in ("accepted", "rejected")
        if sub.nmr:
            assert sub.problems and all(p.what.strip() and p.where.strip() for p in sub.problems)
            assert all("could not be" not in p.what for p in sub.problems), sub.problems  # a crash caught is still a bug
        for reading in sub.readings:
            assert (reading.order is not None) == reading.accepted and (reading.accepted or reading.void.strip())
        new_state, _, used = resolve(game, state, {victim: sub, **others}, Rng("hostile", pending))
        assert not game.invariants(new_state)
        assert {p: s.to_json() for p, s in others.items()} == baseline
        assert all(used[p] == others[p].orders for p in others)

    check()
    return tried


def test_every_phase_takes_hostile_files_in_process(phases: tuple[str, dict[str, Path]]) -> None:
    game_id, found = phases
    examples = sum(_throw_at(root, max(1, PER_GAME // len(found))) for _, root in sorted(found.items()))
    print(f"FIGURE {game_id} hostile files in process: {examples} over phases {', '.join(sorted(found))}")


# -- through the real CLI: a sample ------------------------------------------------------------


def _copies(root: Path, phase: str, folder: Path) -> list[tuple[Path, str, bytes]]:
    """CLI_SAMPLE copies of a phase's campaign, each with one hostile file for its due player."""
    _, _, victim, demo = _victim(root)
    made: list[tuple[Path, str, bytes]] = []

    @settings(max_examples=1, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        made.clear()
        for number in range(CLI_SAMPLE):
            copy = folder / f"{phase}-{number}"
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(root, copy)
            raw = hostile_file(data, victim, demo)
            (copy / f"turn-{Campaign.open(copy).last_turn + 1:03d}" / "orders" / f"{victim}.yaml").write_bytes(raw)
            made.append((copy, victim, raw))

    draw()
    baseline = folder / f"{phase}-baseline"
    shutil.copytree(root, baseline)
    return [*made, (baseline, victim, b"")]


def test_every_phase_takes_hostile_files_through_the_cli(phases: tuple[str, dict[str, Path]], tmp_path: Path) -> None:
    game_id, found = phases
    copies = [copy for phase, root in sorted(found.items()) for copy in _copies(root, phase, tmp_path)]
    print(f"FIGURE {game_id} hostile files through pbem adjudicate: {sum(1 for _, _, raw in copies if raw)}")
    result = pbem("adjudicate", *(c for c, _, _ in copies), "--nmr", timeout=900)
    assert_clean_failure(result, allowed=(0,))  # a bad file never stops a turn
    stdout = " ".join(result.stdout.split())
    baselines = {c.name.rpartition("-")[0]: c for c, _, raw in copies if raw == b""}
    for copy, victim, raw in copies:
        campaign = Campaign.open(copy)
        turn = campaign.last_turn
        results = json.loads((campaign.turn_dir(turn) / "results.json").read_text())
        reference = json.loads((Campaign.open(baselines[copy.name.rpartition("-")[0]]).turn_dir(turn) / "results.json").read_text())
        for player, submission in results["submissions"].items():
            if player != victim:
                assert submission == reference["submissions"][player], f"{copy.name}: {player}'s reading moved"
        mine = results["submissions"][victim]
        if mine["status"] == "rejected":
            for problem in mine["problems"]:
                assert " ".join(f"orders/{victim}.yaml::{problem['where']}: {problem['what']}".split()) in stdout
        for order in mine["orders"]:
            if order["void"] is not None:
                assert " ".join(f"orders/{victim}.yaml::orders[{order['index']}] void: {order['void']}".split()) in stdout
        if raw:
            replayed = pending_turn.replay(campaign, turn, campaign.state(turn - 1), campaign.setup_record())
            sub = replayed.check_file(victim, raw, f"orders/{victim}.yaml")
            _explained(sub, (campaign.turn_dir(turn) / "reports" / f"{victim}.txt").read_text())
    for copy, victim, raw in copies[:: max(1, len(copies) // 3)]:
        if raw:
            path = copy / f"{victim}.yaml"
            path.write_bytes(raw)
            previous = copy.parent / f"{copy.name}-check"
            shutil.copytree(baselines[copy.name.rpartition("-")[0]], previous)
            checked = pbem("check", path, "--campaign", previous)
            assert_clean_failure(checked)
            assert checked.returncode == 0 or "REJECTED" in checked.stdout or "VOID" in checked.stdout


# -- hostile emails through pbem ingest, every game ----------------------------------------------------

EMAILS_PER_GAME = 10_000 if THOROUGH else 40
CLI_EMAILS = 500 if THOROUGH else 40


def _cheap_hash(password: str) -> str:
    """A valid scrypt hash at a tiny cost: the test campaign checks thousands of passwords, not the hash's strength."""
    salt = b"0123456789abcdef"
    return f"scrypt$16$1$1${salt.hex()}${hashlib.scrypt(password.encode(), salt=salt, n=16, r=1, p=1, dklen=32).hex()}"


def _email_campaign(game_id: str, root: Path) -> tuple[Campaign, dict[str, str]]:
    game = GAMES[game_id]
    ids = DEMO_NAMES[: min(max(game.min_players, 3), game.max_players)]
    create(root, game_id, [{"id": p, "name": p.title(), "email": f"{p}@example.org"} for p in ids], seed="mail", gm_email="gm@example.org", passwords=False)
    config = yaml.safe_load((root / "campaign.yaml").read_text())
    passwords = {p: f"pw-{p}-x7" for p in ids}
    config["passwords"] = True
    for entry in config["players"]:
        entry["password"] = _cheap_hash(passwords[entry["id"]])
    (root / "campaign.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    return Campaign.open(root), passwords


def hostile_email(data: st.DataObject, victim: str, password: str, demo: dict[str, Any], others: list[str]) -> bytes:
    """An order email for `victim` (or forged for another player) with hostile MIME, headers and bytes."""
    document = {**demo, "player": victim, "password": password}
    kind = data.draw(st.sampled_from(["valid", "mutated", "forged", "file"]))
    if kind == "mutated":
        document["orders"] = _mutate(list(document["orders"]), data)
    elif kind == "forged":
        document = {**document, "player": data.draw(st.sampled_from(others)), "password": data.draw(st.sampled_from([password, "guess", ""]))}
    text = data.draw(FILE_JUNK | st.binary(max_size=120)).decode("utf-8", "replace") if kind == "file" else yaml.safe_dump(document, allow_unicode=True, sort_keys=False)
    headers = {  # written as raw bytes: the email package itself refuses to build some of these
        "From": data.draw(st.sampled_from([f"{victim}@example.org", f"{others[0]}@example.org", "<<>>", "=?utf-8?b?!!!?=", "", "mailer-daemon@x.org"])),
        "To": "gm@example.org",
        "Subject": data.draw(st.sampled_from(["orders", "=?x-unknown?q?=FF?=", "\u202eredro", "x" * 2000, "STATUS", "check", "press all", "report 1"])),
        "Date": data.draw(st.sampled_from(["Mon, 30 Nov 2026 10:00:00 +0000", "yesterday", "Mon, 31 Feb 2026 99:99:99 +9999", ""])),
        "Message-ID": data.draw(st.sampled_from(["<a@x>", "", "<" + "m" * 3000 + ">", f"<{data.draw(st.integers(0, 10**9))}@x>"])),
    }
    message = EmailMessage()
    where = data.draw(st.sampled_from(["attachment", "body", "fence", "bbcode", "html", "two attachments"]))
    charset = data.draw(st.sampled_from(["utf-8", "iso-8859-1", "us-ascii"]))
    if where == "body":
        message.set_content(text, charset=charset if text.isascii() or charset == "utf-8" else "utf-8")
    elif where == "fence":
        message.set_content(f"Hi\n```yaml\n{text}```\n")
    elif where == "bbcode":
        message.set_content(f"[code]{text}[/code]")
    elif where == "html":
        message.set_content("<p>" + text.replace("\n", "<br>") + "</p>", subtype="html")
    else:
        message.set_content("attached")
        for name in (["a.yaml", "b.yml"] if where == "two attachments" else [data.draw(st.sampled_from(["orders.yaml", "../../../x.yaml", "ORDERS.YML", "o.yaml\x00.exe"]))]):
            message.add_attachment(text.encode("utf-8", "surrogatepass"), maintype="application", subtype="octet-stream", filename=name)
    raw = "".join(f"{k}: {v}\n" for k, v in headers.items()).encode("utf-8") + message.as_bytes()
    damage = data.draw(st.sampled_from(["none", "none", "truncate", "nul", "flip"]))
    if damage == "truncate":
        raw = raw[: data.draw(st.integers(0, len(raw)))]
    elif damage == "nul":
        at = data.draw(st.integers(0, len(raw)))
        raw = raw[:at] + b"\x00" + raw[at:]
    elif damage == "flip":
        at = data.draw(st.integers(0, max(0, len(raw) - 1)))
        raw = raw[:at] + bytes([raw[at] ^ 0xFF]) + raw[at + 1 :] if raw else raw
    return raw


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_hostile_emails_never_break_an_ingest_or_touch_another_player(game_id: str, tmp_path: Path) -> None:
    campaign, passwords = _email_campaign(game_id, tmp_path / "campaign")
    root, game = campaign.root, campaign.game
    state = pending_state(campaign)
    victim, *others = game.due(state)
    strangers = [p for p in state["players"] if p != victim]  # whom a forged message may claim to be
    inbox = tmp_path / "others.eml"
    for other in others:  # the others' orders are filed first, by mail
        demo = {"player": other, "turn": 1, "password": passwords[other],
                "orders": game.demo_orders(game.view(state, other), other, Rng("mail", 1).stream(f"demo/{other}"))}
        inbox.write_bytes(_order_email(other, yaml.safe_dump(demo, sort_keys=False)))
        assert ingest(root, [inbox], now=NOW).entries[0].status == "filed"
    filed = {p: (campaign.turn_dir(1) / "orders" / f"{p}.yaml").read_bytes() for p in others}
    demo = {"player": victim, "turn": 1, "orders": game.demo_orders(game.view(state, victim), victim, Rng("mail", 1).stream(f"demo/{victim}"))}
    count = 0
    sample = tmp_path / "sample"  # every message also goes through the real command, in one run at the end
    sample.mkdir()
    fresh = tmp_path / "fresh"
    shutil.copytree(root, fresh)

    @settings(max_examples=EMAILS_PER_GAME, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.data())
    def check(data: st.DataObject) -> None:
        nonlocal count
        count += 1
        if count % MESSAGES_PER_SENDER == 0:  # a fresh mail index: one sender's messages past the cap are not read
            shutil.rmtree(root / "mail")
        raw = hostile_email(data, victim, passwords[victim], demo, strangers)
        path = tmp_path / "m.eml"
        path.write_bytes(raw)
        if count <= CLI_EMAILS:
            (sample / f"{count:05d}.eml").write_bytes(raw)
        for entry in ingest(root, [path], now=NOW).entries:
            assert entry.status in ("filed", "superseded", "rejected", "answered")  # answered: a command (mail/commands.py)
            assert entry.status == "rejected" or entry.player in (victim, None if entry.status == "answered" else victim), (
                "a message was filed or answered for a player whose password it lacks"
            )
            if entry.status in ("rejected", "answered"):
                assert entry.reason.strip() and (root / entry.stored).read_bytes() == raw
        assert {p: (campaign.turn_dir(1) / "orders" / f"{p}.yaml").read_bytes() for p in others} == filed

    check()
    through_cli = pbem("ingest", fresh, sample)
    assert_clean_failure(through_cli, allowed=(0,))
    assert {p: (fresh / "turn-001" / "orders" / f"{p}.yaml").read_bytes() for p in others} == filed
    assert adjudicate(root, nmr=True).output.turn == 1 and all(
        adjudicate_results(root)["submissions"][p]["status"] == "accepted" for p in others
    )
    print(f"FIGURE {game_id} hostile emails through ingest: {count}")


def adjudicate_results(root: Path) -> dict[str, Any]:
    return json.loads((root / "turn-001" / "results.json").read_text())


def _order_email(player: str, text: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"], message["Message-ID"] = f"{player}@example.org", "gm@example.org", "orders", f"<{player}@x>"
    message.set_content(text)
    return message.as_bytes()


def test_undecodable_bytes_in_headers_or_file_names_do_not_poison_the_mailbox(tmp_path: Path) -> None:
    """Regression: a byte that is not UTF-8 in From or Subject reached the mail index as a lone
    surrogate, the index could not be written, and every later ingest stopped at the same message."""
    campaign, passwords = _email_campaign("secrets", tmp_path / "campaign")
    box = tmp_path / "Maildir"
    for sub in ("new", "cur", "tmp"):
        (box / sub).mkdir(parents=True)
    text = f"player: alice\nturn: 1\npassword: {passwords['alice']}\norders: []\n"
    raw = b"From: alice@example.org\xff\nSubject: \xfe orders\nMessage-ID: <bad\xff@x>\n\n" + text.encode()
    (box / "new" / "1700000000.one").write_bytes(raw)
    (box / "new" / b"1700000001.\xff\xfe".decode("utf-8", "surrogateescape")).write_bytes(b"From: bruno@example.org\n\nhello\n")
    first = pbem("ingest", campaign.root, box)
    assert_clean_failure(first, allowed=(0,))
    entries = [asdict(e) for e in load_index(campaign.root)]
    assert [e["status"] for e in entries] == ["filed", "rejected"] and entries[0]["player"] == "alice"  # the password proves it
    assert entries[0]["sender"] == "alice@example.org?" and entries[0]["message_id"].startswith("<bad")
    again = pbem("ingest", campaign.root, box)
    assert again.returncode == 0 and "2 already ingested" in again.stdout
