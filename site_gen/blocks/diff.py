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

import difflib
import functools
import html
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

import jinja2
from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup
from pygments.lexer import Lexer
from pygments.lexers import TextLexer, get_lexer_by_name, get_lexer_for_filename
from pygments.token import STANDARD_TYPES, _TokenType
from pygments.util import ClassNotFound

from ..config import Status
from ..content import find_status
from ..context import PageContext, context_of
from . import block_renderer, fence_parser, render_inline
from .refs import CodeRef, resolve

HEADER = re.compile(r"^(?P<key>title|status|lands)\s*:\s*(?P<text>.*)$")
FILE = re.compile(
    r"^file\s*:\s*(?P<path>[^\s·]+)"
    r"(?:\s+(?P<lines>L\d+(?:-L\d+)?(?:\s*(?:and|,)\s*L\d+(?:-L\d+)?)*))?"
    r"(?:\s*·\s*(?P<symbol>.*\S))?\s*$"
)
POSITION = re.compile(r"^@@ -(?P<a>\d+)(?:,(?P<b>\d+))? \+(?P<c>\d+)(?:,(?P<d>\d+))? @@\s*$")
ELISION = re.compile(r"^\s?(\.\.\.|…|⋯)\s*$")
RANGE = re.compile(r"L(\d+)(?:-L(\d+))?")


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


@dataclass
class Hunk:
    path: str
    ranges: list[tuple[int, int]]
    lines_text: str | None
    symbol: str | None
    line: int
    sections: list[Section] = field(default_factory=list)


@dataclass
class Proposal:
    title: str | None = None
    status: Status | None = None
    lands: str | None = None
    line: int = 0
    hunks: list[Hunk] = field(default_factory=list)
    saw_file_line: bool = False
    skipping: bool = False  # after a malformed 'file:' line, until the next one


def parse_proposal(ctx: PageContext, lines: list[str], first: int) -> Proposal | None:
    """Parse a proposal block; every problem goes to `ctx` with its line."""
    errors = len(ctx.errors)
    proposal = Proposal(line=first - 1)
    for i, raw in enumerate(lines):
        _line(ctx, proposal, raw, first + i)
    for hunk in proposal.hunks:
        for section in hunk.sections:
            _trim(section)
            _number(ctx, section)
        if not any(s.lines for s in hunk.sections):
            ctx.error(f"hunk for '{hunk.path}' has no diff lines", hunk.line)
    if not proposal.saw_file_line:
        ctx.error("a proposal needs at least one 'file: PATH Lstart-Lend · symbol' line "
                  "followed by diff lines", first - 1)
    return proposal if len(ctx.errors) == errors else None


def _line(ctx: PageContext, proposal: Proposal, raw: str, line: int) -> None:
    if raw.startswith("file") and re.match(r"^file\s*:", raw):
        proposal.saw_file_line = True
        m = FILE.match(raw)
        proposal.skipping = not m
        if not m:
            ctx.error(f"malformed hunk header '{raw}'; expected 'file: PATH Lstart-Lend · symbol'",
                      line)
            return
        ranges = [(int(a), int(b or a)) for a, b in RANGE.findall(m["lines"] or "")]
        proposal.hunks.append(Hunk(m["path"], ranges, m["lines"], m["symbol"], line,
                                   [Section(line)]))
        return
    if proposal.skipping:
        return
    if not proposal.hunks:
        _header(ctx, proposal, raw, line)
        return
    hunk = proposal.hunks[-1]
    position = POSITION.match(raw)
    if position:
        a, c = int(position["a"]), int(position["c"])
        section = Section(line, a, int(position["b"] or 1), c, int(position["d"] or 1))
        if hunk.sections[-1].lines or hunk.sections[-1].old_start is not None:
            hunk.sections.append(section)
        else:
            hunk.sections[-1] = section
    elif ELISION.match(raw):
        hunk.sections[-1].lines.append(DiffLine("…", "", line))
    elif raw == "" or raw[0] in " +-":
        hunk.sections[-1].lines.append(DiffLine(raw[:1] or " ", raw[1:], line))
    else:
        ctx.error(f"'{raw}' is not a diff line; expected a line starting with ' ', '+' or '-', "
                  "'...' for lines left out, or '@@ -a,b +c,d @@'", line)


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
        proposal.status = find_status(ctx.config, text, "page", ctx.path, line, ctx.errors)
    else:
        setattr(proposal, m["key"], text)


