"""Claims that carry their proof: what a page concludes from the code, counted at the
pinned commit when the page is built, shown with every site it counted.

    ```claim
    id: callers                          (optional: [[claim:callers]] writes its count)
    says: every training loop passes a wait function
    count: all                           (N: exactly N; all: every match has `where`; none)
    pattern: save_checkpoint($$$ARGS)    (an ast-grep pattern; or `text:` a literal)
    where: wait_fn=                      (optional: the text a counted match holds)
    inside: with self._lock: $$$         (optional: code a counted match stands inside)
    in: src/ tests/helpers.py            (optional: paths, folders, globs ('*.py'); '!' leaves out)
    at: base                             (optional: head, base or a SHA; default head)
    ```

A claim the code contradicts is an error at its `count:` line, with the sites found.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import textwrap
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import jinja2
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markupsafe import Markup, escape

from ..code_host import fill
from ..code_index import (
    PATTERN_HINTS,
    READ,
    VERSION,
    Match,
    ParseError,
    counts_in,
    grammar_of,
    language_of,
    literal_of,
    matches,
    misread,
    pattern_reads,
    unmatched,
    unread_at,
    uses,
)
from ..context import PageContext, context_of
from ..definitions import lines_text
from ..filetypes import code_lexer
from ..names import path_written
from ..submodules import holding
from ..suggest import meant
from . import block_renderer, fence_parser
from .refs import definitions_named, paths_named, permalink, unlisted

KEYS = {"id", "says", "count", "pattern", "text", "where", "inside", "in", "at"}
FIELD = re.compile(rf"^(?P<key>{'|'.join(sorted(KEYS))})\s*:[ \t]?(?P<value>.*?)\s*$")
# The fields that are literal texts: after the one space that follows the colon, a space
# is the text's (`text:  +` counts ' +', a regular expression's space before its '+').
LITERAL = {"text", "where"}
BLOCKS = {"pattern", "inside"}  # the fields that may be written as a block of lines
ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
# The scopes of `in:`, apart by spaces or commas; a name in backticks may hold spaces, as a
# reference's does (`Test.kt::`rejects odd length``), and an overload's parameters commas
# (`Client.java::send(int,long)`).
SCOPES = re.compile(r"(?:`[^`\n]*+`|\([^()\s`]*+\)|[^\s,`])++")
SHOWN_IN_ERRORS = 10  # sites an error lists before "and N more"
SHOWN_IN_MISSES = 5  # lines, each with its code, a count that fell short lists (see _missed)


@dataclass(frozen=True)
class ClaimSite:
    """One match: where it is, its line of code, and whether the PR changes its file."""

    path: str
    line: int
    code: str
    url: str
    counted: bool
    untouched: bool  # the PR does not change this file (only known with the PR's base)
    holds: bool = True  # it holds the claim's `where` (or there is none)
    stands: bool = True  # it stands inside the claim's `inside` (or there is none)
    mark: tuple[int, int] | None = None  # where in `code` the match is, when not all of it


@dataclass
class Claim:
    says: str
    count: str  # "all", "none" or a number, as written
    line: int  # the block's first line
    lines: dict[str, int] = field(default_factory=dict)  # each field's line
    id: str | None = None
    pattern: str | None = None
    text: str | None = None
    where: str | None = None
    scopes: tuple[str, ...] = ()
    at: str = "head"
    inside: str | None = None
    commit: str | None = None  # the full SHA it was counted at; None: not checked
    sites: list[ClaimSite] = field(default_factory=list)
    read: int = 0  # the files it was counted in (a pattern: those a grammar reads)
    # a definition `in:` names: the lines of each definition of that name, and their link
    scope_links: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    refused: set[str] = field(default_factory=set)  # languages ast-grep did not read it in
    contradicted: bool = False  # counted, and the code says otherwise (an error said why)
    # files of code in its scope no grammar reads that hold its word, each with its language
    unread_code: tuple[tuple[str, str], ...] = ()

    @property
    def counted(self) -> int:
        return sum(1 for s in self.sites if s.counted)

    def condition(self, form: str, *, where: bool = True, inside: bool = True) -> str:
        """What a counted match is (its `where`, its `inside`: both, or one), as a verb of
        `form`: 'one' ("holds 'x' inside 'P'", "stands inside 'P'"), 'many' ('hold') or
        'ing' ('holding'); '' for a claim that counts every match."""
        holds, stands = {"one": ("holds", "stands"), "many": ("hold", "stand"),
                         "ing": ("holding", "standing")}[form]
        said = f"{holds} '{self.where}'" if self.where is not None and where else ""
        if self.inside is not None and inside:
            said += f" inside '{self.inside}'" if said else f"{stands} inside '{self.inside}'"
        return said

    @property
    def included(self) -> list[str]:
        """What `in:` names to count in (nothing: the whole tree)."""
        return [s for s in self.scopes if not s.startswith("!")]

    @property
    def left_out(self) -> list[str]:
        """What `in:` leaves out (its `!` scopes, without the `!`)."""
        return [s[1:] for s in self.scopes if s.startswith("!")]

    @property
    def shown_count(self) -> str:
        """The number a sentence quotes: what was counted, else what the claim says."""
        if self.commit is not None:
            return str(self.counted)
        return {"all": "all", "none": "no"}.get(self.count, self.count)


def parse_claim(ctx: PageContext, lines: list[str], first: int, *,
                contradicted: bool = False) -> Claim | None:
    """A claim block: its fields checked, then counted at its commit when the code is there;
    None when it has an error, but, with `contradicted`, one counted that does not hold
    (the drift notice lists what it counts at each head)."""
    check = ctx.problems.checkpoint()
    fields = read_fields(lines)
    for i, text, like in fields.unread:
        hint = f"did you mean '{like}:'? " if like else ""
        ctx.error(f"'{text}' is not a line of a claim; {hint}expected 'says:', 'count:', "
                  "'pattern:' or 'text:', and optionally 'where:', 'inside:', 'in:', 'at:', "
                  "'id:'", first + i)
    for i, key in fields.twice:
        ctx.error(f"'{key}:' is given twice in this claim", first + i)
    stood = {like for _, _, like in fields.unread if like}  # told of: not also missing
    claim = _claim(ctx, fields.values, {k: first + i for k, i in fields.where.items()},
                   first - 1, stood)
    if claim is None or check.failed:
        return None
    if ctx.source is not None:
        _count(ctx, claim)
    return None if check.failed and not (contradicted and claim.contradicted) else claim


@dataclass
class Fields:
    """A claim block's lines read: each field's value and line (of the block's lines), the
    lines that are no field (each with the field it is like, which it stands for: a
    mistyped 'cou: 2' is 'count: 2'), and the fields given twice."""

    values: dict[str, str] = field(default_factory=dict)
    where: dict[str, int] = field(default_factory=dict)
    unread: list[tuple[int, str, str | None]] = field(default_factory=list)
    twice: list[tuple[int, str]] = field(default_factory=list)


def read_fields(lines: list[str]) -> Fields:
    """The fields of a claim block's `lines` (see Fields). A pattern of code that needs
    its lines (Python's `try:` with its `except`, Ruby's `begin` with its `rescue`) is
    written as YAML writes a literal block, and as ast-grep's rules write one: `pattern: |`
    (or `inside: |`), then its lines, each indented, their common indentation left out."""
    fields, others = Fields(), []
    block: list[str] | None = None  # the lines of the block being read
    key = ""  # the field it is the value of
    for i, raw in enumerate(lines):
        if block is not None and (not raw.strip() or raw[:1] in " \t"):
            block.append(raw)
            fields.values[key] = textwrap.dedent("\n".join(block)).strip("\n")
            continue
        block = None
        m = FIELD.match(raw)
        if not raw.strip():
            continue
        if m and m["key"] in BLOCKS and m["value"] in ("|", "|-", "|+") \
                and m["key"] not in fields.values:  # (YAML's chomping: the same here)
            key, block = m["key"], []
            fields.values[key], fields.where[key] = "", i
        elif not m:
            others.append((i, raw.strip()))
        elif m["key"] in fields.values:
            fields.twice.append((i, m["key"]))
        else:
            value = m["value"] if m["key"] in LITERAL else m["value"].lstrip()
            fields.values[m["key"]], fields.where[m["key"]] = value, i
    for i, text in others:  # 'cout: 1', 'nt: all', 'patt: x', 'count 2' (its colon lost)
        word, _, value = text.partition(":") if ":" in text else text.partition(" ")
        word, missing = word.strip(), KEYS - set(fields.values)
        cut = [key for key in missing if len(word) > 1 and (key.startswith(word)
                                                             or key.endswith(word))]
        like = meant(word, missing) or (cut[0] if len(cut) == 1 else None)
        fields.unread.append((i, text, like))
        if like and value.strip():  # (a word alone stands for no value)
            fields.values[like], fields.where[like] = value.strip(), i
    return fields


# What a field that is given must hold, said when it is empty.
EMPTY = {"pattern": "an ast-grep pattern after it, or its lines after 'pattern: |', each "
                    "indented",
         "inside": "an ast-grep pattern after it, or its lines after 'inside: |', each "
                   "indented",
         "where": "a text a counted match holds", "text": "a text to count lines of"}


def _claim(ctx: PageContext, values: dict[str, str], where: dict[str, int],
           line: int, stood: set[str]) -> Claim | None:
    for key in ("says", "count"):
        if not values.get(key) and key not in stood:
            ctx.error(f"a claim needs '{key}:'", line)
    if ("pattern" in values) == ("text" in values) and not {"pattern", "text"} & stood:
        ctx.error("a claim needs one of 'pattern:' (an ast-grep pattern) or 'text:' (a "
                  "literal text)", line)
    count = values.get("count", "")
    if count and count not in ("all", "none") and not re.fullmatch(r"\d{1,9}", count):
        ctx.error(f"'count: {count}' is not a count; expected a number, 'all' or 'none'",
                  where["count"])
    if count == "all" and not values.get("where") and not values.get("inside"):
        ctx.error("'count: all' says every match holds something: give it as 'where:' (a "
                  "text) or 'inside:' (code it stands inside)", where["count"])
    for key, wanted in EMPTY.items():  # (an `inside: |` with no lines was no inside at all)
        if key in values and not values[key].strip():
            ctx.error(f"'{key}:' is empty; expected {wanted}", where[key])
    if values.get("inside") and "text" in values:
        ctx.error("'inside:' needs a 'pattern:': a 'text:' is matched line by line, not read "
                  "as code; count with 'pattern:', or say the text with 'where:'", where["inside"])
    if "id" in values and not ID.match(values["id"]):
        ctx.error(f"'id: {values['id']}' is not an id; expected lower-case letters, digits "
                  "and '-'", where["id"])
    if not values.get("says") or not count:
        return None
    return Claim(values["says"], count, line, where, values.get("id"), values.get("pattern"),
                 values.get("text"), values.get("where") or None,
                 tuple(map(path_written, SCOPES.findall(values.get("in", "")))),
                 values.get("at", "head"), values.get("inside") or None)


def _count(ctx: PageContext, claim: Claim) -> None:
    """Find every match at the claim's commit; an error when the code contradicts it."""
    assert ctx.source is not None and ctx.pr is not None
    pinned = {"head": ctx.pr.head, "base": ctx.pr.base}.get(claim.at, claim.at)
    full = ctx.source.commit(pinned) if pinned else None
    if full is None:
        line = claim.lines.get("at", claim.line)
        if claim.at == "base" and not ctx.pr.base:
            ctx.error(f"'at: base' pins the PR's base, but {ctx.pr.path.name} has no 'base' "
                      "commit", line)
        else:
            ctx.error(f"'at: {claim.at}' names no commit of the code here; run 'site-gen "
                      "fetch' (it fetches every commit the pages pin)", line)
        return
    files = _files(ctx, claim, full)
    spans = _definitions(ctx, claim, full) if files is not None else None
    if files is None or spans is None:
        return
    read_as: set[str] = set()  # the languages a pattern is read in
    if claim.pattern is not None:  # only what a grammar reads (by its name) is read at all
        languages = {p: language_of(p, ctx.config.languages) for p in files}
        claim.unread_code = _unread_code(ctx, claim, full, [p for p in files if languages[p] is None])
        data = any(languages[p] == "yaml" for p in files)  # (a value alone is not counted)
        files = [p for p in files if (language := languages[p]) is not None
                 and counts_in(language, claim.pattern)]
        read_as = {str(languages[p]) for p in files}
        if not _readable(ctx, claim, files, full, read_as, data):
            return
    changed = ctx.source.changed_files(ctx.pr.base, ctx.pr.head) if ctx.pr.base else None
    found = _found(ctx, claim, full, files)
    if found is None:
        return  # a file it could not count in: its count is not known
    found = [(path, m) for path, m in found if _kept(spans, path, m.line)]
    claim.commit, claim.read = full, len(files)
    marks = _marks(claim, found)
    claim.sites = [ClaimSite(path, m.line, m.code.strip(), permalink(ctx, path, full, m.line, m.line),
                             held and m.inside, changed is not None and path not in changed,
                             held, m.inside, mark)
                   for (path, m), mark in zip(found, marks, strict=True)
                   for held in [claim.where is None or claim.where in m.text]]
    if _unread(ctx, claim, read_as):
        return
    problem = _contradiction(claim)
    if problem:
        claim.contradicted = True
        problem += _quoted(claim) or _none_inside(claim) or _missed(ctx, claim, full, files,
                                                                     found, spans)
        ctx.error(f"the claim '{claim.says}' does not hold at {full[:7]}: {problem}",
                  claim.lines["count"])


def _marks(claim: Claim, found: list[tuple[str, Match]]) -> list[tuple[int, int] | None]:
    """Where in its line (as a site shows it, stripped) each match is: its text's first
    line (a `text:` claim's text), the second of two on one line after the first (rubocop's
    `node.method?(:define_method) || node.method?(...)` was two rows alike); None where it
    is the whole line or is not found in it."""
    seen: dict[tuple[str, int, str], int] = {}
    marks: list[tuple[int, int] | None] = []
    for path, m in found:
        code = m.code.strip()
        needle = claim.text if claim.text is not None else \
            (m.text.strip().splitlines() or [""])[0].strip()
        after = seen.get((path, m.line, needle), 0)
        at = code.find(needle, after) if needle else -1
        if at >= 0:
            seen[(path, m.line, needle)] = at + len(needle)
        marks.append((at, at + len(needle)) if at >= 0 and needle != code else None)
    return marks


# What a pattern of a language needs that its grammar asks of it, said when a pattern it
# cannot read whole matched nothing (see code_index.unread_at).
UNREAD_HINTS = {"ruby": " (a class's or a module's name is a constant in ruby, where a "
                        "metavariable reads as a variable's name: write the name, in a block "
                        "of lines, 'pattern: |' then 'class MethodName < Base', '$$$B', 'end' "
                        "indented, or count in a class by its name, 'in: file.rb::MethodName')"}


# What a pattern of a language that matches not even code written as it is may be written
# as instead (see code_index.unmatched).
UNMATCHED_HINTS = {
    "hcl": " (in hcl, a block whatever its body holds is written without braces, 'resource "
           "\"aws_subnet\" \"public\" $$$A', in 'inside:' too)",
    "dart": " (ast-grep matches a dart block statement by statement: '{ $$$B; }' matches a "
            "body of one statement; count in a function by its name, 'in: "
            "file.dart::Class.method')"}


def _unread(ctx: PageContext, claim: Claim, languages: set[str]) -> bool:
    """A `pattern:` that matched nothing (or an `inside:` that no match stands inside),
    which the grammar of a language it was read in cannot read whole, or which matches
    not even code written as it is (see code_index.unmatched): it matches no code, so any
    count would say nothing of the code (a `count: none` held). An error at its line,
    which says where the grammar stops reading it, or the code it did not match."""
    key, written = ("pattern", claim.pattern) if not claim.sites else ("inside", claim.inside)
    if written is None or (key == "inside" and any(s.stands for s in claim.sites)):
        return False
    for language in sorted(languages):
        at = unread_at(language, written)
        if at is not None:
            ctx.error(f"'{key}: {written}' matches nothing: ast-grep reads it as {language} "
                      f"with an error (at '{at}'), and what it cannot read matches no code; "
                      "expected code that parses as written, with a metavariable only where "
                      "a name or an expression may stand" + UNREAD_HINTS.get(language, ""),
                      claim.lines[key])
            return True
        witness = unmatched(language, written) if not _quoted(claim) else None
        if witness is not None:  # (quoted whole, it is said so: see _contradiction)
            code, how = witness
            shown = code.splitlines()[0] + (" ..." if "\n" in code.strip() else "")
            ctx.error(f"'{key}: {written}' matches nothing, not even code written as it is: "
                      f"ast-grep does not match it in '{shown}' ({how}, read as {language}), "
                      "for it reads the pattern as other code than a file's, so it matches no "
                      "code; expected the pattern closer to the code it counts (what a body "
                      "holds written out), a definition counted in by its name ('in: "
                      "file::Name'), or 'text:'" + UNMATCHED_HINTS.get(language, ""),
                      claim.lines[key])
            return True
    return False


def _none_inside(claim: Claim) -> str:
    """A word for a claim none of whose matches stands inside its `inside:`: a pattern of a
    definition matches only one written with the same modifiers and annotations (Java's
    `public InetAddress read(...)` no method marked `@Override`), and a definition is
    counted in by its name ('' when some match stands inside, or there is no `inside:`)."""
    if claim.inside is None or not claim.sites or any(s.stands for s in claim.sites):
        return ""
    return ("; none stands inside it: 'inside:' matches code as it is written (a "
            "definition by its name and each of its modifiers: Java's 'public static ...'); "
            "to count in a definition by its name, write 'in: file::Name'")


def _missed(ctx: PageContext, claim: Claim, commit: str, files: list[str],
            found: list[tuple[str, Match]], spans: Spans) -> str:
    """A word for a claim whose pattern matched fewer sites than its count: the other lines
    of its files where each word its first line writes stands as code (see
    code_index.uses), each with its code: where a site the author counted and the pattern
    did not match stands (Swift's `self.processNext()` for `processNext()`); '' when there
    is none."""
    if not claim.pattern or not claim.count.isdigit() or len(claim.sites) >= int(claim.count):
        return ""
    head = next(line for line in claim.pattern.splitlines() if line.strip())
    words = list(dict.fromkeys(w for w in re.findall(r"\$*[A-Za-z_]\w*", head)
                               if not w.startswith("$")))
    if not words:
        return ""
    key = "missed\n" + "\n".join([VERSION, commit, claim.pattern, *claim.scopes, *files,
                                    *map(str, sorted(ctx.config.languages.items()))])
    digest = hashlib.sha256(key.encode()).hexdigest()
    missed = ctx.code_store.get(digest) if ctx.code_store is not None else None
    if not (isinstance(missed, list) and all(isinstance(m, str) for m in missed)):
        missed = _unmatched_uses(ctx, commit, files, found, spans, words)
        if ctx.code_store is not None:
            ctx.code_store.put(digest, missed)
    if not missed:
        return ""
    said = " and ".join(filter(None, [", ".join(f"'{w}'" for w in words[:-1]), f"'{words[-1]}'"]))
    more = len(missed) - SHOWN_IN_MISSES
    return (f"; {'1 other line holds' if len(missed) == 1 else f'{len(missed)} other lines hold'}"
            f" {said} as code where the pattern matches nothing: "
            + ", ".join(missed[:SHOWN_IN_MISSES]) + (f" and {more} more" if more > 0 else ""))


def _unmatched_uses(ctx: PageContext, commit: str, files: list[str],
                    found: list[tuple[str, Match]], spans: Spans, words: list[str]) -> list[str]:
    """Each line of `files` (of those `spans` keep) where each of `words` stands as code
    and no match of `found` stands, as 'path:line 'code''."""
    assert ctx.source is not None
    matched = {(path, n) for path, m in found
               for n in range(m.line, m.line + m.text.count("\n") + 1)}
    missed = []
    for path in files:
        lines = ctx.source.lines(commit, path) or []
        language, code = grammar_of(path, ctx.config.languages, lines)
        if language is not None and all(any(w in line for line in code) for w in words):
            missed += [f"{path}:{n} '{_cut(lines[n - 1].strip())}'"
                       for n in sorted(uses(language, code, words))
                       if (path, n) not in matched and _kept(spans, path, n)]
    return missed


def _cut(code: str, width: int = 72) -> str:
    return code if len(code) <= width else code[:width - 1] + "…"


def _quoted(claim: Claim) -> str:
    """A word for a claim that does not hold when a field that matched nothing is written
    in quote marks, as YAML would quote it: a claim's lines are not YAML, so they are part
    of what it matches ('' if none is)."""
    if not claim.sites:  # what it matches matched nothing
        fields = [("text", claim.text), ("pattern", claim.pattern)]
    elif not any(site.counted for site in claim.sites):  # what it keeps kept nothing
        fields = [("inside", claim.inside), ("where", claim.where)]
    else:
        return ""
    for key, value in fields:
        if value and len(value) > 1 and value[0] == value[-1] in "\"'":
            return f"; the quotes are part of the {key}: write '{key}: {value[1:-1]}'"
    return ""


def _unread_code(ctx: PageContext, claim: Claim, commit: str,
                 paths: list[str]) -> tuple[tuple[str, str], ...]:
    """Of `paths`, files of the claim's scope that no grammar reads, those of code (by
    their names, as highlighting reads them: Cython's `.pyx`, Objective-C++'s `.mm`) that
    hold the pattern's word, each with its language: a match no count saw may stand there,
    which the block says (a `count: none` over a tree held where a `.pyx` file made the
    call)."""
    assert ctx.source is not None
    word = literal_of(claim.pattern or "")
    named = [p for p in paths if code_lexer(p, "")] if word else []
    ctx.source.read_many(commit, named)
    texts = {p: "\n".join(ctx.source.lines(commit, p) or []) for p in named}
    return tuple((p, language) for p, text in texts.items()
                 if word and word in text and (language := code_lexer(p, text)))


def _readable(ctx: PageContext, claim: Claim, files: list[str], full: str,
              languages: set[str], data: bool = False) -> bool:
    """Whether the claim's pattern has code to count in, `files`, the files of `in:` a
    grammar reads (in `languages`), and reads as it is written there (see
    code_index.misread); an error when not (`data`: YAML files were left out, the pattern
    being a lone value there: see counts_in)."""
    if not files:  # nothing to count in: any count but a match would hold
        named = f"'in: {', '.join(claim.scopes)}'" if claim.scopes else "the tree"
        yaml = (" (in YAML, a pattern that writes a key or an item, 'Enabled: $V' or '- uses: "
                "$A', not a value alone)") if data else ""
        ctx.error(f"{named} holds no file a grammar reads at {full[:7]}, so the pattern has "
                  f"nothing to count in; a pattern counts in code ({READ}){yaml}: write 'text:' "
                  "to count a literal in any file" + _quoted(claim),
                  claim.lines.get("in", claim.lines["pattern"]))
        return False
    for key, written in (("pattern", claim.pattern), ("inside", claim.inside)):
        why = next(filter(None, (misread(language, written or "")
                                 for language in sorted(languages))), None)
        if why is not None:
            ctx.error(f"'{key}: {written}' {why}", claim.lines[key])
            return False
    return True


def _found(ctx: PageContext, claim: Claim, commit: str,
           files: list[str]) -> list[tuple[str, Match]] | None:
    """Every match of the claim's query in `files` at `commit` (kept between builds: the
    code at a commit never changes); None when a file could not be counted."""
    assert ctx.source is not None
    # mkdocs.yml's `languages` may say which grammar parses a file
    key = "claim\n" + "\n".join([VERSION, commit, claim.pattern or "", claim.text or "",
                                   claim.inside or "", *files,
                                   *map(str, sorted(ctx.config.languages.items()))])
    digest = hashlib.sha256(key.encode()).hexdigest()
    held = ctx.code_store.get(digest) if ctx.code_store is not None else None
    if isinstance(held, list):
        with contextlib.suppress(TypeError, ValueError):
            return [(str(p), Match(int(n), str(c), str(t), bool(i))) for p, n, c, t, i in held]
    uncounted = ctx.problems.checkpoint()
    ctx.source.read_many(commit, files)
    found = [(path, m) for path in files for m in _matches_in(ctx, claim, commit, path)]
    if uncounted.failed:
        return None
    if ctx.code_store is not None:
        ctx.code_store.put(digest, [[p, m.line, m.code, m.text, m.inside] for p, m in found])
    return found


def _files(ctx: PageContext, claim: Claim, commit: str) -> list[str] | None:
    """The files `in:` names at `commit`, in the tree's order: each path or folder from the
    tree's root, each glob as .gitignore reads one (`*.py` at any depth, `src/**/*.ts`),
    less what a `!` names; the whole tree when `in:` only leaves out or is not given."""
    assert ctx.source is not None
    tree = ctx.source.tree(commit)
    chosen: set[str] = set()
    left_out: set[str] = set()
    for scope in claim.scopes:
        named, definition, _ = scope.removeprefix("!").partition("::")
        if definition and scope.startswith("!"):
            continue  # a definition left out: its file is still counted, less its lines
        inside = _file_named(ctx, named, tree) if definition else _named(named, tree)
        if definition and len(inside) != 1:
            ctx.error(f"'in: {scope}' names a definition, but {named} names " + (
                f"{len(inside)} files at commit {commit[:7]} ({', '.join(inside[:3])}"
                f"{' ...' if len(inside) > 3 else ''}); write more of the path" if inside else
                f"no file at commit {commit[:7]}; expected 'path/of/file.py::name', a file as "
                "a reference names one") + unlisted(ctx, commit), claim.lines["in"])
            return None
        if not inside:
            ctx.error(f"'in: {scope}' {_nothing_named(ctx, named, tree, commit)}",
                      claim.lines["in"])
            return None
        (left_out if scope.startswith("!") else chosen).update(inside)
    if not chosen:
        return [p for p in tree if p not in left_out]
    return [p for p in tree if p in chosen and p not in left_out]


GLOB = re.compile(r"[*?\[]")
Spans = dict[str, tuple[list[tuple[int, int]], list[tuple[int, int]]]]


COUNT_IN_THE_FILE = "count in its file instead, 'in: {path}', or in a definition that holds it"


def _definitions(ctx: PageContext, claim: Claim, commit: str) -> Spans | None:
    """For each file `in:` names a definition of (`context.go::ClientIP`), the lines of
    the definitions counted in and of those left out (`!`); None after an error."""
    spans: Spans = {}
    assert ctx.source is not None
    for scope in claim.scopes:
        written, _, name = scope.removeprefix("!").partition("::")
        paths = _file_named(ctx, written, ctx.source.tree(commit)) if name else []
        if len(paths) != 1:
            continue  # no name, or no one file (_files said so)
        found = definitions_named(ctx, paths[0], commit, name, f"'in: {scope}'",
                                  claim.lines["in"], shared=True, instead=COUNT_IN_THE_FILE)
        if found is None:
            return None
        spans.setdefault(paths[0], ([], []))[scope.startswith("!")].extend(found)
        claim.scope_links[scope.removeprefix("!")] = [
            (lines_text(a, b), permalink(ctx, paths[0], commit, a, b)) for a, b in found]
    return spans


def _file_named(ctx: PageContext, written: str, tree: Sequence[str]) -> list[str]:
    """The files a path before `::` names, as a reference's path names them: the path
    from the tree's root, else a tail of one of pr.yml's `files`, else of the tree's
    (`_config.py::create_ssl_context`)."""
    assert ctx.pr is not None
    path = written.strip("/")
    if path in tree:
        return [path]
    return paths_named(ctx.pr.files, tuple(tree), path)


def _kept(spans: Spans, path: str, line: int) -> bool:
    """Whether a match at `line` of `path` is counted: inside a definition `in:` names in
    that file (when it names one) and outside those it leaves out."""
    inside, outside = spans.get(path, ([], []))
    return (not inside or any(a <= line <= b for a, b in inside)) and not any(
        a <= line <= b for a, b in outside)


def _nothing_named(ctx: PageContext, scope: str, tree: Sequence[str], commit: str) -> str:
    """What an error says of a scope that names nothing: for a path, the submodule that
    holds it or the paths that end with it (`in:` reads a path from the tree's root, not by
    its tail as a reference does)."""
    if GLOB.search(scope):
        return f"matches no file at commit {commit[:7]}"
    assert ctx.source is not None and ctx.pr is not None
    sub = holding(ctx.source, commit, scope, ctx.config.code_host, ctx.pr.repo)
    if sub is not None:
        return (f"lies in the submodule {sub.path} ({sub.repo or sub.url} at {sub.commit[:7]}), "
                "another repository; a claim counts the files of this one")
    tail = "/" + scope.strip("/")
    ends = sorted({p[:p.index(tail + "/") + len(tail)] if tail + "/" in p else p
                   for p in tree if p.endswith(tail) or tail + "/" in p})
    said = f"names no file or folder at commit {commit[:7]}; expected a path from the tree's root"
    if ends:
        return f"{said}, such as {' or '.join(ends[:3])}{' ...' if len(ends) > 3 else ''}"
    return f"{said}, or a glob such as '*.py'"


def _named(scope: str, tree: Sequence[str]) -> list[str]:
    """The files of `tree` one scope of `in:` names (pathspec, for a glob, only then)."""
    if not GLOB.search(scope):
        path = scope.strip("/").removeprefix("./")
        if path in ("", "."):
            return list(tree)
        return [p for p in tree if p == path or p.startswith(path + "/")]
    import pathspec

    try:
        regex = pathspec.GitIgnoreSpec.from_lines([scope]).patterns[0].regex
    except ValueError:  # not a glob .gitignore could hold (a lone backslash): it names nothing
        return []
    return [p for p in tree if regex.match(p)] if regex is not None else []


def _matches_in(ctx: PageContext, claim: Claim, commit: str, path: str) -> list[Match]:
    assert ctx.source is not None
    if ctx.source.is_binary(commit, path):
        return []
    lines = ctx.source.lines(commit, path) or []
    if claim.text is not None:
        return [Match(n, line, line) for n, line in enumerate(lines, 1) if claim.text in line]
    assert claim.pattern is not None
    language, code = grammar_of(path, ctx.config.languages, lines)
    literal = literal_of(claim.pattern)
    if language is None or (literal and not any(literal in line for line in code)):
        return []  # no grammar reads it, or it cannot hold a match: not parsed at all
    try:
        return matches(language, code, claim.pattern, claim.inside)
    except ParseError as exc:
        ctx.error(f"{path} {exc}, so the claim cannot be counted there; narrow 'in:' or "
                  "count with 'text:'", claim.lines["pattern"])
    except ValueError:
        if language in claim.refused:
            return []  # told once, at the first file of the language
        claim.refused.add(language)
        field = "pattern" if claim.inside is None or pattern_reads(language, claim.inside) \
            else "inside"  # which of the two ast-grep could not read
        written = claim.inside if field == "inside" else claim.pattern
        ctx.error(f"'{field}: {written}' is not an ast-grep pattern of {language} "
                  f"(for {path}); expected code that reads whole where a function's body has "
                  "a statement, or a clause of one ('catch (...) {...}', 'case 1:'), not a "
                  "part of a declaration, $X for one node and $$$X for any number"
                  + PATTERN_HINTS.get(language, ""), claim.lines[field])
    return []


def _contradiction(claim: Claim) -> str | None:
    """What the code says against the claim, with the sites; None when it holds."""
    counted = [s for s in claim.sites if s.counted]
    if claim.count == "all":
        missing = [s for s in claim.sites if not s.counted]
        if not claim.sites:
            return "nothing matches at all"
        if missing:
            return f"{len(missing)} of {len(claim.sites)} matches {_wanting(claim, missing)}"
        return None
    if claim.count == "none":
        said = claim.condition("one")
        if said and not claim.sites:  # as count: all, it would say nothing
            return (f"nothing matches at all, so that none {said} says nothing; to claim that "
                    "nothing matches, leave " + ("'where:' and 'inside:'" if claim.where and
                                                 claim.inside else "'where:'" if claim.where
                                                 else "'inside:'") + " out")
        matches = "1 match" if len(counted) == 1 else f"{len(counted)} matches"
        if said:
            matches += " " + claim.condition("one" if len(counted) == 1 else "many")
        return f"{matches}: {listed(counted)}" if counted else None
    if len(counted) != int(claim.count):
        held = (f" {claim.condition('ing')} (of {len(claim.sites)} matches)"
                if len(counted) < len(claim.sites) else "")
        return (f"counted {len(counted)}{held}, not {claim.count}"
                + (f": {listed(counted)}" if counted else ""))
    return None


def _wanting(claim: Claim, missing: list[ClaimSite]) -> str:
    """What the `missing` sites of a claim with `count: all` do not do, and where; with
    both `where:` and `inside:`, each by what it wants (a match that holds the text "does
    not stand inside 'P'"), not both said of every one."""
    wants = [(claim.condition("many", inside=False), [s for s in missing if s.stands]),
             (claim.condition("many", where=False), [s for s in missing if s.holds]),
             (f"hold '{claim.where}' or stand inside '{claim.inside}'",
              [s for s in missing if not s.holds and not s.stands])]
    told = [(f"{'does' if len(sites) == 1 else 'do'} not {said}: {listed(sites)}", len(sites))
            for said, sites in wants if sites]
    if len(told) == 1:
        return told[0][0]
    return "are not counted: " + "; ".join(f"{n} {said}" for said, n in told)


def listed(sites: list[ClaimSite]) -> str:
    """Where `sites` are, as 'path:line', several on one line said once ('m.rb:129 (2
    matches)'), the first SHOWN_IN_ERRORS lines and how many more."""
    lines = Counter(f"{s.path}:{s.line}" for s in sites)  # (in the sites' order)
    shown = ", ".join(f"{at} ({n} matches)" if n > 1 else at
                      for at, n in list(lines.items())[:SHOWN_IN_ERRORS])
    more = len(lines) - SHOWN_IN_ERRORS
    return shown + (f" and {more} more" if more > 0 else "")


INLINE = re.compile(r"^\s*claim:(?P<id>[^\s\]]*)\s*$")


def _inline_counts(state: StateCore) -> None:
    """`[[claim:ID]]` in prose: the count of the page's claim ID, linked to it (before code
    references are resolved, as it is not one)."""
    ctx = context_of(state.env)
    claims = {token.meta["model"].id: token.meta["model"] for token in state.tokens
              if token.type == "claim_block" and token.meta["model"].id}
    failed = {fields.values["id"] for token in state.tokens  # their errors are told: not
              if token.type == "fence" and token.info.strip() == "claim"  # again here
              for fields in [read_fields(token.content.splitlines())] if "id" in fields.values}
    for block in state.tokens:
        for token in block.children or ():
            m = INLINE.match(token.content) if token.type == "code_ref" else None
            if m is None:
                continue
            token.type = "claim_count"
            token.meta["claim"] = claims.get(m["id"])
            if token.meta["claim"] is None and m["id"] not in failed:
                ids = ", ".join(sorted({*claims, *failed})) or "none"
                ctx.error(f"'[[claim:{m['id']}]]' names no claim of this page; expected the "
                          f"id of a claim block (ids here: {ids})",
                          ctx.line(block.map, token.meta["offset"]))


SITES_SHOWN = 10


def shown_sites(sites: int) -> int:
    """How many of a claim's `sites` its block lists before folding the rest under "N
    more sites" (a claim over a whole library may count a hundred; print unfolds them):
    all of them, when no more than two would be folded."""
    return sites if sites <= SITES_SHOWN + 2 else SITES_SHOWN


def claim_plugin(md: MarkdownIt, *, templates: jinja2.Environment) -> None:
    """Register the ```` ```claim ```` block (templates/blocks/claim.html)."""
    template = templates.get_template("blocks/claim.html")

    def render(token: Token, env: dict[str, Any]) -> str:
        claim: Claim = token.meta["model"]
        ctx = context_of(env)
        link = (fill(ctx.config.code_host.commit, repo=ctx.pr.repo, commit=claim.commit)
                if ctx.pr and claim.commit else None)
        return template.render(claim=claim, anchor=f"claim-{claim.id}" if claim.id else None,
                               commit_link=link, shown_sites=shown_sites(len(claim.sites)),
                               unread_word=literal_of(claim.pattern or "") or "")

    def count(token: Token, env: dict[str, Any]) -> str:
        claim: Claim | None = token.meta.get("claim")
        if claim is None:
            return str(escape(f"[[{token.content}]]"))
        checked = f"counted at {claim.commit[:7]}" if claim.commit else "not checked"
        return str(Markup('<a class="claim-ref" href="#claim-{}" title="{} ({})">{}</a>').format(
            claim.id, claim.says, checked, claim.shown_count))

    fence_parser(md, "claim", "claim_block", parse_claim)
    block_renderer(md, "claim_block", render)
    md.core.ruler.before("code_ref_resolve", "claim_counts", _inline_counts)
    block_renderer(md, "claim_count", count)
