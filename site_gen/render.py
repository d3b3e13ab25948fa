"""Turn the parsed site into HTML strings, one per output file; writes nothing."""

from __future__ import annotations

import posixpath
from collections import Counter
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from markupsafe import Markup
from pygments.formatters import HtmlFormatter

from .config import Config
from .content import Page, PullRequest, Site
from .templates import template_env

CSS_PATH = "assets/site.css"
LIGHT_STYLE, DARK_STYLE = "default", "github-dark"


@dataclass(frozen=True)
class Series:
    """Where a page stands among its PR's pages."""

    index: int
    pages: tuple[Page, ...]

    @property
    def previous(self) -> Page | None:
        return self.pages[self.index - 1] if self.index > 0 else None

    @property
    def next(self) -> Page | None:
        return self.pages[self.index + 1] if self.index + 1 < len(self.pages) else None


class Renderer:
    """Renders the site's templates; every page gets links relative to itself."""

    def __init__(self, config: Config, site: Site) -> None:
        self.config = config
        self.site = site
        self.env = template_env(config)

    def _url(self, here: str, target: str) -> str:
        """A link from the folder `here` ('' or 'a/b/') to `target` ('' or 'x/y/' or 'f.css')."""
        rel = posixpath.relpath("/" + target, "/" + here)
        if target.endswith("/") or not target:
            rel = "./" if rel == "." else rel + "/"
            if not self.config.use_directory_urls:
                rel += "index.html"
        return rel

    def commit_url(self, pr: PullRequest) -> str:
        """The code host's page of the PR's head commit."""
        return self.config.code_host.commit.format(repo=pr.repo, commit=pr.head)

    def root_path(self) -> str:
        """The site's path on its host, from site_url ('/' when unset)."""
        path = urlsplit(self.config.site_url or "").path or "/"
        return path if path.endswith("/") else path + "/"

    def _common(self, here: str | None, title: str, canonical: str) -> dict[str, Any]:
        def url(target: str) -> str:
            if here is None:
                return self.root_path() + target
            return self._url(here, target)


        site_url = self.config.site_url
        return {
            "config": self.config, "extra": self.config.extra, "title": title, "url": url,
            "commit_url": self.commit_url,
            "canonical": site_url.rstrip("/") + "/" + canonical if site_url else None,
        }

    def home(self) -> str:
        groups: dict[str, list[PullRequest]] = {}
        for pr in self.site.prs:
            groups.setdefault(pr.repo, []).append(pr)
        counts = {pr.key: sorted(Counter(p.status.key for p in pr.pages).items()) for pr in self.site.prs}
        return self.env.get_template("home.html").render(
            **self._common("", self.config.site_name, ""), groups=groups, counts=counts)

    def pr(self, pr: PullRequest) -> str:
        return self.env.get_template("pr.html").render(
            **self._common(pr.url, f"{pr.repo}#{pr.number}: {pr.title}", pr.url), pr=pr)

    def page(self, page: Page, pr: PullRequest, body: str) -> str:
        series = Series(pr.pages.index(page), pr.pages)
        return self.env.get_template("page.html").render(
            **self._common(page.url, page.title, page.url), page=page, pr=pr,
            body=Markup(body), series=series)

    def not_found(self) -> str:
        return self.env.get_template("404.html").render(
            **self._common(None, "Page not found", "404.html"))

    def css(self) -> str:
        own = self.env.loader.get_source(self.env, "site.css")[0]  # type: ignore[union-attr]
        light = HtmlFormatter(style=LIGHT_STYLE).get_style_defs(".highlight")
        dark = HtmlFormatter(style=DARK_STYLE).get_style_defs(".highlight")
        dark = "\n".join("  " + line for line in dark.splitlines())
        return (f"{own.rstrip()}\n\n/* Pygments: {LIGHT_STYLE} */\n{light}\n\n"
                f"/* Pygments: {DARK_STYLE} */\n@media (prefers-color-scheme: dark) {{\n{dark}\n}}\n")
