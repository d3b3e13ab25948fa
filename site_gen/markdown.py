"""The one MarkdownIt factory: CommonMark, GFM tables and strikethrough, site blocks."""

from __future__ import annotations

import functools
import re
import unicodedata

from markdown_it import MarkdownIt
from mdit_py_plugins.anchors import anchors_plugin
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from .blocks import badge, callout, diff, flow, links, refs
from .config import Config, default_config
from .context import ENV_KEY, PageContext
from .templates import template_env

_HTML_FORMATTER = HtmlFormatter(nowrap=True)


def highlight_code(code: str, lang: str, _attrs: str = "") -> str:
    """markdown-it's `highlight` option: Pygments by the fence's language, if it knows it."""
    if not lang:
        return ""
    try:
        lexer = get_lexer_by_name(lang)
    except ClassNotFound:
        return ""
    body = highlight(code, lexer, _HTML_FORMATTER)
    return f'<pre class="highlight"><code class="language-{_attr(lang)}">{body}</code></pre>\n'


def _attr(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_+-]", "", text)


def slugify(title: str) -> str:
    """A heading id that depends only on the heading's own text."""
    text = unicodedata.normalize("NFKD", title).lower()
    text = re.sub(r"[^\w\s-]", "", text, flags=re.UNICODE)
    slug = re.sub(r"[\s_]+", "-", text).strip("-")
    return slug or "section"


def make_markdown(config: Config) -> MarkdownIt:
    """Build the site's MarkdownIt with every block plugin registered."""
    md = MarkdownIt("commonmark", {"html": config.raw_html, "highlight": highlight_code})
    md.enable(["table", "strikethrough"])
    templates = template_env(config)
    anchors_plugin(md, min_level=2, max_level=4, slug_func=slugify, permalink=True,
                   permalinkSymbol="#", permalinkBefore=False)
    refs.refs_plugin(md)
    links.links_plugin(md)
    flow.flow_plugin(md, templates=templates)
    diff.diff_plugin(md, templates=templates)
    callout.callout_plugin(md, templates=templates)
    badge.badge_plugin(md, templates=templates)
    return md


@functools.lru_cache(maxsize=4)
def _markdown_for(config: Config) -> MarkdownIt:
    return make_markdown(config)


def render_body(ctx: PageContext, text: str) -> str:
    """Render one page body; problems land in `ctx.errors` and `ctx.warnings`."""
    html: str = _markdown_for(ctx.config).render(text, {ENV_KEY: ctx})
    return html


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
