"""`site-gen init` makes a content repository of its own: it builds, its page snapshots are
tested with site_gen's pytest plugin, and the pre-commit hook works there."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from .conftest import Run, git
from .test_readme import project_repository
from .test_workflow import lint

CLI = Callable[..., Run]


@pytest.fixture
def repository(tmp_path: Path, cli: CLI, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A content repository made by `init`, with one PR made by `new`."""
    folder = tmp_path / "reviews"
    made = cli("init", str(folder))
    assert made.code == 0, made.err
    monkeypatch.chdir(folder)
    monkeypatch.delenv("SITE_URL", raising=False)
    assert cli("new", "acme/widgets#7", "--head", "1234567", "--title", "Faster").code == 0
    pr = folder / "content/acme/widgets/7/pr.yml"
    pr.write_text(pr.read_text() + "code_unavailable: a made-up pull request\n")
    for written in (folder / "content").rglob("*.*"):  # the author replaces every ⟨…⟩
        written.write_text(written.read_text().replace("⟨", "").replace("⟩", ""))
    return folder


def test_init_writes_a_repository_and_refuses_a_full_folder(tmp_path: Path, cli: CLI) -> None:
    made = cli("init", str(tmp_path / "new"))
    written = sorted(p.relative_to(tmp_path / "new").as_posix()
                     for p in (tmp_path / "new").rglob("*") if p.is_file())
    assert written == [".github/workflows/publish.yml", ".gitignore", ".pre-commit-config.yaml",
                       "content/.gitkeep", "mkdocs.yml", "pytest.ini", "tests/test_pages.py"]
    assert made.out.splitlines()[-1] == ("Next: site-gen new OWNER/REPO#NUMBER --head SHA, "
                                         "then site-gen serve.")
    assert lint(tmp_path / "new/.github/workflows/publish.yml").returncode == 0
    workflow = yaml.safe_load((tmp_path / "new/.github/workflows/publish.yml").read_text())
    assert set(workflow[True]) == {"push", "pull_request", "workflow_dispatch", "schedule"}
    assert workflow[True]["schedule"] == [{"cron": "17 6 * * 1"}]  # weekly: has a PR moved on?
    drift = [step.get("run") for step in workflow["jobs"]["drift"]["steps"] if "run" in step]
    assert drift[-2:] == ["site-gen fetch", "site-gen check --drift"]
    assert "schedule" in workflow["jobs"]["drift"]["if"]
    default = "github.ref_name == github.event.repository.default_branch"
    assert workflow["jobs"]["deploy"]["if"] == default  # deployed from main, master, ...
    build = {step.get("name"): step for step in workflow["jobs"]["build"]["steps"]}
    assert 'export SITE_URL="$PAGES_URL/"' in build["Build with --strict"]["run"]
    again = cli("init", str(tmp_path / "new"))
    assert (again.code, again.err) == (1, f"'{tmp_path / 'new'}' is not empty; site-gen init "
                                          "writes into an empty or new folder, or one holding "
                                          "only .git and a virtual environment (--force writes "
                                          "its files there anyway, replacing any of the same "
                                          "name)\n")
    assert cli("init", str(tmp_path / "new"), "--force").code == 0


def test_init_beside_the_virtual_environment_the_readme_makes_first(tmp_path: Path,
                                                                      cli: CLI) -> None:
    folder = tmp_path / "reviews"
    (folder / ".venv/bin").mkdir(parents=True)
    (folder / ".git").mkdir()
    made = cli("init", str(folder))
    assert made.code == 0, made.err
    ignored = (folder / ".gitignore").read_text().splitlines()
    assert ".venv/" in ignored and "/site" in ignored and ".cache/" in ignored


