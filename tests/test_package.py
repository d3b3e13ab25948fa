"""site_gen as others install it: the wheel, in a fresh virtual environment, builds a site
from a folder outside this repository."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.xdist_group("wheel")  # one worker builds the wheel, for both tests


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel of this repository installed; the
    packages site_gen needs come from the test environment (no index is asked)."""
    tmp = tmp_path_factory.mktemp("package")
    source = tmp / "source"
    for name in ("site_gen", "templates"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
        "--wheel-dir", str(tmp / "dist"), str(source))
    venv = tmp / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", str(venv))
    python = venv / "bin" / "python"
    packages = Path(run(str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"))
    (packages / "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    (wheel,) = (tmp / "dist").glob("*.whl")
    run(sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
        "--no-index", str(wheel))
    return venv


def test_one_worker_takes_the_tests_of_a_group(request: pytest.FixtureRequest) -> None:
    """Under `--dist loadgroup` (scripts/test), a worker names a test's group to the
    scheduler in its id (tests/conftest.py); here, the group of this module's tests."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not in a worker of pytest-xdist's --dist loadgroup")
    assert request.node.nodeid.endswith("@wheel")


def run(*args: str, cwd: Path | None = None) -> str:
    done = subprocess.run(args, capture_output=True, text=True, check=False, cwd=cwd)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.strip()


def test_the_wheel_builds_a_site_outside_the_repository(installed: Path, tmp_path: Path) -> None:
    site_gen = str(installed / "bin" / "site-gen")
    version = run(site_gen, "--version")
    assert version.startswith("site-gen 0.1.0 (templates: ") and str(installed) in version
    project = tmp_path / "reviews"
    project.mkdir()
    (project / "mkdocs.yml").write_text("site_name: Reviews\ndocs_dir: content\n")
    run(site_gen, "new", "acme/widgets#7", "--head", "1234567", "--title", "Faster widgets",
        cwd=project)
    page = next((project / "content/acme/widgets/7").glob("*.md"))
    (project / "content/acme/widgets/7/pr.yml").write_text(
        (project / "content/acme/widgets/7/pr.yml").read_text().replace(
            "  - path/to/module.py\n", "  - path/to/module.py\ncode_unavailable: a test\n"))
    run(site_gen, "build", "--no-search", cwd=project)
    assert (project / "site/acme/widgets/7" / page.stem / "index.html").is_file()
    assert "Faster widgets" in (project / "site/acme/widgets/7/index.html").read_text()
    assert (project / "site/assets/site.css").read_text().startswith(":root{")  # served compact


COMPILES = """\
from site_gen.compiled import FOLDER, TEMPLATES
from site_gen.config import PACKAGE_TEMPLATES
from site_gen.templates import _environment
env = _environment(str(PACKAGE_TEMPLATES), None)
compiled = []
compile_ = env.compile
def compile(source, name=None, filename=None):
    compiled.append(name)
    return compile_(source, name, filename)
env.compile = compile
names = [n for n in env.list_templates() if n.endswith(TEMPLATES) and FOLDER not in n]
wrong = [n for n in names if env.get_template(n).filename != str(PACKAGE_TEMPLATES / n)]
print(PACKAGE_TEMPLATES, len(names), compiled, wrong)
"""


def test_the_wheel_carries_its_templates_compiled(installed: Path, tmp_path: Path) -> None:
    """Installed, site_gen loads its own templates without compiling any (each named by
    its file where it is installed): the wheel carries them compiled."""
    # run outside the repository: `python -c` imports from the folder it runs in first
    templates, count, compiled, wrong = run(str(installed / "bin" / "python"), "-c", COMPILES,
                                            cwd=tmp_path).split(" ", 3)
    assert templates.startswith(str(installed))
    assert int(count) > 15 and compiled == "[]" and wrong == "[]"
