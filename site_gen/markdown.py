"""The one MarkdownIt factory: CommonMark, GFM tables and strikethrough, site blocks."""

from __future__ import annotations

import functools
import re
from html import escape
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from .blocks import (
    badge,
    callout,
    check_fences,
    claim,
    closing_plugin,
    excerpt,
    flow,
    links,
    notes,
    proposal,
    refs,
    render_inline,
    unclosed_bracket_plugin,
)
from .config import Config, default_config
from .context import ENV_KEY, PageContext, context_of
from .highlight import highlight_code
from .names import REFERENCE
from .slugs import slugify
from .templates import template_env

HEADING_LEVELS = ("h2", "h3", "h4")

# Every block, registered in this order, each as `plugin(md, templates=...)`: references
# first (the blocks after them resolve theirs through it), claims after the proposals and
# the callouts whose counts and lines they read.
PLUGINS = (refs.refs_plugin, links.links_plugin, flow.flow_plugin, proposal.proposal_plugin,
           callout.callout_plugin, badge.badge_plugin, notes.notes_plugin,
           excerpt.excerpt_plugin, claim.claim_plugin)


# Blocks whose title is a heading of the page (an <h3> of their template): they get ids
# and self-links as markdown headings do, from the same sequence, so no two ids collide.
TITLED_BLOCKS = ("flow_block", "proposal_block")


def _heading_ids(state: StateCore) -> None:
    """Give headings their ids before the anchors plugin does: the same ids (a repeated
    title gets -1, -2, ...), found in linear time where the plugin's search is quadratic.
    The titles of flow diagrams and proposals get theirs here too (`meta["id"]`)."""
    used = {str(t.attrGet("id")) for t in state.tokens if t.type == "heading_open" and t.attrGet("id")}
    tried: dict[str, int] = {}  # per slug, the suffix to try next: lower ones are taken
    for index, token in enumerate(state.tokens):
        title = _block_title(token)
        if title is None:
            if token.type != "heading_open" or token.tag not in HEADING_LEVELS or token.attrGet("id"):
                continue
            shown = _text_of(state.tokens[index + 1])
            base = slugify(shown)
        else:  # its id from its text less its marks, as before the outline read it as markdown
            base = slugify(MARKS.sub("", title))
            shown = title.strip() if not INLINE_MARKS.search(title) else _text_of(
                _plain().parseInline(REFERENCES.sub("", title))[0]).strip()
        slug, i = base, tried.get(base, 1)
        if slug in used:
            slug = f"{base}-{i}"
            while slug in used:
                i += 1
                slug = f"{base}-{i}"
            tried[base] = i + 1
        used.add(slug)
        outline = context_of(state.env).outline
        if token.type != "heading_open" or token.tag in ("h2", "h3"):
            outline.append((3 if token.tag != "h2" else 2, slug, shown))
        if token.type == "heading_open":
            token.attrSet("id", slug)
            state.tokens[index + 2].meta["anchor"] = slug  # its heading_close: the self-link
        else:
            token.meta["id"] = slug


def _heading_close(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    """A heading's end, with its self-link (as mdit-py-plugins' anchors would write it,
    without the four tokens a heading would cost it)."""
    token = tokens[idx]
    anchor = token.meta.get("anchor")
    link = f' <a class="header-anchor" href="#{escape(anchor)}">#</a>' if anchor else ""
    return f"{link}</{token.tag}>\n"


def _block_title(token: Token) -> str | None:
    """The title of a titled block, as written (markdown)."""
    if token.type not in TITLED_BLOCKS:
        return None
    title = getattr(token.meta.get("model"), "title", None)
    return title if isinstance(title, str) and title.strip() else None


def _text_of(inline: Token) -> str:
    """What an inline token reads as: its text and code, without the marks around them."""
    return "".join(c.content for c in inline.children or [] if c.type in ("text", "code_inline"))


@functools.cache
def _plain() -> MarkdownIt:
    """Markdown without site_gen's rules, to read a block's title as text for the outline
    (`create_ssl_context`, `\\"` as `"`), as its heading shows it."""
    return MarkdownIt("commonmark", {"html": False}).enable("strikethrough")


# A block title's id is made from its text less these marks (a reference left out).
MARKS = re.compile(rf"[`*_~]|\[\[{REFERENCE}\]\]")
REFERENCES = re.compile(rf"\[\[{REFERENCE}\]\]")
INLINE_MARKS = re.compile(r"[\\`*_~\[\]<&!]")  # where none stands, text reads as itself


def make_markdown(config: Config) -> MarkdownIt:
    """Build the site's MarkdownIt with every block plugin registered."""
    md = MarkdownIt("commonmark", {"html": config.raw_html, "highlight": highlight_code})
    md.enable(["table", "strikethrough"])
    templates = template_env(config)
    md.core.ruler.push("heading_ids", _heading_ids)  # after every block rule has run
    md.add_render_rule("heading_close", _heading_close)
    md.core.ruler.after("block", "unclosed_fences", check_fences)
    for plugin in PLUGINS:
        plugin(md, templates=templates)
    unclosed_bracket_plugin(md)
    closing_plugin(md)  # last: it wraps the fence and container rules registered above
    return md


@functools.lru_cache(maxsize=4)
def _markdown_for(config: Config) -> MarkdownIt:
    return make_markdown(config)


def render_body(ctx: PageContext, text: str) -> str:
    """Render one page body; problems land in `ctx.errors` and `ctx.warnings`. (Its last
    line ended: mdit-py-plugins' `:::` rule reads past the text's end when a block quote's
    last line is a bare `> `.)"""
    text = text if text.endswith("\n") else text + "\n"
    html: str = _markdown_for(ctx.config).render(text, {ENV_KEY: ctx})
    return html


def render_inline_text(ctx: PageContext, text: str, line: int | None) -> str:
    """One line of inline markdown (a summary field): code, references, badges."""
    return str(render_inline(_markdown_for(ctx.config), {ENV_KEY: ctx}, text, line))


def render_markdown(text: str) -> str:
    """Render a markdown body with the site's extensions and default settings.

    Code references resolve as written (no pull request is known) and problems
    are ignored; use `site-gen build` to have them reported.
    """
    return render_body(PageContext(_default_config()), text)


@functools.cache
def _default_config() -> Config:
    # One Config object, so the MarkdownIt built for it is reused across calls.
    return default_config()
