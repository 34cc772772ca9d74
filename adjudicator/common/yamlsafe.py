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
    """The text is not a YAML document we accept; the message says why and where.

    `problem` is the reason in words, `line` (counted from 1 in the text that was loaded) and
    `quoted` (that line as written) say where, when there is a place to point at. A caller that
    loaded a part of a larger text (the order in a mail's body) moves the line with `shifted`.
    """

    def __init__(self, problem: str, line: int | None = None, column: int | None = None, quoted: str | None = None) -> None:
        self.problem, self.line, self.column, self.quoted = problem, line, column, quoted
        super().__init__(self._words())

    def _words(self) -> str:
        if self.line is None:
            return self.problem
        where = f"line {self.line}" + (f", column {self.column}" if self.column is not None else "")
        return f"{self.problem} ({where})" + (f". Line {self.line} reads: {self.quoted}" if self.quoted else "")

    def as_written(self, text: str, line: int | None = None) -> YamlError:
        """The same error with its line quoted from `text`, the text as the player wrote it (the loader read a
        tidied copy, whose `-` may stand where the player typed `•`): line `line` of it (from 1), by default
        the error's own."""
        if self.line is None or self.quoted is None:
            return self
        return YamlError(self.problem, self.line, self.column, _line_of(text, (line or self.line) - 1) or self.quoted)

    def shifted(self, lines: int) -> YamlError:
        """The same error with its line counted `lines` further on."""
        return YamlError(self.problem, None if self.line is None else self.line + lines, self.column, self.quoted)


_PASSWORD_KEY = re.compile(r"""(?P<key>["']?password["']?[ \t]*:)""", re.IGNORECASE)
_PASSWORD_VALUE = re.compile(
    r"""["']?password["']?[ \t]*:[ \t]*(?:[|>][-+0-9]*[ \t]*\n[ \t]+)?(?P<value>"(?:[^"\\\n]|\\.)*"?|'(?:[^'\n]|'')*'?|[^\n#]*[^\n# \t])""",
    re.IGNORECASE,
)
HIDDEN = "(removed)"
"""What stands where a password was, in every text the program writes."""
FORM_PASSWORD = "your password"
"""The placeholder the order form's `password:` line holds (templates/common/_orders.txt.j2): no secret,
so never hidden; a message about it says it as written."""


def is_placeholder(value: object) -> bool:
    """Whether a `password:` value is the order form's placeholder, in any quotes and capitals."""
    return isinstance(value, str) and value.strip().strip("\"'\u201c\u201d\u201e\u2018\u2019\u00ab\u00bb").casefold() == FORM_PASSWORD


