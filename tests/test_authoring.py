"""Authoring commands: new, check, and build progress."""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import yaml

from .conftest import Project, Run

CLI = Callable[..., Run]
ROOT = Path(__file__).resolve().parent.parent


def test_new_creates_a_pr_folder_that_builds(project: Project, cli: CLI) -> None:
    result = cli("new", "acme/gears#7", "--head", "ABCDEF1234", "--title", "Gear: ratios",
                 "--question", "Why does rounding drift?")
    assert result.code == 0, result.err
    assert result.out.splitlines() == ["Created content/acme/gears/7/pr.yml",
                                       "Created content/acme/gears/7/why-does-rounding-drift.md"]
    facts = yaml.safe_load((project.root / "content/acme/gears/7/pr.yml").read_text())
    assert facts == {"repo": "acme/gears", "number": 7, "title": "Gear: ratios",
                     "head": "abcdef1234", "state": "open", "files": ["path/to/module.py"]}
    page = (project.root / "content/acme/gears/7/why-does-rounding-drift.md").read_text()
    for part in ("summary:", "[[module.py:12]]", ":badge[open]", "```flow", "```proposal",
                 "::: review", "::: aside"):
        assert part in page
    assert cli("check").code == 0
    built = cli("build", "--no-search")
    assert built.code == 0, built.err
    html = (project.site / "acme/gears/7/why-does-rounding-drift/index.html").read_text()
    assert "blob/abcdef1234/path/to/module.py#L12" in html


def test_new_refuses_to_overwrite_and_bad_arguments(project: Project, cli: CLI) -> None:
    assert cli("new", "acme/gears#7", "--head", "abcdef1").code == 0
    again = cli("new", "acme/gears#7", "--head", "abcdef1")
    assert (again.code, again.err) == (1, "content/acme/gears/7: acme/gears#7 already has a "
                                          "folder; site-gen new never overwrites (add a page to "
                                          "it by hand)\n")
    assert cli("new", "acme/gears", "--head", "abcdef1").err == (
        "'acme/gears' is not a pull request; expected OWNER/REPO#NUMBER, like NVIDIA-NeMo/RL#4607\n")
    assert cli("new", "acme/gears#8", "--head", "main").err == (
        "--head 'main' is not a commit SHA; expected 7 to 40 hex digits (a branch or tag name "
        "would drift)\n")
    assert cli("new", "acme/gears#8").err == (
        "the head commit is missing; give --head SHA, or --checkout PATH to read it from a "
        "local clone\n")


def test_new_reads_the_head_from_a_checkout(project: Project, cli: CLI,
                                            checkout: tuple[Path, str, str]) -> None:
    repo, _, second = checkout
    assert cli("new", "acme/gears#9", "--checkout", str(repo)).code == 0
    facts = yaml.safe_load((project.root / "content/acme/gears/9/pr.yml").read_text())
    assert facts["head"] == second


def test_check_reports_every_problem_and_writes_nothing(project: Project, cli: CLI) -> None:
    project.write("content/acme/widgets/12/cache-bug.md",
                  "---\ntitle: T\nquestion: q\nstatus: open\n---\n[[nope.py:1]]\n\n"
                  "[x](#no-such-heading)\n\n## A heading\n\n[y](#a-heading)\n")
    result = cli("check")
    assert result.code == 1
    assert result.err.splitlines() == [
        "warning: content/acme/widgets/12/cache-bug.md:8: link to '#no-such-heading' names no "
        "heading or element '#no-such-heading' on that page",
        "content/acme/widgets/12/cache-bug.md:6: unknown file 'nope.py' in '[[nope.py:1]]'; it "
        "is not among the files listed in pr.yml (nearest by name: src/widgets/core.py, "
        "src/widgets/util.py, docs/speed.md)",
        "Check failed: 1 error(s); 1 warning(s).",
    ]
    assert not project.site.exists()


def test_check_passes_and_fails_on_warnings_under_strict(project: Project, cli: CLI) -> None:
    ok = cli("check")
    assert (ok.code, ok.out) == (0, "No problems in 6 pages; 0 warning(s).\n")
    project.write("content/acme/widgets/12/other.md",
                  "---\ntitle: T\nquestion: q2\nstatus: open\norder: 2\n---\n"
                  "[x](cache-bug.md#missing)\n")
    assert cli("check").code == 0
    strict = cli("check", "--strict")
    assert strict.code == 1
    assert strict.err.splitlines()[0] == (
        "warning: content/acme/widgets/12/other.md:7: link to 'cache-bug.md#missing' names no "
        "heading or element '#missing' on that page")


def test_the_pre_commit_hook_runs_check(project: Project) -> None:
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "site-gen-check"
    assert hook["entry"].split()[:2] == ["site-gen", "check"]
    assert hook["pass_filenames"] is False and hook["language"] == "python"
    entry = [sys.executable, "-m", "site_gen", *hook["entry"].split()[1:]]
    assert subprocess.run(entry, cwd=project.root, capture_output=True).returncode == 0


def test_progress_on_a_terminal_and_one_line_otherwise(project: Project) -> None:
    from benchmarks.sample import write_site

    write_site(project.root, 30)
    command = [sys.executable, "-m", "site_gen", "build", "--no-search", "--jobs", "1"]
    plain = subprocess.run(command, cwd=project.root, capture_output=True, text=True)
    assert plain.returncode == 0
    assert plain.stderr == "" and len(plain.stdout.splitlines()) == 1
    shutil.rmtree(project.root / ".cache")
    shutil.rmtree(project.site)
    leader, follower = pty.openpty()
    done = subprocess.run(command, cwd=project.root, stdout=subprocess.PIPE, stderr=follower,
                          text=True)
    os.close(follower)
    shown = os.read(leader, 65536).decode()
    os.close(leader)
    assert done.returncode == 0
    assert "\r\033[KRendering pages: 1/31" in shown and "Rendering pages: 31/31" in shown  # 30 + 1
    assert shown.endswith("\r\x1b[K")


