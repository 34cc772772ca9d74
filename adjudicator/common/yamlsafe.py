"""Safe, strict loading of the YAML that players send.

The document is built straight from libyaml's event stream (the C parser, no
Python object construction by tag), because the stock composer has three
hazards for hostile input: it recurses once per nesting level in C (a deeply
nested file crashes the interpreter), it turns an alias into a shared node (an
"alias bomb" explodes whatever walks the result) and it lets a duplicate key
silently win. Here aliases, merge keys, explicit tags, duplicate keys, several
documents and nesting past MAX_DEPTH are refused with a message that says so.

Scalars follow the YAML 1.2 core schema rather than PyYAML's YAML 1.1 rules,
so `no`, `off`, `012`, `1:20` and `2026-11-29` stay the strings the player
typed; only plain decimal integers (no `+` sign), true/false and null are converted.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

MAX_BYTES = 64 * 1024
MAX_DEPTH = 32
# Longer digit strings stay text, so the schema reports "not an integer"
# instead of Python's int() refusing a 5,000-digit number. A leading `+` also
# keeps the text as typed (JSON's integers have none): `+3` is a Jekyll potion.
_INT = re.compile(r"-?(0|[1-9][0-9]{0,17})\Z")
_NULL = frozenset({"", "~", "null", "Null", "NULL"})
_TRUE = frozenset({"true", "True", "TRUE"})
_FALSE = frozenset({"false", "False", "FALSE"})
_STR_TAGS = frozenset({None, "!", "tag:yaml.org,2002:str"})
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def reads_as_text(word: str) -> bool:
    """Whether `word` written bare (a player id, say) loads back as that text: `null`,
    `true`, `false` and plain integers load as other values and need quotes."""
    return not (word in _NULL or word in _TRUE or word in _FALSE or _INT.match(word))


class YamlError(ValueError):
    """The text is not a YAML document we accept; the message says why and where."""


def _tag(tag: str) -> str:
    return tag.replace("tag:yaml.org,2002:", "!!")[:60]


def _where(event: Any) -> str:
    mark = getattr(event, "start_mark", None)
    if mark is None:
        return ""
    return f" (line {mark.line + 1}, column {mark.column + 1})"


def _scalar(event: Any) -> Any:
    value: str = event.value
    if event.tag not in _STR_TAGS:
        raise YamlError(f"YAML tags such as {_tag(event.tag)} are not accepted{_where(event)}")
    plain = event.implicit[0] and event.tag is None
    if not plain:
        return value
    if value in _NULL:
        return None
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    if _INT.match(value):
        return int(value)
    return value


class _Mapping:
    __slots__ = ("data", "key", "has_key")

    def __init__(self) -> None:
        self.data: dict[Any, Any] = {}
        self.key: Any = None
        self.has_key = False


def _add_to_mapping(parent: _Mapping, value: Any, event: Any) -> None:
    if not parent.has_key:
        if isinstance(value, (dict, list)):
            raise YamlError(f"a mapping key must be a plain value, not a list or mapping{_where(event)}")
        if value == "<<" and type(event) is yaml.ScalarEvent and event.implicit[0]:
            raise YamlError(f"merge keys (<<) are not accepted{_where(event)}")
        if value in parent.data:
            raise YamlError(f"duplicate key {str(value)[:40]!r} in one mapping{_where(event)}")
        parent.key, parent.has_key = value, True
        return
    parent.data[parent.key] = value
    parent.has_key = False


def load(data: bytes | str) -> Any:
    """Parse one YAML document from `data`; raise YamlError on anything refused."""
    if isinstance(data, bytes):
        if len(data) > MAX_BYTES:
            raise YamlError(f"the file is larger than the limit of {MAX_BYTES // 1024} KiB")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise YamlError(f"the file is not UTF-8 text (byte {exc.start} is invalid)") from None
    else:
        text = data
        if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
            raise YamlError(f"the text is longer than the limit of {MAX_BYTES} bytes")
    if "\x00" in text:
        raise YamlError("the file contains a NUL byte, so it is not a text file")
    loader = _Loader(text)
    try:
        return _build(loader)
    except yaml.MarkedYAMLError as exc:
        problem = exc.problem or exc.context or "not valid YAML"
        mark = exc.problem_mark
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        if "nesting depth" in problem:
            # libyaml 0.2.6 scans a deep flow collection ahead and stops at its own limit of
            # 1,000 levels before our count of events reaches MAX_DEPTH: the same refusal.
            raise YamlError(f"the document is nested more than {MAX_DEPTH} levels deep{where}") from None
        raise YamlError(f"not valid YAML: {problem}{where}") from None
    except yaml.YAMLError as exc:
        raise YamlError(f"not valid YAML: {exc}") from None
    finally:
        loader.dispose()


_COLLECTION_TAGS = (None, "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map")


def _build(loader: Any) -> Any:
    # Events are told apart by their exact class (libyaml's parser makes no subclasses):
    # a file of orders is hundreds of events, and this loop is most of reading one.
    stack: list[Any] = []
    documents = 0
    result: Any = None
    check, get = loader.check_event, loader.get_event
    while check():
        event = get()
        kind = type(event)
        if kind is yaml.ScalarEvent:
            value = _scalar(event)
        elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            if event.tag not in _COLLECTION_TAGS:
                raise YamlError(f"YAML tags such as {_tag(event.tag)} are not accepted{_where(event)}")
            if len(stack) >= MAX_DEPTH:
                raise YamlError(f"the document is nested more than {MAX_DEPTH} levels deep{_where(event)}")
            stack.append([] if kind is yaml.SequenceStartEvent else _Mapping())
            continue
        elif kind is yaml.MappingEndEvent:
            value = stack.pop().data
        elif kind is yaml.SequenceEndEvent:
            value = stack.pop()
        elif kind is yaml.AliasEvent:
            raise YamlError(f"YAML aliases (*{str(event.anchor)[:40]}) are not accepted{_where(event)}")
        elif kind is yaml.DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise YamlError(f"the file holds more than one YAML document{_where(event)}")
            continue
        else:  # stream and document ends
            continue
        if not stack:
            result = value
        elif type(stack[-1]) is list:
            stack[-1].append(value)
        else:
            _add_to_mapping(stack[-1], value, event)
    return result
