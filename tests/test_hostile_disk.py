"""Hostile conditions, round two: what site_gen reads back from disk (its record, its
cache, links in its folders) never takes a write or a removal outside the site, and no
condition of the disk ends in a traceback."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import Project, Run, tree

CLI = Callable[..., Run]
PAGE = "content/acme/widgets/12/cache-bug.md"


def edit(project: Project, words: str) -> None:
    page = project.root / PAGE
    page.write_text(page.read_text() + f"\n{words}\n")


def two_copies(project: Project, cli: CLI) -> Path:
    """Build twice with an edit between: both copies exist and are recorded; returns the
    copy not shown, which the next build writes into."""
    assert cli("build", "--no-search").code == 0
    edit(project, "First edit.")
    assert cli("build", "--no-search").code == 0
    return project.root / (".site.a" if os.readlink(project.site) == ".site.b" else ".site.b")


@pytest.mark.parametrize("where", ["pending", "files", "shown"])
def test_a_forged_record_cannot_remove_anything_outside_the_site(project: Project, cli: CLI,
                                                                 where: str) -> None:
    victim = project.root.parent / f"victim-{where}"
    (victim / "keep").mkdir(parents=True)
    (victim / "keep/keep.txt").write_text("mine")
    two_copies(project, cli)
    record_path = project.root / ".site.site-gen"
    record = json.loads(record_path.read_text())
    forged = f"../../{victim.name}/keep/keep.txt"
    for held in record["copies"].values():
        if where == "pending":
            held["pending"] = [forged]
        elif where == "files":
            held["files"][forged] = "0" * 64
    if where == "shown":
        record["shown"] = f"../{victim.name}"
        os.unlink(project.site)  # the link gone: the record says what to show
    record_path.write_text(json.dumps(record))
    edit(project, "More.")
    built = cli("build", "--no-search")
    assert built.code == 0, built.err
    assert (victim / "keep/keep.txt").read_text() == "mine"
    assert cli("build", "--no-search", "--no-cache", "--site-dir", "clean").code == 0
    assert tree(project.site) == tree(project.root / "clean")


@pytest.mark.parametrize("folder", ["acme", "acme/widgets/12/cache-bug"])
def test_a_link_inside_a_copy_never_leads_a_write_out(project: Project, cli: CLI,
                                                      folder: str) -> None:
    """A link where the copy had a folder, at its top or as deep as a page's own folder
    (each folder is looked at below the ones known sound, not resolved from the top)."""
    victim = project.root.parent / f"victim-link-{folder.count('/')}"
    victim.mkdir()
    standby = two_copies(project, cli)
    os.rename(standby / folder, project.root / "moved")
    os.symlink(victim, standby / folder)
    edit(project, "More.")
    built = cli("build", "--no-search")
    assert list(victim.iterdir()) == []
    assert built.code == 1 and "a link takes it out of" in built.err, built.err


def test_a_link_that_stays_inside_the_copy_is_written_through(project: Project, cli: CLI) -> None:
    """A link in the copy to a folder of the same copy leads nowhere outside: the build
    writes through it, and the site shows the same pages as a clean build."""
    standby = two_copies(project, cli)
    os.rename(standby / "acme/widgets", standby / "widgets-elsewhere")
    os.symlink("../widgets-elsewhere", standby / "acme/widgets")
    edit(project, "More.")
    built = cli("build", "--no-search")
    assert built.code == 0, built.err
    page = project.site / "acme/widgets/12/cache-bug/index.html"
    assert "More." in page.read_text()


def test_init_force_never_writes_through_a_link_out_of_the_folder(tmp_path: Path, cli: CLI) -> None:
    outside = tmp_path / "outside"
    (outside / "workflows").mkdir(parents=True)
    (outside / "ignored").write_text("theirs\n")
    folder = tmp_path / "reviews"
    folder.mkdir()
    (folder / ".gitignore").symlink_to(outside / "ignored")
    made = cli("init", str(folder), "--force")
    assert made.code == 0, made.err
    assert (outside / "ignored").read_text() == "theirs\n"  # the link was replaced instead
    assert not (folder / ".gitignore").is_symlink() and "/site" in (folder / ".gitignore").read_text()
    (folder / ".github").rename(tmp_path / "github-moved")
    (folder / ".github").symlink_to(outside)
    refused = cli("init", str(folder), "--force")
    assert refused.code == 1
    assert refused.err == (f"'{folder}/.github' is a link to {outside}, outside '{folder}'; "
                           "site-gen init writes nothing through it (remove the link, or init "
                           "another folder)\n")
    assert list((outside / "workflows").iterdir()) == []


@pytest.mark.parametrize("damage", ["cache file is a folder", "cache folder is a file"])
@pytest.mark.parametrize("command", ["build", "check"])
def test_a_cache_in_the_wrong_shape_is_built_without(project: Project, cli: CLI, damage: str,
                                                     command: str) -> None:
    cache = project.root / ".cache/site-gen"
    if damage == "cache file is a folder":
        (cache / "pages.sqlite").mkdir(parents=True)
    else:
        cache.parent.mkdir()
        cache.write_text("not a folder")
    done = cli(command, "--no-search") if command == "build" else cli(command)
    assert done.code == 0, done.err
    assert "Traceback" not in done.err
    if command == "build":
        assert "this build renders without it" in done.err
        assert cli("build", "--no-search", "--no-cache", "--site-dir", "clean").code == 0
        assert tree(project.site) == tree(project.root / "clean")


def test_a_cache_another_process_holds_is_not_waited_for(project: Project, cli: CLI) -> None:
    assert cli("build", "--no-search").code == 0
    edit(project, "Changed while the cache is held.")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys\n"
         "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
         "db.execute('BEGIN EXCLUSIVE')\nprint('held', flush=True)\nsys.stdin.read()\n",
         str(project.root / ".cache/site-gen/pages.sqlite")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        built = cli("build", "--no-search")
    finally:
        holder.communicate("")
    assert built.code == 0, built.err
    assert ("the page cache .cache/site-gen/pages.sqlite cannot be used (database is locked); "
            "this build renders without it") in built.err
    assert "Changed while the cache is held." in (
        project.site / "acme/widgets/12/cache-bug/index.html").read_text()


def test_a_repository_named_with_a_leading_dot_is_content(project: Project, cli: CLI) -> None:
    """acme/.github is a real and common name: its PR is built (published as ~github, which
    static hosts and the Pages upload keep), while hidden files and folders stay out."""
    pr = project.root / "content/acme/.github/5"
    pr.mkdir(parents=True)
    (pr / "pr.yml").write_text("repo: acme/.github\nnumber: 5\ntitle: Templates\nhead: 1234567\n"
                               "state: open\nfiles: [a.py]\ncode_unavailable: made up\n")
    (pr / "q.md").write_text("---\ntitle: T\nquestion: q\norder: 1\nstatus: open\n"
                             "updated: 2026-01-05\n---\n\nSee [the other](other.md#top).\n")
    (pr / "other.md").write_text("---\ntitle: O\nquestion: o\norder: 2\nstatus: open\n"
                                 "updated: 2026-01-05\n---\n\n## Top\n")
    for hidden in ("content/.obsidian/notes.md", "content/acme/.DS_Store",
                   "content/acme/.github/5/.draft.md", "content/acme/.git/5/pr.yml"):
        (project.root / hidden).parent.mkdir(parents=True, exist_ok=True)
        (project.root / hidden).write_text("not content")
    checked = cli("check", "--strict")
    assert checked.out == "No problems in 9 pages.\n", checked.err
    assert cli("build", "--no-search").code == 0
    page = (project.site / "acme/~github/5/q/index.html").read_text()
    assert 'href="../other/#top"' in page and "acme/.github #5" in page
    assert (project.site / "acme/~github/5/index.html").is_file()


def test_fetch_reports_content_errors_and_why_git_could_not_fetch(project: Project,
                                                                  cli: CLI) -> None:
    pr = project.root / "content/acme/widgets/12/pr.yml"
    pr.write_text(pr.read_text().replace("code_unavailable: a made-up pull request of the tests\n",
                                         "").replace("head: 1234567abcdef", "head: " + "a" * 40))
    project.write("mkdocs.yml", (project.root / "mkdocs.yml").read_text()
                  + "site_gen:\n  sources:\n    acme/widgets: file:///etc\n")
    project.write("content/acme/gears/3/pr.yml", "repo: [\n")
    fetched = cli("fetch")
    assert fetched.code == 1
    assert fetched.err.splitlines() == [
        "content/acme/gears/3/pr.yml:2: invalid YAML: did not find expected node content",
        f"content/acme/widgets/12/pr.yml:4: commit {'a' * 40} of acme/widgets could not be "
        "fetched from file:///etc: '/etc' does not appear to be a git repository",
        "Fetch failed: 2 error(s); 0 warning(s)."]


def test_snapshot_ids_are_one_per_address() -> None:
    from site_gen.pytest_plugin import snapshot_id

    addresses = ["a__b/c/1/index.html", "a/b__c/1/index.html", "a_/_b/1/index.html",
                 "a/__b/1/index.html", "a_-/b/1/index.html", "a/b/1/index.html"]
    assert len({snapshot_id(a) for a in addresses}) == len(addresses)
    assert snapshot_id("NVIDIA-NeMo/RL/4607/async-save-tag/index.html") == (
        "NVIDIA-NeMo__RL__4607__async-save-tag__index.html")  # no '_': named as before


def test_a_client_that_goes_away_is_no_traceback(tmp_path: Path, capfd: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import socket
    import struct
    import threading

    from site_gen import serve as preview

    (tmp_path / "big.txt").write_bytes(b"x" * 20_000_000)  # still being sent when the client goes
    handled = threading.Semaphore(0)
    original = preview._Server.handle_error

    def counted(self: preview._Server, request: object, address: object) -> None:
        original(self, request, address)
        handled.release()

    monkeypatch.setattr(preview._Server, "handle_error", counted)
    stop, ready = threading.Event(), threading.Event()
    said: list[str] = []
    thread = threading.Thread(target=preview.serve, args=(tmp_path, 0, lambda changed: [], []),
                              kwargs={"ready": lambda line: (said.append(line), ready.set()),
                                      "stop": stop}, daemon=True)
    thread.start()
    assert ready.wait(60)
    port = int(said[0].split(":")[2].split("/")[0])
    try:
        for _ in range(20):
            with socket.create_connection(("127.0.0.1", port)) as client:
                client.sendall(f"GET /big.txt HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
                client.recv(1)
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        for _ in range(20):  # each reset reached the server's error handling
            assert handled.acquire(timeout=60)
    finally:
        stop.set()
        thread.join(60)
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize(("char", "what"), [("\x01", "control character U+0001"),
                                            ("\x0b", "control character U+000B"),
                                            ("\x1b", "control character U+001B"),
                                            ("\ufffe", "noncharacter U+FFFE")])
def test_a_control_character_in_a_body_is_an_error_at_its_line(project: Project, cli: CLI,
                                                               char: str, what: str) -> None:
    page = project.root / PAGE
    page.write_text(page.read_text() + f"\nFine.\n\nA line with {char} in it.\n")
    built = cli("build", "--no-search")
    assert built.code == 1
    assert built.err.splitlines()[0] == (
        f"{PAGE}:17: contains the {what}, which pages and feeds cannot hold; remove it (write a "
        "visible character, or `code` that names it)")


def pinned_code(project: Project, tmp_path: Path, files: dict[str, bytes]) -> Path:
    """A repository of one commit holding `files`, which the project's PR pins and lists."""
    from .conftest import git

    code = tmp_path / "code"
    for name, data in files.items():
        (code / name).parent.mkdir(parents=True, exist_ok=True)
        (code / name).write_bytes(data)
    git(code, "init", "-q", "-b", "main")
    git(code, "add", "-A")
    git(code, "commit", "-q", "-m", "one")
    head = git(code, "rev-parse", "HEAD")
    project.write("content/acme/widgets/12/pr.yml",
                  f'repo: acme/widgets\nnumber: 12\ntitle: T\nhead: "{head}"\nstate: open\n'
                  f"files: [{', '.join(files)}]\n")
    return code


