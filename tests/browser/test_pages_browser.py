"""Every page of the built site in Chromium, as a reader gets it.

Each page, at 1280 px and at 390 px, in light and dark mode: no console errors, no failed
requests, nothing from another host, no sideways scrolling, and no serious or critical
axe-core findings (colour contrast included). Every internal link and #fragment resolves.
Screenshots of each page at both widths, light and dark, on screen and as printed, are saved
under test-artifacts/screenshots/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from ..test_snapshots import built_pages
from .audit import broken_links, horizontal_overflow, serious_accessibility_violations, visit

PAGES = sorted(name.removesuffix("index.html") for name in built_pages())
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
VIEWPORTS = {"desktop": (1280, 900), "phone": (390, 844)}


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p or "home")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_page_reads_well(browser: Browser, base_url: str, path: str, scheme: str) -> None:
    problems: list[str] = []
    for name, (width, height) in VIEWPORTS.items():
        context = browser.new_context(viewport={"width": width, "height": height},
                                      color_scheme=scheme)  # type: ignore[arg-type]
        page = context.new_page()
        seen = visit(page, base_url + path, base_url)
        problems += seen.problems
        if overflow := horizontal_overflow(page):
            problems.append(f"{name}: {overflow} px wider than the {width} px viewport")
        problems += [f"{name} {scheme}: {v}" for v in serious_accessibility_violations(page)]
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        slug = (path.strip("/").replace("/", "__") or "home").removesuffix(".html")
        page.screenshot(path=SCREENSHOTS / f"{slug}-{name}-{scheme}.png", full_page=True)
        page.emulate_media(media="print")  # paper: light whatever the screen prefers
        page.screenshot(path=SCREENSHOTS / f"{slug}-{name}-{scheme}-print.png", full_page=True)
        context.close()
    assert problems == []


def test_every_internal_link_and_fragment_resolves(browser: Browser, base_url: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    links: set[str] = set()
    for path in PAGES:
        seen = visit(page, base_url + path, base_url)
        links.update(seen.links)
    assert len(links) > 10
    assert broken_links(page, links, base_url) == []
    context.close()
