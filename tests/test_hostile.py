"""Hostile content and hostile conditions: nothing is written outside site_dir, no script
comes from content, no traceback, and the old site survives; one test per defect found."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from site_gen.errors import SiteGenError
from site_gen.output import check_names, read_marker

from .conftest import Project, Run, front, serving, tree
from .test_bad_input import BLOCK_FM, FM, GOOD_M, GOOD_R, PROPOSAL, M, P, R, assert_refused

CLI = Callable[..., Run]
BIG = "9" * 5000  # int() refuses numbers over 4,300 digits

HOSTILE: list[tuple[str, dict[str, object], list[str]]] = [
    # 1. values that become paths
    ("status-escapes-site", {M: GOOD_M + "site_gen:\n  statuses:\n    ../../escaped: {for: page}\n",
                             P: FM.replace("status: open", "status: ../../escaped")},
     [f"{M}:6: status name '../../escaped' must be lower-case letters, digits, '-' and '_', "
      "starting with a letter or digit (it becomes the URL of its status page)"]),
    ("status-dot-dot", {M: GOOD_M + "site_gen:\n  statuses:\n    '..': {for: page}\n"},
     [f"{M}:6: status name '..' must be lower-case letters, digits, '-' and '_', starting with "
      "a letter or digit (it becomes the URL of its status page)"]),
    ("repo-climbs", {R: GOOD_R.replace("acme/widgets", "../..")},
     [f"{R}:1: 'repo' must be 'owner/name', found '../..'"]),
    ("file-and-folder", {"content/search/index.html/1/pr.yml":
                         GOOD_R.replace("acme/widgets", "search/index.html")
                         .replace("number: 12", "number: 1"),
                         "content/search/index.html/1/q.md": FM},
     ["content/search/index.html/1/pr.yml: 'search/index.html' would be both a file of the site "
      "(a page of its own) and the folder of 'search/index.html/1/index.html'; rename one of "
      "them",
      "content/search/index.html/1/q.md: 'search/index.html' would be both a file of the site "
      "(a page of its own) and the folder of 'search/index.html/1/q/index.html'; rename one of "
      "them"]),
    # 2. files of content/ that could run script, or replace a page
    ("html-in-content", {"content/acme/widgets/12/x.html": "<script>alert(1)</script>"},
     ["content/acme/widgets/12/x.html: '.html' files can run script on the site, so they are "
      "not published; set site_gen.publish_html: true in mkdocs.yml to publish them, or remove "
      "it"]),
    ("svg-in-content", {"content/logo.svg": "<svg onload='alert(1)'/>"},
     ["content/logo.svg: '.svg' files can run script on the site, so they are not published; "
      "set site_gen.publish_html: true in mkdocs.yml to publish them, or remove it"]),
    ("unknown-file-type", {"content/acme/widgets/12/tool.exe": b"MZ"},
     ["content/acme/widgets/12/tool.exe: 'tool.exe' is not a page, a pr.yml or a file type "
      "site_gen publishes (avif, bmp, csv, diff, gif, ico, jpeg, jpg, json, log, mp3, mp4, ogg, "
      "patch, pdf, png, tsv, txt, wav, webm, webp, woff, woff2); move it out of docs_dir"]),
    ("content-replaces-home", {M: GOOD_M + "site_gen:\n  publish_html: true\n",
                               "content/index.html": "<p>mine</p>"},
     ["content/index.html: would be published at 'index.html', where site_gen writes a page of "
      "its own; rename or move it"]),
    ("content-replaces-page", {"content/acme/widgets/12/cache-bug/index.txt": "x",
                               M: GOOD_M + "site_gen:\n  publish_html: true\n",
                               "content/acme/widgets/12/cache-bug/index.html": "<p>mine</p>"},
     ["content/acme/widgets/12/cache-bug/index.html: would be published at "
      "'acme/widgets/12/cache-bug/index.html', where site_gen writes the page made from "
      "content/acme/widgets/12/cache-bug.md; rename or move it"]),
    # 3. !ENV reads the environment: mkdocs.yml only
    ("env-in-pr-yml", {R: GOOD_R.replace("title: T", "title: !ENV HOME")},
     [f"{R}:3: invalid YAML: !ENV is read in mkdocs.yml only, so that no environment variable "
      "(a token, say) can end up in a page; expected the value itself"]),
    ("env-in-front-matter", {P: FM.replace("title: T", "title: !ENV [HOME, x]")},
     [f"{P}:2: invalid YAML: !ENV is read in mkdocs.yml only, so that no environment variable "
      "(a token, say) can end up in a page; expected the value itself"]),
    # 5. numbers too long for int()
    ("huge-number-yaml", {R: GOOD_R.replace("number: 12", f"number: {BIG}")},
     [f"{R}:2: invalid YAML: the number 99999999999999999999... has 5000 digits; expected at "
      "most 18"]),
    ("huge-number-settings", {M: GOOD_M + f"extra:\n  n: {BIG}\n"},
     [f"{M}:5: invalid YAML: the number 99999999999999999999... has 5000 digits; expected at "
      "most 18"]),
    ("huge-ref-line", {P: FM + f"[[core.py:{BIG}]]\n"},
     [f"{P}:6: line number in '[[core.py:{BIG[:69]}...]]' is too large; expected at most "
      "999,999,999"]),
    ("huge-hunk-position", {P: FM + PROPOSAL.format(f"@@ -{BIG},1 +1,1 @@\n-a\n+b")},
     [f"{P}:8: line number 999999999999... is too large; expected at most 999,999,999"]),
    ("huge-hunk-range", {P: FM + PROPOSAL.replace("L1", f"L{BIG}").format("-a\n+b")},
     [f"{P}:7: line number 999999999999... is too large; expected at most 999,999,999"]),
    # 5. code-host patterns substitute their fields and evaluate nothing
    ("code-host-attribute", {M: GOOD_M + "site_gen:\n  code_host:\n    permalink: "
                             "'https://x.org/{repo.__class__}/{repo}/{commit}/{path}{lines}'\n"},
     [f"{M}:6: 'site_gen.code_host.permalink' names the unknown field '{{repo.__class__}}'; "
      "expected only {repo}, {commit}, {path}, {lines}; found "
      "'https://x.org/{repo.__class__}/{repo}/{commit}/{path}{lines}'"]),
    # 5. links in content that lead nowhere
    ("looping-link", {"content/acme/widgets/12/loop.png": "<loop>"},
     ["content/acme/widgets/12/loop.png: cannot be read (a broken link?); expected a file"]),
    # 8. characters XML forbids
    ("control-in-title", {P: FM.replace("title: T", 'title: "T\\x01"')},
     [f"{P}:2: 'title' contains the control character U+0001, which pages and feeds cannot "
      "hold; expected plain text"]),
    ("control-in-summary", {P: BLOCK_FM.format('summary:\n  before: "\\e"\norder: 1\n'
                                                'updated: 2026-01-05')},
     [f"{P}:6: 'before' contains the control character U+001B, which pages and feeds cannot "
      "hold; expected plain text"]),
    ("noncharacter-in-site-name", {M: GOOD_M.replace("site_name: R", 'site_name: "R\\uFFFE"')},
     [f"{M}:1: 'site_name' contains the control character U+FFFE, which pages and feeds cannot "
      "hold; expected plain text"]),
    # 9. addresses every page links to
    ("repo-url-script", {M: GOOD_M + "repo_url: javascript:alert(1)\n"},
     [f"{M}:4: 'repo_url' must be an http:// or https:// address, like "
      "'https://example.org/reviews/'; found 'javascript:alert(1)'"]),
    ("site-url-data", {M: GOOD_M.replace("https://x.org/", "data:text/html,x")},
     [f"{M}:2: 'site_url' must be an http:// or https:// address, like "
      "'https://example.org/reviews/'; found 'data:text/html,x'"]),
    ("site-url-other-host", {M: GOOD_M.replace("https://x.org/", "https://x.org//evil.example/")},
     [f"{M}:2: 'site_url' must be an http:// or https:// address, like "
      "'https://example.org/reviews/'; found 'https://x.org//evil.example/'"]),
    ("commit-url-script", {M: GOOD_M + "site_gen:\n  code_host:\n    commit: "
                           "'javascript:alert(\"{repo}\")'\n"},
     [f"{M}:6: 'site_gen.code_host.commit' must be an http:// or https:// address; found "
      "'javascript:alert(\"{repo}\")'"]),
    # 10. the git reader is only asked for plain paths
    ("newline-in-files", {R: GOOD_R.replace("files: [", "files: [\"a.py\\ncontents HEAD:x\", ")},
     [f"{R}:6: 'files' entry 'a.py\\ncontents HEAD:x' is not a path inside the repository; "
      "expected a path like 'src/pkg/module.py' (no control characters, no '..')"]),
    # 11. small ones
    ("hunk-line-zero", {P: FM + PROPOSAL.format("@@ -0,1 +1,1 @@\n-a\n+b")},
     [f"{P}:8: '@@ -0,1 +1,1 @@' starts the - side at line 0; lines count from 1 ('-0,0' is "
      "for a side with no lines)"]),
    ("ref-climbs", {P: FM + "[[../../etc/passwd:1]]\n"},
     [f"{P}:6: '../../etc/passwd' in '[[../../etc/passwd:1]]' is not a path inside the "
      "repository; expected a path like 'src/module.py' (no '..')"]),
]


@pytest.mark.parametrize(("files", "expected"), [c[1:] for c in HOSTILE],
                         ids=[c[0] for c in HOSTILE])
def test_hostile_input(project: Project, cli: CLI, files: dict[str, object],
                       expected: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/secret-token")
    assert_refused(project, cli, files, expected)
    assert not (project.root / "escaped").exists()


def test_html_is_published_only_when_allowed(project: Project, cli: CLI) -> None:
    project.write("content/acme/widgets/12/demo.html", "<p>demo</p>")
    project.write(M, GOOD_M + "site_gen:\n  publish_html: true\n")
    assert cli("build", "--no-search").code == 0
    assert (project.site / "acme/widgets/12/demo.html").read_text() == "<p>demo</p>"


def test_yaml_merge_keys_may_be_overridden(project: Project, cli: CLI) -> None:
    project.write(M, GOOD_M + "extra:\n  base: &base {a: 1, c: 3}\n  over:\n    <<: *base\n"
                              "    a: 2\n")
    assert cli("build", "--no-search").code == 0
    from site_gen.config import load_config

    assert load_config(project.root / M).extra["over"] == {"a": 2, "c": 3}
    project.write(M, GOOD_M + "extra:\n  over:\n    a: 1\n    a: 2\n")
    result = cli("build", "--no-search")
    assert (result.code, result.err.splitlines()[0]) == (
        1, f"{M}:7: invalid YAML: duplicate key 'a'")


@pytest.mark.parametrize("name", ["../escaped.html", "/etc/x", "a//b", "a/./b", "a/../../b",
                                  "a\nb", "a\\b"])
def test_no_output_name_leaves_the_site_folder(name: str) -> None:
    with pytest.raises(SiteGenError, match="is not a plain path inside the site folder"):
        check_names({"index.html": "", name: ""})


def test_site_dir_inside_docs_dir_is_refused(project: Project, cli: CLI) -> None:
    result = cli("build", "--site-dir", "content/site")
    assert (result.code, result.err.splitlines()[0]) == (
        1, "mkdocs.yml: site_dir 'content/site' is inside docs_dir, so every build would "
           "publish the last one again; expected a folder outside it")


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS])
def test_a_full_or_read_only_disk_is_one_line(project: Project, cli: CLI,
                                              monkeypatch: pytest.MonkeyPatch, code: int) -> None:
    assert cli("build", "--no-search").code == 0
    before, shown = tree(project.site), read_marker(project.site)
    project.write(P, FM + "Changed.\n")

    def fail(*args: object, **how: object) -> None:
        raise OSError(code, os.strerror(code), str(project.root / ".site.b/index.html"))

    monkeypatch.setattr("site_gen.output.apply_changes", fail)
    result = cli("build", "--no-search")
    assert result.code == 1
    assert result.err == (f"cannot write the site: {os.strerror(code)} "
                          f"({project.root}/.site.b/index.html); the site in "
                          f"{project.site} was not changed\n")
    # the site and the record of the copy it shows are as they were; the journal names the
    # standby copy's files that are not to be trusted
    assert (tree(project.site), read_marker(project.site)) == (before, shown)


def cache_rows(project: Project) -> list[tuple[str, str, str, str]]:
    """The page cache's entries: (key, data, text, digest), in key order."""
    with contextlib.closing(sqlite3.connect(project.root / ".cache/site-gen/pages.sqlite")) as db:
        return sorted(db.execute("SELECT key, data, text, digest FROM pages"))


