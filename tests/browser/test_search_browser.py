"""Search in Chromium: a word of the async_save page finds it, with no errors."""

from __future__ import annotations

from playwright.sync_api import Page, expect


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
