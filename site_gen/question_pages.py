"""Rendering the question pages, spread over worker processes; cached pages are reused."""

from __future__ import annotations

import functools
import logging
import multiprocessing
import os
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cache import TEXT_DIGEST, CodeStore, PageCache, code_store_path, page_key
from .config import Config
from .content import PullRequest, Site
from .context import PageContext
from .git_reader import SourceReader
from .markdown import render_body, render_inline_text
from .output import kept
from .processes import start_worker_process
from .render import Renderer
from .results import PageResult
from .reuse import Warm
from .templates import template_errors

# Below this many pages to render, starting worker processes costs more than it saves.
PARALLEL_MIN = 24
log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]


@dataclass
class _Worker:
    """What one worker process keeps between pages: the site, its renderer, git readers."""

    config: Config
    site: Site
    renderer: Renderer
    code_store: CodeStore | None = None  # what builds before learned from pinned code
    readers: dict[Path, SourceReader] = field(default_factory=dict)

    def source(self, pr: PullRequest) -> SourceReader | None:
        """The code of `pr` when its pages are checked against it (else nothing to check)."""
        check = self.renderer.checks.get(pr.key)
        if check is None or not check.checked or check.git_dir is None:
            return None
        if check.git_dir not in self.readers:
            self.readers[check.git_dir] = SourceReader(check.git_dir)
        return self.readers[check.git_dir]

    def render(self, task: tuple[int, int]) -> PageResult:
        pr = self.site.prs[task[0]]
        page = pr.pages[task[1]]
        ctx = PageContext(self.config, page.path, pr, page.body_line, self.source(pr),
                          page_url=page.url, page_dir=pr.key, code_store=self.code_store)
        with template_errors():
            body = render_body(ctx, page.body)
            summary = {key: render_inline_text(ctx, text, 1) for key, text in
                       vars(page.summary).items() if text}  # front matter: line 2 on
            html = self.renderer.page(pr, task[1], body, summary)  # with errors too: anchors
        return PageResult(page.url, html, tuple(ctx.problems.errors),
                          tuple(ctx.problems.warnings), page.path, tuple(ctx.anchors),
                          tuple(ctx.targets), tuple(sorted(ctx.files.items())))

    def close(self) -> None:
        for reader in self.readers.values():
            reader.close()
        if self.code_store is not None:
            self.code_store.close()


_worker: _Worker | None = None  # one per worker process, set by its initializer


def _start_worker(config: Config, site: Site, renderer: Renderer, code: Path | None, *,
                  in_pool: bool = True, parent: int | None = None) -> _Worker:
    global _worker
    if in_pool:
        start_worker_process(parent)
    _worker = _Worker(config, site, renderer, CodeStore(code) if code else None)
    return _worker


def _render_in_worker(task: tuple[int, int]) -> PageResult:
    assert _worker is not None, "the pool's initializer sets up the worker"
    return _worker.render(task)


