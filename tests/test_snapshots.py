"""Every page the real content builds is checked against a stored HTML snapshot, through
the pytest plugin site_gen ships for content repositories (site_gen/pytest_plugin.py).

Pages are discovered from the build, not listed: a new page without a snapshot fails, and
a snapshot whose page is gone fails the run. Accept an intended change with
`pytest --snapshot-update`.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from site_gen.pytest_plugin import SitePage, _build

ROOT = Path(__file__).resolve().parent.parent


def test_page(site_page: SitePage, page_snapshot: Any) -> None:
    assert site_page.html == page_snapshot, site_page.where


@functools.cache
def built_pages() -> dict[str, str]:
    """The real site's HTML pages by address, for tests that look inside them."""
    return {url: page.html for url, page in _build(ROOT / "mkdocs.yml").items()}
