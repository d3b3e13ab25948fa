"""The names content and code use, and the forms they must have: commit SHAs, paths inside
a repository, repositories. One place, read by the settings, the content, the blocks and
the git reader alike. And where a page's markdown holds references, as the build reads it
(`unread`), for what reads pages without building them: repin, the drift notice, fetch."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import unquote

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

SHA = re.compile(r"^[0-9a-f]{7,40}$")
# What the brackets of a code reference hold, on one line: up to the first `]]` outside
# its "quote" (a quote begins after a space, and may hold brackets: bash's
# `if [[ -f "$1" ]]`, `x[a[0]]`) and outside a pair of brackets its symbol holds (C++'s
# `Vec::operator[]`, Ruby's `Headers#[]`); never a `[[`, which begins another reference,
# outside it.
REFERENCE = r'(?:\[[^\[\]"\n]*+\]|[^\[\]"\n]|\[(?!\[)|\](?!\])|(?<=\s)"(?:[^"\\\n]|\\.)*+"|")*+'
BRACKETED = re.compile(rf"\[\[({REFERENCE})\]\]")
# A file path inside a repository: no control characters, no '.' or '..' segment, not absolute.
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
REPO_PATH = re.compile(r"^(?!/)(?!.*(?:^|/)\.{1,2}(?:/|$))[^\x00-\x1f\x7f]+$")
# owner/name; neither part may be "." or "..", which would climb out of folders and URLs
REPO = re.compile(r"^(?!\.\.?/)[A-Za-z0-9_.-]+/(?!\.\.?$)[A-Za-z0-9_.-]+$")
# The modes git gives two kinds of entry in a tree: a submodule's, and a symbolic link's.
GITLINK = "160000"
SYMLINK = "120000"


def path_written(text: str) -> str:
    """A path as an author wrote it, its URL escapes read (`Release%20Notes.md`, or
    `app/%5Bslug%5D` pasted from the host's address bar): the one way a reference's path
    holds a space, a colon or a quote mark, which its syntax cannot."""
    return unquote(text) if "%" in text else text


def references(text: str) -> Iterator[tuple[int, int, str]]:
    """Each reference of `text` (a page's markdown) as the build finds one: where its `[[`
    and its end stand, and what its brackets hold. On one line, up to the first `]]` outside
    its quote; over line breaks (prose wraps), up to the first `]]`. An escaped `\\[[` opens
    none."""
    at = 0
    while (start := text.find("[[", at)) >= 0:
        slashes = 0
        while slashes < start and text[start - slashes - 1] == "\\":
            slashes += 1
        if slashes % 2:
            at = start + 1  # `\[`: a bracket, not a reference's
            continue
        found = reference_at(text, start)
        if found is None:
            return  # never closed: the build says so
        yield start, found[0], found[1]
        at = found[0]


def reference_at(text: str, start: int, close: int | None = None) -> tuple[int, str] | None:
    """The reference whose `[[` stands at `start`: where it ends and what its brackets hold
    (see `references`); None when no `]]` closes it. `close`: where the first `]]` after
    it stands, when the caller knows (the build's rule searches once for many)."""
    end = text.find("]]", start + 2) if close is None else close
    if end < 0:
        return None
    if text.find('"', start + 2, end) >= 0 or text.find("[", start + 2, end) >= 0:
        # a quote may hold `]]`, and a symbol `[]` before one (`Vec::operator[]]]`): its own
        whole = BRACKETED.match(text, start)
        if whole:
            return whole.end(), whole[1]
    return end + 2, text[start + 2:end]  # (over a line break, or malformed: told there)


def as_quote(text: str) -> str:
    """`text` as a reference's quote writes it, between its quote marks: `"` and `\\`
    escaped."""
    return text.replace("\\", "\\\\").replace('"', '\\"')
# A fenced block's opening line in a page's markdown (its mark and info word), as the
# pages are read line by line without a parser (repin's items, fetch's pins).
# (A backtick fence's info holds no backtick: "```a```b" is a paragraph with a code span.)
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<mark>`{3,}(?![^\n]*`)|~{3,})\s*(?P<info>[^`\s]*)")


def closes(line: str, mark: str) -> bool:
    """Whether `line` closes a fenced block opened with `mark` (as many marks or more)."""
    text = line.strip()
    return text.startswith(mark) and set(text) == {mark[0]}
# The fenced blocks whose `[[...]]` are references (in any other, code: not read).
READ_FENCES = ("flow", "proposal", "excerpt", "pr-diff", "claim")
TICKS = re.compile(r"`+")


@dataclass(frozen=True)
class Layout:
    """How the build reads the lines of a page's body (0-based), where it matters to what
    is a reference."""

    tables: Mapping[int, int] = field(default_factory=dict)  # a table's rows: its columns
    code: frozenset[int] = frozenset()  # the lines of code blocks (but the site's) and HTML blocks
    inline: tuple[tuple[int, int], ...] = ()  # each paragraph's and heading's lines [a, b)


def layout(body: str, html: bool = False) -> Layout:
    """The `Layout` of `body`, read by CommonMark with GFM's tables (and with `html`, the
    setting `raw_html`, its HTML blocks, where no reference is read)."""
    if "[[" not in body:
        return Layout()  # no reference to read
    tables: dict[int, int] = {}
    code: set[int] = set()
    inline: list[tuple[int, int]] = []
    rows: range | None = None  # the lines of the table whose header is being read
    # (lines as `body.split("\n")` counts them: a lone CR, which markdown-it ends a line
    # at, is none; the content's readers make every line end LF before this)
    text = body.replace("\r", " ")
    for token in _blocks(html).parse(text if text.endswith("\n") else text + "\n"):
        if token.type == "th_open" and rows is not None:  # a column of its header
            tables.update((line, tables.get(line, 0) + 1) for line in rows)
        elif token.type == "thead_close":
            rows = None
        elif token.map is None:
            continue
        elif token.type == "table_open":
            rows = range(*token.map)
        elif token.type in ("code_block", "html_block") or (
                token.type == "fence" and (token.info.split() or [""])[0] not in READ_FENCES):
            code.update(range(*token.map))  # (a fenced block nested in a list or a quote too)
        elif token.type in ("paragraph_open", "heading_open"):
            inline.append((token.map[0], token.map[1]))
    return Layout(tables, frozenset(code), tuple(inline))


# The `::: name` blocks the build reads (blocks/callout.py): their bodies are markdown.
CONTAINERS = ("review", "aside")


@functools.cache
def _blocks(html: bool) -> MarkdownIt:
    """Markdown that reads a page's blocks as the build does (its own fenced blocks are
    fences to it), for `layout`."""
    from markdown_it import MarkdownIt  # only for a page with references
    from mdit_py_plugins.container import container_plugin

    md = MarkdownIt("commonmark", {"html": html}).enable("table")
    for name in CONTAINERS:
        container_plugin(md, name)
    return md


def unread(body: str, shape: Layout | None = None) -> str:
    """`body` with every `[` and `]` the build does not read as part of a reference made a
    space, the rest as it is (so offsets and lines stand): those of an ordinary fenced
    block, an indented one, an HTML block (with `raw_html`), and a code span, which runs
    over the lines of its paragraph, and stands in its cell of a table's row, as
    CommonMark's and GFM's do. `shape`: its `layout`, when it is known."""
    lines = body.split("\n")
    shape = layout(body) if shape is None else shape
    fence: tuple[str, str] | None = None  # the open block's mark and info word
    for number, text in enumerate(lines):
        m = FENCE.match(text) if fence is None and number not in shape.code else None
        if m:
            fence = (m["mark"], m["info"])
        elif fence is not None and closes(text, fence[0]):
            fence = None
        elif number in shape.code or (fence is not None and fence[1] not in READ_FENCES):
            lines[number] = text.translate(NO_BRACKETS)
    joined = {number for a, b in shape.inline for number in range(a, b)}
    runs = [(number, number + 1) for number in range(len(lines)) if number not in joined]
    for a, b in sorted([*shape.inline, *runs]):
        text = "\n".join(lines[a:b])
        # (GFM parts a table's row at its bare bars first)
        text = _unread_row(text, shape.tables[a]) if a in shape.tables else _unread_spans(text)
        lines[a:b] = text.split("\n")
    return "\n".join(lines)


def _unread_row(row: str, columns: int) -> str:
    """A table's `row`, each cell's code spans read in it, and the cells past its header's
    `columns` (which GFM leaves out) unread whole."""
    parts = CELL.split(row)
    first = 1 if row.strip().startswith("|") else 0  # a bar before the first cell
    return "|".join(_unread_spans(part) if n < first + columns else part.translate(NO_BRACKETS)
                    for n, part in enumerate(parts))


CELL = re.compile(r"(?<!\\)\|")


def _unread_spans(text: str) -> str:
    """`text` (a paragraph, a cell, a line) with the brackets of its code spans unread, as
    CommonMark reads them (a run of backticks up to the next run of as many), left to
    right as the build does: a reference met first holds its backticks (`[[f.py:3 "a`b"]]`)."""
    at, closed = 0, True  # closed: a `[[` may still open a reference (a `]]` follows)
    while (tick := text.find("`", at)) >= 0:
        opened = text.find("[[", at, tick) if closed else -1
        if opened >= 0:  # a reference before it
            found = reference_at(text, opened)
            closed = found is not None  # else no `]]` after it: none opens (the build stops)
            at = found[0] if found else opened + 2
            continue
        run = TICKS.match(text, tick)
        assert run is not None
        close = next((m for m in TICKS.finditer(text, run.end()) if len(m[0]) == len(run[0])), None)
        if close is None:  # no run of as many after it: backticks as they are
            at = run.end()
            continue
        text = text[:tick] + text[tick:close.end()].translate(NO_BRACKETS) + text[close.end():]
        at = close.end()
    return text


NO_BRACKETS = str.maketrans("[]", "  ")
