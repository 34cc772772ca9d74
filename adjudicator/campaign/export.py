"""`pbem export`: a copy of a revealed campaign that anyone can audit and that holds nothing private.

The copy keeps what the replay needs and the public may have once the game is over:
campaign.yaml without addresses, password hashes or the judge's mail settings; the
revealed seed (reveal.yaml) and nothing else of gm/; every turn folder; the campaign's
own templates. Nothing of mail/. Order files are copied as filed with the password
taken out (campaign/redact.py).

A file without its password no longer hashes as the manifest recorded it, and its
password can no longer be checked. So the export writes `export.json`: for each order
file it changed, the SHA-256 of the file as filed and of the file as exported, and whether its password was
accepted at the time (the GM's copy checks it now, against the real hashes). `pbem
audit` of the export (campaign/exported.py) takes the hash as filed for a file that is still
byte for byte as exported (a file changed after the export diverges), and checks everything
else as usual; the copy is audited before it is put in place, so an export that would
not audit clean is never written.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path
from typing import Any

from ..common import yamlsafe
from ..common.atomic import write_tree
from .audit import REVEAL_FILE, audit
from .exported import EXPORT_FILE
from .folder import Campaign, CampaignError, dump_json, dump_yaml
from . import pending
from .pipeline import _unquoted
from .redact import known_passwords, redact

KEPT_SETTINGS = ("name", "game", "options", "passwords", "seed_commitment", "schedule", "timezone", "site")
"""The campaign.yaml settings an export keeps: what the replay reads, and nothing that names an address."""
KEPT_SEAT = ("id", "name", "since")
KEPT_HOLDER = ("name", "from", "to")


def _settings(config: dict[str, Any]) -> dict[str, Any]:
    kept = {key: config[key] for key in KEPT_SETTINGS if key in config}
    seats = []
    for seat in config["players"]:
        entry = {key: seat[key] for key in KEPT_SEAT if key in seat}
        if seat.get("history"):
            entry["history"] = [{key: h[key] for key in KEPT_HOLDER if key in h} for h in seat["history"]]
        seats.append(entry)
    kept["players"] = seats
    return kept


def _verdict(campaign: Campaign, turn: int, data: bytes) -> tuple[str, bool] | None:
    """(claimed player, whether its password was accepted) for an order file that carries one."""
    try:
        document = yamlsafe.load(data)
    except Exception:  # noqa: BLE001 - a file that does not load was rejected whole; no password was judged
        return None
    if not isinstance(document, dict) or not isinstance(document.get("player"), str) or "password" not in document:
        return None
    password = document["password"]
    if isinstance(password, int) and not isinstance(password, bool):
        password = str(password)
    if not isinstance(password, str):
        return None
    player = document["player"]
    inner = _unquoted(password)
    return player, campaign.password_ok(player, password, turn) or bool(inner and campaign.password_ok(player, inner, turn))


def _refusal(campaign: Campaign, turn: int, name: str, data: bytes) -> dict[str, Any] | None:
    """How turn `turn` refused its order file `name` (these bytes, password and all), or None when it read it:
    a broken file reads otherwise once its password is taken out, so the export records the refusal."""
    if not campaign.is_adjudicated(turn):
        return None
    read = pending.replay(campaign, turn, campaign.state(turn - 1), campaign.setup_record())
    whose = {file: player for player, file in read.sorted_files[0].items()}
    if name not in whose:
        return None  # a file the turn did not read (its name says so)
    sub = read.submission(whose[name])
    if not sub.nmr:
        return None
    return {"player": sub.player, "problems": [{"where": p.where, "what": p.what} for p in sub.problems]}


def _files(campaign: Campaign) -> tuple[dict[str, bytes], dict[str, Any]]:
    root, passwords = campaign.root, known_passwords(campaign.root)
    files: dict[str, bytes] = {"campaign.yaml": dump_yaml(_settings(campaign.config)), REVEAL_FILE: (root / REVEAL_FILE).read_bytes()}
    record: dict[str, Any] = {"originals": {}, "passwords": {}, "rejected": {}}
    for base, folders, names in os.walk(root):
        relative = Path(base).relative_to(root)
        top = relative.parts[0] if relative.parts else ""
        folders[:] = sorted(f for f in folders if not f.startswith(".") and (top or f.startswith("turn-") or f == "templates"))
        if not top:
            continue
        for name in sorted(n for n in names if not n.startswith(".")):
            path = Path(base) / name
            if path.is_symlink():
                continue
            data = path.read_bytes()
            inside = str(relative / name)
            if len(relative.parts) == 2 and relative.parts[1] == "orders" and top.startswith("turn-"):
                number = int(top.removeprefix("turn-"))
                cleaned = redact(data, passwords)
                if cleaned != data:
                    refused = _refusal(campaign, number, name, data)
                    if refused is not None:
                        record["rejected"][inside] = refused
                    record["originals"][inside] = {"filed": hashlib.sha256(data).hexdigest(), "exported": hashlib.sha256(cleaned).hexdigest()}
                    verdict = _verdict(campaign, number, data)
                    if verdict is not None:
                        record["passwords"][f"{top}/{verdict[0]}"] = verdict[1]
                data = cleaned
            files[inside] = data
    return files, record


def export(root: Path, out: Path) -> int:
    """Write the export of the campaign at `root` to the new folder `out`; returns the turns it holds."""
    campaign = Campaign.open(root)
    if not (campaign.root / REVEAL_FILE).is_file() or not campaign.over:
        raise CampaignError(f"{root}: only a revealed campaign can be exported (the game must be over and the seed published with pbem reveal)")
    out = Path(out)
    if out.exists():
        raise CampaignError(f"{out} already exists; pbem export writes a new folder")
    files, record = _files(campaign)
    files[EXPORT_FILE] = dump_json(record)
    staging = out.with_name(f".{out.name}.export")
    if staging.exists():
        shutil.rmtree(staging)
    try:
        write_tree(staging, files)
        result = audit(staging)
        if result.divergence is not None:
            raise CampaignError(f"{root}: the export would not audit clean ({result.divergence}); nothing was written")
        os.rename(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # gone already once renamed into place
    return result.turns
