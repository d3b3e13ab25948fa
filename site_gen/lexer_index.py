"""Pygments' regex lexers, run with each state's rules indexed by the characters a match
can start with.

A `RegexLexer` tries the rules of its current state in order at every position, and takes
the first that matches. Most cannot match there: Python's lexer tries about 38 patterns
per token. Which characters a pattern can start with is known from the pattern itself, so
for the character at the position only the rules that can start with it are tried, in
their order: the first that matches is the one Pygments finds, and the tokens are the
same, five times faster for Python.

A rule is left out for a character only when its pattern cannot start a match there: the
first characters are read from the parsed pattern (Python's own `re` parser), and a pattern
with anything this module does not know (a back-reference, a conditional, a category
outside the usual six), or one that can match the empty string, is tried at every
character.

ExtendedRegexLexer's loop (Ruby, Terraform, Sass: rules whose callbacks move a shared
context) is indexed the same way. Many lexers run either loop inside a
`get_tokens_unprocessed` of their own, which changes some of its tokens (C and C++ mark the
standard types, CUDA its qualifiers, PHP, Swift, Lua and Elixir their builtins): their own
code runs, with the loop under it indexed (see _runner). Lexers of a loop of their own
(hand-written ones, those that delegate to other lexers) run as Pygments runs them.
"""

from __future__ import annotations

import bisect
import contextlib
import dis
import functools
import itertools
import re
import types
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from pygments.lexer import ExtendedRegexLexer, Lexer, LexerContext, RegexLexer
from pygments.token import Error, Text, Whitespace, _TokenType

if TYPE_CHECKING:  # the stubs know Python's regular expression parser by its older names
    import sre_constants as sre
    import sre_parse as parser
else:
    from re import _constants as sre
    from re import _parser as parser

Rule = tuple[Callable[..., Any], Any, Any]  # Pygments' processed rule: (match, action, new state)
Token = tuple[int, _TokenType, str]
Starts = Callable[[str], object]  # whether a match can start with this character

# A lexer's index is made once the lexer has lexed this many characters in the process:
# making it reads the patterns of the states it visits (about 8 ms for Python's lexer),
# which lexing that much text through it wins back (Python: 1.5 µs a character through
# Pygments' loop, 0.25 through the index: even after about 6,400 characters). Before, and
# for a small page's few lines, Pygments' own loop runs. Waiting longer only loses more:
# at 20,000, a process rendering many pages lexed some 18 of them the slow way.
INDEX_AFTER = 6_000


def tokens(lexer: Lexer, text: str) -> Iterator[Token]:
    """`lexer.get_tokens_unprocessed(text)`: the same tokens, found through the lexer's
    index once it has lexed INDEX_AFTER characters (a lexer index_of can index)."""
    index = index_of(lexer)
    if index is None or index.lexed < INDEX_AFTER:
        if index is not None:
            index.lexed += len(text)
        return lexer.get_tokens_unprocessed(text)
    return indexed_tokens(lexer, text, index)


def index_of(lexer: Lexer) -> RuleIndex | None:
    """The index of `lexer`'s rules (one per lexer class), None for a lexer whose tokens do
    not come from Pygments' regex loops alone (see _runner)."""
    if _runner(type(lexer)) is None:
        return None
    return _rule_index(lexer)


def _rule_index(lexer: Lexer) -> RuleIndex:
    tokendefs: dict[str, list[Rule]] = lexer._tokens  # type: ignore[attr-defined]
    kept = _INDEXES.get(id(tokendefs))
    if kept is None or kept[0] is not tokendefs:
        kept = _INDEXES[id(tokendefs)] = (tokendefs, RuleIndex(tokendefs))
    return kept[1]


def indexed_tokens(lexer: Lexer, text: str, index: RuleIndex) -> Iterator[Token]:
    """`lexer.get_tokens_unprocessed(text)`, with the regex loop under it trying only the
    rules `index` (the lexer's: see index_of) gives for the character at the position."""
    runner = _runner(type(lexer))
    if runner is None or runner is _indexed_loop:
        return _loop(lexer, text, index)
    return runner(lexer, text)


# Per lexer class: how its get_tokens_unprocessed runs with the regex loop under it
# indexed (_indexed_loop for RegexLexer's own), None when it cannot.
_RUNNERS: dict[type, Callable[..., Iterator[Token]] | None] = {}


def _runner(cls: type) -> Callable[..., Iterator[Token]] | None:
    """`cls.get_tokens_unprocessed` with the regex loop it runs indexed.

    Pygments' lexers that change the loop's tokens call it by name from their own method
    (`RegexLexer.get_tokens_unprocessed(self, text, stack)`, or a base lexer's method that
    does: CUDA calls C++'s). That method runs as it is, with each such name of its module
    (or of its closure) standing for a class whose `get_tokens_unprocessed` is the same
    base's, indexed. A method that uses a base class any other way, reaches it through
    `super()` (YAML), or calls no base keeps Pygments' loop (None)."""
    if cls not in _RUNNERS:
        _RUNNERS[cls] = None  # a base that calls this class back: not indexed
        _RUNNERS[cls] = _make_runner(cls)
    return _RUNNERS[cls]


