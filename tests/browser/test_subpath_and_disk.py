"""The built site under a sub-path (as on GitHub Pages) and opened straight from disk."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from urllib.parse import urldefrag

import pytest
from playwright.sync_api import Page

from site_gen.build import render_site
from site_gen.config import load_config
from site_gen.output import write_site

from .audit import visit
from .conftest import ROOT, serve


@pytest.fixture
def tab(page: Page) -> Page:
    return page


def crawl(tab: Page, start: str, root: str) -> tuple[set[str], list[str]]:
    """Visit every page reachable from `start` inside `root`; (pages, problems)."""
    seen: set[str] = set()
    queue, problems = [start], []
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        result = visit(tab, url, root)
        problems += [f"{url}: {p}" for p in result.problems]
        for link in result.links:
            target = urldefrag(link)[0]
            if target.startswith(root) and target not in seen and (
                    target.endswith("/") or target.endswith(".html")):
                queue.append(target)
            elif not target.startswith(root) and not target.startswith("https://github.com/"):
                problems.append(f"{url}: link leaves the site: {link}")
    return seen, problems


def test_every_link_and_asset_resolves_under_a_sub_path(tmp_path: Path, tab: Page) -> None:
    config = dataclasses.replace(load_config(ROOT / "mkdocs.yml"),
                                 site_url="https://owner.github.io/repo/")
    write_site(tmp_path / "repo", render_site(config).outputs)
    server, url = serve(tmp_path)
    try:
        root = url + "repo/"
        pages, problems = crawl(tab, root, root)
        assert problems == [], "\n".join(problems)
        assert root + "NVIDIA-NeMo/RL/4607/async-save-tag/" in pages
        assert len(pages) >= 5
        not_found = visit(tab, root + "404.html", root)
        assert not_found.problems == []
        assert root in not_found.links
    finally:
        server.shutdown()
        server.server_close()


def test_the_site_opened_from_disk(tmp_path: Path, tab: Page) -> None:
    config = dataclasses.replace(load_config(ROOT / "mkdocs.yml"), use_directory_urls=False)
    write_site(tmp_path / "site", render_site(config).outputs, search=False)
    start = (tmp_path / "site" / "index.html").as_uri()
    root = (tmp_path / "site").as_uri() + "/"
    pages, problems = crawl(tab, start, root)
    assert problems == [], "\n".join(problems)
    assert root + "NVIDIA-NeMo/RL/4607/async-save-tag/index.html" in pages
    tab.goto(root + "NVIDIA-NeMo/RL/4607/async-save-tag/index.html")
    color = tab.locator("h1").evaluate("e => getComputedStyle(e).fontSize")
    assert color == "28px"  # site.css applied: 1.75rem
