"""The names content and code use, and the forms they must have: commit SHAs, paths inside
a repository, repositories. One place, read by the settings, the content, the blocks and
the git reader alike. And where a page's markdown holds references, as the build reads it
(`unread`), for what reads pages without building them: repin, the drift notice, fetch."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import quote, unquote

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

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


# What a path written on a page cannot hold as it is (see path_writing).
UNWRITABLE = frozenset(':"|\\%·[]')


def path_writing(path: str) -> str:
    """`path` as a reference, a proposal's `file:` line and a claim's `in:` write it: each
    character their syntax cannot hold (a space, `:`, `"`, `|`, `\\`, `%`, `·`, a bracket,
    an `@` that does not begin a segment) escaped as a URL escapes it, which
    `path_written` reads back (`Alamofire%205.0%20Migration%20Guide.md`)."""
    return "".join(quote(c, safe="") if c in UNWRITABLE or c.isspace()
                   or c == "@" and n and path[n - 1] != "/" else c for n, c in enumerate(path))


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


# The fenced blocks whose `[[...]]` are references (in any other, code: not read).
READ_FENCES = ("flow", "proposal", "excerpt", "pr-diff", "claim")
TICKS = re.compile(r"`+")


class Fence(NamedTuple):
    """One of the site's fenced blocks (a `READ_FENCES` one) on a page, where the build
    finds it: at the top level, or in a list, a block quote or a `:::` block, whose marks
    and indentation stand before each of its lines."""

    info: str  # what it is: "proposal", "claim", ...
    line: int  # its opening line (0-based, in the body)
    columns: tuple[int, ...]  # before each line it holds, how many characters are marks
    closed: bool  # a closing line ends it (else it runs to its container's end)

    def held(self, lines: list[str]) -> Iterator[tuple[int, int, str]]:
        """Each line it holds in `lines` (the body's, or the file's when `line` counts
        the file's): its index, where its text starts, its text (the marks left out)."""
        for number, column in enumerate(self.columns, self.line + 1):
            yield number, column, lines[number][column:].rstrip("\n")


@dataclass(frozen=True)
class Layout:
    """How the build reads the lines of a page's body (0-based), where it matters to what
    is a reference."""

    tables: Mapping[int, int] = field(default_factory=dict)  # a table's rows: its columns
    code: frozenset[int] = frozenset()  # the lines of code blocks (but the site's) and HTML blocks
    inline: tuple[tuple[int, int], ...] = ()  # each paragraph's and heading's lines [a, b)
    fences: tuple[Fence, ...] = ()  # the site's fenced blocks, in the page's order


def layout(body: str, html: bool = False) -> Layout:
    """The `Layout` of `body`, read by CommonMark with GFM's tables (and with `html`, the
    setting `raw_html`, its HTML blocks, where no reference is read)."""
    if "[[" not in body and "```" not in body and "~~~" not in body:
        return Layout()  # no reference to read, no block
    tables: dict[int, int] = {}
    code: set[int] = set()
    inline: list[tuple[int, int]] = []
    fences: list[Fence] = []
    lines = body.split("\n")
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
        elif token.type == "fence" and token.info.strip() in READ_FENCES:  # as the build
            # takes them (blocks.fence_parser): ```` ```flow x ```` is code
            fences.append(_fence(token, lines))
        elif token.type in ("code_block", "html_block", "fence"):
            code.update(range(*token.map))  # (a fenced block nested in a list or a quote too)
        elif token.type in ("paragraph_open", "heading_open"):
            inline.append((token.map[0], token.map[1]))
    return Layout(tables, frozenset(code), tuple(inline), tuple(fences))


def _fence(token: Token, lines: list[str]) -> Fence:
    """The `Fence` of a fence `token` of `lines`: where each line it holds starts, the
    marks of the blocks around it (and the fence's own indentation) being what markdown-it
    left out of its content (a line whose tab it read as spaces: as many characters as
    its content is shorter)."""
    assert token.map is not None
    held = token.content.split("\n")[:-1]
    columns = tuple(max(0, len(lines[token.map[0] + 1 + k]) - len(text))
                    for k, text in enumerate(held))
    return Fence(token.info.strip(), token.map[0], columns,
                 token.map[1] - token.map[0] > len(held) + 1)


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
    for number in shape.code:
        lines[number] = lines[number].translate(NO_BRACKETS)
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
