"""The browser checks fail when a page breaks: each case breaks a fixture page on purpose."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page

from ..conftest import Project, Run
from .audit import broken_links, horizontal_overflow, serious_accessibility_violations, visit
from .conftest import serve

PAGE = "acme/widgets/12/cache-bug/index.html"


@pytest.fixture
def fixture_site(project: Project, cli: Callable[..., Run]) -> Project:
    assert cli("build", "--no-search").code == 0  # the audits load one page, not search
    return project


@pytest.fixture
def tab(page: Page) -> Page:
    return page


def break_page(site: Path, insert: str) -> None:
    path = site / PAGE
    html = path.read_text()
    path.write_text(html.replace('<div class="body">', '<div class="body">' + insert, 1))


def audit(site: Path, tab: Page) -> tuple[list[str], list[str]]:
    server, url = serve(site)
    try:
        seen = visit(tab, url + PAGE, url)
        return seen.problems, broken_links(tab, set(seen.links), url)
    finally:
        server.shutdown()
        server.server_close()


def test_a_clean_fixture_page_passes(fixture_site: Project, tab: Page) -> None:
    assert audit(fixture_site.site, tab) == ([], [])


def test_a_broken_link_fails(fixture_site: Project, tab: Page) -> None:
    break_page(fixture_site.site, '<a href="../no-such-page/">gone</a><a href="#nowhere">x</a>')
    problems, broken = audit(fixture_site.site, tab)
    assert problems == []
    assert [b.split("/acme/", 1)[1] for b in broken] == [
        "widgets/12/cache-bug/index.html#nowhere: no element with id 'nowhere'",
        "widgets/12/no-such-page/: HTTP 404"]


def test_an_external_asset_fails(fixture_site: Project, tab: Page) -> None:
    break_page(fixture_site.site, '<img src="https://cdn.example.com/pixel.png" alt="">')
    problems, _ = audit(fixture_site.site, tab)
    assert any("https://cdn.example.com/pixel.png" in p for p in problems), problems


def test_an_external_asset_fails_even_without_the_csp(fixture_site: Project, tab: Page) -> None:
    path = fixture_site.site / PAGE
    html = path.read_text()
    start = html.index('<meta http-equiv="Content-Security-Policy"')
    path.write_text(html[:start] + html[html.index(">", start) + 1:])
    tab.route("https://cdn.example.com/**", lambda route: route.abort())
    break_page(fixture_site.site, '<img src="https://cdn.example.com/pixel.png" alt="">')
    problems, _ = audit(fixture_site.site, tab)
    assert "request outside the site: https://cdn.example.com/pixel.png" in problems


def test_a_console_error_fails(fixture_site: Project, tab: Page) -> None:
    break_page(fixture_site.site, '<script src="../../../../assets/missing.js"></script>')
    problems, _ = audit(fixture_site.site, tab)
    assert any(p.startswith("404 for ") and p.endswith("/assets/missing.js") for p in problems)
    assert any(p.startswith("console error:") for p in problems), problems


def test_a_page_wider_than_a_phone_fails(fixture_site: Project, tab: Page) -> None:
    break_page(fixture_site.site, '<svg width="900" height="10" aria-hidden="true"></svg>')
    server, url = serve(fixture_site.site)
    try:
        tab.set_viewport_size({"width": 390, "height": 844})
        tab.goto(url + PAGE)
        assert horizontal_overflow(tab) > 0
    finally:
        server.shutdown()
        server.server_close()


def test_a_serious_accessibility_finding_fails_at_each_width(fixture_site: Project, tab: Page) -> None:
    """axe-core reports a button without a name, on the page as loaded and again once the
    page is set to the phone's width (its script put in once)."""
    break_page(fixture_site.site, '<button type="button"></button>')
    server, url = serve(fixture_site.site)
    try:
        tab.goto(url + PAGE)
        found = serious_accessibility_violations(tab)
        tab.set_viewport_size({"width": 390, "height": 844})
        assert serious_accessibility_violations(tab) == found
        assert [f.split(":")[0] for f in found] == ["button-name (critical)"], found
    finally:
        server.shutdown()
        server.server_close()
