"""Code on the page in Chromium with JavaScript off, on a PR whose commits the test has:
keyboard focus on a reference shows the lines it cites (printing leaves them out), an
excerpt and the PR's own change."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, expect

from ..coderepo import make_code_repo
from ..conftest import Project, Run, front
from .conftest import serve

CLI = Callable[..., Run]


def test_keyboard_focus_shows_the_cited_lines(browser: Browser, project: Project, cli: CLI,
                                              tmp_path: Path) -> None:
    repo, commits = make_code_repo(tmp_path / "code")
    project.write("content/acme/widgets/12/pr.yml", f"repo: acme/widgets\nnumber: 12\ntitle: T\n"
                  f"head: {commits[1]}\nbase: {commits[0]}\nstate: open\n")
    project.write("content/acme/widgets/12/cache-bug.md", front() +
                  "The tag is set at [[src/app/checkpoint.py:4-16]] and used later.\n\n"
                  "```excerpt\n[[src/app/checkpoint.py:5-7]]\nhighlight: 6\n```\n\n"
                  "```pr-diff\n[[src/app/checkpoint.py]]\n```\n")
    built = cli("build", "--no-search", "--checkout", str(repo))
    assert built.code == 0, built.err
    server, url = serve(project.site)
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(url + "acme/widgets/12/cache-bug/")
        preview = page.locator(".body .ref-preview").first
        expect(preview).to_be_hidden()
        for _ in range(40):  # Tab through the page to the reference
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.closest('.body .ref-wrap') !== null"):
                break
        expect(preview).to_be_visible()
        text = preview.inner_text()
        assert "def save(step, wait_fn=None):" in text and "… 5 more lines" in text
        page.emulate_media(media="print")
        expect(preview).to_be_hidden()
        page.emulate_media(media="screen")
        page.locator("body").click(position={"x": 1, "y": 1})  # focus leaves the reference
        expect(preview).to_be_hidden()
        page.locator(".body .ref-peek").first.focus()  # what a tap on a phone does, no navigation
        expect(preview).to_be_visible()
        assert page.url.endswith("/acme/widgets/12/cache-bug/")
        page.emulate_media(media="screen")
        expect(page.locator("figure.excerpt tr.excerpt-marked")).to_contain_text(
            "tag = wait_fn is not None and step > 0")
        expect(page.locator("section.proposal tr.diff-add")).to_contain_text(
            "tag = wait_fn is not None and step > 0")
    finally:
        context.close()
        server.shutdown()
        server.server_close()
