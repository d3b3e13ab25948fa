"""Code from the pinned commit on the page: an excerpt of a file, and the PR's own change.

    ```excerpt
    [[checkpoint.py:480-492]]
    highlight: 485-486
    ```

    ```pr-diff
    [[checkpoint.py]]            (or [[checkpoint.py:470-500]]: only the change in those
    ```                           lines of the head)

Both read the code at build time, so they always show exactly what the commit holds; when
the code is not there they say so in place, and the build warns.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

import jinja2
from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup

from ..context import PageContext, context_of
from ..errors import UNCHECKED
from ..highlight import highlighted_lines
from ..names import REFERENCE, path_written
from . import block_renderer, fence_parser
from .hunks import DiffLine, Hunk, Proposal, Section
from .placement import number_lines
from .proposal import defined_around, diff_rows, hunk_lexing, render_hunk_lines, with_context
from .refs import REF, CodeRef, matching_paths, only_at_base, permalink, resolve, submodule_at

REF_LINE = re.compile(rf"^\s*\[\[(?P<ref>{REFERENCE})\]\]\s*$")
HIGHLIGHT = re.compile(r"^\s*highlight\s*:\s*(?P<ranges>\d{1,9}(?:-\d{1,9})?"
                       r"(?:\s*,\s*\d{1,9}(?:-\d{1,9})?)*)\s*$")
MISSING = "the code is not available at build time"


@dataclass
class Excerpt:
    ref: CodeRef | None
    line: int
    marked: set[int] = field(default_factory=set)
    lines: list[str] | None = None  # the cited lines, when the code is there
    file: list[str] | None = None  # the whole file (which tells its language)


def _ref_of(ctx: PageContext, lines: list[str], first: int, block: str) -> tuple[str, int] | None:
    """The one `[[reference]]` a block holds, and its line."""
    for i, raw in enumerate(lines):
        m = REF_LINE.match(raw)
        if m:
            return m["ref"], first + i
        if raw.strip() and not HIGHLIGHT.match(raw):
            break
    article = "an" if block[0] in "aeiou" else "a"
    ctx.error(f"{article} {block} block holds one reference on a line of its own, like "
              "[[checkpoint.py:480-492]]", first - 1)
    return None


def parse_excerpt(ctx: PageContext, lines: list[str], first: int) -> Excerpt | None:
    """An excerpt: its reference (with lines), the lines to highlight, and the code."""
    check = ctx.problems.checkpoint()
    found = _ref_of(ctx, lines, first, "excerpt")
    if found is None:
        return None
    text, line = found
    ref = resolve(ctx, text, line)
    excerpt = Excerpt(ref, line)
    for i, raw in enumerate(lines):
        m = HIGHLIGHT.match(raw)
        if m:
            for part in m["ranges"].split(","):
                a, _, b = part.strip().partition("-")
                excerpt.marked.update(range(int(a), int(b or a) + 1))
        elif raw.strip() and not REF_LINE.match(raw):
            ctx.error(f"'{raw.strip()}' is not part of an excerpt; expected the reference and "
                      "optionally 'highlight: 485-486'", first + i)
    if ref is not None and ref.start is None:
        ctx.error(f"the excerpt '[[{text}]]' names no lines; expected a range like "
                  f"[[{ref.path}:10-20]]", line)
    if check.failed or ref is None or ref.start is None:
        return None
    end = ref.end or ref.start
    outside = sorted(n for n in excerpt.marked if not ref.start <= n <= end)
    if outside:
        ctx.error(f"highlight: line {outside[0]} is outside the excerpt's lines "
                  f"{ref.start}-{end}", line)
        return None
    if not ctx.show_code(end - ref.start + 1, f"the excerpt [[{text}]]", line):
        return None
    _read(ctx, excerpt, ref, end)
    return excerpt


def _read(ctx: PageContext, excerpt: Excerpt, ref: CodeRef, end: int) -> None:
    if ctx.source is None:
        ctx.warn(f"the excerpt of {ref.path} {ref.lines_text} cannot be shown: {MISSING} "
                 "(run 'site-gen fetch')", excerpt.line)
        return
    excerpt.file = lines = ctx.source.lines(ref.commit, ref.path)
    excerpt.lines = lines[(ref.start or 1) - 1:end] if lines is not None else None


def parse_pr_diff(ctx: PageContext, lines: list[str], first: int) -> Proposal | None:
    """The change the PR makes to one file (base to head), as hunks of a proposal."""
    found = _ref_of(ctx, lines, first, "pr-diff")
    if found is None:
        return None
    text, line = found
    pinned = _removed_at_base(ctx, text)
    ref = resolve(ctx, pinned, line)
    if ref is None:
        return None
    pr = ctx.pr
    if pr is None or pr.base is None:
        ctx.error("a pr-diff block needs the PR's base commit; add 'base: SHA' to pr.yml", line)
        return None
    if ctx.source is None:
        ctx.warn(f"the PR's change to {ref.path} cannot be shown: {MISSING} (run 'site-gen "
                 "fetch')", line)
        return Proposal(line=line, hunks=[Hunk(ref.path, [], None, None, line, file_ref=ref)])
    base = _base_of(ctx, ref, pr.base, line)
    if base is None:
        return Proposal(line=line, hunks=[Hunk(ref.path, [], None, None, line, file_ref=ref)])
    old_path = ref.path  # or the name the PR renamed it from, as git finds renames
    if ctx.source.lines(base, ref.path) is None:
        old_path = ctx.source.renamed_from(base, ref.commit, ref.path) or ref.path
    if ctx.source.is_binary(base, old_path) or ctx.source.is_binary(ref.commit, ref.path):
        ctx.error(f"{ref.path} is a binary file, which a pr-diff does not show; expected a "
                  "text file the PR changes", line)
        return None
    before = ctx.source.lines(base, old_path) or []
    removed = pinned != text  # the head has no such file: every line is removed
    after = [] if removed else ctx.source.lines(ref.commit, ref.path) or []
    every = _sections(before, after, line)
    sections = [s for s in every
                if ref.start is None or _overlaps(s, ref.start, ref.end or ref.start)]
    if ref.start is not None:  # only the change within the lines, with its context
        sections = [cut for s in sections
                    if (cut := _within(s, ref.start, ref.end or ref.start, line)) is not None]
    shown = sum(len(s.lines) for s in sections)
    if sections and not ctx.show_code(shown, f"the PR's change to {ref.path}", line):
        return None
    renamed = old_path if old_path != ref.path else None
    if not sections and renamed and ref.start is None:  # moved, not changed: say so
        return Proposal(line=line, hunks=[Hunk(ref.path, [], None, None, line, file_ref=ref,
                                               old_path=renamed)])
    if not sections:
        where = f" in lines {ref.start}-{ref.end or ref.start}" if ref.start else ""
        ctx.error(f"the PR does not change {ref.path}{where}; expected a file (and lines) its "
                  f"change touches{_changed_at_head(every)}", line)
        return None
    hunk = Hunk(ref.path, [], None, None, line, sections, file_ref=ref, old_path=renamed,
                removed=removed, base=base)
    if ref.start is not None:  # its lines, and the definition that holds their change
        hunk.range_refs = [(ref.lines_text, ref)]
        changed = _changed_lines(sections) or [ref.start, ref.end or ref.start]
        hunk.symbol = defined_around(ctx, ref, min(changed), max(changed))
    with_context(ctx, hunk, before, after, base)
    return Proposal(line=line, hunks=[hunk])


def _changed_lines(sections: list[Section]) -> list[int]:
    """The lines of the head that `sections` change: each added line, and where a removed
    one stood (the line above it), so that a range that takes in a blank line after the
    function it changes is still headed by that function (aeson's `L796-L808`)."""
    changed: list[int] = []
    for section in sections:
        at = section.new_start or 0
        for dl in section.lines:
            at = dl.new or at
            if dl.kind in "-+" and at:
                changed.append(at)
    return changed


def _changed_at_head(sections: list[Section]) -> str:
    """'; it changes L406-L412, L1061-L1148 and 2 more at the head': where to look, each
    section with its context, for a range that missed them."""
    spans = [f"L{s.new_start}-L{s.new_start + s.new_count - 1}" if s.new_count > 1
             else f"L{s.new_start}" for s in sections
             if s.new_start is not None and s.new_count]
    if not spans:
        return ""
    more = f" and {len(spans) - 3} more" if len(spans) > 3 else ""
    return f"; it changes {', '.join(spans[:3])}{more} at the head"


def _base_of(ctx: PageContext, ref: CodeRef, base: str, line: int) -> str | None:
    """The commit the PR's change to `ref`'s file is read from: the PR's base, or for a
    submodule's file the commit the base pins the submodule at (when the PR adds the
    submodule, the base's own: every line is new); None (a warning) when it is not here."""
    assert ctx.source is not None
    full = ctx.source.commit(base) or base
    if not ref.repo:
        return full
    pinned = submodule_at(ctx, ref, full)
    if pinned is None:
        ctx.warn(f"the PR's change to {ref.path} cannot be shown: the code of {ref.repo} at "
                 f"the commit the base pins {ref.within} at is not here (run 'site-gen fetch')",
                 line, UNCHECKED)
        return None
    return pinned or full


def _sections(before: list[str], after: list[str], line: int) -> list[Section]:
    """The change as sections with three lines of context, like `git diff`."""
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    sections = []
    for group in matcher.get_grouped_opcodes(3):
        lines: list[DiffLine] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines += [DiffLine(" ", text, line) for text in before[i1:i2]]
                continue
            lines += [DiffLine("-", text, line) for text in before[i1:i2]]
            lines += [DiffLine("+", text, line) for text in after[j1:j2]]
        section = Section(line, group[0][1] + 1, 0, group[0][3] + 1, 0, lines)
        section.old_count, section.new_count = number_lines(section)
        sections.append(section)
    return sections


CONTEXT = 3  # unchanged lines shown around a change, as `git diff` shows them


def _within(section: Section, start: int, end: int, line: int) -> Section | None:
    """The part of `section` that changes head lines `start`-`end` (a removed line counts
    where it stood, before the next head line), with CONTEXT unchanged lines around it;
    None when nothing in those lines changes."""
    lines = section.lines
    at, places = (section.new_start or 1), []
    for dl in lines:  # each line's place among the head's lines
        places.append(dl.new if dl.new is not None else at)
        if dl.new is not None:
            at = dl.new + 1
    changed = [i for i, dl in enumerate(lines) if dl.kind in "+-" and start <= places[i] <= end]
    if not changed:
        return None
    first, last = max(0, changed[0] - CONTEXT), min(len(lines), changed[-1] + CONTEXT + 1)
    kept = lines[first:last]
    old = next((dl.old for dl in kept if dl.old is not None), None)
    new = next((dl.new for dl in kept if dl.new is not None), None)
    cut = Section(line, old if old is not None else section.old_start, 0,
                  new if new is not None else places[first], 0,
                  [DiffLine(dl.kind, dl.text, dl.line) for dl in kept])
    cut.old_count, cut.new_count = number_lines(cut)
    return cut


def _overlaps(section: Section, start: int, end: int) -> bool:
    news = [dl.new for dl in section.lines if dl.new is not None]
    return bool(news) and min(news) <= end and start <= max(news)


def _removed_at_base(ctx: PageContext, text: str) -> str:
    """The reference `text` pinned at the base (`@base`) when it names a whole file the PR
    removed (the base has it, the head has not); else `text` as it is."""
    m = REF.match(text)
    if not m or m["commit"] or m["start"] or m["symbol"] or ctx.pr is None:
        return text
    paths = matching_paths(ctx.pr.files, path_written(m["path"]))
    if len(paths) != 1 or not only_at_base(ctx, paths[0], ctx.pr.head):
        return text
    return f"{text[:m.end('target')]}@base{text[m.end('target'):]}"


def _pinned_apart(ctx: PageContext, ref: CodeRef | None) -> str | None:
    """'base d697b46' or '1a2b3c4' for lines read at another commit than the PR's head
    (`@base`, `@sha`), which a reader would otherwise take for the head's ('1a2b3c4 in
    acme/lib' for a submodule's); None at the head."""
    pr = ctx.pr
    if ref is None or pr is None:
        return None
    commit = ref.commit
    if ref.repo:  # a submodule's lines: its own repository's commit
        return f"{commit[:7]} in {ref.repo}"

    def names(sha: str | None) -> bool:  # as pr.yml writes it, or expanded
        full = ctx.source.commit(sha) if sha and ctx.source is not None else None
        return any(s and (commit.startswith(s) or s.startswith(commit)) for s in (sha, full))

    if names(pr.head):
        return None
    return f"base {commit[:7]}" if names(pr.base) else commit[:7]


def excerpt_plugin(md: MarkdownIt, *, templates: jinja2.Environment) -> None:
    """Register ```` ```excerpt ```` and ```` ```pr-diff ```` (templates/blocks/excerpt.html,
    and the proposal's template for the PR's change)."""
    excerpt_template = templates.get_template("blocks/excerpt.html")
    proposal_template = templates.get_template("blocks/proposal.html")

    def render_excerpt(token: Token, env: dict[str, Any]) -> str:
        excerpt: Excerpt = token.meta["model"]
        ctx = context_of(env)
        rows = _rows(ctx, excerpt) if excerpt.lines is not None else None
        return excerpt_template.render(excerpt=excerpt, rows=rows, missing=MISSING,
                                       at=_pinned_apart(ctx, excerpt.ref))

    def render_pr_diff(token: Token, env: dict[str, Any]) -> str:
        change: Proposal = token.meta["model"]
        ctx = context_of(env)
        hunk = change.hunks[0]
        hunks = [(hunk, diff_rows(render_hunk_lines(hunk, hunk_lexing(ctx, hunk)),
                                  _line_urls(ctx, hunk)))] if hunk.sections else []
        pr = ctx.pr
        base = hunk.base or (ctx.source.commit(pr.base) if ctx.source and pr and pr.base
                             else None) or (pr.base if pr else None)
        head = (ctx.source.commit(pr.head) if ctx.source and pr else None) or \
            (pr.head if pr else None)  # a removed file's hunk is pinned at the base
        return proposal_template.render(proposal=change, hunks=hunks, commit="", pr_diff=True,
                                        renamed=hunk.old_path, removed=hunk.removed,
                                        base=base, head=hunk.file_ref.commit
                                        if hunk.file_ref and not hunk.removed else head,
                                        repo=hunk.file_ref.repo if hunk.file_ref else None,
                                        missing=MISSING, inline=lambda text, line: text)

    fence_parser(md, "excerpt", "excerpt_block", parse_excerpt)
    block_renderer(md, "excerpt_block", render_excerpt)
    fence_parser(md, "pr-diff", "pr_diff_block", parse_pr_diff)
    block_renderer(md, "pr_diff_block", render_pr_diff)


def _line_urls(ctx: PageContext, hunk: Hunk) -> Any:
    """Permalinks of the diff's line numbers: the old side at the base, the new at the head."""
    ref, base = hunk.file_ref, hunk.base or (ctx.pr.base if ctx.pr else None)
    if ref is None or base is None:
        return None
    commits = {"old": (ctx.source.commit(base) if ctx.source else None) or base,
               "new": ref.commit}

    paths = {"old": hunk.old_path or ref.path, "new": ref.path}

    def url(side: str, number: int) -> str:
        return permalink(ctx, paths[side], commits[side], number, number, ref.repo)
    return url


def _rows(ctx: PageContext, excerpt: Excerpt) -> list[tuple[int, Markup, bool]]:
    assert excerpt.ref is not None and excerpt.lines is not None
    start = excerpt.ref.start or 1
    html = highlighted_lines(excerpt.ref.path, excerpt.lines, ctx.config.languages,
                             ctx.code_store, excerpt.file)
    return [(start + i, line, start + i in excerpt.marked) for i, line in enumerate(html)]
