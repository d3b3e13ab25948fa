"""Lexing through each state's rules indexed by their first characters (lexer_index.py)
gives Pygments' own tokens, for every lexer Pygments has; and it tries fewer rules."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygments.lexer import RegexLexer
from pygments.lexers import get_all_lexers, get_lexer_by_name
from pygments.token import Keyword, Name, Number, Whitespace

from site_gen import highlight, lexer_index
from site_gen.lexer_index import RuleIndex, first_characters, index_of, indexed_tokens

# Texts in many languages, each lexed by every lexer (a language lexed as another takes
# its lexer into states and error paths its own texts would not).
TEXTS = (
    '''#!/usr/bin/env python3
"""Doc: ünïcode, ſ, K (Kelvin)."""
from typing import Optional
@decorator(x=1)
async def finalize(carrier: dict[str, str], step: Optional[int], *, wait_fn=None) -> None:
    if wait_fn is not None:  # comment
        await wait_fn()
    value = f"{step!r:>10} {{braces}}" + r'raw\\d' + b"\\x00" + 0x1F + 1e-3j + 0o17
    return [i ** 2 for i in range(10) if i % 2 == 0 and not i in {1, 2}]
''',
    '''#include <stdio.h>
/* block
   comment */
static const char *name = "tab\\there";
int main(int argc, char **argv) {
    for (int i = 0; i < argc; ++i) { printf("%s\\n", argv[i]); }
    return argc > 1 ? 0 : 'x';
}
''',
    '''const re = /ab+c/gi; let s = `template ${a + b} \\` end`;
export default class Widget extends Base { #priv = 1; get x() { return this.#priv ?? null; } }
function* gen() { yield* [1, 2, 3]; } // line comment
''',
    '''<!DOCTYPE html>
<html lang="en"><head><style>body { color: #fff; margin: 0 auto; }</style>
<script>if (a < b && c > d) { alert("x"); }</script></head>
<body class="page" data-x='1'><!-- comment --><p>Text &amp; more &#x27;</p>
{{ jinja }}{% if x %}y{% endif %}</body></html>
''',
    '''# YAML and shell
key: value
list:
  - "quoted: string"
  - {inline: map, n: 12.5e3}
anchor: &a !tag
  nested: *a
$ export PATH="$HOME/bin:$PATH"; for f in *.md; do echo "${f%.md}" | sed -e 's/a/b/g' >> out.txt; done
''',
    '''SELECT id, COUNT(*) AS n FROM "table" WHERE name LIKE 'a%' AND x <> 3 GROUP BY id HAVING n > 1;
-- comment
CREATE TABLE t (id INTEGER PRIMARY KEY, note TEXT DEFAULT NULL);
''',
    '''diff --git a/utils/checkpoint.py b/utils/checkpoint.py
@@ -488,4 +488,4 @@ def begin_finalization():
-                with _finalize_telemetry(carrier, step, async_save=wait_fn is not None):
+                with _finalize_telemetry(carrier, step):
 unchanged line
''',
    '''fn main() -> Result<(), Box<dyn Error>> { let v: Vec<u8> = vec![1, 2]; println!("{:?}", v); Ok(()) }
package main; import "fmt"; func main() { ch := make(chan int); go func() { ch <- 1 }(); fmt.Println(<-ch) }
public class A<T> implements B { @Override public String toString() { return "A" + 'c'; } }
''',
    '''# A heading
Some *emphasis*, **strong**, `code`, [a link](https://example.org/?q=1&r=2) and a table:

| a | b |
|---|---|
| 1 | 2 |

```python
print("fenced")
```
> quote \\ backslash ~~strike~~ <tag attr="v"> \t tab\r\ncarriage
''',
    '{"a": [1, 2.5, -3e10, true, false, null], "b": {"c": "d\\u00e9"}}\n[section]\nkey = "value" # toml\n',
    '''#include <cuda_runtime.h>
template <typename T> __global__ void scale(T* out, const T* in, size_t n) {
    size_t i = blockIdx.x * blockDim.x + threadIdx.x; uint32_t flags = 0u; float4 v;
    if (i < n) { out[i] = in[i] * static_cast<T>(2); }  // kernel
}
int launch() { scale<float><<<64, 256>>>(nullptr, nullptr, 0); return cudaSuccess; }
''',
    '''class Invoice < ApplicationRecord
  scope :overdue, -> { where("due_on < ?", Date.current) }
  def pay!(amount, at: Time.current)
    note = <<~TEXT
      paid #{amount} at #{at}
    TEXT
    %w[a b].each { |x| puts x =~ /\\d+/ ? :yes : :no }
  end
end
''',
    '''<?php
namespace App; use Foo\\Bar;
function total(array $items): float { return array_sum(array_map(fn($i) => $i->price, $items)); }
echo strlen("x {$a['b']}"), PHP_EOL; ?>
local t = { a = 1, ["b"] = string.format("%d", 2) } -- lua
for k, v in pairs(t) do print(k, v, math.floor(v)) end
func greet(name: String) -> String { return "Hi \\(name)" } // swift: NSString, UIView
''',
    "",
    "\n\n  \t\n",
    "\u00a0\u2028 \x00 \ufeff mixed \u4e2d\u6587 \U0001f600 )]}>",
)


def _every_lexer() -> list[str]:
    """The first alias of every lexer Pygments has (index_of tells the plain regex ones)."""
    return sorted(aliases[0] for _name, aliases, _files, _types in get_all_lexers() if aliases)


PARTS = 8  # the lexers in parts, so the parts run side by side
# Each part's tests run in one worker (pytest-xdist's loadgroup): reading a lexer's rules
# the first time compiles its patterns, half of what a part costs, once a process.
BY_PART = [pytest.param(part, marks=pytest.mark.xdist_group(f"lexers-{part}"), id=str(part))
           for part in range(PARTS)]


@pytest.mark.parametrize("part", BY_PART)
def test_every_regex_lexer_gives_pygments_own_tokens(part: int) -> None:
    checked = 0
    for alias in _every_lexer()[part::PARTS]:
        lexer = get_lexer_by_name(alias, stripnl=False, ensurenl=False)
        index = index_of(lexer)
        if index is None:  # its own loop: Pygments runs it
            continue
        checked += 1
        for number, text in enumerate(TEXTS):
            assert list(indexed_tokens(lexer, text, index)) == list(
                lexer.get_tokens_unprocessed(text)), f"{alias}, text {number}"
    assert checked > 40  # Pygments has over 400 plain regex lexers


# Every printable ASCII character, and some that are not: a space that is not ASCII's, a
# letter that folds to 's', the Kelvin sign, a tab, a CR, CJK, an emoji.
PROBE = "".join(map(chr, range(32, 127))) + " é\u212a\u017f\u00a0\n\t\r\u4e2d\U0001f600"


@pytest.mark.parametrize("part", BY_PART)
def test_no_rule_is_left_out_where_its_pattern_matches(part: int) -> None:
    """The index leaves a rule out for a character only if its pattern cannot match there:
    every pattern of every plain regex lexer, tried at every position of PROBE."""
    patterns: dict[tuple[str, int], re.Pattern[str]] = {}
    for alias in _every_lexer()[part::PARTS]:
        lexer = get_lexer_by_name(alias)
        if index_of(lexer) is not None:
            for rules in lexer._tokens.values():  # type: ignore[attr-defined]
                patterns.update({(m.__self__.pattern, m.__self__.flags): m.__self__
                                 for m, _action, _state in rules if hasattr(m, "__self__")})
    indexed = 0
    for pattern in patterns.values():
        starts = first_characters(pattern)
        if starts is None:
            continue
        indexed += 1
        for pos, char in enumerate(PROBE):
            assert not pattern.match(PROBE, pos) or starts(char), (pattern.pattern, char)
    assert indexed > 0.9 * len(patterns)  # nearly every pattern's first characters are known


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["python", "javascript", "typescript", "java", "go", "html", "css", "bash",
                        "sql", "diff", "rust", "toml", "markdown", "c", "cpp", "cuda", "php",
                        "ruby", "terraform", "lua", "swift", "objective-c"]),
       st.text(alphabet=st.sampled_from(list("ab_1 \t\n'\"`#/*\\{}()[]<>=-+.:;,$@%&|!?~é\u212a")),
               max_size=80))
def test_random_text_gives_pygments_own_tokens(alias: str, text: str) -> None:
    lexer = get_lexer_by_name(alias, stripnl=False, ensurenl=False)
    index = index_of(lexer)
    assert index is not None
    assert list(indexed_tokens(lexer, text, index)) == list(lexer.get_tokens_unprocessed(text))


def test_a_state_tries_only_the_rules_that_can_start_with_the_character() -> None:
    lexer = get_lexer_by_name("python")
    index = RuleIndex(lexer._tokens)  # type: ignore[attr-defined]
    every = lexer._tokens["root"]  # type: ignore[attr-defined]
    for char in "d(#\"1 ":
        tried = index.rules("root", char)
        assert len(tried) < len(every) / 2, char
        assert [every.index(rule) for rule in tried] == sorted(every.index(rule) for rule in tried)
    assert index.rules("root", "d") is index.rules("root", "d")  # made once


@pytest.mark.parametrize(("pattern", "yes", "no"), [
    (r"[a-z_]\w*", "az_", "1 .A"),
    (r"(?i)abc", "aA", "bc"),
    (r"a?b|0x[0-9]+", "ab0", "cx"),
    (r"(?<=x)y", "y", "x"),
    (r"(?=y)[xy]", "xy", "z"),  # a look-ahead is looked past: the class still counts
    (r"(\.)?(\d+)", ".1٣", "a"),
    (r"(?s:.)", "\na", ""),
    (r".", "a", "\n"),
    (r"[^\n]+", "a\t", "\n"),
    (r"\s+", " \t\n\u00a0", "a"),
    (r"(?a)\w", "a_1", "é"),
    (r"(?a)(?u:\w)", "aé", " "),  # a group's own Unicode classes, in an ASCII pattern
    (r"(?i:k)", "kK\u212a", "x"),
    (r"(?>ab)|c", "ac", "b"),
    (r"[\u00c0-\u024f\u0370-\u03ff_][a-z]*", "\u00c0\u024f\u0370\u03ff_", "a\u00bf\u0250\u036f\u0400"),
    (r"[b-d]|[a-c]|[x-z\U0001f600]", "abcdxz\U0001f600", "ew\U0001f601"),
])
def test_the_first_characters_of_a_pattern(pattern: str, yes: str, no: str) -> None:
    starts = first_characters(re.compile(pattern))
    assert starts is not None
    assert all(starts(c) for c in yes), pattern
    assert not any(starts(c) for c in no), pattern


@pytest.mark.parametrize("pattern", [r"x*", r"", r"(a)?\1", r"(a)?(?(1)b|c)", r"\b", r"a|", r"$"])
def test_a_pattern_that_can_start_anywhere_is_tried_everywhere(pattern: str) -> None:
    assert first_characters(re.compile(pattern)) is None


def test_a_lexer_is_indexed_once_it_has_lexed_enough_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Making a lexer's index costs more than a few lines win back: Pygments' own loop lexes
    until the lexer has lexed INDEX_AFTER characters, then the index does."""
    monkeypatch.setattr(lexer_index, "_INDEXES", {})
    lexer = get_lexer_by_name("python", stripnl=False, ensurenl=False)
    index = index_of(lexer)
    assert index is not None and index is index_of(lexer)
    text = "value = call(a, 'b')  # note\n" * 200
    lexed = 0
    while lexed < lexer_index.INDEX_AFTER:
        assert list(lexer_index.tokens(lexer, text)) == list(lexer.get_tokens_unprocessed(text))
        lexed += len(text)
        assert index.lexed == lexed and not index.by_state
    assert list(lexer_index.tokens(lexer, text)) == list(lexer.get_tokens_unprocessed(text))
    assert index.by_state["root"]  # lexed through the index


