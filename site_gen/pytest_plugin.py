"""A pytest plugin: every page a site builds, checked against its stored snapshot.

Installed with site_gen (`pip install "site-gen[test]"` brings pytest and syrupy) and loaded
by pytest through its entry point. In a content repository, one test uses it:

    def test_page(site_page, page_snapshot):
        assert site_page.html == page_snapshot, site_page.where

The site (`site_gen_config` in the pytest settings, default `mkdocs.yml`) is built once per
session, in memory; each page is one test, named by its address, and one readable `.html`
file under `__snapshots__/`. A page with no snapshot fails until `--snapshot-update` writes
it; a snapshot whose page is gone fails the run, and `--snapshot-update` deletes it.
"""

from __future__ import annotations

import difflib
import itertools
import os
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .build import render_site
from .config import load_config
from .errors import SiteGenError, display_path

PAGES_KEY = pytest.StashKey[dict[str, "SitePage"]]()
USED_KEY = pytest.StashKey[set[Path]]()
ORPHANS_KEY = pytest.StashKey[list[str]]()


@dataclass(frozen=True)
class SitePage:
    """One built page: its address in the site, its HTML, and the file it was made from."""

    url: str
    html: str
    source: str

    @property
    def where(self) -> str:
        return f"the page {self.url} (made from {self.source}) differs from its snapshot"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("site_gen_config", "the site's mkdocs.yml, for the page snapshot tests",
                  default="mkdocs.yml")


def built_pages(config: pytest.Config) -> dict[str, SitePage]:
    """Every HTML page of the site, built once per test session (SITE_URL unset, so the
    snapshots do not depend on where the site is published)."""
    if PAGES_KEY not in config.stash:
        config.stash[PAGES_KEY] = _build(Path(config.rootpath) / config.getini("site_gen_config"))
    return config.stash[PAGES_KEY]


def _build(path: Path) -> dict[str, SitePage]:
    saved = os.environ.pop("SITE_URL", None)
    try:
        site = render_site(load_config(path))
    except SiteGenError as error:
        problems = getattr(error, "errors", [error])
        raise pytest.UsageError("the site does not build:\n" + "\n".join(map(str, problems))) from None
    finally:
        if saved is not None:
            os.environ["SITE_URL"] = saved
    sources = {name: display_path(source) for name, source in site.sources.items()}
    return {name: SitePage(name, text, sources.get(name, "site_gen's own templates"))
            for name, text in sorted(site.outputs.items())
            if name.endswith(".html") and isinstance(text, str)}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "site_page" in metafunc.fixturenames:
        pages = built_pages(metafunc.config)
        metafunc.parametrize("site_page", list(pages.values()),
                             ids=[snapshot_id(url) for url in pages])


def snapshot_id(url: str) -> str:
    """A page's test id and snapshot name: its address, '/' written '__' and a '_' of the
    address '_-', so no two addresses share one (a__b/c and a/b__c)."""
    return url.replace("_", "_-").replace("/", "__")


def _extension() -> Any:
    from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

    class PageSnapshot(SingleFileSnapshotExtension):
        """One readable .html file per page."""

        _write_mode = WriteMode.TEXT
        file_extension = "html"

    return PageSnapshot


@pytest.fixture
def page_snapshot(snapshot: Any, request: pytest.FixtureRequest) -> Any:
    """syrupy's snapshot, stored as one .html file per page."""
    extension = _extension()
    location = Path(extension.dirname(test_location=snapshot.test_location))
    request.config.stash.setdefault(USED_KEY, set()).add(location)
    return snapshot.use_extension(extension)


@pytest.hookimpl(wrapper=True)
def pytest_assertrepr_compare(config: pytest.Config, op: str, left: Any,
                              right: Any) -> Generator[None, list[list[str]], list[list[str]]]:
    """A page that differs from its snapshot: each changed line cut to the words that
    changed, so the few lines pytest shows without -vv hold them (-vv: syrupy's whole diff).
    A wrapper, so it comes before syrupy's explanation whatever order they were loaded in."""
    others = yield
    mine = page_explanation(config, op, left, right)
    return [mine, *others] if mine is not None else others


