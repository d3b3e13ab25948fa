"""The preview's server while it builds: what a request made during a build gets."""

from __future__ import annotations

import http.client
import itertools
import threading
from pathlib import Path

import pytest

from site_gen.serve import LiveState

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

    def arrived(state: LiveState) -> tuple[int, list[str]]:  # the request reached the server
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
