"""Rendering question pages, spread over worker processes: a plain stage, which renders
every page it is given (reuse.py decides which pages need it)."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .content import PullRequest, Site
from .context import PageContext
from .git_reader import SourceReader
from .markdown import render_body, render_inline_text
from .processes import start_worker_process
from .render import Renderer
from .results import PageResult
from .templates import template_errors

if TYPE_CHECKING:
    from .code_index import Kept

CodeStore = Callable[[], "Kept"]  # opens, in each worker, what code told builds before
Task = tuple[int, int]  # (the PR's place in the site, the page's in the PR)

# Below this many pages to render, starting worker processes costs more than it saves.
PARALLEL_MIN = 24


@dataclass
class _Worker:
    """What one worker process keeps between pages: the renderer (and its site), git readers."""

    renderer: Renderer
    code_store: Kept | None = None  # what builds before learned from pinned code
    readers: dict[Path, SourceReader] = field(default_factory=dict)
    read: set[tuple[Path, str, tuple[str, ...]]] = field(default_factory=set)

    def source(self, pr: PullRequest) -> SourceReader | None:
        """The code of `pr` when its pages are checked against it (else nothing to check).
        The files its pr.yml lists (those its pages cite) are read at its head at once, the
        first time: one exchange with git, not one for each file a page cites."""
        check = self.renderer.checks.get(pr.key)
        if check is None or not check.checked or check.git_dir is None:
            return None
        if check.git_dir not in self.readers:
            self.readers[check.git_dir] = SourceReader(check.git_dir)
        reader = self.readers[check.git_dir]
        wanted = (check.git_dir, check.commit, pr.files)
        if wanted not in self.read:
            self.read.add(wanted)
            reader.read_many(check.commit, list(pr.files))
        return reader

    def render(self, task: Task) -> PageResult:
        pr = self.renderer.site.prs[task[0]]
        page = pr.pages[task[1]]
        ctx = PageContext(self.renderer.config, page.path, pr, page.body_line, self.source(pr),
                          page_url=page.url, page_dir=pr.key, code_store=self.code_store)
        with template_errors():
            body = render_body(ctx, page.body)
            summary = {key: render_inline_text(ctx, text, 1) for key, text in
                       vars(page.summary).items() if text}  # front matter: line 2 on
            html = self.renderer.page(pr, task[1], body, summary, ctx.outline,  # errors too:
                                      tuple(sorted(ctx.submodules)))  # anchors
        return PageResult(page.url, html, tuple(ctx.problems.errors),
                          tuple(ctx.problems.warnings), page.path, tuple(ctx.anchors),
                          tuple(ctx.targets), tuple(sorted(ctx.files.items())))

    def close(self) -> None:
        for reader in self.readers.values():
            reader.close()
        if self.code_store is not None:
            self.code_store.close()


_worker: _Worker | None = None  # one per worker process, set by its initializer


def _start_worker(renderer: Renderer, code: CodeStore | None, *, in_pool: bool = True,
                  parent: int | None = None) -> _Worker:
    global _worker
    if in_pool:
        start_worker_process(parent)
    _worker = _Worker(renderer, code() if code else None)
    return _worker


def _render_in_worker(task: Task) -> PageResult:
    assert _worker is not None, "the pool's initializer sets up the worker"
    return _worker.render(task)


def parallel(jobs: int, tasks: int) -> bool:
    """Whether `tasks` pages are rendered on `jobs` worker processes (or in this one)."""
    return jobs > 1 and tasks >= PARALLEL_MIN


def all_tasks(site: Site) -> list[Task]:
    """Every question page of the site, in site order."""
    return [(i, j) for i, pr in enumerate(site.prs) for j in range(len(pr.pages))]


def render_pages(renderer: Renderer, tasks: list[Task], *, jobs: int = 1,
                 code: CodeStore | None = None) -> Iterator[PageResult]:
    """The question pages `tasks` of the renderer's site, rendered, in order as they are
    ready: on `jobs` worker processes when there are enough of them to win."""
    if not parallel(jobs, len(tasks)):
        worker = _start_worker(renderer, code, in_pool=False)
        try:
            yield from (worker.render(t) for t in tasks)
        finally:
            worker.close()
        return
    import multiprocessing  # only here: a build rendering on one process never needs it
    from concurrent.futures import ProcessPoolExecutor

    chunk = max(1, min(16, len(tasks) // (jobs * 8)))
    context = multiprocessing.get_context("fork")
    start = functools.partial(_start_worker, parent=os.getpid())
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=start,
                             initargs=(renderer, code)) as pool:
        yield from pool.map(_render_in_worker, tasks, chunksize=chunk)
