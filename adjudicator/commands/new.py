"""`pbem new`: create a campaign and its opening reports."""

from __future__ import annotations

import argparse
from pathlib import Path

from .console import Failure, console, game_list, literal

HELP = "create a campaign and its opening reports"


def arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the campaign folder to create (it must not exist, or be empty)")
    p.add_argument("--game", required=True, help=f"the game: {game_list()}")
    p.add_argument("--players", help="comma-separated ids, each optionally id=email (required without --open)")
    p.add_argument("--open", type=int, metavar="N", help="a sign-up campaign of N seats: players join by mail (docs/email-workflow.md)")
    p.add_argument("--names", help="display names, e.g. tony=Tony Stark,sue=Sue (default: the ids)")
    p.add_argument("--gm-email", metavar="EMAIL", help="the GM's address: the From of mailed reports, a copy of each public report")
    p.add_argument("--seed", help="fix the seed (tests, demos, announced tournaments only)")
    p.add_argument("--no-passwords", action="store_true", help="for forum games")
    p.add_argument("--option", action="append", default=[], metavar="K=V", help="a game option (repeat for several; listed below)")
    p.add_argument("--name", help="campaign name for reports and mail (default: the folder's name)")
    p.formatter_class = _WithGameOptions
    p.epilog = _GAME_OPTIONS


_GAME_OPTIONS = "(the options of each game)"
"""The epilog's stand-in: the options are listed only when help is printed, so that every
other run of `pbem` does not load the five games to describe them."""


class _WithGameOptions(argparse.HelpFormatter):
    def add_text(self, text: str | None) -> None:
        if text != _GAME_OPTIONS:
            super().add_text(text)
            return
        from ..games import GAMES

        self.start_section("options of each game (--option K=V)")
        for game in GAMES.values():
            self.start_section(f"{game.id} ({game.title})")
            if not game.options:
                super().add_text("no options")
            for key, option in game.options.items():
                default = str(option.default).lower() if isinstance(option.default, bool) else option.default
                choices = [c for c in option.choices if c not in option.help]  # a help text may name them already
                super().add_text(f"{key}={default}: {option.help}" + (f" (one of: {', '.join(option.choices)})" if choices else ""))
            self.end_section()
        self.end_section()


def run(args: argparse.Namespace) -> int:
    from ..campaign.create import create, parse_players

    if args.players is None and args.open is None:
        raise Failure("pbem new needs --players, or --open N for a campaign that players join by mail")
    players = parse_players(args.players or "")
    for pair in args.names.split(",") if args.names else []:
        player_id, _, name = pair.partition("=")
        entry = next((p for p in players if p["id"] == player_id.strip()), None)
        if entry is None or not name.strip():
            raise Failure(f"--names takes id=Display Name pairs for listed players, not '{pair}'")
        entry["name"] = name.strip()
    campaign = create(
        Path(args.dir),
        args.game,
        players,
        options=args.option,
        seed=args.seed,
        passwords=not args.no_passwords,
        gm_email=args.gm_email,
        name=args.name,
        open_seats=args.open,
    )
    out = console()
    if args.open is not None:
        out.print(f"Created {campaign.game.title} campaign [bold]{literal(campaign.config['name'])}[/] in {literal(campaign.root)}, open for sign-up: {len(campaign.players)} of {args.open} seats taken")
        out.print(f"Seed commitment (publish it): {campaign.config['seed_commitment']}")
        out.print("Players join by mail (join NAME); the game starts when the last seat is filled (judge: start: full), or with pbem start (judge: start: gm).", markup=False)
        return 0
    out.print(f"Created {campaign.game.title} campaign [bold]{literal(campaign.config['name'])}[/] in {literal(campaign.root)}")
    out.print(f"Seed commitment (publish it): {campaign.config['seed_commitment']}")
    if args.seed is not None:
        out.print(
            "[yellow]Warning:[/] you chose the seed. A seed that players can guess lets them check the "
            "commitment and foresee every draw; use it only for tests, demos or a tournament that announces it."
        )
    if campaign.uses_passwords:
        out.print(f"Passwords for the players are in {campaign.root / 'gm' / 'passwords.yaml'}: send each player their own.", markup=False)
    out.print(f"Opening reports: {campaign.turn_dir(0) / 'reports'}; orders for turn 1 go to {campaign.turn_dir(1) / 'orders'}/", markup=False)
    return 0
