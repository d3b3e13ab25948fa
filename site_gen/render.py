"""Turn the parsed site into HTML strings, one per output file; writes nothing."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from markupsafe import Markup

from .blocks.refs import shown_text
from .code_check import CodeCheck
from .code_host import fill
from .config import Config
from .content import Page, PullRequest, Site
from .css import minify, token_rules
from .errors import Problems
from .names import BRACKETED
from .output import Kept
from .pygments_styles import ReviewDark, ReviewLight
from .statuses import Status
from .templates import template_env
from .urls import relative_url, root_path, url_file

CSS_PATH = "assets/site.css"
LIGHT_STYLE, DARK_STYLE = ReviewLight, ReviewDark
SEARCH_JS = "assets/search.js"
COPY_JS = "assets/copy.js"
EPOCH = "1970-01-01"


SERIES_ALL = 10  # a PR of up to this many pages lists them all on each of its pages
SERIES_AROUND = 2  # past that, a page lists the pages this near it, the first and the last


@dataclass(frozen=True)
class Series:
    """Where a page stands among its PR's pages, and which of them it lists: all of them
    up to SERIES_ALL, else its neighbours, the first and the last (the PR's page lists
    every one), so a page's size does not grow with its PR's."""

    index: int
    total: int
    shown: tuple[tuple[int, Page] | None, ...]  # (place, page) in order; None: pages left out
    previous: Page | None = None
    next: Page | None = None

    @property
    def complete(self) -> bool:
        """Whether every page of the PR is listed."""
        return len(self.shown) == self.total


def series_of(pages: tuple[Page, ...], index: int) -> Series:
    """The series as the page at `index` of `pages` shows it."""
    if len(pages) <= SERIES_ALL:
        places = list(range(len(pages)))
    else:
        near = range(max(0, index - SERIES_AROUND), min(len(pages), index + SERIES_AROUND + 1))
        places = sorted({0, *near, len(pages) - 1})
    shown: list[tuple[int, Page] | None] = []
    for place in places:
        if shown and shown[-1] is not None and place > shown[-1][0] + 1:
            shown.append(None)
        shown.append((place, pages[place]))
    return Series(index, len(pages), tuple(shown),
                  pages[index - 1] if index > 0 else None,
                  pages[index + 1] if index + 1 < len(pages) else None)


class Keeping(Protocol):
    """What the pages besides the question pages are made through: `make()` gives the file
    (or part of a page) `name`, which shows `inputs`; a build that keeps results between
    builds may give what it made from equal inputs before instead (see reuse.py)."""

    def output(self, name: str, inputs: object, make: Callable[[], str]) -> str | Kept: ...

    def fragment(self, name: str, inputs: object, make: Callable[[], str]) -> str: ...


class MakeEach:
    """Keeping for a build that keeps nothing: everything is made."""

    def output(self, name: str, inputs: object, make: Callable[[], str]) -> str:
        return make()

    fragment = output


def _plain(text: str) -> str:
    """Summary text for a meta description: markdown marks and code references unwrapped."""
    text = BRACKETED.sub(lambda m: shown_text(m[1]), text)
    return re.sub(r"[`*]|:badge\[([^\]]*)\]", lambda m: m[1] or "", text).strip()


class Renderer:
    """Renders the site's templates; every page gets links relative to itself."""

    def __init__(self, config: Config, site: Site,
                 checks: dict[str, CodeCheck] | None = None) -> None:
        self.config = config
        self.site = site
        self.checks = checks or {}
        self.env = template_env(config)
        used = {page.status.key for page in site.pages}
        self.statuses_used = [s for key, s in config.statuses.items() if key in used]
        dates = [page.updated for page in site.pages if page.updated]
        self.latest = max(dates).isoformat() if dates else EPOCH

    def _file(self, target: str) -> str:
        return url_file(target, self.config.use_directory_urls)

    def pull_url(self, pr: PullRequest, which: str = "pull") -> str:
        """The code host's page of the pull request (or, `which="files"`, its changed files)."""
        return fill(getattr(self.config.code_host, which), repo=pr.repo, number=pr.number)

    def commit_url(self, pr: PullRequest) -> str:
        """The code host's page of the PR's head commit."""
        return fill(self.config.code_host.commit, repo=pr.repo, commit=pr.head)

    def root_path(self) -> str:
        """The site's path on its host, from site_url ('/' when unset)."""
        return root_path(self.config.site_url)

    def _common(self, here: str | None, title: str, canonical: str) -> dict[str, Any]:
        """What every template gets; `here` is the page's folder (None: served anywhere, as
        404.html is, so its links start from the site's root path)."""

        def url(target: str) -> str:
            if here is not None:
                return relative_url(here, target, self.config.use_directory_urls)
            return self.root_path() + self._file(target)

        return {
            "config": self.config, "extra": self.config.extra, "title": title, "url": url,
            "commit_url": self.commit_url, "pull_url": self.pull_url,
            "canonical": self.absolute(canonical) if self.config.site_url else None,
        }

    def other_pages(self, problems: Problems,
                    keeping: Keeping | None = None) -> dict[str, str | Kept]:
        """Every output but the question pages: PR pages, home, 404, status and search pages,
        assets, and (with site_url) the sitemap and feed.

        Each is made through `keeping`, with what it shows: a PR page its PR as listed, the
        pages that list every PR all of them (and each of their parts one PR)."""
        keeping = keeping or MakeEach()
        keep = keeping.output
        listed = tuple(pr.listed for pr in self.site.prs)
        # each PR page with what it shows, made once: asked for at once, then one by one
        pr_pages = [(pr.url + "index.html", (listed[n], self.checks.get(pr.key)), pr)
                    for n, pr in enumerate(self.site.prs)]
        prefetch = getattr(keeping, "prefetch", None)  # a keeper that can ask for all at once
        if prefetch is not None:
            prefetch((name, inputs) for name, inputs, _ in pr_pages)
        outputs = {name: keep(name, inputs, functools.partial(self.pr, pr))
                   for name, inputs, pr in pr_pages}
        outputs["index.html"] = keep("index.html", listed, functools.partial(self.home, keeping))
        outputs["404.html"] = keep("404.html", None, self.not_found)
        for status in self.statuses_used:
            name = f"status/{status.key}/index.html"
            outputs[name] = keep(name, listed, functools.partial(self.status, status, keeping))
        outputs["search/index.html"] = keep("search/index.html", None, self.search)
        outputs[SEARCH_JS] = keep(SEARCH_JS, None, self.search_js)
        outputs[COPY_JS] = keep(COPY_JS, None, functools.partial(self._asset, "copy.js"))
        outputs[CSS_PATH] = keep(CSS_PATH, None, self.css)
        if self.config.site_url:
            pages = sorted(name.removesuffix("index.html") for name in outputs
                           if name.endswith("index.html") and not name.startswith("search/"))
            pages = sorted(pages + [page.url for page in self.site.pages if not page.draft])
            entries = self.sitemap_entries(pages)  # what it shows: addresses and dates only
            outputs["sitemap.xml"] = keep("sitemap.xml", entries,
                                          functools.partial(self.sitemap, entries))
            outputs["feed.xml"] = keep("feed.xml", listed, functools.partial(self.feed, keeping))
        else:
            problems.warn("site_url is not set, so sitemap.xml and feed.xml are skipped; set it "
                          f"in {self.config.config_file.name} (for example site_url: "
                          "!ENV [SITE_URL, 'https://example.org/'])")
        return outputs

    def _part(self, macro: str, *args: Any) -> str:
        """One part of a listing page: a macro of _listing.html."""
        return str(getattr(self.env.get_template("_listing.html").module, macro)(*args))

    def home(self, keeping: Keeping) -> str:
        groups: dict[str, list[PullRequest]] = {}
        for pr in self.site.prs:
            groups.setdefault(pr.repo, []).append(pr)
        counts = {pr.key: sorted(Counter(p.status.key for p in pr.pages).items())
                  for pr in self.site.prs}
        status_counts = Counter(page.status.key for page in self.site.pages)
        common = self._common("", self.config.site_name, "")
        parts = {pr.key: Markup(keeping.fragment(f"home\n{pr.key}", pr.listed, functools.partial(
            self._part, "home_item", pr, counts, common["url"], self.config)))
            for pr in self.site.prs}
        return self.env.get_template("home.html").render(
            **common, groups=groups, counts=counts, parts=parts,
            statuses_used=self.statuses_used, status_counts=status_counts)

    def pr(self, pr: PullRequest) -> str:
        return self.env.get_template("pr.html").render(
            **self._common(pr.url, f"{pr.repo}#{pr.number}: {pr.title}", pr.url), pr=pr,
            check=self.checks.get(pr.key))

    def page_context(self, pr: PullRequest, index: int) -> dict[str, Any]:
        """Everything the template of `pr`'s page at `index` receives but the body (the page
        cache keys on it): the page and its PR as listed (the body comes rendered)."""
        page = pr.pages[index]
        listed = pr.listed
        series = series_of(listed.pages, index)
        return {**self._common(page.url, page.title, page.url), "page": listed.pages[index],
                "pr": listed, "series": series, "check": self.checks.get(pr.key),
                "description": _plain(page.summary.this_pr or page.summary.status or "")}

    def page(self, pr: PullRequest, index: int, body: str,
             summary: dict[str, str] | None = None,
             outline: list[tuple[int, str, str]] | None = None,
             submodules: tuple[str, ...] = ()) -> str:
        """`pr`'s page at `index`; `summary` holds its summary fields rendered as inline
        markdown, `outline` its sections (level, id, title), `submodules` the repositories
        of the submodules it cites code of."""
        return self.env.get_template("page.html").render(
            **self.page_context(pr, index), body=Markup(body), outline=outline or [],
            summary={k: Markup(v) for k, v in (summary or {}).items()}, submodules=submodules)

    def status(self, status: Status, keeping: Keeping) -> str:
        """The page listing every question page with `status`, by pull request."""
        groups = [(pr, [p for p in pr.pages if p.status.key == status.key]) for pr in self.site.prs]
        groups = [(pr, pages) for pr, pages in groups if pages]
        here = f"status/{status.key}/"
        common = self._common(here, status.label, here)
        parts = {pr.key: Markup(keeping.fragment(
            f"status/{status.key}\n{pr.key}", pr.listed,
            functools.partial(self._part, "status_group", pr, pages, common["url"])))
                 for pr, pages in groups}
        return self.env.get_template("status.html").render(
            **common, status=status, groups=groups, parts=parts,
            count=sum(len(pages) for _, pages in groups))

    def search(self) -> str:
        return self.env.get_template("search.html").render(
            **self._common("search/", "Search", "search/"))

    def search_js(self) -> str:
        return self._asset("search.js")

    def _asset(self, name: str) -> str:
        """A file of the templates published as it is."""
        return self.env.loader.get_source(self.env, name)[0]  # type: ignore[union-attr]

    def absolute(self, target: str) -> str:
        """`target` as an absolute URL under site_url (which must be set)."""
        assert self.config.site_url
        return self.config.site_url.rstrip("/") + "/" + self._file(target)

    def feed(self, keeping: Keeping) -> str:
        """An Atom feed of question pages, newest first."""
        entries = sorted(((page, pr, (page.updated.isoformat() if page.updated else EPOCH))
                          for pr in self.site.prs for page in pr.pages if not page.draft),
                         key=lambda e: (e[2], e[0].url), reverse=True)
        parts = {page.url: Markup(keeping.fragment(
            f"feed {page.url}\n{pr.key}", pr.listed,
            functools.partial(self._part, "feed_entry", page, pr, date, self.absolute)))
                 for page, pr, date in entries}
        return self.env.get_template("feed.xml").render(
            config=self.config, absolute=self.absolute, entries=entries, updated=self.latest,
            parts=parts)

    def sitemap_entries(self, paths: list[str]) -> tuple[tuple[str, str | None], ...]:
        """Each address of the sitemap with its date (a title edit changes none of them)."""
        dates = {page.url: page.updated.isoformat() for page in self.site.pages if page.updated}
        for pr in self.site.prs:
            if pr.updated:
                dates[pr.url] = pr.updated.isoformat()
        return tuple((path, dates.get(path)) for path in paths)

    def sitemap(self, entries: tuple[tuple[str, str | None], ...]) -> str:
        return self.env.get_template("sitemap.xml").render(absolute=self.absolute, entries=entries)

    def not_found(self) -> str:
        return self.env.get_template("404.html").render(
            **self._common(None, "Page not found", "404.html"))

    def css(self) -> str:
        """templates/site.css and the token colours, light and dark, served compactly."""
        own = self.env.loader.get_source(self.env, "site.css")[0]  # type: ignore[union-attr]
        light = token_rules(LIGHT_STYLE, ".highlight")
        dark = token_rules(DARK_STYLE, ".highlight")
        return minify(f"{own}\n{light}\n"
                      f"@media screen and (prefers-color-scheme: dark) {{\n{dark}}}\n")