def password_values(text: str | bytes) -> list[str]:
    """Every value written after a `password:` key in a text (a whole or a broken order file), without
    its quotes, and each word of it, longest first: what no message about the text may echo."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    found: set[str] = set()
    for match in _PASSWORD_VALUE.finditer(text):
        value = match.group("value").strip()
        if is_placeholder(value):
            continue  # its words ("your", "password") are no secret: hiding them garbled every line that said them
        for candidate in (value, value.strip("\"'"), value.strip("\"'\u201c\u201d\u201e\u2018\u2019\u00ab\u00bb"), *re.split(r"[\s,:{}\[\]\"'&*!]+", value)):
            if len(candidate) >= 4:
                found.add(candidate)
    return sorted(found, key=lambda v: (-len(v), v))


def scrub(text: str, secrets: list[str] | tuple[str, ...]) -> str:
    """`text` with every one of `secrets` (longest first) replaced by HIDDEN."""
    for secret in sorted(secrets, key=len, reverse=True):
        if secret:
            text = text.replace(secret, HIDDEN)
    return text


QUOTED_LENGTH = 80
"""The most of a line an error quotes back: enough to recognise it, never a whole flood."""


def _line_of(text: str, index: int) -> str:
    """Line `index` (from 0) as the player wrote it, with tabs made visible and the length capped."""
    lines = text.splitlines()
    if not 0 <= index < len(lines):
        return ""
    line = lines[index].rstrip().replace("\t", "[tab]")
    key = _PASSWORD_KEY.search(line)
    if key and not is_placeholder(line[key.end():].split("#")[0]):  # never quote a password back, however the line is broken (issue 26.4)
        line = line[: key.end()] + " " + HIDDEN
    line = "".join(c if c.isprintable() else "?" for c in line)
    return line if len(line) <= QUOTED_LENGTH else line[: QUOTED_LENGTH - 1] + "…"


def _at(problem: str, text: str, mark: Any) -> YamlError:
    return YamlError(problem, mark.line + 1, mark.column + 1, _line_of(text, mark.line))


_CLOSERS = {"{": "}", "[": "]", '"': '"', "'": "'"}


def _syntax_error(text: str, exc: Any) -> YamlError:
    """libyaml's complaint in the words of someone who wrote an order file, at the line to fix.

    libyaml finds a missing closing brace or quote where it gives up, which is the line after
    (or the end of the file); the line to fix is the one that opened it, its context mark."""
    problem = exc.problem or exc.context or "not valid YAML"
    mark, opened = exc.problem_mark, exc.context_mark
    if mark is None:
        return YamlError(f"not valid YAML: {problem}")
    if "tab" in problem or ("cannot start any token" in problem and _char(text, mark) == "\t"):
        return _at("not valid YAML: a tab indents this line, and YAML indents with spaces only: "
                   "replace the tab with spaces", text, mark)
    opener = _char(text, opened) if opened is not None else ""
    closer = _CLOSERS.get(opener)
    if closer is not None and (exc.context or "").startswith(("while parsing a flow", "while scanning a quoted")):
        if opener in "\"'":
            words = f"the quote {opener} opened here is never closed: add the closing {opener} at the end of the text"
        elif closer in text.splitlines()[opened.line][opened.column:]:
            words = f"the items between {opener} and {closer} on this line need a comma between each two"
        else:
            words = f"the {opener} opened here is never closed: add the closing {closer} at the end of the line"
        return _at(f"not valid YAML: {words}", text, opened)
    if _misaligned_item(text, mark.line):
        return _at("not valid YAML: the items of this list do not start at the same place: line up the items, each - "
                   "at the same place (as many spaces before each, and no tab)", text, mark)
    if "mapping values are not allowed" in problem:
        if _indented_more(text, mark.line):
            return _at("not valid YAML: this line is indented more than the line above it: line its field up "
                       "with the fields above", text, mark)
        return _at("not valid YAML: a colon followed by a space starts a field, which YAML does not allow here: "
                   "put text holding ': ' in quotes", text, mark)
    return _at(f"not valid YAML: {problem}", text, mark)


def _misaligned_item(text: str, index: int) -> bool:
    """Whether line `index` (from 0) is a list item (`- ...`) that starts elsewhere than the item above it:
    a tab or a space more or less before one item of a list (libyaml then says only "did not find expected key")."""
    lines = text.splitlines()
    if index >= len(lines):
        return False
    above = next((line for line in reversed(lines[:index]) if line.strip() and not line.lstrip().startswith("#")), "")
    items = [line for line in (above, lines[index]) if line.lstrip().startswith("- ") or line.strip() == "-"]
    return len(items) == 2 and len(above) - len(above.lstrip()) != len(lines[index]) - len(lines[index].lstrip())


def _indented_more(text: str, index: int) -> bool:
    """Whether line `index` (from 0) starts further right than the line above it, which opens nothing."""
    lines = text.splitlines()
    above = next((line for line in reversed(lines[:index]) if line.strip() and not line.lstrip().startswith("#")), None)
    if above is None or index >= len(lines) or above.rstrip().endswith(":"):
        return False
    indent = len(lines[index]) - len(lines[index].lstrip(" "))
    return indent > len(above) - len(above.lstrip(" "))


def _char(text: str, mark: Any) -> str:
    """The character a mark points at (libyaml's marks count characters of the loaded text)."""
    index = getattr(mark, "index", None)
    return text[index] if isinstance(index, int) and 0 <= index < len(text) else ""


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
            raise YamlError(_not_utf8(data, exc.start)) from None
    else:
        text = data
        if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
            raise YamlError(f"the text is longer than the limit of {MAX_BYTES} bytes")
    if "\x00" in text:
        raise YamlError(_not_utf8(data, text.index("\x00")) if isinstance(data, bytes) and _utf16(data)
                        else "the file contains a NUL byte, so it is not a text file")
    try:
        return _load(text)
    except YamlError as exc:
        secrets = password_values(text)
        if not secrets:
            raise
        quoted = scrub(exc.quoted, secrets) if exc.quoted else exc.quoted
        raise YamlError(scrub(exc.problem, secrets), exc.line, exc.column, quoted) from None


def _load(text: str) -> Any:
    loader = _Loader(text)
    try:
        return _build(loader)
    except yaml.MarkedYAMLError as exc:
        if "nesting depth" in (exc.problem or ""):
            # libyaml 0.2.6 scans a deep flow collection ahead and stops at its own limit of
            # 1,000 levels before our count of events reaches MAX_DEPTH: the same refusal.
            mark = exc.problem_mark
            raise YamlError(f"the document is nested more than {MAX_DEPTH} levels deep",
                            mark.line + 1 if mark else None, mark.column + 1 if mark else None) from None
        raise _syntax_error(text, exc) from None
    except yaml.YAMLError as exc:
        raise YamlError(f"not valid YAML: {exc}") from None
    finally:
        loader.dispose()


def _not_utf8(data: bytes, start: int) -> str:
    """Why bytes are not UTF-8, in words that say how to save the file instead."""
    if _utf16(data):
        return "the file is saved as UTF-16 (Windows Notepad's \"Unicode\"), not UTF-8 text: save it as UTF-8"
    # Not guessed: a byte that is a typographic quote in Windows-1252 is a letter in Mac Roman, and a
    # misread password or name would fail in silence; the player is told where and how to fix it.
    line = data.count(b"\n", 0, start) + 1
    column = start - (data.rfind(b"\n", 0, start) + 1) + 1
    seen = data[start:start + 1].decode("cp1252", "replace")
    windows = f" ('{seen}' in Windows-1252, the code page Windows editors save in)" if seen.isprintable() and seen != "\ufffd" else ""
    return (f"the file is not UTF-8 text: line {line}, column {column} holds the byte 0x{data[start]:02X}{windows}, which "
            "UTF-8 does not allow; save the file as UTF-8 (Notepad: File > Save As > Encoding: UTF-8) or paste its "
            "text into the mail's body, and send it again")


def _utf16(data: bytes) -> bool:
    """Whether bytes look like UTF-16 text: its byte-order mark, or a NUL beside each ASCII letter."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    head = data[:64]
    return len(head) >= 4 and (head[1::2].count(0) * 2 >= len(head) - 1 or head[0::2].count(0) * 2 >= len(head) - 1)


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
