"""When a PR moves on: where each thing a page cites at its pinned head stands at a newer
head, confirmed by content, never trusted by line number.

Every reference, symbol reference, excerpt, hunk, flow `source:`, review callout and
claim of a page is an `Item`. `HeadMove` maps an item from the old head to the new one
through the diff between them (renames followed): the cited lines are looked up where
the diff puts them and their text compared; else the same text is looked for in the
definition that held it, while that is still defined (else in the file); else the symbol
is re-found by name. Each item
gets one state:

- same: unchanged lines at the same numbers;
- moved: the same text at other lines, or in a renamed file (`Placed.replacement` is the
  markdown rewritten to say so);
- changed: the cited lines were edited (both texts are kept), a definition's lines stand
  under a new name (renamed), a hunk no longer applies or its named definition no longer
  holds it, or a claim counts otherwise;
- gone: the file, or the lines, were removed.

Only the fetched commits decide, so the same commits give the same states.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import os
import re
import subprocess
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .blocks.claim import SCOPES, Claim, ClaimSite, listed, parse_claim, read_fields
from .blocks.hunks import Aside, Row, made_at, made_beside, trailing_blanks
from .blocks.proposal import ELISION, FILE, POSITION, RANGE, commit_text, git_headers, git_said
from .blocks.refs import REF, folders_named, matching_paths, paths_named
from .code_index import Kept, index_of, named_holds
from .config import Config
from .content import Page, PullRequest
from .context import PageContext
from .definitions import Definition, chosen, enclosing, holds, lines_text
from .git_reader import SourceReader, changes, holds_quote
from .highlight import comment_lines, lexing_for, respaced
from .names import (
    GITLINK,
    Fence,
    as_quote,
    layout,
    path_writing,
    path_written,
    references,
    unread,
)
from .submodules import holding, reader_of

SAME, MOVED, CHANGED, GONE = "same", "moved", "changed", "gone"
STATES = (SAME, MOVED, CHANGED, GONE)
HIGHLIGHT_LINE = re.compile(r"^(\s*highlight\s*:\s*)(.*)$")
SOURCE = re.compile(r"^\s*source\s*:")  # a flow's source line: `source: [[ref]] code`


# A hunk's section: its old side, its new side, and its lines as written.
Sides = tuple[tuple[str, ...], tuple[str, ...], tuple[Row, ...]]


@dataclass(frozen=True)
class Item:
    """One thing a page cites at the PR's head, and where its markdown says so."""

    kind: str  # "reference", "symbol", "file", "folder", "hunk", "claim"
    page: Path
    line: int  # its line in the page's file
    start_offset: int  # where its markdown (what a move rewrites) is in the file's text
    end_offset: int
    file: str = ""  # the cited file, full path ('' for a claim)
    written_path: str = ""  # the path as the markdown writes it (a tail of `file`)
    start: int | None = None
    end: int | None = None
    symbol: str | None = None
    spans: tuple[tuple[int, int], ...] = ()  # a hunk: the lines its file line names
    claim: tuple[str, ...] = ()  # a claim: its block's lines
    highlight: tuple[int, int] | None = None  # an excerpt's `highlight:` line (offsets)
    quoted: bool = False  # a reference with a quote, or a flow `source:` with its code
    quote_at: int = 0  # where a quote would go in its markdown (after its `@base`)
    at: str = "head"  # the commit it is pinned to: the PR's "head", or its "base"
    in_table: bool = False  # in a table's row, where a quote written into it escapes `|`
    columns: tuple[int, ...] = ()  # a hunk: the marks before each line after its file line
    rows: tuple[tuple[Row, ...], ...] = ()  # a hunk: each section's lines as written
    creates: bool = False  # a hunk that makes a new file (`@@ -0,0 +1,N @@`)
    removes: bool = False  # a hunk pasted from git diff that removes its file
    renames_to: str | None = None  # a hunk pasted from git diff that renames its file

    def sides(self) -> Iterator[Sides]:
        """A hunk's sections, each as its old side, its new side and its lines as written."""
        for rows in self.rows:
            yield (tuple(text for mark, text in rows if mark in " -"),
                   tuple(text for mark, text in rows if mark in " +"), rows)