def _trim(section: Section) -> None:
    while section.lines and section.lines[-1].kind == " " and not section.lines[-1].text.strip():
        section.lines.pop()


def _number(ctx: PageContext, section: Section) -> None:
    if section.old_start is None or section.new_start is None:
        return
    old, new = section.old_start, section.new_start
    for dl in section.lines:
        if dl.kind == "…":
            ctx.error("'...' cannot stand inside a positioned section; start the lines after it "
                      "with their own '@@ -a,b +c,d @@'", dl.line)
            return
        if dl.kind in " -":
            dl.old, old = old, old + 1
        if dl.kind in " +":
            dl.new, new = new, new + 1
    old_count, new_count = old - section.old_start, new - section.new_start
    if (old_count, new_count) != (section.old_count, section.new_count):
        ctx.error(f"hunk line counts do not match its header: '@@ -{section.old_start},"
                  f"{section.old_count} +{section.new_start},{section.new_count} @@' but the "
                  f"lines give -{section.old_start},{old_count} +{section.new_start},{new_count}",
                  section.line)


def lexer_for(path: str, languages: dict[str, str]) -> Lexer:
    """The Pygments lexer for `path`: a configured override by ending, else by file name."""
    for ending, name in languages.items():
        if path.endswith("." + ending) or path == ending:
            return _lexer_by_name(name)
    return _lexer_by_file_name(path.rsplit("/", 1)[-1])


@functools.lru_cache(maxsize=256)
def _lexer_by_name(name: str) -> Lexer:
    lexer: Lexer = get_lexer_by_name(name, stripnl=False, ensurenl=False)
    return lexer


@functools.lru_cache(maxsize=256)
def _lexer_by_file_name(file_name: str) -> Lexer:
    # Pygments tries every lexer's file patterns; remembering the answer per name matters.
    try:
        lexer: Lexer = get_lexer_for_filename(file_name, stripnl=False, ensurenl=False)
        return lexer
    except ClassNotFound:
        plain: Lexer = TextLexer(stripnl=False, ensurenl=False)
        return plain


def _css_class(ttype: _TokenType) -> str:
    known: _TokenType | None = ttype
    while known is not None and known not in STANDARD_TYPES:
        known = known.parent
    return STANDARD_TYPES[known] if known is not None else ""


def _lex_lines(lexer: Lexer, lines: list[str]) -> list[list[tuple[str, str]]]:
    """Lex `lines` as one text (so strings spanning lines are right); tokens per line."""
    result: list[list[tuple[str, str]]] = [[]]
    for ttype, value in lexer.get_tokens("\n".join(lines) + "\n"):
        parts = value.split("\n")
        for k, part in enumerate(parts):
            if k:
                result.append([])
            if part:
                result[-1].append((_css_class(ttype), part))
    return result[: len(lines)] + [[] for _ in range(len(lines) - len(result))]


WORD = re.compile(r"\w+|\s+|[^\w\s]")


