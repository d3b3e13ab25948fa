"""Real-browser fixtures: the built site served on 127.0.0.1, and a Chromium found on the
machine: $SITE_GEN_CHROMIUM, else Debian's /usr/bin/chromium, else Playwright's own."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from site_gen.build import render_site
from site_gen.config import load_config
from site_gen.output import write_site

ROOT = Path(__file__).resolve().parents[2]
DEBIAN_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@functools.cache
def _build(folder: Path) -> Path:
    write_site(folder, render_site(load_config(ROOT / "mkdocs.yml")).outputs)
    return folder


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real content, built once for the session."""
    return _build(tmp_path_factory.mktemp("built") / "site")


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve `folder` on 127.0.0.1 at a free port; returns (server, base URL)."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}/"


@pytest.fixture(scope="session")
def base_url(site_dir: Path) -> Iterator[str]:
    server, url = serve(site_dir)
    yield url
    server.shutdown()
    server.server_close()


def chromium_path(environ: dict[str, str] | None = None) -> tuple[str | None, str]:
    """Which Chromium the browser tests use, and why: (executable or None for Playwright's
    own, a description)."""
    environ = dict(os.environ) if environ is None else environ
    if environ.get("SITE_GEN_CHROMIUM"):
        return environ["SITE_GEN_CHROMIUM"], "$SITE_GEN_CHROMIUM"
    if shutil.which(DEBIAN_CHROMIUM):
        return DEBIAN_CHROMIUM, "Debian's chromium package"
    return None, "Playwright's own Chromium (playwright install chromium)"


@pytest.fixture(scope="session")
def browser(pytestconfig: pytest.Config) -> Iterator[Browser]:
    executable, why = chromium_path()  # named in the run's summary (tests/conftest.py)
    with sync_playwright() as p:
        try:
            chromium = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        except Exception as error:  # noqa: BLE001 - say which browser, then fail
            pytest.fail(f"cannot start {executable or 'Playwright Chromium'} ({why}): {error}")
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    yield tab
    context.close()
