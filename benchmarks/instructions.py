"""Benchmark: the per-page goal counted in instructions, which the machine's noise cannot move.

Run: scripts/bench instructions [--sizes 50,150] [--jobs 2]

Wall times on a shared machine move by a third from one minute to the next (see
RESULTS.md), so the figure "site_gen on one worker / the fair floor, per page" of
benchmarks/build.py can only be read over many runs. This counts, with valgrind's
callgrind, the instructions each process runs in user space, which are the same in every
run of the same command on the same inputs: for each size of the model workload (copies
of the model PR), the fair floor (benchmarks/build.py's FLOOR) and a clean site_gen build
on one worker without search; and what each page adds to either (the slope between the
smallest and the largest size, start-up left out).

What it does not count: the kernel's work (making the site's files, reading the pages),
and how fast the processor runs each instruction (a process holding more memory waits
longer on it). The wall-time ratio is the counted one with those added.

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
from benchmarks.build import FLOOR  # noqa: E402
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="50,150", help="PRs of the model workload, one page each")
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
            counted = dict(zip([(n, who) for n, who, _, _ in runs],
                               pool.map(lambda r: instructions(r[2], r[3]), runs), strict=True))
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


if __name__ == "__main__":
    main()
