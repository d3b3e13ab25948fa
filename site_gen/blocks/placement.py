"""Where a proposal's sections stand in their files, checked against what the pages say.

- A section written without `@@ -a,b +c,d @@` is found in the file at the pinned commit
  (when the code is there): once, or it is an error naming what was not found or where
  it stands more than once.
- The `L` ranges of a `file:` header must lie among the lines its sections show.
- A section's new side starts where the old side and the sections before it in the file
  put it (`+c` = `a` plus the lines added less the lines removed above it).
- Every removed and context line must read as it does at the pinned commit; each line that
  does not is an error at its own line, as `git apply --check` would refuse it.
"""

from __future__ import annotations

import re
from collections import defaultdict

from ..code_index import named_holds
from ..context import PageContext
from ..definitions import lines_text
from ..highlight import comment_lines
from .hunks import DiffLine, Hunk, Proposal, Section, made_at, made_beside


def place(ctx: PageContext, proposal: Proposal) -> None:
    """Find sections without '@@' in the file at the pinned commit (when it is there)."""
    if ctx.source is None:
        return
    for hunk in proposal.hunks:
        if hunk.file_ref is None or all(s.old_start is not None for s in hunk.sections):
            continue
        lines = ctx.source.lines(hunk.file_ref.commit, hunk.file_ref.path)
        if lines is not None:
            hunk.sections = [placed for section in hunk.sections
                             for placed in _place_section(ctx, hunk, section, lines)]


def _place_section(ctx: PageContext, hunk: Hunk, section: Section,
                   lines: list[str]) -> list[Section]:
    if section.old_start is not None:
        return [section]
    runs: list[list[DiffLine]] = [[]]
    for dl in section.lines:
        if dl.kind == "…":
            runs.append([])
        else:
            runs[-1].append(dl)
    placed, cursor = [], 0
    for run in (r for r in runs if r):
        at = _find(ctx, hunk, run, lines, cursor)
        if at is None:
            return [section]
        old = sum(1 for dl in run if dl.kind in " -")
        placed.append(Section(run[0].line, at + 1, old, None,
                              sum(1 for dl in run if dl.kind in " +"), run, placed=True))
        cursor = at + old
    return placed


def _find(ctx: PageContext, hunk: Hunk, run: list[DiffLine], lines: list[str],
          cursor: int) -> int | None:
    """Where the old side of `run` stands in `lines` (from `cursor`); None, with an error,
    when it stands nowhere or in several places."""
    assert hunk.file_ref is not None
    old = [dl for dl in run if dl.kind in " -"]
    if not old:
        ctx.error("a section of only added lines cannot be placed; add '@@ -a,0 +c,d @@' to say "
                  "where they go", run[0].line)
        return None
    starts = [i for i in range(cursor, len(lines)) if lines[i] == old[0].text]
    full = _standing(lines, [dl.text for dl in old], starts)
    where = f"{hunk.file_ref.path} at {hunk.file_ref.commit[:7]}"
    if len(full) == 1:
        return full[0]
    if full:
        shown = ", ".join(str(i + 1) for i in full[:5])
        ctx.error(f"these lines stand {len(full)} times in {where} (from lines {shown}); add "
                  "'@@ -a,b +c,d @@' to say which", old[0].line)
        return None
    best = max(starts, key=lambda i: _agree(lines, i, old), default=None)
    wrong = old[_agree(lines, best, old)] if best is not None else old[0]
    ctx.error(f"'{wrong.text.strip()}' is not in {where} where the lines around it are; "
              "expected the removed and context lines as the file has them", wrong.line)
    return None


def _standing(lines: list[str], texts: list[str], starts: list[int] | None = None) -> list[int]:
    """Where in `lines` (of `starts`, else anywhere) `texts` stand whole, in order."""
    if starts is None:
        starts = [i for i, line in enumerate(lines) if texts and line == texts[0]]
    return [i for i in starts if lines[i:i + len(texts)] == texts]


def _agree(lines: list[str], start: int, old: list[DiffLine]) -> int:
    """How many lines of `old` the file holds from `start` on, in order."""
    count = 0
    while count < len(old) and start + count < len(lines) and lines[start + count] == old[count].text:
        count += 1
    return min(count, len(old) - 1)


