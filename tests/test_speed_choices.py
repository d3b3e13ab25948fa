"""What the build does to be quick, as a user sees it: Pagefind started as its binary (no
Python wrapper before it), no worker pool on a machine whose cores are busy, and code that
did not change not lexed again."""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks.sample import write_checked_model_copies, write_model_copies
from site_gen import processes, search

from .conftest import Project, Run, git, tree

CLI = Callable[..., Run]


def test_pagefind_starts_as_its_own_binary() -> None:
    search.pagefind_command.cache_clear()
    command = search.pagefind_command()
    assert len(command) == 1 and Path(command[0]).name.startswith("pagefind")
    assert os.access(command[0], os.X_OK)


def test_pagefind_binary_path_is_honoured(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(tmp_path / "pagefind"))
    search.pagefind_command.cache_clear()
    try:
        assert search.pagefind_command() == (str(tmp_path / "pagefind"),)
    finally:
        search.pagefind_command.cache_clear()


@pytest.mark.parametrize(("running", "free"), [
    ([1, 1, 1], 2),      # only this build runs: every core
    ([3, 3, 3], 1),      # two tasks busy elsewhere on two cores: one worker
    ([2, 2, 2], 1),      # one elsewhere: one core is free
    ([3, 1, 3], 2),      # a burst in one sample is not a busy machine
    ([None] * 3, 2),     # not known (no /proc): every core
])
def test_workers_follow_the_free_cores(monkeypatch: pytest.MonkeyPatch, running: list[int | None],
                                       free: int) -> None:
    monkeypatch.setattr(processes, "cores", lambda: 2)
    samples = iter(running)
    assert processes.free_cores(lambda: next(samples)) == free


def test_the_cli_uses_the_free_cores_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    from site_gen import cli

    monkeypatch.setattr(cli, "free_cores", lambda: 1)
    args = cli._parser().parse_args(["build"])
    assert cli._jobs(args) == 1
    args = cli._parser().parse_args(["build", "--jobs", "2"])
    assert cli._jobs(args) == 2  # as asked, busy or not


