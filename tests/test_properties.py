"""Property tests: every parser of site_gen's own gives a result or a ContentError with a
line for any input, never another exception; large inputs stay fast."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from site_gen import drift
from site_gen.blocks import callout
from site_gen.blocks import refs as refs_module
from site_gen.blocks.claim import Claim
from site_gen.blocks.flow import parse_flow
from site_gen.blocks.hunks import Proposal
from site_gen.blocks.proposal import parse_proposal
from site_gen.blocks.refs import REF, CodeRef, resolve
from site_gen.config import default_config
from site_gen.content import Page, Summary, split_front_matter
from site_gen.context import ENV_KEY, PageContext
from site_gen.errors import ContentError
from site_gen.markdown import _markdown_for, render_body
from site_gen.names import layout, path_writing, path_written, unread
from site_gen.statuses import DEFAULT_STATUSES
from site_gen.yamlfile import load_yaml

from .blockutil import PR, render

PATH = Path("page.md")
SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# Text built from the pieces each syntax is made of, so examples reach deep into parsers.
FLOW_WORDS = st.sampled_from(["title:", "lane", "a:", "b:", "step", "step:", "note:", "outcome",
                              "right:", "wrong:", "luck:", "source:", "[[core.py:1]]", "x", ":",
                              "\n", " ", "#", "`code`", "é", "\t", "[[", "]]"])
DIFF_WORDS = st.sampled_from(["file:", "core.py", "L1", "L2-L3", "and", "·", "sym", "\n", " ",
                              "+", "-", "...", "@@ -1,2 +1,2 @@", "@@", "title:", "status:",
                              "proposed", "lands:", "x", "\t", "é"])
REF_WORDS = st.sampled_from(["core.py", "src/", ":", "1", "-", "L", " ", "@", "base", "1234567",
                             "\"", "q", "|", "label", "..", "/", "x", "9" * 30])
YAML_WORDS = st.sampled_from(["title:", " ", "\n", "- ", "[", "]", "{", "}", "'", "\"", "!ENV",
                              "2026-13-40", "x", ":", "&a", "*a", "? ", "|", ">", "#", "\t",
                              "!!python/object", "---", "...", "%YAML"])


def ctx() -> PageContext:
    return PageContext(default_config(), PATH, PR, 1)


def lines_ok(context: PageContext) -> bool:
    return all(isinstance(e, ContentError) and e.line is not None and e.line >= 1
               for e in context.problems.errors)


@SETTINGS
@given(st.lists(FLOW_WORDS | st.text(max_size=5), max_size=60).map("".join))
def test_flow_parser_never_crashes(text: str) -> None:
    context = ctx()
    parse_flow(context, text.split("\n"), 2)
    assert lines_ok(context)


@SETTINGS
@given(st.lists(DIFF_WORDS | st.text(max_size=5), max_size=60).map("".join))
def test_diff_parser_never_crashes(text: str) -> None:
    context = ctx()
    parse_proposal(context, text.split("\n"), 2)
    assert lines_ok(context)


@SETTINGS
@given(st.lists(REF_WORDS | st.text(max_size=3), max_size=20).map("".join))
def test_code_reference_resolver_never_crashes(text: str) -> None:
    context = ctx()
    resolve(context, text, 3)
    assert lines_ok(context)


@SETTINGS
@given(st.lists(YAML_WORDS | st.text(max_size=4), max_size=40).map("".join))
def test_front_matter_never_crashes(text: str) -> None:
    page = f"---\n{text}\n---\nbody\n"
    try:
        front, _, _ = split_front_matter(page, PATH)
        load_yaml(front, PATH, 2)
    except ContentError as error:
        assert error.line is not None and error.line >= 1


@SETTINGS
@given(st.text(max_size=300))
@example("> ::: review blocking \n> ")  # mdit-py-plugins' `:::` rule read past the end
def test_whole_markdown_bodies_never_crash(text: str) -> None:
    render(text)


def test_a_long_page_renders_whole() -> None:
    """A page of 500 KB renders every paragraph (its time grows linearly: test_growth)."""
    text = PARAGRAPH * (500_000 // len(PARAGRAPH))
    html, errors, _ = render(text)
    assert errors == [] and html.count("<p>") == text.count("\n\n")
    assert html.count('href="https://x.org"') == text.count("(https://x.org)")


PARAGRAPH = ("Words and [[checkpoint.py:3]] and `code` and *emphasis* and a [link](https://x.org). "
             * 10 + "\n\n")


def long_diff(quartets: int) -> str:
    """A proposal of `quartets` times four lines: context, removed, added, context."""
    lines = []
    for n in range(quartets):
        lines += [f" context_{n} = {n}", f"-old_{n} = compute({n})", f"+new_{n} = compute({n}, 1)",
                  f" after_{n} = {n}"]
    return "```proposal\nfile: checkpoint.py L1\n" + "\n".join(lines) + "\n```\n"


def test_a_long_diff_parses_and_renders_every_line() -> None:
    html, errors, _ = render(long_diff(2_500))
    assert errors == [] and html.count('<tr class="diff-add">') == 2_500


LINE_TEXT = st.text(alphabet="ab_.(,[\"' x<&é", min_size=1, max_size=40)


@st.composite
def highlighted_line(draw: st.DrawFn) -> tuple[list[tuple[str, str]], list[tuple[int, int]]]:
    """A line cut into tokens (each with a class or none), and changed ranges in it as
    _changed gives them: in order, not overlapping."""
    text = draw(LINE_TEXT)
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=6)) - {len(text)})
    edges = [0, *cuts, len(text)]
    tokens = [(draw(st.sampled_from(["", "k", "s"])), text[a:b]) for a, b in itertools.pairwise(edges)]
    points = sorted(draw(st.sets(st.integers(0, len(text)), max_size=4)))
    ranges = [(a, b) for a, b in zip(points[::2], points[1::2], strict=False) if a < b]
    return tokens, ranges


@given(highlighted_line())
@SETTINGS
def test_a_highlighted_line_keeps_its_text_marks_and_wrap_points(
        line: tuple[list[tuple[str, str]], list[tuple[int, int]]]) -> None:
    """Whatever its tokens and marks: the line's text, in its tokens' classes, each changed
    character inside a <mark> and no other, a <wbr> at each wrap point and nowhere else."""
    import html as html_module
    import re

    from site_gen.highlight import _WRAP, line_html

    tokens, ranges = line
    text = "".join(value for _, value in tokens)
    out = str(line_html(tokens, ranges))
    seen, marked, wraps, classes = [], set(), [], []
    in_mark, css = False, ""
    for piece in re.findall(r"<[^>]+>|[^<]+", out):
        if piece == "<mark>" or piece == "</mark>":
            assert in_mark == (piece == "</mark>")  # never nested, always closed
            in_mark = piece == "<mark>"
        elif piece == "<wbr>":
            wraps.append(len(seen))
        elif piece.startswith("<span"):
            css = re.fullmatch(r'<span class="(\w+)">', piece).group(1)  # type: ignore[union-attr]
        elif piece == "</span>":
            css = ""
        else:
            for char in html_module.unescape(piece):
                if in_mark:
                    marked.add(len(seen))
                seen.append(char)
                classes.append(css)
    assert not in_mark and "".join(seen) == text
    assert classes == [c for c, value in tokens for _ in value]
    assert marked == {i for a, b in ranges for i in range(a, b)}
    assert wraps == [m.end() for m in _WRAP.finditer(text)]


SITE_PARTS = st.lists(st.sampled_from(["a", "b", "NVIDIA-NeMo", "~x", "f.css", ".", "..", "", "é"]),
                      max_size=5)


@given(SITE_PARTS, st.booleans(), SITE_PARTS, st.booleans(), st.booleans())
@settings(max_examples=2000, deadline=None)
def test_relative_url_is_what_posixpath_gives(here: list[str], folder: bool, target: list[str],
                                              to_folder: bool, directory_urls: bool) -> None:
    """The one URL function gives, for any two site paths, what posixpath.relpath gives
    (with a '/' after a folder): its shortcut for plain paths changes no link."""
    import posixpath

    from site_gen.urls import relative_url, url_file

    start = "/".join(here) + ("/" if folder and here else "")
    to = "/".join(target) + ("/" if to_folder and target else "")
    named = url_file(to, directory_urls)
    expected = posixpath.relpath("/" + named, "/" + start)
    if not named or named.endswith("/"):
        expected = "./" if expected == "." else expected + "/"
    assert relative_url.__wrapped__(start, to, directory_urls) == expected


# A page's markdown, from the pieces that decide where the build reads a reference: prose
# wrapped over lines, block quotes, lists, indented and fenced code, code spans (over a
# line break too), tables (a `\|` in a cell), headings, `:::` blocks and raw HTML.
PAGE_WORDS = st.sampled_from([
    "the", " ", " ", "\n", "\n", "\n\n", "> ", "- ", "1. ", "  ", "    ", "\t", "`", "``", "*",
    "| a |\n|---|\n| ", " | ", "```text\n", "```\n", "::: review blocking ", ":::\n", "<b>",
    "## ", "=\n", "[[core.py:3]]", "[[core.py L4]]", "[[core.py:5-6|label]]",
    "[[core.py:7\\|lab]]", '[[core.py:8 "x = 1"]]', "[[core.py::name]]", "[[core.py",
    "L9]]", '[[core.py:10 "x', '= 1"]]', "[[core.py]]", "[[claim:c]]"])
DRIFT_PR = dataclasses.replace(PR, files=("src/core.py",), code_unavailable="not here")


def _build_reads(body: str, html: bool) -> tuple[list[tuple[int, str]], set[int]]:
    """The references the build resolves in `body`, by line (line, what they cite), and
    the lines where it reports an error."""
    seen: list[tuple[int, str]] = []

    def spy(ctx: PageContext, text: str, line: int | None) -> CodeRef | None:
        ref = resolve(ctx, text, line)
        if ref is not None:  # else an error stops the build there
            seen.append((line or 0, text))
        return ref

    ctx = PageContext(dataclasses.replace(default_config(), raw_html=html), PATH, DRIFT_PR, 1, None)
    with mock.patch.object(refs_module, "resolve", spy), mock.patch.object(callout, "resolve", spy):
        render_body(ctx, body)
    reads = sorted((line, " ".join(m["target"].split())) for line, text in seen
                   if (m := REF.match(text.replace("\n", " "))))
    return reads, {error.line or 0 for error in ctx.problems.errors}


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PAGE_WORDS, max_size=50).map("".join), st.booleans())
@example("Over `a line\n[[core.py:3]]` break, and [[core.py\nL4]] read.\n", False)
@example("| *[[core.py:3]]* ` | `[[core.py:7\\|lab]]` [[core.py:8]] |\n|---|\n", False)
@example("> - <b>\n>   [[core.py:9\n>   \"x = 1\"]] read\n", False)
@example("<div>\n[[core.py:3]]\n</div>\n", True)
@example("::: review blocking [[core.py:3]]\n\t[[core.py:4]] is code\n:::\n", False)
@example("```a```b [[core.py:3]]\n", False)
@example("- item\n\n    ```python\n    x = [[core.py:3]]\n    ```\n\n[[core.py:4]]\n", False)
@example("> ```python\n> x = [[core.py:3]]\n> ```\n\n[[core.py:4]]\n", False)
@example('[[core.py:10 "x| a |\n|---|\n| [[core.py= 1"]]', False)  # a quote over lines
@example("An escaped \\[[core.py:3]] is none; \\\\[[core.py:4]] is one.\n", False)
def test_repin_reads_every_reference_the_build_reads_and_no_other(body: str, html: bool) -> None:
    """What repin, the drift notice and fetch take for a page's references (`drift.items_of`,
    `names.unread`) is what the build reads as one, wherever the markdown puts it: a
    reference the build reads and they do not would link, after a repin, lines the page
    never saw; one they read in code would be rewritten there. (A page the build stops at,
    `[[a[[core.py:3]]`, `[[core.py:3|a` in a table's cell, is not published until it is
    mended, and read again then.)"""
    page = Page(PATH, "p", "t", "q", 1, DEFAULT_STATUSES["open"], None, Summary("", "", ""),
                body, 1, "k")
    items = drift.items_of(DRIFT_PR, page, body, ("src/core.py",), html=html)
    read = sorted((item.line, " ".join(body[item.start_offset:item.end_offset]
                                       .replace(">", " ").split())) for item in items)
    built, errors = _build_reads(body, html)
    assert errors or read == built


@SETTINGS
@given(st.lists(PAGE_WORDS | st.text(max_size=4), max_size=60).map("".join), st.booleans())
def test_unread_keeps_every_offset(body: str, html: bool) -> None:
    """repin writes at offsets read from `names.unread`: it changes brackets to spaces and
    nothing else, whatever the text."""
    kept = unread(body, layout(body, html))
    assert len(kept) == len(body)
    assert all(a == b or (a in "[]" and b == " ") for a, b in zip(body, kept, strict=True))


@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.lists(PAGE_WORDS, max_size=50).map("".join), st.randoms(use_true_random=False))
def test_what_repin_writes_leaves_every_reference_readable(body: str, rng: Any) -> None:
    """repin rewrites a page in place (a moved reference's numbers, a changed one's quote):
    read again, the page has the same references, the moved at their new lines, the
    quoted with their quote, wherever they stand (a table's row, a block quote, wrapped).
    (Of a page the build builds: in one it stops at, `[[a "x[[core.py:3]]`, a quote can
    join what was apart.)"""
    assume(not _build_reads(body, False)[1])
    page = Page(PATH, "p", "t", "q", 1, DEFAULT_STATUSES["open"], None, Summary("", "", ""),
                body, 1, "k")
    items = [i for i in drift.items_of(DRIFT_PR, page, body, ("src/core.py",))
             if i.kind == "reference"]
    placed = [drift.Placed(i, drift.MOVED, i.file, (i.start or 0) + 2, (i.end or 0) + 2)
              if i.quoted or rng.random() < 0.5 else
              drift.Placed(i, drift.CHANGED, i.file, i.start, i.end,
                           quote=rng.choice(["a | b", 'x "y" \\ z', "step > 0"]))
              for i in items]
    text = drift.rewrite(body, placed, drift.Drift("a", "b", 1))
    again = [i for i in drift.items_of(DRIFT_PR, dataclasses.replace(page, body=text), text,
                                       ("src/core.py",)) if i.kind == "reference"]
    assert [(i.start, i.end, i.quoted) for i in again] == [
        (p.start, p.end, True if p.quote else p.item.quoted) for p in placed]


# The site's own blocks where a page may put them: at the top level, in a list, a block
# quote, a `:::` block, or indented past a list's text into code. (The marks before the
# opening line, and before each line after it.)
BLOCK_PLACES = st.sampled_from([
    ("", ""), ("> ", "> "), ("- ", "  "), ("1. ", "   "), ("> - ", ">   "), ("> > ", "> > "),
    ("- a\n\n    ", "    "), ("    ", "    "), ("\t", "\t"), ("::: review blocking\n", "")])
HUNKS = st.lists(st.sampled_from([
    ["file: core.py L3 · name", "@@ -3,1 +3,1 @@", "-x = 1", "+x = 2"],
    ["file: core.py L5-L6", "@@ -5,2 +5,2 @@", " y", "-x = 1", "+x = 2"],
    ["file: core.py", " ```", "-x = 1", "+> z"], ["file: core.py L3", "-x = 1", "", "+x = 2"],
    ["file: core.py L3 · name", "@@ -3,2 +3,2 @@", " y", "-x = 1", "+x = 2", "", " "],
    ["file: core.py L7", "@@ -7,1 +7,1 @@ def name(n=-1):", "-x = 1", "+x = 2"],
    ["file: core.py L3", "@@ -3,2 +3,2 @@", "-x = 1", "+x = 2", " ", ""],
    ["diff --git a/src/core.py b/src/core.py", "index 1..2 100644", "--- a/src/core.py",
     "+++ b/src/core.py", "@@ -4,1 +4,1 @@ def name():", "--- a/x", "+x = 2"],
    ["--- a/src/core.py", "+++ b/src/core.py", "@@ -5 +5 @@", "-x = 1", "+x = 2"],
    ["file: core.py", "-x = 1", "+x = 2", " ", "...", " y", "-z = 1", "+z = 2", ""],
    # a commit pasted as git show and git format-patch write it, around its diff
    ["commit 0123abc", "Author: t <t@t>", "", "    + a line of its message", "    file: core.py L3",
     "diff --git a/src/core.py b/src/core.py", "--- a/src/core.py", "+++ b/src/core.py",
     "@@ -3,1 +3,1 @@", "-x = 1", "+x = 2"],
    [f"From {'0' * 40} Mon Sep 17 00:00:00 2001", "Subject: [PATCH] s", "", "file: core.py L3",
     "---", " src/core.py | 2 +-", "", "diff --git a/src/core.py b/src/core.py",
     "--- a/src/core.py", "+++ b/src/core.py", "@@ -3,1 +3,1 @@", "-x = 1", "+x = 2", "-- ",
     "2.39.5", ""]]),
    min_size=1, max_size=2).map(lambda hunks: [line for hunk in hunks for line in hunk])
CLAIM_LINES = st.sampled_from([[], ["in: core.py"], ["at: head"], [""],
                               ["inside: |", "  def f():", "", "      $$$B"]]).map(
    lambda more: ["says: s", "pattern: x = 1" if "inside: |" in more else "text: x = 1",
                  "count: 1", *more])
CODE_LINES = st.lists(st.sampled_from(["file: core.py L3 · name", "@@ -3,1 +3,1 @@", "-x = 1",
                                       "says: s", "[[core.py:3]]", "", "> "]), max_size=4)


@st.composite
def pages_of_blocks(draw: st.DrawFn) -> str:
    """A page of proposals and claims (and code that looks like them), each somewhere."""
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        first, rest = draw(BLOCK_PLACES)
        mark = draw(st.sampled_from(["```", "~~~", "````"]))
        info = draw(st.sampled_from(["proposal", "claim", "python", "proposal x"]))
        lines = draw({"proposal": HUNKS, "claim": CLAIM_LINES}.get(info, CODE_LINES))
        held = [rest + line for line in lines]
        close = [rest + mark] if draw(st.integers(0, 15)) else []  # now and then unclosed
        end = [":::"] if first.startswith(":::") else []
        parts.append("\n".join([first + mark + info, *held, *close, *end]))
    separators = draw(st.lists(st.sampled_from(["\n\n", "\n", "\n\nText.\n\n"]),
                               min_size=len(parts), max_size=len(parts)))
    return "".join(itertools.chain.from_iterable(zip(parts, separators, strict=True)))


def _blocks_built(body: str) -> tuple[list[tuple[str, int, tuple[tuple[int, int], ...]]], bool]:
    """The proposals' hunks and the claims the build reads in `body` (kind, line, each
    hunk's file line ranges and sections' old starts), and whether it stops at an error."""
    found, _, stopped = _blocks_read(body)
    return found, stopped


def _blocks_read(body: str) -> tuple[list[tuple[str, int, tuple[tuple[int, int], ...]]],
                                     list[tuple[tuple[tuple[str, str], ...], ...]], bool]:
    """As _blocks_built, and each hunk's sections as the build reads their lines (those
    that hold a removed or context line of text, as repin compares them)."""
    context = PageContext(default_config(), PATH, DRIFT_PR, 1, None)
    found, rows = [], []
    for token in _markdown_for(context.config).parse(body, {ENV_KEY: context}):
        model = token.meta.get("model") if token.type.endswith("_block") else None
        if isinstance(model, Claim):
            found.append(("claim", model.line, ()))
        for hunk in model.hunks if isinstance(model, Proposal) else ():
            found.append(("hunk", hunk.line, (*hunk.ranges,
                                              *((s.old_start or 0, 0) for s in hunk.sections))))
            sections = [tuple(run) for s in hunk.sections for run in _runs(s.lines)]
            rows.append(tuple(s for s in sections if any(k in " -" and t.strip() for k, t in s)))
    return found, rows, bool(context.problems.errors)


def _runs(lines: list[Any]) -> list[list[tuple[str, str]]]:
    """A section's lines, as runs apart where a `...` leaves lines out (as placement reads
    them)."""
    runs: list[list[tuple[str, str]]] = [[]]
    for dl in lines:
        if dl.kind == "…":
            runs.append([])
        else:
            runs[-1].append((dl.kind, dl.text))
    return runs


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pages_of_blocks())
@example("- a\n\n  ```proposal\n  file: core.py L3 · name\n  @@ -3,1 +3,1 @@\n  -x = 1\n"
         "  +x = 2\n  ```\n\n> ```claim\n> says: s\n> text: x = 1\n> count: 1\n> ```\n")
def test_repin_reads_the_blocks_the_build_reads_and_moves_them_in_place(body: str) -> None:
    """The proposals and claims repin places at a new head are those the build checks,
    wherever they stand (a list's item, a block quote, a `:::` block; not code), each
    claim read without the marks before its lines; and a hunk repin moves is moved in
    place, its file line and `@@` positions, whatever marks stand before them."""
    built, rows, stopped = _blocks_read(body)
    assume(not stopped)
    page = Page(PATH, "p", "t", "q", 1, DEFAULT_STATUSES["open"], None, Summary("", "", ""),
                body, 1, "k")
    items = [i for i in drift.items_of(DRIFT_PR, page, body, ("src/core.py",))
             if i.kind in ("hunk", "claim")]
    assert [(i.kind, i.line) for i in items] == [(kind, line) for kind, line, _ in built]
    # each hunk's lines as the build reads them (the blank line before the next 'file:'
    # line is none of them)
    assert [i.rows for i in items if i.kind == "hunk"] == rows
    for item in (i for i in items if i.kind == "claim"):
        opened = [k for k, line in enumerate(item.claim) if line.endswith(": |")]  # a block
        assert all(not line.startswith((">", " ")) or not line.strip()
                   or (line.startswith(" ") and opened and opened[0] < k)
                   for k, line in enumerate(item.claim))
    moved = [drift.Placed(i, drift.MOVED, i.file, (i.start or 0) + 2, (i.end or 0) + 2, shift=2)
             for i in items if i.kind == "hunk"]
    again, _ = _blocks_built(drift.rewrite(body, moved, drift.Drift("a", "b", 1)))
    assert again == [(kind, line, tuple((a + 2 if a else 0, b + 2 if b else 0) for a, b in spans)
                      if kind == "hunk" else spans) for kind, line, spans in built]


@SETTINGS
@given(st.lists(st.sampled_from(["a", "/", " ", ":", "@", '"', "|", "\\", "%", "%20", "·", "[",
                                 "]", "é", "\t", ".py", "x y", "#"]) | st.text(max_size=3),
                min_size=1, max_size=12).map("".join), st.integers(1, 999))
def test_a_path_written_by_site_gen_is_read_back_whole(path: str, line: int) -> None:
    """What `new` and `repin` write for a file (`names.path_writing`) a reference reads as
    that path, whatever its name holds."""
    assume("\n" not in path and "\r" not in path and path.strip() and "/" not in path[:1])
    written = path_writing(path)
    ref = REF.match(f"{written}:{line}")
    assert ref is not None and path_written(ref["path"]) == path and ref["start"] == str(line)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["says: s", "count: 1", "pattern: |", "inside: |-", "text: |",
                                 "  x = 1", "\ty", "", "    ", "  in: a.py", "in: a.py",
                                 "where:  +", "pattern: f()"]), max_size=10))
def test_a_claim_s_fields_are_read_whatever_their_lines(lines: list[str]) -> None:
    """A claim's lines, blocks of lines among them (`pattern: |` then indented lines), are
    read without raising; each field is read once, a block holds no line of its own fields'
    (an indented `in:` is the block's), and a value holds no line its field did not."""
    from site_gen.blocks.claim import read_fields

    fields = read_fields(lines)
    assert set(fields.values) <= {"says", "count", "pattern", "inside", "text", "in", "where"}
    for key, value in fields.values.items():
        at = fields.where[key]
        if lines[at].rstrip().endswith(("|", "|-")) and key in ("pattern", "inside"):
            taken = "\n".join(lines[at + 1:])
            assert all(line.strip() in taken for line in value.splitlines())
        else:
            assert "\n" not in value
