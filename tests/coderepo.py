"""A small git repository with known code, made the same way every time (fixed dates), to
check pages against: its commit SHAs are the same on every machine."""

from __future__ import annotations

from pathlib import Path

from .conftest import git

CHECKPOINT_V1 = """\
import os


def save(step, wait_fn=None):
    \"\"\"Save a checkpoint; "async" | "sync" says which.\"\"\"
    tag = wait_fn is not None
    if wait_fn is not None:
        wait_fn()
    return tag


def load(step):
    pass


def drop(step):
    pass
"""
CHECKPOINT_V2 = CHECKPOINT_V1.replace("    tag = wait_fn is not None\n",
                                      "    tag = wait_fn is not None and step > 0\n")
SPANS = "# Spans\n\nThe finalize span says how long a save took.\n"


def make_code_repo(folder: Path) -> tuple[Path, list[str]]:
    """The repository and its commits, oldest first: v1, then v2 (the PR head), then one
    more commit that no page pins."""
    folder.mkdir(parents=True)
    git(folder, "init", "-q", "-b", "main")
    (folder / "src/app").mkdir(parents=True)
    (folder / "docs").mkdir()
    commits = []
    for n, text in enumerate((CHECKPOINT_V1, CHECKPOINT_V2, CHECKPOINT_V2 + "# later\n"), 1):
        (folder / "src/app/checkpoint.py").write_text(text)
        (folder / "docs/spans.md").write_text(SPANS)
        git(folder, "add", "-A")
        git(folder, "commit", "-q", "-m", f"commit {n}")
        commits.append(git(folder, "rev-parse", "HEAD"))
    return folder, commits
