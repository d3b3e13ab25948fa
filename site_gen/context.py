"""What the markdown stage knows about the page it renders, and what it found wrong."""

from __future__ import annotations

import logging
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import Config
from .errors import ContentError

if TYPE_CHECKING:
    from .content import PullRequest
    from .source import SourceReader

log = logging.getLogger("site_gen")


@dataclass
class PageContext:
    """Per-render state handed to every block through markdown-it's `env`.

    Problems are collected, not raised, so one build reports all of them.
    """

    config: Config
    path: Path = Path("<markdown>")
    pr: PullRequest | None = None
    first_line: int = 1
    source: SourceReader | None = None
    # Where the page is: its URL folder in the site ('a/b/12/slug/') and the folder of
    # its markdown file in docs_dir ('a/b/12'). None: rendering outside a site.
    page_url: str | None = None
    page_dir: str = ""
    errors: list[ContentError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # Checked after rendering, never cached as results (other files may appear or go):
    # links with a #fragment (where, page URL, id, href) and links to files in docs_dir
    # (where, "link" or "image", href, docs-relative path).
    anchors: list[tuple[str, str, str, str]] = field(default_factory=list)
    targets: list[tuple[str, str, str, str]] = field(default_factory=list)

    def error(self, message: str, line: int | None) -> None:
        self.errors.append(ContentError(message, self.path, line))

    def where(self, line: int | None) -> str:
        """`path:line` of the author's text, as messages start."""
        return str(ContentError("", self.path, line))[:-2]

    def warn(self, message: str, line: int | None) -> None:
        self.warnings.append(f"{self.where(line)}: {message}")

    def line(self, token_map: list[int] | None, offset: int = 0) -> int | None:
        """The file line of a token's first line (plus `offset` lines inside it)."""
        if token_map is None:
            return None
        return self.first_line + token_map[0] + offset


ENV_KEY = "site_gen"


def context_of(env: MutableMapping[str, Any]) -> PageContext:
    """The PageContext of a render; a bare one when the caller passed none."""
    ctx = env.get(ENV_KEY)
    if not isinstance(ctx, PageContext):
        from .config import default_config

        ctx = PageContext(default_config())
        env[ENV_KEY] = ctx
    return ctx
