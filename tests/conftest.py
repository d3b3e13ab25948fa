"""Shared fixtures: a small project in a temporary folder, and running the CLI on it."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import textwrap
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from site_gen.cli import main

MKDOCS = """\
site_name: Test reviews
site_url: https://reviews.example.org/
docs_dir: content
"""

PR_YML = """\
repo: acme/widgets
number: 12
title: Make widgets faster
head: 1234567abcdef
state: open
code_unavailable: a made-up pull request of the tests
files:
  - src/widgets/core.py
  - src/widgets/util.py
  - docs/speed.md
"""

PAGE = """\
---
title: Why the cache never hits
question: the cache bug
order: 1
status: open
updated: 2026-01-05
summary:
  before: No cache.
  this_pr: Adds a cache.
  status: Still open.
---

The key is built in [[core.py:10]].
"""


def front(title: str = "T", question: str = "q", status: str = "open", order: int = 1) -> str:
    """Front matter in four lines ('---', three lines of fields, '---'): the body starts on
    line 6, as in a page of title, question and status, with order and updated too."""
    return (f"---\n{{title: {title}, order: {order}, updated: 2026-01-05,\n question: {question},\n"
            f" status: {status}}}\n---\n")



def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C reaches the site-gen processes the tests stop with it. A test run started in
    the background (`cmd &`, some CI runners) has SIGINT ignored, its children inherit
    that, and Python then never turns SIGINT into KeyboardInterrupt; a handled signal is
    reset to the default in a child, so handle it here as Python does from a terminal."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.hookimpl(trylast=True)  # after pytest-xdist's own
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The order the workers take the tests in: the long ones first (a long test taken
    last would keep one core busy alone at the end), the browser tests last (scripts/test
    may still be installing the browser while the others run). And, in a worker of
    `--dist loadgroup`, each test of an xdist_group named by it (see _name_the_group)."""
    def rank(item: pytest.Item) -> int:
        if item.get_closest_marker("long"):
            return 0
        return 2 if item.nodeid.startswith("tests/browser/") else 1

    items.sort(key=rank)  # stable: in each rank, the order of collection
    if getattr(config.option, "loadgroup", False):  # set in a worker of --dist loadgroup
        for item in items:
            _name_the_group(item)


def _name_the_group(item: pytest.Item) -> None:
    """A worker tells the scheduler a test's xdist_group by a suffix of its id
    ('tests/test_package.py::test_x@wheel'). pytest-xdist 3.8 writes that id where pytest
    9.2 no longer reads it (pytest-dev/pytest-xdist#1386): every test was then scheduled
    on its own, its group's set-up made again in each worker. Written here where pytest
    keeps it, when xdist's own did not take."""
    names = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                    for mark in item.iter_markers("xdist_group")})
    if names and item.nodeid.rfind("@") <= item.nodeid.rfind("]"):  # xdist's test of a suffix
        from _pytest.nodeid import NodeId

        item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")  # type: ignore[attr-defined]


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Which Chromium the browser tests ran in (they may run in pytest-xdist's workers,
    whose own output is not shown)."""
    reports = [r for kind in ("passed", "failed", "error") for r in terminalreporter.stats.get(kind, [])]
    if any(getattr(r, "nodeid", "").startswith("tests/browser/") for r in reports):
        from .browser.conftest import chromium_path

        executable, why = chromium_path()
        terminalreporter.write_line(f"browser tests ran in {executable or 'chromium'} ({why})")


@dataclass
class Project:
    """A site_gen project in a temporary folder."""

    root: Path

    def write(self, relative: str, text: str) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return path

    @property
    def site(self) -> Path:
        return self.root / "site"

    def snapshot_site(self) -> dict[str, bytes]:
        """Every file of the built site and its bytes, and site_gen's record of it."""
        record = self.root / ".site.site-gen"
        return {**tree(self.site), **({"<record>": record.read_bytes()} if record.exists() else {})}


def tree(folder: Path) -> dict[str, bytes]:
    """Every file below `folder` and its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Project:
    """A valid one-PR, one-page project; the working directory is its root."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SITE_URL", raising=False)
    p = Project(tmp_path)
    p.write("mkdocs.yml", MKDOCS)
    p.write("content/acme/widgets/12/pr.yml", PR_YML)
    p.write("content/acme/widgets/12/cache-bug.md", PAGE)
    return p


@dataclass
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """Run `site-gen ARGS...` in-process and capture what it prints."""

    def run(*args: str) -> Run:
        try:
            code = main(list(args))
        except SystemExit as exit_:
            code = int(exit_.code or 0)
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


CORE_V1 = "".join(f"line {n}\n" for n in range(1, 10)) + "key = make_key(user)\n" + \
    "".join(f"line {n}\n" for n in range(11, 21))


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True, env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                                          "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
                                          "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
                                          "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
                                          "PATH": "/usr/bin:/bin"}).stdout.strip()


def commit(repo: Path, files: dict[str, str | bytes], message: str = "head") -> str:
    """Write `files` (path in `repo`: text, or bytes as they are) and commit them, making
    the repository first when it is not one; the commit's SHA."""
    if not (repo / ".git").exists():
        repo.mkdir(parents=True, exist_ok=True)
        git(repo, "init", "-q", "-b", "main")
        git(repo, "config", "core.autocrlf", "false")
    for name, content in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            (repo / name).write_bytes(content)
        else:
            (repo / name).write_text(content)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def checkout(tmp_path: Path) -> tuple[Path, str, str]:
    """A repository with two commits; returns (path, first SHA, second SHA)."""
    repo = tmp_path / "upstream"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "src/widgets").mkdir(parents=True)
    (repo / "src/widgets/core.py").write_text(CORE_V1)
    (repo / "src/widgets/util.py").write_text("def helper():\n    return 1\n")
    (repo / "src/gears").mkdir()
    (repo / "src/gears/util.py").write_text("x = 1\n")
    (repo / "README.md").write_text("# Widgets\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "first")
    first = git(repo, "rev-parse", "HEAD")
    (repo / "src/widgets/core.py").write_text(CORE_V1.replace("make_key(user)", "make_key(user, scope)"))
    git(repo, "commit", "-q", "-am", "second")
    return repo, first, git(repo, "rev-parse", "HEAD")


@contextlib.contextmanager
def serving(folder: Path, rebuild: Callable[[set[Path] | None], list[str]],
            watch: Iterable[Path], capfd: pytest.CaptureFixture[str]
            ) -> Iterator[tuple[int, threading.Thread]]:
    """`site-gen serve`'s server on `folder` in a thread of this process: its port and the
    thread once it serves; stopped after, with no traceback printed."""
    from site_gen.serve import serve

    stop, up = threading.Event(), threading.Event()
    ready: list[str] = []
    thread = threading.Thread(target=serve, args=(folder, 0, rebuild, list(watch)),
                              kwargs={"ready": lambda url: (ready.append(url), up.set()),
                                      "stop": stop}, daemon=True)
    thread.start()
    while not up.wait(0.5):  # however long the machine takes, while the server lives
        assert thread.is_alive(), capfd.readouterr().err
    try:
        yield int(ready[0].split(":")[2].split("/")[0]), thread
        assert thread.is_alive(), capfd.readouterr().err
    finally:
        stop.set()
        thread.join(timeout=10)
    assert "Traceback" not in capfd.readouterr().err
