"""Benchmark: verifying 10,000 pinned code references against a git checkout.

Run: .venv/bin/python benchmarks/refs.py [--refs N]
Makes a repository of 200 files x 400 lines in a temporary folder, then resolves and
verifies N references (file, line range and a quoted snippet) through site_gen's one
`git cat-file --batch-command` reader, and prints the time.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import tempfile
import time
from pathlib import Path

from site_gen.blocks.refs import resolve
from site_gen.config import default_config
from site_gen.content import PullRequest
from site_gen.context import PageContext
from site_gen.git_reader import SourceReader
from site_gen.statuses import DEFAULT_STATUSES

FILES, LINES = 200, 400


def make_repo(root: Path) -> str:
    env = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b",
           "GIT_COMMITTER_EMAIL": "b@b", "PATH": "/usr/bin:/bin"}
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=env)
    for f in range(FILES):
        path = root / f"pkg{f % 10}" / f"module_{f}.py"
        path.parent.mkdir(exist_ok=True)
        path.write_text("".join(f"value_{f}_{n} = compute({n})\n" for n in range(1, LINES + 1)))
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True, env=env)
    subprocess.run(["git", "-C", str(root), "commit", "-q", "-m", "bench"], check=True, env=env)
    return subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], check=True, env=env,
                          capture_output=True, text=True).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--refs", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp)
        head = make_repo(repo)
        files = tuple(f"pkg{f % 10}/module_{f}.py" for f in range(FILES))
        pr = PullRequest(repo / "pr.yml", "bench/repo", 1, "t", head[:9], None,
                         DEFAULT_STATUSES["open"], files, ())
        rng = random.Random(1)
        refs = []
        for _ in range(args.refs):
            f = rng.randrange(FILES)
            start = rng.randrange(1, LINES - 3)
            refs.append(f'module_{f}.py:{start}-{start + 2} "value_{f}_{start + 1} = compute"')
        source = SourceReader(repo)
        ctx = PageContext(default_config(repo), repo / "page.md", pr, 1, source)
        started = time.perf_counter()
        resolved = [resolve(ctx, text, 1) for text in refs]
        seconds = time.perf_counter() - started
        source.close()
        assert not ctx.problems.errors, ctx.problems.errors[:3]
        assert all(r is not None and r.commit == head for r in resolved)
        print(f"verified references: {args.refs}")
        print(f"files in the checkout: {FILES} x {LINES} lines")
        print(f"time: {seconds:.3f} s ({seconds / args.refs * 1e6:.1f} us per reference)")


if __name__ == "__main__":
    main()