@pytest.mark.parametrize("damage", ["[1, 2]", "{}", '{"key": 1}', "not json", "<swap>",
                                    "<inject>", "<not a database>"])
def test_a_damaged_or_foreign_cache_entry_is_never_used(project: Project, cli: CLI,
                                                        damage: str) -> None:
    project.write("content/acme/widgets/12/other.md",
                  front("Other", "q2", "open", 2) + "\nOther.\n")
    assert cli("build", "--no-search").code == 0
    clean = tree(project.site)
    rows = cache_rows(project)  # question pages, the other pages, each damaged
    assert len(rows) > 2
    if damage == "<swap>":  # valid entries, each stored under another one's key
        change = [(data, text, key) for (key, _, _, _), (_, data, text, _)
                  in zip(rows, rows[1:] + rows[:1], strict=True)]
    elif damage == "<inject>":  # the right shape, with other HTML
        change = [(data, text.replace("<main", "<script>alert(1)</script><main"), key)
                  for key, data, text, _ in rows]
    else:
        change = [(damage, text, key) for key, _, text, _ in rows]
    if damage == "<not a database>":
        (project.root / ".cache/site-gen/pages.sqlite").write_text("not a database")
    else:
        with contextlib.closing(sqlite3.connect(project.root / ".cache/site-gen/pages.sqlite")) as db:
            db.executemany("UPDATE pages SET data = ?, text = ? WHERE key = ?", change)
            db.commit()
    result = cli("build", "--no-search", "--site-dir", "again")
    assert result.code == 0, result.err
    assert tree(project.root / "again") == clean