def test_a_lexer_of_its_own_loop_is_not_indexed() -> None:
    lexer = get_lexer_by_name("python-console")  # a Lexer with its own get_tokens_unprocessed
    assert index_of(lexer) is None
    assert list(lexer_index.tokens(lexer, ">>> 1\n1\n")) == list(
        lexer.get_tokens_unprocessed(">>> 1\n1\n"))


# What lexes the languages of most reviewed code beyond the plain regex lexers: C and C++
# mark standard types in a method of their own, CUDA its qualifiers through C++'s method,
# Objective-C through a base held in a closure; PHP, Swift and Lua mark their builtins;
# Ruby and Terraform run ExtendedRegexLexer's loop, whose callbacks move a shared context.
THROUGH_THEIR_OWN = ["c", "cpp", "cuda", "objective-c", "php", "swift", "lua", "elixir",
                     "ruby", "terraform"]


@pytest.mark.parametrize("alias", THROUGH_THEIR_OWN)
def test_a_lexer_that_changes_the_loops_tokens_is_indexed_too(alias: str) -> None:
    """Its own method runs, with the loop under it trying only the indexed rules: the
    tokens are Pygments' own, and the index is what found them."""
    lexer = get_lexer_by_name(alias, stripnl=False, ensurenl=False)
    index = index_of(lexer)
    assert index is not None
    for number, text in enumerate(TEXTS):
        index.by_state.clear()
        assert list(indexed_tokens(lexer, text, index)) == list(
            lexer.get_tokens_unprocessed(text)), f"{alias}, text {number}"
    assert index.by_state["root"]  # the rules were looked up by character


