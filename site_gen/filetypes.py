"""Which language a file is written in when its name does not say: a setting of mkdocs.yml
(`languages`, ending -> Pygments lexer) first; else, for an ending several languages
share, the file's text, told apart as GitHub's Linguist tells them: by the first of the
languages whose marks the text has, else the ending's usual one. A '.h' file is
Objective-C, C++ or C; a '.m' file Objective-C or MATLAB; a '.pl' file Perl or Prolog.
Highlighting and the code index ask the same question, so a header is coloured and
parsed as the same language."""

from __future__ import annotations

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
