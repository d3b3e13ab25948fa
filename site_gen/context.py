"""What the markdown stage knows about the page it renders, and what it found wrong."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import Config
from .errors import Problems

if TYPE_CHECKING:
    from .code_index import Kept
    from .content import PullRequest
    from .git_reader import SourceReader


MAX_BLOCK_LINES = 500  # lines of code one excerpt or PR diff shows
MAX_PAGE_LINES = 3_000  # lines of code one page's excerpts and PR diffs show together

# A link to check once every page is rendered: its line in the page, then what it names.
Link = tuple[int | None, str, str, str]


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
    problems: Problems = field(default_factory=Problems)
    # Checked after rendering, never cached as results (other files may appear or go):
    # links with a #fragment (line, page URL, id, href) and links to files in docs_dir
    # (line, "link" or "image", href, docs-relative path).
    anchors: list[Link] = field(default_factory=list)
    targets: list[Link] = field(default_factory=list)
    # Files the page publishes beside it (a proposal's .patch): name in its folder → text.
    files: dict[str, str] = field(default_factory=dict)
    code_lines: int = 0  # lines of code the page's excerpts and PR diffs show so far
    # The page's sections, for its outline: (level 2 or 3, id, title as text).
    outline: list[tuple[int, str, str]] = field(default_factory=list)
    submodules: set[str] = field(default_factory=set)  # the repositories of those it cites
    # What builds before learned from code at a commit (definitions, claims' matches).
    code_store: Kept | None = None

    def show_code(self, lines: int, what: str, line: int | None) -> bool:
        """Count `lines` more lines of code shown on the page; False (an error at `line`)
        past the limits: a page quotes code, it does not republish it."""
        if lines > MAX_BLOCK_LINES:
            self.error(f"{what} shows {lines:,} lines; a block shows at most "
                       f"{MAX_BLOCK_LINES:,} (cite fewer lines, or link the file)", line)
            return False
        self.code_lines += lines
        if self.code_lines > MAX_PAGE_LINES:
            self.error(f"{what} brings the code this page shows to {self.code_lines:,} lines; "
                       f"a page shows at most {MAX_PAGE_LINES:,} (split it, or link the files)",
                       line)
            return False
        return True

    def error(self, message: str, line: int | None) -> None:
        self.problems.error(message, self.path, line)

    def warn(self, message: str, line: int | None, kind: str = "") -> None:
        self.problems.warn(message, self.path, line, kind)

    @contextlib.contextmanager
    def at_line(self, line: int | None) -> Iterator[None]:
        """Inside, the text being rendered starts at file line `line` (None: where it is):
        inline markdown of a block, or a summary field, reports its own lines."""
        saved = self.first_line
        self.first_line = line if line is not None else saved
        try:
            yield
        finally:
            self.first_line = saved

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
