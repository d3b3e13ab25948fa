"""Full-text search: a Pagefind index in parts, each part indexed only when its pages change.

Pagefind cannot add, replace or remove one page of an index it built: a one-page edit
would index the whole site again, in time and memory that grow with the site. So the
index is split in parts of at most about PART_PAGES pages, a PR's pages always in the
same part (chosen by a digest of its folder); a build indexes again only the parts whose
pages changed, and takes the others as they are. The search page merges the parts
(Pagefind's `mergeIndex`), listed in `pagefind/parts.json`.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from .errors import SiteGenError
from .processes import dying_with_this_process

BUNDLE = "pagefind"
PARTS_FILE = "parts.json"
PART_PAGES = 512  # a part holds about this many pages at most
# Left out of the index and its excerpts: line numbers, text for screen readers only, icons,
# and what of a diff is not code as it stands (removed lines, elision notes).
EXCLUDED = (".diff-ln, .excerpt-ln, .visually-hidden, [aria-hidden=true], .header-anchor, "
            ".print-url, .ref-preview, .ref-peek, .diff-del, .diff-elision, .code-missing, "
            ".toc")

Parts = dict[str, str]  # a part's folder in the site: a digest of what it indexes


def searchable(text: str) -> bool:
    """Whether Pagefind indexes a page: its template marks the part to index."""
    return "data-pagefind-body" in text


def part_folder(k: int) -> str:
    return BUNDLE if k == 0 else f"{BUNDLE}-{k}"


def plan(outputs: Mapping[str, object], manifest: Mapping[str, str],
         groups: Mapping[str, str] | None = None) -> dict[str, tuple[str, list[str]]]:
    """Each part's folder: a digest of its pages (names and bytes), and the pages. Pages of
    one group (`groups`: a page's PR folder in docs_dir, from the map of sources) stay in
    one part; a page of none is a group of its own."""
    pages = sorted(name for name, content in outputs.items() if name.endswith(".html") and (
        searchable(content) if isinstance(content, str) else getattr(content, "searchable", False)))
    count = 1
    while count * PART_PAGES < len(pages):
        count *= 2  # parts are split in two as the site grows: most keep their pages
    parts: list[list[str]] = [[] for _ in range(count)]
    for name in pages:
        group = (groups or {}).get(name, name)  # a PR's pages stay in one part
        parts[int(hashlib.sha256(group.encode()).hexdigest()[:8], 16) % count].append(name)
    planned = {}
    for k, names in enumerate(parts):
        digest = hashlib.sha256(f"{EXCLUDED}\n{count}\n".encode())
        for name in names:
            digest.update(f"{name} {manifest[name]}\n".encode())
        planned[part_folder(k)] = (digest.hexdigest(), names)
    return planned


class Indexing:
    """Bringing the search index of the copy `folder` to `planned`: a part `folder` holds
    as planned (`held`) stays, one the shown copy holds is linked from it, and the others
    (`todo`) are indexed again, each as soon as its pages are written (`ready`), `jobs` at
    a time, while the rest of the site is written (Pagefind reads only its part's pages,
    and passes over files that come and go). finish() waits for them and returns the parts
    `folder` then holds; a `with` block left early stops those running."""

    def __init__(self, folder: Path, planned: Mapping[str, tuple[str, list[str]]],
                 held: Parts, shown: tuple[Path, Parts] | None = None, *,
                 jobs: int = os.cpu_count() or 1) -> None:
        self.folder, self.planned, self.jobs = folder, planned, max(1, jobs)
        for leftover in folder.glob(f"{BUNDLE}*"):
            if leftover.name not in planned or held.get(leftover.name) != planned[leftover.name][0]:
                shutil.rmtree(leftover) if leftover.is_dir() else leftover.unlink()
        self.todo: dict[str, list[str]] = {}
        for name, (digest, pages) in sorted(planned.items()):
            if (folder / name).is_dir() or not pages:
                continue
            if shown and shown[1].get(name) == digest and (shown[0] / name).is_dir():
                shutil.copytree(shown[0] / name, folder / name, copy_function=os.link)
            else:
                self.todo[name] = pages
        self._waiting: list[str] = []
        self._running: list[subprocess.Popen[str]] = []

    def __enter__(self) -> Indexing:
        return self

    def __exit__(self, *exc: object) -> None:
        for process in self._running:  # left early (a write failed): nothing to wait for
            process.kill()
            process.communicate()
        self._running.clear()

    def ready(self, name: str) -> None:
        """The pages of part `name` (one of `todo`) are written: index it as soon as fewer
        than `jobs` parts are being indexed."""
        self._waiting.append(name)
        self._start()

    def finish(self) -> Parts:
        """Wait for every part (a failure raises), list them for the search page, and
        return the parts `folder` holds: each one's digest."""
        while self._running or self._waiting:
            if self._running:  # the oldest first: parts take about as long as each other
                self._ended(self._running[0])
            self._start()
        if not self.planned:  # no search index at all
            return {}
        parts = sorted((name for name, (_, pages) in self.planned.items() if pages),
                       key=lambda name: int(name.rpartition("-")[2]) if "-" in name else 0)
        (self.folder / BUNDLE).mkdir(exist_ok=True)
        listing = self.folder / BUNDLE / PARTS_FILE
        tmp = listing.with_name(listing.name + ".tmp")  # never written in place: it may be a link
        tmp.write_text(json.dumps({"parts": parts}), encoding="utf-8")
        os.replace(tmp, listing)
        return {name: digest for name, (digest, pages) in self.planned.items() if pages}

    def _start(self) -> None:
        for process in [p for p in self._running if p.poll() is not None]:
            self._ended(process)
        while self._waiting and len(self._running) < self.jobs:
            name = self._waiting.pop(0)
            self._running.append(_pagefind(name, self.todo[name], self.folder))

    def _ended(self, process: subprocess.Popen[str]) -> None:
        """Wait for `process` to end; its failure is an error."""
        self._running.remove(process)
        out, err = process.communicate()
        if process.returncode != 0:
            detail = (err or out).strip().splitlines()
            raise SiteGenError(f"search index failed (pagefind exit {process.returncode}): "
                               f"{detail[-1] if detail else 'no output'}")


@functools.cache
def pagefind_command() -> tuple[str, ...]:
    """How Pagefind is started: its binary itself, as the `pagefind` package would find it
    ($PAGEFIND_BINARY_PATH, else the binary of `pagefind[bin]`), so no Python starts (and
    imports the package's asyncio service) before it; else `python -m pagefind`."""
    given = os.environ.get("PAGEFIND_BINARY_PATH")
    if given:
        return (given,)
    for module in ("pagefind_bin_extended", "pagefind_bin"):
        try:
            found = importlib.import_module(module).get_executable()
        except (ImportError, AttributeError, OSError):
            continue
        if found and Path(found).is_file() and os.access(found, os.X_OK):
            return (str(found),)
    return (sys.executable, "-m", "pagefind")


def _pagefind(name: str, pages: list[str], folder: Path) -> subprocess.Popen[str]:
    """Pagefind started on the part `name` of the copy `folder`: its pages (names in it)."""
    return subprocess.Popen(
        [*pagefind_command(), "--site", str(folder), "--output-subdir", name,
         "--glob", "{" + ",".join(pages) + "}", "--exclude-selectors", EXCLUDED, "--silent"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=dying_with_this_process())
