"""Real-browser fixtures: the built site served on 127.0.0.1, and a Chromium found on the
machine: $SITE_GEN_CHROMIUM, else Debian's /usr/bin/chromium, else Playwright's own."""

from __future__ import annotations

import fcntl
import functools
import http.server
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Error, Page, sync_playwright

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


def wait_for_the_install(environ: dict[str, str] | None = None) -> None:
    """Until the install of Debian's Chromium that scripts/test started in the background
    has ended: it holds a lock on the file $SITE_GEN_CHROMIUM_INSTALL names (its log is
    beside it)."""
    environ = dict(os.environ) if environ is None else environ
    if not environ.get("SITE_GEN_CHROMIUM_INSTALL"):
        return
    lock = Path(environ["SITE_GEN_CHROMIUM_INSTALL"])
    with lock.open("rb") as held:
        fcntl.flock(held, fcntl.LOCK_SH)  # blocks while the install runs
    if not shutil.which(DEBIAN_CHROMIUM):
        log = lock.with_name("log")
        pytest.fail(f"installing Debian's chromium failed:\n{log.read_text() if log.exists() else ''}")


@pytest.fixture(scope="session")
def browser(pytestconfig: pytest.Config) -> Iterator[Browser]:
    wait_for_the_install()
    executable, why = chromium_path()  # named in the run's summary (tests/conftest.py)
    with sync_playwright() as p:
        try:
            chromium = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        except Exception as error:  # noqa: BLE001 - say which browser, then fail
            pytest.fail(f"cannot start {executable or 'Playwright Chromium'} ({why}): {error}")
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def context(browser: Browser) -> Iterator[BrowserContext]:
    """The worker's one browser context. A context costs about 0.8 s of CPU to open, a page
    in one a seventh of that, and the browser tests open over a hundred pages: each test
    takes pages of this one (new_tab), set up as a context of its own would be."""
    shared = browser.new_context()
    yield shared
    shared.close()


def open_tab(context: BrowserContext, width: int = 1280, height: int = 900,
             scheme: str = "light") -> Page:
    """A new page of `context`, `width` x `height` px, in the light or dark `scheme`, with
    the HTTP cache off: each load asks the server for everything, as a first visit does
    (a failed or foreign request is seen by every test that loads the page)."""
    tab = context.new_page()
    context.new_cdp_session(tab).send("Network.setCacheDisabled", {"cacheDisabled": True})
    return _set_up(tab, width, height, scheme)


def _set_up(tab: Page, width: int, height: int, scheme: str) -> Page:
    tab.set_viewport_size({"width": width, "height": height})
    tab.emulate_media(media="screen", color_scheme=scheme)  # type: ignore[arg-type]  # not print
    return tab


class Tabs:
    """The worker's pages (open_tab), each a test's own while it runs. A page a test is done
    with is emptied (about:blank; the routes and listeners the test added taken off) and
    set up for the next test that asks, as open_tab sets up a new one: opening a page
    costs about 0.3 s of CPU, as much as loading the model page in it."""

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        self.idle: list[Page] = []
        self.own: dict[Page, dict[str, list[Callable[..., Any]]]] = {}  # Playwright's listeners

    def take(self, width: int = 1280, height: int = 900, scheme: str = "light") -> Page:
        if self.idle:
            return _set_up(self.idle.pop(), width, height, scheme)
        tab = open_tab(self.context, width, height, scheme)
        self.own[tab] = _listeners(tab)
        return tab

    def give_back(self, tab: Page) -> None:
        if tab.is_closed():
            return
        try:
            own = self.own[tab]
            emitter = tab._impl_obj  # Playwright's own page (an EventEmitter): Page.on adds there
            for event, handlers in _listeners(tab).items():
                for handler in handlers:
                    if handler not in own.get(event, ()):
                        emitter.remove_listener(event, handler)
            tab.unroute_all(behavior="ignoreErrors")
            tab.goto("about:blank")
        except Error:  # a page the test left unusable is not used again
            tab.close()
            return
        self.idle.append(tab)


def _listeners(tab: Page) -> dict[str, list[Callable[..., Any]]]:
    emitter = tab._impl_obj
    return {event: list(emitter.listeners(event)) for event in emitter.event_names()}


@pytest.fixture(scope="session")
def tabs(context: BrowserContext) -> Tabs:
    return Tabs(context)


NewTab = Callable[..., Page]


@pytest.fixture
def new_tab(tabs: Tabs) -> Iterator[NewTab]:
    """A page for the test, `width` x `height` px, light or dark (see open_tab); given back
    after it (see Tabs)."""
    taken: list[Page] = []

    def new(width: int = 1280, height: int = 900, scheme: str = "light") -> Page:
        taken.append(tabs.take(width, height, scheme))
        return taken[-1]

    yield new
    for tab in taken:
        tabs.give_back(tab)


@pytest.fixture
def page(new_tab: NewTab) -> Page:
    """A 1280 x 900 page, light."""
    return new_tab()
