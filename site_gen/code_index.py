"""What the code of a pinned commit defines and where (see definitions), for every language
ast-grep parses (tree-sitter grammars built into ast-grep-py, no download), and the
matches of an ast-grep pattern.

What a text defines does not depend on the commit or the path that holds it, so each
text is parsed once per process: a file that a site's PRs left as it was, the same at
every PR's head, is parsed once, not once per PR. What a build learned is kept by commit
and path between builds (index_of), and a page that did not change is not rendered again
at all (the page cache), so a rebuild that changed no code parses nothing.
"""

from __future__ import annotations

import contextlib
import functools
import re
import weakref
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from . import components
from .definitions import Definition, holds, walk
from .filetypes import configured, ending, lexer_alias, shared_ending, written_in

VERSION = "62"  # of what is kept of a file between builds: a new one parses everything again
# File endings and the ast-grep language that parses them.
LANGUAGES = {
    "py": "python", "pyi": "python", "js": "javascript", "mjs": "javascript",
    "cjs": "javascript", "jsx": "javascript", "ts": "typescript", "mts": "typescript",
    "tsx": "tsx", "go": "go", "rs": "rust", "java": "java", "c": "c", "h": "c", "cc": "cpp",
    "cpp": "cpp", "cxx": "cpp", "hpp": "cpp", "hh": "cpp", "cu": "cpp", "cuh": "cpp",
    "cs": "csharp", "rb": "ruby", "kt": "kotlin", "kts": "kotlin", "swift": "swift",
    "scala": "scala", "php": "php", "lua": "lua", "sh": "bash", "bash": "bash",
    "hs": "haskell", "ex": "elixir", "exs": "elixir", "dart": "dart", "sol": "solidity",
    "nix": "nix", "tf": "hcl", "hcl": "hcl", "yml": "yaml", "yaml": "yaml",
    # Components: their script, in the language its `lang` says (see components).
    **dict.fromkeys(components.ENDINGS, "typescript"),
}
# Endings of templates that Pygments reads as the language they hold (EEx: HTML around
# Elixir), which no grammar reads whole.
TEMPLATES = frozenset({"eex", "leex"})
# Languages whose code defines no names a page could cite (Nix: expressions all through;
# YAML: data, counted by a claim's pattern, `uses: $A` in a workflow).
NO_DEFINITIONS = frozenset({"nix", "yaml"})
# What claims and the code index read, for messages.
_SCRIPTS = f"and the script of {', '.join(f'.{e}' for e in sorted(components.ENDINGS))} components"
READ = f"{', '.join(sorted(set(LANGUAGES.values())))}, {_SCRIPTS}"
SYMBOL_LANGUAGES = f"{', '.join(sorted(set(LANGUAGES.values()) - NO_DEFINITIONS))}, {_SCRIPTS}"


class ParseError(Exception):
    """A file the parser cannot read as its language (the line of the first problem)."""

    def __init__(self, language: str, line: int) -> None:
        super().__init__(f"does not parse as {language} (first at line {line})")
        self.language, self.line = language, line


class Unread(ParseError):
    """A file whose grammar keeps some code as tokens, not as code, and where it does not
    read as code when read again (a `macro_rules!` body, `json!({...})`'s arguments, a C
    `#define BEGIN {`, a Haskell `#else` branch inside an expression), where a pattern's
    word stands: a match there would be missed, so the file cannot be counted."""

    def __init__(self, language: str, line: int, word: str, inside: str = "a macro",
                 kept_as: str = "tokens") -> None:
        Exception.__init__(self, f"holds '{word}' at line {line} inside {inside}, which the "
                                 f"{language} grammar reads as {kept_as}, not as code")
        self.language, self.line = language, line


class Unparsed(ParseError):
    """A file that does not parse where a pattern's word stands: a match there may be
    missed, so the file cannot be counted."""

    def __init__(self, language: str, line: int, word: str) -> None:
        Exception.__init__(self, f"does not parse as {language} at line {line}, which holds "
                                 f"'{word}'")
        self.language, self.line = language, line


# Nodes whose code a grammar keeps as tokens, its words as identifiers, and that are not
# read again (see MACROS_READ): a Rust `macro_rules!` body. An attribute's tokens are no
# code (`#[cfg(test)]`, `#[derive(Debug)]`, `#![cfg_attr(test, deny(warnings))]`): a claim
# counting `#[test]` was refused in every file of reqwest's with a `#[cfg(test)]` module,
# 86 of its 99 tests (the other 13 stand in a comment). (`#[cfg_attr(miri, test)]`, a test
# only so, is not counted.)
UNREAD = {"rust": "token_tree"}
NO_CODE_IN = {"rust": {"kind": "attribute"}}


def language_of(path: str, languages: dict[str, str] | None = None,
                lines: list[str] | None = None) -> str | None:
    """The ast-grep language of `path`, or None for a file no grammar reads: the language
    mkdocs.yml's `languages` (Pygments lexers by ending) gives it, else the one its code
    `lines` are written in when its ending is shared (a '.h' file: see filetypes), else
    the one its ending says; for a component, the language of its script (see
    components), whatever lexer colours it."""
    lexer = configured(path, languages)
    own = ending(path)
    if own in components.ENDINGS:
        return components.code_of(path, lines)[0] if lines is not None else LANGUAGES[own]
    if lexer is None and lines is not None and own in LANGUAGES and shared_ending(path):
        lexer = written_in(path, "\n".join(lines))  # a '.h' file (not '.m': no grammar)
    if lexer is not None and (name := lexer.lower()) in (grammars := _grammars()):
        return grammars[name]
    if own in LANGUAGES or lexer is not None or own in TEMPLATES:  # (a lexer Pygments does
        return LANGUAGES.get(own)  # not list: a plugin's)
    # an ending or a name no grammar is listed for, that highlighting reads as a language
    # one reads (`.hxx`, `.ipp` C++; `Rakefile`, `.gemspec` Ruby; `BUILD.bazel` Python)
    alias = lexer_alias(path.rsplit("/", 1)[-1])
    return _own_grammars().get(alias.lower()) if alias else None


@functools.cache
def _grammars() -> dict[str, str | None]:
    """The ast-grep language of each Pygments lexer, by each of its names ('cuda': cpp):
    that of the first file ending it claims that a grammar reads (an ending languages share
    counts as C's, which parses an Objective-C header's C as before), or None (plain text,
    a language without a grammar)."""
    from pygments.lexers._mapping import LEXERS

    found: dict[str, str | None] = {}
    for _module, _name, aliases, patterns, _types in LEXERS.values():
        endings = [p[2:].lower() for p in patterns if p.startswith("*.") and "*" not in p[2:]]
        grammar = next((LANGUAGES[e] for e in endings
                        if e in LANGUAGES and e not in components.ENDINGS), None)
        for alias in aliases:
            found.setdefault(alias, grammar)
    return found


@functools.cache
def _own_grammars() -> dict[str, str]:
    """The ast-grep language of each Pygments lexer whose first file pattern is an ending a
    grammar reads, by each of its names: C++'s `*.cpp`, Ruby's `*.rb` (not Objective-C++,
    whose `*.mm` comes before the `*.hh` it shares with C++, nor Cython's `*.pyx`)."""
    from pygments.lexers._mapping import LEXERS

    found: dict[str, str] = {}
    for _module, _name, aliases, patterns, _types in LEXERS.values():
        first = patterns[0][2:].lower() if patterns and patterns[0].startswith("*.") else ""
        if first in LANGUAGES and first not in components.ENDINGS and not shared_ending(patterns[0]):
            found.update(dict.fromkeys(aliases, LANGUAGES[first]))
    return found


def grammar_of(path: str, languages: dict[str, str] | None,
               lines: list[str]) -> tuple[str | None, list[str]]:
    """The ast-grep language of `path` (see language_of) and the `lines` its grammar reads:
    a component's script alone, where it stands (see components), else all of them. A
    JavaScript file the JavaScript grammar cannot read but TSX's can is read as TSX: its
    JSX (the JavaScript grammar reads no attribute named as a keyword: Solid's and
    Preact's `<div class="counter">`)."""
    language: str | None
    if ending(path) in components.ENDINGS:
        language, code = components.code_of(path, lines)
    else:
        language, code = language_of(path, languages, lines), lines
    if language == "javascript" and _broken(language, text := code_of(code)) is not None \
            and _broken("tsx", text) is None:
        language = "tsx"
    return language, code


def defines_names(language: str | None) -> bool:
    """Whether the code index reads the names `language`'s code defines (see index_of)."""
    return language is not None and language not in NO_DEFINITIONS


@functools.lru_cache(maxsize=512)
def _root(language: str, text: str) -> Any:
    from ast_grep_py import SgRoot  # imported when code is parsed: most builds never are

    return SgRoot(text, language).root()


@dataclass(frozen=True)
class Index:
    """What a file defines, and where it first does not parse (the parser reads on past a
    problem, so the definitions around it are still found)."""

    definitions: tuple[Definition, ...]
    broken: ParseError | None = None


def code_of(lines: list[str]) -> str:
    """A file's text for its grammar, from its lines: the last one ends too, as a file's
    last line does (Go's grammar reads a last `const Version = "v1"` without its line end
    as cut short, so the whole file "did not parse")."""
    return "\n".join(lines) + "\n"


def _parsed(language: str, text: str, keep: str | None = None) -> str:
    """`text` as the grammar of `language` is given it (see _macros_read), and where that
    does not parse, with its comments as spaces when that then leaves unread only lines it
    left unread, and fewer: a grammar may read no comment where one stands (Kotlin's
    between a class's name and its constructor, okio's `expect open class ByteString //
    ... internal constructor(...)`, which left the class's 187 lines unread)."""
    read = _macros_read(language, text, keep)
    if _broken(language, read) is None:
        return read
    quiet = _comments_blanked(language, read)
    return quiet if quiet != read and _unread_lines(language, quiet) < _unread_lines(
        language, read) else read


@functools.lru_cache(maxsize=64)
def _comments_blanked(language: str, text: str) -> str:
    """`text` with each of its comments as spaces, every line and column where it was."""
    root = _root(language, text)
    return _as_spaces(text, [_span(node) for kind in sorted(_held_kinds(
        language, frozenset(_COMMENT_KINDS))) for node in root.find_all(kind=kind)])


