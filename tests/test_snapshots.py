"""Every page the real content builds is checked against a stored HTML snapshot.

Pages are discovered from the build, not listed: a new page without a snapshot
fails, and a snapshot whose page is gone is reported unused (which fails the run).
Accept an intended change with `pytest --snapshot-update`.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from site_gen.build import render_site
from site_gen.config import load_config

ROOT = Path(__file__).resolve().parent.parent


class HTMLSnapshotExtension(SingleFileSnapshotExtension):
    """One readable .html file per page."""

    _write_mode = WriteMode.TEXT
    file_extension = "html"


@functools.cache
def built_pages() -> dict[str, str]:
    """The real site's HTML pages, built in memory with no site_url from the environment."""
    saved = os.environ.pop("SITE_URL", None)
    try:
        outputs = render_site(load_config(ROOT / "mkdocs.yml")).outputs
    finally:
        if saved is not None:
            os.environ["SITE_URL"] = saved
    return {name: text for name, text in outputs.items()
            if name.endswith(".html") and isinstance(text, str)}


@pytest.fixture
def snapshot_html(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(HTMLSnapshotExtension)


@pytest.mark.parametrize("page", sorted(built_pages()), ids=lambda p: p.replace("/", "__"))
def test_page_matches_snapshot(page: str, snapshot_html: SnapshotAssertion) -> None:
    assert built_pages()[page] == snapshot_html


SNAPSHOT_DIR = Path(__file__).parent / "__snapshots__" / "test_snapshots"


def _snapshot_file(page: str) -> Path:
    return SNAPSHOT_DIR / f"test_page_matches_snapshot[{page.replace('/', '__')}].html"


def test_every_snapshot_has_a_page(request: pytest.FixtureRequest) -> None:
    """A snapshot whose page no longer exists fails; `--snapshot-update` deletes it."""
    expected = {_snapshot_file(page) for page in built_pages()}
    orphans = sorted(p.name for p in SNAPSHOT_DIR.glob("*.html") if p not in expected)
    if orphans and request.config.getoption("--snapshot-update"):
        for name in orphans:
            (SNAPSHOT_DIR / name).unlink()
        return
    assert not orphans, f"snapshots without a page (run pytest --snapshot-update): {orphans}"
