"""The seat's life after the start (design 16): a resigned seat handed on, a takeover done.

    campaign.yaml  signup: vacant: {SEAT: TURN}        a seat whose player resigned (mail/commands.py)
                   signup: takeovers: [{seat, name, email}]   `takeover SEAT` asked by mail (mail/signup.py)
                   signup: waiting: [...]               who takes the next vacant seat

After the mail is read, by every route that files a resignation (the judge's tick, and `pbem ingest`
alone, which then leaves the facts to the GM's next digest), the judge:

1. hands each seat whose player resigned to the first on the waiting list, at once (and a seat left
   vacant to whoever joins the waiting list later), as `pbem replace` does (history kept, a new password for the new player, mailed to them alone); with nobody waiting,
   to no one: the seat keeps its name, loses its address and gets a new password nobody knows, so the
   resigned player's password no longer works, and the stand-in plays it (`standins:`, written by the
   resignation) until a `takeover`;
2. does each takeover asked for a seat still vacant (or abandoned: `judge: abandon_after`), unless
   `judge: takeover: gm` (then the GM runs `pbem replace`; the request only tells the GM).

Each step is `replace` first (it takes the lock), then the bookkeeping in campaign.yaml under the lock.
A kill between the two is finished by the next tick: the seat's holder is already the new player, so
nobody is seated twice and the bookkeeping is done then; the letter's name is fixed, so it goes once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..campaign import rollback, signup, standins
from ..campaign.folder import Campaign, CampaignError, read_yaml, turn_name
from ..common import atomic
from ..mail import compose, reportmail
from . import letters
from .replace import replace


def _password(campaign: Campaign, seat: str) -> str | None:
    path = campaign.root / "gm" / "passwords.yaml"
    known = (read_yaml(path) or {}) if path.is_file() else {}
    return str(known[seat]) if campaign.uses_passwords and seat in known else None


def _last_report(campaign: Campaign, seat: str, slug: str) -> tuple[dict[str, bytes], str]:
    """The seat's report of the last turn for its new holder, in the same tick, and what the letter says of it.
    A turn whose reports are not yet built goes to the new holder when they are (mail/reportmail.py builds
    each report for whoever holds the seat for the next turn): sending it here too would send it twice."""
    last = campaign.last_turn
    if rollback.withheld(campaign, last):
        return {}, f"Your report of turn {last}, with its order form, comes by mail once the GM releases that turn"
    if last > 0 and not rollback.reports_built(campaign.root, last):
        return {}, f"Your report of turn {last}, with its order form, comes with the judge's next mail"
    message, _ = reportmail.seat_report(campaign, last, seat)
    if message is None:
        return {}, "Write `report` for the seat's last report, with its order form"
    what = "opening report" if last == 0 else f"report of turn {last}"
    return ({f"{turn_name(last)}/report-{seat}-{slug}.eml": compose.to_bytes(message)},
            f"Your {what}, with its order form, comes in a message of its own with this one")


def _welcome(campaign: Campaign, seat: str, turn: int) -> dict[str, bytes]:
    """The new holder's letter (the seat, the turn they play from, its deadline, their password: theirs
    alone), and the seat's last report, addressed to them."""
    holder = campaign.player(seat) or {}
    if not holder.get("email") or not campaign.gm_email:
        return {}
    slug = signup.bare(str(holder["email"])).replace("@", ".at.")
    report, said = _last_report(campaign, seat, slug)
    password = _password(campaign, seat)
    secret = f"\nYour password (put a line `password: ...` in every order file and command): {password}\n" if password else ""
    body = (
        f"{campaign.config.get('name')} ({campaign.game.title}): you hold the seat {seat} from turn {turn} on.\n{secret}\n"
        f"{letters.deadline_words(campaign, turn)}\n\n"
        f"{said}; write `report` to have it again, and `help` for the commands.\n"
    )
    message = compose.make_message(campaign, kind=f"seat-{seat}", turn=turn, to=[(str(holder.get("name", seat)), str(holder["email"]))],
                                   subject=f"[{campaign.config.get('name')}] you hold the seat {seat}", body=body)
    return {f"{turn_name(turn)}/seat-{seat}-{slug}.eml": compose.to_bytes(message), **report}


