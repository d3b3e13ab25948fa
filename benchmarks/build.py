"""Benchmark: site_gen against a fair floor and MkDocs, on synthetic review sites.

Run: scripts/bench [--workload both|model|generated] [--model-sizes 150,300,1000]
                   [--sizes 150,1000,3000] [--rounds 2]

Two workloads, each in a table of its own: the model workload (N copies of the model PR,
content/NVIDIA-NeMo/RL/4607, its pr.yml and its one page as they are, each with its three
highlighted hunks, flow diagram and callouts: real pages, N PRs), and the generated one
(N pages shaped like the model page with their headings and statuses varied, three per
pull request, so 3,000 pages are 1,000 PRs). For each size it measures, each command in
a fresh process:

- the fair floor: what any generator of these pages must do, on one core: read each
  page and pr.yml, parse the front matter and pr.yml with the same YAML loader (libyaml),
  render the body with bare markdown-it-py, and lex each proposal hunk's two sides (old
  and new) with Pygments' lexer of the file, formatting the tokens as HTML; and, not a
  goal, the same floor lexing as site_gen lexes (Pygments' lexers and tokens, each
  state's rules indexed by their first characters: site_gen/lexer_index.py), which shows
  how much of site_gen's distance from the floor is its faster lexing;
- clean builds (no cache, no site from before, each in a folder no build used: see
  FOLDERS): site_gen on one worker (alternating with the floor) and on every core,
  without and with the search index, and `mkdocs build` of the same markdown (default
  theme, codehilite), site_gen and MkDocs alternating, `--rounds` times each (the best
  of each is kept, the floor's too);
- a one-edit CLI rebuild (warm cache) without and with search: after two edits that
  bring the cache and both copies of the site to this command, the best of three edits;
- what writing the site costs on the machine: the files of the site just built (its
  search index too) made again in a new folder, with their folders, by a plain loop;
- what starting costs before any page is read, the best of three: Python with the
  libraries any one-page build needs (templates, markdown, YAML, Pygments' lexer base,
  SQLite for a cache), and Python with site_gen's modules a one-edit rebuild imports;
- `site-gen serve`: from saving a page to the new bytes being served, for a body edit
  (the page) and a title edit (the home page lists it); the median of five saves;
- peak memory (resident set of the process and its children);

and the weight of one page (HTML, CSS, JavaScript it needs) beside MkDocs' page of the
same markdown; on Linux, what share of each size's run some task waited for the disk, and
for a processor (/proc/pressure: a size measured while the disk stalled measures it); after
the model workload's table, each goal it measured and whether it was met (the per-page
goal also as the slope between the smallest and largest size: what each page adds, with
either tool's start-up left out).

site_gen's modules are compiled to bytecode first, as installing a package does (and as
MkDocs and the libraries both use are): a development checkout run with
PYTHONDONTWRITEBYTECODE would otherwise compile them from source in every process. So are
its templates, as building its wheel does (site_gen/compiled.py): a checkout holds only
their source.
"""

from __future__ import annotations

import argparse
import compileall
import itertools
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.sample import write_model_copies, write_site  # noqa: E402
from site_gen.compiled import compile_own  # noqa: E402
from site_gen.config import PACKAGE_TEMPLATES  # noqa: E402

WORKLOADS: dict[str, Callable[[Path, int], None]] = {
    # N copies of the model PR as it is (its pr.yml and its one page): real pages
    "model": write_model_copies,
    # N pages shaped like the model page, three per PR (headings and statuses varied)
    "generated": write_site,
}

MEASURE = textwrap.dedent("""\
    import json, resource, subprocess, sys, time
    started = time.perf_counter()
    done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode:
        sys.exit(done.stdout + done.stderr)
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(json.dumps({"seconds": seconds, "peak_mib": rss / 1024}))
""")

