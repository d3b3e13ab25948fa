"""Search in Chromium: a word of the async_save page finds it, with no errors."""

from __future__ import annotations

from playwright.sync_api import Page


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