@dataclass(frozen=True)
class Placed:
    """Where an item stands at the new head."""

    item: Item
    state: str
    file: str | None = None
    start: int | None = None
    end: int | None = None
    old_text: tuple[str, ...] = ()
    new_text: tuple[str, ...] = ()
    detail: str = ""
    shift: int = 0  # how many lines the cited lines moved by
    made: tuple[int, int] | None = None  # a hunk: where the new head has the lines it proposes
    made_file: tuple[str, str | None] | None = None  # a hunk: the removal (old path, None) or
    # rename (old path, new) it proposes, which the new head has made, where `made` is not
    quote: str | None = None  # changed or gone: an old line its numbers no longer hold
    # ('': every old line still stands within them, so no quote would stop the build)
    # A changed line reference (with no quote of its own) rewritten to `start`-`end`, where
    # its edited lines stand at the new head, their old text quoted: lines that moved as well
    # as changed, a line of the old text not held there (so the build stops at it). Kept at
    # its old numbers, it would link lines the page never saw once its quote is dropped (in
    # a trial on dart-lang/http#1966, a new commit added a doc comment of four lines above
    # a handler whose `throw` it edited: the reference linked the comment). Where every old
    # line stands in the new lines (one inserted among them), it keeps its numbers and
    # quotes the line that left them.
    renumbered: bool = False

    @property
    def texts(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """`old_text` and `new_text` as the PR page shows them side by side: the indentation
        all their lines share left out (code four tabs deep showed a tab stop's width of
        blank before each line and ran past its box)."""
        lines = [line for line in (*self.old_text, *self.new_text) if line.strip()]
        cut = len(os.path.commonprefix([line[:len(line) - len(line.lstrip())] for line in lines]))
        return (tuple(line[cut:] for line in self.old_text),
                tuple(line[cut:] for line in self.new_text))

    @property
    def marked(self) -> tuple[tuple[tuple[str, bool], ...], tuple[tuple[str, bool], ...]]:
        """`texts`, each line with whether it is one that changed (as a diff marks its
        removed and added lines); none marked when one side is empty (a gone item)."""
        was, now = self.texts
        changed: tuple[set[int], set[int]] = (set(), set())
        opcodes = difflib.SequenceMatcher(None, was, now, autojunk=False).get_opcodes() \
            if was and now else []
        for tag, i1, i2, j1, j2 in opcodes:
            if tag != "equal":
                changed[0].update(range(i1, i2))
                changed[1].update(range(j1, j2))
        return (tuple((line, n in changed[0]) for n, line in enumerate(was)),
                tuple((line, n in changed[1]) for n, line in enumerate(now)))

    @property
    def where(self) -> str:
        """The item as the report names it: its file and lines at the old head."""
        item = self.item
        if item.kind == "claim":
            says = read_fields(list(item.claim)).values.get("says")
            return f"claim '{says}'" if says else "claim"
        lines = "" if item.start is None else (
            f" L{item.start}" if item.end in (None, item.start) else f" L{item.start}-L{item.end}")
        at = "" if item.at == "head" else f"@{item.at}"
        return f"{item.file}{lines}{at}" + (f" · {item.symbol}" if item.symbol else "")


@dataclass
class Drift:
    """A PR's pages against a newer head: every item placed, page by page."""

    old: str
    new: str
    commits: int | None  # how many commits later (None: not a descendant, e.g. force-pushed)
    placed: dict[Path, list[Placed]] = field(default_factory=dict)
    renamed: dict[str, str] = field(default_factory=dict)  # every file the diff renames
    files: tuple[str, ...] = ()  # pr.yml's files at the new head (renamed)
    tree: tuple[str, ...] = ()  # the new head's, read for a rewrite only (see repin)

    def named(self, written: str) -> list[str]:
        """The paths a path written on a page names at the new head, as a build finds
        them: a tail of pr.yml's files, or else of the head's tree."""
        return paths_named(self.files, self.tree, written)

    def _of(self, page: Path | None) -> list[Placed]:
        """The items of `page`, or of every page."""
        return self.placed.get(page, []) if page else [p for ps in self.placed.values() for p in ps]

    def cited(self, page: Path | None = None) -> str:
        """What the pages (or `page`) cite, kind by kind: '8 references, 1 hunk and 2
        claims' ('0 references' when nothing)."""
        items = self._of(page)
        kinds = [(name, sum(1 for p in items if p.item.kind in of)) for name, of in CITED]
        named = [f"{n} {name}{'s' if n != 1 else ''}" for name, n in kinds
                 if n or name == "reference" and not items]
        return " and ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)

    def counts(self, page: Path | None = None) -> dict[str, int]:
        items = self._of(page)
        return {state: sum(1 for p in items if p.state == state) for state in STATES}

    def made(self, page: Path) -> list[str]:
        """Where the new head has the lines a hunk of `page` proposes ('src/app.py L56'): the
        PR may have made the change the page proposes."""
        return [f"{p.file} {lines_text(*p.made)}" for p in self.placed.get(page, []) if p.made]

    def made_files(self, page: Path) -> list[tuple[str, str | None]]:
        """The removals (path, None) and renames (old path, new path) a hunk of `page`
        proposes, whose lines `made` does not list, that the new head has made."""
        return [p.made_file for p in self.placed.get(page, []) if p.made_file]

    @property
    def broken(self) -> bool:
        """Whether anything is changed or gone (what `check --drift` fails on)."""
        counts = self.counts()
        return bool(counts[CHANGED] or counts[GONE])


def summary(counts: dict[str, int], cited: str) -> str:
    """'41 references and 2 claims: 33 same, 6 moved, 2 changed, 2 gone' (`cited`, see
    Drift.cited; states with none left out)."""
    parts = [f"{counts[s]} {s}" for s in STATES if counts.get(s)]
    return f"{cited}: " + (", ".join(parts) if parts else "none")


# What a page cites, by the kinds of Item, as a report counts them.
CITED = (("reference", ("reference", "symbol", "file", "folder")), ("hunk", ("hunk",)),
         ("claim", ("claim",)))


# -- finding what a page cites ---------------------------------------------------------

def items_of(pr: PullRequest, page: Page, text: str, known: tuple[str, ...],
             links: frozenset[str] = frozenset(), at: str = "head", html: bool = False
             ) -> list[Item]:
    """Every item of `page` (its file's `text`) pinned to the PR's head, in file order (or,
    `at` "base", every reference written `@base` and claim counted `at: base`: no hunk). `known`: the paths
    a written path may be a tail of (that commit's tree, or pr.yml's); `links`: its
    submodules' folders, whose files a path may name whole; `html`: the site's `raw_html`."""
    found: list[Item] = []
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    first = page.body_line - 1  # the file line index where the body starts
    body = "".join(lines[first:])
    shape = layout(body, html)
    read = [""] * first + unread(body, shape).split("\n")  # what code holds, blanked
    ends = {first + n: first + b for a, b in shape.inline for n in range(a, b)}  # paragraphs'
    fences = [fence._replace(line=first + fence.line) for fence in shape.fences]  # file lines
    within = {number: (fence, column) for fence in fences
              for number, column, _ in fence.held(lines)}
    edges = {fence.line for fence in fences} | {  # their opening and closing lines
        fence.line + len(fence.columns) + 1 for fence in fences if fence.closed}
    blocks = [item for fence in fences  # read whole
              if (fence.info == "proposal" and at == "head" or fence.info == "claim")
              and fence.closed
              for item in _block_items(pr, page, lines, offsets, fence, known, links, at)]
    for index in range(first, len(lines)):
        fence, column = within.get(index, (None, 0))
        if index - first in shape.code or index in edges or \
                (fence is not None and fence.info in ("proposal", "claim")):
            continue  # code, or a block read whole
        raw = lines[index].rstrip("\n")[column:]
        source = fence is not None and fence.info == "flow" and SOURCE.match(raw) is not None
        found.extend(_references(pr, page, _wrapped(read, index, ends.get(index, index + 1))
                                 if fence is None else read[index],
                                 index, offsets[index], known, links, source, at,
                                 index - first in shape.tables))
        if fence is not None and fence.info == "excerpt":
            h = HIGHLIGHT_LINE.match(raw)
            if h and found and found[-1].line >= fence.line + 1:
                start = offsets[index] + column + len(h[1])
                found[-1] = dataclasses.replace(found[-1], highlight=(start, start + len(h[2])))
    return sorted([*found, *blocks], key=lambda item: item.start_offset)


QUOTED = re.compile(r"^ {0,3}>[> \t]*")  # a line of a block quote: its marks
WRAP_LINES = 8  # the most lines a reference is read over (a long quote, wrapped)


def _wrapped(lines: list[str], index: int, end: int) -> str:
    """The prose line `lines[index]`, and the lines after it while a reference begun on it
    runs on (prose wraps; the build reads a break as a space, and a block quote's marks,
    here blanked, as nothing), up to line `end`, where its paragraph ends."""
    raw = lines[index]
    quoted = QUOTED.match(raw) is not None
    for after in lines[index + 1:min(end, index + WRAP_LINES)]:
        opened = raw.rfind("[[")
        if opened < 0 or "]]" in raw[opened:]:
            break
        marks = QUOTED.match(after) if quoted else None
        raw += "\n" + (" " * marks.end() + after[marks.end():] if marks else after)
    return raw


def _references(pr: PullRequest, page: Page, raw: str, index: int, offset: int,
                known: tuple[str, ...], links: frozenset[str], source: bool,
                at: str, in_table: bool) -> Iterator[Item]:
    for start, end, inner in references(raw):
        if "\n" in raw[:start]:
            continue  # the next line's, read with it
        ref = REF.match(inner)
        if ref is None or inner.strip().startswith("claim:") or \
                (ref["commit"] or "head").lower() != at:
            continue  # not a reference, a claim's count, or pinned elsewhere (@base, @sha)
        written = path_written(ref["path"])
        full = _full_path(written, pr.files, known, links)
        folder = None
        if full is None and not (ref["start"] or ref["symbol"]):
            found = folders_named(known, written)
            folder = found[0] if len(found) == 1 else None
        if full is None and folder is None:
            continue  # the build reports it
        begins = offset + start + 2 + ref.start("target")
        common = {"page": page.path, "line": index + 1, "start_offset": begins,
                  "end_offset": offset + start + 2 + ref.end("target"), "file": full or folder,
                  "written_path": ref["path"], "quoted": ref["quote"] is not None
                  or (source and bool(raw[end:].strip())),  # a source's code is its quote
                  "quote_at": offset + start + 2 + ref.end("commit" if ref["commit"] else "target"),
                  "at": at, "in_table": in_table}
        if folder is not None:  # it stands while the new head has it
            yield Item("folder", **common)  # type: ignore[arg-type]
        elif ref["symbol"]:
            yield Item("symbol", symbol=ref["symbol"], **common)  # type: ignore[arg-type]
        elif ref["start"]:
            start = int(ref["start"])
            yield Item("reference", start=start, end=int(ref["end"] or start),
                       **common)  # type: ignore[arg-type]
        else:
            yield Item("file", **common)  # type: ignore[arg-type]


def _block_items(pr: PullRequest, page: Page, lines: list[str], offsets: list[int],
                 fence: Fence, known: tuple[str, ...], links: frozenset[str],
                 at: str = "head") -> list[Item]:
    held = list(fence.held(lines))
    body = [text for _, _, text in held]
    if fence.info == "claim":
        if read_fields(body).values.get("at", "head") != at:
            return []  # counted at another commit (a SHA's never moves)
        return [Item("claim", page.path, fence.line + 1, offsets[fence.line],
                     offsets[fence.line], claim=tuple(body), at=at)]
    found: list[Item] = []
    headers = git_headers(body)  # pasted from git diff, in place of `file:` lines
    apart = {k for start, end in commit_text(body).items() for k in range(start, end)}
    starts = [i for i, raw in enumerate(body)
              if i not in apart and (i in headers or FILE.match(raw))]
    for i, after in zip(starts, [*starts[1:], len(body)], strict=True):
        m = FILE.match(body[i])
        written = m["path"] if m else path_writing(headers[i][0])
        full = _full_path(path_written(written), pr.files, known, links)
        spans = tuple((int(a), int(b or a)) for a, b in RANGE.findall(m and m["lines"] or ""))
        if full is None:
            continue
        # each section's lines, each with its mark (a blank line is context), and the
        # counts its '@@' gives
        sections: list[list[Row]] = [[]]
        counts: list[tuple[int, int] | None] = [None]
        trimmed = [True]  # a blank line before a `...` is the file's, as the build reads it
        first = None  # its first '@@'
        for row in (body[k] for k in range(i + (1 if m else headers[i][1]), after)
                    if k not in apart):  # (what git show wrote around the diff: none)
            if (position := POSITION.match(row)) or ELISION.match(row):
                first = first or position
                trimmed[-1] = position is not None
                sections.append([])
                counts.append((int(position["b"] or 1), int(position["d"] or 1))
                              if position else None)
                trimmed.append(True)
            elif row[:1] in " -+" or row == "":
                sections[-1].append((row[:1] or " ", row[1:]))
        creates = first is not None and first["a"] == "0" and int(first["b"] or 1) == 0
        removes = not m and headers[i][2]  # pasted: '+++ /dev/null'
        renames_to = None if m else git_said(body[i:i + headers[i][1]], "rename to ")
        kept = [s[:len(s) - (trailing_blanks(s, n) if trim else 0)]
                for s, n, trim in zip(sections, counts, trimmed, strict=True)
                if any((mark in " -" or creates) and text.strip() for mark, text in s)]
        if not spans and first and int(first["a"]):  # no lines named (pasted from git
            # diff, a bare `file:`): its first '@@' says
            spans = ((int(first["a"]), int(first["a"]) + max(int(first["b"] or 1), 1) - 1),)
        # its markdown: from its file line (or header) to the next one or the fence's end
        index, column = held[i][:2]
        found.append(Item("hunk", page.path, index + 1, offsets[index] + column,
                          offsets[index + after - i], full, written,
                          min((a for a, _ in spans), default=None),
                          max((b for _, b in spans), default=None), m["symbol"] if m else None,
                          spans=spans, creates=creates, removes=removes, renames_to=renames_to,
                          rows=tuple(tuple(s) for s in kept),
                          columns=tuple(c for _, c, _ in held[i + 1:after])))
    return found


def _edited(item: Item, new_path: str, old: tuple[int, tuple[str, ...]],
            new: tuple[int, tuple[str, ...]]) -> Placed:
    """A definition that was edited: what changed in it, from its first changed line to
    its last, as (first line, text) at each head."""
    i1, i2, j1, j2 = changed_part(old[1], new[1])
    return Placed(item, CHANGED, new_path, new[0], new[0] + len(new[1]) - 1, old[1][i1:i2],
                  new[1][j1:j2], f"{item.symbol} was edited: {_edit_where(old, new)}")


def changed_part(old: tuple[str, ...], new: tuple[str, ...]) -> tuple[int, int, int, int]:
    """Where `old` and `new` differ, from their first differing line to their last: the
    slices [i1:i2] of `old` and [j1:j2] of `new` (all of both when nothing is alike)."""
    opcodes = [op for op in difflib.SequenceMatcher(None, old, new, autojunk=False)
               .get_opcodes() if op[0] != "equal"]
    if not opcodes:
        return 0, len(old), 0, len(new)
    return opcodes[0][1], opcodes[-1][2], opcodes[0][3], opcodes[-1][4]


def _edit_where(old: tuple[int, tuple[str, ...]], new: tuple[int, tuple[str, ...]]) -> str:
    """'L29-L30 at the old head, L30-L31 at the new' ('L13 added at the new head', 'L29
    removed from the old head'): the lines that changed between `old` and `new`, each
    (first line, text)."""
    i1, i2, j1, j2 = changed_part(old[1], new[1])
    if i1 == i2:
        return f"{lines_text(new[0] + j1, new[0] + j2 - 1)} added at the new head"
    if j1 == j2:
        return f"{lines_text(old[0] + i1, old[0] + i2 - 1)} removed from the old head"
    return (f"{lines_text(old[0] + i1, old[0] + i2 - 1)} at the old head, "
            f"{lines_text(new[0] + j1, new[0] + j2 - 1)} at the new")


def _full_path(name: str, files: tuple[str, ...], known: tuple[str, ...],
               links: frozenset[str]) -> str | None:
    """The path `name` names as a build finds it: a tail of pr.yml's `files`, or else of
    `known` (the tree)."""
    candidates = paths_named(files, known, name) if known else (
        matching_paths(files, name) or [name.strip("/")])
    if not candidates and _link_of(name.strip("/"), links):
        return name.strip("/")  # a file in a submodule, named from the tree's root
    return candidates[0] if len(candidates) == 1 else None


def _link_of(path: str, links: Iterable[str]) -> str | None:
    """The submodule folder of `links` that holds `path`, if any."""
    return next((f for f in links if path.startswith(f + "/")), None)


# -- placing it at the new head ----------------------------------------------------------

class HeadMove:
    """The diff from one head to another, read from the git repository at `git_dir`."""

    def __init__(self, config: Config, reader: SourceReader, git_dir: Path, pr: PullRequest,
                 old: str, new: str, store: Kept | None = None) -> None:
        """`old` and `new`: the full SHAs of the PR's pinned head and of the newer one;
        `store`: what builds before learned from code (definitions, a claim's matches)."""
        self.config, self.reader, self.pr, self.old, self.new = config, reader, pr, old, new
        self.store = store
        self.renamed: dict[str, str] = {}
        self.deleted: set[str] = set()
        for status, before, after in changes(git_dir, old, new):
            if status == "R":
                self.renamed[before] = after
            elif status == "D":
                self.deleted.add(before)
        self._maps: dict[str, list[int | None]] = {}

    def lines(self, commit: str, path: str) -> list[str] | None:
        return self.reader.lines(commit, path)

    def new_path(self, path: str) -> str | None:
        """Where `path` is at the new head (renames followed), None when it was removed."""
        if path in self.deleted:
            return None
        return self.renamed.get(path, path)

    def _map(self, path: str, new_path: str) -> list[int | None]:
        """For each old line (1-based index), its new line number, None if edited."""
        if path not in self._maps:
            old = self.lines(self.old, path) or []
            new = self.lines(self.new, new_path) or []
            mapped: list[int | None] = [None] * (len(old) + 1)
            matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
            for tag, a1, a2, b1, _ in matcher.get_opcodes():
                if tag == "equal":
                    for k in range(a2 - a1):
                        mapped[a1 + k + 1] = b1 + k + 1
            self._maps[path] = mapped
        return self._maps[path]

    def place(self, item: Item) -> Placed:
        if item.kind == "claim":
            return self._claim(item)
        if item.kind == "folder":
            inside = any(p.startswith(item.file + "/") for p in self.reader.tree(self.new))
            return Placed(item, SAME, item.file) if inside else \
                Placed(item, GONE, detail=f"the new head has no folder {item.file}/")
        pinned = self.reader.entries(self.old, GITLINK)
        link = _link_of(item.file, pinned)
        if link is not None:
            return self._in_submodule(item, link, pinned[link])
        if item.kind == "hunk" and item.creates:
            return self._made_file(item)
        new_path = self.new_path(item.file)
        old_lines = self.lines(self.old, item.file)
        if new_path is None and item.kind == "hunk" and item.removes:
            return Placed(item, CHANGED, item.file, detail=(
                f"the new head has no {item.file}, which the hunk removes: the PR may have "
                "made this change"), made_file=(item.file, None))
        if item.kind == "hunk" and item.renames_to and old_lines is not None and \
                self.lines(self.new, item.file) is None and \
                (renamed := self.lines(self.new, item.renames_to)) is not None:
            return self._rename_made(item, item.renames_to, old_lines, renamed)
        if new_path is None or old_lines is None:
            return Placed(item, GONE, detail=f"{item.file} was removed")
        new_lines = self.lines(self.new, new_path)
        if new_lines is None:
            return Placed(item, GONE, detail=f"{item.file} is not at the new head")
        if item.kind == "file":
            return self._moved(item, new_path, None, None, (), ())
        if item.kind == "symbol":
            return self._symbol(item, new_path, old_lines, new_lines)
        if item.kind == "hunk":
            return self._hunk(item, new_path, old_lines, new_lines)
        return self._lines(item, new_path, old_lines, new_lines)

    def _made_file(self, item: Item) -> Placed:
        """A hunk that makes a new file: the same while the new head has no such file; where
        it has one, changed (the build says it has it), the PR having made this change when
        the file holds what the hunk proposes."""
        lines = self.lines(self.new, item.file)
        if lines is None:
            return Placed(item, SAME, item.file)
        rows = tuple(row for section in item.rows for row in section)
        made = made_at(lines, rows, 1, len(lines), self._comments(item.file, lines))
        if made is not None:
            return Placed(item, CHANGED, item.file, new_text=tuple(lines[made[0] - 1:made[1]]),
                          detail=f"the new head has {item.file}, which the hunk makes, with the "
                                 f"lines it proposes ({lines_text(*made)}): the PR may have made "
                                 "this change", made=made)
        return Placed(item, CHANGED, item.file, new_text=tuple(lines[:8]), detail=(
            f"the new head has {item.file}, which the hunk makes new: applied, it would make it "
            "again"))

    def _rename_made(self, item: Item, to: str, old_lines: list[str],
                     new_lines: list[str]) -> Placed:
        """A hunk pasted from git diff that renames its file to `to`, where the new head has
        `to` and not the file: the PR made the rename (found by name, whether or not git
        tells the rename). Placed in `to` as any hunk is, and changed whatever stands there:
        applied, it would rename the file again."""
        placed = self._hunk(item, to, old_lines, new_lines)
        has = f"the new head has {to}, to which the hunk renames {item.file}"
        if placed.made is not None:
            return dataclasses.replace(placed, detail=(
                f"{has}, with the lines it proposes ({lines_text(*placed.made)}): the PR may "
                "have made this change"))
        if placed.state in (SAME, MOVED):
            at = f" ({lines_text(placed.start, placed.end or placed.start)})" if placed.start else ""
            return dataclasses.replace(placed, state=CHANGED, made_file=(item.file, to), detail=(
                f"{has}, with the lines the hunk changes{at}: the PR made the rename, not the "
                f"change; rewrite the hunk as a change of {to}"))
        return dataclasses.replace(placed, made_file=(item.file, to), detail=(
            f"{has}: the PR made the rename; there, {placed.detail}"))

    def _in_submodule(self, item: Item, link: str, old: str) -> Placed:
        """A file of a submodule stands as it did while the new head pins the submodule at
        the same commit; when it pins another, the item is placed in the submodule's own
        repository from the one commit to the other (when both are here), as any is."""
        new = self.reader.entries(self.new, GITLINK).get(link)
        if new == old:
            return Placed(item, SAME, item.file, item.start, item.end)
        if new is None:
            return Placed(item, GONE, detail=f"the new head has no submodule {link}")
        sub = holding(self.reader, self.old, item.file, self.config.code_host, self.pr.repo)
        reader = reader_of(self.config, self.reader, sub, old, new) if sub and sub.repo else None
        inner = matching_paths(reader.tree(old), item.file[len(link) + 1:]) if reader else []
        if reader is None or sub is None or sub.repo is None or len(inner) != 1:
            return Placed(item, CHANGED, item.file, item.start, item.end, detail=(
                f"the new head pins the submodule {link} at {new[:7]}, not {old[:7]}, whose "
                "code is not here: read the cited lines there"))
        move = HeadMove(self.config, reader, reader.checkout,
                        dataclasses.replace(self.pr, repo=sub.repo), old, new, self.store)
        placed = move.place(dataclasses.replace(item, file=inner[0]))
        file = item.file if placed.file == inner[0] else placed.file and f"{link}/{placed.file}"
        return dataclasses.replace(placed, item=item, file=file, detail=placed.detail.replace(
            inner[0], f"{link}/{inner[0]}"))

    def _lines(self, item: Item, new_path: str, old_lines: list[str],
               new_lines: list[str]) -> Placed:
        assert item.start is not None and item.end is not None
        text = tuple(old_lines[item.start - 1:item.end])
        if not text or item.end > len(old_lines):
            return Placed(item, GONE, detail=f"{item.file} has no line {item.end} at the old head")
        found = self._find(item.file, new_path, item.start, text, new_lines, old_lines)
        if found is not None:
            return self._moved(item, new_path, found, found + len(text) - 1, text, text)
        approx = self._approximate(item.file, new_path, item.start, item.end)
        elsewhere = self._elsewhere(new_path, text, new_lines, old_lines)
        if approx is None:
            return Placed(item, GONE, new_path, old_text=text, quote=_quote(item, text, new_lines),
                          detail="the cited lines were removed" + elsewhere)
        now = tuple(new_lines[approx[0] - 1:approx[1]])
        if self._respaced(new_path, new_lines, text, now):  # (its blank lines at its ends aside)
            start, end = _blanks_aside(new_lines, approx, text)
            return self._moved(item, new_path, start, end, text, tuple(new_lines[start - 1:end]))
        i1, i2, _, _ = changed_part(text, now)
        edited = text[i1:i2] + text[:i1] + text[i2:]
        # where the lines were edited in place and moved, the reference points where they
        # stand, if a quote stops the build there; else it keeps its numbers (see Placed)
        shifted = _shifted_whole(old_lines, new_lines, (item.start, item.end), approx)
        quote = _quote(item, edited, new_lines, approx) if shifted else None
        return Placed(item, CHANGED, new_path, approx[0], approx[1], text, now,
                      "the cited lines were edited: "
                      + _edit_where((item.start, text), (approx[0], now)) + elsewhere,
                      quote=quote or _quote(item, edited, new_lines), renumbered=bool(quote))

    def _elsewhere(self, new_path: str, text: tuple[str, ...], new_lines: list[str],
                   old_lines: list[str]) -> str:
        """Where the cited text stands at the new head, when once and outside the definition
        that held it: '; their text is now at L58-L59, in save_tokenizer_on_rank0'. Only
        text that stood once at the old head too says where it went (a `return err` of
        many is not the one cited, wherever the one left stands)."""
        places = _places(new_lines, text)
        if len(places) != 1 or len(_places(old_lines, text)) != 1:
            return ""
        start, end = places[0], places[0] + len(text) - 1
        index = index_of(self.reader, self.new, new_path, self.store, languages=self.config.languages)
        holder = enclosing(index.definitions, start, end) if index else None
        return f"; their text is now at {lines_text(start, end)}" + (f", in {holder.shown}" if holder else "")

    def _find(self, path: str, new_path: str, start: int, text: tuple[str, ...],
              new_lines: list[str], old_lines: list[str]) -> int | None:
        """Where `text` (old lines from `start`) stands at the new head: where the diff puts
        it, confirmed; else its one place in the definition that held it, while that is
        defined (text that left it is not what the page cited there); else in the file."""
        mapped = self._map(path, new_path)
        first = mapped[start] if start < len(mapped) else None
        if first is not None and tuple(new_lines[first - 1:first - 1 + len(text)]) == text:
            return first
        places = _places(new_lines, text)
        holder = self._holder(path, start, start + len(text) - 1) if places else None
        named = self._definitions(new_path, holder.shown) if holder is not None else []
        again = named[0] if len(named) == 1 else None  # (by its arity too: Elixir's clauses)
        if again is not None:  # it still stands: the lines are the same only inside it
            inside = [p for p in places if again.start <= p <= again.end]
            return inside[0] if len(inside) == 1 else None
        return places[0] if len(places) == 1 else None

    def _approximate(self, path: str, new_path: str, start: int, end: int) -> tuple[int, int] | None:
        """The new lines that took the place of old lines `start`-`end` (None: removed)."""
        mapped = self._map(path, new_path)
        before = next((mapped[i] for i in range(start - 1, 0, -1) if mapped[i]), 0) or 0
        after = next((mapped[i] for i in range(end + 1, len(mapped)) if mapped[i]), None)
        last = (after - 1) if after is not None else len(self.lines(self.new, new_path) or [])
        return (before + 1, last) if last >= before + 1 else None

    def _holder(self, path: str, start: int, end: int) -> Definition | None:
        index = index_of(self.reader, self.old, path, self.store, languages=self.config.languages)
        return enclosing(index.definitions, start, end) if index else None

    def _made(self, item: Item, path: str, made: tuple[int, int] | None,
              before: Callable[[], tuple[int, int] | None]) -> tuple[int, int] | None:
        """`made`, where the new head has the lines a hunk proposes, unless they stood so at
        the old head too (`before` tells) or another definition than the one the hunk
        names holds them (see code_index.named_holds)."""
        if made is None or before() is not None or not named_holds(
                self.reader, self.new, path, item.symbol, made, self.store,
                languages=self.config.languages):
            return None
        return made

    def _definitions(self, path: str, name: str) -> list[Definition]:
        """The definitions `name` names (as a reference resolves it) at the new head."""
        index = index_of(self.reader, self.new, path, self.store, languages=self.config.languages)
        return chosen(index.definitions, name, self.reader.lines(self.new, path)) if index else []

    def _symbol(self, item: Item, new_path: str, old_lines: list[str],
                new_lines: list[str]) -> Placed:
        assert item.symbol is not None
        index = index_of(self.reader, self.old, item.file, self.store, languages=self.config.languages)
        old = chosen(index.definitions, item.symbol, old_lines) if index else []
        if len(old) != 1:
            return Placed(item, CHANGED, detail=f"{item.symbol} names no one definition at the old head")
        text = tuple(old_lines[old[0].start - 1:old[0].end])
        named = self._definitions(new_path, item.symbol)  # as the build will read the name
        if len(named) > 1 or named and named[0].name != old[0].name:
            return Placed(item, CHANGED, new_path, old_text=text, detail=(
                f"{item.symbol} names {named[0].shown} ({named[0].lines}) at the new head, not "
                f"{old[0].shown}" if len(named) == 1 else f"{item.symbol} names {len(named)} "
                f"definitions at the new head: {', '.join(d.shown for d in named[:5])}"))
        new = named[0] if named else None
        if new is None:
            renamed = self._renamed(item.file, new_path, old[0])
            if renamed is not None:
                return Placed(item, CHANGED, new_path, renamed.start, renamed.end, text,
                              tuple(new_lines[renamed.start - 1:renamed.end]),
                              f"{item.symbol} is no longer defined in {new_path}: its lines "
                              f"are in {renamed.shown} ({renamed.lines}), a name the old head "
                              "did not define (renamed?)")
            return Placed(item, GONE, new_path, old_text=text,
                          detail=f"{item.symbol} is no longer defined in {new_path}")
        now = tuple(new_lines[new.start - 1:new.end])
        if now != text and not self._respaced(new_path, new_lines, text, now):
            return _edited(item, new_path, (old[0].start, text), (new.start, now))
        if new_path == item.file and (new.start, new.end) == (old[0].start, old[0].end):
            return Placed(item, SAME, new_path, new.start, new.end, text, now)  # a name has no lines
        return self._moved(item, new_path, new.start, new.end, text, now)

    def _respaced(self, path: str, lines: list[str], old: tuple[str, ...],
                  new: tuple[str, ...]) -> bool:
        """Whether the cited lines `old` stand at the new head as `new` with only the white
        space between their tokens changed (see highlight.respaced): a formatter's commit
        (guzzle's php-cs-fixer run, which aligned no more `=>`), after which the page's
        explanation holds as it did. Such lines are moved, not changed, said so."""
        return respaced(lexing_for(path, self.config.languages, self.store, lines), old, new)

    def _renamed(self, path: str, new_path: str, old: Definition) -> Definition | None:
        """The definition of the new head that holds the lines of `old`'s body (most of
        them as they were, blank lines aside), nested where `old` was, under a name the
        old head did not define: `load` renamed `read_text`; None when there is none."""
        mapped, lines = self._map(path, new_path), self.lines(self.old, path) or []
        body = [k for k in range(old.start + 1, old.end + 1) if k <= len(lines) and lines[k - 1].strip()]
        kept = [n for k in body if (n := mapped[k]) is not None]
        if not kept or len(kept) * 2 < len(body):  # most of its body as it was
            return None
        before = index_of(self.reader, self.old, path, self.store, languages=self.config.languages)
        after = index_of(self.reader, self.new, new_path, self.store, languages=self.config.languages)
        held = enclosing(after.definitions, min(kept), max(kept)) if after else None
        if held is None or before is None or held.name.rpartition(".")[0] != \
                old.name.rpartition(".")[0] or any(d.name == held.name for d in before.definitions):
            return None
        return held

    def _named_holder(self, item: Item, new_path: str, shift: int) -> str | None:
        """Why the definition a hunk's file line names (`· save`) no longer holds the lines
        it names, moved by `shift`, at the new head (as a build checks it: see holds), or
        None when it does or names none."""
        spans = [(a + shift, b + shift) for a, b in item.spans]
        index = index_of(self.reader, self.new, new_path, self.store, languages=self.config.languages) \
            if item.symbol is not None and spans else None
        if item.symbol is None or index is None or holds(
                index.definitions, item.symbol, spans, self.reader.lines(self.new, new_path)):
            return None
        holder = enclosing(index.definitions, *spans[0])
        return (f"the hunk names {item.symbol}, which holds none of its lines at the new head"
                + (f"; {holder.shown} ({holder.lines}) holds them" if holder else ""))

    def _hunk(self, item: Item, new_path: str, old_lines: list[str],
              new_lines: list[str]) -> Placed:
        """A hunk moves when every section's old side stands, as it is, at the same offset."""
        shifts = set()
        for sides in item.sides():
            section = sides[0]
            at = _near(old_lines, section, item.start or 1)
            found = None if at is None else self._find(item.file, new_path, at, section,
                                                       new_lines, old_lines)
            if at is None or found is None:
                return self._unapplied(item, new_path, sides, at, (old_lines, new_lines))
            comments = self._comments(new_path, new_lines)
            made = self._made(item, new_path, _beside(new_lines, sides, found, comments),
                              functools.partial(_beside, old_lines, sides, at, comments))
            if made is not None:
                return Placed(item, CHANGED, new_path, item.start, item.end, section,
                              tuple(new_lines[made[0] - 1:made[1]]),
                              f"the hunk still applies ({lines_text(found, found + len(section) - 1)}"
                              f"), but the new head has the lines it proposes beside it "
                              f"({lines_text(*made)}): the PR may have made this change", made=made)
            shifts.add(found - at)
        if len(shifts) > 1:
            return Placed(item, CHANGED, new_path,
                          detail="the hunk no longer applies: its sections moved apart")
        shift = shifts.pop() if shifts else 0
        start = item.start + shift if item.start is not None else None
        end = item.end + shift if item.end is not None else None
        unnamed = self._named_holder(item, new_path, shift)
        if unnamed is not None:
            return Placed(item, CHANGED, new_path, start, end, detail=unnamed, shift=shift)
        return self._moved(item, new_path, start, end, (), (), shift)

    def _comments(self, path: str, lines: list[str]) -> Aside:
        """Which lines of `path` are comments alone, as the build tells them (see _made)."""
        return comment_lines(path, self.config.languages, self.store, lines)

    def _unapplied(self, item: Item, new_path: str, sides: Sides, at: int | None,
                   heads: tuple[list[str], list[str]]) -> Placed:
        """A hunk whose old side (`section`, at old line `at`) does not stand at the new head:
        what took its place there, and its first line that is not there as it was; or that
        the lines it proposes stand there (the PR made the change)."""
        section = sides[0]
        if at is None:
            return Placed(item, CHANGED, new_path, old_text=section, detail=(
                "the hunk no longer applies: its old side is not at the old head either"))
        old_lines, new_lines = heads
        approx = self._approximate(item.file, new_path, at, at + len(section) - 1)
        now = tuple(new_lines[approx[0] - 1:approx[1]]) if approx else ()
        start, end = approx or (None, None)
        comments = self._comments(new_path, new_lines)
        made = self._made(item, new_path,
                          _taken(new_lines, sides, approx, comments) if now else None,
                          functools.partial(_taken, old_lines, sides, (at, at), comments))
        if made is not None:  # shown beside its old side: the lines it made
            return Placed(item, CHANGED, new_path, start, end, section,
                          tuple(new_lines[made[0] - 1:made[1]]),
                          "the hunk no longer applies: the new head has the lines it proposes "
                          f"({lines_text(*made)}): the PR may have made this change", made=made)
        first = next((line for line in section if line not in now and line.strip()), None)
        return Placed(item, CHANGED, new_path, start, end, section, now,
                      "the hunk no longer applies: its old side "
                      + ("was removed" if not now else "was edited")
                      + (f" (first at {first.strip()[:60]!r})" if first and now else ""))

    def _claim(self, item: Item) -> Placed:
        old, new = self._count(item, self.old), self._count(item, self.new)
        if old is None or new is None:
            return Placed(item, CHANGED, detail="the claim cannot be counted at "
                          + ("the old head" if old is None else "the new head"))
        if old[:2] == new[:2]:
            return Placed(item, SAME)
        (held, was, counted), (holds, now, counting) = old, new
        if held and holds:
            detail = f"it holds at both heads, but counts otherwise: {was}, now {now}"
        elif held:
            detail = f"it held at the old head ({was}) and does not at the new: {now}" \
                + self._renamed_scopes(item)
        elif holds:
            detail = f"it did not hold at the old head ({was}); at the new it holds ({now})"
        else:
            detail = f"it holds at neither head: {was}; now {now}"
        detail = _counted_apart(counted, counting) + detail
        return Placed(item, CHANGED, old_text=(("holds, " if held else "does not hold: ") + was,),
                      new_text=(("holds, " if holds else "does not hold: ") + now,),
                      detail=detail)

    def _renamed_scopes(self, item: Item) -> str:
        """Of the definitions a claim's `in:` names (`base.py::parse_uqs`), those the new
        head no longer defines whose lines it holds under a name the old head did not
        define (see _renamed), said as a reference's are: '; parse_uqs is no longer
        defined in base.py: its lines are in parse_unique_constraints (L2837-L2860)
        (renamed?)'; '' for none."""
        said = []
        for scope in SCOPES.findall(read_fields(list(item.claim)).values.get("in", "")):
            written, _, name = scope.lstrip("!").partition("::")
            paths = paths_named(tuple(self.pr.files), tuple(self.reader.tree(self.old)),
                                path_written(written))
            new_path = self.new_path(paths[0]) if len(paths) == 1 and name else None
            index = index_of(self.reader, self.old, paths[0], self.store,
                             languages=self.config.languages) if new_path else None
            old = chosen(index.definitions, name.strip("`"),
                         self.reader.lines(self.old, paths[0])) if index else []
            if new_path is None or len(old) != 1 or self._definitions(new_path, name.strip("`")):
                continue
            renamed = self._renamed(paths[0], new_path, old[0])
            if renamed is not None:
                said.append(f"; {name.strip('`')} is no longer defined in {new_path}: its lines "
                            f"are in {renamed.shown} ({renamed.lines}) (renamed?)")
        return "".join(said)

    def _count(self, item: Item, commit: str) -> tuple[bool, str, list[ClaimSite]] | None:
        """Whether the claim holds at `commit`, and what it counted there, or why it does
        not hold, with the sites it counted (None: it cannot be counted there)."""
        pr = dataclasses.replace(self.pr, base=commit) if item.at == "base" \
            else dataclasses.replace(self.pr, head=commit)  # (a claim `at: base`: the base)
        ctx = PageContext(self.config, item.page, pr, 1, self.reader, code_store=self.store)
        claim: Claim | None = parse_claim(ctx, list(item.claim), item.line + 1, contradicted=True)
        counted = [s for s in claim.sites if s.counted] if claim is not None else []
        if claim is None or claim.commit is None or claim.contradicted:
            errors = ctx.problems.errors
            if not errors:
                return None
            why = errors[0].message.splitlines()[0]  # "the claim '...' does not hold at X: why"
            return False, why.partition(f" does not hold at {commit[:7]}: ")[2] or why, counted
        of = f" of {len(claim.sites)} matches" if len(claim.sites) != claim.counted else ""
        return True, f"{claim.counted} counted{of}", counted

    def _moved(self, item: Item, new_path: str, start: int | None, end: int | None,
               old: tuple[str, ...], new: tuple[str, ...], shift: int | None = None) -> Placed:
        if new_path == item.file and start == item.start and not shift and \
                (old == new or end == item.end or item.symbol):
            return Placed(item, SAME, new_path, start, end, old, new)
        shift = shift if shift is not None else (
            (start - item.start) if start is not None and item.start is not None else 0)
        spaced = ", only the white space between its tokens changed" if old != new else ""
        return Placed(item, MOVED, new_path, start, end, old, new,
                      detail=_moved_how(item, new_path, start, end) + spaced, shift=shift)


def _counted_apart(old: list[ClaimSite], new: list[ClaimSite]) -> str:
    """What a claim counts at one head and not at the other, by each match's line of code
    (wherever it moved): 'counted at the new head only: test.cc:1337; ' ('' for none)."""
    was, now = Counter((s.path, s.code) for s in old), Counter((s.path, s.code) for s in new)
    said = ""
    for head, sites, only in (("new", new, now - was), ("old", old, was - now)):
        apart = []
        for site in reversed(sites):  # of lines alike, the last ones (an added line is late)
            if only[site.path, site.code] > 0:
                only[site.path, site.code] -= 1
                apart.append(site)
        said += f"counted at the {head} head only: {listed(apart[::-1])}; " if apart else ""
    return said


def _taken(lines: list[str], sides: Sides, approx: tuple[int, int] | None,
           comments: Aside = None) -> tuple[int, int] | None:
    """Where `lines`, the new head's, hold what a hunk's section proposes (its `sides`),
    at or around `approx` (where its old side went), or None (see hunks.made_at)."""
    if approx is None:
        return None
    section, proposed, rows = sides
    return made_at(lines, rows, approx[0], approx[1] - approx[0] + len(proposed) + len(section),
                   comments)


def _beside(lines: list[str], sides: Sides, at: int,
            comments: Aside = None) -> tuple[int, int] | None:
    """Where `lines` hold the lines a hunk's section adds (its `sides`), touching its old
    side, which stands at `at` (see hunks.made_beside), or None."""
    return made_beside(lines, sides[2], at, at + len(sides[0]) - 1, comments)


def _shifted_whole(old_lines: list[str], new_lines: list[str], cited: tuple[int, int],
                   now: tuple[int, int]) -> bool:
    """Whether the `cited` lines, edited, stand at `now` as many lines moved by some lines
    between the same neighbours (the line before them and the one after, each as it was):
    an edit in place, then moved, such as a doc comment added above an edited function."""
    (a, b), (c, d) = cited, now
    if c == a or d - c != b - a or min(a, c) < 2 or b >= len(old_lines) or d >= len(new_lines):
        return False
    return old_lines[a - 2] == new_lines[c - 2] and old_lines[b] == new_lines[d]


QUOTE_TELLS = 12  # characters: a line as short as `break;` or `}` quoted only when no other is


def _quote(item: Item, text: tuple[str, ...], new_lines: list[str],
           lines: tuple[int, int] | None = None) -> str | None:
    """What a changed or gone reference is to quote of its old `text` (the lines that
    changed first), so that the build stops at it until its author reads it again: a line
    its numbers at the new head (`lines`, where the edited lines stand now; else its own)
    no longer hold (of a long line, its start, when that alone is not held there); '' when
    every line still stands within them (`x = 7` in `x = 70`: a quote is matched as part of
    the lines). None: it has a quote already, or its lines run past the file's end (the
    build stops there either way)."""
    assert item.start is not None and item.end is not None
    first, last = lines or (item.start, item.end)
    if item.quoted or last > len(new_lines):
        return None
    held = new_lines[first - 1:last]
    quotes: list[str] = []
    for line in text:
        whole = line.strip()
        ends = [i for i in range(20, 69) if whole[i] in " (.,;"] if len(whole) > 72 else []
        start = whole[:ends[-1]].rstrip() if ends else whole
        # no backtick: one could pair with a stray backtick earlier in the paragraph into a
        # code span that takes the reference (the build would show it as code, no link);
        # of a line with one, a part between them
        parts = [part.strip() for part in whole.split("`")] if "`" in whole else []
        quotes.extend(q for q in dict.fromkeys((start, whole, *parts))
                      if q and "`" not in q and not holds_quote(held, q))
    # one that tells the lines apart (not a `break;` or a `}`) when there is one
    return next((q for q in quotes if len(q) >= QUOTE_TELLS), quotes[0] if quotes else "")


def _blanks_aside(lines: list[str], span: tuple[int, int], text: tuple[str, ...]) -> tuple[int, int]:
    """`span` of `lines` without the blank lines at its ends that `text` has not at its."""
    start, end = span
    while start < end and not lines[start - 1].strip() and text[0].strip():
        start += 1
    while end > start and not lines[end - 1].strip() and text[-1].strip():
        end -= 1
    return start, end


def _places(lines: list[str], text: tuple[str, ...]) -> list[int]:
    """Every line of `lines` where `text` stands whole (1-based)."""
    return [i + 1 for i in range(len(lines) - len(text) + 1)
            if tuple(lines[i:i + len(text)]) == text]


def _near(lines: list[str], section: tuple[str, ...], hint: int) -> int | None:
    """Where `section` stands in `lines`, the place nearest line `hint` (None: nowhere)."""
    places = _places(lines, section)
    return min(places, key=lambda p: (abs(p - hint), p)) if places else None


def _moved_how(item: Item, new_path: str, start: int | None, end: int | None) -> str:
    where = new_path if new_path != item.file else ""
    if start is not None:
        where = f"{where} {lines_text(start, start if end is None else end)}".strip()
    return f"now at {where}"


def measure(config: Config, reader: SourceReader, git_dir: Path, pr: PullRequest, old: str,
            new: str, commits: int | None, at: str = "head", store: Kept | None = None) -> Drift:
    """Every item of every page of `pr` placed at head `new` (`old`: the pinned head's full
    SHA; `commits`: how many commits `new` is after it, see commits_between); with `at`
    "base", every item pinned `@base`, from the base `old` to the base `new`. `store`: what
    builds before learned from the code at both (a claim counted at each is kept there)."""
    move = HeadMove(config, reader, git_dir, pr, old, new, store)
    known = reader.tree(old)
    links = frozenset(reader.entries(old, GITLINK))
    drift = Drift(old, new, commits, renamed=move.renamed,
                  files=tuple(move.renamed.get(f, f) for f in pr.files))
    for page in pr.pages:
        try:
            text = page.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # discovery read it a moment ago; a page gone since is rebuilt anyway
        drift.placed[page.path] = [_said_at(move.place(item), at)
                                   for item in items_of(pr, page, text, known, links, at, config.raw_html)]
    return drift


def _said_at(placed: Placed, at: str) -> Placed:
    """`placed` as its report says it for items pinned `at` the base: "at the old base"
    where HeadMove, which places either, says "at the old head"."""
    if at == "head":
        return placed
    return dataclasses.replace(placed, detail=placed.detail.replace(
        "old head", f"old {at}").replace("new head", f"new {at}"))


def made_after(git_dir: Path, commit: str, other: str) -> bool:
    """Whether `commit` was committed no earlier than `other`, by the dates the commits
    themselves hold (a rebase or a squash dates what it makes)."""
    done = _git(git_dir, "show", "-s", "--format=%ct", commit, other, "--")
    dates = done.stdout.split()
    return done.returncode == 0 and len(dates) == 2 and int(dates[0]) >= int(dates[1])


# How far the PR's line of commits is read for a merge or a rebase of its base branch: the
# newest merges, and the new commits a rebased PR may have on top of its old ones.
REACH = 50


def base_moved(git_dir: Path, base: str, old: str, new: str,
               descends: bool) -> tuple[str, str] | None:
    """Where the PR's own change starts at head `new`, when since head `old` the PR took in
    newer commits of its base branch (the code host's diff of it starts there, no longer
    at `base`), and how, in words; None when it did not, or that is not certain.
    `descends`: whether `new` descends from `old` (a merge may have brought them in),
    else the PR was rebased (a force-push)."""
    found = _merged(git_dir, base, old, new) if descends else _rebased(git_dir, base, old, new)
    if found is None:
        return None
    counted = _git(git_dir, "rev-list", "--count", f"{base}..{found[0]}").stdout.strip()
    commits = f"{counted} commit" + ("" if counted == "1" else "s")
    return found[0], found[1].format(commits=commits)


def _merged(git_dir: Path, base: str, old: str, new: str) -> tuple[str, str] | None:
    """The newest commit merged in on the PR's own line of commits (first parents) from
    `old` to `new` that descends from `base` but not from `old` (a colleague's branch made
    from the PR's commits brings in none), and the words for it."""
    done = _git(git_dir, "rev-list", "--first-parent", "--merges", "--parents",
                f"--max-count={REACH}", f"{old}..{new}")  # the newest merges: a PR has few
    for line in done.stdout.splitlines() if done.returncode == 0 else ():
        merge, _, *others = line.split()
        for other in others:
            if other != base and _ancestor(git_dir, base, other) and \
                    not _ancestor(git_dir, old, other):
                return other, f"the new head merges {{commits}} of the base branch (in {merge[:7]})"
    return None


def _rebased(git_dir: Path, base: str, old: str, new: str) -> tuple[str, str] | None:
    """Where the PR's commits from `base` to `old` stand again at `new`, rebased onto a
    newer commit of the base branch: known only when its first commit is found, by what a
    rebase keeps of a commit (its author, the time it was written, its subject; its patch
    changes with the code around it), and the others found stand with it, in their order,
    one after the other among the first commits of `new`'s line (new ones may follow
    them), on a commit that descends from `base`. Commits left out are ones the rebase
    squashed into those before them (which keep the first one's author, time and subject)
    or dropped."""
    if not (_ancestor(git_dir, base, old) and _ancestor(git_dir, base, new)):
        return None
    ours = _authored(git_dir, f"{base}..{old}", f"--max-count={REACH * 4 + 1}")
    if not ours or len(set(ours.values())) != len(ours) or len(ours) > REACH * 4:
        return None  # none, or two alike, or too many: not certain
    theirs = _authored(git_dir, f"{base}..{new}", f"--max-count={len(ours) + REACH}")
    order = list(ours.values())  # newest first: the PR's first commit last
    found = [(i, written) for i, written in enumerate(theirs.values()) if written in ours.values()]
    at, kept = [i for i, _ in found], [written for _, written in found]
    if not found or kept[-1] != order[-1] or at != list(range(at[0], at[0] + len(at))) \
            or kept != [written for written in order if written in kept] or at[-1] + 1 >= len(theirs):
        return None  # not its first commit, not one after the other in order, nothing under
    onto = list(theirs)[at[-1] + 1]
    if onto == base:
        return None  # rebased where it was: the base stands
    now = "" if len(kept) == len(ours) else f", squashed or dropped to {len(kept)},"
    return onto, (f"the PR was rebased {{commits}} further along the base branch (its "
                  f"{len(ours)} commit{'' if len(ours) == 1 else 's'}{now} now on {onto[:7]})")


def _authored(git_dir: Path, span: str, *limit: str) -> dict[str, tuple[str, ...]]:
    """Each commit of `span` on its first parents, newest first, with what a rebase keeps
    of it: its author, the time it was written, its subject."""
    done = _git(git_dir, "log", "--first-parent", *limit, "--format=%H%x00%ae%x00%at%x00%s", span)
    rows = [line.split("\0") for line in done.stdout.splitlines()] if done.returncode == 0 else []
    return {row[0]: tuple(row[1:]) for row in rows if len(row) == 4}


def _ancestor(git_dir: Path, commit: str, of: str) -> bool:
    return _git(git_dir, "merge-base", "--is-ancestor", commit, of).returncode == 0


def commits_between(git_dir: Path, old: str, new: str) -> int | None:
    """How many commits `new` is after `old`, when it descends from it (None: another
    history, a force-push say, or history not fetched): those made on top of `old`, as the
    code host counts a PR's commits, not the base branch's that a merge of it brought in."""
    if not _ancestor(git_dir, old, new):
        return None
    done = _git(git_dir, "rev-list", "--count", "--ancestry-path", f"{old}..{new}")
    return int(done.stdout.strip()) if done.returncode == 0 and done.stdout.strip().isdigit() else None


def _git(git_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(git_dir), *args], capture_output=True, text=True,
                          check=False)


