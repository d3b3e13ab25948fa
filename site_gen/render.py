"""Turn the parsed site into HTML strings, one per output file; writes nothing."""

from __future__ import annotations

import posixpath
from collections import Counter
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from markupsafe import Markup
from pygments.formatters import HtmlFormatter

from .config import Config, Status
from .content import Page, PullRequest, Site
from .styles import ReviewDark, ReviewLight
from .templates import template_env

CSS_PATH = "assets/site.css"
LIGHT_STYLE, DARK_STYLE = ReviewLight, ReviewDark
SEARCH_JS = "assets/search.js"
EPOCH = "1970-01-01"


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
        used = {page.status.key for page in site.pages}
        self.statuses_used = [s for key, s in config.statuses.items() if key in used]
        dates = [page.updated for page in site.pages if page.updated]
        self.latest = max(dates).isoformat() if dates else EPOCH

    def _file(self, target: str) -> str:
        """What a link to `target` names: a folder ('' or 'x/y/'), or its index.html when
        use_directory_urls is off."""
        if (not target or target.endswith("/")) and not self.config.use_directory_urls:
            return target + "index.html"
        return target

    def _url(self, here: str, target: str) -> str:
        """A link from the folder `here` ('' or 'a/b/') to `target` ('' or 'x/y/' or 'f.css')."""
        target = self._file(target)
        rel = posixpath.relpath("/" + target, "/" + here)
        if not target or target.endswith("/"):
            rel = "./" if rel == "." else rel + "/"
        return rel

    def commit_url(self, pr: PullRequest) -> str:
        """The code host's page of the PR's head commit."""
        return self.config.code_host.commit.format(repo=pr.repo, commit=pr.head)

    def root_path(self) -> str:
        """The site's path on its host, from site_url ('/' when unset)."""
        path = urlsplit(self.config.site_url or "").path or "/"
        return path if path.endswith("/") else path + "/"

    def _common(self, here: str | None, title: str, canonical: str) -> dict[str, Any]:
        """What every template gets; `here` is the page's folder (None: served anywhere, as
        404.html is, so its links start from the site's root path)."""

        def url(target: str) -> str:
            if here is not None:
                return self._url(here, target)
            return self.root_path() + self._file(target)

        return {
            "config": self.config, "extra": self.config.extra, "title": title, "url": url,
            "commit_url": self.commit_url, "statuses_used": self.statuses_used,
            "canonical": self.absolute(canonical) if self.config.site_url else None,
        }

    def home(self) -> str:
        groups: dict[str, list[PullRequest]] = {}
        for pr in self.site.prs:
            groups.setdefault(pr.repo, []).append(pr)
        counts = {pr.key: sorted(Counter(p.status.key for p in pr.pages).items())
                  for pr in self.site.prs}
        status_counts = Counter(page.status.key for page in self.site.pages)
        return self.env.get_template("home.html").render(
            **self._common("", self.config.site_name, ""), groups=groups, counts=counts,
            status_counts=status_counts)

    def pr(self, pr: PullRequest) -> str:
        return self.env.get_template("pr.html").render(
            **self._common(pr.url, f"{pr.repo}#{pr.number}: {pr.title}", pr.url), pr=pr)

    def page(self, page: Page, pr: PullRequest, body: str) -> str:
        series = Series(pr.pages.index(page), pr.pages)
        return self.env.get_template("page.html").render(
            **self._common(page.url, page.title, page.url), page=page, pr=pr,
            body=Markup(body), series=series)

    def status(self, status: Status) -> str:
        """The page listing every question page with `status`, by pull request."""
        groups = [(pr, [p for p in pr.pages if p.status.key == status.key]) for pr in self.site.prs]
        groups = [(pr, pages) for pr, pages in groups if pages]
        here = f"status/{status.key}/"
        return self.env.get_template("status.html").render(
            **self._common(here, status.label, here), status=status, groups=groups,
            count=sum(len(pages) for _, pages in groups))

    def search(self) -> str:
        return self.env.get_template("search.html").render(
            **self._common("search/", "Search", "search/"))

    def search_js(self) -> str:
        return self.env.loader.get_source(self.env, "search.js")[0]  # type: ignore[union-attr]

    def absolute(self, target: str) -> str:
        """`target` as an absolute URL under site_url (which must be set)."""
        assert self.config.site_url
        return self.config.site_url.rstrip("/") + "/" + self._file(target)

    def feed(self) -> str:
        """An Atom feed of question pages, newest first."""
        entries = sorted(((page, pr, (page.updated.isoformat() if page.updated else EPOCH))
                          for pr in self.site.prs for page in pr.pages),
                         key=lambda e: (e[2], e[0].url), reverse=True)
        return self.env.get_template("feed.xml").render(
            config=self.config, absolute=self.absolute, entries=entries, updated=self.latest)

    def sitemap(self, paths: list[str]) -> str:
        dates = {page.url: page.updated.isoformat() for page in self.site.pages if page.updated}
        for pr in self.site.prs:
            if pr.updated:
                dates[pr.url] = pr.updated.isoformat()
        entries = [(path, dates.get(path)) for path in paths]
        return self.env.get_template("sitemap.xml").render(absolute=self.absolute, entries=entries)

    def not_found(self) -> str:
        return self.env.get_template("404.html").render(
            **self._common(None, "Page not found", "404.html"))

    def css(self) -> str:
        own = self.env.loader.get_source(self.env, "site.css")[0]  # type: ignore[union-attr]
        light: str = HtmlFormatter(style=LIGHT_STYLE).get_style_defs(".highlight")  # type: ignore[no-untyped-call]
        dark: str = HtmlFormatter(style=DARK_STYLE).get_style_defs(".highlight")  # type: ignore[no-untyped-call]
        dark = "\n".join("  " + line for line in dark.splitlines())
        return (f"{own.rstrip()}\n\n/* Pygments: {LIGHT_STYLE.name} */\n{light}\n\n"
                f"/* Pygments: {DARK_STYLE.name} */\n"
                f"@media (prefers-color-scheme: dark) {{\n{dark}\n}}\n")
