"""The build, stage by stage: read and check everything, render every file, then write.

    build():        check the site folder → up to date? → render_site() → write
    render_site():  discover → check the code → render question pages → check links and
                    anchors → render the other pages → check every output link → strict

Each stage is a plain function of its inputs; reuse.py wraps them with what builds before
made (the preview's memory, the page cache).

Nothing is written before every page was read, rendered and checked; problems are
collected as objects and given to the caller (the CLI prints them).
"""

from __future__ import annotations

import logging
import os
import posixpath
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from html import unescape as html_unescape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cache import PageCache, build_fingerprint, cache_path, input_digest
from .code_check import CodeCheck, check_code
from .config import Config
from .content import Site, discover
from .errors import BuildFailed, ContentWarning, Problems, SiteGenError, display_path, sort_key
from .output import Kept, Outputs, check_site_dir, read_marker, site_lock, write_site
from .outputcheck import check_outputs
from .reuse import Reuse
from .templates import template_errors

if TYPE_CHECKING:
    from .render import Keeping, Renderer
    from .results import PageResult

Progress = Callable[[int, int], None]
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BuildResult:
    pages: int
    files: int
    warnings: tuple[ContentWarning, ...]  # the build's own; the settings' are on the Config
    seconds: float
    changed: bool = True  # a file of the site was written
    rendered: bool = True  # False: nothing changed since the last build, nothing was rendered


@dataclass(frozen=True)
class RenderedSite:
    outputs: Outputs
    warnings: tuple[ContentWarning, ...]
    # The author's file each output was made from (question and PR pages, assets).
    sources: dict[str, Path] = field(default_factory=dict)
    docs_dir: Path | None = None
    site: Site | None = None  # what was discovered, and each PR's code check
    checks: dict[str, CodeCheck] = field(default_factory=dict)

    @property
    def groups(self) -> dict[str, str]:
        """Each page made from a PR's folder: that folder (a PR's pages index together)."""
        if self.docs_dir is None:
            return {}
        docs = os.fspath(self.docs_dir)
        inside = docs.rstrip(os.sep) + os.sep
        folders: dict[str, str] = {}  # a PR's pages share their folder: worked out once
        groups = {}
        for name, path in self.sources.items():
            if name.endswith(".html"):
                parent = os.path.dirname(path)
                if parent not in folders:  # the sources lie in docs_dir: cut, not relpath
                    folders[parent] = parent[len(inside):] if parent.startswith(inside) \
                        else os.path.relpath(parent, docs)
                groups[name] = folders[parent]
        return groups

    @property
    def pages(self) -> int:
        return sum(1 for name in self.outputs if name.endswith(".html"))


def build(config: Config, *, jobs: int = 1, cache: bool = True, search: bool = True,
          progress: Progress | None = None) -> BuildResult:
    """Build the site into `config.site_dir`; on any error the old site stays as it was.

    `jobs` worker processes render the pages; with `cache`, pages whose inputs did not
    change since the last build are taken from the cache folder instead of rendered.
    Raises BuildFailed with every error (and the warnings) of the build.
    """
    started = time.perf_counter()
    check_site_dir(config)
    with site_lock(config.site_dir):  # one build at a time into one folder
        return _build(config, started, jobs=jobs, cache=cache, search=search, progress=progress)


def _build(config: Config, started: float, *, jobs: int, cache: bool, search: bool,
           progress: Progress | None) -> BuildResult:
    # what every cache key holds: a build without the cache has no use for it
    fingerprint = build_fingerprint(config) if cache else ""
    files: dict[str, bytes] = {}  # each content file's digest: discovery need not read it again
    listing: list[tuple[str, bool, bool]] | None = [] if cache else None  # nor walk docs_dir
    inputs = input_digest(config, fingerprint, search, files, listing) if cache else None
    previous = read_marker(config.site_dir)
    if inputs and previous.get("inputs") == inputs:
        log.debug("Nothing changed since the last build (settings, templates, content, code "
                  "and site_gen itself): nothing to render")
        return _up_to_date(config, previous, started)
    log.debug("Rendering every page (--no-cache)" if not cache else
              "The inputs changed since the last build: rendering what they changed")
    page_cache = PageCache(cache_path(config)) if cache else None
    try:
        reuse = Reuse(fingerprint, page_cache, digests=files, listing=listing,
                      shown=previous.get("files") or {})
        site = render_site(config, jobs=jobs, reuse=reuse, progress=progress)
        if page_cache:
            page_cache.prune()
        record = {"inputs": inputs, "pages": site.pages,
                  "warnings": _recorded(config, site.warnings)}
        changed = write_site(config.site_dir, site.outputs, search=search, extra=record,
                             groups=site.groups if search else None)
        log.debug("Wrote the files that changed into the copy not shown, and switched %s to it"
                  if changed else "Every file was already as built: %s was left as it was",
                  display_path(config.site_dir))
    finally:
        if page_cache:
            page_cache.close()  # pages rendered by a failed build are kept too
    return BuildResult(site.pages, len(site.outputs), site.warnings,
                       time.perf_counter() - started, changed)


