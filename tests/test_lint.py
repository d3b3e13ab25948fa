"""The code passes ruff with the project's settings (pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing() -> None:
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "site_gen", "tests", "benchmarks"],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_finds_nothing() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "site_gen"],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
