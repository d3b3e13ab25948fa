"""Benchmark: site_gen against a fair floor and MkDocs, on synthetic review sites.

Run: scripts/bench [--sizes 150,1000,3000] [--rounds 2]

For each size N it writes N question pages shaped like the model page (prose, pinned
references, a flow diagram, a proposal of three hunks, a review callout, a summary card;
three pages per pull request, so 3,000 pages are 1,000 PRs) and measures, each command
in a fresh process, and prints one table:

- the fair floor: what any generator of these pages must do, on one core: read each
  page and pr.yml, parse the front matter and pr.yml with the same YAML loader (libyaml),
  render the body with bare markdown-it-py, and lex each proposal hunk's two sides (old
  and new) with Pygments as site_gen does, formatting the tokens as HTML;
- clean builds (no cache): site_gen on one worker and on every core, without and with
  the search index, and `mkdocs build` of the same markdown (default theme, codehilite),
  site_gen and MkDocs alternating, `--rounds` times each (the best is kept);
- a one-edit CLI rebuild (warm cache) without and with search;
- `site-gen serve`: from saving a page to the new bytes being served, for a body edit
  (the page) and a title edit (the home page lists it); the median of five saves;
- peak memory (resident set of the process and its children);

and the weight of one page (HTML, CSS, JavaScript it needs) beside MkDocs' page of the
same markdown.

site_gen's modules are compiled to bytecode first, as installing a package does (and as
MkDocs and the libraries both use are): a development checkout run with
PYTHONDONTWRITEBYTECODE would otherwise compile them from source in every process.
"""

from __future__ import annotations

import argparse
import compileall
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
from benchmarks.sample import write_site  # noqa: E402

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


def measure(*command: str, cwd: Path) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", MEASURE, *command], cwd=cwd,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def site_gen(project: Path, *args: str) -> dict[str, float]:
    return measure(sys.executable, "-m", "site_gen", "build", *args, cwd=project)


def best(runs: list[dict[str, float]]) -> dict[str, float]:
    return min(runs, key=lambda r: r["seconds"])


def run_size(n: int, rounds: int) -> dict[str, dict[str, float]]:
    cores = str(os.cpu_count() or 1)
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        write_site(project, n)
        write_mkdocs_project(project)
        row: dict[str, dict[str, float]] = {}
        row["fair floor (1 core)"] = measure(sys.executable, "-c", FLOOR,
                                             str(project / "content"), cwd=project)
        row["site_gen clean, 1 worker, no search"] = clean(project, "--jobs", "1", "--no-search")
        ours, theirs = [], []
        for _ in range(rounds):  # alternating, so both see the same machine
            ours.append(clean(project, "--jobs", cores, "--no-search"))
            theirs.append(measure(sys.executable, "-m", "mkdocs", "build", "-q",
                                  "-f", "mkdocs-bench.yml", cwd=project))
        row[f"site_gen clean, {cores} workers, no search"] = best(ours)
        row["mkdocs build"] = best(theirs)
        WEIGHTS[n] = page_weight(project)
        row[f"site_gen clean, {cores} workers, search"] = clean(project, "--jobs", cores)
        page = sorted((project / "content").rglob("*.md"))[n // 2]
        for flags, name in ((("--no-search",), "no search"), ((), "search")):
            # as an author works: the same command after each edit (two builds first, so
            # both copies of the site and the cache are those of this command)
            for k in range(3):
                page.write_text(page.read_text() + f"\nAn edit, {name} {k}.\n")
                row[f"one-edit rebuild, {name}"] = site_gen(project, *flags)
        row.update(serve_latency(project, page))
        return row


def clean(project: Path, *args: str) -> dict[str, float]:
    shutil.rmtree(project / ".cache", ignore_errors=True)
    return site_gen(project, "--no-cache", *args)


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


WEIGHTS: dict[int, dict[str, int]] = {}


def page_weight(project: Path) -> dict[str, int]:
    """HTML and CSS bytes of one site_gen page and of MkDocs' page of the same markdown."""
    ours = sorted((project / "site").rglob("p-*/index.html"))[0]
    css = project / "site/assets/site.css"
    theirs = project / "mkdocs-site" / ours.relative_to(project / "site")
    mk_assets = sum(p.stat().st_size for p in (project / "mkdocs-site").rglob("*")
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


def report(results: dict[int, dict[str, dict[str, float]]]) -> None:
    sizes = sorted(results)
    cores = os.cpu_count() or 1
    print(f"machine: {cores} cores; python {sys.version.split()[0]}; "
          f"pages: {', '.join(f'{n:,}' for n in sizes)} ({', '.join(f'{n // 3:,}' for n in sizes)} PRs)")
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

    def share(r: dict[str, dict[str, float]], what: str) -> float:
        return max(0.0, 1 - r[f"{every}, no search"][what] / r[f"{every}, search"][what])

    ratios = {
        "mkdocs / site_gen (every core, no search)":
            lambda r: r["mkdocs build"]["seconds"] / r[f"{every}, no search"]["seconds"],
        "site_gen 1 worker / fair floor, per page":
            lambda r: r["site_gen clean, 1 worker, no search"]["seconds"]
            / r["fair floor (1 core)"]["seconds"],
        "one-edit rebuild / clean build (no search)":
            lambda r: r["one-edit rebuild, no search"]["seconds"] / r[f"{every}, no search"]["seconds"],
        "search's share of a clean build: time": lambda r: share(r, "seconds"),
        "search's share of a clean build: peak memory": lambda r: share(r, "peak_mib"),
    }
    for label, ratio in ratios.items():
        print(f"{label:44}" + "".join(f"{ratio(results[n]):>20.2f}" for n in sizes))
    if WEIGHTS:
        print("\npage weight:", json.dumps(WEIGHTS[min(WEIGHTS)]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="150,1000,3000")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    compileall.compile_dir(ROOT / "site_gen", quiet=1)  # as `pip install` does
    results = {}
    for n in (int(s) for s in args.sizes.split(",")):
        results[n] = run_size(n, args.rounds)
        print(f"({n} pages measured)", file=sys.stderr, flush=True)
    report(results)


if __name__ == "__main__":
    main()
