"""Pinned code references: `[[checkpoint.py:489]]` becomes a permalink at the PR head.

Forms (inside double square brackets):

    [[path:489]]  [[path:57-59]]  [[path L57-L59]]  [[path]]
    ... then optionally  @2f6b955 or @base   "quoted code"   |label

A quote may hold `"` and `\\` escaped with a backslash (`"a \"b\""`), and `|` as it is (in a
table's cell, as `\\|`, the label's bar too: markdown reads `\\|` as `|`). A reference may run
over a line break inside a paragraph (the break reads as a space).
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import jinja2
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markupsafe import Markup, escape

from ..code_host import fill
from ..code_index import SYMBOL_LANGUAGES, Index, index_of, language_of
from ..context import PageContext, context_of
from ..definitions import assigned_at, chosen, clauses, nearest_names, overloads, signature
from ..errors import UNCHECKED
from ..highlight import highlighted_lines
from ..names import REPO_PATH, SHA, SYMLINK, path_written, reference_at
from ..submodules import Submodule, holding, reader_of
from . import block_renderer, find_after, line_offset

if TYPE_CHECKING:
    from ..git_reader import SourceReader

# Possessive quantifiers (*+, ++): no backtracking, so any text is matched in linear time.
# A path may hold an '@' that begins one of its parts (`packages/@scope/pkg/index.ts`, as
# npm's scoped packages are laid out); any other '@' begins the commit. The label's bar may
# be written `\|`, as a table's cell must (GFM), and is read so anywhere (markdown reads
# `\|` as `|`): a path, a symbol or a commit ends before it.
NAME_CHAR = r'(?:[^\s:@"|\\]|\\(?![\\|]))'
REF = re.compile(
    rf'^\s*+(?P<target>(?P<path>(?:{NAME_CHAR}|(?<![^\s/])@)++)'
    rf'(?:::(?P<symbol>(?:\([^\s()@"]++\)|`[^`\n]++`|{NAME_CHAR})++(?:::{NAME_CHAR}++)*+)'
    r'|(?::|\s++L)(?P<start>\d++)(?:-L?(?P<end>\d++))?)?)'
    r"(?:@(?P<commit>[^\s\"|\\]++))?"
    r'(?:\s++"(?P<quote>(?:[^"\\]|\\.)*+)")?'
    r"\s*+(?:\\*+\|(?P<label>(?:[^|\[]|\[(?!\[))*+))?$"  # no `[[`: it begins another
)
# Inside a quote, `\"`, `\\` and a table cell's `\|` are escapes; any other backslash is
# the code's own (PHP's `GuzzleHttp\Middleware`, C's `"\n"`).
ESCAPE = re.compile(r'\\(["\\|])')
MAX_LINE = 999_999_999  # no file has more lines; int() of a longer number would fail
SYNTAX = ("[[file:line]], [[file:start-end]], [[file Lstart-Lend]] or [[file::symbol]], then "
          "optionally @commit, \"quoted code\" and |label")


@dataclass(frozen=True)
class CodeRef:
    """A resolved reference: the full path, the lines, and the commit it is pinned to."""

    path: str
    start: int | None
    end: int | None
    commit: str
    label: str
    custom_label: bool
    url: str
    repo: str | None = None  # another repository's (a submodule's); None: the PR's
    within: str = ""  # that submodule's folder in the PR's tree

    @property
    def lines_text(self) -> str:
        if self.start is None:
            return ""
        if self.end is None or self.end == self.start:
            return f"L{self.start}"
        return f"L{self.start}-L{self.end}"

    @property
    def title(self) -> str:
        where = f"{self.path} {self.lines_text}".strip()
        return f"{where} at {self.commit[:7]}" + (f" in {self.repo}" if self.repo else "")


def resolve(ctx: PageContext, text: str, line: int | None,
            written: str | None = None) -> CodeRef | None:
    """Parse and resolve one reference; on a problem record it in `ctx` and return None."""
    # Messages quote what the author wrote: the reference, or the line it was made from.
    what = written or f"'[[{_short(text)}]]'"
    m = REF.match(text)
    if not m:
        meant = _did_you_mean(text, ctx.pr.repo if ctx.pr else "")
        ctx.error(f"malformed code reference {what}; expected {SYNTAX}{meant}", line)
        return None
    if any(len(m[g] or "") > 9 for g in ("start", "end")):
        ctx.error(f"line number in {what} is too large; expected at most {MAX_LINE:,}",
                  line)
        return None
    start = int(m["start"]) if m["start"] else None
    end = int(m["end"]) if m["end"] else start
    if start == 0:
        ctx.error(f"line 0 in {what} does not exist; expected a line number from 1, as "
                  "GitHub numbers them", line)
        return None
    if start is not None and (end is None or end < start):
        ctx.error(f"line range {start}-{end} in {what} is empty; expected the first line "
                  "not after the last", line)
        return None
    commit = _commit(ctx, m["commit"], what, line, _in_path(m))
    if commit is None:
        return None
    path = _path(ctx, path_written(m["path"]), commit, what, line)
    if path is None:
        return None
    if isinstance(path, Folder):
        return _folder_ref(ctx, m, path.path, commit, what, line)
    if not isinstance(path, str):  # a Submodule
        return _in_submodule(ctx, m, path, what, line)
    if m["symbol"] and ctx.source is not None and "⟨" not in m["symbol"]:  # ⟨…⟩: new's
        found = definition_lines(ctx, path, commit, m["symbol"], what, line)
        if found is None:
            return None
        start, end = found
    if ctx.source is not None:
        quote = ESCAPE.sub(r"\1", m["quote"]) if m["quote"] else None
        verified = _verify(ctx, path, commit, start, end, quote, what, line)
        if verified is None:
            return None
        commit = verified
    custom = (m["label"] or "").strip()
    return CodeRef(path, start, end, commit, custom or _written(m), bool(custom),
                   permalink(ctx, path, commit, start, end))


def _written(m: re.Match[str]) -> str:
    """A reference as its text shows it: what it cites, and where when not at the head
    (`gone.py:2@base`, `core.py:7@1a2b3c4`), its quote left out."""
    return path_written(m["target"]) + (f"@{m['commit']}" if m["commit"] else "")


def permalink(ctx: PageContext, path: str, commit: str, start: int | None,
              end: int | None, repo: str | None = None) -> str:
    """The host's permalink for `path` at `commit`, lines `start`-`end` (in `repo`, a
    submodule's, else the PR's)."""
    host = ctx.config.code_host
    lines = ""
    if start is not None:
        lines = fill(host.line if end in (None, start) else host.lines, start=start, end=end)
        if host.rendered(path):  # a markdown file, a notebook: its text, the lines marked
            lines = host.plain + lines
    assert ctx.pr is not None
    return fill(host.permalink, repo=repo or ctx.pr.repo, commit=commit,
                path=quote(path, PATH_SAFE), lines=lines)


# What a path keeps as it is in a permalink: what a URL's path may hold besides letters and
# digits (RFC 3986); '#', '?', '%' and spaces are escaped (`docs/C%23.md`), as the host does.
PATH_SAFE = "/-._~!$&'()*+,;=:@[]"


def _in_path(m: re.Match[str]) -> str:
    """'; did you mean ...?' with the reference's '@' written as a path writes it (%40),
    when what follows it reads as more of the path (a dot, a slash, a line or a name:
    `Package@swift-6.0.swift:3`), not as a commit; else ''."""
    after, name = m["commit"] or "", m["path"].rsplit("/", 1)[-1]
    if m["start"] or m["symbol"] or not re.search(r"[/:]" if "." in name else r"[./:]", after):
        return ""  # a commit after a file's name, lines or symbol (`a.py:3@v1.2`, `a.py@v1.2`)
    at = m.start("commit") - 1
    meant = (m.string[:at] + "%40" + m.string[at + 1:]).strip()
    return f"; a path holding '@' writes it as %40; did you mean '[[{_short(meant)}]]'?"


def _commit(ctx: PageContext, given: str | None, what: str, line: int | None,
            hint: str = "") -> str | None:
    pr = ctx.pr
    if pr is None:
        return None
    if given is None:
        return pr.head
    if given == "base":
        if pr.base is None:
            ctx.error(f"{what} pins @base, but {pr.path.name} has no 'base' commit", line)
        return pr.base
    if not SHA.match(given.lower()):
        ctx.error(f"'{given}' in {what} is not a commit SHA; expected 7 to 40 hex digits "
                  f"or @base (a branch or tag name drifts){hint}", line)
        return None
    return given.lower()


def _path(ctx: PageContext, name: str, commit: str, what: str,
          line: int | None) -> str | Submodule | Folder | None:
    """The full path `name` names at `commit`, the folder it names, or the submodule that
    holds it."""
    assert ctx.pr is not None
    if not REPO_PATH.match(name.strip("/")):
        ctx.error(f"'{name}' in {what} is not a path inside the repository; "
                  "expected a path like 'src/module.py' (no '..')", line)
        return None
    known = ctx.pr.files
    full = None
    if ctx.source is not None and not matching_paths(known, name):
        full = ctx.source.commit(commit)
        known = ctx.source.tree(full) if full else ()
    if not known:
        return name.strip("/")
    candidates = matching_paths(known, name)
    if len(candidates) == 1:
        return candidates[0]
    if not candidates and full is not None and ctx.source is not None:
        inside = holding(ctx.source, full, name, ctx.config.code_host, ctx.pr.repo)
        if inside is not None:
            return inside
    folders = folders_named(known, name) if not candidates else []
    if len(folders) == 1:
        return Folder(folders[0])
    if len(folders) > 1:
        ctx.error(f"ambiguous folder name '{name}' in {what}; it matches "
                  f"{_some([f + '/' for f in folders], 'folders')}; write more of the path", line)
        return None
    if not candidates:
        where = "the files listed in pr.yml" if ctx.source is None else f"commit {commit[:7]}"
        meant = _did_you_mean(name, ctx.pr.repo)
        if meant and matching_paths(known, name.partition("#L")[0]):
            ctx.error(f"unknown file '{name}' in {what}{meant}", line)
            return None
        ctx.error(f"unknown file '{name}' in {what}; it is not among {where} "
                  f"(nearest by name: {', '.join(nearest(name, known))})"
                  f"{unlisted(ctx, commit)}", line)
    else:
        ctx.error(f"ambiguous file name '{name}' in {what}; it matches "
                  f"{_some(candidates)}; write more of the path"
                  f"{unlisted(ctx, commit)}", line)
    return None


SHOWN = 5  # paths an ambiguous name is told to match, before "and N more"


def _some(paths: list[str], kind: str = "files") -> str:
    """`paths`, the first SHOWN of them when there are more ('38 files: a, b, c, d, e and
    33 more': every route of a SvelteKit app is a `+page.svelte`)."""
    if len(paths) <= SHOWN + 1:
        return ", ".join(paths)
    return f"{len(paths)} {kind}: {', '.join(paths[:SHOWN])} and {len(paths) - SHOWN} more"


def unlisted(ctx: PageContext, commit: str) -> str:
    """For a reference or claim that went wrong at `commit`: the first file pr.yml's
    `files` lists that neither the commit, the PR's head nor its base has (one the PR adds
    is the head's, one it removes the base's), which may be the one meant, written wrong
    there (a name it would have matched then went to the whole tree, or to another file
    it matches)."""
    full = ctx.source.commit(commit) if ctx.source is not None else None
    if full is None or ctx.source is None or ctx.pr is None:
        return ""
    held = set(ctx.source.tree(full))
    for other in (ctx.pr.head, ctx.pr.base):
        known = ctx.source.commit(other) if other else None
        if known is not None and known != full:
            held.update(ctx.source.tree(known))
    absent = next((path for path in ctx.pr.files if path not in held), None)
    if absent is None:
        return ""
    return (f"; {ctx.pr.path.name} lists '{absent}' in 'files' (line "
            f"{ctx.pr.line_of_file(absent)}), which the commit does not have: is that the "
            "file meant?")


@dataclass(frozen=True)
class Folder:
    """A folder of the tree a reference names (`[[nemo_rl/utils/]]`)."""

    path: str


def folders_named(known: tuple[str, ...], name: str) -> list[str]:
    """The folders of the paths `known` that are `name` or end with it."""
    if not name.strip("/"):
        return []
    folders = tuple(sorted({p[:i] for p in known for i, c in enumerate(p) if c == "/"}))
    return sorted(matching_paths(folders, name))


def _folder_ref(ctx: PageContext, m: re.Match[str], folder: str, commit: str, what: str,
                line: int | None) -> CodeRef | None:
    """A reference to a folder: linked as the code host shows it at the commit; lines, a
    name or a quote need a file."""
    assert ctx.pr is not None
    if m["start"] or m["symbol"] or m["quote"]:
        ctx.error(f"{what} names the folder {folder}/; lines, a name or a quote need a file "
                  "in it", line)
        return None
    full = (ctx.source.commit(commit) if ctx.source is not None else None) or commit
    custom = (m["label"] or "").strip()
    url = fill(ctx.config.code_host.folder, repo=ctx.pr.repo, commit=full,
               path=quote(folder, PATH_SAFE))
    return CodeRef(folder + "/", None, None, full, custom or _written(m), bool(custom), url)


def _in_submodule(ctx: PageContext, m: re.Match[str], sub: Submodule, what: str,
                  line: int | None) -> CodeRef | None:
    """A reference to a file in a submodule: resolved in the submodule's repository at the
    commit the tree pins it at (checked against its code when that is here), linked there."""
    assert ctx.pr is not None
    inner = sub.inner(path_written(m["path"]).strip("/"))
    pinned = f"{sub.repo} at {sub.commit[:7]}, the submodule {sub.path}"
    if sub.repo is None:
        ctx.error(f"'{m['path']}' of {what} lies in the submodule {sub.path}, whose repository "
                  f"({sub.url or 'not listed in .gitmodules'}) is not on the code host, so it "
                  f"has no permalink here; link its file at commit {sub.commit[:7]} yourself",
                  line)
        return None
    if not inner:
        ctx.error(f"{what} names the submodule {sub.path} ({sub.repo} at {sub.commit[:7]}); "
                  "expected a file in it", line)
        return None
    reader = _submodule_reader(ctx, sub)
    if reader is None:
        ctx.warn(f"{what} cites {pinned}, whose code is not here, so it is not checked; run "
                 "'site-gen fetch' (it fetches the submodules the pages cite)", line, UNCHECKED)
    elif ctx.source is not None:  # the blocks that show or change its lines read them there too
        ctx.source.route(sub.commit, reader)
    there = dataclasses.replace(ctx, source=reader, pr=dataclasses.replace(
        ctx.pr, repo=sub.repo, head=sub.commit, base=None, files=()))
    text = m.string
    rest = text[m.end("commit"):] if m["commit"] else text[m.end("target"):]
    ref = resolve(there, inner + text[m.end("path"):m.end("target")] + "@" + sub.commit[:12]
                  + rest, line, f"{what} (in {pinned})")
    if ref is None:
        return None
    label = ref.label if ref.custom_label else _written(m)
    ctx.submodules.add(sub.repo)  # the page's header names it
    return dataclasses.replace(ref, label=label, repo=sub.repo, within=sub.path)


def submodule_at(ctx: PageContext, ref: CodeRef, commit: str) -> str | None:
    """The commit that `commit` of the PR's repository pins the submodule of `ref` (a file
    in one) at, made readable; '' when `commit` has no such submodule (the PR adds it),
    None when its code is not here."""
    assert ctx.source is not None and ctx.pr is not None
    full = ctx.source.commit(commit)
    sub = holding(ctx.source, full, f"{ref.within}/{ref.path}", ctx.config.code_host,
                  ctx.pr.repo) if full else None
    if sub is None or sub.repo != ref.repo:
        return ""
    reader = _submodule_reader(ctx, sub)
    if reader is not None:
        ctx.source.route(sub.commit, reader)
    return sub.commit if reader is not None else None


def _submodule_reader(ctx: PageContext, sub: Submodule) -> SourceReader | None:
    """Where the submodule's commit is read (see submodules.reader_of)."""
    assert ctx.source is not None
    return reader_of(ctx.config, ctx.source, sub)


def nearest(name: str, known: tuple[str, ...], count: int = 3) -> list[str]:
    """The `count` paths of `known` most like `name`: by file name first, then by path."""
    base = name.strip("/").rsplit("/", 1)[-1]

    def likeness(path: str) -> tuple[float, float, str]:
        return (-difflib.SequenceMatcher(None, base, path.rsplit("/", 1)[-1]).ratio(),
                -difflib.SequenceMatcher(None, name, path).ratio(), path)

    return sorted(known, key=likeness)[:count]


def matching_paths(known: tuple[str, ...], name: str) -> list[str]:
    """The paths in `known` that are `name` or end with '/' + `name`; only `name`, when it
    is one of them whole (a root `main.tf` beside `examples/complete/main.tf` can be named
    no other way)."""
    name = name.strip("/")
    same_base = _by_basename(known).get(name.rsplit("/", 1)[-1], ())
    found = [p for p in same_base if p == name or p.endswith("/" + name)]
    return [name] if len(found) > 1 and name in found else found


def paths_named(files: tuple[str, ...], tree: tuple[str, ...], name: str) -> list[str]:
    """The paths `name` names as a reference reads it: of pr.yml's `files`, else of the
    commit's `tree` (see matching_paths)."""
    return matching_paths(files, name) or matching_paths(tree, name)


@functools.lru_cache(maxsize=64)
def _by_basename(known: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    index: dict[str, list[str]] = {}
    for path in known:
        index.setdefault(path.rsplit("/", 1)[-1], []).append(path)
    return {base: tuple(paths) for base, paths in index.items()}


def definition_lines(ctx: PageContext, path: str, commit: str, symbol: str, what: str,
                     line: int | None) -> tuple[int, int] | None:
    """The lines of the definition `symbol` (any unique tail of its dotted name) names in
    `path` at `commit`; None, with an error, when it names none or several."""
    found = definitions_named(ctx, path, commit, symbol, what, line)
    return found[0] if found else None


CITE_THE_LINE = "cite its line instead, as '[[{path}:{line}]]'"


def definitions_named(ctx: PageContext, path: str, commit: str, symbol: str, what: str,
                      line: int | None, *, shared: bool = False,
                      instead: str = CITE_THE_LINE) -> list[tuple[int, int]] | None:
    """The lines of the definition `symbol` names in `path` at `commit` (as
    definition_lines); with `shared`, of every definition it names when they share one
    whole name (overloads apart from each other, the branches of a Haskell `#if`).
    `instead`: what to write where the name is a value's (given `path` and `line`)."""
    assert ctx.source is not None
    full = ctx.source.commit(commit) or commit
    index = code_definitions(ctx, full, path, what, line)
    if index is None:
        return None
    every = chosen(index.definitions, symbol)
    lines = ctx.source.lines(full, path) or []
    found = overloads(every, symbol, lines)
    if len(found) == 1 or (shared and found and len({d.name for d in found}) == 1):
        return [(d.start, d.end) for d in found]
    language = language_of(path, ctx.config.languages, lines)
    if every and not found:
        taken = ", ".join(f"{signature(d, lines, language, every) or d.shown} ({d.lines})"
                          for d in clauses(every))
        ctx.error(f"'{symbol}' in {what}: no definition of that name in {path} takes those "
                  f"parameters at commit {commit[:7]}; expected one of: {taken}", line)
    elif not found:
        value = assigned_at(lines, symbol)
        where = (f": '{symbol.rsplit('.', 1)[-1].strip()}' is a value, given at L{value[0]} "
                 f"('{value[1]}'), and a symbol names a definition (a function, a class, a "
                 f"type); {instead.format(path=path, line=value[0])}" if value else
                 f" (nearest: {nearest_names(index.definitions, symbol)})")
        ctx.error(f"unknown symbol '{symbol}' in {what}: {path} defines no such name at commit "
                  f"{commit[:7]}{where}{parse_note(index)}{unlisted(ctx, commit)}", line)
    else:
        # by their parameters, each form naming its own alone (see signature)
        told_apart = [signature(d, lines, language, found) for d in found]
        if len({d.name for d in found}) > 1 or None in told_apart:
            told_apart = [d.shown for d in found]
        listed = ", ".join(f"{told} ({d.lines})" for told, d in zip(told_apart, found, strict=True))
        # no more of a name tells apart what shares it whole (a Kotlin property and a
        # function of one name, overloads apart from each other): their lines do; an
        # Elixir function's arity does (send_resp/3, send_resp/1)
        arity = found[0].arity
        told = told_apart[0] if told_apart[0] != found[0].shown else None
        hint = "write more of the dotted name" if len({d.name for d in found}) > 1 else (
            f"write its arity, as '{symbol.strip()}/{arity[1]}'"
            if arity is not None and len({d.shown for d in found}) > 1 else
            f"write its parameters, as '{told}'" if told else
            f"they share the whole name: cite one by its lines instead, as "
            f"'[[{path}:{found[0].start}-{found[0].end}]]'")
        ctx.error(f"ambiguous symbol '{symbol}' in {what}: it names {listed}; {hint}", line)
    return None


def code_definitions(ctx: PageContext, commit: str, path: str, what: str,
                     line: int | None) -> Index | None:
    """What `path` defines at `commit`, for a symbol of `what`; None with an error when
    the file is not there or no grammar reads it."""
    assert ctx.source is not None
    index = index_of(ctx.source, commit, path, ctx.code_store, ctx.config.languages)
    if index is None and ctx.source.lines(commit, path) is None:
        ctx.error(f"{path} of {what} is not there at commit {commit[:7]}"
                  f"{_listed_wrong(ctx, path, commit)}", line)
    elif index is None:
        read = language_of(path, ctx.config.languages)
        why = f"{path} is {read}, which defines no names" if read else \
            f"no grammar reads {path}, so it has none"
        instead = f"the file alone, 'in: {path}'" if what.startswith("'in: ") else \
            "its lines, as [[file:start-end]]"  # (a claim's `in:` takes no lines)
        ctx.error(f"{what} names a definition, but {why} (definitions are found in: "
                  f"{SYMBOL_LANGUAGES}); expected {instead}", line)
    return index


def parse_note(index: Index) -> str:
    """'; the file does not parse ...': why a name may not have been found."""
    return f"; the file {index.broken}, which may hide it" if index.broken else ""


def _verify(ctx: PageContext, path: str, commit: str, start: int | None, end: int | None,
            quote: str | None, what: str, line: int | None) -> str | None:
    assert ctx.source is not None
    full, problem = ctx.source.verify(commit, path, start, end, quote, what)
    if problem:
        ctx.error(problem + (_not_a_file(ctx, path, commit) or _at_base(ctx, path, commit)
                             or _listed_wrong(ctx, path, commit) or unlisted(ctx, commit)), line)
    return full


def _not_a_file(ctx: PageContext, path: str, commit: str) -> str:
    """For a path the tree holds as no file: what it is (a submodule, a symbolic link)."""
    assert ctx.source is not None and ctx.pr is not None
    full = ctx.source.commit(commit)
    if full is None:
        return ""
    target = ctx.source.entries(full, SYMLINK).get(path)
    if target is not None:
        lines = ctx.source.lines(full, path) or [""]  # a link's blob is its target's path
        return f"; {path} is a symbolic link to {lines[0]}: cite the file it links to"
    sub = holding(ctx.source, full, path, ctx.config.code_host, ctx.pr.repo)
    if sub is not None:
        return (f"; it is a submodule ({sub.repo or sub.url} at {sub.commit[:7]}): cite a file "
                "in it")
    return ""


def _at_base(ctx: PageContext, path: str, commit: str) -> str:
    """For a file not at `commit` that the PR's base has (the PR removed or renamed it):
    how to cite it as it was."""
    if not only_at_base(ctx, path, commit):
        return ""
    return "; the base has it (the PR removes or renames it): cite it as it was with @base"


def _listed_wrong(ctx: PageContext, path: str, commit: str) -> str:
    """For a path pr.yml's `files` lists that `commit` does not have (nor the base): that
    the list is where it is wrong, and the paths of the commit most like it."""
    assert ctx.source is not None and ctx.pr is not None
    full = ctx.source.commit(commit)
    if full is None or path not in ctx.pr.files or ctx.source.lines(full, path) is not None:
        return ""
    return (f"; {ctx.pr.path.name} lists it in 'files' (line {ctx.pr.line_of_file(path)}): "
            f"expected a path the commit has (nearest: "
            f"{', '.join(nearest(path, ctx.source.tree(full)))})")


def only_at_base(ctx: PageContext, path: str, commit: str) -> bool:
    """Whether the PR's base has `path` and `commit` (another one, its head) has not: the
    PR removed or renamed the file."""
    if ctx.source is None or ctx.pr is None or not ctx.pr.base:
        return False
    base, full = ctx.source.commit(ctx.pr.base), ctx.source.commit(commit)
    return base is not None and full is not None and full != base \
        and ctx.source.lines(full, path) is None and ctx.source.lines(base, path) is not None


def _ref_rule(state: StateInline, silent: bool) -> bool:
    if not state.src.startswith("[[", state.pos):
        return False
    # the rule repin, the drift notice and fetch read pages by (names.references)
    found = reference_at(state.src, state.pos, find_after(state, "]]", state.pos + 2))
    if found is None:
        return not silent and _unclosed(state)
    if not silent:
        token = state.push("code_ref", "", 0)
        token.content = found[1].replace("\n", " ")  # over soft line breaks too
        token.meta = {"offset": line_offset(state, state.pos)}
    state.pos = found[0]
    return True


def _unclosed(state: StateInline) -> bool:
    """A `[[` with no `]]` after it: its text as written, told once per paragraph (a cell, a
    heading): it was shown as it is without a word, a broken link (in a table, a bare `|`
    in a reference ends the cell)."""
    told: set[str] = state.env.setdefault("_site_gen_unclosed", set())
    if state.src in told:
        state.append_pending("[[")
    else:
        told.add(state.src)
        token = state.push("code_ref_unclosed", "", 0)  # rendered as its text, "[["
        written = state.src[state.pos:].split("\n", 1)[0]
        token.meta = {"written": written if len(written) <= 60 else written[:57] + "...",
                      "offset": line_offset(state, state.pos)}
    state.pos += 2
    return True


def _resolve_all(state: StateCore) -> None:
    ctx = context_of(state.env)
    for index, block in enumerate(state.tokens):
        for token in block.children or ():
            if token.type == "code_ref":
                line = ctx.line(block.map, token.meta["offset"])
                token.meta["ref"] = ref = resolve(ctx, token.content, line)
                token.meta["preview"] = preview_rows(ctx, ref) if ref else None
            elif token.type == "code_ref_unclosed":
                cell = index > 0 and state.tokens[index - 1].type in ("td_open", "th_open")
                ctx.error(f"'{token.meta['written']}' opens a code reference that is never "
                          "closed; expected ']]' after it" + (
                              " (in a table's cell, a '|' of a reference is written '\\|')"
                              if cell else ""), ctx.line(block.map, token.meta["offset"]))


PREVIEW_LINES = 8  # a longer range shows its first lines and how many are left out


def preview_rows(ctx: PageContext, ref: CodeRef) -> tuple[list[tuple[int, Markup]], int] | None:
    """The lines a reference cites, highlighted, for its preview: (rows, lines left out);
    None without the code or without lines."""
    if ctx.source is None or ref.start is None or ctx.source.is_binary(ref.commit, ref.path):
        return None  # nothing to show (a binary file's bytes are never shown)
    lines = ctx.source.lines(ref.commit, ref.path)
    if lines is None:
        return None
    cited = lines[ref.start - 1:ref.end or ref.start]
    shown = cited[:PREVIEW_LINES]
    html = highlighted_lines(ref.path, shown, ctx.config.languages, ctx.code_store, lines)
    rows = [(ref.start + i, line) for i, line in enumerate(html)]
    return rows, len(cited) - len(shown)


UNPINNED = re.compile(r"^https?://[^/]+/[^/]+/[^/]+/(?:-/)?(?:blob|tree|src/branch)/(?P<ref>[^/#?]+)")


def _check_links(state: StateCore) -> None:
    """Warn about links to code that name a branch instead of a commit (they drift)."""
    ctx = context_of(state.env)
    for block in state.tokens:
        for token in block.children or ():
            href = token.attrGet("href") if token.type == "link_open" else None
            m = UNPINNED.match(str(href)) if href else None
            if m and not SHA.match(m["ref"]):
                ctx.warn(f"unpinned link '{href}' points at '{m['ref']}', which moves; pin a "
                         "commit SHA, or write a [[file:line]] reference", ctx.line(block.map))


def shown_text(text: str) -> str:
    """What the reference `text` (inside its brackets) shows: its label, or what it cites
    as written."""
    m = REF.match(text)
    return ((m["label"] or "").strip() or _written(m)) if m else text


def ref_label(ref: CodeRef | None, text: str) -> Markup:
    """What a reference shows: its label as code, or as written after '|' (when resolved)."""
    if ref is None:
        return Markup("<code>{}</code>").format(shown_text(text))
    return escape(ref.label) if ref.custom_label else Markup("<code>{}</code>").format(ref.label)


def refs_plugin(md: MarkdownIt, *, templates: jinja2.Environment) -> None:
    """Register the `[[...]]` inline rule, its resolution, and its renderer
    (templates/blocks/ref.html, the one look of every link to pinned code)."""
    macros = templates.get_template("blocks/ref.html").module

    def render(token: Token, env: dict[str, Any]) -> str:
        ref, preview = token.meta.get("ref"), token.meta.get("preview")
        label = ref_label(ref, token.content)
        if preview is None:
            return str(macros.code_ref(ref, label))  # type: ignore[attr-defined]
        return str(macros.code_ref_preview(ref, label, *preview))  # type: ignore[attr-defined]

    md.inline.ruler.before("link", "code_ref", _ref_rule)
    md.core.ruler.after("inline", "code_ref_resolve", _resolve_all)
    md.core.ruler.after("code_ref_resolve", "unpinned_links", _check_links)
    block_renderer(md, "code_ref", render)
    block_renderer(md, "code_ref_unclosed", lambda token, env: "[[")


# How references are written elsewhere, and this syntax's way: a code host's permalink,
# its #L anchors, L before a line after the colon, a column, a dash of typography, "line N".
REWRITES = (
    (re.compile(r"^(\s*)https?://[^/\s]+/(?P<repo>[^/\s]+/[^/\s]+)/blob/([0-9a-fA-F]{7,40})/"
                r"([^#\s|\]]+)(?:#L(\d+)(?:-L(\d+))?)?"),
     lambda m: f"{m[1]}{m[4]}" + (f":{m[5]}" if m[5] else "") + (f"-{m[6]}" if m[6] else "")
     + f"@{m[3]}"),
    (re.compile(r"#L(\d+)(?:-L(\d+))?(?=[\s@\"|]|$)"),
     lambda m: f":{m[1]}" + (f"-{m[2]}" if m[2] else "")),
    (re.compile(r":L(\d+)(?:-L(\d+))?"), lambda m: f":{m[1]}" + (f"-{m[2]}" if m[2] else "")),
    (re.compile(r"(?<=\d)\s*+[\u2012-\u2015]\s*+(?=L?\d)"), lambda m: "-"),
    (re.compile(r":(\d+):\d+(?=[\s@\"|-]|$)"), lambda m: f":{m[1]}"),
    (re.compile(r"(?<!\s)\s++lines?\s++(\d+)"), lambda m: f":{m[1]}"),  # linear: one try a run
    # a path with spaces, before its line or name: the spaces as a URL writes them
    (re.compile(r'^(\s*+)((?:[^\s:"|]++ )++[^\s:"|]++)(?=:)'),
     lambda m: m[1] + m[2].replace(" ", "%20")),
    # the commit after the quote: it comes before it
    (re.compile(r'(?<!\s)(\s*+"(?:[^"\\]|\\.)*+")\s*+(@\w++)(?=\s*+(?:\||$))'),
     lambda m: f"{m[2]}{m[1]}"),
    # a quote of a line that ends in a backslash (a macro's, a shell command's going on):
    # the backslash escaped, or it escapes the quote mark that ends the quote
    (re.compile(r'(?<!\\)\\"(\s*+(?:\\?\|[^"]*+)?)$'), lambda m: '\\\\"' + m[1]),
)


def _did_you_mean(text: str, repo: str) -> str:
    """"; did you mean 'X'?" when `text` (a reference, or its path) is one written another
    way that this syntax writes as X; else '' (and for a link into another repository than
    `repo`, the PR's)."""
    meant = text
    for pattern, rewrite in REWRITES:
        m = pattern.match(meant)
        if m and "repo" in pattern.groupindex and m["repo"] != repo:
            return ""
        meant = pattern.sub(rewrite, meant)
    if meant == text or not REF.match(meant):
        return ""
    return f"; did you mean '[[{_short(meant.strip())}]]'?"


def _short(text: str) -> str:
    """Author text quoted in a message, cut to a readable length."""
    return text if len(text) <= 80 else text[:77] + "..."