def page_explanation(config: pytest.Config, op: str, left: Any, right: Any) -> list[str] | None:
    if op != "==" or not isinstance(left, str) or config.get_verbosity() >= 2:
        return None
    stored = _stored_page(right)
    if stored is None:
        return None
    changes = changed_lines(stored, left)
    shown = [f"{what} line {number}: {text}" for number, what, text in changes[:MAX_SHOWN]]
    if len(changes) > MAX_SHOWN:
        shown.append(f"... and {len(changes) - MAX_SHOWN} more changed line(s); pytest -vv "
                     "shows the whole diff")
    return ["the page differs from its snapshot (- stored, + built):", *shown]


MAX_SHOWN = 3  # changed lines shown without -vv (pytest shows about 8 lines in all)
AROUND = 30  # characters of context on each side of the changed words


def _stored_page(assertion: Any) -> str | None:
    """The stored snapshot of a page that `assertion` (syrupy's) was compared with."""
    try:
        extension = assertion.extension
        result = assertion._execution_results[assertion.num_executions - 1]
    except (AttributeError, KeyError, IndexError):
        return None
    if type(extension).__name__ != "PageSnapshot" or result.success:
        return None
    recalled = result.recalled_data  # None: there is no snapshot (syrupy says so)
    return recalled if isinstance(recalled, str) else None


def changed_lines(old: str, new: str) -> list[tuple[int, str, str]]:
    """(line number, '-' or '+', the line cut to its changed words) for each changed line."""
    old_lines, new_lines = old.splitlines(), new.splitlines()
    found: list[tuple[int, str, str]] = []
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        pairs = list(itertools.zip_longest(old_lines[i1:i2], new_lines[j1:j2]))
        for k, (before, after) in enumerate(pairs):
            cut_before, cut_after = _cut(before or "", after or "")
            if before is not None:
                found.append((i1 + k + 1, "-", cut_before))
            if after is not None:
                found.append((j1 + k + 1, "+", cut_after))
    return found


def _cut(before: str, after: str) -> tuple[str, str]:
    """Both lines cut to the part that differs, with a little context and '…' marks."""
    start = 0
    while start < min(len(before), len(after)) and before[start] == after[start]:
        start += 1
    end = 0
    while (end < min(len(before), len(after)) - start
           and before[len(before) - 1 - end] == after[len(after) - 1 - end]):
        end += 1

    def cut(text: str) -> str:
        first, last = max(0, start - AROUND), min(len(text), len(text) - end + AROUND)
        return ("…" if first else "") + text[first:last] + ("…" if last < len(text) else "")
    return cut(before), cut(after)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail on snapshots whose page is gone (or delete them with --snapshot-update). Under
    pytest-xdist each worker looks at the snapshots it used and the controller fails the
    run on what they found."""
    config = session.config
    found: list[str] = config.stash.get(ORPHANS_KEY, [])  # the workers', on the controller
    orphans = sorted(set(found) | set(_orphans(config)))
    if hasattr(config, "workeroutput"):  # an xdist worker: tell the controller
        config.workeroutput["site_gen_orphans"] = orphans
    if orphans:
        config.stash[ORPHANS_KEY] = orphans
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _orphans(config: pytest.Config) -> list[str]:
    folders = config.stash.get(USED_KEY, set())
    if not folders or PAGES_KEY not in config.stash:
        return []
    expected = {snapshot_id(url) for url in config.stash[PAGES_KEY]}
    update = bool(config.getoption("--snapshot-update", default=False))
    orphans = [path for folder in sorted(folders) for path in sorted(folder.glob("*.html"))
               if _page_of(path.name) not in expected]
    for path in orphans:
        if update and not hasattr(config, "workeroutput"):  # xdist's controller deletes them
            path.unlink(missing_ok=True)
    return [] if update else [path.name for path in orphans]


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """pytest-xdist's controller: the orphans a worker found fail the run."""
    found = getattr(node, "workeroutput", {}).get("site_gen_orphans", [])
    if found:
        stash = node.config.stash
        known: list[str] = stash.get(ORPHANS_KEY, [])
        stash[ORPHANS_KEY] = sorted(set(known) | set(found))


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    orphans = config.stash.get(ORPHANS_KEY, [])
    if orphans:
        terminalreporter.write_sep("=", "page snapshots without a page", red=True)
        terminalreporter.write_line(f"{', '.join(orphans)}: the page is gone; run pytest "
                                    "--snapshot-update to delete them")


def _page_of(file_name: str) -> str:
    """The page id in a snapshot file name 'test_x[ID].html'."""
    return file_name.partition("[")[2].rpartition("]")[0]
