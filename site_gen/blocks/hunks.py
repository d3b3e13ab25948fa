"""The model of a proposed change: hunks of sections of diff lines, each with its place."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..names import path_written
from ..statuses import Status
from .refs import CodeRef


@dataclass
class DiffLine:
    kind: str  # " ", "+", "-", or "…" for an elision
    text: str
    line: int
    old: int | None = None
    new: int | None = None


@dataclass
class Section:
    """Lines under one `@@ -a,b +c,d @@` position (or none, when not given)."""

    line: int
    old_start: int | None = None
    old_count: int | None = None
    new_start: int | None = None
    new_count: int | None = None
    lines: list[DiffLine] = field(default_factory=list)
    placed: bool = False  # its position was found in the file, not written with '@@'

    @property
    def old_end(self) -> int:
        """The last old-side line it shows (a positioned section only)."""
        assert self.old_start is not None and self.old_count is not None
        return self.old_start + self.old_count - 1


@dataclass
class Hunk:
    path: str
    ranges: list[tuple[int, int]]
    lines_text: str | None
    symbol: str | None
    line: int
    sections: list[Section] = field(default_factory=list)
    # Resolved at parse time: the file at the pinned commit, and each `L` range of the header.
    file_ref: CodeRef | None = None
    range_refs: list[tuple[str, CodeRef | None]] = field(default_factory=list)
    old_path: str | None = None  # the PR's own change to a file it renamed: the name at base
    renames_to: str | None = None  # a proposal's diff pasted from git that renames its file
    fits: bool = True  # False once its sections are found not to apply at the commit
    removed: bool = False  # the file removed: by the PR (a pr-diff), or by a proposal's
    # diff pasted from git (`+++ /dev/null`), every line of it taken out
    base: str | None = None  # the PR's own change: the commit its old side is read at
    # The file around it, when the code is there and the hunk stands in it: the old side's
    # lines (the new side's too, for the PR's own change) and the line lexing starts at
    # (where the outermost definition holding the first section starts), so a hunk that
    # starts inside a string or a docstring is coloured as the file is.
    old_file: list[str] | None = field(default=None, repr=False, compare=False)
    new_file: list[str] | None = field(default=None, repr=False, compare=False)
    lex_from: int = 1
    pasted: str = ""  # the first line of its header, when it was pasted from git diff

    @property
    def written(self) -> str:
        """How the page names its file, quoted for a message: its `file:` line's path, or
        the header pasted from git diff."""
        return f"'{self.pasted}'" if self.pasted else f"'file: {self.path}'"

    @property
    def shown_path(self) -> str:
        """The path as the head shows it: as written, its URL escapes read."""
        return path_written(self.path)

    @property
    def creates(self) -> bool:
        """Whether the hunk makes a new file: each of its sections is `@@ -0,0 +1,N @@`."""
        return bool(self.sections) and all(
            s.old_start == 0 and s.old_count == 0 and s.lines for s in self.sections)


@dataclass
class Proposal:
    title: str | None = None
    status: Status | None = None
    lands: str | None = None
    line: int = 0
    hunks: list[Hunk] = field(default_factory=list)
    saw_file_line: bool = False
    skipping: bool = False  # after a malformed 'file:' line, until the next one
    # None: not checked; "": applies at the pinned commit; else how many lines differ.
    applies: str | None = None
    patch: str | None = None  # the name of its .patch file beside the page, when it has one


class Files(Protocol):
    """The files a patch is written for (the page's code: its git reader)."""

    def lines(self, commit: str, path: str) -> list[str] | None: ...

    def line_ends(self, commit: str, path: str) -> tuple[str, bool]: ...


NO_NEWLINE = "\\ No newline at end of file"


def to_patch(proposal: Proposal, files: Files | None = None) -> str | None:
    """The proposal as a patch `git apply` takes (full paths, a/ and b/ prefixes, each
    file's sections in order); None unless every section has its position.

    git reads a section that ends on a changed line as reaching the end of the file; with
    the files (`files`), such a section gets the lines after it as context, and each line
    is written as the file ends its lines (CRLF; no line end after the last line, marked
    as `git diff` marks it), so that `git apply` takes it."""
    by_file: dict[str, list[Section]] = {}
    made = {h.path for h in proposal.hunks if h.creates}
    gone = {h.file_ref.path for h in proposal.hunks if h.removed and h.file_ref}
    moved = {h.file_ref.path: h.renames_to for h in proposal.hunks if h.renames_to and h.file_ref}
    for hunk in proposal.hunks:
        sections = [s for s in hunk.sections if s.lines]
        if (hunk.file_ref is None and not hunk.creates) or any(
                s.old_start is None or s.new_start is None for s in sections):
            return None
        by_file.setdefault(hunk.file_ref.path if hunk.file_ref else hunk.path, []).extend(sections)
    commit = next((h.file_ref.commit for h in proposal.hunks if h.file_ref), "")
    out = []
    for path, sections in by_file.items():
        lines = files.lines(commit, path) if files and path not in made else None
        end, last_ended = files.line_ends(commit, path) if files and lines else ("\n", True)
        tab = "\t" if " " in path else ""  # as git ends a name with a space, for patch(1)
        to = moved.get(path, path)
        out += [f"diff --git a/{path} b/{to}\n"] + (
            ["new file mode 100644\n", "--- /dev/null\n"] if path in made
            else ["deleted file mode 100644\n", f"--- a/{path}{tab}\n"] if path in gone
            else [f"rename from {path}\n", f"rename to {to}\n", f"--- a/{path}{tab}\n"]
            if to != path else [f"--- a/{path}{tab}\n"])
        out.append("+++ /dev/null\n" if path in gone else f"+++ b/{to}{tab}\n")
        for section in sorted(sections, key=lambda s: s.old_start or 0):
            after = _context_after(section, lines)
            out.append(f"@@ -{section.old_start},{(section.old_count or 0) + len(after)} "
                       f"+{section.new_start},{(section.new_count or 0) + len(after)} @@\n")
            body = [dl.kind + dl.text for dl in section.lines] + [" " + line for line in after]
            reaches_end = lines is not None and \
                section.old_end + len(after) == len(lines)
            out += _ended(body, end, not last_ended and reaches_end)
    return "".join(out)


def _ended(body: list[str], end: str, open_end: bool) -> list[str]:
    """The diff lines `body`, each with the line end `end`; with `open_end` (the section
    reaches a last line that has no line end, which the change keeps), the last line of
    each side has none, marked as `git diff` marks it."""
    out = [line + end for line in body]
    if not open_end:
        return out
    last_old = max((k for k, line in enumerate(body) if line[:1] in " -"), default=None)
    last_new = max((k for k, line in enumerate(body) if line[:1] in " +"), default=None)
    for k in sorted({k for k in (last_old, last_new) if k is not None}, reverse=True):
        out[k] = body[k] + "\n"
        out.insert(k + 1, NO_NEWLINE + "\n")
    return out


def _context_after(section: Section, lines: list[str] | None) -> list[str]:
    """Up to three lines after a section that ends on a changed line (none otherwise)."""
    if lines is None or not section.lines or section.lines[-1].kind == " ":
        return []
    return lines[section.old_end:section.old_end + 3]


# How far from where a hunk puts them its added lines may stand, when other lines came
# with them (a comment over them, a check the PR put before them), and how many characters
# they must hold to be told apart from other code (`}` or `return 0;` stand anywhere).
ADDED_SLACK = 30
ADDED_TELLS = 12
Row = tuple[str, str]  # a line of a hunk's section: its mark (' ', '-' or '+') and text
# Which of some lines of a file's language, read one after the other, are comments alone
Aside = Callable[[Sequence[str]], list[bool]] | None


def trailing_blanks(rows: Sequence[Row], counts: tuple[int, int] | None = None) -> int:
    """How many of a section's last `rows` are blank context that is no line of the hunk:
    the blank line before the next 'file:' line or the fence. A blank line of the file is
    context too (git writes it ' ', an editor may strip it to ''): where the section's
    '@@' gives its `counts` (old, new lines), the blank lines they count stay."""
    blank = 0
    while blank < len(rows) and rows[-1 - blank][0] == " " and not rows[-1 - blank][1].strip():
        blank += 1
    if counts is None:
        return blank
    old = sum(1 for mark, _ in rows if mark in " -")
    new = sum(1 for mark, _ in rows if mark in " +")
    return max(0, min(blank, old - counts[0], new - counts[1]))


def made_at(lines: Sequence[str], rows: Sequence[Row], near: int, reach: int,
            aside: Aside = None) -> tuple[int, int] | None:
    """Where the file `lines` holds what a hunk's section proposes (its `rows`), around
    line `near`, as (first, last); None when it does not. Its whole new side within
    `reach` lines; else, as a PR takes a proposal with lines of its own around it (a
    comment over it, a check before it, a line between two of its changes) and in its own
    words where they are no code (its comments), each run of lines it adds, one after the
    other (blank lines and, in the page's lines and the file's alike, those `aside` says are
    comments aside), found once, in their order, within `reach` + ADDED_SLACK lines, beside
    the line of the hunk next to it (before or after; a hunk with no context has none),
    together holding ADDED_TELLS characters; none of the lines it takes out still by them
    (see _still_by: a `return True` of its context, or a line it moves, is that line), and
    never a section that changes only trailing whitespace or adds back what it takes out."""
    new = [text for mark, text in rows if mark in " +"]
    if not lines or not any(line.strip() for line in new):
        return None
    for start in sorted(range(max(1, near - reach), near + reach + 1), key=lambda n: abs(n - near)):
        if list(lines[start - 1:start - 1 + len(new)]) == new:
            return start, start + len(new) - 1
    return _added_at(lines, rows, near, reach, aside)


def _added_at(lines: Sequence[str], rows: Sequence[Row], near: int, reach: int,
              aside: Aside = None) -> tuple[int, int] | None:
    """Where `lines` hold the runs of lines a hunk's section adds, as made_at tells them:
    its comments as they are, else (`aside`), when it adds comments, in words of the PR's
    own."""
    if (made := _runs_at(lines, rows, near, reach)) or aside is None or \
            not any(aside([text for mark, text in rows if mark == "+"])):
        return made  # (no comment of its own: the file's are not read as comments either)
    return _runs_at(lines, rows, near, reach, aside)


def _runs_at(lines: Sequence[str], rows: Sequence[Row], near: int, reach: int,
             aside: Aside = None) -> tuple[int, int] | None:
    """Where `lines` hold the runs of lines a hunk's section adds, each line of the page's
    and the file's that `aside` says is a comment alone left out, as blank lines are."""
    runs = _added_runs(_weighing(rows, aside))
    if sum(len(line.strip()) for told, _, _ in runs for line in told) < ADDED_TELLS:
        return None
    far = reach + ADDED_SLACK  # the lines read: those they may stand on, and a neighbour's
    low = max(1, near - far - 1)
    high = near + far + sum(mark == "+" for mark, _ in rows) + 1
    window = lines[low - 1:high]
    comments = aside(window) if aside is not None else [False] * len(window)
    written = [(n, line.rstrip()) for n, line, comment in zip(
        range(low, low + len(window)), window, comments, strict=True)
        if line.strip() and not comment]
    spans: list[tuple[int, int]] = []  # where each run stands, as indices of `written`
    at = 0  # the first of `written` the next run may stand on
    for told, before, after in runs:
        found = [i for i in range(at, len(written) - len(told) + 1)
                 if abs(written[i][0] - near) <= far
                 and [line for _, line in written[i:i + len(told)]] == told
                 and ((before is not None and i > 0 and written[i - 1][1] == before)
                      or (after is not None and i + len(told) < len(written)
                          and written[i + len(told)][1] == after)
                      or (before is None and after is None))]  # a hunk without context
        if len(found) != 1:
            return None
        at = found[0] + len(told)
        spans.append((found[0], at))
    if _untold(rows) or _still_by(rows, written, spans):
        return None
    return written[spans[0][0]][0], written[spans[-1][1] - 1][0]


def _untold(rows: Sequence[Row]) -> bool:
    """Whether a section cannot be told made at all: it changes a line only at its end
    (trailing whitespace, the same text either way once stripped), or adds back just what
    it takes out (as the page holds it, a change of line ends: no change)."""
    ends: dict[str, set[Row]] = {}  # the lines it takes out and adds, by their text
    for mark, text in rows:
        if mark in "+-":
            ends.setdefault(text.rstrip(), set()).add((mark, text))
    return any({m for m, _ in both} == {"+", "-"} and len({t for _, t in both}) > 1
               for both in ends.values()) or \
        Counter(t for m, t in rows if m == "-") == Counter(t for m, t in rows if m == "+")


def _still_by(rows: Sequence[Row], written: list[tuple[int, str]],
              spans: list[tuple[int, int]]) -> bool:
    """Whether a line the section takes out still stands by its runs found at `spans` of
    `written`: among them, or as many lines (blank ones aside) before or after as it takes
    out, more often than its context and the lines it adds hold it (a line it moves)."""
    removed = Counter(text.rstrip() for mark, text in rows if mark == "-" and text.strip())
    kept = Counter(text.rstrip() for mark, text in rows if mark in " +" and text.rstrip() in removed)
    reach = sum(removed.values())
    by = Counter(line for _, line in written[max(0, spans[0][0] - reach):spans[-1][1] + reach])
    return any(by[line] > kept[line] for line in removed)


def _weighing(rows: Sequence[Row], aside: Aside) -> list[Row]:
    """`rows` but for those `aside` says are comments alone, each side read as a whole (its
    new side: context and added lines; its old side's removed lines)."""
    if aside is None:
        return list(rows)
    new = [k for k, (mark, _) in enumerate(rows) if mark in " +"]
    old = [k for k, (mark, _) in enumerate(rows) if mark == "-"]
    comment = dict(zip(new, aside([rows[k][1] for k in new]), strict=True))
    comment |= dict(zip(old, aside([rows[k][1] for k in old]), strict=True))
    return [row for k, row in enumerate(rows) if not comment[k]]


def _added_runs(rows: Sequence[Row]) -> list[tuple[list[str], str | None, str | None]]:
    """The runs of lines a section adds, blank lines aside, each with the lines of its new
    side just before and after it (None at an end)."""
    kept = [(mark, text.rstrip()) for mark, text in rows if mark in " +" and text.strip()]
    starts = [k for k, (mark, _) in enumerate(kept) if mark == "+" and (k == 0 or kept[k - 1][0] != "+")]
    runs = []
    for start in starts:
        end = next((k for k in range(start, len(kept)) if kept[k][0] != "+"), len(kept))
        runs.append(([text for _, text in kept[start:end]], kept[start - 1][1] if start else None,
                     kept[end][1] if end < len(kept) else None))
    return runs


def made_beside(lines: Sequence[str], rows: Sequence[Row], first: int, last: int,
                aside: Aside = None) -> tuple[int, int] | None:
    """Where the lines a hunk adds already stand in `lines`, touching its old side, which
    still stands at `first`-`last` (its context is generic, a `}` or a blank line, and the
    PR took the change right there: applied again, the hunk would add them twice), as
    made_at tells them apart (its new side whole is no sign here: of a hunk that only
    takes lines out, it is its context); None when they do not."""
    made = _added_at(lines, rows, first, last - first + sum(mark in " +" for mark, _ in rows),
                     aside)
    return made if made is not None and made[1] >= first - 2 and made[0] <= last + 2 else None