def _as_spaces(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """`text` with each of `spans` as spaces, every line and column where it was."""
    for start, end in spans:
        text = text[:start] + _BLANKED.sub(" ", text[start:end]) + text[end:]
    return text


def _macros_read(language: str, text: str, keep: str | None = None) -> str:
    """`text` as the grammar of `language` is given it before its comments: C and C++ with
    CUDA's own words blanked out (see CUDA), and, where that does not parse, its macros too
    (see MACRO; but not a line holding the word `keep`, which a claim counts) when that then
    parses, or leaves unread only lines it left unread, and fewer (fmt's format.h: as
    written, one stretch from its include guard to its end; with its macros blanked, 86
    lines of 4,414); any other as it is."""
    if language not in ("c", "cpp"):
        return text
    if "__" in text or "<<<" in text:
        text = CUDA.sub(lambda found: _blanked(text, found), text)
    if not MACRO.search(text) or _broken(language, text) is None:
        return text  # it parses (or has no macro to blank): as written
    bare, blanked = _macros_blanked(text)
    if keep and any(re.search(rf"\b{re.escape(keep)}\b", macro) for macro in blanked):
        bare = MACRO.sub(lambda found: _macro_blanked(found, keep), text)
    if bare == text or _broken(language, bare) is None:
        return bare
    return bare if _unread_lines(language, bare) < _unread_lines(language, text) else text


@functools.lru_cache(maxsize=64)
def _macros_blanked(text: str) -> tuple[str, tuple[str, ...]]:
    """`text` with its macros blanked (see MACRO), and the text of each one blanked: made
    once for every claim's word that none of them holds."""
    blanked: list[str] = []

    def blank(found: re.Match[str]) -> str:
        bare = _macro_blanked(found, None)
        if bare != found[0]:
            blanked.append(found[0])
        return bare

    return MACRO.sub(blank, text), tuple(blanked)


def _macro_blanked(found: re.Match[str], keep: str | None) -> str:
    """A macro's text (see MACRO) as spaces; but not a line holding the word `keep`, nor
    one that goes on a `#define` (the line before it ends in a backslash: gtest's
    `#define ASSERT_ANY_THROW(statement)` goes on with `GTEST_TEST_ANY_THROW_(...)`)."""
    before = found.string[found.string.rfind("\n", 0, max(found.start() - 1, 0)) + 1:found.start()]
    if keep and re.search(rf"\b{re.escape(keep)}\b", found[0]) or before.rstrip().endswith("\\"):
        return found[0]
    return _BLANKED.sub(" ", found[0])


def _blanked(text: str, found: re.Match[str]) -> str:
    """A CUDA word of `text` as spaces; but not on a preprocessor line, which may define
    the word (`#define __device__ __attribute__((device))`, a HIP header's)."""
    line = text[text.rfind("\n", 0, found.start()) + 1:found.start()]
    return found[0] if line.lstrip().startswith("#") else _BLANKED.sub(" ", found[0])


# CUDA's (and HIP's) own words, which the C++ grammar does not read: the qualifiers and a
# kernel launch's configuration. A file is parsed with them blanked out, each character a
# space, so every line and column stays where it is: `add<<<grid, block>>>(a, b)` reads as
# the call `add(a, b)` (a kernel's launch, counted as its call), and a `__device__
# __forceinline__` function's line is no longer code the parser could not read.
CUDA = re.compile(r"\b__(?:global|device|host|forceinline|noinline|shared|constant|managed|"
                  r"restrict|grid_constant)__\b|"
                  r"\b__(?:launch_bounds|align|maxnreg|cluster_dims)__\s*\([^()]*\)|"
                  r"<<<(?:(?!>>>)[^;{}])*>>>")
_BLANKED = re.compile(r"[^\n]")
# A macro where the C and C++ grammars read none, by the way C code is written (an
# all-caps name), where it stands at a line's start: before another word of its line
# (fmt's `FMT_CONSTEXPR20 inline auto count_digits(`, SQLite's `SQLITE_API int ...`,
# `FMT_EXPORT FMT_API void vprint(`), alone on its line (`FMT_BEGIN_NAMESPACE`), or a call
# alone on its line, with nothing after it, not even a `;` (NVIDIA/apex's file-scope
# `GN_FWD_BWD_ONE_PASS_DEFINITION(10, 640)`). Blanked only in a file that does not parse
# as written, and only when it then does, every line and column kept (see _parsed).
_MACRO_NAME = r"(?:[A-Z][A-Z0-9]*_[A-Z0-9_]*|[A-Z]{2}[A-Z0-9]+)"
MACRO = re.compile(rf"^[ \t]*(?:{_MACRO_NAME}[ \t]+)*(?:{_MACRO_NAME}[ \t]+(?=[A-Za-z_])|"
                   rf"{_MACRO_NAME}[ \t]*$|{_MACRO_NAME}[ \t]*\((?:[^()\n]|\([^()\n]*\))*\)[ \t]*$)",
                   re.MULTILINE)


def definitions(language: str, lines: list[str]) -> Index:
    """Every definition in the code `lines` of `language`, in file order."""
    return _definitions(language, _items_unwrapped(language, _parsed(language, code_of(lines))))


# Rust macros called where an item stands, with braces, whose code is items: tokio's
# `cfg_rt! { pub fn spawn(...) }`, pin-project-lite's `pin_project! { pub struct Sleep {...} }`,
# axum's `define_rejection! { pub struct LengthLimitError(Error); }`. The grammar keeps a
# macro's code as tokens; what these define is read with the call (`name! {` and its `}`)
# blanked, every line and column kept, in a module or an `impl` as where it stands. A call
# whose code does not read as items alone (`cfg_if! { if #[cfg(unix)] {...} }`, `bitflags!
# { struct F: u32 {...} }`) is left as it is.
ITEMS_IN_MACROS = {"rust": frozenset({"source_file", "declaration_list"})}
_UNWRAP_DEPTH = 4  # a call in a call: `cfg_rt! { pin_project! { ... } }`


def _items_unwrapped(language: str, text: str) -> str:
    """`text` with each macro call that holds items (see ITEMS_IN_MACROS) blanked around
    them; `text` itself when it has none."""
    where = ITEMS_IN_MACROS.get(language, frozenset())
    for _ in range(_UNWRAP_DEPTH if where and "!" in text else 0):
        blanks: list[tuple[int, int]] = []
        for call in _root(language, text).find_all(kind="macro_invocation"):
            parent, body = call.parent(), call.children()[-1]
            code = body.text()
            if parent is None or parent.kind() not in where or code[:1] + code[-1:] != "{}":
                continue
            items = _root(language, code[1:-1])
            if items.named_children() and _first_error(items) is None:
                start, end = int(body.range().start.index), int(body.range().end.index)
                blanks += [(int(call.range().start.index), start + 1), (end - 1, end)]
        if not blanks:
            break
        for start, end in reversed(blanks):
            text = text[:start] + _BLANKED.sub(" ", text[start:end]) + text[end:]
    return text


@functools.lru_cache(maxsize=2048)
def _definitions(language: str, text: str) -> Index:
    root = _root(language, text)
    broken = _broken(language, text)
    found = walk(root, language, text)
    if language in BRANCHES_READ:  # what the other branches of an `#if` define too
        more = [d for code, again in _branches(root, language) if _first_error(again) is None
                for d in walk(again, language, code)]
        found = sorted(found + more, key=lambda d: d.start) if more else found
    return Index(tuple(found), ParseError(language, broken) if broken else None)


# Languages whose grammar reads one branch of each preprocessor `#if` as code and keeps
# the others as text (Haskell's: `#else` to `#endif` is one node), read again as code here,
# so what they define and hold is found: aeson's KeyMap.hs defines its functions in both
# branches of `#ifdef USE_ORDEREDMAP`, and its second had none.
BRANCHES_READ = {"haskell": "cpp"}


def _branches(root: Any, language: str) -> Iterator[tuple[str, Any]]:
    """Each preprocessor branch `root` holds as text (see BRANCHES_READ), read again as
    code: its code and its tree, their lines the file's (the lines before it left empty,
    and its directives)."""
    for node in root.find_all(kind=BRANCHES_READ[language]):
        span = node.range()
        if span.end.line == span.start.line:
            continue  # a directive alone
        start = int(span.start.line)
        code = "\n" * start + "\n".join("" if line.lstrip().startswith("#") else line
                                         for line in node.text().split("\n"))
        yield code, _root(language, code)


# Nodes that hold no text in code that parses: an empty comment (Lua's `--`), string
# (Go's ``) or heredoc; unlike a token the parser had to assume.
_MAY_BE_EMPTY = re.compile(r"content|comment")


@functools.lru_cache(maxsize=512)
def _broken(language: str, text: str) -> int | None:
    """The first line of `text` (code of `language`) the parser could not read, or None:
    asked of a C or C++ file before it is read (see _parsed), of a JavaScript file by
    grammar_of, and again as either is read."""
    return _first_error(_root(language, text))


def _first_error(root: Any) -> int | None:
    """The line of the first node the parser could not read (an ERROR node, or a token it
    had to assume: a node of no width, but one that may be empty), or None. ast-grep
    finds both (a rule of the kind, a rule of the empty text): a walk over every node in
    Python took most of the index's time."""
    empty = next((node for node in root.find_all(regex="^$") if node != root
                  and not _MAY_BE_EMPTY.search(node.kind())), None)
    return min((int(node.range().start.line) + 1 for node in (root.find(kind="ERROR"), empty)
                if node is not None), default=None)


@functools.lru_cache(maxsize=64)
def _unread_lines(language: str, text: str) -> frozenset[int]:
    """The lines (from 0) of `text` (code of `language`) the parser could not read: those
    of an ERROR node, or of a token it had to assume."""
    root = _root(language, text)
    unread = list(root.find_all(kind="ERROR")) + [
        node for node in root.find_all(regex="^$")
        if node != root and not _MAY_BE_EMPTY.search(node.kind())]
    return frozenset(n for node in unread
                     for n in range(int(node.range().start.line), int(node.range().end.line) + 1))


def _naming(language: str, lines: list[str], word: str,
            index: Index | None = None) -> frozenset[int]:
    """The lines (from 0) where a definition named `word` names it: its first line holding
    the word (fmt's `FMT_CONSTEXPR auto write_int_chr(OutputIt out, ...` in code the
    parser could not read, which the walk still finds a definition in). `index`: the
    definitions of `lines`, when they are known."""
    holds = re.compile(rf"\b{re.escape(word)}\b")
    return frozenset(next((n for n in range(d.start - 1, min(d.end, len(lines)))
                           if holds.search(lines[n])), -1)
                     for d in (index or definitions(language, lines)).definitions
                     if d.name.rsplit(".", 1)[-1] == word)


def uses(language: str, lines: list[str], words: Sequence[str]) -> frozenset[int]:
    """The lines (from 1) of the code `lines` of `language` where each of `words` stands as
    a token of code (a name or a keyword; not in a comment, a string or an import, nor where
    a definition of that name names it: see _naming). Where a claim's count may have missed
    a site: Swift's `self.processNext()` for the pattern `processNext()`, a `guard let x =
    y else` for `guard $C else { $$$B }` (a binding is no one node), a `public func` for
    `func $F($$$A) { $$$B }`."""
    root = _root(language, _parsed(language, code_of(lines), max(words, key=len, default="")))
    index, found = definitions(language, lines), []
    for word in dict.fromkeys(words):
        naming = _naming(language, lines, word, index)
        found.append(frozenset(
            int(node.range().start.line) + 1 for node in root.find_all(regex=f"^{re.escape(word)}$")
            if node.is_leaf() and int(node.range().start.line) not in naming
            and not any(_NOT_A_USE.search(a.kind()) for a in node.ancestors())))
    return frozenset.intersection(*found) if found else frozenset()


# What holds a name that is no use of it (see uses): a string, and an import of it (Python's
# `import_from_statement`, Rust's `use_declaration`, C#'s `using_directive`).
_NOT_A_USE = re.compile(r"string|import|use_declaration|using_directive|preproc_include")


def _unparsed_holding(root: Any, unread: frozenset[int], lines: list[str], word: str,
                      found: list[Any], naming: frozenset[int] = frozenset()) -> int | None:
    """The first line where `word` stands in code the parser could not read (the lines of
    an ERROR node, or of a token it had to assume) outside the matches `found`, outside
    comments and outside `naming` (see _naming), or None. A C file with a type as a
    macro's argument (`va_arg(ap, char*)`) does not parse there only; a C++ header whose
    preprocessor branches each open a namespace is one ERROR node from its include guard
    to its end (fmt's format.h), inside which ast-grep still finds the matches: those
    count. `unread`: the lines of `root` the parser could not read (see _unread_lines)."""
    holds = re.compile(rf"\b{re.escape(word)}\b")
    suspect = sorted(n for n in unread if n < len(lines) and holds.search(lines[n]))
    if not suspect:
        return None
    matched = {n for node in found
               for n in range(int(node.range().start.line), int(node.range().end.line) + 1)}
    comments = _comments(root)
    for n in suspect:
        if n in matched or n in naming:
            continue
        if not all(any(_within(span, n, m.start()) for span in comments)
                   for m in holds.finditer(lines[n])):
            return n + 1
    return None


_COMMENT_KINDS = ("comment", "line_comment", "block_comment", "multiline_comment")


# What is no code where it stands inside a construct (between `catch (...)` and its block,
# after an `if`'s condition, among a call's arguments): a comment, and C#'s `#pragma`,
# `#region` and `#nullable` lines, which change no code. ast-grep matches a pattern to the
# node whole, comments too, so `catch ($T $E) { $$$B }` counted no catch with a `#pragma
# warning restore CA1031` before its block (10 of Polly's 58) nor `if (a) // why` above
# one; the code is read with those left out (between statements, a comment is a node of
# its own, which no pattern of one statement meets).
_ASIDES = (*_COMMENT_KINDS, "preproc_pragma", "preproc_region", "preproc_endregion",
           "preproc_nullable")
_SEQUENCES = re.compile(r"block|body|program|source_file|translation_unit|module|compound|"
                        r"declaration_list|statements|chunk|suite|compilation_unit|declarations")


def _found_aside(language: str, code: str, pattern: str,
                 inside: str | None) -> tuple[str, Any, list[Any], list[Any] | None]:
    """The code `pattern` is matched in, its tree, the nodes `pattern` matches there and
    those `inside` does (see _found): `code` as it is; or, where an aside stands inside a
    construct of a kind the pattern is read as (see _ASIDES, _written_kinds: a `catch`
    clause's for `catch ($T $E) { $$$B }`) and no match holds it, `code` with its asides
    so placed as spaces, every line and column where it was (unless that does not parse
    where it did). So the code is parsed again only where an aside may have stood in a
    match's way (a comment among parameters that `$$$A` stands for is in none's)."""
    root = _root(language, code)
    found = _found(root, language, pattern)
    holders = None if inside is None else _found(root, language, inside)
    kinds = _written_kinds(language, pattern) | (
        _written_kinds(language, inside) if inside is not None else frozenset())
    matched = [_span(node) for node in (*found, *(holders or ()))]
    spans = tuple(aside for aside in _asides(language, code, kinds, literal_of(pattern))
                  if not any(a <= aside[0] and aside[1] <= b for a, b in matched))
    quiet = _spaced(language, code, spans) if spans else code
    if quiet == code:
        return code, root, found, holders
    root = _root(language, quiet)
    return quiet, root, _found(root, language, pattern), (
        None if inside is None else _found(root, language, inside))


@functools.lru_cache(maxsize=512)
def _asides(language: str, code: str, kinds: frozenset[str],
            word: str | None) -> tuple[tuple[int, int], ...]:
    """Where each aside of `code` stands inside a construct (see _inside) of one of
    `kinds` that holds `word` (a pattern's word: not every call's arguments for one call's
    pattern), or whose parent does: found by ast-grep, the rest asked only of those; and,
    where `kinds` holds no annotation (see ANNOTATIONS), each annotation of a declaration
    of one of them that holds `word`."""
    if not kinds or not (_aside_kinds(language) or language in ANNOTATIONS):
        return ()
    root = _root(language, code)
    parents = {"any": [{"kind": kind} for kind in sorted(kinds)], "stopBy": "neighbor"}
    annotations = _held_kinds(language, ANNOTATIONS.get(language, frozenset()))
    spans = [_span(node) for kind in _aside_kinds(language) if kind not in annotations
             for node in root.find_all(kind=kind, inside=parents)
             if _inside(node) and (word is None or _holds(node.parent(), word))]
    if not kinds & annotations:  # (a pattern that writes one counts by it)
        spans += [_span(node) for kind in sorted(annotations)
                  for node in root.find_all(kind=kind)
                  if (held := _annotated(node)) is not None and held.kind() in kinds
                  and (word is None or word in held.text())]
    return tuple(sorted(spans))


# An annotation (Java's and Kotlin's `@Test`, C#'s `[Fact]`, PHP's `#[Route]`, Swift's
# `@discardableResult`) is no part of what a pattern that writes none says: `fun $F($$$A) {
# $$$B }` counted 42 of okio's functions, none with `@Test` or `@Throws(...)` before it
# (ast-grep matches the declaration whole, its annotations among its modifiers). A keyword
# (`public`, `override`) still is: a pattern matches no code with a keyword it does not write.
# By language: a kind's name means other code in another (Python's `attribute` is `a.b`).
ANNOTATIONS = {"java": frozenset({"annotation", "marker_annotation"}),
               "kotlin": frozenset({"annotation"}), "scala": frozenset({"annotation"}),
               "dart": frozenset({"annotation", "marker_annotation"}),
               "csharp": frozenset({"attribute_list"}), "php": frozenset({"attribute_list"}),
               "swift": frozenset({"attribute"})}


def _annotated(annotation: Any) -> Any:
    """What `annotation` annotates: the node that holds it, past its modifiers."""
    node = annotation.parent()
    while node is not None and "modifier" in node.kind():
        node = node.parent()
    return node


def _holds(construct: Any, word: str) -> bool:
    """Whether `construct`, or the node that holds it, holds `word`."""
    return any(node is not None and word in node.text() for node in (construct, construct.parent()))


@functools.lru_cache(maxsize=64)
def _spaced(language: str, code: str, spans: tuple[tuple[int, int], ...]) -> str:
    """`code` with `spans` as spaces (see _found_aside)."""
    quiet = _as_spaces(code, spans)
    if _root(language, quiet).find(kind="ERROR") is not None and \
            _root(language, code).find(kind="ERROR") is None:
        return code
    return quiet


@functools.lru_cache(maxsize=256)
def _written_kinds(language: str, pattern: str) -> frozenset[str]:
    """The kinds of the nodes `pattern` is read as, each way it is (see readings): not the
    kinds of the code a reading places it in (a function's body), but the node it picks."""
    around = frozenset().union(*(_constructs(language, body % "x") for body in
                                 (IN_A_FUNCTION.get(language), IN_A_CLASS.get(language)) if body))
    kinds: set[str] = set()
    for reading in readings(language, _capturing(pattern)[0]):
        if isinstance(reading, str):
            kinds |= _constructs(language, reading)
        else:
            kinds |= (_constructs(language, reading["context"]) - around) | {reading["selector"]}
    return frozenset(kinds)


@functools.lru_cache(maxsize=256)
def _constructs(language: str, code: str) -> frozenset[str]:
    """The kinds of the named nodes of `code` (see _kinds) that hold others, but sequences
    of statements or declarations (see _SEQUENCES) and errors."""
    stack, kinds = [_root(language, _as_names(language, code))], set()
    while stack:
        node = stack.pop()
        kids = node.children()
        if kids and node.is_named() and node.kind() != "ERROR" and not _SEQUENCES.search(node.kind()):
            kinds.add(node.kind())
        stack.extend(kids)
    return frozenset(kinds)


def _aside_kinds(language: str) -> tuple[str, ...]:
    """The kinds of _ASIDES the grammar of `language` has."""
    return tuple(sorted(_held_kinds(language, frozenset(_ASIDES))))


@functools.cache
def _held_kinds(language: str, kinds: frozenset[str]) -> frozenset[str]:
    """Those of `kinds` the grammar of `language` has (ast-grep refuses another)."""
    root, held = _root(language, ""), set()
    for kind in kinds:
        with contextlib.suppress(RuntimeError):
            root.find_all(kind=kind)
            held.add(kind)
    return frozenset(held)


def _inside(node: Any) -> bool:
    """Whether `node` stands inside a construct, not among statements or declarations:
    code that is not an aside before it and after it, in a node that is no sequence."""
    parent = node.parent()
    if parent is None or _SEQUENCES.search(parent.kind()):
        return False
    start, end = _span(node)
    others = [_span(kid) for kid in parent.children() if kid.kind() not in _ASIDES]
    return any(b <= start for _, b in others) and any(a >= end for a, _ in others)


def _comments(root: Any) -> list[tuple[int, int, int, int]]:
    """Where each comment of the tree starts and ends: (line, column) twice, 0-based."""
    spans = []
    for kind in _COMMENT_KINDS:  # a kind its grammar does not have is refused: none there
        with contextlib.suppress(RuntimeError):
            for node in root.find_all(kind=kind):
                a, b = node.range().start, node.range().end
                spans.append((int(a.line), int(a.column), int(b.line), int(b.column)))
    return spans


def _within(span: tuple[int, int, int, int], line: int, column: int) -> bool:
    return (span[0], span[1]) <= (line, column) < (span[2], span[3])


@dataclass(frozen=True)
class Match:
    """A match of a pattern: its first line, that line of code, the matched text, and
    whether it stands inside code an `inside` pattern matches (True when none is given)."""

    line: int
    code: str
    text: str
    inside: bool = True


def matches(language: str, lines: list[str], pattern: str, inside: str | None = None) -> list[Match]:
    """The matches of the ast-grep `pattern` in the code `lines` of `language`, in order,
    each told whether it stands inside code the pattern `inside` matches (as ast-grep's
    `inside` rule, to any depth: `with self._lock: $$$`). Raises ParseError when a match
    may hide in code the parser could not read (its word there outside any match and any
    comment; anywhere, for a pattern without a word), ValueError for a pattern ast-grep
    cannot read in `language`."""
    written = code_of(lines)
    word = literal_of(pattern)
    code = _parsed(language, written, word)
    try:
        code, root, found, holders = _found_aside(language, code, pattern, inside)
    except BaseException as exc:  # ast-grep raises a Rust panic for a pattern it cannot read
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        raise ValueError(str(exc)) from None
    blanked = code != written  # then a match's text is read from the file as written
    broken = _broken(language, code)
    if broken is not None and not word:
        raise ParseError(language, broken)
    declared = _declared_calls(root, language, word) if language in DECLARED_CALLS and word else []
    read = found + [node for node, _ in declared]  # a call read as a declaration is read
    unread = _unread_lines(language, code) if broken is not None and word else frozenset()
    hidden = _unparsed_holding(root, unread, lines, word, read) if unread and word else None
    if hidden is not None and word:  # the line naming a definition of the word is no use of it
        hidden = _unparsed_holding(root, unread, lines, word, read, _naming(language, lines, word))
    if hidden is not None:
        raise Unparsed(language, hidden, word or "")
    spans = [node.range() for node in found]
    at = [(int(span.start.line) + 1,
           written[span.start.index:span.end.index] if blanked else node.text())
          for node, span in zip(found, spans, strict=True)]
    held = {(_span(h), h.kind()) for h in holders} if holders is not None else None
    within = [_held(node, held) for node in found] if held is not None else None
    if language in MACROS_READ and word:  # a macro's code, read as code
        at += _in_macros(root, pattern, word) if language == "rust" else _in_defines(
            root, language, pattern, word)
    at += [(int(node.range().start.line) + int(call.range().start.line) + 1,  # as written
            node.text()[int(call.range().start.index) - len(_AS_CALL):
                        int(call.range().end.index) - len(_AS_CALL)])
           for node, again in declared for call in _found(again, language, pattern)]
    if language in BRANCHES_READ:  # the other branches of an `#if`, read as code
        at += _in_branches(root, language, pattern, word)
    if holders is not None and within is not None:  # those read again: by their lines
        spanned = [(int(h.range().start.line) + 1, int(h.range().end.line) + 1) for h in holders]
        within += [any(a <= line and line + text.count("\n") <= b for a, b in spanned)
                   for line, text in at[len(within):]]
    _unread(root, language, word)
    ordered = sorted(range(len(at)), key=lambda i: at[i][0])  # stable: the file's order
    return [Match(at[i][0], lines[at[i][0] - 1] if at[i][0] <= len(lines) else "", at[i][1],
                  within[i] if within is not None else True) for i in ordered]


def pattern_reads(language: str, pattern: str) -> bool:
    """Whether ast-grep reads `pattern` as a pattern of `language` (as `matches` does)."""
    try:
        _found(_root(language, ""), language, pattern)
    except BaseException as exc:  # a Rust panic, for a pattern it cannot read
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        return False
    return True


def _held(node: Any, holders: set[tuple[tuple[int, int], str]]) -> bool:
    """Whether `node` stands inside one of `holders` (each node's span and kind): whether
    one of them holds it, to any depth."""
    return any((_span(a), a.kind()) in holders for a in node.ancestors())


# A function body of each language, `%s` where a statement goes: how a pattern reads as
# code inside a function does (see `query`).
IN_A_FUNCTION = {
    "python": "def t():\n    %s\n", "javascript": "function t() {\n  %s;\n}\n",
    "typescript": "function t() {\n  %s;\n}\n", "tsx": "function t() {\n  %s;\n}\n",
    "go": "package t\nfunc t() {\n\t%s\n}\n", "rust": "fn t() {\n    %s;\n}\n",
    "java": "class T {\n  void t() {\n    %s;\n  }\n}\n", "c": "void t(void) {\n  %s;\n}\n",
    "cpp": "void t() {\n  %s;\n}\n", "csharp": "class T {\n  void t() {\n    %s;\n  }\n}\n",
    "ruby": "def t\n  %s\nend\n", "kotlin": "fun t() {\n  %s\n}\n", "swift": "func t() {\n  %s\n}\n",
    "scala": "object T {\n  def t(): Unit = {\n    %s\n  }\n}\n",
    "php": "<?php\nfunction t() {\n  %s;\n}\n", "lua": "function t()\n  %s\nend\n",
    "dart": "void t() {\n  %s;\n}\n",
    "solidity": "contract T {\n  function t() public {\n    %s;\n  }\n}\n", "hcl": "t = %s\n",
}


# Where a statement cannot stand but the same code can, as another kind of node: C#'s
# `x ?? throw new E()` and `=> throw new E()` are throw expressions, `throw new E();` a
# throw statement, and a pattern read as the one matched none of the other; Solidity's
# inline assembly reads `extcodecopy(a, 0, 0, 32)` as a Yul call, which a pattern read as
# Solidity's call did not match (OpenZeppelin's EIP7702Utils: a claim counted 0).
IN_AN_EXPRESSION = {"csharp": "class T {\n  void t() {\n    var y = x ?? %s;\n  }\n}\n",
                    "solidity": "contract T {\n  function t() public {\n    assembly {\n"
                                "      %s\n    }\n  }\n}\n",
                    "php": "<?php\nfunction t() {\n  $y = %s;\n}\n"}


def _found(root: Any, language: str, pattern: str) -> list[Any]:
    """The nodes of `root` that `pattern` matches, read each way it reads (see
    readings), in the file's order.

    A pattern that ends in a name or a value, not a closing token, matches only code that
    holds nothing more: ast-grep's default (`smart`) matching lets the code go on where
    such a pattern ends, so Ruby's `raise $E, $M` matched `raise E, m, cause: c` and
    Elixir's and Bash's calls without parentheses matched more arguments than written.
    Those matches are the ones its `relaxed` matching (named nodes only, both sides
    whole) finds too. Nor does a match hold a keyword the pattern does not write, which
    ast-grep skips as a token: `export function $F($$$A) { $$$B }` matched `export async
    function` (TypeScript's `async` is one), `for (const $A of $B)` a `for await`.
    A match of another way of writing the pattern (see _emptied and the others) that starts
    where a longer match does is part of it, not a match: Bash's `nvm_echo $$$A` written
    without its `$$$A` matched each command's name, and counted each command twice.
    Raises what ast-grep raises when no way reads the pattern."""
    named, captures = _capturing(pattern)
    words = _words_of(pattern)
    # (a case's label, its statements after it or none: the case ends where the next begins)
    ended = open_ended(language, pattern) and not _CASE.match(pattern)
    found: dict[tuple[int, int], Any] = {}
    extra: set[tuple[int, int]] = set()  # found only by a reading of another way of writing it
    failed: list[BaseException] = []
    ways = readings(language, named)
    more = [(way, _capturing(written)[1], _words_of(written))  # (a typed head's `when` too)
            for written in (*_emptied(named), *_spelled_out(named), *_typed(language, named),
                            *_spelled_beside(language, named), *_cases(language, named),
                            *_otherwise(language, named), *_guarded(language, named))
            for way in map(functools.partial(_as_in, language, named), readings(language, written))
            if way not in ways]
    for reading, held, words in (*((way, captures, words) for way in ways), *more):
        try:
            nodes = list(root.find_all(pattern=reading))
        except BaseException as exc:  # a Rust panic: ast-grep does not read it this way
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise
            if reading in ways:
                failed.append(exc)
            continue
        rule = dict(reading) if isinstance(reading, dict) else {"context": reading}
        said = (words, _kinds(language, rule["context"]))
        nodes = [n for n in nodes if not _words_beyond(n, said, held)]
        if nodes and ended:
            whole = {_span(n) for n in root.find_all(pattern={**rule, "strictness": "relaxed"})}
            nodes = [n for n in nodes if _span(n) in whole]
        for node in nodes:
            found.setdefault(_statement_span(node), node)
            if reading not in ways:
                extra.add(_statement_span(node))
    if len(failed) == len(ways):
        raise failed[0]  # no way reads it
    ends: dict[int, int] = {}  # where the longest match that starts at each place ends
    for start, end in found:
        ends[start] = max(end, ends.get(start, end))
    return [found[span] for span in sorted(found) if span not in extra or ends[span[0]] == span[1]]


def _as_in(language: str, pattern: str, way: str | dict[str, str]) -> str | dict[str, str]:
    """`way`, a reading of `pattern` written without its end (see _emptied), picking the
    node that text is in `pattern`, where alone it reads as a node of another kind: Bash's
    `nvm_download $$$A` without its `$$$A` reads alone as a word, which matched the name of
    `nvm_download() {`; in the pattern it is a command's name (`>&2 nvm_echo "$@"` too)."""
    if not isinstance(way, str) or not way.strip() or not pattern.strip().startswith(way.strip()):
        return way
    written = way.strip()
    node, outer = _root(language, _as_names(language, pattern.strip())), None
    while node is not None:  # the outermost named node that spans exactly `written`
        span = node.range()
        if span.start.index == 0 and span.end.index == len(written) and node.is_named():
            outer = outer or node.kind()
        node = next((kid for kid in node.children()
                     if kid.range().start.index == 0 and kid.range().end.index >= len(written)), None)
    alone = _kind_spanning(language, written, 0, len(written))
    return way if outer in (alone, None) or alone is None else {"context": way, "selector": outer}


def _words_of(pattern: str) -> Counter[str]:
    """The words `pattern` writes (its metavariables aside), each with how often."""
    return Counter(_WORD.findall(_METAVARIABLE.sub(" ", pattern)))


# A multiple metavariable last in a list, after a comma (`f($B, $$$A)`, `def $F(self, $$$A)`),
# or last in the pattern, after a word or a token (`return $$$A`, `case $X: $$$B`).
_LAST_MULTIPLE = re.compile(r"\s*,\s*(\$\$\$(?:[A-Z_][A-Z0-9_]*)?)(?=\s*(?:[)\]}>]|$))"
                               r"|(?<=[\w:)\]])\s+(\$\$\$(?:[A-Z_][A-Z0-9_]*)?)\s*$")


@functools.lru_cache(maxsize=256)
def _emptied(pattern: str) -> tuple[str, ...]:
    """`pattern` written with each multiple metavariable that stands last in a list after a
    comma left out, with its comma, one after another, and one that ends the pattern
    after a word or a token: what it stands for may be nothing, but ast-grep matches the
    comma before it only to a comma, so `def $F(self, $$$A)` matched no method of `self`
    alone, `f($$$A, key=$V, $$$B)` no call that passes `key` last, and `f($B, $$$A)` no
    call of one argument; nor did Go's `return $$$A` match a bare `return` (69 of gin's
    872), nor `case $X: $$$B` a case that holds no statement. (A metavariable the pattern
    names twice is kept: what it matches is the same at both.)"""
    found: list[str] = []
    todo = [pattern]
    while todo and len(found) < 8:
        for last in _LAST_MULTIPLE.finditer(todo.pop()):
            text = last.string
            if len(re.findall(re.escape(last[1] or last[2]) + r"(?![A-Z0-9_])", text)) > 1:
                continue
            emptied = text[:last.start()] + text[last.end():]
            if emptied not in found and emptied != pattern:
                found.append(emptied)
                todo.append(emptied)
    return tuple(found)


_CASE = re.compile(r"^\s*(?:case\b.*|default\s*):(\s+\$\$\$(?:[A-Z_][A-Z0-9_]*)?)?\s*$", re.S)


@functools.lru_cache(maxsize=256)
def _cases(language: str, pattern: str) -> tuple[str, ...]:
    """A switch's `case` or `default` label written alone, read with the statements after
    it too (`case $X:` as `case $X: $$$SG_BODY`): a case holds the statements after its
    label, and ast-grep matched `case $X:` only to a case that holds none (1 of
    JavaScript's cases in a switch of four). (`case $X: $$$B`, which matched none that
    holds none, is read without its `$$$B` too: see _emptied.)"""
    found = _CASE.match(pattern)
    if found is None or found[1] is not None or "case" not in CLAUSES.get(language, {}) \
            or language == "python":
        return ()
    return (f"{pattern.rstrip()} $$$SG_BODY",)


# Where a case of a `match` writes its guard (`case p if p.isEmpty =>` in Scala, `case [a]
# if a > 0:` in Python, Rust's arm `Some(v) if v > 0 =>`): what begins the case (Rust's
# arm, its pattern), and the token that ends its head, before which the guard stands.
GUARDED = {"scala": ("case", "=>"), "python": ("case", ":"), "rust": ("", "=>")}


@functools.lru_cache(maxsize=256)
def _guarded(language: str, pattern: str) -> tuple[str, ...]:
    """A `case` of a `match` that writes no guard, read with one written in too (`case $X
    if $SG_GUARD => $Y`): ast-grep matches a guarded case only with a pattern that writes a
    guard, so Scala's `case $X => $Y` counted none of os-lib's guarded cases."""
    begins, ends = GUARDED.get(language, (None, ""))
    if begins is None or not re.match(rf"\s*{begins}\b" if begins else r"\s*[^|]", pattern) \
            or ends not in pattern:
        return ()
    depth, at = 0, pattern.index(begins) + len(begins)
    while at < len(pattern) and not (depth == 0 and pattern.startswith(ends, at)):
        depth += (pattern[at] in "([{") - (pattern[at] in ")]}")
        at += 1
    if at >= len(pattern) or re.search(r"\bif\b", pattern[:at]):
        return ()
    return (f"{pattern[:at].rstrip()} if $SG_GUARD {pattern[at:].lstrip()}"
            if ends == "=>" else f"{pattern[:at].rstrip()} if $SG_GUARD{pattern[at:]}",)


# Languages whose `if` has its body in braces and its `else` after them (`if ($C) { ... }
# else ...`; Go's, Rust's and Swift's `if $C { ... } else ...`).
ELSE_AFTER_BRACES = frozenset({"javascript", "typescript", "tsx", "java", "c", "cpp", "csharp",
                               "php", "dart", "kotlin", "go", "rust", "swift", "scala"})
_IF_BRACED = re.compile(r"^\s*if\b.*\}\s*$", re.S)


@functools.lru_cache(maxsize=256)
def _otherwise(language: str, pattern: str) -> tuple[str, ...]:
    """An `if`'s pattern that writes no `else`, read with one written in too (`if ($C) {
    $$$B } else $SG_ELSE`, the else a block or another `if`): ast-grep matches an `if`
    with an `else` only with a pattern that writes one, so `if ($C) { $$$B }` counted 511
    of gson's 637 `if`s, none that has an `else` (Python's counts them: its grammar holds
    the `else` among what `$$$B` stands for)."""
    if language not in ELSE_AFTER_BRACES or not _IF_BRACED.match(pattern) or \
            re.search(r"\belse\b", pattern):
        return ()
    return (f"{pattern.rstrip()} else $SG_ELSE",)


# A multiple metavariable that an item follows in its list, after a comma (`f($$$A, $B)`,
# `List($$$A, "")`), and how many nodes it is written as at most where ast-grep's own
# reading of it ends too soon (see _spelled_out).
_BEFORE_AN_ITEM = re.compile(r"\$\$\$([A-Z_][A-Z0-9_]*)(?![A-Z0-9_])(\s*,\s*)(?!\$\$\$)(?=[^\s)\]}>])")
SPELLED_OUT = 12


@functools.lru_cache(maxsize=256)
def _spelled_out(pattern: str) -> tuple[str, ...]:
    """`pattern` with each multiple metavariable that an item follows in its list (after a
    comma) written as one metavariable alone, then two, ... up to SPELLED_OUT: ast-grep ends
    `$$$A` at the first node the item after it matches, and does not try again, so
    `f($$$A, $B)` matched calls of one argument only, and Scala's `List($$$A, "")` no list
    with another `""` before its last. A list of more items than that, whose item after
    `$$$A` stands earlier in it too, is not matched."""
    out: list[str] = []
    for found in _BEFORE_AN_ITEM.finditer(pattern):
        for count in range(1, SPELLED_OUT + 1):
            items = found[2].join(f"${found[1]}_N{at}" for at in range(count))
            out.append(pattern[:found.start()] + items + pattern[found.start(2):])
    return tuple(out)


@functools.lru_cache(maxsize=256)
def _spelled_beside(language: str, pattern: str) -> tuple[str, ...]:
    """`pattern` with a multiple metavariable that ast-grep ends at once (see
    _ellipsis_stopped) written as no metavariable, then one, two, ... up to SPELLED_OUT, a
    comma between them, where the grammar reads two so written whole: Python's `lambda
    $$$A: $B`, whose parameters stand beside its body, is read as `lambda: $B`, `lambda
    $A_N0: $B`, ...; () where there is none such, or the grammar does not (Swift's
    parameters, which are no names alone)."""
    stopped = _ellipsis_stopped(language, pattern)
    if stopped is None:
        return ()
    many = re.compile(re.escape(stopped[0]) + r"(?![A-Z0-9_])")
    name = stopped[0].lstrip("$")
    spelled = tuple(many.sub(", ".join(f"${name}_N{at}" for at in range(count)), pattern, count=1)
                    for count in range(SPELLED_OUT + 1))
    places = places_read(language, spelled[2])
    reads = any(_root(language, _as_names(language, place)).find(kind="ERROR") is None
                for place in places)
    return spelled if reads else ()


# Where a function's return type is written, in each language that writes it after the
# parameters: what begins a function's head (its word; TypeScript's method, a name first,
# and arrow function), the token that ends the head (a body's `{`, Python's `:`, Scala's
# `=`, an arrow's `=>`), and the return type as it is written before that token.
_TS_METHOD = (r"^\s*(?:(?:static|async|public|private|protected|readonly|override|get|set)\s+)*"
              r"(?!(?:if|for|while|switch|catch|with|return|new|await|typeof|super|do)\b)[#$\w]+(?=\s*\()")
_TS_TYPES = ((r"(?<![\w$.])function\b", "{", ": $RETURNED"), (_TS_METHOD, "{", ": $RETURNED"),
             (r"^\s*(?:async\s+)?(?=\()", "=>", ": $RETURNED"))
RETURN_TYPES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "python": ((r"(?<![\w$.])def\b", ":", "-> $RETURNED"),), "typescript": _TS_TYPES,
    "tsx": _TS_TYPES, "rust": ((r"(?<![\w$.])fn\b", "{", "-> $RETURNED"),),
    "go": ((r"(?<![\w$.])func\b", "{", "$RETURNED"),),
    "kotlin": ((r"(?<![\w$.])fun\b", "{", ": $RETURNED"),),
    "swift": ((r"(?<![\w$.])func\b", "{", "-> $RETURNED"),),
    "scala": ((r"(?<![\w$.])def\b", "=", ": $RETURNED"),),
    "php": ((r"(?<![\w$.>:])function\b", "{", ": $RETURNED"),
            (r"(?<![\w$.>:])fn\b", "=>", ": $RETURNED")),
    # (Elixir writes no return type, but a guard there, which ast-grep matches likewise only
    # with a pattern that writes one: `def $F($$$A) do $$$B end` counted no `def f(x) when
    # is_list(x) do`, 67 of the 259 in plug's lib/)
    "elixir": tuple((rf"(?<![\w.@:]){word}\b", ends, "when $RETURNED")
                    for word in ("def", "defp", "defmacro", "defmacrop") for ends in (" do", ", do:"))}