FLOOR = textwrap.dedent("""\
    import sys, pathlib, yaml
    from markdown_it import MarkdownIt
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer
    formatter, lexer = HtmlFormatter(nowrap=True), PythonLexer(stripnl=False, ensurenl=False)
    def sides(code):
        hunks, hunk = [], None
        for line in code.splitlines():
            if line.startswith("@@"):
                hunk = ([], [])
                hunks.append(hunk)
            elif hunk is not None and line[:1] in (" ", "-", "+"):
                if line[0] in " -":
                    hunk[0].append(line[1:])
                if line[0] in " +":
                    hunk[1].append(line[1:])
        return hunks
    def hl(code, lang, attrs):
        if lang != "proposal":
            return ""
        return "".join(highlight("\\n".join(side) + "\\n", lexer, formatter)
                       for hunk in sides(code) for side in hunk)
    md = MarkdownIt("commonmark", {"highlight": hl}).enable(["table", "strikethrough"])
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    for path in sorted(pathlib.Path(sys.argv[1]).rglob("*")):
        if path.name == "pr.yml":
            yaml.load(path.read_text(), Loader=loader)
        elif path.suffix == ".md":
            front, body = path.read_text().split("\\n---\\n", 1)
            yaml.load(front.removeprefix("---\\n"), Loader=loader)
            md.render(body)
""")

# Not a goal: the floor with its lexer run as site_gen runs Pygments' lexers (each state's
# rules indexed by their first characters, site_gen/lexer_index.py: the same tokens),
# which shows how much of site_gen's distance from the floor is lexing faster.
FLOOR_INDEXED = FLOOR.replace(
    "def sides(code):",
    "from site_gen.lexer_index import tokens\n"
    "lexer.get_tokens_unprocessed = lambda text, stack=('root',): tokens(lexer, text)\n"
    "def sides(code):", 1)
assert FLOOR_INDEXED != FLOOR


# What a one-edit rebuild cannot do without, in any Python generator of these pages: start
# Python and import what renders one page (and keeps a cache). And what site_gen imports.
LIBRARIES = "import jinja2, markdown_it, mdit_py_plugins.container, yaml, pygments.lexer, sqlite3"
OWN_MODULES = "import site_gen.cli, site_gen.question_pages"


# What writing the site costs on this machine, whatever makes it: every file of a built
# site (the search index's too) read first, then made again with the same bytes in a new
# folder, its folders one by one (as any generator writing a site from nothing must).
WRITE_FLOOR = textwrap.dedent("""\
    import pathlib, sys, tempfile, time
    site = pathlib.Path(sys.argv[1]).resolve()
    files = {p.relative_to(site): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}
    out = tempfile.mkdtemp(dir=site.parent)  # kept, as every site of the run (see FOLDERS)
    started = time.perf_counter()
    for name, data in files.items():
        target = pathlib.Path(out, name)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    print(time.perf_counter() - started)
""")


def write_floor(project: Path) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", WRITE_FLOOR, str(project / LAST[project, "site"])],
                         cwd=project, capture_output=True, text=True, check=True).stdout
    return {"seconds": float(out)}


def measure(*command: str, cwd: Path) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", MEASURE, *command], cwd=cwd,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def site_gen(project: Path, *args: str) -> dict[str, float]:
    return measure(sys.executable, "-m", "site_gen", "build", *args, cwd=project)


def best(runs: list[dict[str, float]]) -> dict[str, float]:
    return min(runs, key=lambda r: r["seconds"])


PAIRS: dict[tuple[str, int], dict[str, list[float]]] = {}  # each goal's ratio, pair by pair

# Every clean build, either tool's, goes into a folder no build used before, and nothing
# built is deleted before the run ends (each project is a folder of KEPT). On this
# machine's file system (ext4 without a journal) a file made within minutes of deleting
# many is slow to make: the kernel passes over the inodes freed lately, one by one.
# Deleting one build's site before the next slowed that build's writes, the more the
# more files a tool writes, and a build from a fresh clone deletes nothing
# (`scripts/bench churn` shows it on the machine at hand).
FOLDERS = itertools.count(1)
KEPT: list[Path] = []
LAST: dict[tuple[Path, str], str] = {}  # the folder each project's last build of a kind made


def fresh(project: Path, kind: str) -> str:
    """A folder of `project` no build used before, for a build of `kind` (its last)."""
    name = LAST[project, kind] = f"{kind}-{next(FOLDERS)}"
    return name


