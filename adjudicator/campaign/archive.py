"""`pbem site`: open a campaign and hand the archive what it may show (design 13).

This is the one place that decides what reaches the public site. Before the reveal
it reads, per turn, only the state (turned into the public view by the game) and the
public report; the hidden record (private reports, order files, the whole state) is
read only once `reveal.yaml` exists and the game is over. The seed shown is the
revealed one, never gm/seed.yaml.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..common.atomic import replace_file, settle
from ..publish.site import Archive, Press, Revealed, SiteSummary, TurnRecord, build
from .audit import REVEAL_FILE
from .folder import PLAYER_ID, Campaign, CampaignError, read_json_object, read_yaml_object
from .pending import seat_changes, seat_history
from .redact import known_passwords, redact

PRESS_FOLDER = Path("mail") / "press"
_SITE_PAGE = re.compile(r"(turn-\d{3,}\.(html|svg|png)|turn-\d{3,}-wide\.(svg|png)|index\.html|seed\.html|press\.html)\Z")


def revealed_seed(campaign: Campaign) -> str | None:
    """The seed `pbem reveal` published, once the game is over; None before."""
    path = campaign.root / REVEAL_FILE
    if not path.is_file() or not campaign.over:
        return None
    return str(read_yaml_object(path, {"seed": object})["seed"])


def press_allowed(campaign: Campaign) -> bool:
    judge = campaign.config.get("judge") or {}
    return isinstance(judge, dict) and str(judge.get("press", "signed")) != "none"


def read_press(campaign: Campaign) -> list[Press] | None:
    """The press of mail/press/ (docs/mail-commands.md gives the format), or None where there is none to publish.

    One JSON file per message, as the judge keeps them (`<seq>.json`), taken in the order of
    their names: `turn` (number), `from` (player id), `to` (a list of player ids),
    `anonymous` (true when the receivers were not told the sender), `text`.
    """
    folder = campaign.root / PRESS_FOLDER
    if not folder.is_dir() or not press_allowed(campaign):
        return None
    found = []
    seats = {str(p["id"]) for p in campaign.players}
    for path in sorted(p for p in folder.iterdir() if p.suffix == ".json" and not p.name.startswith(".")):
        message = read_json_object(path, {"from": str, "to": list, "text": str})
        turn = message.get("turn")
        found.append(
            Press(
                turn=turn if isinstance(turn, int) and not isinstance(turn, bool) else None,
                sender=None if message.get("anonymous") is True else message["from"],
                receivers=_receivers([str(r) for r in message["to"]], message.get("anonymous") is True, seats),
                text=message["text"],
            )
        )
    return found


def _receivers(named: list[str], anonymous: bool, seats: set[str]) -> list[str]:
    """Who a press message went to, as the site may say it. The judge never sends press to its sender,
    so the receivers of anonymous press would name the sender by leaving them out (issue 26.6): anonymous
    press to every other player is to `all`, and anonymous press to some of them names nobody."""
    if not anonymous:
        return named
    return ["all"] if len(seats - set(named)) <= 1 else []


def _papers(campaign: Campaign, number: int, passwords: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    """A turn's private reports and its order files (passwords removed), by player id."""
    folder = campaign.turn_dir(number)
    reports = {}
    for path in sorted((folder / "reports").glob("*")):
        if path.stem != "public" and PLAYER_ID.match(path.stem) and path.is_file():
            reports.setdefault(path.stem, path.read_text("utf-8", errors="replace"))
    orders = {}
    if (folder / "orders").is_dir():
        for path in sorted((folder / "orders").iterdir()):
            if path.is_file() and not path.is_symlink() and not path.name.startswith("."):
                orders[path.stem] = redact(path.read_bytes(), passwords).decode("utf-8")
    return reports, orders


def records(campaign: Campaign, revealed: bool) -> Iterator[TurnRecord]:
    """Each adjudicated turn as the site may show it, one at a time."""
    game = campaign.game
    passwords = known_passwords(campaign.root) if revealed else []
    for number in range(campaign.last_turn + 1):
        state = campaign.state(number)
        view = game.view(state, None)
        report = (campaign.turn_dir(number) / "reports" / "public.md").read_text("utf-8")
        extra = None
        if revealed:
            reports, orders = _papers(campaign, number, passwords)
            extra = Revealed({**view, **state}, reports, orders)
        yield TurnRecord(number, view, report, {p: str(n) for p, n in state.get("names", {}).items()}, extra)


def archive_of(campaign: Campaign) -> tuple[Archive, bool]:
    last = campaign.state()
    game = campaign.game
    seed = revealed_seed(campaign)
    over = game.is_over(last)
    return (
        Archive(
            name=str(campaign.setup_record()["name"]),
            game_id=game.id,
            game_title=game.title,
            players=list(last["players"]),
            names={p: str(last.get("names", {}).get(p, p)) for p in last["players"]},
            commitment=campaign.setup_record()["seed_commitment"],
            over=over,
            winners=game.winners(last),
            seed=seed,
            press=read_press(campaign) if seed is not None else None,
            pending=None if over else campaign.last_turn + 1,
            held=_held(campaign),
        ),
        seed is not None,
    )


def _held(campaign: Campaign) -> dict[str, list[dict[str, Any]]]:
    """The seats that changed hands by the last turn, with who held each for which turns (campaign/pending.py's
    seat history, from each turn's seats file: the record the turns themselves hashed)."""
    last = campaign.last_turn
    history = seat_history(campaign.setup_record(), ((n, seat_changes(campaign, n)) for n in range(1, last + 1)))
    return {seat: holders for seat, holders in history.items() if len(holders) > 1}


def write_site(root: Path, out: Path) -> SiteSummary:
    """Write the site of the campaign at `root` into the folder `out` (made if needed, never inside the campaign)."""
    campaign = Campaign.open(root)
    out = Path(out)
    if out.resolve() == campaign.root.resolve() or campaign.root.resolve() in out.resolve().parents:
        raise CampaignError(f"{out}: the site must not be written inside the campaign folder {root}")
    archive, revealed = archive_of(campaign)
    out.mkdir(parents=True, exist_ok=True)
    written = set()

    def write(name: str, data: bytes) -> None:
        replace_file(out / name, data)
        written.add(name)

    def kept(name: str) -> bytes | None:
        path = out / name
        return path.read_bytes() if path.is_file() else None

    summary = build(archive, records(campaign, revealed), write, kept)
    _remove_stale(out, written)
    settle([out])  # one flush for every page (a page is rewritten whole by the next build anyway)
    return summary


def _remove_stale(out: Path, written: set[str]) -> None:
    """Pages a former build wrote and this one does not (a site rebuilt from a changed campaign).
    Only names the site itself gives are touched: other files in the folder are the GM's."""
    for path in out.iterdir():
        if path.is_file() and _SITE_PAGE.match(path.name) and path.name not in written:
            path.unlink()


