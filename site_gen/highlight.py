"""Pygments highlighting: fenced code blocks, and code split into lines (for diffs).

Fences plug in through markdown-it's `highlight` option; diff lines are lexed one side
at a time as one text, so strings and comments that span lines are coloured right.

Pygments' lexer registry and formatters are imported when a lexer is looked up or made,
not with this module: a page whose code comes lexed from the store needs neither.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import html
import itertools
import os
import re
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from markupsafe import Markup
from pygments import __version__ as PYGMENTS
from pygments.lexer import Lexer
from pygments.token import STANDARD_TYPES, Comment, String, _TokenType
from pygments.util import ClassNotFound

from . import lexer_index
from .css import declarations_of
from .filetypes import NOT_AS_PYGMENTS_READS, configured, lexer_by_file_name, shared_ending, written_in
from .pygments_styles import ReviewDark, ReviewLight

if TYPE_CHECKING:
    from pygments.formatters import HtmlFormatter

    from .code_index import Kept


def highlight_code(code: str, lang: str, _attrs: str = "") -> str:
    """markdown-it's `highlight` option: Pygments by the fence's language, if it knows it
    (Pygments' `highlight()`, its tokens found through lexer_index.tokens: fence_tokens)."""
    lexer = _fence_lexer(lang) if lang else None
    if lexer is None:
        return ""
    lexer = read_from_start(lexer, code, lambda: _fence_lexer(lang, inline=True))
    from pygments import format as formatted

    body = formatted(fence_tokens(lexer, code), _html_formatter())
    return f'<pre class="highlight"><code class="language-{_attr(lang)}">{body}</code></pre>\n'


@functools.lru_cache(maxsize=256)
def _fence_lexer(lang: str, inline: bool = False) -> Lexer | None:
    """The lexer a fence of `lang` is highlighted with (None: no lexer has that name), made
    once per process: Pygments' look-up by name passes over its whole list of lexers each
    time (0.2 ms), and a lexer keeps nothing from one text to the next (as _made). `inline`:
    one that reads code from the text's start (see read_from_start)."""
    from pygments.lexers import get_lexer_by_name

    try:
        lexer: Lexer = get_lexer_by_name(lang, **({"startinline": True} if inline else {}))
    except ClassNotFound:
        return None
    return lexer


def read_from_start(lexer: Lexer, text: str, inline: Callable[[], Lexer | None]) -> Lexer:
    """The lexer to read `text` with: `lexer`, or, where `lexer` reads a text as markup
    until a tag opens its code (Pygments' PHP lexer, until `<?php`) and `text` opens with
    none, the same lexer reading code from the start (`inline`). PHP's code cited from a
    file (a hunk, an excerpt, a definition) has no `<?php` before it, and was shown plain,
    where GitHub's diff colours a PHP hunk."""
    if getattr(lexer, "startinline", None) is not False or text.lstrip().startswith("<?"):
        return lexer
    return inline() or lexer


def fence_tokens(lexer: Lexer, code: str) -> Iterator[tuple[_TokenType, str]]:
    """`lexer.get_tokens(code)`, as Pygments' `highlight()` lexes: the text made ready as
    `Lexer.get_tokens` makes it (a leading BOM dropped, line ends made `\\n`, blank lines
    around it stripped, a last line end added), then lexed through lexer_index.tokens. A
    lexer of other options or of its own `get_tokens` is left to Pygments."""
    if (type(lexer).get_tokens is not Lexer.get_tokens or lexer.filters or lexer.stripall
            or lexer.tabsize > 0 or not lexer.stripnl or not lexer.ensurenl):
        return iter(lexer.get_tokens(code))
    text = code.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").strip("\n")
    if not text.endswith("\n"):
        text += "\n"
    return ((ttype, value) for _, ttype, value in lexer_index.tokens(lexer, text))


@functools.cache
def _html_formatter() -> HtmlFormatter[str]:
    from pygments.formatters import HtmlFormatter

    return HtmlFormatter(nowrap=True)


def _attr(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_+-]", "", text)


def lexing_for(path: str, languages: dict[str, str], store: Kept | None = None,
               lines: list[str] | None = None) -> Lexing:
    """How the lines of `path` are lexed (see Lexing): by mkdocs.yml's `languages` for its
    ending, else, for an ending languages share ('.h'), by the language its code `lines`
    are written in (see filetypes), else by its file name; its lexer made only when needed."""
    named = configured(path, languages)
    if named is None and lines is not None and shared_ending(path):
        named = written_in(path, "\n".join(lines))
    return Lexing(f"name:{named}" if named else _lexer_name(path, store), store)


def _lexer_name(path: str, store: Kept | None = None) -> str:
    """Which lexer reads `path` by its name, without making it: 'name:ALIAS', or 'file:NAME'
    when Pygments must choose among the lexers that claim the file name. Worked out from the
    file's name once per process, and kept in `store` for the builds after (by Pygments'
    version): a page whose code comes lexed from the store then looks nothing up in
    Pygments' list of lexers."""
    file_name = path.rsplit("/", 1)[-1]
    if store is None or file_name in NOT_AS_PYGMENTS_READS:
        return lexer_by_file_name(file_name)
    known = _NAMED.setdefault(store, {})  # asked of this store once per file name
    found = known.get(file_name)
    if found is None:
        key = f"{LEXER_OF}{PYGMENTS}\n{file_name}"
        held = store.get(key)
        if isinstance(held, str) and (held.startswith("name:") or held == f"file:{file_name}"):
            found = held  # a wrong one only lexes worse: a name no lexer has is plain text
        else:
            found = lexer_by_file_name(file_name)
            store.put(key, found)
        known[file_name] = found
    return found


LEXER_OF = "lexer of 2\n"  # the keys of the lexer names in the code store begin so
_NAMED: weakref.WeakKeyDictionary[Kept, dict[str, str]] = weakref.WeakKeyDictionary()


@functools.lru_cache(maxsize=256)
def _made(name: str, inline: bool = False) -> Lexer:
    """The lexer `name` (see _lexer_name) stands for; plain text when none reads the file.
    `inline`: one that reads code from the text's start (see read_from_start)."""
    from pygments.lexers import TextLexer, get_lexer_by_name, get_lexer_for_filename

    kind, _, value = name.partition(":")
    try:
        options = {"stripnl": False, "ensurenl": False} | ({"startinline": True} if inline else {})
        lexer: Lexer = (get_lexer_by_name(value, **options) if kind == "name"
                        else get_lexer_for_filename(value, None, **options))
        return lexer
    except ClassNotFound:
        plain: Lexer = TextLexer(stripnl=False, ensurenl=False)
        return plain


Tokens = list[list[tuple[str, str]]]  # per line: (css class, text) pairs
LEXED = "lexed\n"  # the keys of lexed code in the code store begin so
LEXED_KEPT = 20_000  # lexed texts a code store keeps (the newest; a hunk side is 1-3 KB)


@dataclass(frozen=True)
class Lexing:
    """How lines of one language are lexed: by the lexer `name` (see _lexer_name), made only
    when a text is not in `store`, which keeps what builds before lexed (under the lexer,
    Pygments' version, the classes the styles colour and the text's digest: the same text
    always lexes the same). A page whose code did not change is rendered again without
    making, or running, any lexer."""

    name: str
    store: Kept | None = None

    @property
    def lexer(self) -> Lexer:
        """The Pygments lexer itself (made once per process)."""
        return _made(self.name)

    def lexer_for(self, text: str) -> Lexer:
        """The lexer that reads `text` (see read_from_start)."""
        return read_from_start(self.lexer, text, lambda: _made(self.name, inline=True))

    def lex(self, lines: list[str]) -> Tokens:
        """`lines` lexed as one text: tokens per line (see lex_lines)."""
        text = "\n".join(lines)
        if self.store is None:
            return lex_lines(self.lexer_for(text), lines)
        key = f"{LEXED}{_tokens_kind()}\n{self.name}\n{hashlib.sha256(text.encode()).hexdigest()}"
        held = self.store.get(key)
        if isinstance(held, list) and len(held) == len(lines):
            with contextlib.suppress(TypeError, ValueError):
                tokens = [[(str(css), str(value)) for css, value in line] for line in held]
                classes = _classes()  # a class goes into the page as it is: only ours
                if all(css in classes for line in tokens for css, _ in line):
                    return tokens
        tokens = lex_lines(self.lexer_for(text), lines)
        self.store.put(key, tokens)
        return tokens


# What opens a comment or a doc string in most languages: a block of lines without any of
# these is not lexed for comments (a `;`, `%` or `'` comment, Lisp's, TeX's or Basic's,
# is not told, where those marks stand in most lines of code).
COMMENT_MARKS = ("#", "//", "/*", "--", '"""', "'''", "<!--", "{-", "(*")


def comment_lines(path: str, languages: dict[str, str], store: Kept | None = None,
                  lines: list[str] | None = None) -> Callable[[Sequence[str]], list[bool]]:
    """For lines of `path` (see lexing_for) read one after the other, as its lexer reads them
    together, which of them hold a comment and nothing else: a doc comment too (Rust's
    `///`, a docstring), and each line of a block comment (`/** ... */`, a Javadoc's ` *
    @param` lines); a preprocessor's line (`#include`, `#define`) and an attribute
    (`#[derive]`) are code. The lexer is made when first needed."""
    @functools.cache
    def lexing() -> Lexing:
        return lexing_for(path, languages, store, lines)

    def flags(block: Sequence[str]) -> list[bool]:
        alone = [False] * len(block)
        if not any(mark in line for line in block for mark in COMMENT_MARKS):
            return alone  # (no comment can open here: not lexed)
        kinds: list[set[bool]] = [set() for _ in block]
        row = 0
        text = "\n".join(block) + "\n"
        for ttype, value in lexing().lexer_for(text).get_tokens(text):
            for k, part in enumerate(value.split("\n")):
                if k:
                    row += 1
                if part.strip() and row < len(block):
                    kinds[row].add(_within(ttype, Comment) and not _within(ttype, Comment.Preproc)
                                   or _within(ttype, String.Doc))
        return [held == {True} for held in kinds]

    return flags


# Languages whose indentation is their structure (by the first of their lexer's aliases):
# a line moved further in or out is another program there. (Scala 3 may indent for braces.)
OFFSIDE = frozenset({"python", "python2", "cython", "yaml", "haskell", "fsharp", "nimrod",
                     "coffeescript", "sass", "pug", "haml", "slim", "elm", "purescript", "idris",
                     "agda", "make", "gdscript", "scala", "boo"})


def respaced(lexing: Lexing, old: Sequence[str], new: Sequence[str]) -> bool:
    """Whether lines `new` read as `old` but for the white space between their tokens and
    the blank lines among them: what a formatter changes (php-cs-fixer aligning `=>`,
    gofmt, a line of a call wrapped). A string's text must be as it was (a space in it is
    the program's), a comment's but at its ends; and in a language whose indentation is
    its structure (OFFSIDE), each line as far in, from the line before it, as it was."""
    if _solid(lexing, old) != _solid(lexing, new):
        return False
    if lexing.lexer.aliases[:1] and lexing.lexer.aliases[0] in OFFSIDE:
        return _steps(old) == _steps(new)
    return True


def _solid(lexing: Lexing, lines: Sequence[str]) -> list[tuple[_TokenType, str]]:
    """The tokens of `lines` but the white space between them (a string's kept whole)."""
    text = "\n".join(lines) + "\n"
    return [(ttype, value if _within(ttype, String) else value.strip())
            for ttype, value in lexing.lexer_for(text).get_tokens(text)
            if _within(ttype, String) or value.strip()]


def _steps(lines: Sequence[str]) -> list[int]:
    """How each non-blank line of `lines` is indented from the one before it: -1 less, 0
    as far, 1 further."""
    depths = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    return [(b > a) - (b < a) for a, b in itertools.pairwise(depths)]


def _within(ttype: _TokenType, kind: _TokenType) -> bool:
    """Whether `ttype` is `kind` or one of its subtypes (a token type is a tuple of names)."""
    return ttype[:len(kind)] == kind


def _css_class(ttype: _TokenType) -> str:
    """The token's class, or '' when neither of the site's styles colours it (a span that
    styles nothing only weighs the page: most punctuation and names are plain text).
    Worked out once per token type: lex_lines keeps it (_CSS_CLASSES)."""
    known: _TokenType | None = ttype
    while known is not None and known not in STANDARD_TYPES:
        known = known.parent
    name = STANDARD_TYPES[known] if known is not None else ""
    return name if name in _styled() else ""


@functools.cache
def _styled() -> frozenset[str]:
    """The token classes the site's light or dark style gives a look (those the stylesheet
    has a rule for: see css.token_rules)."""
    return frozenset(STANDARD_TYPES[ttype] for style in (ReviewLight, ReviewDark)
                     for ttype, spec in style if ttype in STANDARD_TYPES and declarations_of(spec))


@functools.cache
def _classes() -> frozenset[str]:
    """Every class a token of a page may have: one the styles colour, or none."""
    return _styled() | {""}


@functools.cache
def _tokens_kind() -> str:
    """What lexed tokens depend on besides the lexer and the text: Pygments' version and
    the classes the site's styles colour (a token of another class is kept as plain)."""
    return (f"{PYGMENTS} {hashlib.sha256(' '.join(sorted(_styled())).encode()).hexdigest()[:16]}"
            " runs, php from its start")  # a run of tokens of one class is one token


_CSS_CLASSES: dict[_TokenType, str] = {}  # _css_class of each token type met so far


def lex_lines(lexer: Lexer, lines: list[str]) -> Tokens:
    """Lex `lines` as one text (so strings spanning lines are right); tokens per line."""
    result: Tokens = [[]]
    line = result[0]
    classes = _CSS_CLASSES
    for _, ttype, value in _tokens(lexer, "\n".join(lines) + "\n"):
        css = classes.get(ttype)
        if css is None:
            css = classes[ttype] = _css_class(ttype)
        if "\n" not in value:
            if line and line[-1][0] == css:  # one span for a run of one class (a string's
                line[-1] = (css, line[-1][1] + value)  # quotes and its text)
            else:
                line.append((css, value))
            continue
        for k, part in enumerate(value.split("\n")):
            if k:
                line = []
                result.append(line)
            if part:
                line.append((css, part))
    return result[: len(lines)] + [[] for _ in range(len(lines) - len(result))]


def _tokens(lexer: Lexer, text: str) -> Iterator[tuple[int, _TokenType, str]]:
    """The lexer's tokens of `text` as `get_tokens` gives them, each after a position. For
    text that its preprocessing would leave as it is (no CR, no BOM, no tabs to expand,
    nothing to strip) and a lexer without filters: `get_tokens_unprocessed` itself, the
    same tokens without the two generators `get_tokens` puts around them, through
    lexer_index.tokens (each state's rules indexed by their first characters, once the
    lexer has lexed enough text in the process to win back making the index)."""
    if (type(lexer).get_tokens is not Lexer.get_tokens or lexer.filters or lexer.stripall
            or lexer.stripnl or lexer.tabsize > 0 or "\r" in text or text.startswith("\ufeff")):
        return ((0, ttype, value) for ttype, value in lexer.get_tokens(text))
    return lexer_index.tokens(lexer, text)


def shared_indent(texts: list[str]) -> int:
    """How many characters of indentation every non-blank line of `texts` starts with
    alike (spaces, or tabs: Go's, C's): shown code starts at the left edge, its own
    indentation kept."""
    indents = [t[:len(t) - len(t.lstrip(" \t"))] for t in texts if t.strip()]
    return len(os.path.commonprefix(indents)) if indents else 0


def highlighted_lines(path: str, texts: list[str], languages: dict[str, str],
                      store: Kept | None = None, whole: list[str] | None = None) -> list[Markup]:
    """`texts` (lines of `path`), their shared indentation left out, highlighted as the
    file's language (told, where its ending does not, by the `whole` file, else by
    `texts`): one HTML line each (`store`: see Lexing)."""
    shared = shared_indent(texts)
    tokens = lexing_for(path, languages, store, whole or texts).lex([t[shared:] for t in texts])
    return [line_html(line, []) for line in tokens]


# Where a line of code may wrap on a narrow screen besides its spaces: after a '.', '(',
# '[' or ',' that a name or a string follows (a <wbr>, which copies as nothing), so a long
# call wraps between its parts, not inside a name, nor after its indentation alone.
_WRAP = re.compile(r"[.(\[,](?=[A-Za-z_\"'])")


def line_html(tokens: list[tuple[str, str]], ranges: list[tuple[int, int]]) -> Markup:
    """Highlighted HTML of one line, each run of characters in `ranges` in one <mark>, and
    a <wbr> wherever the line may wrap besides its spaces (see _WRAP)."""
    text = "".join(value for _, value in tokens)
    wraps = [m.end() for m in _WRAP.finditer(text)]
    if not ranges and not wraps:
        return Markup("".join(_span(css, value) for css, value in tokens))
    # Cut the tokens at every wrap point and range edge, in one pass over both (in order).
    marked_at = _marked(ranges, len(text))
    cuts = sorted(set(wraps).union(*ranges)) if ranges else wraps
    wrap_at = set(wraps)
    out: list[str] = []
    marking = False
    pos, c = 0, 0
    for css, value in tokens:
        end = pos + len(value)
        start = pos
        while c < len(cuts) and cuts[c] <= pos:
            c += 1
        while True:
            point = cuts[c] if c < len(cuts) and cuts[c] < end else end
            marked = marked_at[start] if start < len(marked_at) else False
            if marked != marking:
                out.append("<mark>" if marked else "</mark>")
                marking = marked
            out.append(_span(css, value[start - pos: point - pos]))
            if point in wrap_at:
                out.append("<wbr>")
            if point == end:
                break
            start = point
            c += 1
        pos = end
    if marking:
        out.append("</mark>")
    return Markup("".join(out))


def _marked(ranges: list[tuple[int, int]], length: int) -> list[bool]:
    """For each character of a line: whether one of `ranges` holds it."""
    flags = [False] * length
    for a, b in ranges:
        for i in range(max(a, 0), min(b, length)):
            flags[i] = True
    return flags


def _span(css: str, text: str) -> str:
    escaped = html.escape(text, quote=False)
    return f'<span class="{css}">{escaped}</span>' if css else escaped