# -- rewriting the markdown -------------------------------------------------------------

NUMBER = re.compile(r"\d+")


def rewrite(text: str, placed: list[Placed], drift: Drift) -> str:
    """The page's file `text` with every moved item's markdown at its new place (a changed
    reference's too, where its edited lines stand now: see Placed.renumbered), and the quote of
    each changed or gone reference (`Placed.quote`). A path is written as it was while it
    names the item's file at the new head (`base_client.dart` after a move into `pkgs/`),
    else whole."""
    edits: list[tuple[int, int, str]] = []
    for p in placed:
        item = p.item
        if p.quote:  # changed or gone: its old text quoted
            quote = as_quote(p.quote)
            if item.in_table:  # else its bar would end the cell (GFM)
                quote = quote.replace("|", "\\|")
            edits.append((item.quote_at, item.quote_at, f' "{quote}"'))
        if p.state != MOVED and not p.renumbered:
            continue
        old = text[item.start_offset:item.end_offset]
        kept = p.file is None or p.file == item.file or \
            drift.named(path_written(item.written_path)) == [p.file]
        edits.append((item.start_offset, item.end_offset,
                      _rewritten(p, old, item.written_path if kept else path_writing(str(p.file)))))
        if item.highlight is not None and p.shift:
            a, b = item.highlight
            edits.append((a, b, _shifted(text[a:b], p.shift)))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _rewritten(p: Placed, old: str, path: str) -> str:
    item = p.item
    if item.kind == "hunk":
        first, sep, rest = old.partition("\n")
        rows = rest.split("\n")  # each after the marks of the blocks around it (a list, a quote)
        columns = (*item.columns, *[0] * (len(rows) - len(item.columns)))
        if m := FILE.match(first):
            header = first[:m.start("path")] + path + _shifted(first[m.end("path"):], p.shift,
                                                                only_lines=True)
        else:  # a header pasted from git diff: the path in each of its lines
            unmarked = [row[c:] for row, c in zip(rows, columns, strict=False)]
            span = git_headers([first, *unmarked])[0][1]
            header, rows[:span - 1] = _renamed(first, item.written_path, path), [
                _renamed(row, item.written_path, path) for row in rows[:span - 1]]
        rows = [row[:c] + _position_shifted(h, p.shift) if (h := POSITION.match(row[c:])) else row
                for row, c in zip(rows, columns, strict=False)]
        return header + (sep + "\n".join(rows) if sep else "")
    suffix = old[len(item.written_path):]
    if item.kind == "reference":
        numbers = iter([p.start, p.end])
        suffix = NUMBER.sub(lambda _: str(next(numbers)), suffix)
    return path + suffix


