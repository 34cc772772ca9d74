"""`pbem new`: create a campaign folder with its opening (turn 0) adjudicated."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from .. import games
from ..common.address import address_problem
from ..common.atomic import write_tree
from ..common.rng import commitment, new_seed
from ..games.base import Game, Option
from ..publish.render import Renderer
from . import auth
from .folder import (
    PLAYER_ID,
    Campaign,
    CampaignError,
    distinct_names,
    not_reserved,
    dump_yaml,
    plain_name,
    turn_name,
)
from .turn import new_setup, opening


def parse_players(spec: str) -> list[dict[str, Any]]:
    """`tony,david=david@example.org` -> player entries; ids checked, emails kept."""
    players: list[dict[str, Any]] = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        player_id, _, email = part.partition("=")
        player_id = player_id.strip()
        if not PLAYER_ID.match(player_id):
            raise CampaignError(
                f"'{player_id}' cannot be a player id: use lowercase letters, digits, - and _, starting with a letter"
            )
        if any(p["id"] == player_id for p in players):
            raise CampaignError(f"player '{player_id}' is named twice")
        entry: dict[str, Any] = {"id": player_id, "name": player_id}
        if email.strip():
            entry["email"] = email.strip()
        players.append(entry)
    return players


def _coerce(name: str, raw: str, option: Option) -> Any:
    default = option.default
    if isinstance(default, bool):
        if raw.lower() not in ("true", "false", "yes", "no", "1", "0"):
            raise CampaignError(f"option {name} takes true or false, not '{raw}'")
        return raw.lower() in ("true", "yes", "1")
    if isinstance(default, int):
        try:
            value = int(raw)
        except ValueError:
            raise CampaignError(f"option {name} takes a whole number, not '{raw}'") from None
        if option.minimum is not None and value < option.minimum or option.maximum is not None and value > option.maximum:
            raise CampaignError(f"option {name} must be between {option.minimum} and {option.maximum}, not {value}")
        return value
    if option.choices and raw not in option.choices:
        raise CampaignError(f"option {name} takes one of {', '.join(option.choices)}, not '{raw}'")
    return raw


def parse_options(game: Game, pairs: list[str]) -> dict[str, Any]:
    options = {name: option.default for name, option in game.options.items()}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep:
            raise CampaignError(f"--option needs the form name=value, not '{pair}'")
        if name not in game.options:
            known = ", ".join(sorted(game.options)) or "none"
            raise CampaignError(f"{game.id} has no option '{name}' (its options: {known})")
        options[name] = _coerce(name, raw.strip(), game.options[name])
    return options


def _check_addresses(players: list[dict[str, Any]], gm_email: str | None) -> None:
    """Every address given, checked now: a typo is named while the GM types, not at the first `pbem mail`."""
    given = [(f"the email of player {p['id']}", p["email"]) for p in players if p.get("email")]
    if gm_email is not None:
        given.append(("--gm-email", gm_email))
    for what, address in given:
        problem = address_problem(str(address))
        if problem:
            raise CampaignError(f"{what} '{address}' is not an email address: it {problem}; nothing was created")


def create(
    root: Path,
    game_id: str,
    players: list[dict[str, Any]],
    *,
    options: list[str] = (),  # type: ignore[assignment]
    seed: str | None = None,
    passwords: bool = True,
    gm_email: str | None = None,
    name: str | None = None,
    open_seats: int | None = None,
) -> Campaign:
    """Build the whole campaign in a dot-named folder beside ROOT, then rename it into place.
    A refusal or a failure leaves nothing behind: no campaign, no staging folder, and none of the
    folders above ROOT that were made for it."""
    root = new_folder(root)
    game = games.get(game_id)
    chosen = parse_options(game, list(options))
    cap = chosen.get("max_players", game.max_players)
    if open_seats is not None:  # a sign-up campaign (campaign/signup.py): N seats, the players given take the first
        if not game.min_players <= open_seats <= cap:
            takes = f"exactly {cap}" if game.min_players == cap else f"{game.min_players} to {cap}"
            raise CampaignError(f"--open {open_seats}: {game.title} takes {takes} players")
        if len(players) > open_seats:
            raise CampaignError(f"--players names {len(players)} players, more than the {open_seats} seats of --open")
    elif not game.min_players <= len(players) <= cap:
        takes = f"exactly {cap}" if game.min_players == cap else f"{game.min_players} to {cap}"
        raise CampaignError(f"{game.title} takes {takes} players, not {len(players)}")
    _check_addresses(players, gm_email)
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise CampaignError(f"{root} already exists and is not empty; choose a new folder")
    campaign_name = plain_name(name or root.resolve().name, "the campaign name (--name, or the folder's name)")
    seed = seed if seed is not None else new_seed()
    entries = [{**player, "name": plain_name(str(player.get("name", player["id"])), f"the display name of '{player['id']}'")} for player in players]
    for entry in entries:
        not_reserved(str(entry["id"]), "the player id")
        not_reserved(entry["name"], f"the display name of '{entry['id']}'")
    distinct_names(entries)
    secret_passwords: dict[str, str] = {}
    if passwords:
        for entry in entries:
            secret_passwords[entry["id"]] = auth.new_password()
            entry["password"] = auth.hash_password(secret_passwords[entry["id"]])
    config: dict[str, Any] = {
        "name": campaign_name,
        "game": game.id,
        "options": chosen,
        "passwords": passwords,
        "seed_commitment": commitment(seed),
    }
    if gm_email:
        config["gm_email"] = gm_email
    if open_seats is not None:
        config["signup"] = {"seats": open_seats, "waiting": [], "observers": []}
    config["players"] = entries

    files = {"campaign.yaml": b"# pbem-adjudicator campaign settings\n" + dump_yaml(config)}
    files["gm/seed.yaml"] = dump_yaml({"seed": seed})
    if passwords:
        files["gm/passwords.yaml"] = dump_yaml(secret_passwords)
    staging = root.with_name(f".{root.name}.new")
    if staging.exists():
        shutil.rmtree(staging)
    made = _make_parents(staging.parent)
    try:
        staging.mkdir()
        write_tree(staging, files)
        os.chmod(staging / "gm", 0o700)
        campaign = Campaign(staging, config, game)
        if open_seats is not None:  # no opening until the start deals it (campaign/signup.py)
            if root.exists():
                root.rmdir()
            os.rename(staging, root)
            return Campaign(root, config, game)
        setup = new_setup(config["name"], game, entries, chosen, seed, passwords)
        try:
            out = opening(campaign, setup, seed, Renderer(game.id, None))
        except ValueError as exc:  # a game refusing its options or seats at setup, in its own words
            raise CampaignError(str(exc)) from None
        write_tree(staging / turn_name(0), out.files)
        (staging / turn_name(1) / "orders").mkdir(parents=True)
        if root.exists():
            root.rmdir()
        os.rename(staging, root)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        for folder in reversed(made):
            try:
                folder.rmdir()
            except OSError:  # something else was put there meanwhile: it stays
                break
        raise
    return Campaign(root, config, game)


def new_folder(root: Path) -> Path:
    """The folder a new campaign goes to, read as written (`x/../y` is `y`, and no `x/` is made);
    the current folder or a parent is refused in words: the campaign needs a folder of its own."""
    folder = Path(os.path.normpath(root))
    if folder.name in ("", ".", ".."):
        raise CampaignError(
            f"'{root}' is the current folder or one above it; give pbem new the name of a new folder for the campaign "
            "(for example `pbem new spies-2027`)"
        )
    return folder


def _make_parents(folder: Path) -> list[Path]:
    """Make `folder` and the folders above it that are missing; returns the ones made, outermost first."""
    missing = [f for f in (folder, *folder.parents) if not f.exists()][::-1]
    for made in missing:
        made.mkdir()
    return missing