def render_pages(config: Config, site: Site, renderer: Renderer, *, fingerprint: str,
                 jobs: int = 1, cache: PageCache | None = None,
                 progress: Progress | None = None, warm: Warm | None = None,
                 shown: Mapping[str, str] | None = None) -> list[PageResult]:
    """Render every question page, in site order; cached pages are not rendered again
    (nor, in a warm build, pages whose inputs are those of the last build). A cached page
    the shown site holds byte for byte (`shown`: its files' digests) is not even read.

    `progress(done, total)` is called as pages are rendered.
    """
    tasks = [(i, j) for i, pr in enumerate(site.prs) for j in range(len(pr.pages))]
    results: dict[tuple[int, int], PageResult] = {}
    inputs: dict[tuple[int, int], object] = {}
    if warm is not None:
        for task in tasks:
            pr = site.prs[task[0]]
            inputs[task] = warm.page_inputs(pr, task[1], renderer.checks.get(pr.key))
            held = warm.pages.get(pr.pages[task[1]].path)
            if held is not None and held[0] == inputs[task]:
                results[task] = held[1]
    reprs: dict[int, tuple[Any, str]] = {}
    keys = {t: _key(renderer, site, t, fingerprint, reprs) for t in tasks
            if t not in results} if cache else {}
    if cache:
        for task, hit in _hits(config, cache, keys, shown or {}, site).items():
            results[task] = hit
            if warm is not None:
                warm.pages[site.prs[task[0]].pages[task[1]].path] = (inputs[task], hit)
    missing = [t for t in tasks if t not in results]
    log.debug("Question pages: %d in all, %d kept from the last build, %d to render%s",
              len(tasks), len(results), len(missing),
              f" on {jobs} worker processes" if jobs > 1 and len(missing) >= PARALLEL_MIN else "")
    code = code_store_path(config) if cache else None  # a CLI build keeps what code told
    for done, (task, result) in enumerate(zip(missing, _run(config, site, renderer, missing, jobs,
                                                            code), strict=True), len(results) + 1):
        results[task] = result
        if warm is not None:
            warm.pages[site.prs[task[0]].pages[task[1]].path] = (inputs[task], result)
        if cache and not result.errors and result.html is not None:
            cache.put(keys[task], result.to_data())
        if progress:
            progress(done, len(tasks))
    return [results[t] for t in tasks]


def _hits(config: Config, cache: PageCache, keys: dict[tuple[int, int], str],
          shown: Mapping[str, str], site: Site) -> dict[tuple[int, int], PageResult]:
    """The pages found in the cache. One whose HTML the shown site holds as it is (`shown`:
    each file's digest) is taken without reading its HTML (see Kept); the others whole."""
    found: dict[tuple[int, int], PageResult | None] = {}
    light = cache.get_many(list(keys.values()), text=False) if shown else {}
    for task, key in keys.items():
        data = light.get(key)
        name = site.prs[task[0]].pages[task[1]].url + "index.html"
        if data is not None and shown.get(name) == data[TEXT_DIGEST]:
            found[task] = PageResult.from_data(data, kept(
                cache, key, "html", data[TEXT_DIGEST], data.get("searchable") is True,
                config.site_dir / name))
    whole = cache.get_many([key for task, key in keys.items() if found.get(task) is None])
    for task, key in keys.items():
        if found.get(task) is None and key in whole:
            found[task] = PageResult.from_data(whole[key])
    pages = {task: site.prs[task[0]].pages[task[1]] for task in found}
    # an entry for another page is never written here
    return {task: hit for task, hit in found.items()
            if hit is not None and (hit.url, hit.path) == (pages[task].url, pages[task].path)}


def _key(renderer: Renderer, site: Site, task: tuple[int, int], fingerprint: str,
         reprs: dict[int, tuple[Any, str]]) -> str:
    pr = site.prs[task[0]]
    page = pr.pages[task[1]]
    context = renderer.page_context(pr, task[1])
    # `page` and `series` are the PR's pages (in `pr`, as listed) seen from this page: its
    # URL stands for them, and the PR's text is made once for all its pages
    shared = {name: value for name, value in context.items() if name not in ("page", "series")}
    return page_key(fingerprint, {**shared, "at": page.url}, page.body, reprs)


def _run(config: Config, site: Site, renderer: Renderer, tasks: list[tuple[int, int]],
         jobs: int, code: Path | None) -> Iterator[PageResult]:
    """Results in task order, as they are ready."""
    if jobs <= 1 or len(tasks) < PARALLEL_MIN:
        worker = _start_worker(config, site, renderer, code, in_pool=False)
        try:
            yield from (worker.render(t) for t in tasks)
        finally:
            worker.close()
        return
    chunk = max(1, min(16, len(tasks) // (jobs * 8)))
    context = multiprocessing.get_context("fork")
    start = functools.partial(_start_worker, parent=os.getpid())
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=start,
                             initargs=(config, site, renderer, code)) as pool:
        yield from pool.map(_render_in_worker, tasks, chunksize=chunk)
