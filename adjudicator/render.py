"""Reports from Jinja templates, compiled once per run.

Templates live in `templates/<game>/` (and shared pieces in `templates/common/`);
a campaign overrides one by putting a file of the same name in its own
`templates/` folder. The environment is sandboxed, undefined names are errors,
and HTML templates autoescape, so player text is never evaluated or injected.
"""

from __future__ import annotations

import re
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from .resources import resource_dir



_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~])")


def markdown_text(text: str) -> str:
    """Text shown literally in Markdown: special characters escaped, no line breaks."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


@cache
def _shared(game_id: str) -> Renderer:
    return Renderer(game_id, None)


def _is_markup(template: str | None) -> bool:
    """Autoescape HTML and XML templates (`public.html.j2`): player text must not become markup."""
    return bool(template) and template.removesuffix(".j2").endswith((".html", ".htm", ".xml"))


def _output_name(template: str, stem: str) -> str:
    """`private.txt.j2` for player tony -> `tony.txt`."""
    extension = template.removesuffix(".j2").rsplit(".", 1)[-1]
    return f"{stem}.{extension}"


class Renderer:
    """The templates of one game, as one campaign sees them (its overrides first)."""

    def __init__(self, game_id: str, campaign_root: Path | None = None) -> None:
        self.game_id = game_id
        self.campaign_root = campaign_root

    @classmethod
    def for_campaign(cls, game_id: str, campaign_root: Path) -> "Renderer":
        """Campaigns without their own templates share one compiled set per run (a batch
        of a thousand campaigns compiles each template once, not a thousand times)."""
        if (campaign_root / "templates").is_dir():
            return cls(game_id, campaign_root)
        return _shared(game_id)

    @cached_property
    def env(self) -> Any:
        import jinja2
        from jinja2.sandbox import SandboxedEnvironment

        shipped = resource_dir("templates")
        folders = [shipped / self.game_id, shipped / "common"]
        if self.campaign_root is not None and (self.campaign_root / "templates").is_dir():
            folders.insert(0, self.campaign_root / "templates")
        env = SandboxedEnvironment(
            loader=jinja2.FileSystemLoader([str(f) for f in folders]),
            autoescape=_is_markup,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
        )
        env.filters["plural"] = lambda n, word, many=None: word if n == 1 else (many or word + "s")
        env.filters["names"] = lambda ids, names: ", ".join(names[i] for i in ids)
        env.filters["md"] = markdown_text
        return env

    def templates(self, kind: str) -> list[str]:
        """The template names of one kind (`private` or `public`), e.g. public.md.j2 and public.html.j2."""
        names = set(self.env.loader.list_templates())
        return sorted(n for n in names if n.startswith(kind + ".") and n.endswith(".j2") and "/" not in n)

    def render(self, kind: str, stem: str, context: dict[str, Any]) -> dict[str, bytes]:
        """Render every template of `kind`; keys are file names under reports/."""
        out: dict[str, bytes] = {}
        for name in self.templates(kind):
            text = self.env.get_template(name).render(context)
            out[_output_name(name, stem)] = text.encode("utf-8")
        return out