def pytest_in(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """pytest in the content repository, with the plugins site-gen[test] brings (not
    Hypothesis, which this repository's tests bring, and which takes a second to load)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-p", "no:hypothesispytest", *args],
                          cwd=folder, capture_output=True, text=True, check=False, env=env)


@pytest.mark.long
def test_init_new_build_and_the_page_snapshots(repository: Path, cli: CLI) -> None:
    built = cli("build", "--strict", "--no-search")
    assert built.code == 0, built.err
    first = pytest_in(repository)
    assert first.returncode == 1 and "does not exist!" in first.stdout
    update = pytest_in(repository, "--snapshot-update")
    assert update.returncode == 0, update.stdout
    snapshots = sorted(p.name for p in (repository / "tests/__snapshots__/test_pages").iterdir())
    assert "test_page[acme__widgets__7__the-first-question__index.html].html" in snapshots
    assert pytest_in(repository).returncode == 0
    folder = repository / "tests/__snapshots__/test_pages"
    (folder / "test_page[acme__widgets__7__gone__index.html].html").write_text("<p>Gone</p>\n")
    for workers in ((), ("-n", "1")):  # alone, and through a pytest-xdist worker
        orphan = pytest_in(repository, *workers)
        assert orphan.returncode == 1, orphan.stdout
        assert ("test_page[acme__widgets__7__gone__index.html].html: the page is gone; run "
                "pytest --snapshot-update to delete them") in orphan.stdout
    assert pytest_in(repository, "-n", "1", "--snapshot-update").returncode == 0
    assert sorted(p.name for p in folder.iterdir()) == snapshots
    page = repository / "content/acme/widgets/7/the-first-question.md"
    page.write_text(page.read_text().replace("Say what the code does", "Say what it does"))
    changed = pytest_in(repository)
    assert changed.returncode == 1
    assert ("the page acme/widgets/7/the-first-question/index.html (made from "
            "content/acme/widgets/7/the-first-question.md) differs from its snapshot"
            in changed.stdout)
    # the changed line of the HTML, both ways, with the changed words in it
    assert re.search(r"- line \d+: <p>Say what the code does, citing it", changed.stdout)
    assert re.search(r"\+ line \d+: <p>Say what it does, citing it", changed.stdout)
    verbose = pytest_in(repository, "-vvv")  # -vv (with -q): syrupy's whole diff
    assert "- <p>Say what the code does" in verbose.stdout


def pre_commit(repository: Path, home: Path) -> subprocess.CompletedProcess[str]:
    git(repository, "add", "-A")
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"],
                          cwd=repository, capture_output=True, text=True, check=False,
                          env={**os.environ, "PRE_COMMIT_HOME": str(home)})


def published_hook(repository: Path, site_gen: Path) -> None:
    """The content repository's .pre-commit-config.yaml names the hook of site_gen's own
    repository (a copy of this one's tracked files, committed), as its comment says:
    pre-commit installs it once, then runs it from its cache."""
    url, commit = project_repository(site_gen)
    (repository / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {url}\n    rev: {commit}\n    hooks: [{{id: site-gen-check}}]\n")


@pytest.mark.long
def test_the_pre_commit_hook_where_it_is_installed(repository: Path, tmp_path: Path) -> None:
    git(repository, "init", "-q")
    published_hook(repository, tmp_path / "site_gen")
    good = pre_commit(repository, tmp_path / "pre-commit")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "site-gen check" in good.stdout and "Passed" in good.stdout
    page = repository / "content/acme/widgets/7/the-first-question.md"
    page.write_text(page.read_text().replace("status: unresolved", "status: unresolvd"))
    bad = pre_commit(repository, tmp_path / "pre-commit")
    assert bad.returncode == 1
    assert ("content/acme/widgets/7/the-first-question.md:5: unknown status 'unresolvd'; did you "
            "mean 'unresolved'? expected one of: unresolved (or open), fixed, proposed, "
            "wontfix") in bad.stdout
    page.write_text(page.read_text().replace("status: unresolvd", "status: unresolved")
                    + "[x](gone.md)\n")
    strict = pre_commit(repository, tmp_path / "pre-commit")
    assert strict.returncode == 1 and "points at nothing" in strict.stdout
