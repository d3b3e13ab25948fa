"""The wheel carries the built-in templates: `templates/` (their source, at the top of this
repository) is copied to `site_gen/theme/` in every build, and compiled there (into its
`__pycache__`, as pip compiles the package's modules: see site_gen/compiled.py).
Everything else is in pyproject.toml."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"


class BuildWithTemplates(build_py):  # type: ignore[misc]
    """build_py, then the templates into the built package, compiled."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            target = Path(self.build_lib) / "site_gen" / "theme"
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(TEMPLATES, target, ignore=shutil.ignore_patterns("__pycache__"))
            # loaded by its path: importing the package would need all it requires
            spec = importlib.util.spec_from_file_location("site_gen_compiled",
                                                          HERE / "site_gen" / "compiled.py")
            assert spec is not None and spec.loader is not None
            compiled = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(compiled)
            compiled.compile_own(target)


setup(cmdclass={"build_py": BuildWithTemplates})