def test_the_cache_reads_many_entries_at_once_and_only_sound_ones(tmp_path: Path) -> None:
    from site_gen.cache import BATCH, PageCache

    cache = PageCache(tmp_path / "pages.sqlite")
    keys = [f"key{i:04}" for i in range(BATCH * 2 + 7)]  # more than one query asks for
    for i, key in enumerate(keys):
        cache.put(key, {"html": f"<p>page {i}</p>", "n": i})
    cache.close()
    with contextlib.closing(sqlite3.connect(tmp_path / "pages.sqlite")) as db:
        db.execute("UPDATE pages SET text = '<p>changed</p>' WHERE key = 'key0003'")
        db.commit()
    cache = PageCache(tmp_path / "pages.sqlite")
    found = cache.get_many([*keys, "never-put"])
    assert set(found) == set(keys) - {"key0003"}
    assert found["key1006"] == {"html": "<p>page 1006</p>", "n": 1006}
    assert cache.get("key0003") is None and cache.get("key0004") == found["key0004"]
    assert cache.used == {*keys, "never-put"}  # pruning keeps what was asked for
    cache.close()


def test_a_cache_an_older_site_gen_laid_out_is_made_anew_with_the_long_text_last(
        tmp_path: Path) -> None:
    """A page's HTML is the last column, so a row's digest is read without reading through
    the HTML (SQLite reads a row's columns in order); a cache of the older layout (the
    text before the digest) is emptied once and used from then on."""
    from site_gen.cache import LAYOUT, PageCache

    path = tmp_path / "pages.sqlite"
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE pages (key TEXT PRIMARY KEY, data TEXT, text TEXT, digest TEXT)")
        db.execute("INSERT INTO pages VALUES ('old', '{}', '<p>old</p>', 'x')")
        db.commit()
    cache = PageCache(path)
    assert cache.get("old") is None
    cache.put("new", {"html": "<p>new</p>", "n": 1})
    cache.close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(pages)")]
        assert columns == ["key", "data", "digest", "text"]
        assert db.execute("PRAGMA user_version").fetchone()[0] == LAYOUT
        assert db.execute("SELECT key FROM pages").fetchall() == [("new",)]
    cache = PageCache(path)  # and kept from then on
    assert cache.get("new") == {"html": "<p>new</p>", "n": 1}
    assert cache.get_many(["new"], text=False)["new"]["n"] == 1
    cache.close()
