"""Search in Chromium: a word of the async_save page finds it, with no errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from benchmarks.sample import write_site
from site_gen import search
from site_gen.build import render_site
from site_gen.config import load_config
from site_gen.output import write_site as write_output

from .conftest import serve


def test_search_finds_the_async_save_page(page: Page, base_url: str) -> None:
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(base_url + "search/")
    page.fill("#search-input", "dashboard")
    page.click(".search-form button")
    page.wait_for_selector("#search-results li")
    links = page.locator("#search-results li a")
    assert links.count() == 1
    assert links.first.inner_text() == ("Why the new rl.checkpoint.async_save tag says true on "
                                        "every save")
    links.first.click()
    page.wait_for_url("**/NVIDIA-NeMo/RL/4607/async-save-tag/")
    assert problems == []


def test_search_page_says_what_to_do_without_javascript(browser, base_url: str) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(java_script_enabled=False)
    tab = context.new_page()
    tab.goto(base_url + "search/")
    assert "Search needs JavaScript." in tab.inner_text("main")
    context.close()


def test_the_header_search_finds_pages_named_by_pr_and_status(page: Page, base_url: str) -> None:
    page.goto(base_url)
    page.fill("form.header-search input[name=q]", "dashboard")
    page.press("form.header-search input[name=q]", "Enter")
    page.wait_for_url("**/search/?q=dashboard")
    page.wait_for_selector("#search-results li")
    assert page.locator(".search-about").first.inner_text() == "NVIDIA-NeMo/RL #4607 · Unresolved"
    excerpt = page.locator(".search-excerpt").first.inner_text()
    assert not any(icon in excerpt for icon in "●⚑◆✗⚠≠⇒")


def test_text_for_screen_readers_and_line_numbers_are_not_indexed(page: Page, base_url: str) -> None:
    page.goto(base_url + "search/?q=comparison")  # in the flow's caption for screen readers
    expect(page.locator("#search-status")).to_contain_text("0 pages found")


def test_search_merges_the_parts_of_the_index(page: Page, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A site split into index parts finds a page of every part, from one search box."""
    monkeypatch.setattr(search, "PART_PAGES", 8)
    write_site(tmp_path, 30)
    for n, md in enumerate(sorted((tmp_path / "content").rglob("p-*.md"))):
        word = f"zz{chr(97 + n // 26)}{chr(97 + n % 26)}zz"  # letters only: one word
        md.write_text(md.read_text() + f"\nThe marker {word} appears here.\n")
    config = load_config(tmp_path / "mkdocs.yml")
    write_output(tmp_path / "site", render_site(config).outputs)
    parts = json.loads((tmp_path / "site/pagefind/parts.json").read_text())["parts"]
    assert len(parts) > 2
    server, url = serve(tmp_path / "site")
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    try:  # every page says "marker": all 30 are found, whichever part holds them
        page.goto(f"{url}search/?q=marker")
        expect(page.locator("#search-status")).to_contain_text("30 pages found")
        last = sorted((tmp_path / "content").rglob("p-*.md"))[-1]  # n = 29: "zzbdzz"
        page.goto(f"{url}search/?q=zzbdzz")
        page.wait_for_selector("#search-results li")
        first = page.locator("#search-results li a").first.get_attribute("href") or ""
        assert first.endswith(last.relative_to(tmp_path / "content").with_suffix("").as_posix()
                              + "/") and problems == []
    finally:
        server.shutdown()
        server.server_close()