_HEAD_ENDS = re.compile(r"(?:\)|\b(?:async|throws|rethrows))\s*$")  # (Swift's effects)


def _ends_at(pattern: str, at: int, ends: str) -> bool:
    """Whether the token `ends` stands at `at` in `pattern` (Scala's `=` not as `=>`'s
    start, Elixir's ` do` not as `download`'s)."""
    return pattern.startswith(ends, at) and not (ends == "=" and pattern[at:at + 2] == "=>") \
        and not (ends[-1].isalpha() and pattern[at + len(ends):at + len(ends) + 1].isalnum())


@functools.lru_cache(maxsize=256)
def _typed(language: str, pattern: str) -> tuple[str, ...]:
    """`pattern` with a return type (a metavariable) written into each function's head that
    writes none, where the language writes one after the parameters (RETURN_TYPES):
    ast-grep matches a function whose head holds one only with a pattern that writes one,
    so Python's `def $F($$$A): $$$B` counted no function with a `-> int`, TypeScript's
    `function $F($$$A) { $$$B }` none with a `: number`, and its `static $M($$$A) { $$$B }`
    none of ky's methods that declare what they return."""
    if "RETURNED" in pattern:
        return ()
    out: list[str] = []
    for word, ends, written in RETURN_TYPES.get(language, ()):
        for begins in re.finditer(word, pattern):
            depth, at = 0, begins.end()
            while at < len(pattern) and not (depth == 0 and _ends_at(pattern, at, ends)):
                depth += (pattern[at] in "([") - (pattern[at] in ")]")
                at += 1
            head = pattern[begins.end():at]
            if at < len(pattern) and (found := _HEAD_ENDS.search(head)) is not None and \
                    "(" in head and (language == "swift" or found[0].strip() == ")"):
                cut = begins.end() + found.end() - len(found[0]) + len(found[0].rstrip())
                out.append(f"{pattern[:cut]} {written}{pattern[cut:]}")
    return tuple(dict.fromkeys(out))


