"""Reports from Jinja templates, compiled once per run.

Templates live in `templates/<game>/` (and shared pieces in `templates/common/`);
a campaign overrides one by putting a file of the same name in its own
`templates/` folder. A campaign's own templates are a GM's code and run in
Jinja's sandbox; the shipped ones are the project's code and run unsandboxed
(the sandbox checks every attribute and every call, a cost paid per report).
Either way undefined names are errors and HTML templates autoescape, so player
text is never evaluated or injected.
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from .. import games
from ..common import yamlsafe
from ..common.words import noun
from ..common.resources import resource_path

_DICT_ATTRIBUTES = frozenset(dir(dict))

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~])")


def markdown_text(text: str) -> str:
    """Text shown literally in Markdown: special characters escaped, no line breaks."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


_MARKDOWN_ESCAPED = re.compile(r"\\([\\`*_{}\[\]<>()#+!|~])")


def markdown_plain(text: str) -> str:
    """A Markdown report as plain text, for a reader that shows it as written (the public report
    mailed as text/plain): the escapes `markdown_text` put in are taken out again."""
    return _MARKDOWN_ESCAPED.sub(r"\1", text)


def by_holder(per_turn: list[Any], holders: list[dict[str, Any]], last: int | None = None) -> str:
    """A seat's record of one thing per turn (turn 1 first), the last `last` turns of it, each turn credited
    to whoever held the seat then (the seat history's `from`/`to`): `tub, bed` for a seat that never
    changed hands, `Carol: tub; Erin: tub, table` for one that did (a vacant seat's turns are the
    stand-in's). A turn's record is never said to be its later holder's."""
    first = max(1, len(per_turn) - last + 1) if last else 1
    groups: list[tuple[str, list[str]]] = []
    for turn, value in enumerate(per_turn[first - 1:], start=first):
        holder = next((h for h in holders if h["from"] <= turn and (h["to"] is None or turn <= h["to"])), holders[-1])
        name = "the stand-in" if holder.get("vacant") else str(holder["name"])
        if groups and groups[-1][0] == name:
            groups[-1][1].append(str(value))
        else:
            groups.append((name, [str(value)]))
    if len(groups) <= 1:
        return ", ".join(groups[0][1]) if groups else ""
    return "; ".join(f"{name}: {', '.join(values)}" for name, values in groups)


def yaml_word(word: str) -> str:
    """A word for an order form, quoted where YAML would read it bare as another value
    (a player whose id is `null` must write `player: "null"`)."""
    return word if yamlsafe.reads_as_text(word) else f'"{word}"'


@cache
def _shared(game_id: str, base_url: str | None) -> Renderer:
    return Renderer(game_id, None, base_url)


def _is_markup(template: str | None) -> bool:
    """Autoescape HTML and XML templates (`public.html.j2`): player text must not become markup."""
    return bool(template) and template.removesuffix(".j2").endswith((".html", ".htm", ".xml"))


def _output_name(template: str, stem: str) -> str:
    """`private.txt.j2` for player tony -> `tony.txt`."""
    extension = template.removesuffix(".j2").rsplit(".", 1)[-1]
    return f"{stem}.{extension}"


