"""The publishing workflow passes check-jsonschema's GitHub-workflow schema (bundled, offline)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

WORKFLOW = Path(__file__).resolve().parent.parent / ".github/workflows/publish.yml"


def lint(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema",
                           "vendor.github-workflows", str(path)],
                          capture_output=True, text=True, check=False)


def test_workflow_passes_the_schema() -> None:
    done = lint(WORKFLOW)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_linter_rejects_a_broken_workflow(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_text(WORKFLOW.read_text().replace("runs-on: ubuntu-latest", "runs_on: ubuntu-latest"))
    assert lint(broken).returncode == 1


def test_workflow_builds_strict_tests_and_deploys_with_the_official_actions() -> None:
    flow = yaml.safe_load(WORKFLOW.read_text())
    assert flow[True]["push"]["branches"] == ["main"]  # YAML 1.1 reads "on" as true
    steps = flow["jobs"]["build"]["steps"]
    runs = [s.get("run") for s in steps if "run" in s]
    assert runs == ["scripts/test", "scripts/fetch", "scripts/build --strict"]
    uses = [s["uses"].split("@")[0] for s in steps if "uses" in s]
    assert "actions/configure-pages" in uses and "actions/upload-pages-artifact" in uses
    assert flow["jobs"]["deploy"]["steps"][0]["uses"].startswith("actions/deploy-pages@")
    build_step = next(s for s in steps if s.get("run") == "scripts/build --strict")
    assert build_step["env"]["SITE_URL"].startswith("${{ steps.pages.outputs.base_url }}")
    assert flow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
