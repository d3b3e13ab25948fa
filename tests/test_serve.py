"""The preview's server while it builds: what a request made during a build gets."""

from __future__ import annotations

import http.client
import itertools
import threading
from pathlib import Path

import pytest

from site_gen.serve import LiveState, Problem

from .conftest import serving


def test_a_request_made_while_a_build_runs_waits_for_it_and_reads_what_it_wrote(
        tmp_path: Path, capfd: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As MkDocs' server does: a page asked for while a build after a save writes the
    folder is answered once that build is done, so it never reads a site half written,
    and shows the save it was asked for after. The reload script's own wait does not
    wait for the build."""
    site, content = tmp_path / "site", tmp_path / "content"
    site.mkdir()
    content.mkdir()
    (site / "index.html").write_text("<p>before the save</p></body>")
    building, release, asked = threading.Event(), threading.Event(), threading.Event()
    settled = LiveState.settled

    def arrived(state: LiveState) -> tuple[int, list[Problem]]:  # the request reached the server
        asked.set()
        return settled(state)

    monkeypatch.setattr(LiveState, "settled", arrived)

    def rebuild(changed: set[Path] | None) -> list[str]:
        if changed is not None:  # a save: the build holds until the test lets it write
            building.set()
            release.wait()
            (site / "index.html").write_text("<p>the saved page</p></body>")
        return []

    with serving(site, rebuild, [content], capfd) as (port, server):
        def get(path: str) -> str:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            connection.request("GET", path)
            body = connection.getresponse().read().decode()
            connection.close()
            return body

        try:
            for n in itertools.count():  # saved again until the watcher, once set up, sees it
                (content / "page.md").write_text(f"save {n}")
                if building.wait(0.5):
                    break
                assert server.is_alive(), capfd.readouterr().err
            answers: list[str] = []
            asking = threading.Thread(target=lambda: answers.append(get("/")))
            asking.start()
            assert get("/__site_gen/wait") == "1"  # the script's wait answers at once: build 1
            while not asked.wait(0.5):  # the page is asked for before the build may write
                assert asking.is_alive() and server.is_alive(), capfd.readouterr().err
        finally:
            release.set()
        asking.join()
        assert "<p>the saved page</p>" in answers[0]  # not the page from before the save
        assert 'reload.js?version=2"' in answers[0]  # the build it waited for


def test_the_error_page_shows_each_problem_with_the_lines_it_names(tmp_path: Path) -> None:
    """As Hugo's and Vite's servers do: the file's lines around a problem's line, numbered,
    that line marked (a class, and an edge that needs no colour), its text escaped; a
    problem that names no line is its text alone; light and dark, readable on a phone,
    nothing loaded from elsewhere."""
    from site_gen.errors import ContentError, ContentWarning, SiteGenError
    from site_gen.serve import error_page

    page = tmp_path / "page.md"
    page.write_text("---\ntitle: T\nstatus: opne\n---\n\nA <script>x</script> line.\n")
    problems = [Problem.of(ContentError("unknown status 'opne'", page, 3)),
                Problem.of(ContentWarning("unpinned link", page, 6), " (a warning)"),
                Problem.of(SiteGenError("the code of acme/widgets is not here")),
                Problem.of(ContentError("gone", tmp_path / "missing.md", 2))]
    assert [p.lines for p in problems] == [
        ((1, "---"), (2, "title: T"), (3, "status: opne"), (4, "---"), (5, "")),
        ((4, "---"), (5, ""), (6, "A <script>x</script> line.")), (), ()]
    assert problems[1].text.endswith("page.md:6: unpinned link (a warning)")
    html = error_page(problems, 3).decode()
    assert "<title>Build failed: 4 problems</title>" in html
    assert '<span class="at"><b>3</b>status: opne</span>' in html
    assert "<b>6</b>A &lt;script&gt;x&lt;/script&gt; line." in html and "<script>x" not in html
    assert html.count("<pre") == 2 and html.count("<li>") == 4
    assert "prefers-color-scheme: dark" in html and 'name="viewport"' in html
    assert "http" not in html.replace('lang="en"', "")  # no address of another host
    assert 'reload.js?version=3"' in html
