"""The public report as BBCode, for forums that take BBCode rather than Markdown.

The conversion is generic, from the Markdown that every game's public template
renders, so each game gets `reports/public.bbcode` without a template of its own.
It covers what the templates write: headings, paragraphs, **bold**, *italic*,
`code spans`, [links](url), ![pictures](url), lists, quotes, fenced code and tables.

Only tags that every common forum (phpBB, MyBB, SMF, vBulletin, XenForo) knows are
used: [b], [i], [u], [url], [img], [list], [quote] and [code]. Tables become an aligned
text table inside [code], since phpBB has no [table]; `tables="table"` gives
[table][tr][td] for forums that have it. A code span keeps its text (BBCode has no
inline code tag that all forums share). Text that could read as a tag, say a
player called "[b]oss" or "[/code]", gets an invisible zero-width space after
its "[", so player text can never open or close a tag.
"""

from __future__ import annotations

import re
import unicodedata

_ZWSP = "\u200b"
_CODE_SPAN = re.compile(r"(?<!\\)(`+)(.+?)\1")  # an escaped backtick opens nothing
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]<>()#+!|~.\-])")
_IMAGE = re.compile(r"!\[([^\]\n]+)\]\(([^)\s]+)\)")
_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")
_BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])|(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])")
_TAG_LIKE = re.compile(r"\[(?=/?[A-Za-z*])")
_LITERAL = re.compile("\ue000(\\d+)\ue001")
_MARKUP = re.compile("\ue002(\\d+)\ue003")
_HEADING = re.compile(r"(#{1,6})[ \t]+(.*?)[ \t#]*\Z")
_BULLET = re.compile(r"[ \t]{0,3}[-*+][ \t]+(.*)\Z")
_NUMBERED = re.compile(r"[ \t]{0,3}\d+[.)][ \t]+(.*)\Z")
_FENCE = re.compile(r"[ \t]*(```+|~~~+)")
_TABLE_RULE = re.compile(r"\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*\Z")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_INLINE_SYNTAX = re.compile(r"[`\\\[*_]")
_SENTINELS = re.compile("[\ue000-\ue003]")


def neutralize(text: str) -> str:
    """Literal text that cannot open or close a BBCode tag."""
    return _TAG_LIKE.sub("[" + _ZWSP, text)


def inline(text: str, markup: bool = True) -> str:
    """One line of Markdown inline syntax as BBCode (or as plain text when `markup` is false)."""
    if not _INLINE_SYNTAX.search(text):  # most table cells: a number or a plain name, nothing to convert
        return text
    text = _SENTINELS.sub("\ufffd", text)  # the placeholders below must be ours alone
    literals: list[str] = []
    tags: list[str] = []

    def literal(value: str) -> str:
        literals.append(value)
        return f"\ue000{len(literals) - 1}\ue001"

    def tag(value: str) -> str:
        tags.append(value if markup else "")
        return f"\ue002{len(tags) - 1}\ue003"

    text = _CODE_SPAN.sub(lambda m: literal(m.group(2).strip()), text)
    text = _ESCAPE.sub(lambda m: literal(m.group(1)), text)
    text = _IMAGE.sub(lambda m: tag(f"[img]{m.group(2)}[/img]") if markup else m.group(1) + " (" + literal(m.group(2)) + ")", text)
    text = _LINK.sub(lambda m: tag(f"[url={m.group(2)}]") + m.group(1) + tag("[/url]") if markup else m.group(1) + " (" + literal(m.group(2)) + ")", text)
    text = _BOLD.sub(lambda m: tag("[b]") + m.group(2) + tag("[/b]"), text)
    text = _ITALIC.sub(lambda m: tag("[i]") + (m.group(1) or m.group(2)) + tag("[/i]"), text)
    # Literal text is put back before neutralizing, so an escaped "[" is judged with the letters after it;
    # the tags made here are still placeholders then, and come back untouched.
    text = neutralize(_LITERAL.sub(lambda m: literals[int(m.group(1))], text))
    return _MARKUP.sub(lambda m: tags[int(m.group(1))], text)