# A class's body in each language whose grammar reads a member there as another kind of
# node than alone or in a function: C#'s and Dart's methods (alone, local functions), C#'s
# properties, PHP's and TypeScript's methods (not read alone at all).
IN_A_CLASS = {language: "class T {\n  %s\n}\n" for language in
              ("csharp", "dart", "typescript", "tsx", "javascript")}
IN_A_CLASS["php"] = "<?php\nclass T {\n  %s\n}\n"
# The kinds of a member read so: a grammar reads much in a class's body as some member
# (C#'s a `catch (...) { }` as a constructor named catch), which is no reading of it.
MEMBERS = frozenset({"method_declaration", "method_definition", "property_declaration"})


@functools.lru_cache(maxsize=256)
def readings(language: str, pattern: str) -> tuple[str | dict[str, str], ...]:
    """The ways ast-grep is asked to read `pattern`: as `query` reads it; as it stands
    alone, where `query` reads it in a function's body as another kind (Dart reads a
    function there as a local one, alone as one of the file's); in a class's body, where
    that reads it as a member (IN_A_CLASS, MEMBERS: a C# or Dart method, which counted
    only local functions, a C# property, a PHP or TypeScript method, which ast-grep
    could not read alone); a statement's as the expression it is, without its `;`, where
    ast-grep cannot read the statement (see _misnamed: PHP's `$R = f($$$A);`, which it
    reads as `$R = f($$$A)`); where only an expression stands (see as_expression)."""
    first = query(language, pattern)
    written = pattern.strip()
    alone = _kind_in(language, "%s", written)
    kinds = {first["selector"] if isinstance(first, dict) else alone}
    out: list[str | dict[str, str]] = [first]
    if isinstance(first, dict) and alone is not None and (alone not in kinds or written.endswith(";")):
        out.append(pattern)  # (a statement read in a function and alone: see query)
        kinds.add(alone)
    body = IN_A_CLASS.get(language)
    member = _kind_in(language, body, written) if body and written else None
    if body and member in MEMBERS and member not in kinds:
        out.append({"context": _placed(body, written)[0], "selector": member})
    clause = as_clause(language, written)
    if clause is not None and clause["selector"] not in kinds:
        out.append(clause)
    bare = written.removesuffix(";").rstrip()
    if bare != written and bare and _misnamed(language, written):
        out.append(bare)  # (PHP reads `$R = f();` with `$R` a name as no statement)
    also = as_expression(language, pattern)
    return (*out, also) if also is not None else tuple(out)


