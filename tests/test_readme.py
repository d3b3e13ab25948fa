"""The README's first hour, run as written: "Use site_gen in your own repository" from an
empty folder with a stock virtual environment, and the repository's own scripts on a fresh
clone. Each installs site_gen with pip from a local git repository (packages from the
index pip is set up with; nothing reaches a code host)."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from site_gen.compiled import own_file

from .conftest import git

ROOT = Path(__file__).resolve().parent.parent
LONG = ("This paragraph runs on for a while, as prose in an explainer does, so that its "
        "line of HTML is long: the reviewer reads why the key leaves out the scope, what "
        "each caller passes, where the cache is filled and where it is read, and what the "
        "pull request would have to change for the second lookup to hit; all of it before "
        "the one word at its very end that the test changes: done.")


def readme_commands(heading: str) -> list[str]:
    """The commands of the first ```sh block under `heading` in the README, a command
    continued with '\\' joined into one line, comments dropped."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index(f"\n{heading}\n"):]
    block = section[section.index("```sh\n") + 6:]
    block = block[:block.index("```\n")].replace("\\\n", " ")
    return [re.sub(r"\s+#\s.*$", "", line).strip() for line in block.splitlines() if line.strip()]


def project_repository(folder: Path) -> tuple[str, str]:
    """This repository's tracked files as they are in the work tree, committed into a git
    repository of their own: (its file:// URL, the commit)."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True,
                            check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, folder / name)
    git(folder, "init", "-q", "-b", "main")
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "site_gen")
    return folder.as_uri(), git(folder, "rev-parse", "HEAD")


def clean_environment(home: Path) -> dict[str, str]:
    """The environment of a new shell: no virtual environment of the tests on the PATH."""
    here = Path(sys.executable).parent
    path = [p for p in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep)
            if p and Path(p) != here]
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST", "VIRTUAL_ENV", "SITE_URL", "GIT_", "PIP_REQUIRE"))}
    return {**env, "PATH": os.pathsep.join(path), "HOME": str(home),
            "PRE_COMMIT_HOME": str(home / "pre-commit"), "GIT_AUTHOR_NAME": "Author",
            "GIT_AUTHOR_EMAIL": "author@example.org", "GIT_COMMITTER_NAME": "Author",
            "GIT_COMMITTER_EMAIL": "author@example.org"}


def shell(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True,
                          text=True, check=False)


def stock_python() -> str:
    """The interpreter the tests' own venv was made from: `python3` on a fresh machine."""
    return str(Path(sys.base_prefix) / "bin" / "python3")


CORE = '''\
"""Widgets, cached by key."""


def make_key(user, scope):
    return (user, scope)


def lookup(cache, user, scope):
    return cache.get(make_key(user, scope))
'''


def code_repository(folder: Path) -> tuple[Path, str, str]:
    """The reviewed repository: its folder, its base, and the PR head that changes
    src/widgets/core.py."""
    (folder / "src/widgets").mkdir(parents=True)
    (folder / "src/widgets/core.py").write_text(CORE.replace(", scope", ""))
    git(folder, "init", "-q", "-b", "main")
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "base")
    base = git(folder, "rev-parse", "HEAD")
    (folder / "src/widgets/core.py").write_text(CORE)
    git(folder, "commit", "-q", "-am", "scoped keys")
    return folder, base, git(folder, "rev-parse", "HEAD")


@pytest.mark.long
def test_the_own_repository_section_runs_as_written(tmp_path: Path) -> None:
    code, base, head = code_repository(tmp_path / "upstream")
    url, commit = project_repository(tmp_path / "site_gen")
    folder = tmp_path / "reviews"
    folder.mkdir()
    env = clean_environment(tmp_path / "home")
    page = folder / "content/acme/widgets/12/the-cache-bug.md"
    commands = readme_commands("## Use site_gen in your own repository")
    assert commands[0] == "python3 -m venv .venv" and commands[-1].startswith("git add -A")
    for command in commands:
        command = (command.replace("<this repository's URL>", url).replace("<a commit>", commit)
                   .replace("<the PR head SHA>", head[:7])  # as an author copies it
                   .replace("<its base SHA>", base[:7])
                   .replace("python3 ", f"{stock_python()} ", 1))
        if command.endswith("site-gen fetch"):  # the code comes from a local repository
            settings = folder / "mkdocs.yml"
            settings.write_text(settings.read_text().replace(
                "sources: {}", f"sources:\n    acme/widgets: {code}"))
        if command.endswith("site-gen serve"):
            write_the_pages(folder, env)
            continue
        done = shell(command, folder, env)
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
        if command.endswith("site-gen init"):
            assert "installed from" in done.stderr and "only this machine has" in done.stderr
    for written in (".github/workflows/publish.yml", ".pre-commit-config.yaml"):
        assert str(tmp_path) not in (folder / written).read_text()  # nothing machine-local
    assert "entry: .venv/bin/site-gen check --strict --allow-unchecked" in (
        folder / ".pre-commit-config.yaml").read_text()
    tracked = git(folder, "ls-files").splitlines()
    assert "content/acme/widgets/12/the-cache-bug.md" in tracked
    assert not [name for name in tracked if name.startswith((".venv/", ".cache/", "site"))]

    # a word changed at the end of a long line: the failure shows it without -vv
    page.write_text(page.read_text().replace(LONG, LONG.replace("done.", "finished.")))
    changed = shell(".venv/bin/pytest", folder, env)
    assert changed.returncode == 1
    assert re.search(r"- line \d+: ….*the test changes: done\.</p>", changed.stdout), changed.stdout
    assert re.search(r"\+ line \d+: ….*the test changes: finished\.</p>", changed.stdout)

    # without the code, the hook checks the rest and names what it could not check
    shutil.rmtree(folder / ".cache/site-gen/repos")
    offline = shell("git commit -qam 'Reworded, offline'", folder, env)
    assert offline.returncode == 0, offline.stdout + offline.stderr
    assert "note: content/acme/widgets/12/pr.yml:" in offline.stdout + offline.stderr
    page.write_text(page.read_text().replace("status: unresolved", "status: unresolvd"))
    refused = shell("git commit -qam 'A typo'", folder, env)
    assert refused.returncode == 1 and "unknown status 'unresolvd'" in refused.stderr
    assert "Check failed: 1 error(s); 0 warning(s)." in refused.stderr


