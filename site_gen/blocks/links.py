"""Links and images written in markdown: refuse script URLs, keep relative ones inside the site.

A relative link is written relative to the markdown file, as in MkDocs: `other.md`,
`../12/other.md#a-heading` and `diagram.png` point at files beside it in docs_dir. They
are rewritten relative to the page's URL (`other.md` becomes `../other/`).
"""

from __future__ import annotations

import posixpath
import re
from urllib.parse import urlsplit

import jinja2
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from .. import urls
from ..context import PageContext, context_of
from ..urls import relative_url

REFUSED = ("javascript", "vbscript", "data", "file")
_INVISIBLE = re.compile(r"[\x00-\x20\x7f]+")


def _check(ctx: PageContext, token: Token, attr: str, line: int | None) -> None:
    href = str(token.attrGet(attr) or "")
    scheme = urlsplit(_INVISIBLE.sub("", href)).scheme.lower()
    what = "image" if token.type == "image" else "link"
    if scheme in REFUSED:
        ctx.error(f"{what} to '{href}' is refused: {scheme}: URLs can run code or hide content; "
                  "expected an https:// address or a file of the site", line)
        token.attrSet(attr, "#refused")
        return
    if href.startswith("#") and len(href) > 1 and ctx.page_url is not None:
        ctx.anchors.append((line, ctx.page_url, href[1:], href))
        return
    if scheme or href.startswith(("#", "/", "//")) or ctx.page_url is None or not href:
        return
    parts = urlsplit(href)
    target = posixpath.normpath(posixpath.join(ctx.page_dir, parts.path))
    if target == ".." or target.startswith("../"):
        ctx.error(f"{what} to '{href}' climbs out of docs_dir; expected a file inside it", line)
        token.attrSet(attr, "#refused")
        return
    ctx.targets.append((line, what, href, target))  # checked after rendering
    url = urls.source_url(target)
    rel = relative_url(ctx.page_url, url, ctx.config.use_directory_urls)
    token.attrSet(attr, rel + (f"#{parts.fragment}" if parts.fragment else ""))
    if parts.fragment and url.endswith("/"):
        ctx.anchors.append((line, url, parts.fragment, href))


def _links(state: StateCore) -> None:
    ctx = context_of(state.env)
    for block in state.tokens:
        for token in block.children or ():
            if token.type == "link_open":
                _check(ctx, token, "href", ctx.line(block.map))
            elif token.type == "image":
                _check(ctx, token, "src", ctx.line(block.map))


def links_plugin(md: MarkdownIt, *, templates: jinja2.Environment | None = None) -> None:
    """Check every link and image; markdown-it's own filter would drop bad ones silently."""
    md.validateLink = lambda url: True  # type: ignore[method-assign]
    md.core.ruler.after("inline", "site_links", _links)