# A clause of a statement (`catch (e) { ... }`, Python's `except E:`, Ruby's `rescue`), by
# the word it begins with, and the statement it is read in (its `%s`): alone no grammar
# reads one, so such a pattern matched nothing, or what the grammar made of it (ky's
# `catch ($E) { $$$B }`, a call of `catch` then a block, counted none of its 15 catches).
_BRACED = {"catch": "try {} %s", "finally": "try {} %s", "else": "if (x) {} %s",
           "case": "switch (x) { %s }", "default": "switch (x) { %s }"}
CLAUSES: dict[str, dict[str, str]] = {
    **{language: _BRACED for language in ("javascript", "typescript", "tsx", "java", "csharp",
                                         "cpp", "kotlin", "dart", "php")},
    "c": {key: _BRACED[key] for key in ("else", "case", "default")},
    "swift": {"catch": "do {} %s", "else": "if x {} %s", "case": "switch x {\n%s\n}",
              "default": "switch x {\n%s\n}"},
    "go": {"else": "if x {\n} %s", "case": "switch x {\n%s\n}", "default": "switch x {\n%s\n}"},
    "rust": {"else": "if x {} %s"},
    "python": {"except": "try:\n    pass\n%s", "finally": "try:\n    pass\n%s",
               "elif": "if x:\n    pass\n%s", "else": "if x:\n    pass\n%s",
               "case": "match x:\n    %s"},
    "ruby": {"rescue": "begin\n  x\n%s\nend", "ensure": "begin\n  x\n%s\nend",
             "elsif": "if x\n  y\n%s\nend", "else": "if x\n  y\n%s\nend",
             "when": "case x\n%s\nend"},
}


# An arm of a `match` (Rust's `Some($V) => $E`), a `when` (Kotlin's `1 -> $Y`) or a `case`
# (Elixir's `{:ok, $V} -> $E`), by the token that ends its head, read in one: alone it is
# no code, and a claim that counted a match's arms was refused.
ARMS = {"rust": ("=>", "match x { %s }"), "kotlin": ("->", "when (x) {\n%s\n}"),
        "elixir": ("->", "case x do\n%s\nend")}


@functools.lru_cache(maxsize=256)
def as_clause(language: str, written: str) -> dict[str, str] | None:
    """The ast-grep rule for `written`, a clause of a statement by the word it begins with
    (see CLAUSES), or an arm of a `match` by the token that ends its head (see ARMS), read
    in that statement (in a function's body, where the language asks for one), its node
    picked by kind; None for another pattern, or one the statement does not read as one
    node."""
    word = _WORD.match(written)
    wrappers = [CLAUSES.get(language, {}).get(word[0]) if word else None]
    if language in ARMS and ARMS[language][0] in written:  # (Kotlin's `else -> $Y` too)
        wrappers.append(ARMS[language][1])  # (an arm begins with its pattern, no word of its own)
    body = IN_A_FUNCTION.get(language) if language not in ("python", "ruby") else None
    for wrapper in filter(None, wrappers):
        around = _placed(body.replace("%s;", "%s"), wrapper)[0] if body else wrapper
        kind = next(filter(None, (_kind_spanning(language, *_placed(around, code)) for code in
                                  (written, _MULTIPLE.sub("", written).rstrip()))), None)
        if kind:
            return {"context": _placed(around, written)[0], "selector": kind}
    return None


def places_read(language: str, pattern: str) -> list[str]:
    """The code each way ast-grep reads `pattern` (see readings) reads it in: the pattern
    alone, or the code around it (a `context`)."""
    return [r if isinstance(r, str) else r["context"] for r in readings(language, pattern)]


@functools.lru_cache(maxsize=256)
def unread_at(language: str, pattern: str) -> str | None:
    """Where the grammar of `language` cannot read `pattern` in any of the ways ast-grep is
    asked to read it (see readings), each metavariable read as a name: the pattern's text
    at its first error inside a construct the grammar read, read alone; None when some way
    reads it so without one. Such a pattern matches nothing at all (Ruby reads `class $C
    < Base` with an error where the class's name, a constant, stands; Python `try: $$$A
    except $E: $$$B`), which ast-grep does not say. An error that wraps what the pattern
    is at its top (Python's decorator without its function, `@click.option($$$A)`) is
    none: ast-grep matches the code it wraps."""
    for code in places_read(language, _capturing(pattern)[0]):
        for named in (_as_names(language, code),
                      _as_names(language, _MULTIPLE.sub("", code))):  # (any number: none)
            if _error_within(_root(language, named)) is None:
                return None
    written = pattern.strip()
    error = _error_within(_root(language, _as_names(language, written)))
    start, end = _span(error) if error is not None else (0, len(written))
    return (written[start:end].strip() or written).splitlines()[0][:40]


@functools.lru_cache(maxsize=256)
def counts_in(language: str, pattern: str) -> bool:
    """Whether `pattern` is counted in files of `language`: in any language of code; in
    YAML (data), a pattern that writes a key or an item (`uses: $A`, `- run: $C`), not a
    lone scalar, which is how YAML reads any code (`save($$$A)`): a call counted in a
    workflow would match nothing there, and a claim with only such files to count in
    would hold whatever the code is."""
    if language != "yaml":
        return True
    root = _root(language, _as_names(language, pattern.strip()))
    return any(root.find(kind=kind) is not None
               for kind in ("block_mapping_pair", "block_sequence_item", "flow_pair"))


def _error_within(root: Any) -> Any:
    """The first ERROR node of `root` inside a construct the grammar read (not one of the
    root's own), or None."""
    return next((e for e in root.find_all(kind="ERROR") if e.parent() is not None
                 and e.parent().parent() is not None), None)


def _as_names(language: str, code: str) -> str:
    """`code` with each metavariable written as a name (`$X` `_X`, `$$$A` `___A`), every
    other `$` kept (PHP's `$this`, JavaScript's `$el`), each character where it was. PHP
    writes a variable where other languages write a name, and reads no name in its place
    (`$R = f()`, `function ($X) {}`, `catch (E $E)`, a parameter): where the names make no
    PHP, a metavariable is written as a variable (`$X` as it is, `$$$A` `$__A`), but where
    PHP wants a name (see _PHP_NAME_BEFORE)."""
    names = _METAVARIABLE.sub(lambda m: m[0].replace("$", "_"), code)
    if language != "php" or _root(language, names).find(kind="ERROR") is None:
        return names
    return _METAVARIABLE.sub(lambda m: _php_named(code, m), code)


# Where PHP reads a name and no variable: what a function, class or constant declares, a
# type (before a variable, or after a return type's `:`, or in a union), a part of a
# namespace's name, a member's or a class constant's name.
_PHP_NAME_BEFORE = re.compile(r"(?:\b(?:function|class|interface|trait|enum|extends|implements|"
                              r"const|namespace|goto)\s+&?|\)\s*:\s*\??\s*|\|\s*|\bcatch\s*\(\s*|"
                              r"\\|::|->)$")
_PHP_NAME_AFTER = re.compile(r"\s*(?:&\s*)?(?:\.\.\.\s*)?\$(?!\$)|\s*\||\\")