def check_positions(ctx: PageContext, proposal: Proposal) -> None:
    """The header's `L` ranges lie among the lines shown; each new side starts where the
    sections before it in the same file put it. Placed sections are numbered here."""
    by_file: dict[str, list[Section]] = defaultdict(list)
    for hunk in proposal.hunks:
        path = hunk.file_ref.path if hunk.file_ref else hunk.path
        by_file[path].extend(s for s in hunk.sections if s.old_start is not None)
        _check_ranges(ctx, hunk)
    for sections in by_file.values():
        delta = 0
        for section in sorted(sections, key=lambda s: s.old_start or 0):
            assert section.old_start is not None
            expected = section.old_start + delta if section.old_count else section.old_start + delta + 1
            if section.placed:
                section.new_start = expected
                number_lines(section)
            elif section.new_start != expected and section.new_count:
                ctx.error(f"'@@ -{section.old_start},{section.old_count} +{section.new_start},"
                          f"{section.new_count} @@' starts the new side at {section.new_start}, "
                          f"but the sections above it put old line {section.old_start} at "
                          f"{expected}; expected '+{expected},{section.new_count}'", section.line)
            delta += (section.new_count or 0) - (section.old_count or 0)


def number_lines(section: Section) -> tuple[int, int]:
    """Give each line of a positioned section its old and new line numbers; returns how
    many lines each side has."""
    assert section.old_start is not None and section.new_start is not None
    old, new = section.old_start, section.new_start
    for dl in section.lines:
        if dl.kind in " -":
            dl.old, old = old, old + 1
        if dl.kind in " +":
            dl.new, new = new, new + 1
    return old - section.old_start, new - section.new_start


def _check_ranges(ctx: PageContext, hunk: Hunk) -> None:
    shown = [s for s in hunk.sections if s.lines]
    if not hunk.ranges or any(s.old_start is None or not s.old_count for s in shown):
        return
    spans = ", ".join(f"{s.old_start}-{s.old_end}" for s in shown)
    for start, end in hunk.ranges:
        if not any(s.old_start is not None and s.old_start <= start and end <= s.old_end
                   for s in shown):
            name = f"L{start}" if start == end else f"L{start}-L{end}"
            ctx.error(f"'{name}' of the 'file:' line is outside the lines its sections show "
                      f"({spans}); expected the header to name lines among them", hunk.line)


def check_applies(ctx: PageContext, proposal: Proposal) -> str | None:
    """Compare removed and context lines with the pinned commit, as `git apply --check` would;
    each line that differs is an error at its own line.

    Returns None when there is nothing to check, "" when it applies, or what does not match.
    """
    if ctx.source is None:
        return None
    checked, wrong = False, 0
    for hunk in proposal.hunks:
        ref = hunk.file_ref
        checked = checked or hunk.creates  # the commit has no such file (see _new_file)
        before = wrong
        for section in hunk.sections:
            if ref is None or section.old_start is None:
                continue
            old = [dl for dl in section.lines if dl.old is not None]
            found = ctx.source.compare(ref.commit, ref.path, [(dl.old or 0, dl.text) for dl in old])
            checked = checked or found is not None
            made = made_in(ctx, hunk, section, applies=not found) if found is not None else None
            if made is not None and not found:
                wrong += 1
                ctx.error(f"the lines this hunk adds already stand at {made} of {ref.path} at "
                          f"{ref.commit[:7]}, beside where it applies "
                          f"({lines_text(section.old_start, section.old_end)}): applied, it would "
                          "add them again; the page proposes what the commit has: rewrite it, "
                          f"or drop the proposal{shown_as_made(ctx, ref.path, made)}",
                          section.line)
                continue
            if made is not None:  # one error for the section, not one per line
                wrong += 1
                ctx.error(f"the proposed change is made at {ref.commit[:7]}: {made} of {ref.path} "
                          "read as this hunk proposes; the page proposes what the PR now does: "
                          f"rewrite it, or drop the proposal{shown_as_made(ctx, ref.path, made)}",
                          section.line)
                continue
            if found and (moved := _moved(ctx, hunk, section, [dl.text for dl in old])):
                wrong += 1
                ctx.error(moved, section.line)
                continue
            by_number = {dl.old: dl for dl in old}
            for number, actual in found or ():
                wrong += 1
                ctx.error(f"the proposed change does not apply at {ref.commit[:7]}: line {number} "
                          f"of {ref.path} {_difference(actual, by_number[number].text)}",
                          by_number[number].line)
        hunk.fits = wrong == before
    if wrong:
        return f"{wrong} line(s) differ from the file"
    return "" if checked else None


def shown_as_made(ctx: PageContext, path: str, made: str) -> str:
    """How a page shows a change the PR made, where it can (a pr-diff needs pr.yml's base)."""
    if ctx.pr is None or not ctx.pr.base:
        return ""
    return f" (a pr-diff block of [[{path}:{made.replace('L', '')}]] shows the PR's own change)"


