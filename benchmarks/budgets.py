"""Benchmark: what checking the model workload against its code costs a clean build, and
what the stages of the last issues (the code index, claims, the drift notice) take of it.

Run: .venv/bin/python benchmarks/budgets.py [--sizes 150,1000] [--rounds 3]
     (scripts/bench budgets)

For each size N it writes N copies of the model PR twice: as the build benchmark does (not
checked: `code_unavailable`), and checked against a local repository that holds, at the
head each copy pins, every line the model page cites, quotes or changes (its references,
its flow's source, its three proposals, its review callout; `benchmarks/sample.py`), with
each copy's pull ref at that head (the drift notice is looked for and finds nothing).
Then, each command in a fresh process, alternating, the best of `--rounds`:

- a clean build (no cache, no site from before, every core, no search) of each: what
  checking costs in all (the code read, the index of its definitions, the previews of
  the cited lines, the drift look-up);
- a clean build of the checked copies on one worker, with the time spent in the code
  index (`code_index.index_of`, each call's own time), in the drift look-up
  (`code_check._drift`) and in claims (`blocks.claim`: the model page has none) added up
  inside the process: each stage's share of that build (goal: the three together at most
  10% of a clean build when nothing is cached); and, not a goal, the proposals' check
  against the code (`placement.check_applies`, where a proposal is placed and looked for
  as made: the code index's calls inside it count in both);
- the same command again with nothing changed, cache on: the build stops at its
  up-to-date check, so none of the stages runs (goal: nothing measurable);
- a one-edit rebuild of each (one page's text changed, then the same command, cache on),
  in turns, the best of `--rounds`: what checking against the code costs the edit an
  author makes (the checks of every PR, the edited page's references verified).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.build import remove_site  # noqa: E402
from benchmarks.sample import write_checked_model_copies, write_model_copies  # noqa: E402
from site_gen.compiled import compile_own  # noqa: E402
from site_gen.config import PACKAGE_TEMPLATES  # noqa: E402

# One build in this process, with the stages' own time added up as they run.
STAGED = textwrap.dedent("""\
    import json, sys, time
    started = time.perf_counter()
    from site_gen import cli, code_check
    from site_gen.blocks import claim, excerpt, proposal, refs
    spent = {"code index": 0.0, "drift look-up": 0.0, "claims": 0.0, "proposals checked": 0.0}
    def timed(module, name, stage):
        real = getattr(module, name)
        def wrapper(*args, **kwargs):
            began = time.perf_counter()
            try:
                return real(*args, **kwargs)
            finally:
                spent[stage] += time.perf_counter() - began
        setattr(module, name, wrapper)
    for module in (excerpt, proposal, refs):  # the blocks that look definitions up (an
        if hasattr(module, "index_of"):  # excerpt's name is found through proposal's helper)
            timed(module, "index_of", "code index")
    timed(code_check, "_drift", "drift look-up")
    timed(claim, "_count", "claims")
    timed(proposal, "check_applies", "proposals checked")  # index_of inside it counts twice
    try:
        cli.main(sys.argv[1:])
    except SystemExit as stop:
        if stop.code:
            raise
    print(json.dumps({"seconds": time.perf_counter() - started, **spent}))
