"""The development server: serves a folder, rebuilds on change, reloads open pages.

It knows nothing about how a build works: it is given a `rebuild()` that returns the
problems of the build (an empty list when it succeeded) and the folder to serve. While
there are problems, every page is an error page that lists them, each with the lines of
the file it names around its line, as the terminal cannot show them.
"""

from __future__ import annotations

import functools
import http.server
import re
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from markupsafe import escape

from .errors import ContentError, ContentWarning, SiteGenError
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
        self.problems: list[Problem] = []
        self.building = False  # a build after a save is writing the folder
        self.changed = threading.Condition()

    def settled(self) -> tuple[int, list[Problem]]:
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

    def publish(self, problems: list[Problem]) -> None:
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


AROUND = 2  # lines of the file shown before and after a problem's line
SHOWN_WIDTH = 240  # characters of each of those lines


@dataclass(frozen=True)
class Problem:
    """One problem the error page shows: as the terminal says it, and the lines of the file
    it names around its line, each with its number (none when it names no line)."""

    text: str
    line: int | None = None
    lines: tuple[tuple[int, str], ...] = ()

    @classmethod
    def of(cls, problem: SiteGenError | ContentWarning, note: str = "") -> Problem:
        """`problem` as the page shows it, `note` after its text; its file read now."""
        text = str(problem) + note
        path, line = (problem.path, problem.line) if isinstance(
            problem, (ContentError, ContentWarning)) else (None, None)
        if path is None or line is None:
            return cls(text)
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return cls(text)
        first = max(1, line - AROUND)
        last = min(len(lines), line + AROUND)
        shown = tuple((n, lines[n - 1][:SHOWN_WIDTH]) for n in range(first, last + 1))
        return cls(text, line, shown)


ERROR_STYLE = """\
:root { color-scheme: light dark; --bg: #fff; --fg: #1f2328; --muted: #59636e; --bad: #cf222e;
  --at: #ffebe9; --code: #f6f8fa; --edge: #d1d9e0; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1;
  --bad: #ff7b72; --at: #3c1618; --code: #151b23; --edge: #3d444d; } }
body { margin: 0; background: var(--bg); color: var(--fg); font: 1rem/1.5 system-ui, sans-serif; }
main { max-width: 60rem; margin: 0 auto; padding: 1.5rem 1rem; }
h1 { margin: 0 0 .25rem; font-size: 1.5rem; color: var(--bad); }
ol { list-style: none; margin: 1.5rem 0 0; padding: 0; }
li { margin: 0 0 1.5rem; padding-left: .75rem; border-left: 4px solid var(--bad); }
code, pre { font: .875rem/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
li > code { white-space: pre-wrap; overflow-wrap: anywhere; }
pre { display: grid; margin: .5rem 0 0; padding: .5rem 0; overflow-x: auto; background: var(--code);
  border: 1px solid var(--edge); border-radius: 6px; }
pre span { display: block; padding: 0 .75rem; white-space: pre; }
pre .at { background: var(--at); box-shadow: inset 3px 0 var(--bad); }
pre b { display: inline-block; min-width: 4ch; margin-right: 1ch; text-align: right;
  font-weight: normal; color: var(--muted); user-select: none; }
"""


AT = ' class="at"'  # the line a problem names, among those shown


def error_page(problems: list[Problem], version: int) -> bytes:
    """The page every address shows while the build fails: each problem, then the lines
    it names (the line itself marked, for a screen and without colour)."""
    items = []
    for problem in problems:
        rows = "".join(f"<span{AT if n == problem.line else ''}><b>{n}</b>{escape(text)}</span>"
                       for n, text in problem.lines)
        label = f' aria-label="the file around line {problem.line}"' if rows else ""
        items.append(f"<li><code>{escape(problem.text)}</code>"
                     + (f"<pre{label}>{rows}</pre>" if rows else "") + "</li>")
    count = f"{len(problems)} problem" + ("" if len(problems) == 1 else "s")
    return (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>Build failed: {count}</title><style>{ERROR_STYLE}</style></head><body><main>"
            f"<h1>Build failed</h1><p>{count}. Fix them and save; this page reloads by itself."
            f"</p><ol class=\"build-errors\">{''.join(items)}</ol></main>{reload_tag(version)}"
            f"</body></html>").encode()


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


def serve(folder: Path, port: int, rebuild: Callable[[set[Path] | None], list[Problem]],
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
