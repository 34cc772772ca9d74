"""The JSON Schemas in `schemas/`: loaded and compiled once per run.

The schema files are the one contract for what an order file may hold. Valid
documents (nearly all of them) pass through a fastjsonschema-compiled function,
about fifteen times cheaper than jsonschema; a document that fails is checked
again by jsonschema, which locates every error and lets us word it for people.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any, Callable

from ..common.resources import resource_path


@dataclass(frozen=True)
class SchemaError:
    """One place where a document breaks its schema, worded for a player."""

    path: str
    """Where, as a JSONPath-like location such as `orders[3].steal.secret`."""
    message: str


def show_value(value: Any, limit: int = 40) -> str:
    """A short, safe rendering of a player's value for a message (never repr)."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    text = json.dumps(value, ensure_ascii=False)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def echo(item: Any) -> str:
    """An order echoed back to its player on one line, whole: strings as typed, the rest as compact JSON. Never
    cut (trial 9: a Jekyll vs Hyde order echoed as "greed: red1, green1, p…"): the file's size cap bounds it, and
    a report wraps it (the `hang` filter, publish/render.py)."""
    text = item if isinstance(item, str) else json.dumps(item, ensure_ascii=False, separators=(", ", ": "))
    return " ".join(text.split()).encode("utf-8", "replace").decode("utf-8")


_KINDS = {
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "object": "a mapping",
    "array": "a list",
    "boolean": "true or false",
    "null": "empty",
}


def _kind(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return value and "true" or "false"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {show_value(value)}"
    return show_value(value)


def _wanted(types: str | list[str]) -> str:
    names = [types] if isinstance(types, str) else types
    return " or ".join(_KINDS.get(t, t) for t in names)


_SPELLED = {None: "null", True: "true", False: "false"}


def _reading_hint(types: str | list[str], instance: Any) -> str:
    """Why a value the player typed as text arrived as something else, and how to keep it text.

    YAML reads a bare `null`, `true` or `false` as no value or a truth value (a
    player whose id is `null` must quote it), a key with nothing after it (an order
    form's `orders:` left with only comments) as no value, and the loader keeps a
    number of more than 18 digits as text rather than build a huge integer."""
    wanted = [types] if isinstance(types, str) else types
    if wanted == ["string"] and (instance is None or isinstance(instance, bool)):
        word = _SPELLED[instance]
        return f' (YAML reads a bare {word} that way: to mean the text {word}, put it in quotes: "{word}")'
    if wanted == ["array"] and instance is None:
        return " (YAML reads a key with nothing after it as no value; an empty list is written [])"
    if "integer" in wanted and isinstance(instance, str) and instance.lstrip("+-").isdigit() and len(instance.lstrip("+-")) > 18:
        return f" ({len(instance.lstrip('+-'))} digits: numbers of more than 18 digits are not read)"
    return ""


def _words(error: Any) -> str:
    """Plain words for one jsonschema ValidationError."""
    kind, value, instance = error.validator, error.validator_value, error.instance
    if kind == "type":
        return f"must be {_wanted(value)}, not {_kind(instance)}" + _reading_hint(value, instance)
    if kind == "required":
        missing = [name for name in value if isinstance(instance, dict) and name not in instance]
        return "is missing " + ", ".join(f"the field '{name}'" for name in missing)
    if kind == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted((k for k in instance if k not in allowed), key=str)  # a bare null or true key shows as written
        return (
            "has " + ", ".join(f"the unknown field {show_value(k)}" for k in extra)
            + f" (the fields are: {', '.join(allowed)})"
        )
    if kind == "minimum":
        return f"is {show_value(instance)}, below the lowest allowed value {value}"
    if kind == "maximum":
        return f"is {show_value(instance)}, above the highest allowed value {value}"
    if kind == "enum":
        return f"is {show_value(instance)}; it must be one of: " + ", ".join(show_value(v) for v in value)
    if kind == "const":
        return f"must be {show_value(value)}"
    if kind == "pattern":
        described = error.schema.get("description", "")
        return f"{show_value(instance)} does not have the expected form" + (f" ({described})" if described else "")
    if kind in ("minLength", "maxLength"):
        return f"is {len(instance)} characters long; the {'least' if kind == 'minLength' else 'most'} allowed is {value}"
    if kind in ("minItems", "maxItems"):
        return f"has {len(instance)} items; the {'least' if kind == 'minItems' else 'most'} allowed is {value}"
    if kind == "uniqueItems":
        return "has the same item twice"
    if kind in ("oneOf", "anyOf"):
        forms = list(dict.fromkeys(branch.get("type") for branch in value))
        if all(isinstance(form, str) for form in forms):  # every form failed on its type: name them
            return f"must be {_wanted(forms)}, not {_kind(instance)}" + _reading_hint(forms, instance)
        return "does not match any accepted form of this field"
    return f"breaks the rule '{kind}' of the schema"


def _path(prefix: str, error: Any) -> str:
    out = prefix
    for part in error.absolute_path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(the whole file)"


class Schema:
    """One schema document, with a fast check and a slow, well-worded one."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self._fast: Callable[[Any], Any] | None = None
        self._slow: Any = None

    def is_valid(self, instance: Any) -> bool:
        if self._fast is None:
            import fastjsonschema

            self._fast = fastjsonschema.compile(self.document)
        try:
            self._fast(instance)
        except Exception:  # JsonSchemaValueException, or a fast-path limitation
            return False
        return True

    def errors(self, instance: Any, prefix: str = "") -> list[SchemaError]:
        """Every error, located and worded; empty when the instance is valid."""
        if self.is_valid(instance):
            return []
        if self._slow is None:
            import jsonschema

            cls = jsonschema.validators.validator_for(self.document)
            cls.check_schema(self.document)
            self._slow = cls(self.document)
        found: dict[SchemaError, None] = {}  # jsonschema reports `required` once per missing field; our words name them all at once
        for error in sorted(self._slow.iter_errors(instance), key=lambda e: list(map(str, e.absolute_path))):
            for leaf in _closest_branch(error):
                found.setdefault(SchemaError(_path(prefix, leaf), _words(leaf)))
        return list(found) or [SchemaError(prefix or "(the whole file)", "does not match the schema")]


def _closest_branch(error: Any) -> list[Any]:
    """For a failed oneOf/anyOf, the errors of the alternative the player most likely meant.

    Alternatives of the wrong type (a mapping where the branch wants text) are
    dropped; of the rest, the one with the fewest errors is reported in full.
    """
    if error.validator not in ("oneOf", "anyOf") or not error.context:
        return [error]
    branches: dict[int, list[Any]] = {}
    for sub in error.context:
        branches.setdefault(sub.schema_path[0], []).append(sub)
    plausible = {
        index: subs
        for index, subs in branches.items()
        if not any(sub.validator == "type" and not sub.relative_path for sub in subs)
    }
    if not plausible:
        return [error]
    best = min(plausible.values(), key=len)
    return [leaf for sub in best for leaf in _closest_branch(sub)]


@cache
def load(name: str) -> Schema:
    """The schema `schemas/<name>.json`, e.g. `common/order-file` or `secrets/orders`."""
    path = resource_path("schemas", f"{name}.json")
    return Schema(json.loads(path.read_text(encoding="utf-8")))