""")


def run(project: Path, *args: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "site_gen", "build", "-q", *args], cwd=project,
                   check=True, capture_output=True)
    return time.perf_counter() - started


def staged(project: Path, *args: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", STAGED, "build", "-q", *args], cwd=project,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def measure(n: int, rounds: int) -> dict[str, float]:
    cores = str(os.cpu_count() or 1)
    with tempfile.TemporaryDirectory() as tmp:
        plain, checked, code = Path(tmp, "plain"), Path(tmp, "checked"), Path(tmp, "code")
        plain.mkdir()
        write_model_copies(plain, n)
        write_checked_model_copies(checked, n, code)
        against = ("--checkout", str(code))
        clean = ("--no-cache", "--no-search")
        unchecked, whole, one = [], [], []
        for _ in range(rounds):  # alternating, so both see the same machine; each from
            remove_site(plain)  # nothing (a site built before is written only where it changed)
            unchecked.append(run(plain, *clean, "--jobs", cores))
            remove_site(checked)
            whole.append(run(checked, *clean, "--jobs", cores, *against))
            remove_site(checked)
            one.append(staged(checked, *clean, "--jobs", "1", *against))
        best = min(one, key=lambda r: r["seconds"])
        run(checked, "--no-search", *against)  # the cache and the site, then nothing changed
        again = min(run(checked, "--no-search", *against) for _ in range(rounds))
        run(plain, "--no-search")  # its cache and both copies of its site, as the edits below
        run(plain, "--no-search")
        edits: dict[str, list[float]] = {"checked": [], "not checked": []}
        for k in range(rounds):  # one page's text changed, then the same command: in turns
            for name, project, flags in (("checked", checked, against), ("not checked", plain, ())):
                page = sorted((project / "content").rglob("*.md"))[n // 2]
                page.write_text(page.read_text() + f"\nAn edit, {k}.\n", encoding="utf-8")
                edits[name].append(run(project, "--no-search", *flags))
        return {"not checked, clean": min(unchecked), "checked, clean": min(whole),
                "checked, clean, 1 worker": best["seconds"],
                "code index (1 worker)": best["code index"],
                "drift look-up (1 worker)": best["drift look-up"],
                "claims (1 worker)": best["claims"],
                "proposals checked (1 worker)": best["proposals checked"],
                "checked, nothing changed": again,
                "not checked, one-edit rebuild": min(edits["not checked"]),
                "checked, one-edit rebuild": min(edits["checked"])}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="150,1000")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    compileall.compile_dir(ROOT / "site_gen", quiet=1)  # as `pip install` does
    compile_own(PACKAGE_TEMPLATES)  # as building the wheel does
    sizes = [int(s) for s in args.sizes.split(",")]
    results = {}
    for n in sizes:
        results[n] = measure(n, args.rounds)
        print(f"({n} PRs measured)", file=sys.stderr, flush=True)
    print(f"\n== the model workload checked against its code (copies of the model PR)\n"
          f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; best of "
          f"{args.rounds}\n")
    print(f"{'seconds':44}" + "".join(f"{f'{n:,} PRs':>14}" for n in sizes))
    for name in results[sizes[0]]:
        print(f"{name:44}" + "".join(f"{results[n][name]:>14.3f}" for n in sizes))
    print()
    ratios = {
        "checking's cost: checked / not checked": lambda r: r["checked, clean"]
        / r["not checked, clean"],
        "checking's cost on an edit: checked / not": lambda r: r["checked, one-edit rebuild"]
        / r["not checked, one-edit rebuild"],
        "code index's share (1 worker)": lambda r: r["code index (1 worker)"]
        / r["checked, clean, 1 worker"],
        "drift look-up's share (1 worker)": lambda r: r["drift look-up (1 worker)"]
        / r["checked, clean, 1 worker"],
        "claims' share (1 worker)": lambda r: r["claims (1 worker)"]
        / r["checked, clean, 1 worker"],
        "proposals checked: share (1 worker)": lambda r:
        r["proposals checked (1 worker)"] / r["checked, clean, 1 worker"],
    }
    for label, ratio in ratios.items():
        print(f"{label:44}" + "".join(f"{ratio(results[n]):>14.3f}" for n in sizes))
    print("\ngoals:")
    for n in sizes:
        r = results[n]
        share = sum(r[f"{s} (1 worker)"] for s in ("code index", "drift look-up", "claims")) \
            / r["checked, clean, 1 worker"]
        print(f"  code index + claims + drift at {n:,} PRs, nothing cached: {share:6.1%} of the "
              f"build  goal <= 10%  {'met' if share <= 0.10 else 'MISSED'}")
        print(f"  nothing changed at {n:,} PRs: {r['checked, nothing changed']:.3f} s, "
              "the stages not run (the build stops at its up-to-date check)")


if __name__ == "__main__":
    main()
