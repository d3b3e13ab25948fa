"""Benchmark: site_gen against the markdown floor and MkDocs, on synthetic review sites.

Run: scripts/bench [--sizes 100,1000,5000] [--mkdocs-sizes 100,1000]

For each size N it writes N question pages shaped like the model page (prose, ten pinned
references, one flow diagram, a proposal of three hunks, a review callout, a summary
card; three pages per pull request) and measures, each in a fresh process:

- floor: the same bodies through bare markdown-it-py with Pygments highlighting;
- site_gen full builds (no cache) with one worker and with every core, with and
  without the search index;
- a no-op rebuild and a rebuild after editing one page (cache warm);
- mkdocs build of the same pages as plain markdown (default theme, codehilite);
- the peak memory (resident set) of each;

then prints the ratios and the weight of one page against MkDocs' page of the same text.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
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
    import sys, pathlib
    from markdown_it import MarkdownIt
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound
    formatter = HtmlFormatter(nowrap=True)
    def hl(code, lang, attrs):
        try:
            return highlight(code, get_lexer_by_name(lang), formatter) if lang else ""
        except ClassNotFound:
            return ""
    md = MarkdownIt("commonmark", {"highlight": hl}).enable(["table", "strikethrough"])
    blocks_as_code = len(sys.argv) > 2
    for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.md")):
        text = path.read_text()
        body = text.split("\\n---\\n", 1)[1]
        if blocks_as_code:  # the code site_gen must highlight anyway: diff hunks as Python
            body = body.replace("```proposal", "```python")
        md.render(body)
""")


def measure(*command: str, cwd: Path) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", MEASURE, *command], cwd=cwd,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def site_gen(project: Path, *args: str) -> dict[str, float]:
    return measure(sys.executable, "-m", "site_gen", "build", *args, cwd=project)


def run_size(n: int, with_mkdocs: bool, results: dict[str, object]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        write_site(project, n)
        row: dict[str, dict[str, float]] = {}
        row["floor"] = measure(sys.executable, "-c", FLOOR, str(project / "content"), cwd=project)
        row["floor, hunks highlighted"] = measure(sys.executable, "-c", FLOOR,
                                                  str(project / "content"), "blocks", cwd=project)
        for jobs in (1, os.cpu_count() or 1):
            for search in (True, False):
                shutil.rmtree(project / "site", ignore_errors=True)
                name = f"site_gen j{jobs}" + ("" if search else " no-search")
                row[name] = site_gen(project, "--no-cache", "--jobs", str(jobs),
                                     *(() if search else ("--no-search",)))
        shutil.rmtree(project / ".cache", ignore_errors=True)
        site_gen(project, "--jobs", str(os.cpu_count() or 1))  # warm the cache
        row["no-op rebuild"] = site_gen(project)
        page = sorted((project / "content").rglob("*.md"))[n // 2]
        page.write_text(page.read_text().replace("The tag's value", "The tag's whole value", 1))
        row["one page edited"] = site_gen(project)
        page.write_text(page.read_text().replace("whole value", "entire value", 1))
        row["one page edited, no search"] = site_gen(project, "--no-search")
        if with_mkdocs:
            write_mkdocs_project(project)
            row["mkdocs"] = measure(sys.executable, "-m", "mkdocs", "build", "-q",
                                    "-f", "mkdocs-bench.yml", cwd=project)
            results.setdefault("weight", page_weight(project))
        results[str(n)] = row


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


def report(results: dict[str, object], sizes: list[int]) -> None:
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}")
    for n in sizes:
        row = results[str(n)]
        assert isinstance(row, dict)
        print(f"\n== {n} pages ==")
        print(f"{'':32}{'seconds':>9}{'ms/page':>9}{'peak MiB':>10}")
        for name, m in row.items():
            print(f"{name:32}{m['seconds']:9.2f}{m['seconds'] / n * 1000:9.2f}"
                  f"{m['peak_mib']:10.0f}")
        floor, one = row["floor"]["seconds"], row["site_gen j1 no-search"]["seconds"]
        cores = os.cpu_count() or 1
        full = row[f"site_gen j{cores}"]["seconds"]
        print(f"site_gen j1 (no search) / floor: {one / floor:.2f}")
        fair = row["floor, hunks highlighted"]["seconds"]
        print(f"site_gen j1 (no search) / floor with the hunks highlighted: {one / fair:.2f}")
        print(f"site_gen j1 (with search) / floor: {row['site_gen j1']['seconds'] / floor:.2f}")
        print(f"no-op rebuild / full build (j{cores}): "
              f"{row['no-op rebuild']['seconds'] / full * 100:.1f}%")
        if "mkdocs" in row:
            print(f"mkdocs / site_gen j{cores}: {row['mkdocs']['seconds'] / full:.2f}x")
    small, large = str(min(sizes)), str(max(sizes))
    if small != large:
        for name in ("floor", "site_gen j1 no-search", f"site_gen j{os.cpu_count() or 1}"):
            per_small = results[small][name]["seconds"] / int(small)  # type: ignore[index]
            per_large = results[large][name]["seconds"] / int(large)  # type: ignore[index]
            print(f"per-page cost at {large} / at {small} ({name}): {per_large / per_small:.2f}")
    if "weight" in results:
        print("\npage weight:", json.dumps(results["weight"]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="100,1000,5000")
    parser.add_argument("--mkdocs-sizes", default="100,1000")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with_mkdocs = {int(s) for s in args.mkdocs_sizes.split(",") if s}
    results: dict[str, object] = {}
    for n in sizes:
        run_size(n, n in with_mkdocs, results)
    report(results, sizes)


if __name__ == "__main__":
    main()
