"""XSS vectors through every author-controlled field: nothing runs, nothing leaves the site."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser

from ..conftest import Project, Run
from .audit import visit
from .conftest import serve

VECTORS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "\"><svg onload=alert(3)>",
    "'><script>alert(4)</script>",
    "<iframe src=\"javascript:alert(5)\"></iframe>",
    "<a href=\"javascript:alert(6)\">x</a>",
    "\" onmouseover=\"alert(7)\" x=\"",
    "' onfocus='alert(8)' autofocus x='",
    "</title><script>alert(9)</script>",
    "</textarea><script>alert(10)</script>",
    "<style>body{display:none}</style>",
    "<img src=\"https://evil.example/x.png\">",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(11)>",
    "{{ 7*7 }}{% raw %}",
    "<base href=\"https://evil.example/\">",
    "<meta http-equiv=\"refresh\" content=\"0;url=https://evil.example/\">",
]
V = " ".join(VECTORS)
FIELDS = ["site_name", "site_description", "copyright", "pr title", "page title", "question",
          "summary before", "summary this_pr", "summary status", "prose", "heading (and its id)",
          "emphasis", "table cell", "code span", "fenced code", "code reference label",
          "flow title", "lane label", "step", "note", "outcome", "flow source code",
          "proposal title", "proposal lands", "hunk symbol", "diff line", "aside title",
          "callout body", "link text", "image alt"]


def y(text: str) -> str:
    return json.dumps(text)  # JSON strings are YAML strings


@pytest.fixture
def xss_site(project: Project, cli: Callable[..., Run]) -> Iterator[str]:
    project.write("mkdocs.yml", f"site_name: {y(V)}\nsite_description: {y(V)}\n"
                                f"copyright: {y(V)}\nsite_url: https://x.org/\ndocs_dir: content\n")
    project.write("content/acme/widgets/12/pr.yml",
                  f"repo: acme/widgets\nnumber: 12\ntitle: {y(V)}\nhead: 1234567\nstate: open\n"
                  "files: [src/widgets/core.py]\n")
    body = "\n".join([
        f"Prose {V}", "", f"## Heading {V}", "", f"*{V}*", "",
        "| a |", "|---|", f"| {V} |", "", f"`{V}`", "", "```html", V, "```", "",
        f"[[core.py:1|{V}]]", "",
        "```flow", f"title: {V}", f"lane a: {V}", "lane b: B", f"step: {V}", f"note: {V}",
        f"outcome a: wrong: {V}", "outcome b: right: ok", f"source: [[core.py:1]] {V}", "```", "",
        "```proposal", f"title: {V}", f"lands: {V}", f"file: core.py L1 · {V}", f"-{V}",
        f"+{V}", "```", "", f"::: aside {V}", V, ":::", "",
        f"[{V}](https://example.org/)", "", f"![{V}](pic.png)", "",
    ])
    (project.root / "content/acme/widgets/12/pic.png").write_bytes(b"\x89PNG\r\n")
    project.write("content/acme/widgets/12/cache-bug.md",
                  f"---\ntitle: {y(V)}\nquestion: {y(V)}\nstatus: open\norder: 1\n"
                  f"updated: 2026-01-05\nsummary:\n"
                  f"  before: {y(V)}\n  this_pr: {y(V)}\n  status: {y(V)}\n---\n{body}\n")
    result = cli("build")
    assert result.code == 0, result.err
    server, url = serve(project.site)
    yield url
    server.shutdown()
    server.server_close()


def test_no_vector_runs_in_any_page(browser: Browser, xss_site: str, project: Project) -> None:
    pages = sorted(p.relative_to(project.site).as_posix()
                   for p in project.site.rglob("*.html"))
    assert len(pages) >= 6
    context = browser.new_context()
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    for path in pages:
        seen = visit(page, xss_site + path, xss_site)
        foreign = [p for p in seen.problems if "evil.example" in p or "outside the site" in p]
        assert foreign == [], path
        handlers = page.evaluate("""() => [...document.querySelectorAll('*')].flatMap(e =>
            [...e.attributes].filter(a => a.name.startsWith('on')).map(a => e.tagName + ' ' + a.name))""")
        assert handlers == [], path
        scripts = page.evaluate("() => [...document.scripts].map(s => s.src || 'inline')")
        assert all(s.endswith("/assets/search.js") for s in scripts), (path, scripts)
        injected = "base, iframe, style, meta[http-equiv=refresh]"
        assert page.evaluate(f"() => document.querySelectorAll('{injected}').length") == 0
        page.mouse.move(200, 300)
        page.keyboard.press("Tab")
    context.close()
    assert dialogs == []


def test_every_field_shows_the_vectors_as_text(xss_site: str, project: Project) -> None:
    page = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    visible = page.count("&lt;script&gt;alert(1)&lt;/script&gt;")
    assert visible >= len(FIELDS) - 4  # a few fields (ids, alt text) hold it in attributes
    assert re.search(r'<h2 id="heading-script-alert-1-script[^"]*">', page)
    assert "{{ 7*7 }}{% raw %}" in page  # content never reaches the template engine
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', page)
    assert csp and "script-src 'self'" in csp[1] and "default-src 'self'" in csp[1]


def test_the_counts_in_the_note() -> None:
    assert (len(VECTORS), len(FIELDS)) == (16, 30)
