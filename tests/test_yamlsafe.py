"""The order-file loader: YAML 1.2 scalars, and every hostile construct refused in words."""

import pytest

from adjudicator.common import yamlsafe
from adjudicator.common.yamlsafe import MAX_BYTES, YamlError, load


@pytest.mark.parametrize(
    "text, expected",
    [
        ("player: no", {"player": "no"}),
        ("password: off", {"password": "off"}),
        ("password: 012", {"password": "012"}),
        ("at: 1:20", {"at": "1:20"}),
        ("day: 2026-11-29", {"day": "2026-11-29"}),
        ("n: 12", {"n": 12}),
        ("n: -3", {"n": -3}),
        ("x: 1.5", {"x": "1.5"}),
        ("h: 0x1F", {"h": "0x1F"}),
        ("b: true\nc: False", {"b": True, "c": False}),
        ("y: yes", {"y": "yes"}),
        ("e:\nf: ~", {"e": None, "f": None}),
        ("q: '12'", {"q": "12"}),
        ("s: !!str 012", {"s": "012"}),
        ("big: " + "9" * 5000, {"big": "9" * 5000}),
        ("orders: []", {"orders": []}),
        ("- {sid: 1, steal: {player: tony, secret: 8}}", [{"sid": 1, "steal": {"player": "tony", "secret": 8}}]),
    ],
)
def test_scalars_follow_yaml_1_2(text: str, expected: object) -> None:
    assert load(text.encode()) == expected


def test_byte_order_mark_is_accepted() -> None:
    assert load("\ufeffplayer: tony".encode()) == {"player": "tony"}


@pytest.mark.parametrize(
    "data, words",
    [
        (b"a: &x [1, 2]\nb: *x\n", "aliases"),
        (b"base: &b {x: 1}\nc:\n  <<: *b\n", "merge keys"),
        (b"c:\n  <<: {x: 1}\n", "merge keys"),
        (b"a: 1\na: 2\n", "duplicate key"),
        (b"!!python/object/apply:os.system [echo hi]\n", "tags"),
        (b"x: !!binary aGk=\n", "tags"),
        (b"x: !custom 1\n", "tags"),
        (b"a: 1\n---\nb: 2\n", "more than one YAML document"),
        (b"[" * 40 + b"]" * 40, "nested more than"),
        (b"[" * 30000 + b"]" * 30000, "nested more than"),
        (b"a: [1, 2\n", "not valid YAML"),
        (b"a: b: c\n", "not valid YAML"),
        (b"\xff\xfe\x00junk", "not UTF-8"),
        (b"a: 1\x00\n", "NUL byte"),
        (b"a: " + b"x" * MAX_BYTES, "larger than the limit of 64 KiB"),
        (b"? [1, 2]\n: x\n", "plain value"),
    ],
)
def test_hostile_yaml_is_refused_in_words(data: bytes, words: str) -> None:
    with pytest.raises(YamlError) as caught:
        load(data)
    assert words in str(caught.value)


def test_error_points_at_the_line() -> None:
    with pytest.raises(YamlError, match=r"line 3"):
        load(b"player: tony\nturn: 1\nturn: 2\n")


def test_alias_bomb_is_refused_quickly() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [*a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}]" for i in range(1, 30)]
    with pytest.raises(YamlError, match="aliases"):
        load("\n".join(lines).encode())


def test_a_leading_plus_keeps_the_text() -> None:
    assert load("a: +3\nb: -3\nc: 3\nd: +0\n") == {"a": "+3", "b": -3, "c": 3, "d": "+0"}


@pytest.mark.parametrize(
    "text, words, line, quoted",
    [
        ("player: ann\nturn: 1\norders:\n  - {sid: 1, guard: 6}\n\t- {sid: 2, guard: 5}\n",
         "a tab indents this line, and YAML indents with spaces only", 5, "[tab]- {sid: 2, guard: 5}"),
        ("player: ann\nturn: 1\norders:\n  - {sid: 1, guard: 6\n  - {sid: 2, guard: 5}\n",
         "the { opened here is never closed: add the closing }", 4, "  - {sid: 1, guard: 6"),
        ("player: ann\nturn: 1\norders:\n  - {sid: 1, guard: 6\n",
         "the { opened here is never closed: add the closing }", 4, "  - {sid: 1, guard: 6"),
        ("player: ann\norders: [a, b\nturn: 1\n", "the [ opened here is never closed: add the closing ]", 2, "orders: [a, b"),
        ("player: ann\nturn: 1\norders:\n  - {sid: 1 guard: 6}\n", "need a comma between each two", 4, "  - {sid: 1 guard: 6}"),
        ('player: ann\npassword: "abc\nturn: 1\n', 'the quote " opened here is never closed', 2, 'password: (removed)'),  # never the password (issue 26.4)
        ("player: ann\n turn: 1\n", "this line is indented more than the line above it", 2, " turn: 1"),
        ("player: ann\norders:\n  - SID 1: steal: bob\n", "put text holding ': ' in quotes", 3, "  - SID 1: steal: bob"),
    ],
)
def test_syntax_errors_are_named_in_players_words_at_the_line_to_fix(text: str, words: str, line: int, quoted: str) -> None:
    with pytest.raises(yamlsafe.YamlError) as caught:
        yamlsafe.load(text.encode())
    error = caught.value
    assert words in str(error) and error.line == line and error.quoted == quoted, str(error)
    assert str(error).endswith(f"Line {line} reads: {quoted}")
    assert "cannot start any token" not in str(error) and "did not find expected" not in str(error)
    moved = error.shifted(7)  # the order inside a mail's body, seven lines below the message's start
    assert moved.line == line + 7 and moved.quoted == quoted and f"(line {line + 7}, column" in str(moved)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_file_is_named_as_such(encoding: str) -> None:
    with pytest.raises(yamlsafe.YamlError, match="saved as UTF-16.*save it as UTF-8"):
        yamlsafe.load("player: ann\nturn: 1\norders: []\n".encode(encoding))


def test_a_quoted_line_is_short_and_printable() -> None:
    with pytest.raises(yamlsafe.YamlError) as caught:
        yamlsafe.load(("orders: [" + "x\u202e, " * 200 + "y\n").encode())  # a right-to-left override in each item
    assert caught.value.quoted and len(caught.value.quoted) <= yamlsafe.QUOTED_LENGTH and "\u202e" not in str(caught.value)