def write_the_pages(folder: Path, env: dict[str, str]) -> None:
    """What the author does while the preview runs, with the code fetched: a second
    question (its examples cite real lines of the PR), the first page started again the
    same way, each ⟨…⟩ replaced; until then a build reports nothing but the ⟨…⟩."""
    pr = folder / "content/acme/widgets/12"
    facts = pr / "pr.yml"  # the files the pages cite (the fetched head alone cannot tell)
    facts.write_text(re.sub(r"  - path/to/module.py .*\n", "  - src/widgets/core.py\n",
                            facts.read_text()))
    second = shell(".venv/bin/site-gen new acme/widgets#12 --question 'the second lookup'",
                   folder, env)
    assert second.returncode == 0, second.stderr
    assert second.stdout == "Created content/acme/widgets/12/the-second-lookup.md\n"
    written = (pr / "the-second-lookup.md").read_text()
    assert '[[core.py:4 "def make_key(user, scope):"]]' in written
    assert "[[core.py::make_key]]" in written and "file: core.py L4 · make_key" in written
    (pr / "the-cache-bug.md").unlink()
    again = shell(".venv/bin/site-gen new acme/widgets#12 --question 'the cache bug'", folder, env)
    assert again.returncode == 0, again.stderr
    built = shell(".venv/bin/site-gen build --no-search", folder, env)
    assert built.returncode == 0, built.stderr
    assert [line for line in built.stderr.splitlines()
            if "placeholder(s) from site-gen new" not in line] == []
    for written in pr.iterdir():
        text = written.read_text().replace("⟨", "").replace("⟩", "")
        written.write_text(text.replace("Inline badges look like", f"{LONG}\n\nInline badges look like"))


@pytest.mark.long
def test_the_scripts_on_a_fresh_clone_pass_their_arguments_to_site_gen(
        tmp_path: Path, checkout: tuple[Path, str, str]) -> None:
    """`scripts/fetch -q` and `scripts/build --strict`, as the publish workflow runs them,
    on a fresh clone (its content swapped for a PR whose code is a local repository)."""
    code, _, head = checkout
    clone = tmp_path / "clone"
    project_repository(clone)
    shutil.rmtree(clone / "content")
    (clone / "content/acme/widgets/12").mkdir(parents=True)
    (clone / "content/acme/widgets/12/pr.yml").write_text(
        f'repo: acme/widgets\nnumber: 12\ntitle: Scoped keys\nhead: "{head}"\nstate: open\n'
        "files: [src/widgets/core.py]\n")
    (clone / "content/acme/widgets/12/key.md").write_text(
        "---\ntitle: Why the key has a scope\nquestion: the key\norder: 1\nstatus: fixed\n"
        'updated: 2026-01-05\n---\n\nThe key: [[core.py:10 "make_key(user, scope)"]].\n')
    (clone / "mkdocs.yml").write_text(
        "site_name: Reviews\nsite_url: https://reviews.example.org/\ndocs_dir: content\n"
        f"site_gen:\n  sources:\n    acme/widgets: {code}\n")
    # as in many CI and container images: Python writes no bytecode of its own
    env = {**clean_environment(tmp_path / "home"), "PYTHON": stock_python(),
           "PYTHONDONTWRITEBYTECODE": "1"}
    fetched = shell("scripts/fetch -q", clone, env)
    assert fetched.returncode == 0, fetched.stdout + fetched.stderr
    assert fetched.stdout == ""  # -q reached site-gen: nothing but errors
    built = shell("scripts/build --strict", clone, env)
    assert built.returncode == 0, built.stdout + built.stderr
    assert built.stdout.startswith("Built ") and "0 warning(s)" in built.stdout
    # the set-up compiled site_gen's modules (the editable install does not): no command
    # compiles them again
    modules = sorted((clone / "site_gen").rglob("*.py"))
    assert modules and [m for m in modules if not compiled(m)] == []
    # and the built-in templates, as the wheel carries them: the build compiled none (a
    # template it compiles is kept in the project's cache folder)
    templates = [t for t in (clone / "templates").rglob("*") if t.suffix in (".html", ".xml")
                 and "__pycache__" not in t.parts]
    assert templates and [t for t in templates if not own_file(
        clone / "templates", t.relative_to(clone / "templates").as_posix()).is_file()] == []
    assert list((clone / ".cache").rglob("*.jinja")) == []


def compiled(module: Path) -> bool:
    """Whether `module` has bytecode in its __pycache__ that Python takes for its source
    as it is (the source's time and size in the header, as `importlib` checks them)."""
    cached = Path(importlib.util.cache_from_source(str(module)))
    if not cached.exists():
        return False
    header, source = cached.read_bytes()[:16], module.stat()
    return (header[:4] == importlib.util.MAGIC_NUMBER and header[4:8] == bytes(4)
            and int.from_bytes(header[8:12], "little") == int(source.st_mtime) & 0xFFFFFFFF
            and int.from_bytes(header[12:16], "little") == source.st_size & 0xFFFFFFFF)
