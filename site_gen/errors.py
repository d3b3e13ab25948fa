"""One error hierarchy for site_gen; the CLI turns it into exit codes."""

from __future__ import annotations

import os
from pathlib import Path


class SiteGenError(Exception):
    """Base of every error site_gen reports to a user (exit code 1)."""


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
        where = display_path(self.path)
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}"


class ConfigError(ContentError):
    """A problem in mkdocs.yml (or another settings file)."""


class BuildFailed(SiteGenError):
    """Every problem found in one build, reported together."""

    def __init__(self, errors: list[SiteGenError]) -> None:
        super().__init__(f"{len(errors)} error(s)")
        self.errors = errors


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