def test_a_binary_file_is_never_shown_and_code_brings_no_control_character(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    code = pinned_code(project, tmp_path, {"src/blob.bin": b"\x00\x01binary\x1b[31m\nmore\x00\n",
                                            "src/text.py": b"a = 1\nb = '\x1b[31m'\n"})
    page = project.root / PAGE
    page.write_text(page.read_text().replace(
        "The key is built in [[core.py:10]].",
        "See [[blob.bin]] and [[text.py:2]].\n\n```excerpt\n[[text.py:1-2]]\n```\n"))
    built = cli("build", "--no-search", "--checkout", str(code))
    assert built.code == 0, built.err
    html = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    assert "binary␛" not in html and "more" not in html  # no line of the binary file
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f]", html)
    assert "␛[31m" in html  # the text file's ESC, shown as its visible stand-in
    # (its lines are an error: test_authoring.test_a_line_of_a_binary_file_is_an_error)


def test_excerpts_are_bounded_per_block_and_per_page(project: Project, cli: CLI,
                                                     tmp_path: Path) -> None:
    long = "".join(f"x_{n} = {n}\n" for n in range(100_000)).encode()
    code = pinned_code(project, tmp_path, {"long.py": long})
    page = project.root / PAGE
    body = page.read_text().replace("The key is built in [[core.py:10]].\n", "")
    page.write_text(body + "```excerpt\n[[long.py:1-100000]]\n```\n\n" + "".join(
        f"```excerpt\n[[long.py:{n * 1000 + 1}-{n * 1000 + 500}]]\n```\n\n" for n in range(7)))
    built = cli("build", "--no-search", "--checkout", str(code))
    assert built.code == 1
    errors = [line for line in built.err.splitlines() if line.startswith(PAGE)]
    assert errors == [
        f"{PAGE}:14: the excerpt [[long.py:1-100000]] shows 100,000 lines; a block shows at most "
        "500 (cite fewer lines, or link the file)",
        f"{PAGE}:42: the excerpt [[long.py:6001-6500]] brings the code this page shows to 3,500 "
        "lines; a page shows at most 3,000 (split it, or link the files)"]


