"""Which language a file is written in when its name does not say: a setting of mkdocs.yml
(`languages`, ending -> Pygments lexer) first; else, for an ending several languages
share, the file's text, told apart as GitHub's Linguist tells them: by the first of the
languages whose marks the text has, else the ending's usual one. A '.h' file is
Objective-C, C++ or C; a '.m' file Objective-C or MATLAB; a '.pl' file Perl or Prolog.
Highlighting and the code index ask the same question, so a header is coloured and
parsed as the same language; and which Pygments lexer reads a file by its name
(lexer_by_file_name), so a `.hxx` file or a `Rakefile` is parsed as the language it is
coloured as."""

from __future__ import annotations

import fnmatch
import functools
import re

# Marks of a language, each on a line of its own, that the other languages sharing the
# ending do not have (a C header's `#ifdef __cplusplus` / `extern "C"` is not one of C++).
_OBJECTIVE_C = re.compile(
    r"^[ \t]*(?:@(?:interface|implementation|protocol|property|class|end|selector|synthesize)"
    r"\b|#[ \t]*import[ \t]+[<\"][^>\"\n]+\.h[>\"])", re.MULTILINE)
_CPP = re.compile(
    r"^[ \t]*(?:template[ \t]*<|(?:class|namespace)[ \t]+\w|using[ \t]+(?:namespace[ \t]+)?\w+"
    r"[ \t]*[;=]|(?:public|protected|private)[ \t]*:[ \t]*$|constexpr\b|try[ \t]*\{"
    r"|catch[ \t]*\(|#[ \t]*include[ \t]*<(?:string|vector|map|unordered_map|set|unordered_set"
    r"|list|array|memory|utility|functional|algorithm|optional|tuple|cstdint|cstddef|cstdlib"
    r"|iostream|sstream|fstream|stdexcept|type_traits)>)|\bstd::\w|__cplusplus[ \t]*[<>=]",
    re.MULTILINE)
_MATLAB = re.compile(r"^[ \t]*(?:function\b|classdef\b|%|end[ \t]*;?[ \t]*$)", re.MULTILINE)
_PERL = re.compile(r"^(?:#!.*\bperl\b|[ \t]*(?:use[ \t]+(?:strict|warnings|v?5|Test::)|my[ \t]+[$@%]"
                   r"|sub[ \t]+\w+[ \t]*\{|package[ \t]+[\w:]+[ \t]*;))", re.MULTILINE)
_PROLOG = re.compile(r"^[ \t]*:-|^[a-z]\w*(?:\([^)\n]*\))?[ \t]*:-", re.MULTILINE)
_REBOL = re.compile(r"^[ \t]*REBOL[ \t]*\[", re.MULTILINE | re.IGNORECASE)
_FORTH = re.compile(r"^(?::[ \t]|new-device\b)", re.MULTILINE)
# Each shared ending: its languages (Pygments names), most particular first, with their
# marks; the last, which has none, is the one a text without marks is written in (the
# one most files of the ending on GitHub are in).
SHARED: dict[str, tuple[tuple[str, re.Pattern[str] | None], ...]] = {
    "h": (("objective-c", _OBJECTIVE_C), ("cpp", _CPP), ("c", None)),
    "m": (("objective-c", _OBJECTIVE_C), ("matlab", _MATLAB), ("objective-c", None)),
    "pl": (("perl", _PERL), ("prolog", _PROLOG), ("perl", None)),
    "t": (("perl", None),),  # Perl's tests (not TADS 3)
    "r": (("rebol", _REBOL), ("r", None)),  # R (not REBOL)
    "fs": (("forth", _FORTH), ("fsharp", None)),  # F# (not Forth)
}


def configured(path: str, languages: dict[str, str] | None) -> str | None:
    """The Pygments lexer mkdocs.yml's `languages` gives `path` (by its ending, or its
    whole name), or None."""
    for end, name in languages.items() if languages else ():
        if path.endswith("." + end) or path == end:
            return name
    return None


def ending(path: str) -> str:
    """The ending of `path`'s file name, lower-case ('h' for `include/Table.H`), or ''."""
    name = path.rsplit("/", 1)[-1]
    return name.rpartition(".")[2].lower() if "." in name else ""


def shared_ending(path: str) -> str | None:
    """`path`'s ending when several languages share it (see SHARED), else None."""
    found = ending(path)
    return found if found in SHARED else None


def written_in(path: str, text: str) -> str | None:
    """The Pygments name of the language `text`, the code of `path`, is written in, when
    `path` ends in an ending several languages share; else None (its name says)."""
    shared = shared_ending(path)
    if shared is None:
        return None
    for language, marks in SHARED[shared]:
        if marks is None or marks.search(text):
            return language
    return None


