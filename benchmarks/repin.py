"""Benchmark: re-pinning a PR, and what the drift notice costs a build where nothing moved.

Run: .venv/bin/python benchmarks/repin.py [--refs N] [--files N] [--prs N]   (scripts/bench repin)
Prints, each against its goal:
- `site-gen repin --dry-run` of one PR whose pages hold N references across F files, to a
  new head that inserts lines above every cited line of every file (so all of them move
  and are confirmed by content) and edits one line in ten files (those are changed);
- then the same repin writing the pages (rewritten atomically);
- a clean build of P PRs checked against their code whose pull refs point at the pinned
  heads (the drift notice is looked for on every PR and finds nothing), beside the same
  build without pull refs, interleaved rounds, medians: the notice's share of the build.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ENV = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b",
       "GIT_COMMITTER_EMAIL": "b@b", "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
       "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z", "PATH": "/usr/bin:/bin"}
MKDOCS = "site_name: Bench\nsite_url: https://bench.example.org/\ndocs_dir: content\n"
PAGE = ("---\ntitle: Page {n}\nquestion: q{n}\norder: {order}\nstatus: open\n"
        "updated: 2026-01-05\n---\n\n")


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True, env=ENV).stdout.strip()


def module(n: int, lines: int) -> str:
    return "".join(f"value_{n}_{i} = {i}  # line {i + 1}\n" for i in range(lines))


def make_code(root: Path, files: int, lines: int) -> tuple[str, str]:
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    for n in range(files):
        (root / f"pkg/m{n}.py").parent.mkdir(parents=True, exist_ok=True)
        (root / f"pkg/m{n}.py").write_text(module(n, lines))
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "old")
    old = git(root, "rev-parse", "HEAD")
    for n in range(files):
        text = "import os\nimport sys\n" + module(n, lines)
        if n % 10 == 0:
            text = text.replace(f"value_{n}_0 = 0 ", f"value_{n}_0 = 10 ")
        (root / f"pkg/m{n}.py").write_text(text)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "new")
    return old, git(root, "rev-parse", "HEAD")


def run(args: list[str], cwd: Path) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "site_gen", *args], cwd=cwd,
                          capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1) or "Traceback" in done.stderr or (
            args[0] == "build" and done.returncode):
        raise SystemExit(f"site-gen {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return seconds, done.stdout


def check_stage(project: Path, code: Path) -> float:
    """The code check stage alone (where the drift notice is looked for), in this process."""
    from site_gen.code_check import check_code
    from site_gen.config import load_config
    from site_gen.content import discover
    from site_gen.errors import Problems

    config = load_config(project / "mkdocs.yml", checkouts={"acme/widgets": code})
    site = discover(config, Problems())
    started = time.perf_counter()
    checks = check_code(config, site, Problems())
    seconds = time.perf_counter() - started
    assert all(check.checked and check.drift is None for check in checks.values())
    return seconds


def repin_project(root: Path, refs: int, files: int) -> tuple[Path, Path]:
    code = root / "code"
    old, new = make_code(code, files, 120)
    project = root / "project"
    folder = project / "content/acme/widgets/1"
    folder.mkdir(parents=True)
    (project / "mkdocs.yml").write_text(MKDOCS)
    (folder / "pr.yml").write_text(f"repo: acme/widgets\nnumber: 1\ntitle: T\nhead: {old}\n"
                                   "state: open\n")
    pages = 10
    for p in range(pages):
        lines = [PAGE.format(n=p, order=p + 1)]
        for r in range(refs // pages):
            n = (p * (refs // pages) + r) % files
            line = 1 + (r * 7) % 110
            lines.append(f"Line {r}: [[pkg/m{n}.py:{line}]].\n\n")
        (folder / f"page-{p}.md").write_text("".join(lines))
    git(code, "update-ref", "refs/pull/1/head", new)
    return project, code


def drift_project(root: Path, prs: int, refs: bool) -> Path:
    code = root / "code"
    if not code.exists():
        make_code(code, 4, 40)
    head = git(code, "rev-parse", "HEAD")
    for n in range(1, prs + 1):
        if refs:
            git(code, "update-ref", f"refs/pull/{n}/head", head)
        else:
            subprocess.run(["git", "-C", str(code), "update-ref", "-d", f"refs/pull/{n}/head"],
                           capture_output=True, check=False)
    project = root / "project"
    if not project.exists():
        (project / "content").mkdir(parents=True)
        (project / "mkdocs.yml").write_text(MKDOCS)
        for n in range(1, prs + 1):
            folder = project / f"content/acme/widgets/{n}"
            folder.mkdir(parents=True)
            (folder / "pr.yml").write_text(f"repo: acme/widgets\nnumber: {n}\ntitle: T{n}\n"
                                           f"head: {head}\nstate: open\n")
            (folder / "q.md").write_text(PAGE.format(n=n, order=1) + f"See [[pkg/m{n % 4}.py:3]].\n")
    return project


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--refs", type=int, default=500)
    parser.add_argument("--files", type=int, default=50)
    parser.add_argument("--prs", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="site-gen-bench-repin-"))
    try:
        project, code = repin_project(root / "repin", args.refs, args.files)
        checkout = ["--checkout", f"acme/widgets={code}"]
        dry, said = run(["repin", "acme/widgets#1", "--dry-run", *checkout], project)
        wrote, _ = run(["repin", "acme/widgets#1", *checkout], project)
        print(f"repin --dry-run, {args.refs} references in {args.files} files: {dry:.2f} s "
              f"(goal 5 s: {'met' if dry <= 5 else 'missed'})")
        print("  " + [line for line in said.splitlines() if " → " in line][0])
        print(f"repin, writing the pages:                      {wrote:.2f} s")
        build = ["build", "--no-cache", "--no-search", "-j", str(os.cpu_count() or 1),
                 "--checkout", f"acme/widgets={root / 'drift/code'}"]
        times: dict[bool, list[float]] = {True: [], False: []}
        stage: dict[bool, list[float]] = {True: [], False: []}
        for _ in range(args.rounds):
            for refs in (False, True):
                project = drift_project(root / "drift", args.prs, refs)
                times[refs].append(run(build, project)[0])
                stage[refs].append(check_stage(project, root / "drift/code"))
        without, with_refs = (statistics.median(times[k]) for k in (False, True))
        looked = statistics.median(stage[True]) - statistics.median(stage[False])
        share = looked / without
        print(f"clean build of {args.prs} PRs, no pull refs:      {without:.2f} s (median of "
              f"{args.rounds})")
        print(f"the same, every pull ref at the pinned head:  {with_refs:.2f} s")
        print(f"the code check stage, {args.prs} PRs: {statistics.median(stage[False]):.3f} s "
              f"without pull refs, {statistics.median(stage[True]):.3f} s with them")
        print(f"the drift notice's share of the build (the stage's difference / the build): "
              f"{share:+.1%} (goal at most 5%: {'met' if share <= 0.05 else 'missed'})")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
