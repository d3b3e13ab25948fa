"""The one slug function: heading ids and page file names alike."""

from __future__ import annotations

import re
import unicodedata


def slugify(text: str, fallback: str = "section") -> str:
    """Lower-case ASCII letters, digits and '-': accents dropped ('Ünïcode' → 'unicode'),
    anything else a '-'. Depends only on `text`, so ids and file names never drift."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).lower()
    slug = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")
    return slug or fallback
