"""Render one markdown body the way a build does, for block tests."""

from __future__ import annotations

from pathlib import Path

from site_gen.config import Config, default_config
from site_gen.content import PullRequest
from site_gen.context import PageContext
from site_gen.git_reader import SourceReader
from site_gen.markdown import render_body
from site_gen.statuses import DEFAULT_STATUSES

PR = PullRequest(Path("pr.yml"), "acme/widgets", 12, "T", "2f6b955", None,
                 DEFAULT_STATUSES["open"], ("src/app/checkpoint.py", "docs/spans.md"), ())


def render(text: str, source: SourceReader | None = None, pr: PullRequest = PR,
           config: Config | None = None) -> tuple[str, list[str], list[str]]:
    """(html, errors, warnings); messages as 'LINE: message', lines counted in `text`."""
    ctx = PageContext(config or default_config(), Path("page.md"), pr, 1, source)
    html = render_body(ctx, text)
    errors = [f"{e.line}: {e.message}" for e in sorted(ctx.problems.errors, key=lambda e: e.line or 0)]
    warnings = [str(w).removeprefix("page.md:") for w in ctx.problems.warnings]
    return html, errors, warnings
