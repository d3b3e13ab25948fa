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


def index_site(folder: Path, planned: Mapping[str, tuple[str, list[str]]], held: Parts,
               shown: tuple[Path, Parts] | None = None, *,
               jobs: int = os.cpu_count() or 1) -> Parts:
    """Bring the search index of the copy `folder` to `planned`: a part `folder` holds as
    planned (`held`) stays, one the shown copy holds is linked from it, the others are
    indexed again (`jobs` at a time). Returns the parts `folder` now holds."""
    for leftover in folder.glob(f"{BUNDLE}*"):
        if leftover.name not in planned or held.get(leftover.name) != planned[leftover.name][0]:
            shutil.rmtree(leftover) if leftover.is_dir() else leftover.unlink()
    todo = []
    for name, (digest, pages) in sorted(planned.items()):
        if (folder / name).is_dir() or not pages:
            continue
        if shown and shown[1].get(name) == digest and (shown[0] / name).is_dir():
            shutil.copytree(shown[0] / name, folder / name, copy_function=os.link)
        else:
            todo.append((name, pages))
    for start in range(0, len(todo), max(1, jobs)):
        _index([*todo[start:start + max(1, jobs)]], folder)
    if not planned:  # no search index at all
        return {}
    parts = sorted((name for name, (_, pages) in planned.items() if pages),
                   key=lambda name: int(name.rpartition("-")[2]) if "-" in name else 0)
    (folder / BUNDLE).mkdir(exist_ok=True)
    listing = folder / BUNDLE / PARTS_FILE
    tmp = listing.with_name(listing.name + ".tmp")  # never written in place: it may be a link
    tmp.write_text(json.dumps({"parts": parts}), encoding="utf-8")
    os.replace(tmp, listing)
    return {name: digest for name, (digest, pages) in planned.items() if pages}


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


def _index(parts: list[tuple[str, list[str]]], folder: Path) -> None:
    """Run Pagefind for each part, at the same time; every failure is an error."""
    running = [subprocess.Popen(
        [*pagefind_command(), "--site", str(folder), "--output-subdir", name,
         "--glob", "{" + ",".join(pages) + "}", "--exclude-selectors", EXCLUDED, "--silent"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=dying_with_this_process(),
    ) for name, pages in parts]
    for process in running:
        out, err = process.communicate()
        if process.returncode != 0:
            detail = (err or out).strip().splitlines()
            raise SiteGenError(f"search index failed (pagefind exit {process.returncode}): "
                               f"{detail[-1] if detail else 'no output'}")
