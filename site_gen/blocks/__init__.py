"""Custom markdown blocks: one plugin module per block, each with its own template."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline.text import text as text_rule
from markdown_it.token import Token
from markupsafe import Markup
from mdit_py_plugins.container import container_plugin

from ..context import PageContext, context_of


def render_inline(md: MarkdownIt, env: dict[str, Any], text: str, line: int | None) -> Markup:
    """Inline markdown inside a block; code references in it report `line`."""
    if plain_text(md, text):
        return Markup(escapeHtml(text))
    with context_of(env).at_line(line):
        return Markup(md.renderInline(text, env))


def plain_text(md: MarkdownIt, text: str) -> bool:
    """Whether `text` is inline markdown that renders as itself, escaped: none of its
    characters stops markdown-it's text rule (the first of its inline rules; every other
    rule starts only where that one stops), nor needs the core's normalizing (CR, NUL),
    and no core rule changes plain text (linkify and the typographer are off). Most
    cells of a flow and many summary fields are such text: their HTML is made without
    a parser's state, rules and tokens (about 12 µs each)."""
    return (md.inline.terminator_re.search(text) is None and "\r" not in text
            and "\0" not in text and not md.options.get("linkify")
            and not md.options.get("typographer") and _text_rule_first(md))


def _text_rule_first(md: MarkdownIt) -> bool:
    rules = md.inline.ruler.getRules("")
    return bool(rules) and rules[0] is text_rule


def fence_parser(md: MarkdownIt, info: str, token_type: str,
                 parse: Callable[[PageContext, list[str], int], Any]) -> None:
    """Turn ```` ```info ```` fences into `token_type` tokens holding `parse`'s model.

    `parse(ctx, lines, first_line)` gets the fence's lines and the file line of the
    first of them; it records problems in `ctx` and returns None when there were any.
    """

    def rule(state: StateCore) -> None:
        ctx = context_of(state.env)
        for token in state.tokens:
            if token.type == "fence" and token.info.strip() == info and token.map:
                if not closed(token):
                    continue  # reported by check_fences: its lines are not the block's
                first = ctx.first_line + token.map[0] + 1
                lines = token.content.split("\n")[:-1]
                inner = next((i for i, line in enumerate(lines) if _opens_fence(line)), None)
                if inner is not None:  # its closing line is missing: it ran into the next
                    ctx.error(f"{info} opened here is not closed before line {first + inner} "
                              f"('{lines[inner].strip()}'); add {token.markup} on a line of "
                              "its own to end it", first - 1)
                    continue
                model = parse(ctx, lines, first)
                if model is not None:
                    token.type = token_type
                    token.meta = {"model": model}

    md.core.ruler.after("block", f"{token_type}_parse", rule)


def _opens_fence(line: str) -> bool:
    """Whether `line` opens a fenced block at its start: no line of site_gen's blocks does
    (a proposal's diff lines start with their mark: ' ```python' is a context line), so
    one inside a block is the next block, reached because the block's own closing line is
    missing (a fence with an info string cannot close one)."""
    return line.startswith(("```", "~~~")) and line.strip("`~ \t") != ""


def closed(token: Token) -> bool:
    """Whether the block `token` opens (a fence, a `:::` container) ends with its own
    closing line rather than running to the end of the page or of the block around it."""
    return bool(token.meta.get("closed", True))


def closing_plugin(md: MarkdownIt) -> None:
    """Record on each fence and `:::` container whether its own closing line ended it
    (`closed(token)`), as the parser saw the lines: inside a blockquote or a list item
    too. Register it after every container."""
    rules = md.block.ruler.get_all_rules()
    for name in [n for n in rules if n == "fence" or n.startswith("container_")]:
        index = md.block.ruler.__find__(name)
        rule = md.block.ruler.__rules__[index]
        md.block.ruler.at(name, _recording(rule.fn, name == "fence"), {"alt": rule.alt})
    md.core.ruler.after("block", "closing_marks", _pair_closing_marks)


