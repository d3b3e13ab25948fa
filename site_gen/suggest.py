"""'Did you mean': the known names nearest to a mistyped one."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """"did you mean 'open'? " for the known names close to `name` (edit distance), or ''."""
    close = difflib.get_close_matches(name.strip(), list(known), n=2, cutoff=0.6)
    if not close:
        return ""
    return "did you mean " + " or ".join(f"'{c}'" for c in close) + "? "
