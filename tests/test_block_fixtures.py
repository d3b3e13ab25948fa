"""Code references, badges and callouts: rendering and errors, in markdown-it's fixture format."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it.utils import read_fixture_file

from .blockutil import render

FIXTURES = Path(__file__).parent / "fixtures"


def _cases(*names: str) -> list[tuple[int, str, str, str]]:
    return [case for name in names for case in read_fixture_file(FIXTURES / f"{name}.md")]


@pytest.mark.parametrize(("line", "title", "text", "expected"), _cases("refs", "badge", "callout"))
def test_block_renders(line: int, title: str, text: str, expected: str) -> None:
    html, errors, _ = render(text)
    assert errors == []
    assert html == expected


@pytest.mark.parametrize(("line", "title", "text", "expected"), _cases("inline_errors"))
def test_block_errors(line: int, title: str, text: str, expected: str) -> None:
    _, errors, _ = render(text)
    assert errors == expected.splitlines()
