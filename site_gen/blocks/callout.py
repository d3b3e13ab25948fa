"""Callouts: review comments with a severity and a code reference, and plain asides.

    ::: review blocking [[checkpoint.py:489]] https://github.com/o/r/pull/1#discussion_r1
    What the reviewer said, in markdown (the address of the thread is optional).
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
from markdown_it.token import Token

from ..context import PageContext
from ..names import REFERENCE
from ..statuses import find_status
from . import container_block, render_inline
from .hunks import DiffLine, Proposal
from .refs import CodeRef, preview_rows, ref_label, resolve

REVIEW = re.compile(rf"^review(?:\s+(?P<severity>[\w-]+))?(?:\s+\[\[(?P<ref>{REFERENCE})\]\])?"
                    r"(?:\s+(?P<thread>https?://\S+))?\s*(?P<rest>.*)$")


def _parse_review(ctx: PageContext, token: Token, tokens: list[Token]) -> None:
    """Read a review callout's header once, at parse time, so errors carry the line."""
    _review(ctx, token)
    token.meta["suggestion"] = _suggestion(token.meta.get("ref"), tokens)


def _parse_aside(ctx: PageContext, token: Token, tokens: list[Token]) -> None:
    token.meta |= {"title": token.info.strip()[len("aside"):].strip(),
                   "line": ctx.line(token.map)}


def _review(ctx: PageContext, token: Token) -> None:
    line = ctx.line(token.map)
    m = REVIEW.match(token.info.strip())
    if not m or not m["severity"] or m["rest"]:
        ctx.error(f"malformed review callout '::: {token.info.strip()}'; expected "
                  "'::: review SEVERITY [[file:line]]', optionally followed by the review "
                  "thread's https:// address", line)
        return
    severity = find_status(ctx.config.statuses, m["severity"], "callout",
                           lambda message: ctx.error(message, line))
    ref = resolve(ctx, m["ref"], line) if m["ref"] else None
    label = ref_label(ref, m["ref"]) if m["ref"] else None
    token.meta |= {"severity": severity, "ref": ref, "label": label, "thread": m["thread"],
                  "rows": preview_rows(ctx, ref) if ref else None}


def _suggestion(ref: CodeRef | None, tokens: list[Token]) -> str | None:
    """When a proposal on the page changes the lines a review comment cites: those lines as
    the proposal would have them, for a ```` ```suggestion ```` block on the code host."""
    if ref is None or ref.start is None:
        return None
    start, end = ref.start, ref.end or ref.start
    for token in tokens:
        proposal = token.meta.get("model") if token.type == "proposal_block" else None
        for hunk in proposal.hunks if isinstance(proposal, Proposal) else ():
            if hunk.file_ref is None or hunk.file_ref.path != ref.path:
                continue
            for section in hunk.sections:
                olds = [dl.old for dl in section.lines if dl.old is not None and dl.kind == "-"]
                if olds and min(olds) <= end and start <= max(olds):
                    return _new_side(section.lines, start, end)
    return None


def _new_side(lines: list[DiffLine], start: int, end: int) -> str:
    """The new-side text of the lines from old line `start` to `end`, additions included."""
    inside, out = False, []
    for dl in lines:
        if dl.old is not None:
            inside = start <= dl.old <= end
        if inside and dl.kind in " +":
            out.append(dl.text)
    return "\n".join(out)


def callout_plugin(md: MarkdownIt, *, templates: jinja2.Environment) -> None:
    """Register `::: review` and `::: aside` containers (templates/blocks/callout.html)."""
    macros = templates.get_template("blocks/callout.html").module

    def review(token: Token, env: dict[str, Any]) -> str:
        meta = token.meta
        return str(macros.review(meta.get("severity"), meta.get("ref"),  # type: ignore[attr-defined]
                                 meta.get("label"), meta.get("thread"), meta.get("rows"),
                                 meta.get("suggestion")))

    def aside(token: Token, env: dict[str, Any]) -> str:
        title = render_inline(md, env, token.meta["title"], token.meta["line"])
        return str(macros.aside(title))  # type: ignore[attr-defined]

    def close(token: Token, env: dict[str, Any]) -> str:
        return str(macros.close())  # type: ignore[attr-defined]

    # Parsed after the inline stage: every proposal of the page is parsed by then (suggestions).
    container_block(md, "review", "review callout", parse=_parse_review, render=review, close=close)
    container_block(md, "aside", "aside", parse=_parse_aside, render=aside, close=close)
