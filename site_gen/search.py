"""Full-text search: a Pagefind index built over the finished site folder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .errors import SiteGenError
from .processes import die_with_parent

BUNDLE = "pagefind"
# Left out of the index and its excerpts: line numbers, text for screen readers only, icons.
EXCLUDED = (".diff-ln, .excerpt-ln, .visually-hidden, [aria-hidden=true], .header-anchor, "
            ".print-url, .ref-preview, .ref-peek")


def index_site(folder: Path) -> None:
    """Index every page of `folder` that marks its text with data-pagefind-body."""
    done = subprocess.run(
        [sys.executable, "-m", "pagefind", "--site", str(folder), "--output-subdir", BUNDLE,
         "--exclude-selectors", EXCLUDED, "--silent"],
        capture_output=True, text=True, check=False, preexec_fn=die_with_parent,
    )
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise SiteGenError(f"search index failed (pagefind exit {done.returncode}): "
                           f"{detail[-1] if detail else 'no output'}")