def run_size(n: int, rounds: int, workload: str = "generated") -> dict[str, dict[str, float]]:
    cores = str(os.cpu_count() or 1)
    project = Path(tempfile.mkdtemp(prefix=f"site-gen-bench-{workload}-{n}-"))
    KEPT.append(project)
    WORKLOADS[workload](project, n)
    write_mkdocs_project(project)
    row: dict[str, dict[str, float]] = {}
    pairs = PAIRS[(workload, n)] = {}
    floors, singles = [], []
    for _ in range(rounds):  # alternating too: the ratio of the two is a goal
        floors.append(measure(sys.executable, "-c", FLOOR, str(project / "content"),
                              cwd=project))
        singles.append(clean(project, "--jobs", "1", "--no-search"))
    pairs["floor"] = in_turns(singles, floors)
    row["fair floor (1 core)"] = best(floors)
    row["fair floor, lexed as site_gen lexes (1 core)"] = best(
        [measure(sys.executable, "-c", FLOOR_INDEXED, str(project / "content"), cwd=project)
         for _ in range(rounds)])
    row["site_gen clean, 1 worker, no search"] = best(singles)
    ours, theirs = [], []
    searched: list[dict[str, float]] = []
    for _ in range(rounds):  # alternating, so both see the same machine
        ours.append(clean(project, "--jobs", cores, "--no-search"))
        theirs.append(measure(sys.executable, "-m", "mkdocs", "build", "-q",
                              "-f", "mkdocs-bench.yml", "-d", fresh(project, "mkdocs-site"),
                              cwd=project))
        searched.append(clean(project, "--jobs", cores))
    pairs["mkdocs"] = in_turns(theirs, searched)
    row[f"site_gen clean, {cores} workers, no search"] = best(ours)
    row["mkdocs build (its search index too)"] = best(theirs)
    WEIGHTS[(workload, n)] = page_weight(project)
    row["write floor: the site's files made anew"] = best(
        [write_floor(project) for _ in range(rounds)])
    row[f"site_gen clean, {cores} workers, search"] = best(searched)
    page = sorted((project / "content").rglob("*.md"))[n // 2]
    for flags, name in ((("--no-search",), "no search"), ((), "search")):
        # as an author works: the same command after each edit (two builds first, so
        # both copies of the site and the cache are those of this command), then more
        # edits, each measured: the best, as for the clean builds. Without search, each
        # of those edits follows a clean build of the same moment (the cache set aside
        # for it): the one-edit goal is their ratio, pair by pair.
        edits, cleans = [], []
        for k in range(2 + max(3, rounds)):
            if k >= 2 and name == "no search":
                cleans.append(clean_beside_cache(project, "--jobs", cores, *flags))
            page.write_text(page.read_text() + f"\nAn edit, {name} {k}.\n")
            edits.append(site_gen(project, *flags))
        row[f"one-edit rebuild, {name}"] = best(edits[2:])
        if cleans:
            pairs["edit"] = in_turns(edits[2:], cleans)
    for label, imports in (("start-up floor: Python, the libraries", LIBRARIES),
                           ("start-up: Python, site_gen's modules", OWN_MODULES)):
        row[label] = best([measure(sys.executable, "-c", imports, cwd=project)
                           for _ in range(3)])
    row.update(serve_latency(project, page))
    return row


def in_turns(tops: list[dict[str, float]], bottoms: list[dict[str, float]]) -> list[float]:
    """The ratio of each run to the one taken in turn with it."""
    return [a["seconds"] / b["seconds"] for a, b in zip(tops, bottoms, strict=True)]


def clean_beside_cache(project: Path, *args: str) -> dict[str, float]:
    """A clean build (no cache, no site) into a folder of its own, with the project's cache
    set aside, then put back as it was: the project's site and cache are left as they were."""
    kept = project / ".cache-kept"
    (project / ".cache").rename(kept)
    try:
        return clean(project, *args, kind="clean-site")
    finally:
        shutil.rmtree(project / ".cache", ignore_errors=True)
        kept.rename(project / ".cache")


def clean(project: Path, *args: str, kind: str = "site") -> dict[str, float]:
    """A build from nothing: no cache, and no site from before (a build into a site it made
    before writes only the files that changed and keeps the search index parts it holds),
    into a folder no build used before (see FOLDERS)."""
    shutil.rmtree(project / ".cache", ignore_errors=True)
    return site_gen(project, "--no-cache", "--site-dir", fresh(project, kind), *args)


def remove_site(project: Path, site: str = "site") -> None:
    """The site folder `site` of `project` gone, with its two copies and their record."""
    for path in (project / site, *project.glob(f".{site}.*")):
        if path.is_symlink() or path.is_file():
            path.unlink()
        elif path.is_dir():
            shutil.rmtree(path)


def serve_latency(project: Path, page: Path) -> dict[str, dict[str, float]]:
    """Save-to-served times of `site-gen serve`: body edits, then title edits."""
    server = subprocess.Popen([sys.executable, "-m", "site_gen", "serve", "-p", "0"],
                              cwd=project, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
    try:
        assert server.stdout is not None
        line = ""
        while "Serving on" not in line:
            line = server.stdout.readline()
            if not line:
                raise SystemExit("site-gen serve stopped")
        base = line.split()[2]
        url = base + page.relative_to(project / "content").with_suffix("").as_posix() + "/"
        time.sleep(1.0)  # the watcher is set up
        body, title = [], []
        for k in range(5):
            marker, question = f"zebra{k}x", f"renamed{k}q"
            body.append(saved_to_served(page, lambda t, m=marker: f"{t}\nA note on {m}.\n",
                                        url, marker))
            title.append(saved_to_served(
                page, lambda t, q=question: re.sub(r"question: .*", f"question: {q}", t, count=1),
                base, question))
        return {"serve: body edit, save to served": {"seconds": statistics.median(body)},
                "serve: title edit, save to served": {"seconds": statistics.median(title)}}
    finally:
        server.terminate()
        server.wait(timeout=30)


def saved_to_served(page: Path, change: Callable[[str], str], url: str, marker: str) -> float:
    text = page.read_text()
    started = time.perf_counter()
    page.write_text(change(text))
    while True:
        with urllib.request.urlopen(url, timeout=30) as answer:
            if marker in answer.read().decode():
                seconds = time.perf_counter() - started
                break
        if time.perf_counter() - started > 30:
            raise SystemExit(f"{url} never showed {marker}")
        time.sleep(0.002)
    time.sleep(0.5)  # let the watcher settle before the next save
    return seconds


WEIGHTS: dict[tuple[str, int], dict[str, int]] = {}


def page_weight(project: Path) -> dict[str, int]:
    """HTML and CSS bytes of one site_gen page and of MkDocs' page of the same markdown."""
    site, mkdocs_site = project / LAST[project, "site"], project / LAST[project, "mkdocs-site"]
    ours = sorted(p for p in site.rglob("*/index.html")
                  if p.parent.name.startswith(("p-", "async-save-tag")))[0]
    css = site / "assets/site.css"
    theirs = mkdocs_site / ours.relative_to(site)
    mk_assets = sum(p.stat().st_size for p in mkdocs_site.rglob("*")
                    if p.suffix in (".css", ".js") and "search" not in p.parts)
    return {"site_gen_html": ours.stat().st_size, "site_gen_css": css.stat().st_size,
            "site_gen_js_needed": 0, "mkdocs_html": theirs.stat().st_size,
            "mkdocs_css_and_js": mk_assets}


def write_mkdocs_project(project: Path) -> None:
    (project / "mkdocs-bench.yml").write_text(
        "site_name: bench\ndocs_dir: mkdocs-docs\nsite_dir: mkdocs-site\n"
        "theme: {name: mkdocs}\nmarkdown_extensions: [codehilite, tables]\n")
    docs = project / "mkdocs-docs"
    for path in (project / "content").rglob("*.md"):
        target = docs / path.relative_to(project / "content")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text().split("\n---\n", 1)[1])
    (docs / "index.md").write_text("# bench\n")


def pressure() -> dict[str, int]:
    """Linux's pressure stall information: the microseconds since boot in which some task
    waited for the disk (io) or for a processor (cpu); {} where the kernel keeps none."""
    found = {}
    for kind in ("io", "cpu"):
        try:
            some = Path(f"/proc/pressure/{kind}").read_text().splitlines()[0]
        except (OSError, IndexError):
            continue
        found[kind] = int(some.rpartition("total=")[2])
    return found


def stalls(before: dict[str, int], after: dict[str, int], seconds: float) -> dict[str, float]:
    """What share of `seconds` some task waited for the disk (io), and for a processor
    (cpu): a size measured while the disk stalled measures the disk more than either tool."""
    return {kind: (after[kind] - before[kind]) / 1e6 / seconds
            for kind in before if kind in after and seconds > 0}


STALLED: dict[tuple[str, int], dict[str, float]] = {}  # each size's stalls, while measured


def report(results: dict[int, dict[str, dict[str, float]]], workload: str) -> None:
    sizes = sorted(results)
    cores = os.cpu_count() or 1
    per_pr = 1 if workload == "model" else 3
    what = "copies of the model PR" if workload == "model" else "generated pages, three per PR"
    print(f"\n== {workload} workload ({what})")
    print(f"machine: {cores} cores; python {sys.version.split()[0]}; "
          f"pages: {', '.join(f'{n:,}' for n in sizes)} "
          f"({', '.join(f'{n // per_pr:,}' for n in sizes)} PRs)")
    names = list(results[sizes[0]])
    print(f"\n{'seconds (peak MiB)':44}" + "".join(f"{f'{n:,} pages':>20}" for n in sizes))
    for name in names:
        cells = []
        for n in sizes:
            m = results[n][name]
            peak = f" ({m['peak_mib']:.0f})" if "peak_mib" in m else ""
            cells.append(f"{m['seconds']:.3f}{peak}")
        print(f"{name:44}" + "".join(f"{c:>20}" for c in cells))
    print()
    every = f"site_gen clean, {cores} workers"

    def share(n: int, what: str) -> float:
        r = results[n]
        return max(0.0, 1 - r[f"{every}, no search"][what] / r[f"{every}, search"][what])

    def of(n: int, top: str, bottom: str) -> float:  # a ratio of the best times
        return results[n][top]["seconds"] / results[n][bottom]["seconds"]

    def paired(n: int, name: str) -> float:  # the median of the ratios, pair by pair
        return statistics.median(PAIRS[(workload, n)][name])

    # The goals' ratios are medians of ratios taken pair by pair (the two commands run in
    # turns, so both see the machine as it was): bests taken apart can come from moments
    # a third apart on a noisy machine.
    ratios: dict[str, Callable[[int], float]] = {
        "mkdocs / site_gen (every core, search) *": lambda n: paired(n, "mkdocs"),
        "mkdocs / site_gen (every core, no search)":
            lambda n: of(n, "mkdocs build (its search index too)", f"{every}, no search"),
        "site_gen 1 worker / fair floor, per page *": lambda n: paired(n, "floor"),
        "site_gen 1 worker / floor lexed as site_gen lexes":
            lambda n: of(n, "site_gen clean, 1 worker, no search",
                         "fair floor, lexed as site_gen lexes (1 core)"),
        "one-edit rebuild / clean build (no search) *": lambda n: paired(n, "edit"),
        "start-up floor / clean build (no search)":
            lambda n: of(n, "start-up floor: Python, the libraries", f"{every}, no search"),
        "site_gen's start-up / clean build (no search)":
            lambda n: of(n, "start-up: Python, site_gen's modules", f"{every}, no search"),
        "search's share of a clean build: time": lambda n: share(n, "seconds"),
        "search's share of a clean build: peak memory": lambda n: share(n, "peak_mib"),
    }
    for label, ratio in ratios.items():
        print(f"{label:44}" + "".join(f"{ratio(n):>20.2f}" for n in sizes))
    print("* the median of the ratios of runs taken in turns; the others: of the best times")
    for kind, label in (("io", "the disk"), ("cpu", "a processor")):
        shares = [STALLED.get((workload, n), {}).get(kind) for n in sizes]
        if all(share is not None for share in shares):
            print(f"{f'time some task waited for {label}':44}"
                  + "".join(f"{share:>20.0%}" for share in shares))
    if any(STALLED.get((workload, n)) for n in sizes):
        print("  (while each size was measured: Linux's /proc/pressure; a size measured on a "
              "stalling disk measures the disk)")
    mine = sorted(k for k in WEIGHTS if k[0] == workload)
    if mine:
        print("\npage weight:", json.dumps(WEIGHTS[mine[0]]))
    if workload == "model":
        goals(results, ratios, per_pr)


def goals(results: dict[int, dict[str, dict[str, float]]],
          ratios: dict[str, Callable[[int], float]], per_pr: int) -> None:
    """Each goal of the model workload that this run measured, and whether it was met."""
    print("\ngoals (model workload):")
    search = ratios["mkdocs / site_gen (every core, search) *"]
    floor = ratios["site_gen 1 worker / fair floor, per page *"]
    edit = ratios["one-edit rebuild / clean build (no search) *"]
    checks: list[tuple[str, float, str, bool]] = []
    for n, r in sorted(results.items()):
        if n in (150, 1000):
            want = 2.5 if n == 150 else 5.0
            checks.append((f"clean build with search at {n:,} pages: mkdocs / site_gen",
                           search(n), f">= {want}", search(n) >= want))
        checks.append((f"per page on one worker at {n:,} pages: site_gen / fair floor",
                       floor(n), "<= 1.5", floor(n) <= 1.5))
        if n // per_pr in (300, 1000):
            checks.append((f"one-edit rebuild at {n // per_pr:,} PRs: / clean build", edit(n),
                           "<= 0.15", edit(n) <= 0.15))
            own = ratios["site_gen's start-up / clean build (no search)"](n)
            floor_start = ratios["start-up floor / clean build (no search)"](n)
            checks.append((f"  of which start-up: site_gen's {own:.2f}, the libraries'",
                           floor_start, "", True))  # not a goal: what bounds it
        if n // per_pr == 1000:
            body = r["serve: body edit, save to served"]["seconds"] * 1000
            title = r["serve: title edit, save to served"]["seconds"] * 1000
            checks.append(("serve body edit at 1,000 PRs (ms)", body, "<= 100", body <= 100))
            checks.append(("serve title edit at 1,000 PRs (ms)", title, "<= 200", title <= 200))
    sizes = sorted(results)
    if len(sizes) > 1:  # what each page adds, start-up left out: the slope between sizes
        low, high = results[sizes[0]], results[sizes[-1]]
        slope = ((high["site_gen clean, 1 worker, no search"]["seconds"]
                  - low["site_gen clean, 1 worker, no search"]["seconds"])
                 / (high["fair floor (1 core)"]["seconds"] - low["fair floor (1 core)"]["seconds"]))
        checks.append((f"per added page on one worker, {sizes[0]:,} to {sizes[-1]:,}: / floor",
                       slope, "<= 1.5", slope <= 1.5))
    for what, value, want, met in checks:
        verdict = f"  goal {want:8}  {'met' if met else 'MISSED'}" if want else ""
        shown = f"{value:8.3f}" if value < 10 else f"{value:8.1f}"  # 2.499 is not 2.50
        print(f"  {what:58} {shown}{verdict}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="150,1000,3000")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workload", choices=("both", *WORKLOADS), default="both",
                        help="copies of the model PR, generated pages, or both (default)")
    parser.add_argument("--model-sizes", default="150,300,1000",
                        help="sizes of the model workload (pages, one per PR)")
    args = parser.parse_args()
    compileall.compile_dir(ROOT / "site_gen", quiet=1)  # as `pip install` does
    compile_own(PACKAGE_TEMPLATES)  # as building the wheel does
    workloads = list(WORKLOADS) if args.workload == "both" else [args.workload]
    try:
        for workload in workloads:
            sizes = args.model_sizes if workload == "model" else args.sizes
            results = {}
            for n in (int(s) for s in sizes.split(",")):
                before, started = pressure(), time.monotonic()
                results[n] = run_size(n, args.rounds, workload)
                STALLED[workload, n] = stalls(before, pressure(), time.monotonic() - started)
                print(f"({workload}: {n} pages measured)", file=sys.stderr, flush=True)
            report(results, workload)
    finally:  # every project, with the sites its builds made, only now (see FOLDERS)
        for project in KEPT:
            shutil.rmtree(project, ignore_errors=True)


if __name__ == "__main__":
    main()
