"""Benchmark: what deleting many files does to making new ones, on this machine.

Run: scripts/bench churn [--prs 1000] [--rounds 2]

Makes the files of a site shaped like a site_gen site of `--prs` PRs (a folder per PR with
its page, a folder in it with its question page, and two small files per PR in one shared
folder, as Pagefind's fragments are) in a folder of its own, `--rounds` times, deleting
nothing; then deletes them all and makes them as many times again. It prints each time.

On a file system that reuses freed inodes at once, the times after deleting are those
before. ext4 without a journal (this machine's root) does not hand out an inode freed in
the last minute (five more while its inode table is not yet written back) and looks at
each such inode in turn before it finds a free one: right after a build's site is
deleted, the next build makes its files several times more slowly, and each deletion adds
to the last. This is why benchmarks/build.py builds every clean site into a folder of its
own and deletes nothing before it ends. Run it on a machine that has deleted nothing for
some minutes (a second run at once shows the first one's deletions in its "before").
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

PAGE = b"<!doctype html>" + b"x" * 20_000  # about a question page's size
SMALL = b"y" * 2_000  # about a search fragment's


def make_site(folder: Path, prs: int) -> float:
    """Seconds to make the site's folders and files under `folder`."""
    started = time.perf_counter()
    shared = folder / "fragment"
    shared.mkdir(parents=True)
    for n in range(prs):
        page = folder / "RL" / str(n) / "question"
        page.mkdir(parents=True)
        (page.parent / "index.html").write_bytes(PAGE)
        (page / "index.html").write_bytes(PAGE)
        for k in range(2):
            (shared / f"{n}-{k}.pf_fragment").write_bytes(SMALL)
    return time.perf_counter() - started


def file_system(path: Path) -> str:
    """The type of the file system holding `path`, as /proc/mounts names it."""
    best, kind = "", "unknown"
    try:
        mounts = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return kind
    resolved = str(path.resolve())
    for line in mounts:
        fields = line.split()
        if len(fields) > 2 and resolved.startswith(fields[1]) and len(fields[1]) > len(best):
            best, kind = fields[1], fields[2]
    return kind


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--prs", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="site-gen-bench-churn-") as tmp:
        root = Path(tmp)
        files = args.prs * 5 + 1
        print(f"{args.prs:,} PRs: {files:,} files and {args.prs * 2 + 3:,} folders each time, "
              f"on {file_system(root)} ({os.cpu_count()} cores)")
        made = [root / f"before-{k}" for k in range(args.rounds)]
        before = [make_site(folder, args.prs) for folder in made]
        for folder in made:
            shutil.rmtree(folder)
        after = [make_site(root / f"after-{k}", args.prs) for k in range(args.rounds)]
        for label, times in (("nothing deleted before", before),
                             ("right after deleting those", after)):
            shown = ", ".join(f"{t:.3f}" for t in times)
            print(f"  {label:28} {shown} s ({min(times) / files * 1e6:.0f} µs a file at best)")
        print(f"  after / before (best of each): {min(after) / min(before):.2f}")


if __name__ == "__main__":
    main()
