"""Proposed diffs: hunks headed by file, lines and symbol, highlighted as their language.

    ```proposal
    title: The fix
    status: proposed
    lands: RL only. Nothing below is implemented.

    file: utils/checkpoint.py L489 · begin_finalization._finalize
    @@ -488,2 +488,2 @@
         try:
    -        with old():
    +        with new():
    ...
    ```
"""

from __future__ import annotations

import dataclasses
import difflib
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jinja2
from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup, escape

from ..code_index import defines_names, index_of, language_of
from ..context import PageContext, context_of
from ..definitions import (
    Definition,
    assigned_at,
    chosen,
    clauses,
    enclosing,
    holds,
    lines_text,
    named_around,
    signature,
)
from ..highlight import Lexing, Tokens, comment_lines, lexing_for, line_html, shared_indent
from ..names import REPO_PATH, path_writing, path_written
from ..statuses import find_status
from . import block_renderer, fence_parser, render_inline
from .hunks import DiffLine, Hunk, Proposal, Section, made_at, to_patch, trailing_blanks
from .placement import check_applies, check_positions, made_in, number_lines, place, shown_as_made
from .refs import CodeRef, code_definitions, parse_note, resolve

HEADER = re.compile(r"^(?P<key>title|status|lands)\s*:\s*(?P<text>.*)$")
FILE = re.compile(
    r"^file\s*:\s*(?P<path>[^\s·]+)"
    r"(?:\s+(?P<lines>L\d+(?:-L\d+)?(?:\s*(?:and|,)\s*L\d+(?:-L\d+)?)*))?"
    r"(?:\s*·\s*(?P<symbol>.*\S))?\s*$"
)
# A section's position; after it, what `git diff` writes there (the line of the function
# around it, its `heading`) may stand, left out as `git apply` leaves it.
POSITION = re.compile(r"^@@ -(?P<a>\d+)(?:,(?P<b>\d+))? \+(?P<c>\d+)(?:,(?P<d>\d+))? @@"
                      r"(?:[ \t]+(?P<heading>.*?))?\s*$")
ELISION = re.compile(r"^\s?(\.\.\.|…|⋯)\s*$")
RANGE = re.compile(r"L(\d+)(?:-L(\d+))?")
# A file's header as `git diff` writes it, pasted in place of a `file:` line: `diff --git
# a/P b/P`, what git says of the file (its index, modes, a rename), then `--- a/P` and
# `+++ b/P` (`/dev/null` for a file made or removed); or that last pair alone, before an
# `@@` line. A name with a space ends in a tab, as git writes it; `diff -u` writes a date
# after the tab, and `git diff --no-prefix` (or `diff.noprefix`) names without `a/`, `b/`.
GIT_DIFF = re.compile(r"^diff --git (?P<names>.+?)\s*$")
GIT_SAYS = re.compile(r"^(?:index |old mode |new mode |deleted file mode |new file mode |"
                      r"similarity index |dissimilarity index |rename from |rename to |"
                      r"copy from |copy to |Binary files )")
OLD_FILE = re.compile(r"^--- (?:/dev/null|(?:a/)?(?P<path>[^\t]+?))(?:\t.*)?\s*$")
NEW_FILE = re.compile(r"^\+\+\+ (?:/dev/null|(?:b/)?(?P<path>[^\t]+?))(?:\t.*)?\s*$")


# What `git show` (and `git log -p`) and `git format-patch` write around a commit's diff,
# pasted with it: the commit's header and message, from its `commit SHA` line (or the
# mail's `From SHA Mon Sep 17 ...`) to its first `diff --git` line (a mail's `---` and
# diffstat too), and the mail's signature at its end (`-- ` and git's version). Left out,
# as `git apply` leaves out what is not a patch.
COMMIT = re.compile(r"^(?:commit [0-9a-f]{7,64}(?:\s.*)?|From [0-9a-f]{40,64} .*)$")
SIGNATURE = ("-- ", re.compile(r"^\d+(?:\.\w+)+\s*$"))


def diff_git_path(line: str) -> str | None:
    """The path a `diff --git` line names (the old side's): `diff --git a/P b/P`, or with
    `--no-prefix` `diff --git P P` (the two names alike; a rename's names differ, and its
    `---` line or `rename from` says the path)."""
    m = GIT_DIFF.match(line)
    if m is None:
        return None
    names = m["names"]
    half = len(names) // 2
    if len(names) % 2 and names[half] == " " and names[:half] == names[half + 1:]:
        return names[:half]  # git diff --no-prefix: a space in the name is no question
    prefixed = re.match(r"a/(.+?) b/", names)
    return prefixed[1] if prefixed else names.split(" ", 1)[0]


def commit_text(lines: list[str]) -> dict[int, int]:
    """Where `lines` (a proposal's) hold what `git show` or `git format-patch` writes around
    a commit's diff (COMMIT, SIGNATURE): at each such run's first line, the line after it
    (len(lines) for a commit's header that no `diff --git` line follows)."""
    found: dict[int, int] = {}
    i = 0
    while i < len(lines):
        start = i
        if not lines[i].startswith(("commit ", "From ", "-- ")):  # (most lines)
            i += 1
        elif COMMIT.match(lines[i]):
            i += 1
            while i < len(lines) and not lines[i].startswith("diff --git "):
                i += 1
            found[start] = i
        elif lines[i] == SIGNATURE[0] and i + 1 < len(lines) and SIGNATURE[1].match(lines[i + 1]):
            i += 2
            while i < len(lines) and not lines[i].strip():
                i += 1
            if i == len(lines) or COMMIT.match(lines[i]):
                found[start] = i
        else:
            i += 1
    return found