def _item_first(base: type) -> type:
    """`base` where a plain dict's keys come before its methods, as `data.key` and as `data[key]`.

    Jinja tries the attribute first and falls back to the item for `data.key`, and
    for `data[key]` falls back to the attribute when the key is missing. The
    views are dicts keyed by player ids, and a player may be called `items`,
    `get` or `update`: `v.revealed[p]` for an unrevealed `get` would find the
    method, and `v.ranks.items` the method instead of that player's rank. So
    a key present is always the data; a missing key is undefined, never a
    method; only a name that is not a key reaches a dict's methods. Templates
    loop over player-keyed dicts with the `items` filter, never `.items()`.
    Looking the item up first is also the fast path: an attribute miss raised
    and caught an AttributeError for every `event.code`.
    """

    def getattr(self: Any, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                if attribute not in _DICT_ATTRIBUTES:
                    return self.undefined(obj=obj, name=attribute)
        return base.getattr(self, obj, attribute)

    def getitem(self: Any, obj: Any, argument: Any) -> Any:
        if type(obj) is dict:
            try:
                return obj[argument]
            except (KeyError, TypeError):
                return self.undefined(obj=obj, name=argument)
        return base.getitem(self, obj, argument)

    return type(f"ItemFirst{base.__name__}", (base,), {"getattr": getattr, "getitem": getitem})


ECHO_WIDTH = 100
"""The columns of an order's words on one line of a report (where the echo used to be cut: an order that fits
is shown on one line as before)."""


def hang(text: str, indent: int) -> str:
    """`text` for a line whose words start `indent` columns in, wrapped at ECHO_WIDTH columns of words, each
    further line indented as far: a long order is shown whole, never cut. A word longer than that is kept whole."""
    return ("\n" + " " * indent).join(textwrap.wrap(text, ECHO_WIDTH, break_long_words=False, break_on_hyphens=False)) or text


def column(text: str, names: dict[str, str], least: int, extra: int = 0) -> str:
    """`text` padded to the width of a table's name column: `least`, or wider where the longest name (and
    `extra`, for a suffix such as " (you)") needs it, so that a long name never pushes its row out of line."""
    return str(text).ljust(max(least, max((len(n) for n in names.values()), default=0) + extra))


class Renderer:
    """The templates of one game, as one campaign sees them (its overrides first)."""

    def __init__(self, game_id: str, campaign_root: Path | None = None, base_url: str | None = None) -> None:
        self.game_id = game_id
        self.campaign_root = campaign_root
        self.base_url = base_url
        """Where the campaign's archive site is published (`site: base_url:`): public reports link their picture there."""

    @classmethod
    def for_campaign(cls, game_id: str, campaign_root: Path, base_url: str | None = None) -> "Renderer":
        """Campaigns without their own templates share one compiled set per run (a batch
        of a thousand campaigns compiles each template once, not a thousand times)."""
        if (campaign_root / "templates").is_dir():
            return cls(game_id, campaign_root, base_url)
        return _shared(game_id, base_url)

    @cached_property
    def env(self) -> Any:
        import jinja2
        from jinja2.sandbox import SandboxedEnvironment

        folders = [resource_path("templates", self.game_id), resource_path("templates", "common")]
        base: type = jinja2.Environment
        if self.campaign_root is not None and (self.campaign_root / "templates").is_dir():
            folders.insert(0, self.campaign_root / "templates")
            base = SandboxedEnvironment
        env = _item_first(base)(
            loader=jinja2.FileSystemLoader([str(f) for f in folders]),
            auto_reload=False,  # compiled once per run: the files do not change under a running command
            autoescape=_is_markup,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
        )
        env.filters["plural"] = noun
        env.filters["names"] = lambda ids, names: ", ".join(names[i] for i in ids)
        env.filters["md"] = markdown_text
        env.filters["yaml_word"] = yaml_word
        env.filters["by_holder"] = by_holder
        env.filters["column"] = column
        env.filters["hang"] = hang
        env.filters["map_values"] = lambda mapping, name: {k: env.filters[name](v) for k, v in mapping.items()}
        game = games.GAMES[self.game_id] if self.game_id in games.GAMES else None  # None: the site's own templates
        if game is not None:  # orders an order form suggests, legal for that player now
            env.filters["form_examples"] = game.form_examples
        env.globals["site"] = {"base_url": self.base_url}
        return env

    @cached_property
    def digest(self) -> str:
        """The SHA-256 of everything besides the turn that a report's bytes depend on: every file of the
        template folders in the order they are searched (the campaign's own first), the code that renders
        and converts them (this module and bbcode.py) and `site: base_url:`. Each turn's manifest records
        it; `pbem audit` replays a turn's reports byte for byte when it is today's (docs/archive.md)."""
        from . import bbcode

        whole = hashlib.sha256()
        for place, folder in enumerate(self.env.loader.searchpath):
            root = Path(folder)
            for path in sorted(p for p in root.rglob("*") if p.is_file()):
                whole.update(f"{place}/{path.relative_to(root).as_posix()}\0".encode("utf-8"))
                whole.update(hashlib.sha256(path.read_bytes()).digest())
        for code in (Path(__file__), Path(bbcode.__file__)):
            whole.update(hashlib.sha256(code.read_bytes()).digest())
        whole.update(f"base_url\0{self.base_url or ''}".encode("utf-8"))
        return whole.hexdigest()

    @cached_property
    def _kinds(self) -> dict[str, list[str]]:
        """Template names by kind, listed once: listing walks the template folders."""
        kinds: dict[str, list[str]] = {}
        for name in sorted(self.env.loader.list_templates()):
            if name.endswith(".j2") and "/" not in name:
                kinds.setdefault(name.partition(".")[0], []).append(name)
        return kinds

    def templates(self, kind: str) -> list[str]:
        """The template names of one kind (`private` or `public`), e.g. public.md.j2 and public.html.j2."""
        return self._kinds.get(kind, [])

    def readings(self, submission: Any, verb: str, where: str | None = None) -> list[str]:
        """A checked file's orders, one line each, as every report says them (templates/common/_orders.txt.j2):
        the acknowledgement, the mail commands' answers and `pbem check` print these same lines."""
        text = self.env.get_template("_orders.txt.j2").module.readings(submission, verb, where)
        return str(text).splitlines()

    def render(self, kind: str, stem: str, context: dict[str, Any]) -> dict[str, bytes]:
        """Render every template of `kind`; keys are file names under reports/."""
        out: dict[str, bytes] = {}
        for name in self.templates(kind):
            text = self.env.get_template(name).render(context)
            out[_output_name(name, stem)] = text.encode("utf-8")
        return out