def _renamed(line: str, written: str, path: str) -> str:
    """A line of a git diff header with the file's path `written` (as a page writes it)
    now `path`: where it names the file (after `a/`, `b/`, or `---`/`+++` without them),
    not where the name stands inside other words (a file named `diff` or `a`)."""
    if written == path:
        return line
    if line == f"diff --git {path_written(written)} {path_written(written)}":  # --no-prefix
        return f"diff --git {path_written(path)} {path_written(path)}"
    named = re.compile(r"(\sa/|\sb/|^--- (?:a/)?|^\+\+\+ (?:b/)?|^rename from )"
                       + re.escape(path_written(written))
                       + r"(?=\s|$)")
    return named.sub(lambda m: m[1] + path_written(path), line)


def _position_shifted(position: re.Match[str], shift: int) -> str:
    """An '@@ -a,b +c,d @@' line with its starts moved by `shift`, what git wrote after it
    (the function's line, which may hold numbers) as it was."""
    cut = position.start("heading") if position["heading"] is not None else len(position[0])
    return _shifted(position[0][:cut], shift, hunk=True) + position[0][cut:]


def _shifted(text: str, shift: int, *, only_lines: bool = False, hunk: bool = False) -> str:
    """`text` with its line numbers moved by `shift`: every number; only L-numbers (a
    hunk's file line, whose symbol may hold digits); a hunk position's starts, not counts."""
    if only_lines:
        return re.sub(r"L(\d+)", lambda m: f"L{int(m[1]) + shift}", text)
    if hunk:
        return re.sub(r"([-+])(\d+)", lambda m: f"{m[1]}{int(m[2]) + shift}", text)
    return NUMBER.sub(lambda m: str(int(m[0]) + shift), text)