def git_headers(lines: list[str]) -> dict[int, tuple[str, int, bool]]:
    """Where `lines` (a proposal's) hold a file's header as `git diff` writes it: at each
    header's first line, the path of the file it names at the pinned commit (the old side;
    the new one for a file made), how many lines the header spans, and whether it removes
    the file (`+++ /dev/null`). A removed line that reads `--- a/x` (a Lua or SQL comment)
    is one, not a header, unless `+++ b/...` and an `@@` line follow it, or it follows
    `diff --git`."""
    found: dict[int, tuple[str, int, bool]] = {}
    i = 0
    while i < len(lines):
        if not lines[i].startswith(("diff --git ", "--- ")):  # (most lines: no match to try)
            i += 1
            continue
        start, git = i, diff_git_path(lines[i])
        if git is not None:
            i += 1
            while i < len(lines) and GIT_SAYS.match(lines[i]):
                i += 1
        old = OLD_FILE.match(lines[i]) if i + 1 < len(lines) else None
        new = NEW_FILE.match(lines[i + 1]) if old else None
        if old and new and (git is not None or i + 2 < len(lines) and POSITION.match(lines[i + 2])):
            found[start] = (old["path"] or new["path"] or "", i + 2 - start,
                            bool(old["path"]) and not new["path"])
            i += 2
        elif git is not None:
            found[start] = (git, i - start, False)
        else:
            i += 1
    return found


def _subject(text: list[str]) -> str | None:
    """The subject of a commit as git show writes it (its message's first line, indented
    four spaces after the header) or git format-patch does (`Subject: [PATCH] ...`)."""
    if not text or not COMMIT.match(text[0]):
        return None
    for k, line in enumerate(text[1:], 1):
        if line.startswith("Subject: "):  # a long one folded on the lines after, as mail is
            folded = itertools.takewhile(lambda more: more[:1] in (" ", "\t") and more.strip(),
                                         text[k + 1:])
            subject = " ".join([line[len("Subject: "):], *(more.strip() for more in folded)])
            return re.sub(r"^(?:\[[^\]]*\]\s*)+", "", subject).strip() or None
        if line.startswith("    ") and line.strip():
            return line.strip()
    return None


def _no_diff(ctx: PageContext, proposal: Proposal, rest: list[str], line: int) -> None:
    """A commit pasted as git show or git format-patch write it (`rest`, from its first
    line to the block's end) that no file's diff follows: one error."""
    combined = any(text.startswith("diff --cc ") for text in rest)
    ctx.error(f"'{rest[0].strip()}' starts a commit as git show or git format-patch writes it, "
              "but no 'diff --git' line follows; expected the commit's diff after its message"
              + (" (a merge's combined diff, 'diff --cc', is no patch: paste 'git diff' of the "
                 "merge against one of its parents)" if combined else ""), line)
    proposal.skipping = True  # (the one error: not also 'needs a file: line')


def _pasted(ctx: PageContext, proposal: Proposal, header: list[str],
            found: tuple[str, int, bool], line: int) -> str:
    """A hunk begins at a file's header pasted from git diff (`header`, as git_headers
    `found` it): the file it names, whether it removes it, the name it renames it to; what
    the header says of a change that shows no lines (see _header_only)."""
    path, _, removes = found
    _hunk_line(ctx, proposal, path_writing(path), None, None, line)
    hunk = proposal.hunks[-1]
    hunk.pasted, hunk.removed = header[0].strip(), removes
    hunk.renames_to = git_said(header, "rename to ")
    return _header_only(header)


def git_said(header: list[str], what: str) -> str | None:
    """The rest of the line of a pasted git header that starts with `what`, if one does."""
    return next((line[len(what):].strip() for line in header if line.startswith(what)), None)


def _header_only(header: list[str]) -> str:
    """What a file's header pasted from git diff says of a change with no lines shown: a
    rename, an empty file made or removed, a mode changed, a binary file; '' for none."""
    if (old := git_said(header, "rename from ")) and (new := git_said(header, "rename to ")):
        return f"renames {old} to {new}"
    return next((does for what, does in (("Binary files ", "changes a binary file"),
                                         ("new file mode ", "makes an empty file"),
                                         ("deleted file mode ", "removes an empty file"),
                                         ("new mode ", "changes the file's mode"))
                 if git_said(header, what) is not None), "")