def _make_runner(cls: type) -> Callable[..., Iterator[Token]] | None:
    if not (isinstance(cls, type) and issubclass(cls, RegexLexer)):
        return None
    method = cls.get_tokens_unprocessed
    if method is RegexLexer.get_tokens_unprocessed:
        return _indexed_loop
    if method is ExtendedRegexLexer.get_tokens_unprocessed:
        return _indexed_extended_loop
    if not isinstance(method, types.FunctionType):
        return None
    bases = _bases_called(cls, method)
    if not bases:  # a loop of its own, or a base used for something else
        return None
    names: dict[str, object] = {}
    for name, base in bases.items():
        inner = _runner(base)
        if inner is None:
            return None
        names[name] = types.SimpleNamespace(get_tokens_unprocessed=inner)
    return _with_names(method, names)


def _bases_called(cls: type, method: types.FunctionType) -> dict[str, type] | None:
    """Each name by which `method` (or a function it holds) loads a base class of `cls`,
    with that base, when it loads one only to call its `get_tokens_unprocessed`; None when
    it loads one to do anything else."""
    cells = dict(zip(method.__code__.co_freevars, method.__closure__ or (), strict=True))
    found: dict[str, type] = {}
    for code in _codes(method.__code__):
        for step, after in itertools.pairwise(dis.get_instructions(code)):
            value = _loaded(step, method.__globals__, cells)
            if not (isinstance(value, type) and value is not cls and issubclass(cls, value)):
                continue
            if after.opname not in ("LOAD_METHOD", "LOAD_ATTR") or \
                    after.argval != "get_tokens_unprocessed":
                return None
            found[step.argval] = value
    return found


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    """`code` and the code of every function, lambda and comprehension in it."""
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _loaded(step: dis.Instruction, scope: dict[str, Any],
            cells: dict[str, types.CellType]) -> object:
    """What `step` loads when it loads a name of the module or of the closure (else None)."""
    if step.opname == "LOAD_GLOBAL":
        return scope.get(step.argval)
    if step.opname == "LOAD_DEREF" and step.argval in cells:
        with contextlib.suppress(ValueError):  # a cell not filled yet
            return cells[step.argval].cell_contents
    return None


def _with_names(method: types.FunctionType, names: dict[str, object]) -> types.FunctionType:
    """`method`, with each of `names` of its module or of its closure standing for the
    value given (its module itself unchanged: the method gets a copy of its names)."""
    code = method.__code__
    cells = dict(zip(code.co_freevars, method.__closure__ or (), strict=True))
    scope = {**method.__globals__, **{k: v for k, v in names.items() if k not in cells}}
    closure = tuple(types.CellType(names[name]) if name in names else cells[name]
                    for name in code.co_freevars)
    runner = types.FunctionType(code, scope, method.__name__, method.__defaults__,
                                closure or None)
    runner.__kwdefaults__, runner.__qualname__ = method.__kwdefaults__, method.__qualname__
    return runner


def _indexed_loop(lexer: Lexer, text: str, stack: Sequence[str] = ("root",)) -> Iterator[Token]:
    """RegexLexer.get_tokens_unprocessed itself, through the index of `lexer`'s rules."""
    return _loop(lexer, text, _rule_index(lexer), stack)


def _indexed_extended_loop(lexer: Lexer, text: str | None = None,
                           context: LexerContext | None = None) -> Iterator[Token]:
    """ExtendedRegexLexer.get_tokens_unprocessed itself (its rules' callbacks move the
    position and the state stack of a context they share), through the index of `lexer`'s
    rules: at each position, the rules of the state on top of the stack that can start
    with its character (every rule at the context's end)."""
    index = _rule_index(lexer)
    ctx = context or LexerContext(text, 0)
    text = ctx.text
    while True:
        state = ctx.stack[-1]
        rules: Sequence[Rule] = index.tokendefs[state]
        if ctx.pos < ctx.end:
            rules = index.rules(state, text[ctx.pos])
        for match, action, new_state in rules:
            m = match(text, ctx.pos, ctx.end)
            if m:
                if action is not None:
                    if type(action) is _TokenType:
                        yield ctx.pos, action, m.group()
                        ctx.pos = m.end()
                    else:  # it sets ctx.pos, and may change the stack
                        yield from action(lexer, m, ctx)
                if new_state is not None:
                    _move(ctx.stack, new_state)
                break
        else:  # no rule matched: as Pygments does
            if ctx.pos >= ctx.end or ctx.pos >= len(text):
                return
            if text[ctx.pos] == "\n":
                ctx.stack = ["root"]
                yield ctx.pos, Text, "\n"
            else:
                yield ctx.pos, Error, text[ctx.pos]
            ctx.pos += 1