def test_a_lexer_that_changes_the_loops_tokens_keeps_its_changes() -> None:
    """C++ marks the standard types (Name in the loop, Keyword.Type in the lexer's
    tokens), CUDA its own names on top: the changes are there through the index."""
    cuda = next(text for text in TEXTS if "__global__" in text)
    for alias, name, kind in (("cpp", "uint32_t", Keyword.Type), ("cuda", "threadIdx", Name.Builtin),
                              ("cuda", "__global__", Keyword.Reserved)):
        lexer = get_lexer_by_name(alias, stripnl=False, ensurenl=False)
        index = index_of(lexer)
        assert index is not None
        found = {value: token for _pos, token, value in indexed_tokens(lexer, cuda, index)}
        assert found[name] is kind, (alias, name)


class _Counted(RegexLexer):
    """A lexer that changes the loop's tokens, calling it by name (as C's does)."""

    tokens = {"root": [(r"[a-z]+", Name), (r"\d+", Number), (r"\s+", Whitespace)]}

    def get_tokens_unprocessed(self, text: str, stack: tuple[str, ...] = ("root",)) -> Any:
        for pos, token, value in RegexLexer.get_tokens_unprocessed(self, text, stack):
            yield pos, (Keyword if value == "if" else token), value


class _Checking(RegexLexer):
    """A lexer whose method uses its base class for something else than its loop."""

    tokens = _Counted.tokens

    def get_tokens_unprocessed(self, text: str, stack: tuple[str, ...] = ("root",)) -> Any:
        assert isinstance(self, RegexLexer)
        yield from RegexLexer.get_tokens_unprocessed(self, text, stack)