def parse_proposal(ctx: PageContext, lines: list[str], first: int) -> Proposal | None:
    """Parse a proposal block, resolve its files and check that it applies at the pinned
    commit; every problem goes to `ctx` with its line."""
    check = ctx.problems.checkpoint()
    proposal = Proposal(line=first - 1)
    headers, apart, header_end = git_headers(lines), commit_text(lines), 0
    said: dict[int, str] = {}  # what a pasted header says of a file whose lines it leaves be
    for i, raw in enumerate(lines):
        if i in apart:  # pasted from git show or git format-patch: what is not the patch
            header_end = apart[i]
            if header_end == len(lines) and COMMIT.match(raw):
                _no_diff(ctx, proposal, lines[i:], first + i)
        elif i in headers:  # pasted from git diff: its header names the file
            header_end, k = i + headers[i][1], len(proposal.hunks)  # (the hunk it begins)
            said[k] = _pasted(ctx, proposal, lines[i:header_end], headers[i], first + i)
        elif i >= header_end:
            _line(ctx, proposal, raw, first + i)
    for k, hunk in enumerate(proposal.hunks):
        for section in hunk.sections:
            _trim(section)
            _number(ctx, section)
        if not any(s.lines for s in hunk.sections) and said.get(k):
            ctx.error(f"'{hunk.pasted}' {said[k]} and changes no line; a proposal shows the lines "
                      "it changes: leave this file's diff out of the block (and say it in the "
                      "text)", hunk.line)
        elif not any(s.lines for s in hunk.sections):
            ctx.error(f"hunk for '{hunk.path}' has no diff lines", hunk.line)
    if proposal.title is None and apart:  # a commit pasted without a title: its subject
        proposal.title = next(filter(None, (_subject(lines[i:end]) for i, end in apart.items())),
                              None)
    if not proposal.saw_file_line and not proposal.skipping:  # (skipping: a hunk told of)
        ctx.error("a proposal needs at least one 'file: PATH Lstart-Lend · symbol' line "
                  "followed by diff lines", first - 1)
    if check.failed:
        return None
    _resolve(ctx, proposal)
    return proposal


def _resolve(ctx: PageContext, proposal: Proposal) -> None:
    for hunk in proposal.hunks:
        if hunk.creates:
            _new_file(ctx, hunk)
            continue
        if hunk.removed and _removed_already(ctx, hunk) or \
                hunk.renames_to and _renamed_already(ctx, hunk, hunk.renames_to):
            continue
        hunk.file_ref = resolve(ctx, hunk.path, hunk.line, hunk.written)
        if hunk.renames_to and hunk.file_ref is not None:
            _renamed_to(ctx, hunk)
        if hunk.file_ref is None:  # said once, for the file: its ranges are not looked up
            continue
        hunk.range_refs = [(name, resolve(ctx, f"{hunk.path}:{a}-{b}", hunk.line,
                                          f"'{hunk.path} {name}'"))
                           for a, b in hunk.ranges
                           for name in [f"L{a}" if a == b else f"L{a}-L{b}"]]
    place(ctx, proposal)
    check_positions(ctx, proposal)
    proposal.applies = check_applies(ctx, proposal)
    for hunk in proposal.hunks:
        if hunk.fits:  # (where it does not apply, its lines are not those)
            _check_symbol(ctx, hunk)
    if proposal.applies in ("", None):
        for hunk in proposal.hunks:
            _shown_lines(ctx, hunk)
            if proposal.applies == "":
                _named_by_code(ctx, hunk)
    for hunk in proposal.hunks:
        if proposal.applies == "" and hunk.removed:
            _removes_all(ctx, hunk)
    if proposal.applies == "" and ctx.source is not None:
        for hunk in proposal.hunks:
            if hunk.file_ref is not None:
                with_context(ctx, hunk, ctx.source.lines(hunk.file_ref.commit, hunk.file_ref.path))
    patch = to_patch(proposal, ctx.source)
    if patch is not None:
        proposal.patch = f"proposal-{len(ctx.files) + 1}.patch"
        ctx.files[proposal.patch] = patch


def _shown_lines(ctx: PageContext, hunk: Hunk) -> None:
    """A hunk that names no lines (pasted from git diff, or a `file:` line without `L`):
    its header links the lines each section shows, as a diff's `@@` lines say them."""
    if hunk.file_ref is None or hunk.ranges:
        return
    for section in hunk.sections:
        if section.lines and section.old_start and section.old_count:
            a, b = section.old_start, section.old_end
            hunk.range_refs.append((lines_text(a, b), resolve(ctx, f"{hunk.path}:{a}-{b}",
                                                              hunk.line, hunk.written)))


def _renamed_to(ctx: PageContext, hunk: Hunk) -> None:
    """A hunk pasted from git diff that renames its file: the name it gives must be free at
    the commit (`git apply` refuses a rename onto a file that is there)."""
    ref, to = hunk.file_ref, hunk.renames_to
    assert ref is not None and to is not None
    if ctx.source is not None and ctx.source.lines(ref.commit, to) is not None:
        ctx.error(f"'{hunk.pasted}' renames {ref.path} to {to}, which commit {ref.commit[:7]} "
                  "has already; expected a name no file has", hunk.line)


def _pinned_head(ctx: PageContext) -> str | None:
    """The commit the page's PR is pinned to, when its code is here."""
    pr = ctx.pr
    return ctx.source.commit(pr.head) if ctx.source is not None and pr is not None else None


def _removed_already(ctx: PageContext, hunk: Hunk) -> bool:
    """A hunk that removes a file pr.yml lists, which the pinned commit does not have: the
    PR removed it (one error, not 'unknown file')."""
    path, head = path_written(hunk.path).strip("/"), _pinned_head(ctx)
    if ctx.pr is None or head is None or path not in ctx.pr.files or \
            ctx.source is None or ctx.source.lines(head, path) is not None:
        return False
    ctx.error(f"the proposed change is made at {head[:7]}: it has no {path}, which "
              f"'{hunk.pasted}' removes; the page proposes what the PR now does: rewrite it, or "
              "drop the proposal", hunk.line)
    return True


