"""An exported campaign as `pbem audit` reads it (campaign/export.py writes one).

An export's order files have their passwords taken out, so its `export.json` says,
for each file it changed, the SHA-256 of the file as filed (which the manifest
recorded) and of the file as exported, and whether the file's password was accepted at the time.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from .folder import EXPORT_FILE, Campaign, CampaignError, turn_name
from .redact import REMOVED


class ExportedCampaign(Campaign):
    """An exported campaign, as `pbem audit` reads it: passwords judged as they were at the time."""

    verdicts: dict[str, bool]
    originals: dict[str, dict[str, str]]
    rejections: dict[str, dict[str, Any]]

    def as_filed(self, turn: int, name: str, data: bytes) -> str | None:
        record = self.originals.get(f"{turn_name(turn)}/orders/{name}")
        if record is None or record.get("exported") != hashlib.sha256(data).hexdigest():
            return None  # a file changed since the export keeps its own hash, and diverges
        return str(record["filed"])

    def recorded_rejection(self, turn: int, source: str) -> tuple[str, list[tuple[str, str]]] | None:
        found = self.rejections.get(f"{turn_name(turn)}/{source}")
        if found is None:
            return None
        return str(found["player"]), [(str(p["where"]), str(p["what"])) for p in found["problems"]]

    def password_ok(self, player_id: str, password: str, turn: int | None = None) -> bool:
        return password == REMOVED and self.verdicts.get(f"{turn_name(turn or 0)}/{player_id}", False)


def open_for_audit(root: Path) -> Campaign:
    """The campaign at `root`; an export (with export.json) as an ExportedCampaign."""
    campaign = Campaign.open(root)
    path = Path(root) / EXPORT_FILE
    if not path.is_file():
        return campaign
    try:
        record = json.loads(path.read_text("utf-8"))
        verdicts, originals = dict(record["passwords"]), dict(record["originals"])
        rejections = dict(record.get("rejected", {}))
    except (ValueError, KeyError, TypeError):
        raise CampaignError(f"{path} is damaged (not the export record pbem export writes)") from None
    exported = ExportedCampaign(campaign.root, campaign.config, campaign.game)
    exported.verdicts, exported.originals, exported.rejections = verdicts, originals, rejections
    return exported



def originals(campaign: Campaign) -> dict[str, dict[str, str]]:
    """Path in the campaign -> {"filed": SHA-256 as filed, "exported": as exported}, for the files an export changed."""
    return campaign.originals if isinstance(campaign, ExportedCampaign) else {}
