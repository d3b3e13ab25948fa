"""The wheel carries the built-in templates: `templates/` (their source, at the top of this
repository) is copied to `site_gen/theme/` in every build. Everything else is in
pyproject.toml."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

TEMPLATES = Path(__file__).resolve().parent / "templates"


class BuildWithTemplates(build_py):  # type: ignore[misc]
    """build_py, then the templates into the built package."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            target = Path(self.build_lib) / "site_gen" / "theme"
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(TEMPLATES, target)


setup(cmdclass={"build_py": BuildWithTemplates})