def _renamed_already(ctx: PageContext, hunk: Hunk, to: str) -> bool:
    """A hunk that renames its file to `to`, where the pinned commit has `to` and not the
    file: the PR renamed it (one error, not 'unknown file'), and made the change too when
    `to` holds what each section proposes (see made_in)."""
    path, head = path_written(hunk.path).strip("/"), _pinned_head(ctx)
    if head is None or ctx.source is None or ctx.source.lines(head, path) is not None or \
            ctx.source.lines(head, to) is None:
        return False
    hunk.file_ref = resolve(ctx, to, hunk.line, hunk.written)
    changing = [s for s in hunk.sections if any(dl.kind in "+-" for dl in s.lines)]
    made = [m for s in changing if hunk.file_ref and (m := made_in(ctx, hunk, s))]
    hunk.file_ref = None  # (its lines are not checked: the rename is the error)
    if changing and len(made) == len(changing):
        ctx.error(f"the proposed change is made at {head[:7]}: it has {to}, to which "
                  f"'{hunk.pasted}' renames {path}, with the lines it proposes ({', '.join(made)}), "
                  f"and no {path}; the page proposes what the PR now does: rewrite it, or drop "
                  f"the proposal{shown_as_made(ctx, to, made[0])}", hunk.line)
    else:
        ctx.error(f"'{hunk.pasted}' renames {path} to {to}, which commit {head[:7]} has made: "
                  f"it has {to} and no {path}; expected the hunk as a change of {to} (its "
                  f"header 'diff --git a/{to} b/{to}', without the rename lines), or the proposal "
                  "dropped", hunk.line)
    return True


def _removes_all(ctx: PageContext, hunk: Hunk) -> None:
    """A hunk pasted from git diff that removes its file (`+++ /dev/null`) takes out every
    line of it, as `git apply` asks ('deleted file still has contents')."""
    ref = hunk.file_ref
    lines = ctx.source.lines(ref.commit, ref.path) if ctx.source and ref else None
    taken = sum(1 for s in hunk.sections for dl in s.lines if dl.kind == "-")
    if ref is None or lines is None or taken == len(lines):
        return
    ctx.error(f"'{hunk.pasted}' removes {ref.path}, which has {len(lines)} lines at "
              f"{ref.commit[:7]}, but takes out {taken} of them; expected every line taken "
              "out (or the file kept: '+++ b/...')", hunk.line)


def _named_by_code(ctx: PageContext, hunk: Hunk) -> None:
    """A hunk whose header names no definition (pasted from git diff, or a `file:` line
    without `· symbol`), applying at the commit: named by the definition there that holds
    the lines it changes, as a pr-diff is (and as a code host's diff heads a section with
    the function around it, here found by the file's grammar, not by a guess at its lines)."""
    ref = hunk.file_ref
    if hunk.symbol or ref is None or ctx.source is None:
        return
    changed: list[int] = []
    for section in hunk.sections:
        at = section.old_start  # a line added at a section's top: after the one above
        for dl in section.lines:
            at = dl.old or at
            if dl.kind in "-+" and at:
                changed.append(at)
    hunk.symbol = defined_around(ctx, ref, min(changed), max(changed)) if changed else None


def defined_around(ctx: PageContext, ref: CodeRef, start: int, end: int) -> str | None:
    """The name of the innermost definition that holds lines `start`-`end` of `ref`'s file at
    its commit, if one does (a hunk's, a pr-diff's name on the page), as a reference writes
    it: Elixir's with its arity (`read_part_headers/7`, not its `/2`), an overload by its
    parameters where they tell it apart (`Gson.toJson(Object,Type)`); where its name finds
    others too, the innermost around it that its name finds alone (see named_around)."""
    assert ctx.source is not None
    index = index_of(ctx.source, ref.commit, ref.path, ctx.code_store, ctx.config.languages)
    holder = enclosing(index.definitions, start, end) if index else None
    if index is None or holder is None:
        return None
    if holder.parts:  # overloads side by side: the one that holds the lines
        return _as_cited(ctx, ref, holder, start, end)[0]
    lines = ctx.source.lines(ref.commit, ref.path) or []
    return named_around(index.definitions, start, end, lines,
                        language_of(ref.path, ctx.config.languages, lines)) or holder.shown


def _as_cited(ctx: PageContext, ref: CodeRef, holder: Definition, start: int,
              end: int) -> tuple[str, str]:
    """`holder`'s name and lines as a reference cites them: of overloads side by side, the
    one that holds lines `start`-`end`, by its parameters where they tell it apart
    (`Client.send(int,long)`, L8-L11)."""
    assert ctx.source is not None
    one = enclosing(clauses([holder]), start, end)
    if one is None or not holder.parts:
        return holder.shown, holder.lines
    lines = ctx.source.lines(ref.commit, ref.path) or []
    told = signature(one, lines, language_of(ref.path, ctx.config.languages, lines), [holder])
    return (told.strip("`"), one.lines) if told else (holder.shown, holder.lines)