# Per lexer class's processed rules (kept with them, so the id stays theirs): the index.
_INDEXES: dict[int, tuple[dict[str, list[Rule]], RuleIndex]] = {}


class RuleIndex:
    """The rules of each state that can start with each character, made as they are needed."""

    def __init__(self, tokendefs: dict[str, list[Rule]]) -> None:
        self.tokendefs = tokendefs
        self.by_state: dict[str, dict[str, tuple[Rule, ...]]] = {}
        self.starts: dict[int, Starts | None] = {}  # per rule's match: its first characters
        self.lexed = 0  # characters lexed by Pygments' own loop (see INDEX_AFTER)

    def rules(self, state: str, char: str) -> tuple[Rule, ...]:
        """The rules of `state` whose match can start with `char`, in their order."""
        by_char = self.by_state.setdefault(state, {})
        found = by_char.get(char)
        if found is None:
            found = by_char[char] = tuple(
                rule for rule in self.tokendefs[state]
                if (starts := self._starts(rule[0])) is None or starts(char))
        return found

    def _starts(self, match: Callable[..., Any]) -> Starts | None:
        key = id(match)
        if key not in self.starts:
            pattern = getattr(match, "__self__", None)
            plain = isinstance(pattern, re.Pattern) and match == pattern.match
            self.starts[key] = first_characters(pattern) if plain else None
        return self.starts[key]


def _loop(lexer: Lexer, text: str, index: RuleIndex,
          states: Sequence[str] = ("root",)) -> Iterator[Token]:
    """Pygments' RegexLexer.get_tokens_unprocessed from the state stack `states`, trying
    only the rules `index` (the lexer's) gives for the character at the position (every
    rule at the end of the text)."""
    pos, end, stack = 0, len(text), list(states)
    by_char = index.by_state.setdefault(stack[-1], {})  # the current state's rules by character
    while True:
        rules: Sequence[Rule] | None = by_char.get(text[pos]) if pos < end else index.tokendefs[stack[-1]]
        if rules is None:
            rules = index.rules(stack[-1], text[pos])
        for match, action, new_state in rules:
            m = match(text, pos)
            if m:
                if action is not None:
                    if type(action) is _TokenType:
                        yield pos, action, m.group()
                    else:
                        yield from action(lexer, m)
                pos = m.end()
                if new_state is not None:
                    _move(stack, new_state)
                    by_char = index.by_state.setdefault(stack[-1], {})
                break
        else:  # no rule matched: as Pygments does
            if pos >= end:
                return
            if text[pos] == "\n":
                stack = ["root"]
                by_char = index.by_state.setdefault("root", {})
                yield pos, Whitespace, "\n"
            else:
                yield pos, Error, text[pos]
            pos += 1


def _move(stack: list[str], new_state: Any) -> None:
    """Change the state stack as a rule's processed new state says (Pygments' own rules)."""
    if isinstance(new_state, tuple):
        for state in new_state:
            if state == "#pop":
                if len(stack) > 1:
                    stack.pop()
            elif state == "#push":
                stack.append(stack[-1])
            else:
                stack.append(state)
    elif isinstance(new_state, int):  # pop, but keep at least one state
        del stack[new_state if abs(new_state) < len(stack) else 1:]
    elif new_state == "#push":
        stack.append(stack[-1])
    else:
        raise AssertionError(f"wrong state def: {new_state!r}")


class _Unknown(Exception):
    """A part of a pattern whose first characters are not worked out here."""


_ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)  # they consume nothing: look past them
_SCOPED = ((sre.SRE_FLAG_IGNORECASE, "i"), (sre.SRE_FLAG_DOTALL, "s"))
_MODES = sre.SRE_FLAG_ASCII | sre.SRE_FLAG_UNICODE | sre.SRE_FLAG_LOCALE  # what \w means
_CATEGORIES = {sre.CATEGORY_DIGIT: r"\d", sre.CATEGORY_NOT_DIGIT: r"\D",
               sre.CATEGORY_WORD: r"\w", sre.CATEGORY_NOT_WORD: r"\W",
               sre.CATEGORY_SPACE: r"\s", sre.CATEGORY_NOT_SPACE: r"\S"}


def first_characters(pattern: re.Pattern[Any] | None) -> Starts | None:
    """A test of one character: whether a match of `pattern` can start with it. None when
    any character can (or the pattern can match the empty string, or has a part not
    worked out here)."""
    if pattern is None or not isinstance(pattern.pattern, str):
        return None
    return _first_characters(pattern.pattern, pattern.flags)