def _php_named(code: str, found: re.Match[str]) -> str:
    """The metavariable `found` in PHP's `code`, written as a variable or as a name (see
    _as_names)."""
    written = found[0]
    if _PHP_NAME_BEFORE.search(code, 0, found.start()) or _PHP_NAME_AFTER.match(code, found.end()):
        return written.replace("$", "_")
    return "$__" + written[3:] if written.startswith("$$$") else written


def _placed(body: str, code: str) -> tuple[str, int, int]:
    """`body` with `code` where it has `%s`, each line of `code` after its first indented as
    far as the `%s` line is (a pattern of lines, `pattern: |`: Python's `for` and its body
    in a function's body), and where `code` stands in it and how long it is there."""
    at = body.index("%s")
    indent = body[body.rfind("\n", 0, at) + 1:at]
    placed = code.replace("\n", "\n" + indent) if indent.strip() == "" else code
    return body.replace("%s", placed, 1), at, len(placed)


def _kind_in(language: str, body: str, written: str) -> str | None:
    """The kind of node `written` is read as where `body` has `%s` (see _kind_spanning),
    or, when that reads nothing, with what each `$$$` metavariable stands for left out
    (any number of nodes may be none: `void f() { $$$B }` is read as `void f() {  }`,
    which C-like grammars read where `{ _B }` is no statement; PHP, which asks a `;` of
    each statement, as `{ $__B; }`, where `function () use () {}` is no code)."""
    for code in _ways_written(written):
        kind = _kind_spanning(language, *_placed(body, code))
        if kind is not None:
            return kind
    return None


def _ways_written(written: str) -> tuple[str, str, str]:
    """`written`; with each body of a `$$$` metavariable alone written as a statement
    (`{ $$$B; }`); with what each `$$$` stands for left out (see _kind_in)."""
    return written, _body_stated(written), _MULTIPLE.sub("", written)


def _body_stated(code: str) -> str:
    """`code` with each body of a `$$$` metavariable alone written as a statement: `{ $$$B;
    }` for `{ $$$B }`."""
    return _BODY_ALONE.sub(lambda m: m[0][:-1].rstrip() + "; }", code)


_MULTIPLE = re.compile(r"\$\$\$[A-Z0-9_]*")
_BODY_ALONE = re.compile(r"\{\s*\$\$\$[A-Z0-9_]*\s*\}")  # `{ $$$B }`
_BODY_STATED = re.compile(r"\{\s*\$\$\$[A-Z0-9_]*;\s*\}")  # `{ $$$B; }`


def _body_said(language: str, written: str) -> str | None:
    """Why a pattern with a body of a metavariable alone matches nothing, where the
    grammar reads that body as another kind of code (see _body_misread), or reads no
    metavariable alone as a statement (`{ $$$B; }`: see _statement_misread); None when
    not."""
    if _BODY_STATED.search(written) and _statement_misread(language):
        return (f"matches nothing: {language}'s grammar reads '{{ $$$B; }}' as no block of "
                "statements (C# reads no name alone as a statement; Ruby reads the braces as a "
                "hash), so ast-grep matches no code with it; expected what the body holds "
                "written out ('{ return $X; }', '{ $F($$$A); }'), or count in a definition by "
                "its name ('in: file::Name')")
    if not _body_misread(language, written) or not pattern_reads(language, written):
        return None  # (one ast-grep cannot read at all is said so where it is matched)
    stops = _stops_at(language, _body_stated(written))
    if stops is not None:  # (not its body, then: C's `for ($$$A) { $$$B }`, a head of one)
        return (f"matches nothing: {language}'s grammar reads '{stops}' of it as no code, its "
                "body written as a statement too, where a function's body has one; expected "
                "code that reads whole there, a pattern of what the bodies hold counted in a "
                "definition by its name ('in: file::Name'), or 'text:'")
    return ("matches nothing: ast-grep reads its body of a metavariable alone ('{ $$$B }') "
            f"as another kind of code than a body, as {language}'s grammar reads a name alone "
            "in braces; expected what the body holds written out ('{ return $X; }'), or "
            "count in a definition by its name ('in: file::Name')")


@functools.lru_cache(maxsize=64)
def _statement_misread(language: str) -> bool:
    """Whether the grammar of `language` reads `{ SG; }` in a function's body with an error
    (C#'s reads no name alone as a statement: an error and an empty statement; Ruby's
    braces are a hash), so that `{ $$$B; }` matches nothing at all."""
    body = IN_A_FUNCTION.get(language)
    return body is not None and _root(language, body % "{ SG_BODY; }").find(kind="ERROR") is not None


def _stops_at(language: str, written: str) -> str | None:
    """Where the grammar of `language` stops reading `written` in a function's body, each
    metavariable a name, outside its bodies (`{ $$$B; }`): the pattern's text there; None
    where it reads it whole, or stops inside a body (C#'s reads no name alone there)."""
    body = IN_A_FUNCTION.get(language)
    if body is None:
        return None
    code, at, length = _placed(body.replace("%s;", "%s"), written)
    error = _root(language, _as_names(language, code)).find(kind="ERROR")
    if error is None:
        return None
    start, end = _span(error)
    if any(a < end and start < b for a, b in (m.span() for m in _BODY_STATED.finditer(code))):
        return None
    shown = code[max(start, at):min(end, at + length)].strip()
    return (shown.splitlines() or [written])[0][:40]


def _body_misread(language: str, written: str) -> bool:
    """Whether every way ast-grep reads `written` (see readings) reads a body of a
    metavariable alone in it (`{ $$$B }`) as another kind of node than it reads the same
    braces empty: C#'s `if ($C) { $$$B }` an initializer (no `if` matched, a claim counted
    0), Dart's a set literal. (A body read as a body with an error in it is matched: Java's,
    Kotlin's, Rust's.)"""
    if not _BODY_ALONE.search(written):
        return False
    for code in places_read(language, written):
        blank = _as_names(language, _BODY_ALONE.sub(  # (each body's; not `guard $$$C else`)
            lambda m: _MULTIPLE.sub(lambda v: " " * len(v[0]), m[0]), code))
        named = _as_names(language, code)
        if all(_kind_at(language, named, *m.span()) == _kind_at(language, blank, *m.span())
               for m in _BODY_ALONE.finditer(code)):
            return False  # (a way that reads each body as a body)
    return True


def _kind_at(language: str, code: str, start: int, end: int) -> str | None:
    """The kind of the innermost node of `code` that spans `start` to `end` exactly, an
    error's too; None when none does."""
    node, kind = _root(language, code), None
    while node is not None:
        span = node.range()
        if span.start.index == start and span.end.index == end:
            kind = node.kind()
        node = next((child for child in node.children()
                     if child.range().start.index <= start and child.range().end.index >= end),
                    None)
    return kind


# Bash writes a function's or a variable's name as a word: a metavariable there (`$F() {`,
# `$V=$X`) is read as an expansion of a variable, which no definition or assignment is.
_BASH_NAMED = re.compile(r"(?:^|[;&|(\n])\s*(?:function\s+)?\$[A-Z_][A-Z0-9_]*(?:\s*\(\s*\)|\+?=)")
# What a pattern of a language needs that its grammar asks of it, said when ast-grep
# cannot read one.
PATTERN_HINTS = {"bash": "; in bash a group's '}' comes after ';' or a new line, as in "
                         "'nvm_echo() { $$$B; }'"}


def misread(language: str, pattern: str) -> str | None:
    """Why ast-grep matches `pattern` as other code than it is written as, where that is
    known, else None: C++'s grammar reads a body of a metavariable alone (`{ $$$B }`)
    after a function's parameters as an initializer list, so a pattern of a function's
    definition is a declaration to it, and matches no definition (C#'s reads one after an
    `if (...)` or a `foreach (...)` as an initializer: see _body_misread); Bash reads a
    metavariable where a function's or a variable's name stands as a variable's
    expansion (see _BASH_NAMED)."""
    written = pattern.strip()
    if (stopped := _ellipsis_stopped(language, written)) is not None and \
            not _spelled_beside(language, written):
        many, one = stopped
        return (f"matches only code where '{many}' stands for no node: ast-grep's '{many}' "
                f"takes nodes only until one that '{one}', the metavariable after it, matches, "
                "and any node does, so it takes none and does not try again (Swift's 'func "
                "$F($$$A) -> $T { $$$B }' counts functions of no parameter, whose parameters "
                f"stand beside the return type); expected what '{one}' stands for written out "
                f"('-> Int'), or the pattern without it ('func $F($$$A) {{ $$$B }}' counts "
                "functions whatever they return)")
    if language == "bash" and _BASH_NAMED.search(written):
        return ("matches no definition or assignment in bash: a function's or a variable's "
                "name is a word there, and a metavariable in its place ('$F() {', '$V=') is "
                "read as a variable's expansion; expected the name written out "
                "('nvm_echo() { $$$B; }', 'NVM_DIR=$X'), or 'text:'")
    if language != "cpp" or _kind_in(language, "%s", written) != "declaration" or \
            as_clause(language, written) is not None:  # (`catch ($C) { $$$B }`, a clause)
        return _body_said(language, written)
    bare = _MULTIPLE.sub("", written)
    if _kind_spanning(language, bare, 0, len(bare)) != "function_definition":
        return None
    return ("matches no function's definition in C++: ast-grep reads a body of a "
            "metavariable alone after the parameters ('{ $$$B }') as an initializer list, "
            "so the pattern is a declaration to it; expected a pattern of what the bodies "
            "hold, counted in a definition by its name ('in: table.cpp::Table.put'), or "
            "'text:'")


# How code written as a pattern is made from it (see unmatched): each metavariable written
# as a name; then a body of one alone (`{ $$$B }`) holding a statement, then holding none.
WITNESSES = (("each metavariable written as a name", lambda code: code),
             ("a body of a metavariable alone written as a statement", _body_stated),
             ("a body of a metavariable alone written empty",
              lambda code: _BODY_ALONE.sub("{ }", code)))
# Languages whose code writes `$NAME` itself (Bash's expansions): a name in a metavariable's
# place is other code, so no witness is made (see misread for what Bash's names need).
_DOLLAR_CODE = frozenset({"bash"})


@functools.lru_cache(maxsize=256)
def unmatched(language: str, pattern: str) -> tuple[str, str] | None:
    """Code written as `pattern` is that ast-grep does not match with it, and how it was
    written (see WITNESSES); None when each way of writing it that the grammar reads
    whole is matched. Such a pattern matches no code: ast-grep reads it as another kind
    of code than the same text in a file. Dart reads `if ($C) { $$$B }` as an `if` of a
    set's literal, which no `if (c) { x(); }` is; HCL matches `resource $T $N { $$$B }`
    with no resource. The code is the pattern where each way ast-grep reads it stands
    (see readings); a place that reads one of the pattern's words as a name where another
    reads it as a keyword is none (Dart reads `if (c) { x(); }` alone as a function named
    `if`)."""
    named = _capturing(pattern)[0]
    if language in _DOLLAR_CODE or not named.strip():
        return None
    words = frozenset(_WORD.findall(_METAVARIABLE.sub(" ", named)))
    places = places_read(language, named)
    for how, write in WITNESSES:
        read: list[tuple[Any, frozenset[str]]] = []
        keywords: set[str] = set()
        for code in dict.fromkeys(_as_names(language, write(place)) for place in places):
            root = _root(language, code)
            if root.find(kind="ERROR") is None and (said := _words_read(root, words)):
                read.append((root, said[0]))
                keywords |= said[1]
        read = [(root, names) for root, names in read if not names & keywords]
        if read and not any(_found(root, language, pattern) for root, _ in read):
            return _as_names(language, write(pattern.strip())), how
    return None


def _words_read(root: Any, words: frozenset[str]) -> tuple[frozenset[str], frozenset[str]] | None:
    """Which of `words` the code of `root` reads as names, and which as keywords (tokens of
    the grammar); None when the grammar read a token that is not there (a `;` it
    supposed missing, Swift's `let` before `unowned x`), where the code is no program."""
    names: set[str] = set()
    keywords: set[str] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        kids = node.children()
        if kids:
            stack.extend(kids)
            continue
        start, end = _span(node)
        if start == end and node is not root:
            return None
        if (text := node.text()) in words:
            (names if node.is_named() else keywords).add(text)
    return frozenset(names), frozenset(keywords)


