"""Benchmark: the per-page goal counted in instructions, which the machine's noise cannot move.

Run: scripts/bench instructions [--sizes 50,150] [--edit-prs 300] [--jobs 2]

Wall times on a shared machine move by a third from one minute to the next (see
RESULTS.md), so the figure "site_gen on one worker / the fair floor, per page" of
benchmarks/build.py can only be read over many runs. This counts, with valgrind's
callgrind, the instructions each process runs in user space, which are the same in every
run of the same command on the same inputs: for each size of the model workload (copies
of the model PR), the fair floor (benchmarks/build.py's FLOOR) and a clean site_gen build
on one worker without search; and what each page adds to either (the slope between the
smallest and the largest size, start-up left out).

And where a one-edit CLI rebuild's instructions go (`--edit-prs` copies of the model PR,
one page's text changed after two builds, without search, as benchmarks/build.py edits):
starting Python, importing the libraries any one-page build needs (build.py's LIBRARIES),
importing site_gen's own modules, and the build itself. The first two are what any Python
generator of these pages pays before reading a page: the one-edit goal is a share of a
clean build, so they bound how small that share can get.

What it does not count: the kernel's work (making the site's files, reading the pages),
and how fast the processor runs each instruction (a process holding more memory waits
longer on it). The wall-time ratio is the counted one with those added. What it counts
high: under valgrind, SHA-256 runs in software, about 28 instructions a byte, where a
processor with SHA extensions (most x86 and ARM ones since 2017) takes a small share of
that. A clean build at 150 PRs hashes about 4.7 MB (some 130 million of its count), a
one-edit rebuild at 300 PRs about 6 MB (some 170 million: the content files, the cache
entries it reads, the page keys).

Needs valgrind (Debian's package `valgrind`); each count takes about fifty times the
command's own time, the counts run `--jobs` at a time.
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.build import FLOOR, LIBRARIES, OWN_MODULES  # noqa: E402
from benchmarks.sample import write_model_copies  # noqa: E402
from site_gen.compiled import compile_own  # noqa: E402
from site_gen.config import PACKAGE_TEMPLATES  # noqa: E402

COLLECTED = re.compile(r"Collected : (\d+)")


def instructions(command: list[str], cwd: Path) -> int:
    """The instructions `command` ran in user space (its own process, not its children's)."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        cwd=cwd, capture_output=True, text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"})  # the same dict orders in every run
    found = COLLECTED.search(done.stderr)
    if done.returncode or found is None:
        raise SystemExit(f"{' '.join(command)} failed under valgrind:\n{done.stderr[-2000:]}")
    return int(found[1])


def floor(project: Path) -> list[str]:
    return [sys.executable, "-c", FLOOR, str(project / "content")]


def build(project: Path) -> list[str]:
    return [sys.executable, "-m", "site_gen", "build", "--jobs", "1", "--no-search",
            "--no-cache", "--site-dir", str(project / "site")]


def edit_counts(project: Path) -> dict[str, int]:
    """Instructions of a one-edit rebuild of `project` and of the starts it is made of, from
    Python alone to Python with the libraries and site_gen's modules imported."""
    command = [sys.executable, "-m", "site_gen", "build", "--no-search"]
    pages = sorted((project / "content").rglob("*.md"))
    page = pages[len(pages) // 2]
    text = page.read_text()
    for k in range(2):  # the cache and both copies of the site are this command's
        page.write_text(f"{text}\nAn edit, {k}.\n")
        subprocess.run(command, cwd=project, check=True, capture_output=True)
    page.write_text(f"{text}\nThe edit counted.\n")
    starts = {"Python": "pass", "the libraries": LIBRARIES,
              "site_gen's modules": f"{LIBRARIES}; {OWN_MODULES}"}
    counts = {label: instructions([sys.executable, "-c", code], project)
              for label, code in starts.items()}
    counts["the edit"] = instructions(command, project)
    return counts


def report_edit(prs: int, counts: dict[str, int]) -> None:
    """The one-edit rebuild's instructions, part by part (each start is the one before
    with more imported; the build is what follows the last)."""
    total = counts["the edit"]
    print(f"\none-edit rebuild at {prs:,} PRs, no search: {total / 1e6:,.0f} million instructions")
    before = 0
    for label, upto in (("starting Python", "Python"), ("importing the libraries", "the libraries"),
                        ("importing site_gen's modules", "site_gen's modules"),
                        ("the build itself", "the edit")):
        part = counts[upto] - before
        before = counts[upto]
        print(f"  {label:38}{part / 1e6:>10,.0f}{part / total:>10.1%}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="50,150", help="PRs of the model workload, one page each")
    parser.add_argument("--edit-prs", type=int, default=300,
                        help="PRs of the workload the one-edit rebuild is counted on (0: none)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    sizes = sorted(int(s) for s in args.sizes.split(","))
    compileall.compile_dir(ROOT / "site_gen", quiet=1)  # as `pip install` does (see build.py)
    compile_own(PACKAGE_TEMPLATES)  # as building the wheel does
    work = Path(tempfile.mkdtemp(prefix="site-gen-instructions-"))
    try:
        runs = []
        for n in sizes:
            project = work / str(n)
            project.mkdir()
            write_model_copies(project, n)
            runs += [(n, "floor", floor(project), project), (n, "site_gen", build(project), project)]
        with ThreadPoolExecutor(args.jobs) as pool:
            edited = None
            if args.edit_prs:
                project = work / f"edit-{args.edit_prs}"
                project.mkdir()
                write_model_copies(project, args.edit_prs)
                edited = pool.submit(edit_counts, project)
            counted = dict(zip([(n, who) for n, who, _, _ in runs],
                               pool.map(lambda r: instructions(r[2], r[3]), runs), strict=True))
            edit = edited.result() if edited is not None else None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("instructions in user space (millions), the model workload, clean builds")
    print(f"{'':40}" + "".join(f"{f'{n:,} pages':>16}" for n in sizes))
    for who, label in (("floor", "fair floor"), ("site_gen", "site_gen, 1 worker, no search")):
        print(f"{label:40}" + "".join(f"{counted[n, who] / 1e6:>16,.0f}" for n in sizes))
    print(f"{'site_gen / fair floor':40}"
          + "".join(f"{counted[n, 'site_gen'] / counted[n, 'floor']:>16.3f}" for n in sizes))
    if len(sizes) > 1:
        low, high = sizes[0], sizes[-1]
        per = {who: (counted[high, who] - counted[low, who]) / (high - low)
               for who in ("floor", "site_gen")}
        print(f"\nwhat each page adds, {low:,} to {high:,} pages (millions): "
              f"fair floor {per['floor'] / 1e6:.1f}, site_gen {per['site_gen'] / 1e6:.1f}, "
              f"site_gen / fair floor {per['site_gen'] / per['floor']:.3f}")
    if edit is not None:
        report_edit(args.edit_prs, edit)


if __name__ == "__main__":
    main()
