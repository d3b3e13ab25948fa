"""What rendering a question page gives: its HTML (or the page the shown site already
holds), its problems, and the links and files it carries; and how the page cache keeps it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .context import Link
from .errors import UNCHECKED, ContentError, ContentWarning
from .output import SAFE_NAME, Kept
from .search import searchable


@dataclass(frozen=True)
class PageResult:
    """One rendered question page, or the problems that stopped it."""

    url: str
    html: str | Kept | None  # Kept: a cached page the shown site holds as it is
    errors: tuple[ContentError, ...]
    warnings: tuple[ContentWarning, ...]
    path: Path | None = None  # the page's markdown file, where its links were written
    anchors: tuple[Link, ...] = ()
    targets: tuple[Link, ...] = ()
    files: tuple[tuple[str, str], ...] = ()  # published beside the page: (name, text)

    @property
    def keepable(self) -> bool:
        """Whether the page may be kept for the next build: not when code it cites was not
        here (a submodule's, not fetched yet), as its key does not say when that code comes."""
        return not any(w.kind == UNCHECKED for w in self.warnings)

    def to_data(self) -> dict[str, Any]:
        """The page as the cache stores it (only pages without errors are stored)."""
        assert isinstance(self.html, str), "a page is stored when it was rendered"
        warnings = [[str(w.path) if w.path else None, w.line, w.message] for w in self.warnings]
        return {"url": self.url, "html": self.html, "searchable": searchable(self.html),
                "warnings": warnings, "path": str(self.path),
                "files": [list(f) for f in self.files],
                "anchors": list(self.anchors), "targets": list(self.targets)}

    @classmethod
    def from_data(cls, data: dict[str, Any], held: Kept | None = None) -> PageResult | None:
        """A page read back from the cache (its HTML `held` by the shown site, or in the
        data); None when the entry is not of that shape."""
        try:
            warnings = tuple(ContentWarning(str(m), Path(p) if p else None, ln)
                             for p, ln, m in data["warnings"])
            html = held or data["html"]
            files = tuple((str(name), str(text)) for name, text in data["files"])
            if not isinstance(html, (str, Kept)) or not all(
                    SAFE_NAME.match(name) and "/" not in name for name, _ in files):
                return None  # a file beside the page is a plain name in its folder
            return cls(str(data["url"]), html, (), warnings, Path(data["path"]),
                       tuple(_link(a) for a in data["anchors"]),
                       tuple(_link(t) for t in data["targets"]), files)
        except (KeyError, TypeError, ValueError):
            return None


def _link(item: Any) -> Link:
    line, a, b, c = item
    return (None if line is None else int(line), str(a), str(b), str(c))