def _section(campaign: Campaign) -> dict[str, Any]:
    return dict(campaign.config.get(signup.KEY) or {"seats": len(campaign.players), "observers": []})


def _seated(root: Path, seat: str, taker: dict[str, Any] | None, facts: list[str], why: str) -> None:
    """Hand `seat` to `taker` (None: to nobody, the resignation) unless done already, then the bookkeeping."""
    campaign = Campaign.open(root)
    holder = campaign.player(seat) or {}
    address = signup.bare(str(taker["email"])) if taker else None
    done = (signup.bare(str(holder["email"])) == address) if (holder.get("email") and address) else (taker is None and not holder.get("email"))
    if not done:
        replace(root, seat, str(taker["name"]) if taker else str(holder.get("name", seat)), address, tell=False, vacant=taker is None)
    with atomic.locked(root):
        campaign = Campaign.open(root)
        pending = campaign.last_turn + 1
        section = _section(campaign)
        if taker is not None:
            compose.write_outbox(root, _welcome(campaign, seat, pending))  # before the record: a kill sends it once, later
            section["vacant"] = {s: t for s, t in signup.vacant(campaign).items() if s != seat}
            section["waiting"] = [w for w in section.get("waiting") or [] if signup.bare(str(w.get("email", ""))) != address]
            section["takeovers"] = [t for t in section.get("takeovers") or [] if t.get("seat") != seat]
            word = {**standins.settings(campaign), seat: {"on": False, "from": pending}}
            signup.write_config(campaign, {signup.KEY: section, "standins": dict(sorted(word.items()))})
            facts.append(f"seat {seat} taken by {taker['name']} <{address}> from turn {pending} ({why})")
        elif not done:
            facts.append(f"seat {seat} vacant from turn {pending}: nobody was waiting, the stand-in plays it until a takeover")


def open_seats(campaign: Campaign) -> set[str]:
    """The seats a `takeover` may take: vacant (resigned) or abandoned (judge: abandon_after)."""
    found = set(signup.vacant(campaign))
    if not campaign.over:
        found |= {s for s, d in standins.due(campaign, campaign.last_turn, campaign.state()).items() if d.reason == standins.ABANDONED}
    return found


def settle(root: Path) -> list[str]:
    """Hand resigned seats on and do the takeovers asked for; the facts for the GM. Called without the lock."""
    campaign = Campaign.open(root)
    if signup.KEY not in campaign.config or signup.is_open(campaign) or campaign.over:
        return []
    facts: list[str] = []
    for seat in sorted(signup.vacant(campaign)):
        campaign = Campaign.open(root)
        waiting = (campaign.config.get(signup.KEY) or {}).get("waiting") or []
        holder = campaign.player(seat) or {}
        if waiting and signup.bare(str(holder.get("email") or "")) == signup.bare(str(waiting[0].get("email", ""))):
            _seated(root, seat, waiting[0], facts, "first on the waiting list")  # a kill after the handover: finished
        elif waiting and seat in signup.joinable(campaign):  # the resigned player still holds it, or nobody has since
            _seated(root, seat, waiting[0], facts, "first on the waiting list")
        elif holder.get("email"):
            _seated(root, seat, None, facts, "resigned")
    campaign = Campaign.open(root)
    if takeover_mode(campaign) == "gm":
        return facts
    for request in list((campaign.config.get(signup.KEY) or {}).get("takeovers") or []):
        campaign = Campaign.open(root)
        seat = str(request.get("seat"))
        if seat in open_seats(campaign):
            _seated(root, seat, request, facts, "takeover")
    return facts


def takeover_mode(campaign: Campaign) -> str:
    judge = campaign.config.get("judge") or {}
    mode = judge.get("takeover", "mail") if isinstance(judge, dict) else "mail"
    if mode not in ("mail", "gm"):
        raise CampaignError(f"{campaign.root / 'campaign.yaml'}: judge.takeover: '{mode}' is not mail or gm")
    return str(mode)
