"""'Did you mean': the known names nearest to a mistyped one."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def meant(name: str, known: Iterable[str]) -> str | None:
    """The known name close to `name` (edit distance), or None."""
    close = difflib.get_close_matches(name.strip(), list(known), n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """"did you mean 'open'? " for the known names close to `name` (edit distance), or ''."""
    close = meant(name, known)
    return f"did you mean '{close}'? " if close else ""
