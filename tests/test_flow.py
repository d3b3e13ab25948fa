"""The flow block: parser and renderer fixtures, in markdown-it's fixture format."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it.utils import read_fixture_file

from .blockutil import render

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.parametrize(("line", "title", "text", "expected"),
                         read_fixture_file(FIXTURES / "flow.md"))
def test_flow_renders(line: int, title: str, text: str, expected: str) -> None:
    html, errors, _ = render(text)
    assert errors == []
    assert html == expected


@pytest.mark.parametrize(("line", "title", "text", "expected"),
                         read_fixture_file(FIXTURES / "flow_errors.md"))
def test_flow_errors(line: int, title: str, text: str, expected: str) -> None:
    _, errors, _ = render(text)
    assert errors == expected.splitlines()
