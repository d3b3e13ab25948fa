"""Every page of the built site in Chromium, as a reader gets it.

Each page, at 1280 px and at 390 px, in light and dark mode: no console errors, no failed
requests, nothing from another host, no sideways scrolling, and no serious or critical
axe-core findings (colour contrast included). Every internal link and #fragment resolves.
Screenshots of each page at both widths, on screen light and dark, and as printed (paper is
light whatever the screen prefers: test_reader_browser checks it), are saved under
test-artifacts/screenshots/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

from ..test_snapshots import built_pages
from .audit import broken_links, horizontal_overflow, serious_accessibility_violations, visit
from .conftest import NewTab

PAGES = sorted(name.removesuffix("index.html") for name in built_pages())
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
VIEWPORTS = {"desktop": (1280, 900), "phone": (390, 844)}


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p or "home")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_page_reads_well(new_tab: NewTab, base_url: str, path: str,
                         scheme: str) -> None:
    """The page is loaded once, at one width, then set to the other (a load and axe-core's
    script cost about 1.5 s of CPU a page): light loads at the desktop width, dark at the
    phone's, so each width gets a load of its own."""
    widths = list(VIEWPORTS.items())
    if scheme == "dark":
        widths.reverse()
    page = new_tab(*widths[0][1], scheme)
    seen = visit(page, base_url + path, base_url)
    problems: list[str] = []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    slug = (path.strip("/").replace("/", "__") or "home").removesuffix(".html")
    for name, (width, height) in widths:
        page.set_viewport_size({"width": width, "height": height})
        page.emulate_media(media="screen")
        if overflow := horizontal_overflow(page):
            problems.append(f"{name}: {overflow} px wider than the {width} px viewport")
        problems += [f"{name} {scheme}: {v}" for v in serious_accessibility_violations(page)]
        page.screenshot(path=SCREENSHOTS / f"{slug}-{name}-{scheme}.png", full_page=True)
        if scheme == "light":  # paper is light whatever the screen prefers: one print a width
            page.emulate_media(media="print")
            page.screenshot(path=SCREENSHOTS / f"{slug}-{name}-print.png", full_page=True)
    assert seen.problems + problems == []  # what went wrong at any width, loading included


def test_every_internal_link_and_fragment_resolves(page: Page, base_url: str) -> None:
    links: set[str] = set()
    for path in PAGES:
        seen = visit(page, base_url + path, base_url)
        links.update(seen.links)
    assert len(links) > 10
    assert broken_links(page, links, base_url) == []