@functools.cache
def _first_characters(source: str, flags: int) -> Starts | None:
    """first_characters of the pattern `source` under `flags`, worked out once per process:
    parsing a pattern costs about what compiling it does, and lexers share many (a
    subclass's inherited rules, the common ones for white space and names)."""
    try:
        parsed = parser.parse(source, flags)
        items: list[Item] = []
        if _first(parsed.data, parsed.state.flags, items):
            return None
        plain = _plain_ranges(items)
        if plain is not None:  # most: named characters, tested without a pattern
            return _in_ranges(plain)
        return re.compile("|".join(_scoped(_one_character(op, av), flags)
                                   for op, av, flags in items)).match
    except (_Unknown, re.error, RecursionError):
        return None


Item = tuple[Any, Any, int]  # a parsed item that matches one character, under these flags


def _first(items: Any, flags: int, found: list[Item]) -> bool:
    """Add to `found` each item of one character that `items` (a parsed sequence) can
    start with; whether `items` can also match the empty string."""
    for op, av in items:
        if op in _ZERO_WIDTH:
            continue
        if op is sre.SUBPATTERN:
            _group, add, remove, sub = av
            mode = flags & ~_MODES if add & _MODES else flags  # a group's mode replaces
            if not _first(sub, (mode | add) & ~remove, found):
                return False
        elif op is sre.BRANCH:
            # every branch adds its characters: a list, not any() over a generator,
            # which would stop at the first branch that can match the empty string
            empty = [_first(branch, flags, found) for branch in av[1]]
            if not any(empty):
                return False
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            least, _most, sub = av
            if not _first(sub, flags, found) and least > 0:
                return False
        elif op is sre.ATOMIC_GROUP:
            if not _first(av, flags, found):
                return False
        elif op in (sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN):
            found.append((op, av, flags))
            return False
        else:
            raise _Unknown(op)
    return True


PLAIN_SET = 256  # at most this many characters are kept as a set rather than as ranges


def _plain_ranges(items: list[Item]) -> list[tuple[int, int]] | None:
    """The characters `items` match as ranges of code points (sorted, apart), when they
    are named ones (literals and ranges, case as written); None otherwise."""
    spans: list[tuple[int, int]] = []
    for op, av, flags in items:
        if flags & sre.SRE_FLAG_IGNORECASE:
            return None
        if op is sre.LITERAL:
            spans.append((av, av))
            continue
        if op is not sre.IN:
            return None
        for kind, value in av:
            if kind is sre.LITERAL:
                spans.append((value, value))
            elif kind is sre.RANGE:
                spans.append(value)
            else:  # a negation, a category
                return None
    merged: list[tuple[int, int]] = []
    for low, high in sorted(spans):
        if merged and low <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


def _in_ranges(spans: list[tuple[int, int]]) -> Starts:
    """A test of one character: whether it lies in `spans` (see _plain_ranges). A few
    characters are a set; a long class (Python's identifiers: 607 ranges) is searched by
    its ranges' starts: compiled as a pattern, it took 5 ms, a third of indexing Python's
    lexer."""
    if sum(high - low + 1 for low, high in spans) <= PLAIN_SET:
        return frozenset(chr(code) for low, high in spans for code in range(low, high + 1)).__contains__
    lows = [low for low, _ in spans]
    highs = [high for _, high in spans]

    def starts(char: str) -> bool:
        at = bisect.bisect_right(lows, ord(char)) - 1
        return at >= 0 and ord(char) <= highs[at]

    return starts


def _one_character(op: Any, av: Any) -> str:
    """The pattern of one character that the parsed item (op, av) matches."""
    if op is sre.LITERAL:
        return _char(av)
    if op is sre.NOT_LITERAL:
        return f"[^{_char(av)}]"
    if op is sre.ANY:
        return "."
    parts = []
    for kind, value in av:
        if kind is sre.NEGATE:
            parts.append("^")
        elif kind is sre.LITERAL:
            parts.append(_char(value))
        elif kind is sre.RANGE:
            parts.append(f"{_char(value[0])}-{_char(value[1])}")
        elif kind is sre.CATEGORY and value in _CATEGORIES:
            parts.append(_CATEGORIES[value])
        else:
            raise _Unknown(kind)
    return f"[{''.join(parts)}]"


def _char(code: int) -> str:
    return f"\\U{code:08x}"


def _scoped(text: str, flags: int) -> str:
    """`text` under the flags that change what one character matches: case, '.', and
    whether classes such as \\w are ASCII's or Unicode's (a group may set its own)."""
    on = "a" if flags & sre.SRE_FLAG_ASCII else "u"
    on += "".join(letter for flag, letter in _SCOPED if flags & flag)
    off = "".join(letter for flag, letter in _SCOPED if not flags & flag)
    return f"(?{on}-{off}:{text})" if off else f"(?{on}:{text})"
