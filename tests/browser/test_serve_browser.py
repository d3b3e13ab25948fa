"""`site-gen serve`: an edit shows up in the open page by itself; errors show, then clear."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, Route, expect

from ..conftest import Project

PAGE = "acme/widgets/12/cache-bug/"


@pytest.fixture
def server(project: Project) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    process = subprocess.Popen([sys.executable, "-m", "site_gen", "serve", "--port", "0"],
                               cwd=project.root, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    assert process.stdout
    output = []
    try:
        for line in process.stdout:
            output.append(line)
            m = re.match(r"Serving on (http://127\.0\.0\.1:\d+/)", line)
            if m:
                break
        else:
            pytest.fail("the server did not start:\n" + "".join(output))
        yield m[1], process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()


def test_edits_and_errors_show_without_a_manual_reload(
        page: Page, project: Project, server: tuple[str, subprocess.Popen[str]]) -> None:
    url, process = server
    page.goto(url + PAGE)
    expect(page.locator("h1")).to_have_text("Why the cache never hits")

    page_file = project.root / "content/acme/widgets/12/cache-bug.md"
    good = page_file.read_text()
    page_file.write_text(good.replace("The key is built in", "Live edit: the key is built in"))
    expect(page.locator(".body")).to_contain_text("Live edit: the key is built in", timeout=15000)

    page_file.write_text(good.replace("status: open", "status: opne"))
    expect(page.locator("h1")).to_have_text("Build failed", timeout=15000)
    expect(page.locator(".build-errors")).to_contain_text(
        "content/acme/widgets/12/cache-bug.md:5: unknown status 'opne'; did you mean 'open'? "
        "expected one of: unresolved (or open), fixed, proposed, wontfix")

    page_file.write_text(good)
    expect(page.locator("h1")).to_have_text("Why the cache never hits", timeout=15000)

    process.send_signal(signal.SIGINT)  # Ctrl-C
    assert process.wait(timeout=10) == 0
    assert process.stdout
    said = process.stdout.read()
    assert "Stopped." in said
    # a save re-renders that page alone and writes that one file
    assert re.search(r"Rebuilt \d+ pages in [\d.]+ s \(1 file written\)", said), said


def test_a_save_while_the_page_is_still_loading_shows_too(
        page: Page, project: Project, server: tuple[str, subprocess.Popen[str]]) -> None:
    """A build that ends between the page arriving and its reload script asking for news
    (a fast rebuild and a slow page) must not be missed."""
    url, _ = server
    page_file = project.root / "content/acme/widgets/12/cache-bug.md"
    good = page_file.read_text()

    def save_before_the_script_runs(route: Route) -> None:
        with urllib.request.urlopen(url + "__site_gen/wait?version=", timeout=10) as response:
            seen = response.read().decode()
        page_file.write_text(good.replace("The key is built in", "Saved meanwhile: the key"))
        with urllib.request.urlopen(f"{url}__site_gen/wait?version={seen}", timeout=30) as response:
            assert response.read().decode() != seen, "the save was not rebuilt in time"
        route.continue_()

    page.route("**/__site_gen/reload.js*", save_before_the_script_runs)
    page.goto(url + PAGE)
    expect(page.locator(".body")).to_contain_text("Saved meanwhile: the key", timeout=15000)
