"""The development server: serves a folder, rebuilds on change, reloads open pages.

It knows nothing about how a build works: it is given a `rebuild()` that returns the
problems of the build (an empty list when it succeeded) and the folder to serve.
"""

from __future__ import annotations

import functools
import http.server
import re
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import unquote

from markupsafe import escape

from .errors import SiteGenError
from .processes import Terminated

RELOAD_PATH = "/__site_gen/"
RELOAD_SCRIPT = """\
// Added by `site-gen serve` only: reload this page when the site is rebuilt.
// It starts from the build the page came from (in this script's address), so a build that
// ends while the page is still loading reloads it too.
const served = new URL(document.currentScript.src).searchParams.get("version");
(async () => {
  let version = served;
  for (;;) {
    try {
      const response = await fetch("/__site_gen/wait?version=" + (version ?? ""), { cache: "no-store" });
      const next = await response.text();
      if (version !== null && next !== version) { location.reload(); return; }
      version = next;
    } catch (error) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
})();
"""
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
SEARCH_STATUS = b'<p id="search-status" role="status"></p>'
NO_INDEX = b"This preview has no search index: site-gen build makes it."
BUILD_WAIT = 60.0  # seconds a request waits for the build that runs (see LiveState.settled)


class LiveState:
    """The served build's version and problems, shared between the watcher and requests."""

    def __init__(self) -> None:
        self.version = 0
        self.problems: list[str] = []
        self.building = False  # a build after a save is writing the folder
        self.changed = threading.Condition()

    def settled(self) -> tuple[int, list[str]]:
        """The current build's version and problems, read together once no build is
        running: a request made while one runs waits for it, as MkDocs' server does, so
        it never reads a site half written (a page new, the listing that links it not
        yet) and shows the save it was made after. A build that takes longer than
        BUILD_WAIT seconds lets it read the folder as it is."""
        with self.changed:
            self.changed.wait_for(lambda: not self.building, timeout=BUILD_WAIT)
            return self.version, self.problems

    def start(self) -> None:
        with self.changed:
            self.building = True

    def publish(self, problems: list[str]) -> None:
        with self.changed:
            self.version += 1
            self.problems = problems
            self.building = False
            self.changed.notify_all()

    def wait(self, seen: str, timeout: float = 20.0) -> int:
        with self.changed:
            self.changed.wait_for(lambda: str(self.version) != seen, timeout=timeout)
            return self.version


def reload_tag(version: int) -> str:
    """The reload script, told which build the page it is added to came from."""
    return f'<script src="{RELOAD_PATH}reload.js?version={version}"></script>'


def error_page(problems: list[str], version: int) -> bytes:
    items = "".join(f"<li><code>{escape(p)}</code></li>" for p in problems)
    return (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>Build failed</title></head><body><main><h1>Build failed</h1>"
            f"<p>Fix these and save; this page reloads by itself.</p><ul class=\"build-errors\">"
            f"{items}</ul></main>{reload_tag(version)}</body></html>").encode()


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files from the build, the reload script, and the error page while broken."""

    state: LiveState

    def log_message(self, format: str, *args: object) -> None:
        pass

    def parse_request(self) -> bool:
        """Refuse what a browser on this machine would never send: a Host other than the
        preview's own (DNS rebinding would let another site read the preview), and paths
        with control characters (a NUL makes the file system calls fail)."""
        if not super().parse_request():
            return False
        port = getattr(self.server, "server_port", 0)
        if self.headers.get("Host", "") not in (f"127.0.0.1:{port}", f"localhost:{port}"):
            self.send_error(421, "Misdirected request: this preview answers only to its own address")
            return False
        if CONTROL.search(unquote(self.path)):
            self.send_error(400, "Bad request: control characters in the path")
            return False
        return True

    def do_GET(self) -> None:
        if self.path.startswith(RELOAD_PATH):  # the reload script's own wait, and the script
            self._reload_endpoint()
            return
        # the version is read before the files: a page newer than it only reloads once more
        version, problems = self.state.settled()
        if problems and (self.path.endswith("/") or self.path.endswith(".html")):
            self._send(error_page(problems, version), "text/html; charset=utf-8", 200)
        elif self.path.split("?")[0].endswith(("/", ".html")):
            self._html_with_reload(version)
        else:
            super().do_GET()

    def _reload_endpoint(self) -> None:
        if self.path.startswith(RELOAD_PATH + "reload.js"):
            self._send(RELOAD_SCRIPT.encode(), "text/javascript; charset=utf-8", 200)
            return
        seen = self.path.partition("version=")[2]
        version = self.state.version if not seen else self.state.wait(seen)
        self._send(str(version).encode(), "text/plain", 200)

    def _html_with_reload(self, version: int) -> None:
        path = Path(self.translate_path(self.path.split("?")[0]))
        if path.is_dir():
            path = path / "index.html"
        if not path.is_file():
            path, status = Path(self.directory) / "404.html", 404
        else:
            status = 200
        try:
            html = path.read_bytes()
        except OSError:
            self.send_error(404)
            return
        if not (Path(self.directory) / "pagefind").is_dir():  # previews skip the index
            html = html.replace(SEARCH_STATUS, SEARCH_STATUS.replace(b"></p>", NO_INDEX + b"</p>"))
        html = html.replace(b"</body>", reload_tag(version).encode() + b"</body>", 1)
        self._send(html, "text/html; charset=utf-8", status)

    def _send(self, body: bytes, kind: str, status: int) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


class _Server(http.server.ThreadingHTTPServer):
    """The preview's server: a client that goes away before its answer is sent (a reload,
    a closed tab) is nothing to report."""

    def handle_error(self, request: object, client_address: object) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):  # reset, broken pipe, aborted
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


def _bind(port: int, handler: Callable[..., Handler]) -> http.server.ThreadingHTTPServer:
    if not 0 <= port <= 65535:
        raise SiteGenError(f"port {port} is not a port; expected 0 to 65535 (0 picks a free one)")
    try:
        return _Server(("127.0.0.1", port), handler)
    except OSError as exc:
        raise SiteGenError(f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc}; choose "
                           "another port with --port (0 picks a free one)") from None


def serve(folder: Path, port: int, rebuild: Callable[[set[Path] | None], list[str]],
          watch: Iterable[Path], *, ready: Callable[[str], None] = print,
          stop: threading.Event | None = None) -> None:
    """Build once, serve `folder` on 127.0.0.1:`port`, rebuild on every change under `watch`
    (`rebuild` is given the paths that changed; None the first time)."""
    from watchfiles import watch as watch_changes

    state = LiveState()
    handler = functools.partial(type("BoundHandler", (Handler,), {"state": state}),
                                directory=str(folder))
    server = _bind(port, handler)  # before the first build: a busy port fails at once
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    stop = stop or threading.Event()
    try:  # Ctrl-C or SIGTERM at any point from here, even the first build, stops cleanly
        state.publish(rebuild(None))
        thread.start()
        ready(f"Serving on http://127.0.0.1:{server.server_port}/ (Ctrl-C to stop)")
        # a save shows within `step` ms of quiet after it (an editor's save is several events)
        for changes in watch_changes(*[p for p in watch if p.exists()], stop_event=stop,
                                     debounce=400, step=10):
            state.start()
            state.publish(rebuild({Path(path) for _, path in changes}))
    except (KeyboardInterrupt, Terminated):
        pass  # stop serving, and let the caller clean up
    finally:
        if thread.is_alive():
            server.shutdown()
        server.server_close()
        with state.changed:  # a request waiting for a build that will not end reads on
            state.building = False
            state.changed.notify_all()