def _recording(rule: Callable[[StateBlock, int, int, bool], bool],
               fence: bool) -> Callable[[StateBlock, int, int, bool], bool]:
    def recording(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        first = len(state.tokens)
        if not rule(state, start, end, silent):
            return False
        if not silent:
            token = state.tokens[first]
            assert token.map is not None
            if fence:  # its map takes in the closing line, if there was one
                token.meta["closed"] = state.line - 1 > start and _closes(state, state.line - 1,
                                                                          token.markup)
            else:  # its map ends before the closing line, which the rule steps over
                token.meta["closed"] = state.line == token.map[1] + 1
        return True
    return recording


def _closes(state: StateBlock, line: int, markup: str) -> bool:
    """Whether `line` is a closing fence for an opening `markup`, read as the parser reads
    it (after the blockquote marks and indentation of the blocks around it)."""
    text = state.src[state.bMarks[line] + state.tShift[line]:state.eMarks[line]].rstrip()
    return (len(text) >= len(markup) and text == markup[0] * len(text)
            and state.sCount[line] - state.blkIndent < 4)


def _pair_closing_marks(state: StateCore) -> None:
    """`:::` lines close the innermost open container, as brackets do: a container that
    is left open runs to its parent's closing line, which is then its own, and the parent
    is the one left open (an unclosed review followed by a closed aside: the review)."""
    stack: list[Token] = []
    for token in state.tokens:
        if not token.type.startswith("container_"):
            continue
        if token.nesting == 1:
            stack.append(token)
        elif token.nesting == -1 and stack:
            child = stack.pop()
            parent = stack[-1] if stack else None
            if (parent is not None and not closed(child) and closed(parent)
                    and child.map and parent.map and child.map[1] == parent.map[1]):
                child.meta["closed"], parent.meta["closed"] = True, False


def check_fences(state: StateCore) -> None:
    """A fence that is never closed swallows the rest of the page: one error at its line."""
    ctx = context_of(state.env)
    for token in state.tokens:
        if token.type == "fence" and token.map and not closed(token):
            what = token.info.strip().split()[0] if token.info.strip() else "code block"
            ctx.error(f"{what} opened here is never closed (add {token.markup} on a line of "
                      "its own)", ctx.line(token.map))


def container_block(md: MarkdownIt, name: str, what: str, *,
                    parse: Callable[[PageContext, Token, list[Token]], None],
                    render: Callable[[Token, dict[str, Any]], str],
                    close: Callable[[Token, dict[str, Any]], str]) -> None:
    """A `::: name …` block (mdit-py-plugins' container), its body markdown, closed by a
    `:::` line of its own.

    After the inline stage, `parse(ctx, token, tokens)` reads each opening token (its
    `info` is the header line) into its `meta`, recording problems in `ctx`; one left
    open is reported at its line as `what` "opened here is never closed". `render` and
    `close` give the HTML of the opening and the closing token.
    """
    opens = f"container_{name}_open"

    def rule(state: StateCore) -> None:
        ctx = context_of(state.env)
        for token in state.tokens:
            if token.type == opens:
                if not closed(token):
                    ctx.error(f"{what} opened here is never closed (add ::: on a line of its "
                              "own)", ctx.line(token.map))
                parse(ctx, token, state.tokens)

    container_plugin(md, name)
    md.core.ruler.after("inline", f"{name}_parse", rule)
    block_renderer(md, opens, render)
    block_renderer(md, f"container_{name}_close", close)


def block_renderer(md: MarkdownIt, token_type: str,
                   render: Callable[[Token, dict[str, Any]], str]) -> None:
    """Register `render(token, env)` for `token_type`: the one shape of every render rule
    of site_gen's blocks and inline marks (what a token needs is in its `meta`)."""

    def rule(self: Any, tokens: list[Token], idx: int, options: Any, env: dict[str, Any]) -> str:
        return render(tokens[idx], env)

    md.add_render_rule(token_type, rule)


def unclosed_bracket_plugin(md: MarkdownIt) -> None:
    """A '[' (or '![') with no ']' anywhere after it can open no link, image or reference:
    taken as text at once, instead of every bracket rule scanning the rest of the text for
    its end (a line of 150,000 '[' took seconds). What renders is the same."""
    md.inline.ruler.after("backticks", "unclosed_bracket", _unclosed_bracket)


def _unclosed_bracket(state: StateInline, silent: bool) -> bool:
    start = state.pos + 1 if state.src.startswith("![", state.pos) else state.pos
    if state.src[start] != "[" or find_after(state, "]", start + 1) >= 0:
        return False
    if not silent and state.src.startswith("[[", start):
        return False  # a reference's opening: the reference rule tells it is never closed
    if not silent:
        state.append_pending(state.src[state.pos:start + 1])
    state.pos = start + 1
    return True


def find_after(state: StateInline, mark: str, start: int) -> int:
    """Where `mark` next stands at or after `start` in the inline text, or -1 (remembered,
    like `line_find`)."""
    return _next(state, mark, start)


def line_find(state: StateInline, mark: str, start: int) -> int:
    """Where `mark` next stands at or after `start` on the same line, or -1.

    markdown-it tries an inline rule at every position; looking ahead afresh from each
    would make a line full of openers quadratic, so each search is remembered per text."""
    found = _next(state, mark, start)
    newline = _next(state, "\n", start)
    return found if found >= 0 and (newline < 0 or newline > found) else -1


def _next(state: StateInline, text: str, start: int) -> int:
    memo: dict[tuple[str, str], tuple[int, int]] = state.env.setdefault("_site_gen_find", {})
    searched_from, found = memo.get((state.src, text), (-1, -1))
    if not (0 <= searched_from <= start and (found < 0 or found >= start)):
        searched_from, found = start, state.src.find(text, start)
        memo[(state.src, text)] = (searched_from, found)
    return found


def line_offset(state: StateInline, pos: int) -> int:
    """How many lines of the inline text come before `pos` (counted on from the last ask)."""
    memo: dict[str, tuple[int, int]] = state.env.setdefault("_site_gen_lines", {})
    at, lines = memo.get(state.src, (0, 0))
    if pos < at:
        at, lines = 0, 0
    lines += state.src.count("\n", at, pos)
    memo[state.src] = (pos, lines)
    return lines
