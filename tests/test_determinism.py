"""Same input, same bytes: whatever the folder, listing order, locale, time zone or hour."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.sample import write_site

from .conftest import tree

ROOT = Path(__file__).resolve().parent.parent


def copy_in_reverse(source: Path, target: Path) -> None:
    """Copy a project creating entries in the opposite order, so listings differ."""
    for path in sorted(source.rglob("*"), reverse=True):
        destination = target / path.relative_to(source)
        if path.is_dir():
            destination.mkdir(parents=True, exist_ok=True)
        else:
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)


def build(project: Path, **env: str) -> dict[str, bytes]:
    done = subprocess.run([sys.executable, "-m", "site_gen", "build"],
                          cwd=project, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **env})
    assert done.returncode == 0, done.stderr
    record = json.loads((project / ".site.site-gen").read_text())
    for copy in record["copies"].values():
        del copy["inode"]  # of the folder it describes: the one fact of the machine
    return {**tree(project / "site"), "<record>": json.dumps(record, sort_keys=True).encode()}


def test_two_builds_are_byte_identical(tmp_path: Path) -> None:
    first = tmp_path / "one" / "project"
    first.mkdir(parents=True)
    write_site(first, 30)
    (first / "content/org0/repo0/1/figure.png").write_bytes(bytes(range(256)))
    second = tmp_path / "elsewhere" / "deeper" / "project"
    copy_in_reverse(first, second)

    a = build(first, TZ="UTC", LC_ALL="C.UTF-8", LANG="C.UTF-8", PYTHONHASHSEED="1")
    time.sleep(1.1)  # another second on the clock
    b = build(second, TZ="Pacific/Kiritimati", LC_ALL="C", LANG="tr_TR.UTF-8",
              PYTHONHASHSEED="2")
    assert sorted(a) == sorted(b)
    assert [name for name in a if a[name] != b[name]] == []
    assert any(name.startswith("pagefind/") for name in a)
    html = b"".join(a[name] for name in a if name.endswith(".html"))
    for folder in (str(first).encode(), str(second).encode(), b"/tmp/"):
        assert folder not in html