def render_site(config: Config, *, jobs: int = 1, reuse: Reuse | None = None,
                progress: Progress | None = None) -> RenderedSite:
    """Every output file of the site, checked; writes nothing but the page cache.

    The stages run in order, each a plain function of what it is given; `reuse` (the
    preview's memory, the page cache) wraps them, so each may take what builds before made
    from the same inputs. Raises BuildFailed with every error found (and, under strict, on
    any warning).
    """
    # Imported here, not at the top: it pulls in markdown-it and Pygments, which an
    # up-to-date build never needs.
    from .render import Renderer

    reuse = reuse or Reuse()
    problems = Problems()
    with template_errors():
        site = discover(config, problems, reuse.discovery(config))
        log.debug("Read %d pull request(s) and %d page(s) from %s", len(site.prs),
                  sum(len(pr.pages) for pr in site.prs), display_path(config.docs_dir))
        renderer = Renderer(config, site, check_code(config, site, problems, reuse.checks(site),
                                                     reuse.code(config)))
        others = OtherPages(renderer, reuse.keeping(config))
        results = reuse.question_pages(renderer, jobs=jobs, progress=progress,
                                       meanwhile=others.make)
        outputs: Outputs = {}
        for result in results:
            problems.extend(result.errors, result.warnings)
            if result.html is not None:  # a page with errors too: check_links reads it
                outputs[result.url + "index.html"] = result.html
                outputs.update({result.url + name: text for name, text in result.files})
        check_links(config, results, outputs, problems, reuse.ids)
        _stop_on_errors(config, problems)
        outputs.update(others.made(problems))
    sources: dict[str, Path | None] = {r.url + "index.html": r.path for r in results}
    sources.update({pr.url + "index.html": pr.path for pr in site.prs})
    _add_assets(site, outputs, sources, problems)
    names = frozenset(outputs)
    made_from = {name: path for name, path in sources.items() if path is not None}
    if not problems.errors:  # a body link to nothing is reported at its line already
        check_outputs(config, outputs, problems, made_from, reuse.links(names))
    if not reuse.names_checked(names):  # the same names as a sound build: sound
        checked = problems.checkpoint()
        _check_folders(outputs, sources, problems)
        if not checked.failed:
            reuse.names_sound(names)
    _stop_on_errors(config, problems, strict=config.strict)
    return RenderedSite(outputs, tuple(sorted(problems.warnings, key=sort_key)), made_from,
                        config.docs_dir, site, renderer.checks)


class OtherPages:
    """The outputs besides the question pages (Renderer.other_pages), made while worker
    processes render the question pages, when they do (this process would only wait for
    them), else after them. Either way they count only once the question pages passed:
    what making them raised or found is told then, as if they had been made then."""

    def __init__(self, renderer: Renderer, keeping: Keeping | None) -> None:
        self.renderer, self.keeping = renderer, keeping
        self.problems = Problems()
        self.outputs: dict[str, str | Kept] | None = None
        self.failed: Exception | None = None

    def make(self) -> None:
        if self.outputs is not None or self.failed is not None:
            return
        try:
            self.outputs = self.renderer.other_pages(self.problems, self.keeping)
        except Exception as exc:  # raised by made(), in its turn
            self.failed = exc

    def made(self, problems: Problems) -> dict[str, str | Kept]:
        """The outputs, their warnings added to `problems`; raises what making them raised."""
        self.make()
        if self.failed is not None:
            raise self.failed
        assert self.outputs is not None
        problems.extend(self.problems.errors, self.problems.warnings)
        return self.outputs


