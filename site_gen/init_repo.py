"""`site-gen init`: a content repository of its own, ready to write, check, test and publish."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlsplit

from . import __version__
from .errors import SiteGenError

MKDOCS = """\
# The review site's settings. MkDocs' keys keep MkDocs' meaning; site_gen's own settings
# are under site_gen:. A setting site_gen does not know is a warning.
site_name: Review explainers
# The address the site is published at (the publish workflow sets SITE_URL from GitHub
# Pages); the feed and sitemap use it.
site_url: !ENV [SITE_URL, "http://127.0.0.1:8000/"]
docs_dir: content
site_dir: site

site_gen:
  # Where `site-gen fetch` gets the code each page pins, by repository: a clone URL or a
  # local path. A repository not listed comes from GitHub.
  sources: {}
"""

GITIGNORE = """\
/site
.site.*
.cache/
.venv/
__pycache__/
.pytest_cache/
"""

PYTEST_INI = """\
[pytest]
testpaths = tests
# The site whose pages site_gen's pytest plugin checks against their snapshots.
site_gen_config = mkdocs.yml
"""

TEST_PAGES = '''\
"""Every page of the site against its stored snapshot (site_gen's pytest plugin).

A new or changed page fails until `pytest --snapshot-update` stores it; commit the files
under tests/__snapshots__/ with the pages they show.
"""


def test_page(site_page, page_snapshot):
    assert site_page.html == page_snapshot, site_page.where
'''

WORKFLOW = """\
# On every push and pull request: install site_gen, fetch the code every page pins, build
# strictly (a page that contradicts its code, or is not checked, fails), and check every
# page against its snapshot. On the repository's default branch (main, master or any
# other), publish site/ to GitHub Pages. Every week (and when run by hand), also see
# whether a PR has moved on since its pages were written: the site is published again
# with each page's drift notice, and the drift job fails while a page cites code that
# changed or is gone at its PR's current head (`site-gen repin` moves the pages).
name: Publish the review site

on:
  push:
  pull_request:
  workflow_dispatch:
  schedule:
    - cron: "17 6 * * 1"  # Mondays, 06:17 UTC

permissions:
  contents: read
  pages: write
  id-token: write

concurrency:
  group: pages-${{{{ github.ref }}}}
  cancel-in-progress: false

jobs:
  build:
    runs-on: ubuntu-latest
    steps:
{setup}      - id: pages
        if: github.ref_name == github.event.repository.default_branch
        uses: actions/configure-pages@v5
      - name: Fetch the commits every page pins
        run: site-gen fetch
      - name: Build with --strict
        env:  # the Pages address, on the default branch (elsewhere mkdocs.yml's default)
          PAGES_URL: ${{{{ steps.pages.outputs.base_url }}}}
        run: |
          if [ -n "$PAGES_URL" ]; then export SITE_URL="$PAGES_URL/"; fi
          site-gen build --strict
      - name: Check every page against its snapshot
        run: python -m pytest
      - uses: actions/upload-pages-artifact@v3
        if: github.ref_name == github.event.repository.default_branch
        with:
          path: site/

  deploy:
    needs: build
    if: github.ref_name == github.event.repository.default_branch
    runs-on: ubuntu-latest
    environment:
      name: github-pages
      url: ${{{{ steps.deployment.outputs.page_url }}}}
    steps:
      - id: deployment
        uses: actions/deploy-pages@v4

  drift:
    if: github.event_name == 'schedule' || github.event_name == 'workflow_dispatch'
    runs-on: ubuntu-latest
    steps:
{setup}      - name: Fetch the pinned commits and each PR's current head
        run: site-gen fetch
      - name: Fail while a page cites code that changed or is gone at its PR's head
        run: site-gen check --drift
"""

# The steps both jobs start with: the repository, Python, site_gen and the fetched code.
WORKFLOW_SETUP = """\
      - uses: actions/checkout@v4
        with:
          persist-credentials: false
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - name: Install site_gen
        run: python -m pip install "{requirement}"
      - name: Keep the fetched code between runs (git checks every object by its id)
        uses: actions/cache@v4
        with:
          path: .cache/site-gen/repos
          key: pinned-code-${{{{ hashFiles('content/**') }}}}
          restore-keys: pinned-code-
"""

PRE_COMMIT_REMOTE = """\
# Before each commit: every check of a build, strictly (a broken link fails), writing nothing.
# Pages whose code is not here (no `site-gen fetch` yet) are checked for everything else and
# named; the publish build checks them against their code.
repos:
  - repo: {url}
    rev: {commit}
    hooks:
      - id: site-gen-check
"""

PRE_COMMIT_LOCAL = """\
# Before each commit: every check of a build, strictly (a broken link fails), writing nothing.
# Pages whose code is not here (no `site-gen fetch` yet) are checked for everything else and
# named; the publish build checks them against their code. It runs {where} (site_gen was
# not installed from a git repository another machine can reach, so there is none to pin).
repos:
  - repo: local
    hooks:
      - id: site-gen-check
        name: site-gen check
        entry: {entry} check --strict --allow-unchecked --jobs 1
        language: system
        pass_filenames: false
        verbose: true  # shows the notes of what could not be checked on a commit that passes
        files: ^(content/|templates/|mkdocs\\.yml$)
"""


@dataclass(frozen=True)
class Origin:
    """How to install this very site_gen on another machine."""

    requirement: str  # for pip: a git URL at a commit, else the name and version
    url: str | None = None  # the git repository, when another machine can reach it
    commit: str | None = None
    local: str | None = None  # the machine-local place it was installed from, if any


def origin() -> Origin:
    """How to install this very site_gen elsewhere. A git URL another machine can reach is
    pinned at its commit; one installed from this machine (a local clone, a file:// URL)
    is pinned through that clone's `origin` remote when it has one, and never by its path."""
    try:
        direct = json.loads(metadata.distribution("site-gen").read_text("direct_url.json") or "{}")
    except (metadata.PackageNotFoundError, ValueError):
        direct = {}
    url, commit = direct.get("url"), direct.get("vcs_info", {}).get("commit_id")
    by_version = f"site-gen[test]=={__version__}"
    if not isinstance(url, str):
        return Origin(by_version)
    if not url.startswith("file:"):
        return Origin(f"site-gen[test] @ git+{url}@{commit}", url, commit) if commit else Origin(by_version)
    clone = Path(unquote(urlsplit(url).path))
    remote = _git(clone, "remote", "get-url", "origin")
    commit = commit or _git(clone, "rev-parse", "HEAD")
    if remote and commit and REACHABLE.match(remote):
        return Origin(f"site-gen[test] @ git+{remote}@{commit}", remote, commit, str(clone))
    return Origin(by_version, local=str(clone))


# A git remote another machine can reach: https, ssh (scp-like too), git.
REACHABLE = re.compile(r"^(?:https://|ssh://|git://|[\w.-]+@[\w.-]+:)")


def _git(folder: Path, *args: str) -> str | None:
    done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True,
                          check=False)
    return done.stdout.strip() or None if done.returncode == 0 else None


# What may already be in the folder `init` writes into: the README's own steps make the
# virtual environment (and perhaps the git repository) first.
ALLOWED_FIRST = (".git", ".venv", "venv")


def init_repository(folder: Path, *, force: bool = False) -> tuple[list[Path], list[str]]:
    """Write a content repository into `folder`; returns the files written and what the
    author should know about them (warnings)."""
    if folder.exists() and not folder.is_dir():
        raise SiteGenError(f"'{folder}' is a file; expected a folder for the new repository")
    present = sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []
    if any(name not in ALLOWED_FIRST for name in present) and not force:
        raise SiteGenError(f"'{folder}' is not empty; site-gen init writes into an empty or new "
                           "folder, or one holding only .git and a virtual environment "
                           "(--force writes its files there anyway, replacing any of the same "
                           "name)")
    found = origin()
    hook = (PRE_COMMIT_REMOTE.format(url=found.url, commit=found.commit)
            if found.url and found.commit else _local_hook(folder))
    files = {
        "mkdocs.yml": MKDOCS, ".gitignore": GITIGNORE, "content/.gitkeep": "",
        "pytest.ini": PYTEST_INI, "tests/test_pages.py": TEST_PAGES,
        ".github/workflows/publish.yml": WORKFLOW.format(
            setup=WORKFLOW_SETUP.format(requirement=found.requirement)),
        ".pre-commit-config.yaml": hook,
    }
    root = folder.resolve() if folder.exists() else None
    for name in files:  # checked before anything is written
        _refuse_links_out(folder, root, name)
    written = []
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.site-gen-new")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)  # a link of that name is replaced, never written through
        written.append(path)
    notes = []
    if found.local and not found.url:
        notes.append(f"site_gen was installed from {found.local}, which only this machine has: "
                     f".github/workflows/publish.yml installs '{found.requirement}' instead; "
                     "change that line to where your CI can install site_gen from (git+https://"
                     "...@COMMIT)")
    return written, notes


def _refuse_links_out(folder: Path, root: Path | None, name: str) -> None:
    """A folder on the way to `name` that is a link leading out of `folder` (`--force` on
    a folder holding one) is refused: nothing is written through it."""
    if root is None:
        return
    parent = (folder / name).parent
    while parent != folder:
        if parent.is_symlink() and not parent.resolve().is_relative_to(root):
            raise SiteGenError(f"'{parent}' is a link to {parent.resolve()}, outside "
                               f"'{folder}'; site-gen init writes nothing through it (remove "
                               "the link, or init another folder)")
        parent = parent.parent


def _local_hook(folder: Path) -> str:
    """The hook that runs the installed site-gen: the one in the repository's own `.venv/`
    when that is where it is installed (a path inside the repository, so it holds on any
    machine that follows the README), else the one on the PATH."""
    venv = Path(sys.prefix)
    try:
        inside = venv.resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        inside = None
    if inside:
        return PRE_COMMIT_LOCAL.format(entry=f"{inside}/bin/site-gen",
                                       where=f"the site-gen of {inside}/")
    return PRE_COMMIT_LOCAL.format(entry="site-gen", where="the site-gen on the PATH")