class _Nested(RegexLexer):
    """A lexer whose method holds a function that uses its base class otherwise."""

    tokens = _Counted.tokens

    def get_tokens_unprocessed(self, text: str, stack: tuple[str, ...] = ("root",)) -> Any:
        regex = lambda lexer: isinstance(lexer, RegexLexer)  # noqa: E731
        assert regex(self)
        yield from RegexLexer.get_tokens_unprocessed(self, text, stack)


def test_only_a_base_called_for_its_loop_is_replaced() -> None:
    counted = _Counted(stripnl=False, ensurenl=False)
    index = index_of(counted)
    assert index is not None
    assert list(indexed_tokens(counted, "if 12 x", index)) == [
        (0, Keyword, "if"), (2, Whitespace, " "), (3, Number, "12"), (5, Whitespace, " "),
        (6, Name, "x")]
    assert index_of(_Checking()) is None  # Pygments' loop, as it is
    assert index_of(_Nested()) is None
    assert list(lexer_index.tokens(_Nested(), "if 1")) == list(_Nested().get_tokens_unprocessed("if 1"))
    yaml = get_lexer_by_name("yaml")  # calls its loop through super(): not replaced
    assert index_of(yaml) is None
    assert list(lexer_index.tokens(yaml, "a: 1\n")) == list(yaml.get_tokens_unprocessed("a: 1\n"))