def made_in(ctx: PageContext, hunk: Hunk, section: Section, applies: bool = False) -> str | None:
    """Where the hunk's file holds what `section` proposes, near where it would put it
    (see hunks.made_at; or, when it `applies`, touching it: hunks.made_beside) and in the
    definition its header names, as 'L755-L759'; None when it does not."""
    ref = hunk.file_ref
    assert ctx.source is not None and ref is not None
    lines = ctx.source.lines(ref.commit, ref.path)
    if not lines or section.new_start is None or not any(dl.kind in "+-" for dl in section.lines):
        return None
    rows = [(dl.kind, dl.text) for dl in section.lines if dl.kind in " +-"]
    comments = comment_lines(ref.path, ctx.config.languages, ctx.code_store, lines)
    if not applies:  # near where it would put them, as far as lines above may move it
        made = made_at(lines, rows, section.new_start, len(section.lines), comments)
    elif section.old_start is not None and section.old_count is not None:
        made = made_beside(lines, rows, section.old_start, section.old_end, comments)
    else:
        return None
    if made is None or not named_holds(ctx.source, ref.commit, ref.path, hunk.symbol, made,
                                       ctx.code_store, ctx.config.languages):
        return None  # (lines like them in another function are not the change)
    return lines_text(*made)


MOVED_SHOWN = 3  # places a section's lines may stand at and still be named


def _moved(ctx: PageContext, hunk: Hunk, section: Section, old: list[str]) -> str | None:
    """When the old side of `section` stands whole elsewhere in its file (its '@@' line
    numbers it wrongly: counted by hand, or the file moved on), the error that says where
    and what to write, as `patch` finds a hunk at an offset; None when it stands nowhere
    else, or in more places than can be told apart."""
    ref, start = hunk.file_ref, section.old_start
    assert ctx.source is not None and ref is not None and start is not None
    places = sorted(_standing(ctx.source.lines(ref.commit, ref.path) or [], old),
                    key=lambda i: abs(i + 1 - start))
    if not places or len(places) > MOVED_SHOWN:
        return None
    shift = places[0] + 1 - start
    said = f"-{start},{section.old_count} +{section.new_start},{section.new_count}"
    wanted = f"-{start + shift},{section.old_count} +{(section.new_start or 0) + shift},{section.new_count}"
    where = ", ".join(lines_text(i + 1, i + len(old)) for i in places)
    if len(places) == 1:
        where += f" ({abs(shift)} line{'s' * (abs(shift) != 1)} {'below' if shift > 0 else 'above'})"
        wanted += " @@', or no '@@' line (the section is then found in the file)"
    else:
        wanted += " @@' for the nearest, or the '@@' of another"
    return (f"the proposed change does not apply at {ref.commit[:7]}: '@@ {said} @@' puts it at "
            f"{lines_text(start, section.old_end)} of {ref.path}, but its removed and context "
            f"lines stand at {where}; expected '@@ {wanted}")


def _difference(actual: str | None, wanted: str) -> str:
    """How line `actual` of the file differs from the page's `wanted`: what each reads; or,
    when only their whitespace differs (a tab where the page has spaces: pasted code, an
    editor), where and how, since the two read alike."""
    if actual is None:
        return f"reads the end of the file, not '{wanted.strip()}'"
    if actual.split() != wanted.split():
        return f"reads '{actual.strip()}', not '{wanted.strip()}'"
    text = actual.strip()
    indents = (_spaces(actual[:len(actual) - len(actual.lstrip())]),
               _spaces(wanted[:len(wanted) - len(wanted.lstrip())]))
    if indents[0] != indents[1]:
        return (f"'{text}' is indented with {indents[0]}, not {indents[1]} as on the page; "
                "expected the file's whitespace")
    ends = (_spaces(actual[len(actual.rstrip()):]), _spaces(wanted[len(wanted.rstrip()):]))
    if ends[0] != ends[1]:
        return (f"'{text}' ends with {ends[0]}, not {ends[1]} as on the page; expected the "
                "file's whitespace")
    return (f"reads '{_visible(text)}', not '{_visible(wanted.strip())}' as on the page "
            "(· a space, → a tab); expected the file's whitespace")


def _spaces(run: str) -> str:
    """'2 tabs', '4 spaces', '1 tab and 2 spaces', '1 U+00A0', 'nothing': a run of
    whitespace in words."""
    names = {"\t": "tab", " ": "space"}
    counts = {c: run.count(c) for c in sorted(set(run), key=lambda c: (c not in names, c))}
    words = [f"{n} {names[c]}{'s' if n > 1 else ''}" if c in names else f"{n} U+{ord(c):04X}"
             for c, n in counts.items()]
    return " and ".join(words) or "nothing"


def _visible(text: str) -> str:
    """`text` with its whitespace shown: · a space, → a tab, <U+00A0> any other."""
    shown = text.replace(" ", "·").replace("\t", "→")
    return re.sub(r"\s", lambda m: f"<U+{ord(m[0]):04X}>", shown)
