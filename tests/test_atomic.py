"""A build killed at any moment (SIGKILL) leaves the previous site whole."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.sample import write_site

from .conftest import Project, tree


def processes_in(folder: Path, wait: float = 60.0) -> list[int]:
    """Processes still running with `folder` as their working directory, once none is or
    `wait` seconds have passed (a busy machine may take its time to end them)."""
    deadline = time.monotonic() + wait
    while True:
        found = []
        for proc in Path("/proc").iterdir():
            try:
                if (proc.name.isdigit() and int(proc.name) != os.getpid()
                        and Path(os.readlink(proc / "cwd")) == folder):
                    found.append(int(proc.name))
            except OSError:
                continue
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def build(project: Project, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "site_gen", "build", "--no-cache", *args],
                            cwd=project.root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.mark.parametrize("fraction", [0.1, 0.4, 0.7, 0.95, 1.05])
def test_a_killed_build_leaves_the_old_site_or_the_new_one(project: Project,
                                                             fraction: float) -> None:
    write_site(project.root, 30)
    assert build(project).wait() == 0
    old = tree(project.site)
    page = sorted((project.root / "content").rglob("p-*.md"))[3]
    page.write_text(page.read_text().replace("The tag's value", "The tag's whole value"))
    started = time.perf_counter()
    assert build(project, "--site-dir", "expected").wait() == 0
    duration = time.perf_counter() - started
    new = tree(project.root / "expected")
    assert new != old

    victim = build(project)
    time.sleep(duration * fraction)
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    assert tree(project.site) in (old, new)
    assert processes_in(project.root) == []  # its worker processes died with it

    assert build(project).wait() == 0  # the next build cleans up whatever the kill left
    assert tree(project.site) == new
    # beside it only its two copies, the lock and the record: no half-built folder or link
    assert sorted(p.name for p in project.root.iterdir() if p.name.startswith(".site")) == [
        ".site.a", ".site.b", ".site.lock", ".site.site-gen"]


def test_a_failed_index_step_leaves_the_old_site(project: Project) -> None:
    assert build(project).wait() == 0
    old = tree(project.site)
    project.write("content/acme/widgets/12/cache-bug.md",
                  (project.root / "content/acme/widgets/12/cache-bug.md").read_text() + "\nMore.\n")
    # Pagefind that fails: the binary it is started as (the pagefind package's own knob)
    failing = subprocess.run([sys.executable, "-m", "site_gen", "build"], cwd=project.root,
                             capture_output=True, text=True,
                             env={**os.environ, "PAGEFIND_BINARY_PATH": "/bin/false"})
    assert failing.returncode == 1, failing.stderr
    assert failing.stderr == "search index failed (pagefind exit 1): no output\n"
    assert tree(project.site) == old