def _changed(old: str, new: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Character ranges of the words that differ between a removed line and its added line.

    Compared word by word (as GitHub does), not character by character, so a
    rewritten expression is marked whole instead of as scattered letters.
    """
    old_words, new_words = WORD.findall(old), WORD.findall(new)
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


def _html(tokens: list[tuple[str, str]], ranges: list[tuple[int, int]]) -> Markup:
    """Highlighted HTML of one line, each run of characters in `ranges` in one <mark>."""
    if not ranges:
        return Markup("".join(_span(css, value) for css, value in tokens))
    cuts = sorted({p for r in ranges for p in r})
    pieces: list[tuple[bool, str]] = []
    pos = 0
    for css, value in tokens:
        end = pos + len(value)
        start = pos
        for point in [p for p in cuts if pos < p < end] + [end]:
            marked = any(a <= start < b for a, b in ranges)
            pieces.append((marked, _span(css, value[start - pos: point - pos])))
            start = point
        pos = end
    out = []
    for marked, group in itertools.groupby(pieces, key=lambda piece: piece[0]):
        html = "".join(span for _, span in group)
        out.append(f"<mark>{html}</mark>" if marked else html)
    return Markup("".join(out))


def _span(css: str, text: str) -> str:
    escaped = html.escape(text, quote=False)
    return f'<span class="{css}">{escaped}</span>' if css else escaped


@dataclass
class RenderedLine:
    kind: str
    html: Markup
    old: int | None
    new: int | None


def render_hunk_lines(hunk: Hunk, lexer: Lexer) -> list[RenderedLine]:
    """Every line of `hunk`, highlighted on its own side, changed characters marked."""
    flat = [dl for s in hunk.sections for dl in s.lines]
    starts = {id(s.lines[0]) for s in hunk.sections[1:] if s.lines}
    old_side = [dl for dl in flat if dl.kind in " -"]
    new_side = [dl for dl in flat if dl.kind in " +"]
    tokens: dict[tuple[int, str], list[tuple[str, str]]] = {}
    for side, name in ((old_side, "old"), (new_side, "new")):
        for dl, toks in zip(side, _lex_lines(lexer, [d.text for d in side]), strict=True):
            tokens[(id(dl), name)] = toks
    marks = _pair_marks(flat)
    rendered = []
    for dl in flat:
        if id(dl) in starts:
            rendered.append(RenderedLine("…", Markup(""), None, None))
        if dl.kind == "…":
            rendered.append(RenderedLine("…", Markup(""), None, None))
            continue
        toks = tokens[(id(dl), "old" if dl.kind == "-" else "new")]
        rendered.append(RenderedLine(dl.kind, _html(toks, marks.get(id(dl), [])), dl.old, dl.new))
    return rendered


def _pair_marks(flat: list[DiffLine]) -> dict[int, list[tuple[int, int]]]:
    """Pair each run of removed lines with the added lines right after it."""
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
        for removed, added in zip(flat[i:j], flat[j:k], strict=False):  # extra lines: unpaired
            marks[id(removed)], marks[id(added)] = _changed(removed.text, added.text)
        i = k
    return marks


def check_applies(ctx: PageContext, proposal: Proposal, refs: dict[int, CodeRef | None]) -> str | None:
    """Compare removed and context lines with the pinned commit, as `git apply --check` would.

    Returns None when there is nothing to check, "" when it applies, or what does not match.
    """
    if ctx.source is None:
        return None
    checked = False
    for hunk in proposal.hunks:
        ref = refs.get(id(hunk))
        if ref is None:
            continue
        lines = ctx.source.lines(ref.commit, ref.path)
        for section in hunk.sections:
            if section.old_start is None or lines is None:
                continue
            checked = True
            for dl in section.lines:
                if dl.old is None:
                    continue
                actual = lines[dl.old - 1] if dl.old <= len(lines) else None
                if actual != dl.text:
                    found = "the end of the file" if actual is None else f"'{actual.strip()}'"
                    return (f"{ref.path} line {dl.old} should read '{dl.text.strip()}' "
                            f"but reads {found}")
    return "" if checked else None


def diff_plugin(md: MarkdownIt, *, templates: jinja2.Environment) -> None:
    """Register the ```` ```proposal ```` block and its renderer (templates/blocks/proposal.html)."""
    template = templates.get_template("blocks/proposal.html")

    def render(token: Token, env: dict[str, Any]) -> str:
        proposal: Proposal = token.meta["model"]
        ctx = context_of(env)
        hunks, refs = [], {}
        for hunk in proposal.hunks:
            file_ref = resolve(ctx, hunk.path, hunk.line)
            refs[id(hunk)] = file_ref
            ranges = [(f"L{a}" if a == b else f"L{a}-L{b}",
                       resolve(ctx, f"{hunk.path}:{a}-{b}", hunk.line)) for a, b in hunk.ranges]
            lexer = lexer_for(file_ref.path if file_ref else hunk.path, ctx.config.languages)
            hunks.append((hunk, file_ref, ranges, render_hunk_lines(hunk, lexer)))
        applies = check_applies(ctx, proposal, refs)
        if applies:
            ctx.warn(f"the proposed change does not apply at the pinned commit: {applies}",
                     proposal.line)
        commit = ctx.pr.head[:7] if ctx.pr else ""
        return template.render(
            proposal=proposal, hunks=hunks, applies=applies, commit=commit,
            inline=lambda text, line: render_inline(md, env, text, line),
        )

    fence_parser(md, "proposal", "proposal_block", parse_proposal)
    block_renderer(md, "proposal_block", render)