@functools.lru_cache(maxsize=256)
def _ellipsis_stopped(language: str, pattern: str) -> tuple[str, str] | None:
    """A multiple metavariable of `pattern` that ast-grep ends at the node after it, and
    the metavariable that takes that node: where the next node beside it (among the same
    node's children, tokens left aside) is a metavariable alone, and no multiple one comes
    after that. ast-grep ends `$$$A` at the first node the node after it in the pattern
    matches, and a metavariable matches any, so Swift's `func $F($$$A) -> $T { $$$B }`,
    whose parameters stand beside its return type, matched only functions of no
    parameter; None when there is none, or where they stand in a list, one after the
    other (`f($$$A, $B)`, which is read spelled out: see _spelled_out)."""
    named = _capturing(pattern)[0]
    shown = {written: o[0] for m, o in zip(_METAVARIABLE.finditer(named),
                                            _METAVARIABLE.finditer(pattern), strict=True)
             for written in (m[0].replace("$", "_"), _as_names(language, m[0]))}  # (PHP's: both)
    for place in places_read(language, named):
        stack = [_root(language, _as_names(language, place))]
        while stack:
            node = stack.pop()
            kids = node.children()
            stack.extend(kids)
            said = [shown.get(k.text().strip(), "") for k in kids
                    if k.is_named() and "comment" not in k.kind()]  # '' where code is written
            for at, text in enumerate(said[:-1]):
                after = said[at + 1]
                if text.startswith("$$$") and after.startswith("$") and \
                        not after.startswith("$$$") and \
                        not any(t.startswith("$$$") for t in said[at + 2:]) and \
                        not re.search(re.escape(text) + r"\s*,\s*" + re.escape(after)
                                      + "(?![A-Z0-9_])", pattern):  # (see _spelled_out)
                    return text, after
    return None


# A metavariable as a pattern writes it: `$X`, `$$$ARGS`; `$_`, `$_X` and a bare `$$$`
# capture nothing.
_METAVARIABLE = re.compile(r"\$\$\$(?:[A-Z_][A-Z0-9_]*)?|\$[A-Z_][A-Z0-9_]*")
_WORD = re.compile(r"[A-Za-z_]\w*")


@functools.lru_cache(maxsize=256)
def _capturing(pattern: str) -> tuple[str, tuple[tuple[str, bool], ...]]:
    """`pattern` with each metavariable that captures nothing given a name of its own,
    which captures (what it matches is the same), and every metavariable's name, each
    with whether it stands for any number of nodes."""
    names: dict[str, bool] = {}

    def named(m: re.Match[str]) -> str:
        many = m[0].startswith("$$$")
        name = m[0].lstrip("$")
        if not name or name.startswith("_"):
            name = f"SG_{len(names)}"
        names[name] = many
        return ("$$$" if many else "$") + name

    return _METAVARIABLE.sub(named, pattern), tuple(names.items())


@functools.lru_cache(maxsize=256)
def _kinds(language: str, code: str) -> frozenset[str]:
    """The kinds of the nodes of `code`, a pattern as it is read (or the code around it
    where it is read so: see readings), each metavariable read as a name."""
    stack, kinds = [_root(language, _as_names(language, code))], set()
    while stack:
        node = stack.pop()
        kinds.add(node.kind())
        stack.extend(node.children())
    return frozenset(kinds)


def _words_beyond(node: Any, written: tuple[Counter[str], frozenset[str]],
                  captures: tuple[tuple[str, bool], ...]) -> bool:
    """Whether `node`, a match, holds a keyword token (`async`) more times than the
    pattern writes that word, outside what its metavariables matched, in a node of a kind
    the pattern has (a Swift return type `-> any P` that the pattern leaves out is let
    be, as ast-grep lets it be when it holds no keyword); `written`: the pattern's words,
    and its nodes' kinds."""
    words, kinds = written
    spans = [_span(n) for name, many in captures
             for n in (node.get_multiple_matches(name) if many else [node.get_match(name)])
             if n is not None]
    if "else" not in words:  # an `if`'s else, which a pattern that writes none lets be
        spans += [(_span(token)[0], _span(node)[1]) for token in _else_of(node)]
    text, (begin, _) = node.text(), _span(node)
    outside: Counter[str] = Counter()  # the words outside what the metavariables matched
    at = 0
    for start, end in sorted(spans):
        outside.update(_WORD.findall(text, at, max(at, start - begin)))
        at = max(at, end - begin)
    outside.update(_WORD.findall(text, at))
    if not outside - words:
        return False  # no word the pattern does not write, so none of the keywords
    held: Counter[str] = Counter()
    stack = [node]
    while stack:
        parent = stack.pop()
        for kid in parent.children():
            start, end = _span(kid)
            if any(a <= start and end <= b for a, b in spans):
                continue  # what a metavariable matched may hold any word
            if kid.is_named() or kid.children():
                stack.append(kid)
            elif parent.kind() in kinds and _WORD.fullmatch(kid.text()):
                held[kid.text()] += 1
    return bool(held - words)


def _else_of(node: Any) -> list[Any]:
    """The `else` token of `node`, an `if`, as its child or its else clause's (Rust's
    `else_clause`): an `if` with an `else` is counted by an `if`'s pattern that writes
    none (see _otherwise), though the `if` of an `else if` is one more word `if`."""
    for kid in node.children() if "if" in node.kind() else ():
        if kid.text() == "else" and not kid.children():  # (Swift's is a named node)
            return [kid]
        if "else" in kid.kind():
            return [token for token in kid.children() if token.text() == "else"][:1]
    return []


def _span(node: Any) -> tuple[int, int]:
    span = node.range()
    return (int(span.start.index), int(span.end.index))


def _statement_span(node: Any) -> tuple[int, int]:
    """The span of `node` without the `;` that ends it: a statement and the expression it
    is are one match, whichever way of reading the pattern met which. A pattern that ends
    in `;` was read in a function's body as the expression and alone as the statement,
    and ast-grep matched each in every statement: `foo($X);` counted each call twice in
    JavaScript, TypeScript, Java, C, C++, C#, Rust and PHP (guzzle's `throw new
    $E($$$A);`: 134 for 67 throws)."""
    start, end = _span(node)
    text = node.text()
    return start, end - (len(text) - len(text.rstrip().removesuffix(";").rstrip()))


@functools.lru_cache(maxsize=256)
def open_ended(language: str, pattern: str) -> bool:
    """Whether `pattern` ends in a named node (a metavariable, a name, a value) rather
    than a token that closes it (`)`, `end`, `;`): read with each metavariable as a name
    (see _as_names). A pattern that does not parse so is taken as open, unless it ends
    with a bracket or a `;`."""
    if pattern.rstrip().endswith(("}", ")", "]", ";")):
        return False  # (whether or not it reads alone: Solidity's `if ($C) { $$$B }` does not)
    node = _root(language, _as_names(language, pattern.strip()))
    if node.find(kind="ERROR") is not None:
        return True
    while kids := [c for c in node.children() if "comment" not in c.kind()]:
        node = kids[-1]
    return bool(node.is_named())


@functools.lru_cache(maxsize=256)
def as_expression(language: str, pattern: str) -> dict[str, str] | None:
    """The ast-grep rule for `pattern` read where only an expression stands, when that
    reads it as another kind of node than a statement does (see IN_AN_EXPRESSION)."""
    body, statement = IN_AN_EXPRESSION.get(language), IN_A_FUNCTION.get(language)
    bare = pattern.strip().removesuffix(";").rstrip()
    if body is None or statement is None or not bare:
        return None
    kind = _kind_in(language, body, bare)
    if kind is None or (kind == _kind_in(language, statement, bare) and not _misnamed(language, bare)):
        return None
    return {"context": _placed(body, bare)[0], "selector": kind}


def _misnamed(language: str, written: str) -> bool:
    """Whether ast-grep, which writes each metavariable as a name (see _as_names), reads
    `written` alone with an error that the same code written as the language writes it
    does not have: PHP's `function ($X) { $$$B }`, whose parameter is no name, matched no
    closure alone, and matches where an expression stands."""
    names = _METAVARIABLE.sub(lambda m: m[0].replace("$", "_"), written)
    return names != _as_names(language, written) and \
        _root(language, names).find(kind="ERROR") is not None and \
        any(_root(language, _as_names(language, code)).find(kind="ERROR") is None
            for code in _ways_written(written))


@functools.lru_cache(maxsize=256)
def query(language: str, pattern: str) -> str | dict[str, str]:
    """The ast-grep pattern for `pattern` in `language`: as it is, unless a grammar reads
    it alone as another kind of node than it reads the same code inside a function. Go
    reads `c.requestHeader($$$)` alone as a type conversion, C reads `run($$$)` as a
    declaration, Dart and Solidity read no statement outside a function: each matched
    nothing, and a claim counted 0. Then it is the pattern in a function's body, its
    node picked by kind (ast-grep's `context` and `selector`)."""
    body = IN_A_FUNCTION.get(language)
    if body is None or not pattern.strip():
        return pattern
    written = pattern.strip()
    alone = _kind_spanning(language, written, 0, len(written))
    bare = written.removesuffix(";").rstrip() if body.count("%s;") else written  # its `;` added
    inside = _kind_spanning(language, *_placed(body, bare), statement=bare != written)
    if inside is None and language in _BODIES_CALLED and _BODY_ALONE.search(bare):
        body = body.replace("%s;", "%s")  # (a block's statement, no `;` after it: see below)
        inside = _kind_spanning(language, *_placed(body, _BODY_ALONE.sub(
            lambda m: m[0][:-1].rstrip() + "(); }", bare)))
    # a statement (its `;` written) and a keyword alone (whose text ast-grep reads as the
    # name of a kind of node, and refuses) are read where they stand, whatever alone reads
    if inside is None or inside == alone and bare == written and not _WORD.fullmatch(written):
        return pattern
    return {"context": _placed(body, bare)[0], "selector": inside}


# Grammars that read a name alone in braces as no statement, with its `;` or without, and
# read no statement outside a function: a pattern with a body of a metavariable alone
# (`if ($C) { $$$B }`) is placed in a function by its kind read with the body as a call,
# `{ $$$B(); }`, and matched as written, which ast-grep reads as a body (Solidity's matched
# only the Yul `if`s of an `assembly` block, none of the contract's own).
_BODIES_CALLED = frozenset({"solidity"})


def _kind_spanning(language: str, code: str, at: int, length: int,
                   statement: bool = False) -> str | None:
    """The kind of the innermost named node of `code` (parsed with each metavariable as a
    name: see _as_names) that spans exactly the `length` characters
    from `at`, or else them and the `;` or line end after them (a statement that ends with
    it: Dart's `return x;`, Solidity's `revert E();`, Elixir's clause of a `case`, which no
    node spans without it); with
    `statement`, the one that spans them and the `;` first: a pattern written with its
    `;` is a statement, as ast-grep reads it alone (`foo($X);` counted the calls of
    `x = foo(1)` and `bar(foo(2))` too); None when the code does not parse or no node
    spans them."""
    root = _root(language, _as_names(language, code))
    if root.find(kind="ERROR") is not None:
        return None
    end, node = at + length, root
    kinds: dict[int, str] = {}  # by where a node that spans them ends: the innermost's
    while node is not None:
        span = node.range()
        if span.start.index == at and node.is_named() and (span.end.index == end or (
                span.end.index == end + 1 and code[end:end + 1] in (";", "\n"))):
            kinds[span.end.index] = node.kind()  # (a keyword's own token is no reading)
        node = next((child for child in node.children()
                     if child.range().start.index <= at and child.range().end.index >= end), None)
    first, then = (end + 1, end) if statement else (end, end + 1)
    return kinds.get(first, kinds.get(then))


# Languages whose macros' code the grammar keeps as tokens, read again as code here: Rust's
# macro calls' arguments (`assert_eq!(x.unwrap(), 1)`, `vec![...]`, `format!(...)`), C's
# and C++'s `#define` bodies.
MACROS_READ = {"rust": "macro_invocation", "c": "preproc_arg", "cpp": "preproc_arg"}


_PASTED = re.compile(r"[ \t]*##[ \t]*")
_STRINGIZED = re.compile(r"#[ \t]*[A-Za-z_]\w*")


def _in_defines(root: Any, language: str, pattern: str, word: str) -> list[tuple[int, str]]:
    """The matches (line, text) of `pattern` in the bodies of the `#define`s of `root`
    that hold `word`, each read as the body of a function (`#define FREE(p) do { free(p);
    } while (0)`). Raises Unread for a body that does not read as code (`#define BEGIN {`)
    and holds the word: a match may hide in it."""
    holds = re.compile(rf"\b{re.escape(word)}\b")
    found: list[tuple[int, str]] = []
    for body in root.find_all(kind=MACROS_READ[language]):
        text = body.text()
        if not holds.search(text):
            continue
        start = int(body.range().start.line)
        continued = text.replace("\\\n", " \n")  # a `\` line end: a space, the lines kept
        # `a ## b` pastes one name; `#x` makes a string (PyTorch's `#x " must be a CUDA tensor"`)
        continued = _STRINGIZED.sub('""', _PASTED.sub("_", continued))
        again = _root(language, f"void t(void) {{ {continued} ; }}\n")
        if _first_error(again) is not None:
            first = holds.search(text)
            raise Unread(language, start + 1 + text.count("\n", 0, first.start() if first else 0),
                         word)
        found += [(start + int(node.range().start.line) + 1, node.text())
                  for node in _found(again, language, pattern)]
    return found


