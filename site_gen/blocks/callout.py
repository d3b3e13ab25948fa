"""Callouts: review comments with a severity and a code reference, and plain asides.

    ::: review blocking [[checkpoint.py:489]]
    What the reviewer said, in markdown.
    :::

    ::: aside So what
    A closing thought.
    :::
"""

from __future__ import annotations

import re
from typing import Any

import jinja2
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.container import container_plugin

from ..content import find_status
from ..context import context_of
from . import render_inline
from .refs import render_ref, resolve

REVIEW = re.compile(r"^review(?:\s+(?P<severity>[\w-]+))?(?:\s+\[\[(?P<ref>[^\]]+)\]\])?\s*(?P<rest>.*)$")


def _parse(state: StateCore) -> None:
    """Read each callout's header once, at parse time, so errors carry the line."""
    ctx = context_of(state.env)
    for token in state.tokens:
        if token.type == "container_review_open":
            line = ctx.line(token.map)
            m = REVIEW.match(token.info.strip())
            if not m or not m["severity"] or m["rest"]:
                ctx.error(f"malformed review callout '::: {token.info.strip()}'; expected "
                          "'::: review SEVERITY [[file:line]]'", line)
                continue
            token.meta = {
                "severity": find_status(ctx.config, m["severity"], "callout", ctx.path, line,
                                        ctx.errors),
                "ref": m["ref"], "line": line,
            }
        elif token.type == "container_aside_open":
            token.meta = {"title": token.info.strip()[len("aside"):].strip(),
                          "line": ctx.line(token.map)}


def callout_plugin(md: MarkdownIt, *, templates: jinja2.Environment) -> None:
    """Register `::: review` and `::: aside` containers (templates/blocks/callout.html)."""
    macros = templates.get_template("blocks/callout.html").module

    def review(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        if token.nesting == -1:
            return str(macros.close())  # type: ignore[attr-defined]
        ctx = context_of(env)
        ref_text = token.meta.get("ref")
        ref = render_ref(resolve(ctx, ref_text, token.meta["line"]), ref_text) if ref_text else None
        return str(macros.review(token.meta.get("severity"), ref))  # type: ignore[attr-defined]

    def aside(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        if token.nesting == -1:
            return str(macros.close())  # type: ignore[attr-defined]
        title = render_inline(md, env, token.meta["title"], token.meta["line"])
        return str(macros.aside(title))  # type: ignore[attr-defined]

    container_plugin(md, "review", render=review)
    container_plugin(md, "aside", render=aside)
    md.core.ruler.after("block", "callout_parse", _parse)