def _add_assets(site: Site, outputs: Outputs, sources: dict[str, Path | None],
                problems: Problems) -> None:
    """The files of docs_dir published as they are; none may take a generated page's place."""
    for asset in site.assets:
        if asset.target in outputs:
            problems.error(f"would be published at '{asset.target}', where site_gen writes "
                           f"{_made_from(sources.get(asset.target))}; rename or move it",
                           asset.source)
        else:
            outputs[asset.target] = sources[asset.target] = asset.source


def _source(result: PageResult) -> Path:
    return result.path or Path("<page>")


def _page_hint(result: PageResult, href: str, sources: dict[str, Path | None]) -> str:
    """For a link written as a page's address ('../other/'): the .md file to link instead,
    found in the map from each page's address to its file (`sources`)."""
    path = href.split("#")[0].split("?")[0]
    if not path.endswith("/") or result.path is None:
        return ""
    address = posixpath.normpath(posixpath.join(result.url, path)) + "/"
    source = sources.get(address)
    if source is not None:
        return f"; link the page's file instead: '{os.path.relpath(source, result.path.parent)}'"
    return "; link a page by its .md file, like 'other-question.md'"


def _made_from(source: Path | None) -> str:
    return f"the page made from {display_path(source)}" if source else "a page of its own"


def _check_folders(outputs: Outputs, sources: dict[str, Path | None], problems: Problems) -> None:
    """No name of the site may be both a file and a folder of other files."""
    for name in sorted(outputs):
        parent = name.rpartition("/")[0]
        while parent and parent not in outputs:
            parent = parent.rpartition("/")[0]
        if parent:
            source = sources.get(name) or sources.get(parent) or Path("<site>")
            problems.error(f"'{parent}' would be both a file of the site ({_made_from(sources.get(parent))}) "
                           f"and the folder of '{name}'; rename one of them", source)


def _stop_on_errors(config: Config, problems: Problems, *, strict: bool = False) -> None:
    """Raise BuildFailed when there are errors (or, when `strict`, any warning)."""
    warnings = sorted(problems.warnings, key=sort_key)
    content_errors = sorted(problems.errors, key=sort_key)
    errors: list[SiteGenError] = list(content_errors)
    if errors or (strict and (config.warnings or warnings)):
        raise BuildFailed(errors, tuple(warnings), len(config.warnings))


def _recorded(config: Config, warnings: tuple[ContentWarning, ...]) -> list[list[Any]]:
    """Warnings as the site's marker keeps them: paths relative to the project folder."""
    def relative(path: Path | None) -> str:
        return "" if path is None else os.path.relpath(path, config.root)

    return [[relative(w.path), w.line, w.message] for w in warnings]


def _up_to_date(config: Config, previous: dict[str, Any], started: float) -> BuildResult:
    """Nothing the site is made from changed: repeat the last build's warnings, write nothing."""
    problems = Problems()
    for path, line, message in previous.get("warnings", []):
        problems.warn(message, config.root / path if path else None, line)
    _stop_on_errors(config, problems, strict=config.strict)
    files = previous.get("files") or {}
    return BuildResult(int(previous.get("pages", 0)), len(files), tuple(problems.warnings),
                       time.perf_counter() - started, changed=False, rendered=False)


_ID = re.compile(r'\bid="([^"]+)"')


def check_links(config: Config, results: list[PageResult], outputs: Outputs,
                problems: Problems, ids: dict[str, tuple[str, set[str]]] | None = None) -> None:
    """Links to files that do not exist and #fragments that name nothing are errors."""
    pages = {result.url: result.path for result in results}  # each page's address: its file
    for result in results:
        for line, what, href, target in result.targets:
            if not (config.docs_dir / target).exists():
                problems.error(f"{what} to '{href}' points at nothing: there is no '{target}' "
                               f"in docs_dir{_page_hint(result, href, pages)}", _source(result),
                               line)
    ids = {} if ids is None else ids  # each page's ids, with the HTML they were read from
    for result in results:
        for line, url, fragment, href in result.anchors:
            html = outputs.get(url + "index.html")
            if isinstance(html, Kept):
                html = outputs[url + "index.html"] = html.read()
            if not isinstance(html, str):
                continue  # the page itself is missing: reported as a link to nothing
            if url not in ids or ids[url][0] is not html:
                ids[url] = (html, {html_unescape(i) for i in _ID.findall(html)})
            if fragment not in ids[url][1]:
                problems.error(f"link to '{href}' names no heading or element '#{fragment}' on "
                               "that page", _source(result), line)