def _new_file(ctx: PageContext, hunk: Hunk) -> None:
    """A hunk that makes a file (its sections `@@ -0,0 +1,N @@`): named by its whole path,
    which the pinned commit must not have."""
    path = path_written(hunk.path).strip("/")
    if not REPO_PATH.match(path) or hunk.ranges:
        ctx.error(f"{hunk.written} makes a new file: expected its whole path inside the "
                  "repository, and no 'L' lines (it has none yet)", hunk.line)
        return
    hunk.path, written = path, hunk.written
    head = _pinned_head(ctx)
    lines = ctx.source.lines(head, path) if ctx.source is not None and head else None
    if lines is None or head is None:
        return
    rows = [(dl.kind, dl.text) for section in hunk.sections for dl in section.lines]
    made = made_at(lines, rows, 1, len(lines),
                   comment_lines(path, ctx.config.languages, ctx.code_store, lines))
    if made is not None:  # the PR made the file as proposed
        ctx.error(f"{written} makes a new file, and commit {head[:7]} has it, with the lines it "
                  f"proposes ({lines_text(*made)}): the proposed change is made; the page "
                  f"proposes what the PR now does: rewrite it, or drop the proposal"
                  f"{shown_as_made(ctx, path, lines_text(*made))}", hunk.line)
    else:
        ctx.error(f"{written} makes a new file (@@ -0,0), but commit {head[:7]} has it; "
                  "expected a new path, or the file's lines with their positions", hunk.line)


LEX_BACK = 200  # lines lexed before a hunk that no definition holds


def with_context(ctx: PageContext, hunk: Hunk, old: list[str] | None,
                 new: list[str] | None = None, old_commit: str | None = None) -> None:
    """Keep the file around `hunk` for highlighting (see Hunk.old_file), lexing from the
    start of the outermost definition that holds its first line at `old_commit` (by
    default the commit the hunk is pinned to)."""
    firsts = [s.old_start for s in hunk.sections if s.lines and s.old_start is not None]
    if old is None or hunk.file_ref is None or not firsts:
        return
    first = min(firsts)
    hunk.old_file, hunk.new_file = old, new
    assert ctx.source is not None
    index = index_of(ctx.source, old_commit or hunk.file_ref.commit,
                     (old_commit and hunk.old_path) or hunk.file_ref.path, ctx.code_store,
                     ctx.config.languages)
    holding = [d.start for d in (index.definitions if index else ()) if d.start <= first <= d.end]
    hunk.lex_from = min(holding) if holding else max(1, first - LEX_BACK)


def _check_symbol(ctx: PageContext, hunk: Hunk) -> None:
    """The symbol of a hunk's header names a definition (any tail of its dotted name) that
    holds lines the hunk names or shows at the commit; else an error naming the definition
    that holds the first of them."""
    ref, symbol = hunk.file_ref, (hunk.symbol or "").strip()
    spans = list(hunk.ranges) + [(s.old_start, s.old_start + max(s.old_count or 1, 1) - 1)
                                 for s in hunk.sections if s.old_start is not None]
    if ctx.source is None or ref is None or not symbol or "⟨" in symbol or not spans or \
            not defines_names(language_of(ref.path, ctx.config.languages)):
        return  # nothing to check it against: no code, no symbol, a ⟨…⟩ of new's, no names
    what = f"'file: {hunk.path} {hunk.lines_text or ''}'".replace(" '", "'")
    index = code_definitions(ctx, ref.commit, ref.path, what, hunk.line)
    if index is None:
        return
    defs = index.definitions
    if holds(defs, symbol, spans, ctx.source.lines(ref.commit, ref.path)):
        return  # it holds lines the hunk names or shows
    start, end = spans[0]
    inner = enclosing(defs, start, end)
    lines = lines_text(start, end)
    value = None if inner or chosen(defs, symbol) else \
        assigned_at(ctx.source.lines(ref.commit, ref.path) or (), symbol)
    name, held = _as_cited(ctx, ref, inner, start, end) if inner else ("", "")
    actual = (f"the definition that holds them is {name} ({held})" if inner
              else f"no definition holds them ('{symbol}' is a value, given at L{value[0]}: a "
                   "hunk's symbol names the function, class or type that holds its lines; "
                   f"leave '· {symbol}' out)" if value else "no definition holds them")
    ctx.error(f"'· {symbol}' in {what} is not a definition that holds {lines} at commit "
              f"{ref.commit[:7]}; {actual}{parse_note(index)}", hunk.line)