# The languages whose grammars read a macro's call where a declaration stands as one (of
# `_DECLARATIONS`' kinds) that declares no type: gtest's `TEST(format_test, format_int)
# {...}` as the definition of a function TEST, nlohmann's `NLOHMANN_DEFINE_TYPE_INTRUSIVE(P,
# age)` in a class as a method's declaration (see _declared_calls).
DECLARED_CALLS = frozenset({"c", "cpp"})
_DECLARATIONS = frozenset({"function_definition", "declaration", "field_declaration"})
_CLASSES = ("class_specifier", "struct_specifier", "union_specifier")


_AS_CALL = "void t(void) { "  # what a declarator is read again as a call in (see below)
# C's and C++'s words that name a type or begin a declaration, which gtest's tests may be
# named (fmt's `TEST(printf_test, bool)`): read again as a name of as many letters.
_NAMES_FOR_KEYWORDS = re.compile(
    r"(?<=[(,])\s*\b(?:bool|char|short|int|long|float|double|void|signed|unsigned|auto|"
    r"const|volatile|static|struct|class|union|enum|template|typename|namespace|operator|"
    r"new|delete|this|default|inline|virtual|explicit|friend|register|extern)\b(?=\s*[),])")


def _declared_calls(root: Any, language: str, word: str) -> list[tuple[Any, Any]]:
    """The declarators of `root` that hold `word` and whose declaration declares no type
    (see DECLARED_CALLS), each with its text read again as a call in a function: a claim
    counting gtest's `TEST($$$A)` counted none of fmt's 139 tests. One that declares (see
    _declares) is none. Raises Unread for one that does not read as a call
    (`FMT_CATCH(...)`, a type as an argument): a match may hide in it."""
    holds = re.compile(rf"\b{re.escape(word)}\b")
    found: list[tuple[Any, Any]] = []
    for node in _macro_declarators(root, language, rf"\b{word}\b"):
        again = _root(language, f"{_AS_CALL}{node.text()}; }}\n")
        if _first_error(again) is not None and (named := _NAMES_FOR_KEYWORDS.sub(
                lambda found: "k" * len(found[0]), node.text())) != node.text():
            again = _root(language, f"{_AS_CALL}{named}; }}\n")  # TEST(printf_test, bool)
        if _first_error(again) is not None:
            first = holds.search(node.text())
            raise Unread(language, int(node.range().start.line) + 1 + node.text().count(
                "\n", 0, first.start() if first else 0), word, inside="a call", kept_as="a declaration")
        found.append((node, again))
    return found


def _macro_declarators(root: Any, language: str, holding: str) -> Iterator[Any]:
    """The declarators of `root` whose text the regular expression `holding` finds that may
    be a macro's call (see _declared_calls): one of a declaration of no type, and, in a
    template's parameters, a parameter of a function type with no name (fmt's `template
    <typename T, FMT_ENABLE_IF(is_signed<T>::value)>`)."""
    for node in root.find_all(kind="function_declarator", regex=holding):
        holder, name = node.parent(), node.field("declarator")
        if (holder is not None and holder.kind() in _DECLARATIONS and name is not None
                and holder.field("type") is None and name.kind() == "identifier"
                and _bare(holder, node) and not _declares(node, name.text())):
            yield node
    for node in root.find_all(kind="parameter_declaration", regex=holding) if language == "cpp" else ():
        holder, kind, declarator = node.parent(), node.field("type"), node.field("declarator")
        if (holder is not None and holder.kind() == "template_parameter_list" and kind is not None
                and kind.kind() == "type_identifier" and declarator is not None
                and declarator.kind() == "abstract_function_declarator"):
            yield node


def _bare(holder: Any, declarator: Any) -> bool:
    """Whether the function `declarator` stands first in `holder` (its declaration) and
    holds a name and its parameters alone, as a macro's call read so does: not cutlass's
    `CUTLASS_HOST_DEVICE static value_type const min() noexcept {`, whose macro left the
    grammar a `const` and a `noexcept` around `min()` (comments aside)."""
    first = next((c for c in holder.named_children() if "comment" not in c.kind()), None)
    return first == declarator and all(
        c.kind() in ("identifier", "parameter_list") for c in declarator.named_children())


def _declares(declarator: Any, name: str) -> bool:
    """Whether the function `declarator` named `name` (declaring no type) is one, not a
    macro's call: a parameter of it names itself (`ConstCharPtr(const char* str)`), or it
    is a constructor, its class's name (`A(B)`; `Reducer` in `struct Reducer<T, 1>`)."""
    parameters = declarator.field("parameters")
    if parameters is not None and any(p.field("declarator") is not None
                                      for p in parameters.children() if "parameter" in p.kind()):
        return True
    node = declarator
    while (node := node.parent()) is not None:
        if node.kind() in _CLASSES:
            named = node.field("name")
            if named is not None and named.kind() == "template_type":
                named = named.field("name")
            return named is not None and named.text() == name
    return False


def _in_branches(root: Any, language: str, pattern: str, word: str | None) -> list[tuple[int, str]]:
    """The matches (line, text) of `pattern` in the preprocessor branches `root` holds as
    text (see BRANCHES_READ) that hold `word` (every one, for a pattern without a word),
    each read again as code. Raises Unread (ParseError without a word) for such a branch
    that does not read as code alone (one inside an expression): a match may hide in it."""
    holds = re.compile(rf"\b{re.escape(word)}\b") if word else None
    found: list[tuple[int, str]] = []
    for code, again in _branches(root, language):
        first = holds.search(code) if holds is not None else None
        if holds is not None and first is None:
            continue
        if (broken := _first_error(again)) is not None:
            if first is None:
                raise ParseError(language, broken)
            raise Unread(language, code.count("\n", 0, first.start()) + 1, word or "",
                         inside="a preprocessor branch", kept_as="text")
        found += [(int(node.range().start.line) + 1, node.text())
                  for node in _found(again, language, pattern)]
    return found


def _in_macros(root: Any, pattern: str, word: str, offset: int = 0,
               depth: int = 0) -> list[tuple[int, str]]:
    """The matches (line, text) of `pattern` inside the arguments of the macro calls of
    `root` that hold `word`: each call's tokens read again as the arguments of a call (or
    a block, for `{...}`) in a function, and the calls inside them in turn. Raises Unread
    for arguments that do not read as code (a DSL, `json!({...})`) and hold the word as a
    name: a match may hide in them. `offset`: the line `root`'s first line stands at."""
    holds = re.compile(rf"\b{re.escape(word)}\b")
    found: list[tuple[int, str]] = []
    for call in root.find_all(kind=MACROS_READ["rust"]):
        tree = next((c for c in reversed(call.children()) if c.kind() == "token_tree"), None)
        text = tree.text() if tree is not None else ""
        if tree is None or not holds.search(text):
            continue
        start = offset + int(tree.range().start.line)  # the line its first token is on
        inner = text[1:-1]
        code = f"fn t() {{ m({inner}); }}\n" if text[0] in "([" else f"fn t() {{{inner}}}\n"
        again = _root("rust", code)
        if depth >= 8 or _first_error(again) is not None:
            hidden = tree.find(kind="identifier", regex=f"^{re.escape(word)}$")
            if hidden is not None:  # the word as a name (not `.await`, not in a string)
                raise Unread("rust", offset + int(hidden.range().start.line) + 1, word)
            continue
        found += [(start + int(node.range().start.line) + 1, node.text())
                  for node in _found(again, "rust", pattern)]
        found += _in_macros(again, pattern, word, start, depth + 1)
    return found


def _unread(root: Any, language: str, word: str | None) -> None:
    """Raise Unread when `word` stands as a name in code the grammar of `language` keeps
    as tokens (see UNREAD) outside a macro call, whose arguments are read again: a match
    there is not found."""
    holder = UNREAD.get(language)
    if not holder or not word:
        return
    elsewhere = [{"inside": {"kind": MACROS_READ[language], "stopBy": "end"}}] + (
        [{"inside": {**NO_CODE_IN[language], "stopBy": "end"}}] if language in NO_CODE_IN else [])
    hidden = root.find(kind="identifier", regex=f"^{re.escape(word)}$", inside={
        "kind": holder, "stopBy": "end", "not": {"any": elsewhere}})
    if hidden is not None:
        raise Unread(language, int(hidden.range().start.line) + 1, word)


def literal_of(pattern: str) -> str | None:
    """The longest word of `pattern` that is not a metavariable: a file without it holds
    no match, so it is not parsed at all."""
    words = [w for w in re.findall(r"\$*[A-Za-z_][\w]*", pattern) if not w.startswith("$")]
    return max(words, key=len) if words else None


class Code(Protocol):
    """Where the lines of a file at a commit come from (the page's code: its git reader)."""

    def lines(self, commit: str, path: str) -> list[str] | None: ...


class Kept(Protocol):
    """Where what was learned from code at a commit is kept between builds (a CodeStore)."""

    def get(self, key: str) -> Any: ...

    def put(self, key: str, value: Any) -> None: ...

    def close(self) -> None: ...


def index_of(code: Code, commit: str, path: str, kept: Kept | None = None,
             languages: dict[str, str] | None = None) -> Index | None:
    """The definitions of `path` at the full SHA `commit` (from `kept` when a build before
    learned them); None when no grammar reads the file or it is not there. `languages`:
    mkdocs.yml's, which may say what language the file is in (see language_of). Asked
    again in this process (the blocks of a page, the pages of a PR ask for the same files),
    the index it gave (a file at a full SHA never changes)."""
    chosen = configured(path, languages)
    answers = _UNKEPT if kept is None else _ANSWERS.setdefault(kept, {})
    asked = (commit, path, chosen or "")
    if asked in answers:  # asked before: no need to work out the language again
        return answers[asked]
    if not defines_names(language_of(path, languages)):
        return None
    index = _index_of(code, commit, path, languages, chosen, kept)
    if index is not None:  # a file not there yet may be fetched later in a `serve`
        if len(answers) >= ANSWERS_KEPT:  # a long `serve` meets commit after commit
            answers.clear()
        answers[asked] = index
    return index


def named_holds(code: Code, commit: str, path: str, symbol: str | None,
                span: tuple[int, int], kept: Kept | None = None,
                languages: dict[str, str] | None = None) -> bool:
    """Whether the definition `symbol` names (a hunk's file line: `· save`) holds the lines
    `span` of `path` at `commit` (see definitions.holds); True when it names none (or a
    placeholder `⟨…⟩` of `new`) or no grammar reads the file."""
    symbol = (symbol or "").strip()
    if not symbol or "⟨" in symbol:
        return True
    index = index_of(code, commit, path, kept, languages)
    return index is None or holds(index.definitions, symbol, [span], code.lines(commit, path))


# index_of's answers in this process by commit, path and configured language, for each
# store it kept them in (so that each store is given them once), and without a store.
_ANSWERS: weakref.WeakKeyDictionary[Kept, dict[tuple[str, str, str], Index]] = \
    weakref.WeakKeyDictionary()
_UNKEPT: dict[tuple[str, str, str], Index] = {}
ANSWERS_KEPT = 4096


def _index_of(code: Code, commit: str, path: str, languages: dict[str, str] | None,
              chosen: str | None, kept: Kept | None) -> Index | None:
    # The language is the file's own at the commit, but for one mkdocs.yml gives (`chosen`).
    key = f"definitions\n{VERSION}\n{commit}\n{path}" + (f"\n{chosen}" if chosen else "")
    held = kept.get(key) if kept is not None else None
    if isinstance(held, dict):
        with contextlib.suppress(KeyError, TypeError, ValueError):
            broken = held["broken"]
            return Index(tuple(Definition(str(n), int(a), int(b), bool(d),
                                          (int(r[0]), int(r[1])) if r else None, bool(c),
                                          str(t) if t else None,
                                          tuple((int(x), int(y)) for x, y in parts))
                               for n, a, b, d, r, c, t, parts in held["defs"]),
                         ParseError(str(held["language"]), int(broken)) if broken else None)
    lines = code.lines(commit, path)
    if lines is None:
        return None
    language, read = grammar_of(path, languages, lines)
    if language is None or not defines_names(language):
        return None
    index = definitions(language, read)
    if kept is not None:
        kept.put(key, {"defs": [[d.name, d.start, d.end, d.declared, d.arity, d.singleton,
                                 d.receiver, [list(p) for p in d.parts]]
                                for d in index.definitions],
                       "broken": index.broken.line if index.broken else None,
                       "language": language})
    return index
