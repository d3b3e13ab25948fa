"""Benchmark: `site-gen fetch` of 50 pinned commits from a local source, and verifying
10,000 references against the fetched code.

Run: .venv/bin/python benchmarks/fetch.py [--commits 50] [--refs 10000]
Makes a source repository (200 files x 400 lines, then one commit per pinned PR), a
content folder whose PRs pin those commits, fetches them into an empty cache (then again,
when everything is there), and resolves N quoted references at the fetched heads.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.refs import FILES, LINES, make_repo  # noqa: E402
from site_gen.blocks.refs import resolve  # noqa: E402
from site_gen.config import fetched_dir, load_config  # noqa: E402
from site_gen.content import discover  # noqa: E402
from site_gen.context import PageContext  # noqa: E402
from site_gen.errors import Problems  # noqa: E402
from site_gen.fetch import fetch  # noqa: E402
from site_gen.git_reader import SourceReader  # noqa: E402


def commits(repo: Path, count: int) -> list[str]:
    """`count` more commits on top of the first, each changing one line of one file."""
    env = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b",
           "GIT_COMMITTER_EMAIL": "b@b", "PATH": "/usr/bin:/bin"}
    shas = []
    for n in range(count):
        path = repo / "pkg0" / "module_0.py"
        path.write_text(path.read_text().replace("compute(1)\n", f"compute(1)  # {n}\n", 1)
                        if n == 0 else path.read_text().replace(f"# {n - 1}\n", f"# {n}\n", 1))
        subprocess.run(["git", "-C", str(repo), "commit", "-qam", f"c{n}"], check=True, env=env)
        shas.append(subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], check=True,
                                   env=env, capture_output=True, text=True).stdout.strip())
    return shas


def project(root: Path, source: Path, heads: list[str]) -> Path:
    root.mkdir(parents=True)
    (root / "mkdocs.yml").write_text("site_name: Bench\ndocs_dir: content\nsite_gen:\n  sources:\n"
                                     f"    bench/repo: {source.as_uri()}\n")
    for n, head in enumerate(heads, 1):
        folder = root / "content/bench/repo" / str(n)
        folder.mkdir(parents=True)
        (folder / "pr.yml").write_text(f"repo: bench/repo\nnumber: {n}\ntitle: t\nhead: {head}\n"
                                       "state: open\n")
        (folder / "q.md").write_text("---\ntitle: t\nquestion: q\nstatus: open\n---\nText.\n")
    return root / "mkdocs.yml"


def verify(config_file: Path, heads: list[str], count: int) -> float:
    config = load_config(config_file)
    site = discover(config, Problems())
    files = tuple(f"pkg{f % 10}/module_{f}.py" for f in range(FILES))
    rng = random.Random(1)
    source = SourceReader(fetched_dir(config, "bench/repo"))
    prs = {pr.head: pr for pr in site.prs}
    started = time.perf_counter()
    for n in range(count):
        pr = prs[heads[n % len(heads)]]
        f, start = rng.randrange(1, FILES), rng.randrange(1, LINES - 3)
        ctx = PageContext(config, pr.path, dataclasses.replace(pr, files=files), 1, source)
        ref = resolve(ctx, f'module_{f}.py:{start}-{start + 2} "value_{f}_{start + 1} = compute"', 1)
        assert ref is not None and not ctx.problems.errors, ctx.problems.errors
    seconds = time.perf_counter() - started
    source.close()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--commits", type=int, default=50)
    parser.add_argument("--refs", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        upstream = Path(tmp) / "upstream"
        make_repo(upstream)
        heads = commits(upstream, args.commits)
        config_file = project(Path(tmp) / "site", upstream, heads)
        config = load_config(config_file)
        site = discover(config, Problems())
        started = time.perf_counter()
        (report,) = fetch(config, site)
        cold = time.perf_counter() - started
        assert len(report.fetched) == args.commits and not report.failed, report
        started = time.perf_counter()
        (again,) = fetch(config, site)
        warm = time.perf_counter() - started
        assert again.present == args.commits and not again.fetched
        seconds = verify(config_file, heads, args.refs)
        print(f"fetch of {args.commits} pinned commits from a local source: {cold:.2f} s "
              f"({cold / args.commits * 1000:.0f} ms per commit); again, all present: {warm:.3f} s")
        print(f"verified references against the fetched code: {args.refs} in {seconds:.3f} s "
              f"({seconds / args.refs * 1e6:.1f} us per reference)")


if __name__ == "__main__":
    main()