def test_the_lock_file_is_never_followed_through_a_link(project: Project, cli: CLI,
                                                        tmp_path: Path) -> None:
    target = tmp_path / "elsewhere" / "victim"
    target.parent.mkdir()
    (project.root / ".site.lock").symlink_to(target)
    built = cli("build", "--no-search")
    assert built.code == 1
    assert built.err == (f"cannot take the lock file {project.root}/.site.lock: it is a symbolic "
                         "link; remove it (site_gen makes it again)\n")
    assert not target.exists()


def test_a_cache_entry_naming_a_file_outside_its_page_is_not_used(project: Project,
                                                                  cli: CLI) -> None:
    import contextlib
    import sqlite3

    from site_gen.cache import _entry_digest

    assert cli("build", "--no-search").code == 0
    clean = tree(project.site)
    database = project.root / ".cache/site-gen/pages.sqlite"
    with contextlib.closing(sqlite3.connect(database)) as db:
        rows = db.execute("SELECT key, data FROM pages").fetchall()
        forged = 0
        for key, data in rows:
            value = json.loads(data)
            if "files" in value:  # a question page's entry: digest made again, as a forger can
                value["files"] = [["../../../escaped.txt", "forged"]]
                text = json.dumps(value, sort_keys=True, ensure_ascii=False)
                db.execute("UPDATE pages SET data = ?, digest = ? WHERE key = ?",
                           (text, _entry_digest(key, text), key))
                forged += 1
        db.commit()
    assert forged == 1
    built = cli("build", "--no-search", "--site-dir", "again", "-v")  # pages from the cache
    assert built.code == 0, built.err
    assert "0 kept from the last build, 1 to render" in built.err  # the forged entry: not used
    assert tree(project.root / "again") == clean
    assert not list(project.root.parent.rglob("escaped.txt"))


