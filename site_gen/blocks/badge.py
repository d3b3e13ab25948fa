"""Inline status badges: `:badge[open]` renders the vocabulary's icon and label.

    The tag is still :badge[open]; the docs fix is :badge[fixed].
"""

from __future__ import annotations

from typing import Any

import jinja2
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markupsafe import escape

from ..context import context_of
from ..suggest import did_you_mean
from . import block_renderer, line_find, line_offset

OPEN = ":badge["


def _badge_rule(state: StateInline, silent: bool) -> bool:
    if not state.src.startswith(OPEN, state.pos):
        return False
    end = line_find(state, "]", state.pos + len(OPEN))
    if end < 0:
        return False
    if not silent:
        token = state.push("status_badge", "", 0)
        token.content = state.src[state.pos + len(OPEN):end].strip()
        token.meta = {"offset": line_offset(state, state.pos)}
    state.pos = end + 1
    return True


def _resolve(state: StateCore) -> None:
    ctx = context_of(state.env)
    statuses = ctx.config.statuses
    for block in state.tokens:
        for token in block.children or ():
            if token.type != "status_badge":
                continue
            status = statuses.get(token.content)
            if status is None:
                ctx.error(f"unknown badge ':badge[{token.content}]'; "
                          f"{did_you_mean(token.content, statuses)}expected one of: "
                          f"{', '.join(statuses)}", ctx.line(block.map, token.meta["offset"]))
            token.meta["status"] = status


def badge_plugin(md: MarkdownIt, *, templates: jinja2.Environment) -> None:
    """Register `:badge[STATUS]` (templates/blocks/badge.html)."""
    badge = templates.get_template("blocks/badge.html").module.badge  # type: ignore[attr-defined]

    def render(token: Token, env: dict[str, Any]) -> str:
        status = token.meta.get("status")
        if status is None:
            return str(escape(f":badge[{token.content}]"))
        return str(badge(status)).rstrip("\n")

    md.inline.ruler.before("link", "status_badge", _badge_rule)
    md.core.ruler.after("inline", "status_badge_resolve", _resolve)
    block_renderer(md, "status_badge", render)
