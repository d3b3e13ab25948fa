"""`site-gen init`: a content repository of its own, ready to write, check, test and publish."""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

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
# On every push to main: install site_gen, fetch the code every page pins, build strictly
# (a page that contradicts its code, or is not checked, fails), check every page against
# its snapshot, and publish site/ to GitHub Pages.
name: Publish the review site

on:
  push:
    branches: [main]
  workflow_dispatch:

permissions:
  contents: read
  pages: write
  id-token: write

concurrency:
  group: pages
  cancel-in-progress: false

jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          persist-credentials: false
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - id: pages
        uses: actions/configure-pages@v5
      - name: Install site_gen
        run: python -m pip install "{requirement}"
      - name: Keep the fetched code between runs (git checks every object by its id)
        uses: actions/cache@v4
        with:
          path: .cache/site-gen/repos
          key: pinned-code-${{{{ hashFiles('content/**') }}}}
          restore-keys: pinned-code-
      - name: Fetch the commits every page pins
        run: site-gen fetch
      - name: Build with --strict
        env:
          SITE_URL: ${{{{ steps.pages.outputs.base_url }}}}/
        run: site-gen build --strict
      - name: Check every page against its snapshot
        run: python -m pytest
      - uses: actions/upload-pages-artifact@v3
        with:
          path: site/

  deploy:
    needs: build
    runs-on: ubuntu-latest
    environment:
      name: github-pages
      url: ${{{{ steps.deployment.outputs.page_url }}}}
    steps:
      - id: deployment
        uses: actions/deploy-pages@v4
"""

PRE_COMMIT_REMOTE = """\
# Before each commit: every check of a build, strictly (a broken link fails), writing nothing.
repos:
  - repo: {url}
    rev: {commit}
    hooks:
      - id: site-gen-check
"""

PRE_COMMIT_LOCAL = """\
# Before each commit: every check of a build, strictly (a broken link fails), writing nothing.
# It runs the site-gen installed here (site_gen was not installed from a git repository,
# so there is no repository and commit to pin).
repos:
  - repo: local
    hooks:
      - id: site-gen-check
        name: site-gen check
        entry: site-gen check --strict --jobs 1
        language: system
        pass_filenames: false
        files: ^(content/|templates/|mkdocs\\.yml$)
"""


def origin() -> tuple[str, str | None, str | None]:
    """How to install this very site_gen elsewhere: (pip requirement, git URL, commit)."""
    try:
        direct = json.loads(metadata.distribution("site-gen").read_text("direct_url.json") or "{}")
    except (metadata.PackageNotFoundError, ValueError):
        direct = {}
    vcs = direct.get("vcs_info", {})
    url, commit = direct.get("url"), vcs.get("commit_id")
    if vcs.get("vcs") == "git" and url and commit:
        return f"site-gen[test] @ git+{url}@{commit}", url, commit
    return f"site-gen[test]=={__version__}", None, None


def init_repository(folder: Path, *, force: bool = False) -> list[Path]:
    """Write a content repository into `folder`; returns the files written."""
    if folder.exists() and not folder.is_dir():
        raise SiteGenError(f"'{folder}' is a file; expected a folder for the new repository")
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise SiteGenError(f"'{folder}' is not empty; site-gen init writes into an empty or new "
                           "folder (--force writes its files there anyway, replacing any of "
                           "the same name)")
    requirement, url, commit = origin()
    hook = (PRE_COMMIT_REMOTE.format(url=url, commit=commit) if url and commit
            else PRE_COMMIT_LOCAL)
    files = {
        "mkdocs.yml": MKDOCS, ".gitignore": GITIGNORE, "content/.gitkeep": "",
        "pytest.ini": PYTEST_INI, "tests/test_pages.py": TEST_PAGES,
        ".github/workflows/publish.yml": WORKFLOW.format(requirement=requirement),
        ".pre-commit-config.yaml": hook,
    }
    written = []
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