def width(text: str) -> int:
    """Columns a monospace font gives the text: wide East Asian letters take two, marks and format characters none."""
    if text.isascii() and text.isprintable():  # nearly every cell: one column per character
        return len(text)
    total = 0
    for char in text:
        if unicodedata.combining(char) or unicodedata.category(char) == "Cf":
            continue
        total += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return total


def _cells(line: str) -> list[str]:
    line = line.strip()
    line = line.removeprefix("|")
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    return [cell.strip() for cell in _CELL_SPLIT.split(line)]


def _alignments(rule: str) -> list[str]:
    found = []
    for cell in _cells(rule):
        if cell.startswith(":") and cell.endswith(":"):
            found.append("center")
        elif cell.endswith(":"):
            found.append("right")
        else:
            found.append("left")
    return found


def _pad(text: str, size: int, align: str) -> str:
    gap = size - width(text)
    if align == "right":
        return " " * gap + text
    if align == "center":
        return " " * (gap // 2) + text + " " * (gap - gap // 2)
    return text + " " * gap


def table(lines: list[str], style: str = "code") -> list[str]:
    """A Markdown table (header, rule, rows) as an aligned [code] block or as [table]."""
    header, rule, rows = _cells(lines[0]), lines[1], [_cells(line) for line in lines[2:]]
    aligns = _alignments(rule)
    columns = len(header)
    rows = [(row + [""] * columns)[:columns] for row in rows]
    if style == "table":
        out = ["[table]", "[tr]" + "".join(f"[th]{inline(c)}[/th]" for c in header) + "[/tr]"]
        out += ["[tr]" + "".join(f"[td]{inline(c)}[/td]" for c in row) + "[/tr]" for row in rows]
        return out + ["[/table]"]
    plain = [[inline(c, markup=False) for c in row] for row in [header, *rows]]
    sizes = [max(width(row[i]) for row in plain) for i in range(columns)]
    aligns = (aligns + ["left"] * columns)[:columns]
    text = ["  ".join(_pad(cell, sizes[i], aligns[i]) for i, cell in enumerate(row)).rstrip() for row in plain]
    text.insert(1, "  ".join("-" * size for size in sizes))
    return ["[code]", *text, "[/code]"]


def to_bbcode(markdown: str, tables: str = "code") -> str:
    """Convert the rendered Markdown of a public report to BBCode."""
    lines = markdown.replace("\r\n", "\n").split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if fence:
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip().startswith(fence.group(1))), len(lines))
            out += ["[code]", *(neutralize(text) for text in lines[i + 1:end]), "[/code]"]
            i = end + 1
            continue
        if line.lstrip().startswith("|") and i + 1 < len(lines) and _TABLE_RULE.match(lines[i + 1].strip()):
            end = i + 2
            while end < len(lines) and lines[end].lstrip().startswith("|"):
                end += 1
            out += table(lines[i:end], tables)
            i = end
            continue
        heading = _HEADING.match(line)
        if heading:
            text = inline(heading.group(2))
            out.append(f"[b][u]{text}[/u][/b]" if len(heading.group(1)) == 1 else f"[b]{text}[/b]")
            i += 1
            continue
        for pattern, opening in ((_BULLET, "[list]"), (_NUMBERED, "[list=1]")):
            if pattern.match(line):
                end = i
                items = []
                while end < len(lines) and pattern.match(lines[end]):
                    items.append("[*]" + inline(pattern.match(lines[end]).group(1)))  # type: ignore[union-attr]
                    end += 1
                out += [opening, *items, "[/list]"]
                i = end
                break
        else:
            if line.startswith(">"):
                end = i
                while end < len(lines) and lines[end].startswith(">"):
                    end += 1
                out += ["[quote]", *(inline(text[1:].lstrip()) for text in lines[i:end]), "[/quote]"]
                i = end
            elif re.fullmatch(r"\s*([-*_])(\s*\1){2,}\s*", line):
                out.append("-" * 40)
                i += 1
            else:
                out.append(inline(line))
                i += 1
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(out))
    return text.rstrip("\n") + "\n"