def test_highlighting_lexes_through_the_index(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    tokens = lexer_index.tokens

    def spy(lexer: object, text: str) -> object:
        seen.append(text)
        return tokens(lexer, text)  # type: ignore[arg-type]

    monkeypatch.setattr(highlight.lexer_index, "tokens", spy)
    lines = highlight.lex_lines(get_lexer_by_name("python", stripnl=False, ensurenl=False),
                                ["x = 1", "y = 'two'"])
    assert seen == ["x = 1\ny = 'two'\n"]
    assert lines == [[("", "x = "), ("mi", "1")],  # a run of one class: one token
                     [("", "y = "), ("s1", "'two'")]]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 0x10FFFF), st.integers(0, 300)), min_size=1, max_size=40),
       st.lists(st.integers(0, 0x10FFFF), max_size=20))
def test_a_class_of_ranges_starts_with_the_characters_it_matches(
        spans: list[tuple[int, int]], others: list[int]) -> None:
    """A class of literals and ranges, however long, is tested by its ranges (not compiled
    again): the answer is the class's own, at each range's ends and next to them too."""
    ranges = [(low, min(low + size, 0x10FFFF)) for low, size in spans]
    pattern = re.compile("[" + "".join(f"\\U{low:08x}-\\U{high:08x}" for low, high in ranges) + "]x?")
    starts = first_characters(pattern)
    assert starts is not None
    probes = {code for low, high in ranges for code in (low - 1, low, high, high + 1)} | set(others)
    for code in sorted(c for c in probes if 0 <= c <= 0x10FFFF):
        assert bool(starts(chr(code))) == bool(pattern.match(chr(code))), hex(code)


def test_python_names_are_not_compiled_again_to_index_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python's name rule starts with a class of 607 ranges: compiled as a pattern of one
    character it took 5 ms, a third of indexing Python's lexer; its ranges are searched
    instead."""
    compiled: list[str] = []
    compile = re.compile

    def spy(pattern: str, flags: int = 0) -> re.Pattern[str]:
        compiled.append(pattern)
        return compile(pattern, flags)

    lexer = get_lexer_by_name("python")
    index = RuleIndex(lexer._tokens)  # type: ignore[attr-defined]
    lexer_index._first_characters.cache_clear()  # worked out now, not by a test before
    monkeypatch.setattr(lexer_index.re, "compile", spy)
    for char in "aé_1 (\"#@":
        index.rules("root", char)
    assert index.rules("root", "é") and index.rules("root", "\u4e2d")  # names of any script
    assert compiled and max(map(len, compiled)) < 1_000


FENCES = ("\ufeff\n\nx = 1\r\ny = 'two'\r\n\n\n", "\tif (a) { b(); }", "", "\n\n", "one line, no end",
          "a\rb\r\n\rc\n", *TEXTS)


@pytest.mark.parametrize("part", BY_PART)
def test_a_fence_is_highlighted_as_pygments_highlights_it(
        part: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fenced block of any language, its text made ready as Lexer.get_tokens makes it
    (BOM, line ends, blank lines around it), lexed through the index: Pygments' own HTML
    (PHP's code without a `<?php` before it read as code from its start, Pygments'
    `startinline`: see test_php_code_without_its_opening_tag_is_highlighted)."""
    from pygments import highlight as pygments_highlight
    from pygments.formatters import HtmlFormatter

    monkeypatch.setattr(lexer_index, "INDEX_AFTER", 0)  # through the index from the first
    formatter = HtmlFormatter(nowrap=True)  # made once: it builds its stylesheet when made
    for alias in _every_lexer()[part::PARTS]:
        for number, code in enumerate(FENCES):  # a new lexer each time; site_gen keeps one
            html = highlight.highlight_code(code, alias)
            lexer = get_lexer_by_name(alias)
            if getattr(lexer, "startinline", None) is False and not code.lstrip().startswith("<?"):
                lexer = get_lexer_by_name(alias, startinline=True)
            body = pygments_highlight(code, lexer, formatter)
            assert html == (f'<pre class="highlight"><code class="language-{highlight._attr(alias)}">'
                            f"{body}</code></pre>\n"), f"{alias}, fence {number}"


def test_a_fence_lexes_through_the_index(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    tokens = lexer_index.tokens

    def spy(lexer: object, text: str) -> object:
        seen.append(text)
        return tokens(lexer, text)  # type: ignore[arg-type]

    monkeypatch.setattr(highlight.lexer_index, "tokens", spy)
    highlight.highlight_code("\nx = 1\r\n\n", "python")
    assert seen == ["x = 1\n"]
