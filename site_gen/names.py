"""The names content and code use, and the forms they must have: commit SHAs, paths inside
a repository, repositories. One place, read by the settings, the content, the blocks and
the git reader alike."""

from __future__ import annotations

import re
from urllib.parse import unquote

SHA = re.compile(r"^[0-9a-f]{7,40}$")
# What the brackets of a code reference hold, on one line: up to the first `]]` outside
# its "quote" (a quote begins after a space, and may hold brackets: bash's
# `if [[ -f "$1" ]]`, `x[a[0]]`) and outside a pair of brackets its symbol holds (C++'s
# `Vec::operator[]`, Ruby's `Headers#[]`); never a `[[`, which begins another reference,
# outside it.
REFERENCE = r'(?:\[[^\[\]"\n]*+\]|[^\[\]"\n]|\[(?!\[)|\](?!\])|(?<=\s)"(?:[^"\\\n]|\\.)*+"|")*+'
BRACKETED = re.compile(rf"\[\[({REFERENCE})\]\]")
WRAPPED = re.compile(rf"\[\[({REFERENCE}(?:\n{REFERENCE})?)\]\]")  # over a line break, as prose wraps
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
# A fenced block's opening line in a page's markdown (its mark and info word), as the
# pages are read line by line without a parser (repin's items, fetch's pins).
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<mark>`{3,}|~{3,})\s*(?P<info>[^`\s]*)")


def closes(line: str, mark: str) -> bool:
    """Whether `line` closes a fenced block opened with `mark` (as many marks or more)."""
    text = line.strip()
    return text.startswith(mark) and set(text) == {mark[0]}
# The fenced blocks whose `[[...]]` are references (in any other, code: not read).
READ_FENCES = ("flow", "proposal", "excerpt", "pr-diff", "claim")
TICKS = re.compile(r"`+")


def code_spans(line: str) -> list[tuple[int, int]]:
    """Where the code spans of a markdown line are (start, end), as CommonMark reads them:
    a run of backticks up to the next run of as many. What they hold is no reference."""
    spans: list[tuple[int, int]] = []
    runs = list(TICKS.finditer(line)) if "`" in line else []
    i = 0
    while i < len(runs):
        close = next((j for j in range(i + 1, len(runs))
                      if len(runs[j][0]) == len(runs[i][0])), None)
        if close is None:
            i += 1
            continue
        spans.append((runs[i].start(), runs[close].end()))
        i = close + 1
    return spans


def layout(body: str) -> tuple[list[int], list[int]]:
    """The lines of `body` (0-based) that are rows of a table, and those that are an
    indented code block, as the build reads them."""
    if "|" not in body and "    " not in body and "\t" not in body:
        return [], []  # a table's header row holds a bar; an indented block, its indent
    from markdown_it import MarkdownIt  # only for such a page

    tables: list[int] = []
    code: list[int] = []
    for token in MarkdownIt("commonmark").enable("table").parse(body):
        if token.type in ("table_open", "code_block") and token.map:
            (tables if token.type == "table_open" else code).extend(range(*token.map))
    return tables, code