def _counting_lexers(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text a Pygments lexer is run on from now on (and no lexer made before counts)."""
    from site_gen import highlight

    lexed: list[str] = []
    real = highlight.lex_lines

    def counted(lexer: object, lines: list[str]) -> highlight.Tokens:
        lexed.append("\n".join(lines))
        return real(lexer, lines)  # type: ignore[arg-type]

    monkeypatch.setattr(highlight, "lex_lines", counted)
    highlight._made.cache_clear()
    return lexed


def test_a_page_whose_code_did_not_change_is_rendered_without_a_lexer(
        project: Project, cli: CLI, monkeypatch: pytest.MonkeyPatch) -> None:
    """A prose edit renders its page again; the hunks' lines come lexed from the builds
    before (no lexer made, none run), in the same bytes as a clean build's."""
    from site_gen import highlight

    write_model_copies(project.root, 2)
    assert cli("build", "--jobs", "1", "--no-search").code == 0
    page = project.root / "content/NVIDIA-NeMo/RL/1/async-save-tag.md"
    page.write_text(page.read_text() + "\nOne more sentence of prose.\n")
    lexed = _counting_lexers(monkeypatch)
    edited = cli("build", "--jobs", "1", "--no-search")
    assert edited.code == 0, edited.err
    assert lexed == [] and highlight._made.cache_info().currsize == 0
    assert cli("build", "--no-cache", "--jobs", "1", "--no-search", "--site-dir", "clean").code == 0
    assert tree(project.site) == tree(project.root / "clean")
    assert lexed  # the clean build lexed every hunk itself

    lexed.clear()  # a changed line of code is lexed again: its side, and only its hunk's
    text = page.read_text()
    old = "+    attrs: dict[str, Any] = dict(attributes)"
    assert text.count(old) == 1
    page.write_text(text.replace(old, "+    attrs: dict[str, Any] = dict(attributes or {})"))
    assert cli("build", "--jobs", "1", "--no-search").code == 0
    assert len(lexed) == 1 and "attributes or {}" in lexed[0]


def test_the_benchmarks_checked_model_workload_is_checked_against_its_code(
        project: Project, cli: CLI) -> None:
    """benchmarks/budgets.py measures the code index and the drift look-up on copies of the
    model PR checked against a repository holding the lines it cites: each copy builds
    strictly there, every proposal applies, every reference shows its code."""
    code = project.root / "code"
    heads = write_checked_model_copies(project.root / "copies", 2, code)
    assert len(set(heads)) == 2  # a commit of its own each: nothing learned is shared
    shown = [git(code, "show", f"{head}:nemo_rl/utils/checkpoint.py") for head in heads]
    assert shown[0] != shown[1]  # nor any text parsed (a text is parsed once per process)
    built = cli("build", "-f", str(project.root / "copies/mkdocs.yml"), "--strict", "--no-search",
                "--checkout", str(code))
    assert built.code == 0, built.err
    html = (project.root / "copies/site/NVIDIA-NeMo/RL/2/async-save-tag/index.html").read_text()
    assert html.count(f"Applies at {heads[1][:7]}") == 1 and "not checked" not in html
    assert html.count('class="ref-preview"') == 5  # the five lines the prose cites


def test_the_budgets_benchmark_times_each_stage(tmp_path: Path) -> None:
    """benchmarks/budgets.py times the stages by wrapping what each block's module calls:
    when the excerpt stopped importing `index_of` (its name found through a helper), the
    benchmark stopped at its start, and nothing ran it. Its staged build runs, and the code
    index and the proposals' check are timed."""
    from benchmarks import budgets

    heads = write_checked_model_copies(tmp_path / "copies", 2, tmp_path / "code")
    assert len(heads) == 2
    spent = budgets.staged(tmp_path / "copies", "--no-cache", "--no-search", "--jobs", "1",
                           "--checkout", str(tmp_path / "code"))
    assert spent["code index"] > 0 and spent["proposals checked"] > 0, spent


def test_lexed_code_kept_between_builds_stays_bounded(
        project: Project, cli: CLI, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each edit of a hunk keeps one more lexed text: a build keeps only the newest
    LEXED_KEPT of them (what was learned of pinned code stays), and the pages are the same."""
    import sqlite3

    from site_gen import highlight
    from site_gen.cache import CodeStore

    write_model_copies(project.root, 1)
    store_path = project.root / ".cache/site-gen/code.sqlite"
    store = CodeStore(store_path)
    store.put("definitions\n1\nabc\nsrc/a.py", {"defs": [], "broken": None})
    store.close()
    monkeypatch.setattr(highlight, "LEXED_KEPT", 4)
    page = project.root / "content/NVIDIA-NeMo/RL/1/async-save-tag.md"
    for n in range(3):  # three edits of a hunk line: three more lexed sides each time
        page.write_text(page.read_text().replace("dict(attributes", f"dict(attributes{n}"))
        assert cli("build", "--jobs", "1", "--no-search").code == 0
    with sqlite3.connect(store_path) as db:
        keys = [k for (k,) in db.execute("SELECT key FROM code ORDER BY rowid")]
    lexed = [k for k in keys if k.startswith(highlight.LEXED)]
    assert len(lexed) == 4 and "definitions\n1\nabc\nsrc/a.py" in keys
    assert cli("build", "--no-cache", "--jobs", "1", "--no-search", "--site-dir", "clean").code == 0
    assert tree(project.site) == tree(project.root / "clean")


def test_lexed_code_from_a_tampered_store_is_lexed_again(project: Project, cli: CLI) -> None:
    """A class taken from the code store goes into the page as it is: one that none of the
    site's styles has (a store written by someone else) is not used; the code is lexed."""
    import json
    import sqlite3

    from site_gen import highlight

    write_model_copies(project.root, 1)
    assert cli("build", "--jobs", "1", "--no-search").code == 0
    with sqlite3.connect(project.root / ".cache/site-gen/code.sqlite") as db:
        rows = db.execute("SELECT key, data FROM code").fetchall()
        lexed = [(key, json.loads(data)) for key, data in rows if key.startswith(highlight.LEXED)]
        assert lexed
        for key, lines in lexed:
            bad = [[['x" onmouseover="alert(1)', value] for _, value in line] for line in lines]
            db.execute("UPDATE code SET data = ? WHERE key = ?", (json.dumps(bad), key))
    page = project.root / "content/NVIDIA-NeMo/RL/1/async-save-tag.md"
    page.write_text(page.read_text() + "\nOne more sentence.\n")
    assert cli("build", "--jobs", "1", "--no-search").code == 0
    html = (project.site / "NVIDIA-NeMo/RL/1/async-save-tag/index.html").read_text()
    assert "onmouseover" not in html
    assert cli("build", "--no-cache", "--jobs", "1", "--no-search", "--site-dir", "clean").code == 0
    assert tree(project.site) == tree(project.root / "clean")


def test_an_edit_whose_code_comes_lexed_looks_up_no_lexer(project: Project, cli: CLI) -> None:
    """Which lexer reads a file is kept in the code store with the lexed code: a one-page
    edit whose hunks did not change makes no lexer, nor reads Pygments' list of lexers
    (pygments.lexers) to find one; the page is the one a clean build makes."""
    import subprocess
    import sys

    write_model_copies(project.root, 2)
    page = project.root / "content/NVIDIA-NeMo/RL/1/async-save-tag.md"
    script = ("import sys\n"
              "from site_gen.cli import main\n"
              "code = main()\n"
              "print(sorted(m for m in sys.modules if m.startswith('pygments.lexers')),\n"
              "      file=sys.stderr)\n"
              "sys.exit(code)\n")

    def loaded() -> str:
        done = subprocess.run([sys.executable, "-c", script, "build", "--no-search", "--jobs", "1"],
                              cwd=project.root, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("Built "), done.stdout  # rendered, not up to date
        return done.stderr.strip().splitlines()[-1]

    assert "pygments.lexers" in loaded()  # the first build lexed the hunks itself
    page.write_text(page.read_text() + "\nAn edit of the prose.\n")
    assert loaded() == "[]"
    page.write_text(page.read_text().replace("dict(attributes)", "dict(attributes or {})"))
    assert "pygments.lexers" in loaded()  # a changed hunk is lexed again
    assert cli("build", "--no-cache", "--jobs", "1", "--no-search", "--site-dir", "clean").code == 0
    assert tree(project.site) == tree(project.root / "clean")


def test_a_lexer_name_from_a_tampered_store_is_harmless(project: Project, cli: CLI) -> None:
    """The lexer name the code store gives is used as it is: one that no lexer has (a
    store written by someone else) lexes the code as plain text, escaped; nothing of the
    store's goes into the page. One that names another file is worked out again."""
    import sqlite3

    from site_gen import highlight

    write_model_copies(project.root, 1)
    assert cli("build", "--jobs", "1", "--no-search").code == 0
    with sqlite3.connect(project.root / ".cache/site-gen/code.sqlite") as db:
        keys = [k for (k,) in db.execute("SELECT key FROM code") if k.startswith(highlight.LEXER_OF)]
        assert {k.rpartition("\n")[2] for k in keys} == {"checkpoint.py", "instrumentation.py"}
        db.execute("UPDATE code SET data = ? WHERE key LIKE ?",
                   (json.dumps("name:<script>alert(1)</script>"), highlight.LEXER_OF + "%"))
        other = next(k for k in keys if k.endswith("\ncheckpoint.py"))
        db.execute("UPDATE code SET data = ? WHERE key = ?",  # Pygments' choice, of another file
                   (json.dumps("file:elsewhere.py"), other))
        db.execute("DELETE FROM code WHERE key LIKE ?", (highlight.LEXED + "%",))
    page = project.root / "content/NVIDIA-NeMo/RL/1/async-save-tag.md"
    page.write_text(page.read_text() + "\nOne more sentence.\n")
    assert cli("build", "--jobs", "1", "--no-search").code == 0
    html = (project.site / "NVIDIA-NeMo/RL/1/async-save-tag/index.html").read_text()
    assert "<script>alert" not in html
    row = re.compile(r'<td class="diff-code"><ins>[^\n]*attributes<mark>\)</mark>[^\n]*</td>')
    shown = row.search(html)
    assert shown and "<span" not in shown[0]  # instrumentation.py's code as plain text
    assert cli("build", "--no-cache", "--jobs", "1", "--no-search", "--site-dir", "clean").code == 0
    clean = row.search((project.root / "clean/NVIDIA-NeMo/RL/1/async-save-tag/index.html").read_text())
    assert clean and '<span class="n' in clean[0]  # highlighted, when lexed as Python
    with sqlite3.connect(project.root / ".cache/site-gen/code.sqlite") as db:
        fixed = db.execute("SELECT data FROM code WHERE key = ?", (other,)).fetchone()[0]
    assert json.loads(fixed) == "name:python"  # a name for another file is worked out again


def _order_of_rendering(project: Project, monkeypatch: pytest.MonkeyPatch,
                        jobs: int) -> list[str]:
    """What a build made in turn: 'other' for the pages besides the question pages (once),
    'page' for each question page as this process took it from the renderers."""
    from site_gen.build import build
    from site_gen.config import load_config
    from site_gen.render import Renderer

    events: list[str] = []
    real = Renderer.other_pages

    def other_pages(self: Renderer, *args: object, **kwargs: object) -> object:
        events.append("other")
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Renderer, "other_pages", other_pages)
    config = load_config(project.root / "mkdocs.yml", site_dir=project.root / f"site-{jobs}")
    build(config, jobs=jobs, cache=False, search=False,
          progress=lambda done, total: events.append("page"))
    return events


def test_the_other_pages_are_made_while_the_workers_render(
        project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    """With worker processes rendering the question pages, this process makes the PR pages,
    home and the rest meanwhile (it would only wait); on one process, after them. The
    bytes are the same either way."""
    from site_gen.question_pages import PARALLEL_MIN

    write_model_copies(project.root, PARALLEL_MIN + 2)
    pages = PARALLEL_MIN + 3  # and the project's own page
    assert _order_of_rendering(project, monkeypatch, 2) == ["other"] + ["page"] * pages
    assert _order_of_rendering(project, monkeypatch, 1) == ["page"] * pages + ["other"]
    assert tree(project.root / "site-2") == tree(project.root / "site-1")


def test_errors_of_the_other_pages_count_after_the_question_pages(
        project: Project, cli: CLI) -> None:
    """The other pages are made early, but what making them raised is told only once the
    question pages passed, as in a build on one process: a page's error first, then (the
    page mended) the broken template at its line."""
    from site_gen.question_pages import PARALLEL_MIN

    write_model_copies(project.root, PARALLEL_MIN + 2)
    project.write("mkdocs.yml", (project.root / "mkdocs.yml").read_text()
                  + "theme:\n  custom_dir: templates\n")
    project.write("templates/pr.html", "{% extends 'base.html' %}\n{% block main %}\n"
                  "{{ pr.nope() }}\n{% endblock %}\n")
    page = project.root / "content/NVIDIA-NeMo/RL/3/async-save-tag.md"
    text = page.read_text()
    page.write_text(text.replace("status: ", "status: opne #", 1))
    for jobs in ("2", "1"):
        failed = cli("build", "--no-search", "--no-cache", "--jobs", jobs)
        assert failed.code == 1
        assert failed.err.startswith("content/NVIDIA-NeMo/RL/3/async-save-tag.md:")
        assert "unknown status" in failed.err and "templates/pr.html" not in failed.err
    page.write_text(text)
    for jobs in ("2", "1"):
        failed = cli("build", "--no-search", "--no-cache", "--jobs", jobs)
        assert failed.code == 1
        assert failed.err.startswith("templates/pr.html:3: template error: "), failed.err


def test_the_command_ends_without_freeing_what_it_made(project: Project) -> None:
    """The console command ends its process at once when it is done (os._exit, not the
    interpreter's clean-up, which frees every object the build made one by one): with its
    exit code, and what it printed all out, through a pipe too, where Python buffers it.
    An object whose finalizer would run in that clean-up shows it was skipped."""
    import subprocess
    import sys

    write_model_copies(project.root, 3)
    script = ("import sys\n"
              "class Made:\n"
              "    def __del__(self): print('freed', file=sys.stderr)\n"
              "made = Made()\n"
              "from site_gen.console import run\n"
              "run()\n")
    for args, code in ((["build", "--no-search"], 0), (["build", "--no-search", "-d", "/"], 1)):
        done = subprocess.run([sys.executable, "-c", script, *args], cwd=project.root,
                              capture_output=True, text=True)
        assert done.returncode == code, done.stderr
        assert "freed" not in done.stderr
        if code == 0:
            assert done.stdout.startswith("Built 12 pages") and done.stdout.endswith("warning(s).\n")
        else:
            assert done.stderr.strip(), "the error is printed before the process ends"
    plain = subprocess.run([sys.executable, "-c", script.replace("run()", "sys.exit(0)")],
                           capture_output=True, text=True)
    assert "freed" in plain.stderr  # the test's own check: a normal exit frees it


def test_a_build_that_starts_no_process_does_not_load_ctypes(project: Project) -> None:
    """ctypes (what a child process uses to end with its parent) is loaded only by a build
    that starts one: not by a build on one worker without search, nor by a one-page edit."""
    import subprocess
    import sys

    write_model_copies(project.root, 3)
    page = sorted((project.root / "content").rglob("*.md"))[1]
    script = ("import sys\n"
              "from site_gen.cli import main\n"
              "code = main()\n"
              "print('ctypes' in sys.modules, file=sys.stderr)\n"
              "sys.exit(code)\n")

    def loaded(*args: str) -> str:
        done = subprocess.run([sys.executable, "-c", script, "build", *args], cwd=project.root,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("Built "), done.stdout  # rendered, not up to date
        return done.stderr.strip().splitlines()[-1]

    assert loaded("--no-search", "--jobs", "1") == "False"
    page.write_text(page.read_text() + "\nAn edit.\n")
    assert loaded("--no-search") == "False"  # one page rendered, on this process
    assert loaded("--jobs", "1") == "True"  # Pagefind: a child


def test_the_command_runs_with_the_collector_set_to_run_seldom(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The console command sets the garbage collector's thresholds before it imports the
    command line (whose imports make objects by the thousand), and keeps them while the
    command runs; its worker processes inherit them."""
    import gc

    from site_gen import cli, console

    seen: list[object] = []
    monkeypatch.setattr(cli, "main", lambda: seen.append(gc.get_threshold()) or 0)
    monkeypatch.setattr(processes, "stop_on_sigterm", lambda: None)

    def ended(code: int) -> None:
        raise SystemExit(code)

    monkeypatch.setattr(os, "_exit", ended)
    before = gc.get_threshold()
    try:
        with pytest.raises(SystemExit) as stop:
            console.run()
    finally:
        gc.set_threshold(*before)
    assert seen == [console.GC_THRESHOLDS] and stop.value.code == 0
    assert console.GC_THRESHOLDS[0] > before[0]


def test_each_part_of_the_index_is_indexed_once_its_pages_are_written(
        project: Project, cli: CLI, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pagefind starts on a part of the search index as soon as that part's pages are in the
    new copy, while the rest of the site is written (not once every file is), at most one
    per core at a time; the site is a build's that indexes at the end, bytes and all."""
    write_model_copies(project.root, 12)
    monkeypatch.setattr(search, "PART_PAGES", 4)  # 25 searchable pages in 8 parts, or 7
    seen: list[tuple[str, bool, bool, int]] = []
    running: list[object] = []
    original = search._pagefind

    def started(name: str, pages: list[str], folder: Path) -> object:
        live = sum(1 for p in running if p.poll() is None)  # type: ignore[attr-defined]
        seen.append((name, all((folder / p).is_file() for p in pages),
                     (folder / "assets/site.css").is_file(), live))
        process = original(name, pages, folder)
        running.append(process)
        return process

    monkeypatch.setattr(search, "_pagefind", started)
    assert cli("build", "--no-cache").code == 0
    parts = json.loads((project.site / "pagefind/parts.json").read_text())["parts"]
    assert [name for name, *_ in seen] == parts and len(parts) > 2  # those with pages
    assert all(written for _, written, _, _ in seen)
    assert not seen[0][2]  # the first part started before the rest of the site was written
    assert max(live for *_, live in seen) < (os.cpu_count() or 1)
    monkeypatch.setattr(search, "_pagefind", original)
    assert cli("build", "--no-cache", "--site-dir", "again").code == 0
    assert tree(project.site) == tree(project.root / "again")


def test_the_page_cache_never_waits_for_the_disk(project: Project, cli: CLI) -> None:
    """The page cache commits to SQLite's write-ahead log without syncing: no rollback
    journal made, synced and deleted at every commit (which made a `serve` edit wait on
    the disk). Its writes are taken once for the whole build."""
    import sqlite3

    from site_gen.cache import PageCache, cache_path
    from site_gen.config import load_config

    assert cli("build", "--no-search").code == 0
    path = cache_path(load_config(project.root / "mkdocs.yml"))
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    cache = PageCache(path)
    try:
        db = cache._open()
        assert db.execute("PRAGMA synchronous").fetchone() == (0,)
        assert db.in_transaction  # the right to write, held from the start
    finally:
        cache.close()


def test_the_benchmark_says_how_long_the_disk_stalled_while_it_measured(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A size measured on a disk that stalled most of the time measures the disk: the
    benchmark's table says, for each size, what share of its run some task waited for it
    (and for a processor), from Linux's pressure stall figures; nothing where the kernel
    keeps none."""
    from benchmarks import build as bench

    shares = bench.stalls({"io": 1_000_000, "cpu": 0}, {"io": 7_000_000, "cpu": 500_000}, 10.0)
    assert shares == pytest.approx({"io": 0.6, "cpu": 0.05})
    assert bench.stalls({}, {}, 10.0) == {}
    assert set(bench.pressure()) <= {"io", "cpu"}
    row = {"seconds": 1.0, "peak_mib": 10.0}
    names = ["fair floor (1 core)", "fair floor, lexed as site_gen lexes (1 core)",
             "site_gen clean, 1 worker, no search",
             "mkdocs build (its search index too)", "one-edit rebuild, no search",
             "start-up floor: Python, the libraries", "start-up: Python, site_gen's modules"]
    cores = os.cpu_count() or 1
    names += [f"site_gen clean, {cores} workers, {s}" for s in ("no search", "search")]
    results = {n: {name: dict(row) for name in names} for n in (150, 1000)}
    pairs = {"mkdocs": [2.0], "floor": [1.5], "edit": [0.1]}
    monkeypatch.setattr(bench, "PAIRS", {("generated", 150): pairs, ("generated", 1000): pairs})
    monkeypatch.setattr(bench, "STALLED", {("generated", 150): shares,
                                           ("generated", 1000): {"io": 0.01, "cpu": 0.0}})
    bench.report(results, "generated")
    table = capsys.readouterr().out
    assert re.search(r"time some task waited for the disk\s+60%\s+1%", table), table
    assert re.search(r"time some task waited for a processor\s+5%\s+0%", table), table


def test_a_goal_missed_by_a_hair_is_not_shown_as_met(capsys: pytest.CaptureFixture[str]) -> None:
    """The benchmark's goal lines show three decimals: a ratio of 2.499 against a goal of
    2.5 reads 2.499 MISSED, not 2.50 MISSED."""
    from benchmarks import build as bench

    row = {"seconds": 1.0}
    results = {150: {"site_gen clean, 1 worker, no search": row, "fair floor (1 core)": row}}
    ratios = {"mkdocs / site_gen (every core, search) *": lambda n: 2.499,
              "site_gen 1 worker / fair floor, per page *": lambda n: 1.5,
              "one-edit rebuild / clean build (no search) *": lambda n: 0.1}
    bench.goals(results, ratios, 1)
    lines = {line.split(":")[0].strip(): line.split()[-5:]
             for line in capsys.readouterr().out.splitlines() if "goal" in line}
    assert lines["clean build with search at 150 pages"] == ["2.499", "goal", ">=", "2.5", "MISSED"]
    assert lines["per page on one worker at 150 pages"] == ["1.500", "goal", "<=", "1.5", "met"]


def test_a_cached_build_walks_docs_dir_once(project: Project, cli: CLI,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Discovery takes docs_dir's entries from the walk that took the input digest, and
    finds what its own walk would: hidden files and folders, excluded ones (and what lies
    below an excluded folder), links and empty folders included."""
    from site_gen import cache, content

    docs = project.root / "content"
    for name in ("acme/.github/5/pr.yml", "acme/widgets/.drafts/x.md", "acme/widgets/12/.x.md",
                 "notes/deep/scratch.md", "acme/widgets/12/data.bin", "acme/widgets/13/.keep"):
        project.write(f"content/{name}", "x\n")
    (docs / "acme/widgets/14").mkdir()
    (docs / "acme/linked").symlink_to(docs / "acme/widgets")
    (docs / "acme/broken").symlink_to(docs / "nowhere")
    listing: list[tuple[str, bool, bool]] = []
    config = project.root / "mkdocs.yml"
    from site_gen.config import load_config

    cache.input_digest(load_config(config), "", False, {}, listing)
    for patterns in ("", "notes/\n*.bin\n", "acme/widgets/\n"):
        excluded = content.excluded_by(patterns)
        walked = content._entries(docs, excluded, content.DiscoveryMemo())
        assert content._listed(listing, excluded, content.DiscoveryMemo()) == walked
    assert ("acme/.github", True, False) in walked and ("acme/linked", True, True) in walked
    for name in ("content/acme/.github/5/pr.yml", "content/acme/widgets/.drafts/x.md",
                 "content/acme/widgets/12/.x.md", "content/notes/deep/scratch.md",
                 "content/acme/widgets/12/data.bin", "content/acme/widgets/13/.keep"):
        (project.root / name).unlink()
    (docs / "acme/linked").unlink()
    (docs / "acme/broken").unlink()

    def walked_again(*args: object) -> None:
        raise AssertionError("discovery walked docs_dir again")

    monkeypatch.setattr(content, "_entries", walked_again)
    assert cli("build", "--no-search").code == 0
    project.write("content/acme/widgets/12/cache-bug.md",
                  (docs / "acme/widgets/12/cache-bug.md").read_text() + "\nAn edit.\n")
    built = cli("build", "--no-search")
    assert built.code == 0, built.err
    assert "An edit." in (project.site / "acme/widgets/12/cache-bug/index.html").read_text()


def test_a_build_without_the_cache_does_not_digest_site_gens_sources(
        project: Project, cli: CLI, monkeypatch: pytest.MonkeyPatch) -> None:
    """The digest of site_gen's own sources and templates goes into every cache key and
    nowhere else: `--no-cache` builds without working it out (reading every module), and a
    build with the cache works it out once."""
    from site_gen import build

    made: list[object] = []
    real = build.build_fingerprint
    monkeypatch.setattr(build, "build_fingerprint", lambda config: made.append(config) or real(config))
    assert cli("build", "--no-search", "--no-cache").code == 0
    assert made == []
    assert cli("build", "--no-search").code == 0
    assert len(made) == 1
