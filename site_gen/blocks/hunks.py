"""The model of a proposed change: hunks of sections of diff lines, each with its place."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..statuses import Status
from .refs import CodeRef


@dataclass
class DiffLine:
    kind: str  # " ", "+", "-", or "…" for an elision
    text: str
    line: int
    old: int | None = None
    new: int | None = None


@dataclass
class Section:
    """Lines under one `@@ -a,b +c,d @@` position (or none, when not given)."""

    line: int
    old_start: int | None = None
    old_count: int | None = None
    new_start: int | None = None
    new_count: int | None = None
    lines: list[DiffLine] = field(default_factory=list)
    placed: bool = False  # its position was found in the file, not written with '@@'

    @property
    def old_end(self) -> int:
        """The last old-side line it shows (a positioned section only)."""
        assert self.old_start is not None and self.old_count is not None
        return self.old_start + self.old_count - 1


@dataclass
class Hunk:
    path: str
    ranges: list[tuple[int, int]]
    lines_text: str | None
    symbol: str | None
    line: int
    sections: list[Section] = field(default_factory=list)
    # Resolved at parse time: the file at the pinned commit, and each `L` range of the header.
    file_ref: CodeRef | None = None
    range_refs: list[tuple[str, CodeRef | None]] = field(default_factory=list)


@dataclass
class Proposal:
    title: str | None = None
    status: Status | None = None
    lands: str | None = None
    line: int = 0
    hunks: list[Hunk] = field(default_factory=list)
    saw_file_line: bool = False
    skipping: bool = False  # after a malformed 'file:' line, until the next one
    # None: not checked; "": applies at the pinned commit; else how many lines differ.
    applies: str | None = None
