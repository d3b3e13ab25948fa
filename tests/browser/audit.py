"""What a reader's browser sees on one page: errors, foreign requests, width, links, a11y."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urldefrag

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, Response

_AXE = Axe()


@dataclass
class Visit:
    """Everything that went wrong while one page loaded, and the links it holds."""

    url: str
    problems: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)


def visit(page: Page, url: str, site_root: str) -> Visit:
    """Load `url`; record console errors, failed requests and requests outside `site_root`."""
    result = Visit(url)

    def on_response(response: Response) -> None:
        if response.status >= 400:
            result.problems.append(f"{response.status} for {response.url}")

    def on_request(request: object) -> None:
        address = getattr(request, "url", "")
        if not address.startswith(site_root) and not address.startswith("data:"):
            result.problems.append(f"request outside the site: {address}")

    page.on("console", lambda m: result.problems.append(f"console {m.type}: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: result.problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: result.problems.append(f"failed request: {r.url}"))
    page.on("response", on_response)
    page.on("request", on_request)
    page.goto(url, wait_until="load")
    hrefs = page.eval_on_selector_all("a[href], link[rel=stylesheet][href]",
                                      "els => els.map(e => e.href)")
    result.links = [h for h in hrefs if h]
    return result


def horizontal_overflow(page: Page) -> int:
    """How many pixels the page is wider than the viewport (0 when it fits)."""
    width: int = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    return max(width, 0)


def serious_accessibility_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the loaded page, as it is laid out now.
    axe-core's script (the one axe-playwright-python carries) is put in the page once: it
    takes most of a second of CPU to read."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(_AXE.axe_script)
    violations = page.evaluate('axe.run(document, {"resultTypes": ["violations"]})'
                               '.then(results => results.violations)')
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            f"{', '.join(str(n['target']) for n in v['nodes'][:3])}"
            for v in violations if v["impact"] in ("serious", "critical")]


def broken_links(page: Page, links: set[str], site_root: str) -> list[str]:
    """Internal links whose page does not load or whose #fragment names no element."""
    broken, bodies = [], {}
    for link in sorted(links):
        if not link.startswith(site_root):
            continue
        target, fragment = urldefrag(link)
        if target not in bodies:
            response = page.request.get(target)
            bodies[target] = response.text() if response.ok else None
            if not response.ok:
                broken.append(f"{link}: HTTP {response.status}")
        body = bodies[target]
        if fragment and body is not None and not re.search(
                rf'\bid="{re.escape(fragment)}"', body):
            broken.append(f"{link}: no element with id '{fragment}'")
    return broken