def _line(ctx: PageContext, proposal: Proposal, raw: str, line: int) -> None:
    if raw.startswith("file") and re.match(r"^file\s*:", raw):
        proposal.saw_file_line = True
        m = FILE.match(raw)
        if not m:
            ctx.error(f"malformed hunk header '{raw}'; expected 'file: PATH Lstart-Lend · symbol'",
                      line)
        if m and not _too_large(ctx, m["lines"] or "", line):
            _hunk_line(ctx, proposal, m["path"], m["lines"], m["symbol"], line)
        else:
            proposal.skipping = True
        return
    if proposal.skipping:
        return
    if not proposal.hunks and (POSITION.match(raw) or raw[:1] in ("+", "-") or (
            raw[:1] == " " and raw.strip() and not HEADER.match(raw.strip()))):
        ctx.error(f"'{raw.strip()}' is a diff line before any 'file:' line; expected a "
                  "'file: PATH Lstart-Lend · symbol' line above its hunk", line)
        proposal.skipping = True  # the rest of this hunk is not told again, line by line
        return
    if not proposal.hunks:
        _header(ctx, proposal, raw, line)
        return
    hunk = proposal.hunks[-1]
    position = POSITION.match(raw)
    if position and _too_large(ctx, raw, line):
        return
    if position:
        a, c = int(position["a"]), int(position["c"])
        section = Section(line, a, int(position["b"] or 1), c, int(position["d"] or 1))
        for side, start, count in (("-", a, section.old_count), ("+", c, section.new_count)):
            if start == 0 and count:
                ctx.error(f"'{raw.strip()}' starts the {side} side at line 0; lines count from 1 "
                          f"('{side}0,0' is for a side with no lines)", line)
        if hunk.sections[-1].lines or hunk.sections[-1].old_start is not None:
            hunk.sections.append(section)
        else:
            hunk.sections[-1] = section
    elif ELISION.match(raw):
        hunk.sections[-1].lines.append(DiffLine("…", "", line))
    elif raw.startswith("\\ "):  # `\ No newline at end of file`, as git diff writes it:
        return  # the patch says it where the file has no last line end (see to_patch)
    elif raw == "" or raw[0] in " +-":
        hunk.sections[-1].lines.append(DiffLine(raw[:1] or " ", raw[1:], line))
    else:
        ctx.error(f"'{raw}' is not a diff line; expected a line starting with ' ', '+' or '-', "
                  "'...' for lines left out, '@@ -a,b +c,d @@', or git's '\\ No newline at end "
                  "of file'", line)


def _hunk_line(ctx: PageContext, proposal: Proposal, path: str, lines: str | None,
               symbol: str | None, line: int) -> None:
    """A hunk begins: at its `file:` line, or a header pasted from `git diff`."""
    proposal.saw_file_line, proposal.skipping = True, False
    ranges = [(int(a), int(b or a)) for a, b in RANGE.findall(lines or "")]
    proposal.hunks.append(Hunk(path, ranges, lines, symbol, line, [Section(line)]))


def _too_large(ctx: PageContext, text: str, line: int) -> bool:
    """Record an error for a line number no file has (int() of 4,300 digits would fail)."""
    m = re.search(r"\d{10,}", text)
    if m:
        ctx.error(f"line number {m[0][:12]}... is too large; expected at most 999,999,999", line)
    return m is not None


def _header(ctx: PageContext, proposal: Proposal, raw: str, line: int) -> None:
    if not raw.strip():
        return
    m = HEADER.match(raw.strip())
    if not m or not m["text"].strip():
        ctx.error(f"malformed proposal line '{raw}'; expected 'title:', 'status:', 'lands:' "
                  "or a 'file: PATH Lstart-Lend · symbol' line", line)
        return
    text = m["text"].strip()
    if m["key"] == "status":
        proposal.status = find_status(ctx.config.statuses, text, "page",
                                      lambda message: ctx.error(message, line))
    else:
        setattr(proposal, m["key"], text)


def _trim(section: Section) -> None:
    counts = (section.old_count or 0, section.new_count or 0) \
        if section.old_start is not None else None
    blank = trailing_blanks([(dl.kind, dl.text) for dl in section.lines], counts)
    del section.lines[len(section.lines) - blank:]


def _number(ctx: PageContext, section: Section) -> None:
    if section.old_start is None or section.new_start is None:
        return
    elided = next((dl for dl in section.lines if dl.kind == "…"), None)
    if elided is not None:
        ctx.error("'...' cannot stand inside a positioned section; start the lines after it "
                  "with their own '@@ -a,b +c,d @@'", elided.line)
        return
    old_count, new_count = number_lines(section)
    if (old_count, new_count) != (section.old_count, section.new_count):
        ctx.error(f"hunk line counts do not match its header: '@@ -{section.old_start},"
                  f"{section.old_count} +{section.new_start},{section.new_count} @@' but the "
                  f"lines give -{section.old_start},{old_count} +{section.new_start},{new_count}",
                  section.line)


WORD = re.compile(r"\w+|\s+|[^\w\s]")
MAX_WORDS = 200  # per line; a code line rarely has more than 80


