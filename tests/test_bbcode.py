"""The public report as BBCode: a generic conversion of the rendered Markdown, safe for player text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.campaign.adjudicate import adjudicate
from adjudicator.campaign.audit import audit
from adjudicator.publish.bbcode import to_bbcode, width
from adjudicator.campaign.create import create
from adjudicator.publish.render import markdown_text

REPO = Path(__file__).resolve().parent.parent


def test_the_markdown_that_templates_write() -> None:
    markdown = (
        "# Spies: turn 1\n\n"
        "## Steal attempts\n\n"
        "| Secret | Worth | Outcome |\n| --- | ---: | :---: |\n"
        "| Tony 7 | 13 | **stolen** |\n| María 10 | 9 | captured |\n\n"
        "1. first lift\n2. second lift\n\n"
        "- seat tony: Tony \\(turn 1\\)\n\n"
        "> a quote\n\n"
        "**Next:** orders for *turn 2*, see [the rules](https://example.org/rules).\n"
        "Seed: `c9f06ff5`\n\n"
        "```\nraw [b]text\n```\n"
    )
    assert to_bbcode(markdown) == (
        "[b][u]Spies: turn 1[/u][/b]\n\n"
        "[b]Steal attempts[/b]\n\n"
        "[code]\n"
        "Secret    Worth  Outcome\n"
        "--------  -----  --------\n"
        "Tony 7       13   stolen\n"
        "María 10      9  captured\n"
        "[/code]\n\n"
        "[list=1]\n[*]first lift\n[*]second lift\n[/list]\n\n"
        "[list]\n[*]seat tony: Tony (turn 1)\n[/list]\n\n"
        "[quote]\na quote\n[/quote]\n\n"
        "[b]Next:[/b] orders for [i]turn 2[/i], see [url=https://example.org/rules]the rules[/url].\n"
        "Seed: c9f06ff5\n\n"
        "[code]\nraw [\u200bb]text\n[/code]\n"
    )


def test_tables_as_table_tags_for_forums_that_have_them() -> None:
    out = to_bbcode("| A | B |\n| --- | --- |\n| **x** | y\\|z |\n", tables="table")
    assert out == "[table]\n[tr][th]A[/th][th]B[/th][/tr]\n[tr][td][b]x[/b][/td][td]y|z[/td][/tr]\n[/table]\n"


def test_player_text_never_opens_or_closes_a_tag() -> None:
    names = ["[b]oss", "[/code]", "[url=http://evil.example]click[/url]", "*star*", "[*]"]
    markdown = "| Player |\n| --- |\n" + "".join(f"| {markdown_text(n)} |\n" for n in names)
    markdown += "Winner: " + markdown_text(names[2]) + "\n"
    out = to_bbcode(markdown)
    assert out.count("[code]") == 1 and out.count("[/code]") == 1
    assert "[url=" not in out and "[b]" not in out and "[*]" not in out
    assert "*star*" in out  # shown as typed, not made italic
    assert out.replace("[\u200b", "[").count("[url=http://evil.example]click[/url]") == 2


def test_text_that_mimics_the_converters_placeholders_is_inert() -> None:
    # Private-use U+E000-U+E003 mark placeholders inside the converter; text carrying them must not
    # pull in another placeholder's text or crash, so they come out as U+FFFD.
    for name in ["\ue0000\ue001 *x*", "\ue0029\ue003 [b]", "a_\ue000\ue001_"]:
        out = to_bbcode(f"Name: {markdown_text(name)}\n")
        assert not re.search("[\ue000-\ue003]", out)
        assert out.replace("[\u200b", "[").rstrip() == "Name: " + re.sub("[\ue000-\ue003]", "\ufffd", name)


def test_wide_letters_keep_columns_aligned() -> None:
    out = to_bbcode("| 이름 | n |\n| --- | ---: |\n| 지킬 | 1 |\n| Hyde | 10 |\n")
    assert width("지킬") == 4
    assert out.splitlines()[1:5] == ["이름   n", "----  --", "지킬   1", "Hyde  10"]


MARKUP_LETTERS = st.text(alphabet=st.sampled_from(list("ab `*_[]\\/#|()<>!~-+.1:=")), max_size=30)


@given(MARKUP_LETTERS | st.text(max_size=60).filter(lambda t: "\u200b" not in t and not re.search("[\ue000-\ue003]", t)))
# (the marker itself is ambiguous; the converter's placeholder characters are tested below)
def test_any_escaped_text_comes_back_as_typed_and_inert(text: str) -> None:
    out = to_bbcode(f"Name: {markdown_text(text)}\n")
    assert re.search(r"\[(?=/?[A-Za-z*])", out) is None
    assert out.replace("[\u200b", "[").rstrip() == f"Name: {' '.join(text.split())}".rstrip()


def _example_reports() -> list[Path]:
    """The first and the last public report of every example campaign: every game's Markdown."""
    found = []
    for example in sorted(REPO.glob("turns/*-example")):
        reports = sorted(example.glob("turn-*/reports/public.md"))
        found += reports[1:2] + reports[-1:]
    return found


@pytest.mark.parametrize("public", _example_reports(), ids=lambda p: f"{p.parts[-4]}/{p.parts[-3]}")
def test_every_example_public_report_converts(public: Path) -> None:
    out = to_bbcode(public.read_text(encoding="utf-8"))
    prose = re.sub(r"\[code\].*?\[/code\]", "", out, flags=re.DOTALL)
    assert out.strip() and "**" not in prose and "\n|" not in prose and not re.search(r"^#", prose, re.MULTILINE)
    assert out.count("[code]") == out.count("[/code]") and out.count("[list") == out.count("[/list]")


def test_every_turn_writes_the_bbcode_report_and_the_audit_checks_it(tmp_path: Path) -> None:
    root = tmp_path / "c"
    create(root, "secrets", [{"id": p, "name": n} for p, n in (("a", "[b]Ann"), ("b", "Bo"), ("c", "Cy"))], seed="s", passwords=False)
    adjudicate(root, nmr=True)
    for turn in ("turn-000", "turn-001"):
        reports = root / turn / "reports"
        assert (reports / "public.bbcode").read_text() == to_bbcode((reports / "public.md").read_text())
        assert "public.bbcode" in (root / turn / "manifest.json").read_text()
    assert "[\u200bb]Ann" in (root / "turn-001" / "reports" / "public.bbcode").read_text()
    assert audit(root).divergence is None
    (root / "turn-001" / "reports" / "public.bbcode").write_text("[b]edited[/b]\n")
    assert audit(root).divergence == "turn-001/reports/public.bbcode differs from the replay"


def test_a_campaign_template_for_bbcode_wins(tmp_path: Path) -> None:
    root = tmp_path / "c"
    create(root, "secrets", [{"id": p, "name": p} for p in ("a", "b", "c")], seed="s", passwords=False)
    (root / "templates").mkdir()
    (root / "templates" / "public.bbcode.j2").write_text("[size=150]Turn {{ turn }}[/size]\n")
    adjudicate(root, nmr=True)
    assert (root / "turn-001" / "reports" / "public.bbcode").read_text() == "[size=150]Turn 1[/size]\n"