def _slow_build(project: Project) -> subprocess.Popen[str]:
    from benchmarks.sample import write_site

    write_site(project.root, 240)  # several seconds of work: the signal comes in the middle
    return subprocess.Popen([sys.executable, "-m", "site_gen", "build", "-v", "--no-cache",
                             "--jobs", "2"], cwd=project.root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_and_sigterm_stop_cleanly(project: Project, sig: int, code: int) -> None:
    build = _slow_build(project)
    assert build.stderr is not None
    said = []  # -v: the line that starts the rendering, however long start-up took
    while not (line := build.stderr.readline()).startswith("Question pages:") and line:
        said.append(line)
    assert line, "".join(said)
    build.send_signal(sig)
    out, rest = build.communicate(timeout=60)
    err = "".join(said) + line + rest
    assert (build.returncode, err.splitlines()[-1]) == (
        code, "Interrupted; the site was not changed."), err
    assert "Traceback" not in err
    assert not project.site.exists()
    assert [p.name for p in project.root.iterdir() if ".new-" in p.name] == []


def test_concurrent_builds_into_one_folder_both_succeed(project: Project, cli: CLI) -> None:
    from benchmarks.sample import write_site

    write_site(project.root, 30)
    page = sorted((project.root / "content").rglob("p-*.md"))[0]
    for round_ in range(4):
        page.write_text(page.read_text() + f"\nRound {round_}.\n")
        builds = [subprocess.Popen([sys.executable, "-m", "site_gen", "build", "--no-search"],
                                   cwd=project.root, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True) for _ in range(2)]
        for build in builds:
            out, err = build.communicate(timeout=120)
            assert build.returncode == 0, err
    assert cli("build", "--no-search", "--no-cache", "--site-dir", "clean").code == 0
    assert tree(project.site) == tree(project.root / "clean")


def test_new_refuses_paths_and_control_characters(project: Project, cli: CLI) -> None:
    climb = cli("new", "../..#1", "--head", "1234567")
    assert (climb.code, climb.err) == (1, "'../..#1' is not a pull request; expected "
                                          "OWNER/REPO#NUMBER, like NVIDIA-NeMo/RL#4607\n")
    control = cli("new", "acme/gears#2", "--head", "1234567", "--title", "A\x01B")
    assert (control.code, control.err) == (1, "--title contains the control character U+0001; "
                                              "expected one line of plain text\n")
    assert not (project.root / "content/acme/gears").exists()


def test_the_git_reader_stays_in_step(checkout: tuple[Path, str, str]) -> None:
    from site_gen.git_reader import SourceReader

    repo, first, second = checkout
    reader = SourceReader(repo)
    try:
        for hostile in ("src/widgets/core.py\ncontents HEAD:README.md", "a b missing",
                        "no/such x blob 5", "src\x00x"):
            assert reader.lines(second, hostile) is None
        assert reader.lines(second, "README.md") == ["# Widgets"]
        assert reader.lines(second, "src/widgets/core.py")[9] == "key = make_key(user, scope)"
        assert reader.commit("1234567\ninfo HEAD") is None
        assert reader.commit(second[:10]) == second
    finally:
        reader.close()


def test_the_preview_answers_only_its_own_host_and_plain_paths(tmp_path: Path,
                                                               capfd: pytest.CaptureFixture[str]) -> None:
    import http.client

    (tmp_path / "index.html").write_text("<p>home</p></body>")

    def get(path: str, host: str) -> int:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.putrequest("GET", path, skip_host=True)
        connection.putheader("Host", host)
        connection.endheaders()
        status = connection.getresponse().status
        connection.close()
        return status

    with serving(tmp_path, lambda changed: [], [], capfd) as (port, _):
        assert get("/", f"127.0.0.1:{port}") == 200
        assert get("/", f"localhost:{port}") == 200
        assert get("/", "evil.example") == 421  # a rebound DNS name reads nothing
        assert get("/%00.html", f"127.0.0.1:{port}") == 400
        assert get("/a%0ab/", f"127.0.0.1:{port}") == 400


def test_code_host_patterns_take_stray_braces_literally(project: Project, cli: CLI) -> None:
    from site_gen.code_host import fill

    assert fill("https://x.org/{repo}/{{a}/{", repo="o/r", start=1) == "https://x.org/o/r/{{a}/{"
    assert fill("{repo.__class__}{path}", repo="o/r") == "{repo.__class__}{path}"
    project.write(M, GOOD_M + "site_gen:\n  code_host:\n    permalink: "
                              "'https://x.org/{repo}/{commit}/{path}{lines}?{'\n")
    project.write(R, GOOD_R)
    result = cli("build", "--no-search")
    assert result.code == 0, result.err
    assert ('href="https://x.org/acme/widgets/1234567/src/widgets/core.py#L10?{"'
            in (project.site / "acme/widgets/12/cache-bug/index.html").read_text())
