"""Render one markdown body the way a build does, for block tests."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from site_gen.config import Config, default_config
from site_gen.content import PullRequest
from site_gen.context import PageContext
from site_gen.git_reader import SourceReader
from site_gen.markdown import render_body
from site_gen.statuses import DEFAULT_STATUSES

from .conftest import commit

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


def rendered_at(tmp_path: Path, files: dict[str, str | bytes], *bodies: str,
                base: dict[str, str | bytes] | None = None
                ) -> tuple[str, list[tuple[str, list[str], list[str]]]]:
    """The commit of a repository holding `files` (the PR's head, which changes them all;
    from a commit of `base`, pr.yml's `base:`, when given), and each of `bodies` rendered
    against it: (html, errors, warnings)."""
    before = commit(tmp_path / "code", base, "base") if base is not None else None
    head = commit(tmp_path / "code", files)
    reader = SourceReader(tmp_path / "code")
    pr = dataclasses.replace(PR, head=head, files=tuple(files), base=before)
    try:
        return head, [render(body, reader, pr) for body in bodies]
    finally:
        reader.close()
