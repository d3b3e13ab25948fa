"""One way to carry problems: errors and warnings are both (path, line, message) objects.

The CLI is the one place that turns them into output and exit codes.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path


class SiteGenError(Exception):
    """Base of every error site_gen reports to a user (exit code 1)."""


def where(path: Path | None, line: int | None) -> str:
    """`path:line` as messages start ('' when there is no file to name)."""
    if path is None:
        return ""
    shown = display_path(path)
    return f"{shown}:{line}" if line is not None else shown


def _located(message: str, path: Path | None, line: int | None) -> str:
    at = where(path, line)
    return f"{at}: {message}" if at else message


class ContentError(SiteGenError):
    """A problem in a file the author wrote, pointing at its path and line."""

    def __init__(self, message: str, path: Path | str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = Path(path)
        self.line = line

    def __reduce__(self) -> tuple[type, tuple[str, Path, int | None]]:
        # Errors travel back from worker processes; keep path and line on the way.
        return (type(self), (self.message, self.path, self.line))

    def __str__(self) -> str:
        return _located(self.message, self.path, self.line)


class ConfigError(ContentError):
    """A problem in mkdocs.yml (or another settings file)."""


class TemplateError(ContentError):
    """A broken template: a syntax error, or a name it uses that is not defined."""


UNCHECKED = "unchecked"  # the kind of a warning that code was not there to check pages against


@dataclass(frozen=True)
class ContentWarning:
    """Something an author should fix that does not stop the build (`--strict` does)."""

    message: str
    path: Path | None = None
    line: int | None = None
    # What it is about, where a command treats it apart: "unchecked" (pages not checked
    # against their code, which `check --allow-unchecked` only notes).
    kind: str = field(default="", compare=False)

    def __str__(self) -> str:
        return _located(self.message, self.path, self.line)


def sort_key(problem: ContentError | ContentWarning) -> tuple[str, int]:
    """The one order problems are reported in: by file, then by line."""
    return (str(problem.path or ""), problem.line or 0)


@dataclass
class Problems:
    """Every error and warning of one step or one build, collected instead of raised."""

    errors: list[ContentError] = field(default_factory=list)
    warnings: list[ContentWarning] = field(default_factory=list)

    def error(self, message: str, path: Path, line: int | None = None) -> None:
        self.errors.append(ContentError(message, path, line))

    def warn(self, message: str, path: Path | None = None, line: int | None = None,
             kind: str = "") -> None:
        self.warnings.append(ContentWarning(message, path, line, kind))

    def extend(self, errors: Iterable[ContentError] = (),
               warnings: Iterable[ContentWarning] = ()) -> None:
        self.errors.extend(errors)
        self.warnings.extend(warnings)

    def checkpoint(self) -> Checkpoint:
        """A mark to ask later whether anything failed since."""
        return Checkpoint(self, len(self.errors))


@dataclass(frozen=True)
class Checkpoint:
    problems: Problems
    errors: int

    @property
    def failed(self) -> bool:
        """True when an error was recorded after this checkpoint was taken."""
        return len(self.problems.errors) > self.errors


class BuildFailed(SiteGenError):
    """Every problem found in one build, reported together: its errors, its warnings, and
    how many warnings loading the settings gave (shown when they were loaded)."""

    def __init__(self, errors: list[SiteGenError], warnings: tuple[ContentWarning, ...] = (),
                 settings_warnings: int = 0) -> None:
        super().__init__(f"{len(errors)} error(s)")
        self.errors = errors
        self.warnings = warnings
        self.settings_warnings = settings_warnings

    @property
    def warning_count(self) -> int:
        return self.settings_warnings + len(self.warnings)

    @property
    def stopped_by_strict(self) -> bool:
        """No error: strict mode stopped the build on its warnings."""
        return not self.errors and self.warning_count > 0


def display_path(path: Path) -> str:
    """Show `path` relative to the working directory when it lies below it."""
    # abspath, not resolve: a page that is a (broken) symbolic link keeps its own name.
    absolute, here = Path(os.path.abspath(path)), Path(os.path.abspath(Path.cwd()))
    try:
        return str(absolute.relative_to(here))
    except ValueError:
        try:
            return str(absolute.relative_to(here.resolve()))
        except ValueError:
            return str(path)