# Whole file names Pygments gives a lexer of another language (by their ending): Go's
# module files end in `.mod`, Modula-2's, and are shown as text, as no lexer reads them.
NOT_AS_PYGMENTS_READS = {"go.mod": "text", "go.sum": "text", "go.work": "text",
                         "go.work.sum": "text"}
# Endings no Pygments lexer claims, and the lexer that reads them best: a Svelte component
# and an Astro page are HTML with scripts in them; `.inl` and `.tcc` hold a C++ header's
# inline functions and templates (NVIDIA/cutlass has 40 `.inl` builders).
UNCLAIMED = {".svelte": "html", ".astro": "html", ".inl": "cpp", ".tcc": "cpp"}


@functools.lru_cache(maxsize=4096)
def lexer_by_file_name(file_name: str) -> str:
    """The Pygments lexer that reads a file by its name, as highlighting asks, without
    making it: 'name:ALIAS', or 'file:NAME' when Pygments must choose among the lexers
    that claim the name (see lexer_alias)."""
    if file_name in NOT_AS_PYGMENTS_READS:
        return f"name:{NOT_AS_PYGMENTS_READS[file_name]}"
    # Pygments matches every lexer's file patterns (compiling each, once per process); a
    # name only one lexer claims is found without that: by its ending, by its whole name,
    # and by the few patterns with wildcards whose fixed ends it has.
    endings, names, wild = _patterns()
    claims = {alias for at, c in enumerate(file_name) if c == "."  # '*.py', '*.css.in'
              for alias in endings.get(file_name[at:], ())}
    claims.update(names.get(file_name, ()))
    claims.update(alias for head, tail, pattern, alias in wild
                  if file_name.startswith(head) and file_name.endswith(tail)
                  and fnmatch.fnmatch(file_name, pattern))
    if not claims and (dot := file_name.rfind(".")) > 0:
        claims.update(filter(None, [UNCLAIMED.get(file_name[dot:].lower())]))
    return f"name:{claims.pop()}" if len(claims) == 1 else f"file:{file_name}"


@functools.lru_cache(maxsize=4096)
def lexer_alias(file_name: str) -> str | None:
    """The name of the Pygments lexer highlighting reads a file with, by the file's name
    (Pygments choosing where several lexers claim it), or None where none does."""
    kind, _, value = lexer_by_file_name(file_name).partition(":")
    if kind == "name":
        return value
    from pygments.lexers import find_lexer_class_for_filename

    found = find_lexer_class_for_filename(value)
    return found.aliases[0] if found is not None and found.aliases else None


@functools.lru_cache(maxsize=1)
def _patterns() -> tuple[dict[str, list[str]], dict[str, list[str]],
                         list[tuple[str, str, str, str]]]:
    """Pygments' file name patterns: plain endings ('*.py') by ending, whole names
    ('Makefile') by name, and the others with the text any name they match starts and
    ends with (before the first of `*?[]`, after the last)."""
    from pygments.lexers._mapping import LEXERS

    endings: dict[str, list[str]] = {}
    names: dict[str, list[str]] = {}
    wild: list[tuple[str, str, str, str]] = []
    for _module, _name, aliases, patterns, _types in LEXERS.values():
        for pattern in patterns if aliases else ():
            special = [i for i, c in enumerate(pattern) if c in "*?[]"]
            if pattern.startswith("*.") and special == [0]:
                endings.setdefault(pattern[1:], []).append(aliases[0])
            elif not any(c in pattern for c in "*?["):
                names.setdefault(pattern, []).append(aliases[0])
            else:
                wild.append((pattern[:special[0]], pattern[special[-1] + 1:], pattern,
                             aliases[0]))
    return endings, names, wild


# Pygments' modules of lexers of text that is no program's code: prose and markup, data,
# settings, templates, diffs, sessions, keys and certificates.
NOT_CODE = frozenset({"markup", "textfmts", "special", "data", "configs", "html", "templates",
                      "diff", "email", "mime", "rdf", "textedit", "installers", "console",
                      "sgf", "scdoc", "bibtex", "tls", "dns", "ldap", "xorg", "procfile",
                      "wowtoc", "srcinfo", "hexdump", "css", "asc"})


def code_lexer(path: str, text: str) -> str | None:
    """The name of the language of code highlighting reads the file `path` as, by its name
    (`Cython` for `fast.pyx`) or, for an ending several languages share, by its `text`
    (see written_in); None for prose, markup, data, settings and the like (see NOT_CODE),
    or a file no lexer reads."""
    return _named_code(written_in(path, text) or lexer_alias(path.rsplit("/", 1)[-1]))


@functools.lru_cache(maxsize=256)
def _named_code(alias: str | None) -> str | None:
    """The name of the Pygments lexer `alias` names, where it reads a language of code."""
    from pygments.lexers._mapping import LEXERS

    found = next((entry for entry in LEXERS.values() if alias in entry[2]), None)
    if found is None or found[0].rsplit(".", 1)[-1] in NOT_CODE:
        return None
    return str(found[1])