def _changed(old: str, new: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Character ranges of the words that differ between a removed line and its added line.

    Compared word by word (as GitHub does), not character by character, so a
    rewritten expression is marked whole instead of as scattered letters.
    """
    old_words, new_words = WORD.findall(old), WORD.findall(new)
    if max(len(old_words), len(new_words)) > MAX_WORDS:
        return [], []  # matching is quadratic or worse: such a line is marked whole
    matcher = difflib.SequenceMatcher(None, old_words, new_words, autojunk=False)
    if matcher.ratio() < 0.5:
        return [], []
    old_at = list(itertools.accumulate((len(w) for w in old_words), initial=0))
    new_at = list(itertools.accumulate((len(w) for w in new_words), initial=0))
    old_ranges, new_ranges = [], []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            if i2 > i1:
                old_ranges.append((old_at[i1], old_at[i2]))
            if j2 > j1:
                new_ranges.append((new_at[j1], new_at[j2]))
    return old_ranges, new_ranges


@dataclass
class RenderedLine:
    kind: str
    html: Markup
    old: int | None
    new: int | None
    hidden: int | None = None  # for an elision between positioned sections: lines left out


def render_hunk_lines(hunk: Hunk, lexing: Lexing) -> list[RenderedLine]:
    """Every line of `hunk`, highlighted on its own side, changed characters marked; the
    indentation every line shares is left out, so the code starts at the left edge."""
    originals = [dl for s in hunk.sections for dl in s.lines]
    shared = shared_indent([dl.text for dl in originals if dl.kind != "…"])
    flat = _dedent(originals)  # the same lines, in the same order
    starts = {id(s.lines[0]) for s in hunk.sections[1:] if s.lines}
    tokens: dict[tuple[int, str], list[tuple[str, str]]] = {}
    for name, kinds in (("old", " -"), ("new", " +")):
        side = [i for i, dl in enumerate(originals) if dl.kind in kinds]
        for i, toks in zip(side, _lex_side(hunk, lexing, name == "new", kinds), strict=True):
            tokens[(id(flat[i]), name)] = _strip(toks, shared)
    marks = _pair_marks(flat)
    gaps = _gaps(hunk)
    rendered = []
    for dl, original in zip(flat, originals, strict=True):  # sections are known by theirs
        if id(original) in starts:
            rendered.append(RenderedLine("…", Markup(""), None, None, gaps.get(id(original))))
        if dl.kind == "…":
            rendered.append(RenderedLine("…", Markup(""), None, None))
            continue
        toks = tokens[(id(dl), "old" if dl.kind == "-" else "new")]
        rendered.append(RenderedLine(dl.kind, line_html(toks, marks.get(id(dl), [])), dl.old, dl.new))
    return rendered


_ROW_KINDS = {"-": "del", "+": "add", " ": "ctx"}
_CELLS = {"del": "<del>{}</del>", "add": "<ins>{}</ins>", "ctx": "{}"}


def diff_rows(lines: list[RenderedLine], line_url: Callable[[str, int], str] | None = None) -> Markup:
    """The table rows of a hunk's lines, each line number linked with `line_url(side,
    number)` when given. Made here rather than in the template, as Pygments makes its
    lines: a page has hundreds of them, and a template spends ten times as long on each."""
    out = []
    for line in lines:
        if line.kind == "…":
            note = (f" {line.hidden} line{'' if line.hidden == 1 else 's'} not shown" if line.hidden
                    else '<span class="visually-hidden">lines left out</span>')
            out.append('<tr class="diff-elision"><td class="diff-ln"></td><td class="diff-ln"></td>'
                       f'<td class="diff-code"><span aria-hidden="true">⋯</span>{note}</td></tr>\n')
            continue
        kind = _ROW_KINDS[line.kind]
        old = f' data-ln="{line.old}"' if line.old else ""
        new = f' data-ln="{line.new}" data-either="{line.new}"' if line.new else ""
        old_link = (f'<a class="diff-ln-link" href="{escape(line_url("old", line.old))}" '
                    f'aria-label="line {line.old} at the commit"></a>') if line.old and line_url else ""
        new_link = (f'<a class="diff-ln-link" href="{escape(line_url("new", line.new))}" '
                    f'aria-label="line {line.new} at the head"></a>') if line.new and line_url else ""
        out.append(f'<tr class="diff-{kind}">\n<td class="diff-ln"{old}>{old_link}</td>\n'
                   f'<td class="diff-ln"{new}>{new_link}</td>\n'
                   f'<td class="diff-code">{_CELLS[kind].format(line.html)}</td>\n</tr>\n')
    return Markup("".join(out))


def _lex_side(hunk: Hunk, lexing: Lexing, new: bool, kinds: str) -> Tokens:
    """The tokens of one side's lines (`kinds`), lexed as the file reads them when the file
    is there (from `hunk.lex_from`, the file's own lines between sections), else alone."""
    sections = [s for s in hunk.sections if s.lines]
    texts = [[dl.text for dl in s.lines if dl.kind in kinds] for s in sections]
    file = hunk.new_file if new and hunk.new_file is not None else hunk.old_file
    by_new = new and hunk.new_file is not None  # the PR's head: its own numbers
    starts = [s.new_start if by_new else s.old_start for s in sections]
    if file is None or any(start is None for start in starts):
        return lexing.lex([t for side in texts for t in side])
    text: list[str] = []
    mine: list[int] = []  # where the side's own lines are in `text`
    at = hunk.lex_from - 1
    for section, start, own in zip(sections, starts, texts, strict=True):
        assert start is not None
        text += file[at:max(at, start - 1)]
        mine += range(len(text), len(text) + len(own))
        text += own
        count = (section.new_count if by_new else section.old_count) or 0
        at = max(at, start - 1 + count)
    lexed = lexing.lex(text)
    return [lexed[i] for i in mine]


def _strip(tokens: list[tuple[str, str]], count: int) -> list[tuple[str, str]]:
    """A line's tokens with its first `count` characters (shared indentation) left out."""
    out = []
    for css, value in tokens:
        if count >= len(value):
            count -= len(value)
            continue
        out.append((css, value[count:]))
        count = 0
    return out


def _gaps(hunk: Hunk) -> dict[int, int]:
    """For each section after the first: how many lines of the file lie between it and the
    section before it (known when both have positions)."""
    gaps = {}
    for before, after in itertools.pairwise(s for s in hunk.sections if s.lines):
        if before.old_start is not None and after.old_start is not None and after.lines:
            gaps[id(after.lines[0])] = after.old_start - (before.old_start + (before.old_count or 0))
    return gaps


def _dedent(lines: list[DiffLine]) -> list[DiffLine]:
    shared = shared_indent([dl.text for dl in lines if dl.kind != "…"])
    if not shared:
        return lines
    return [dataclasses.replace(dl, text=dl.text[shared:]) if dl.kind != "…" else dl
            for dl in lines]


def _pair_marks(flat: list[DiffLine]) -> dict[int, list[tuple[int, int]]]:
    """Pair each run of removed lines with the added lines right after it (see _paired)."""
    marks: dict[int, list[tuple[int, int]]] = {}
    i = 0
    while i < len(flat):
        if flat[i].kind != "-":
            i += 1
            continue
        j = i
        while j < len(flat) and flat[j].kind == "-":
            j += 1
        k = j
        while k < len(flat) and flat[k].kind == "+":
            k += 1
        for a, b in _paired([dl.text for dl in flat[i:j]], [dl.text for dl in flat[j:k]]):
            marks[id(flat[i + a])], marks[id(flat[j + b])] = _changed(flat[i + a].text,
                                                                      flat[j + b].text)
        i = k
    return marks


PAIRED_AT_MOST = 400  # removed × added lines a run is paired by likeness within


def _paired(old: list[str], new: list[str]) -> list[tuple[int, int]]:
    """Which removed line (by its index in `old`) each added line replaces, in order: line
    by line where the runs are as long, as GitHub pairs them; else the pairs most alike
    in their words (as diff2html's matching by lines), so that two lines that became one
    mark the one it came from (Plug's `{_, next, state} = next_multipart(...)` and
    `read_part_headers(conn, data <> next, ...)` became `read_part_headers_more(conn,
    data, ...)`, marked against the first), the rest unpaired."""
    if len(old) == len(new) or len(old) * len(new) > PAIRED_AT_MOST:
        return list(zip(range(len(old)), range(len(new)), strict=False))
    alike = [[_alike(a, b) for b in new] for a in old]
    best = [[0.0] * (len(new) + 1) for _ in range(len(old) + 1)]  # of old[i:] and new[j:]
    for i in range(len(old) - 1, -1, -1):
        for j in range(len(new) - 1, -1, -1):
            best[i][j] = max(best[i + 1][j], best[i][j + 1], alike[i][j] + best[i + 1][j + 1])
    pairs, i, j = [], 0, 0
    while i < len(old) and j < len(new):
        if alike[i][j] and best[i][j] == alike[i][j] + best[i + 1][j + 1]:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return pairs


def _alike(old: str, new: str) -> float:
    """How alike two lines are in their words (0 where _changed would not mark them)."""
    words = WORD.findall(old), WORD.findall(new)
    if max(map(len, words)) > MAX_WORDS:
        return 0.0
    ratio = difflib.SequenceMatcher(None, *words, autojunk=False).ratio()
    return ratio if ratio >= 0.5 else 0.0


def proposal_plugin(md: MarkdownIt, *, templates: jinja2.Environment) -> None:
    """Register the ```` ```proposal ```` block and its renderer (templates/blocks/proposal.html)."""
    template = templates.get_template("blocks/proposal.html")

    def render(token: Token, env: dict[str, Any]) -> str:
        proposal: Proposal = token.meta["model"]
        ctx = context_of(env)
        hunks = [(hunk, diff_rows(render_hunk_lines(hunk, hunk_lexing(ctx, hunk))))
                 for hunk in proposal.hunks]
        commit = _applies_at(ctx, proposal)
        return template.render(
            proposal=proposal, hunks=hunks, commit=commit, anchor=token.meta.get("id"),
            inline=lambda text, line: render_inline(md, env, text, line),
        )

    fence_parser(md, "proposal", "proposal_block", parse_proposal)
    block_renderer(md, "proposal_block", render)


def _applies_at(ctx: PageContext, proposal: Proposal) -> str:
    """Where the proposal was checked: the head, or each submodule's commit in its own
    repository, which its patch is for."""
    head = ctx.pr.head[:7] if ctx.pr else ""
    others = sorted({f"{h.file_ref.commit[:7]} in {h.file_ref.repo}" for h in proposal.hunks
                     if h.file_ref is not None and h.file_ref.repo})
    if not others:
        return head
    mine = any(h.file_ref is None or not h.file_ref.repo for h in proposal.hunks)
    return ", ".join(([head] if mine else []) + others)


def hunk_lexing(ctx: PageContext, hunk: Hunk) -> Lexing:
    """How the lines of `hunk` are lexed: as its file's language (told by the file at the
    commit, or else by the hunk's lines, when its ending does not say), from the page's
    code store."""
    lines = hunk.old_file or [line.text for section in hunk.sections for line in section.lines]
    return lexing_for(hunk.file_ref.path if hunk.file_ref else hunk.path, ctx.config.languages,
                      ctx.code_store, lines)
