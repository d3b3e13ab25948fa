"""Rendering the question pages: cached by content, spread over worker processes."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .config import Config
from .content import Page, PullRequest, Site
from .context import PageContext
from .errors import ContentError
from .fingerprint import build_fingerprint
from .markdown import render_body
from .processes import die_with_parent
from .render import Renderer
from .source import SourceReader

# Below this many pages to render, starting worker processes costs more than it saves.
PARALLEL_MIN = 24


@dataclass(frozen=True)
class PageResult:
    """One rendered question page, or the problems that stopped it."""

    url: str
    html: str | None
    errors: tuple[ContentError, ...]
    warnings: tuple[str, ...]
    anchors: tuple[tuple[str, str, str, str], ...] = ()
    targets: tuple[tuple[str, str, str, str], ...] = ()


def page_key(fingerprint: str, pr: PullRequest, page: Page, site_statuses: str) -> str:
    """A page's cache key: the build, its PR's facts, its own text, its series, and the
    statuses some page of the site uses (every page's navigation links to their pages)."""
    facts = (pr.path, pr.repo, pr.number, pr.title, pr.head, pr.base, pr.state, pr.files)
    series = [(p.slug, p.title, p.question, p.status.key, p.order) for p in pr.pages]
    text = f"{fingerprint}\n{facts!r}\n{page!r}\n{series!r}\n{site_statuses}"
    return hashlib.sha256(text.encode()).hexdigest()


class PageCache:
    """Rendered pages on disk, one JSON file per key; pruned to what the last build used."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.used: set[str] = set()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> PageResult | None:
        self.used.add(key)
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return PageResult(data["url"], data["html"], (), tuple(data["warnings"]),
                          tuple((a[0], a[1], a[2], a[3]) for a in data["anchors"]),
                          tuple((t[0], t[1], t[2], t[3]) for t in data["targets"]))

    def put(self, key: str, result: PageResult) -> None:
        if result.errors or result.html is None:
            return
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"url": result.url, "html": result.html,
                                   "warnings": list(result.warnings),
                                   "anchors": list(result.anchors),
                                   "targets": list(result.targets)}), encoding="utf-8")
        tmp.replace(path)

    def prune(self) -> None:
        """Forget entries the last build did not ask for (deleted or changed pages)."""
        for path in self.folder.glob("*/*.json"):
            if path.stem not in self.used:
                path.unlink(missing_ok=True)
        for folder in self.folder.glob("*/"):
            if not any(folder.iterdir()):
                folder.rmdir()


_STATE: dict[str, object] = {}


def _init_worker(config: Config, site: Site, *, in_pool: bool = True) -> None:
    if in_pool:
        die_with_parent()
    _STATE["config"], _STATE["site"] = config, site
    _STATE["renderer"] = Renderer(config, site)
    _STATE["source"] = SourceReader(config.checkout) if config.checkout else None


def _render(task: tuple[int, int]) -> PageResult:
    config, site = _STATE["config"], _STATE["site"]
    assert isinstance(config, Config) and isinstance(site, Site)
    renderer, source = _STATE["renderer"], _STATE["source"]
    assert isinstance(renderer, Renderer)
    pr = site.prs[task[0]]
    page = pr.pages[task[1]]
    ctx = PageContext(config, page.path, pr, page.body_line,
                      source if isinstance(source, SourceReader) else None,
                      page_url=page.url, page_dir=pr.key)
    body = render_body(ctx, page.body)
    html = renderer.page(page, pr, body)  # even with errors: its anchors are still checked
    return PageResult(page.url, html, tuple(ctx.errors), tuple(ctx.warnings),
                      tuple(ctx.anchors), tuple(ctx.targets))


def _close_worker() -> None:
    source = _STATE.pop("source", None)
    if isinstance(source, SourceReader):
        source.close()


Progress = Callable[[int, int], None]


def render_pages(config: Config, site: Site, *, jobs: int = 1, cache: PageCache | None = None,
                 progress: Progress | None = None) -> list[PageResult]:
    """Render every question page, in site order; cached pages are not rendered again.

    `progress(done, total)` is called as pages are rendered.
    """
    tasks = [(i, j) for i, pr in enumerate(site.prs) for j in range(len(pr.pages))]
    fingerprint = build_fingerprint(config) if cache else ""
    statuses = " ".join(sorted({page.status.key for page in site.pages}))
    keys = {t: page_key(fingerprint, site.prs[t[0]], site.prs[t[0]].pages[t[1]], statuses)
            for t in tasks} if cache else {}
    results: dict[tuple[int, int], PageResult] = {}
    if cache:
        for task in tasks:
            hit = cache.get(keys[task])
            if hit is not None:
                results[task] = hit
    missing = [t for t in tasks if t not in results]
    done = len(results)
    for task, result in zip(missing, _run(config, site, missing, jobs), strict=True):
        results[task] = result
        if cache:
            cache.put(keys[task], result)
        done += 1
        if progress:
            progress(done, len(tasks))
    return [results[t] for t in tasks]


def _run(config: Config, site: Site, tasks: list[tuple[int, int]],
         jobs: int) -> Iterator[PageResult]:
    """Results in task order, as they are ready."""
    if jobs <= 1 or len(tasks) < PARALLEL_MIN:
        _init_worker(config, site, in_pool=False)
        try:
            yield from (_render(t) for t in tasks)
        finally:
            _close_worker()
        return
    chunk = max(1, min(16, len(tasks) // (jobs * 8)))
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_init_worker,
                             initargs=(config, site)) as pool:
        yield from pool.map(_render, tasks, chunksize=chunk)