@pytest.mark.parametrize("changed", ["a page", "a file copied as it is"])
def test_a_link_left_at_a_temporary_name_is_never_written_through(project: Project, cli: CLI,
                                                                  changed: str) -> None:
    """A file of the copy not shown that changes is written as a temporary file renamed
    over it: a link found at that temporary name (left there by anyone) is replaced, never
    followed out of the site, and the build goes on."""
    from site_gen.output import TMP

    victim = project.root.parent / f"victim-tmp-{changed.replace(' ', '-')}.txt"
    victim.write_text("mine")
    asset = project.root / "content/acme/widgets/12/notes.txt"
    asset.write_text("first\n")
    standby = two_copies(project, cli)
    name = ("acme/widgets/12/cache-bug/index.html" if changed == "a page"
            else "acme/widgets/12/notes.txt")
    assert (standby / name).is_file()
    os.symlink(victim, standby / (name + TMP))
    if changed == "a page":
        edit(project, "More.")
    else:
        asset.write_text("second\n")
    built = cli("build", "--no-search")
    assert victim.read_text() == "mine"
    assert built.code == 0, built.err
    shown = (project.site / name).read_text()
    assert ("More." in shown) if changed == "a page" else shown == "second\n"
    assert not list(standby.rglob(f"*{TMP}"))
