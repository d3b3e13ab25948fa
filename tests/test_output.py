"""The writer: only changed files are written, the shown site is switched atomically, and a
journal lets the next build finish what a killed one left."""

from __future__ import annotations

import itertools
import json
import os
import threading
from pathlib import Path

import pytest

from site_gen import output
from site_gen.output import read_marker, write_site

from .conftest import tree


def pages(n: int, changed: dict[int, str] | None = None) -> dict[str, str | Path]:
    texts: dict[str, str | Path] = {f"p{i}/index.html": f"<p>page {i}</p>\n" for i in range(n)}
    for i, text in (changed or {}).items():
        texts[f"p{i}/index.html"] = text
    return texts


def inodes(folder: Path) -> dict[str, int]:
    return {p.relative_to(folder).as_posix(): p.stat().st_ino
            for p in folder.rglob("*") if p.is_file()}


def test_the_site_is_a_link_to_one_of_two_copies_that_share_unchanged_files(tmp_path: Path) -> None:
    site = tmp_path / "site"
    assert write_site(site, pages(20), search=False)
    assert os.readlink(site) == ".site.a"
    assert write_site(site, pages(20, {3: "<p>edited</p>\n"}), search=False)
    assert os.readlink(site) == ".site.b"
    a, b = inodes(tmp_path / ".site.a"), inodes(tmp_path / ".site.b")
    # only the edited file was written; every other file is one file in both copies
    assert sorted(n for n in a if a[n] != b[n]) == ["p3/index.html"]
    assert tree(site) == {n: str(t).encode() for n, t in pages(20, {3: "<p>edited</p>\n"}).items()}
    assert not write_site(site, pages(20, {3: "<p>edited</p>\n"}), search=False)  # nothing to do


def test_the_standby_copy_catches_up_on_two_builds_of_changes(tmp_path: Path) -> None:
    site = tmp_path / "site"
    write_site(site, pages(10), search=False)
    write_site(site, pages(10, {1: "one"}), search=False)
    removed = pages(10, {1: "one", 2: "two"})
    del removed["p5/index.html"]
    removed["p5/extra/index.html"] = "moved"
    written: list[str] = []
    real = output.apply_changes

    def spy(folder: Path, writes: dict[str, object], deletes: list[str], **how: bool) -> None:
        written.extend(writes)
        written.extend(f"-{d}" for d in deletes)
        real(folder, writes, deletes, **how)  # type: ignore[arg-type]

    output.apply_changes = spy  # type: ignore[assignment]
    try:
        write_site(site, removed, search=False)
    finally:
        output.apply_changes = real
    # .site.a was one build behind: it gets p1 (the last build's change), p2, and the move
    assert sorted(written) == ["-p5/index.html", "p1/index.html", "p2/index.html",
                               "p5/extra/index.html"]
    assert tree(site) == {n: str(t).encode() for n, t in removed.items()}


class Killed(BaseException):
    """Stands for SIGKILL: nothing after it runs, no handler sees it."""


# a few files; many, on the build's thread; many, the file system slow: WRITERS threads
# after the first batch, the writing killed on one of them
@pytest.mark.parametrize(("n", "slow"), [(30, False), (3 * output.BATCH, False),
                                         (3 * output.BATCH, True)])
def test_a_build_killed_while_writing_is_finished_by_the_next(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, n: int, slow: bool) -> None:
    site = tmp_path / "site"
    write_site(site, pages(n), search=False)
    old, shown = tree(site), read_marker(site)
    new = pages(n, {i: f"<p>new {i}</p>\n" for i in range(0, n, 3)})
    opened = itertools.count(1)  # each number given once, whichever thread asks
    dies = 4  # the fourth file written; when slow, the fourth after the first batch
    if slow:
        monkeypatch.setattr(output, "SLOW_FILE", 0.0)
        dies += sum(new[name] != pages(n)[name] for name in sorted(new)[:output.BATCH])

    written = output._write_new

    def dying_write(path: Path, content: str) -> None:
        if next(opened) == dies:  # a file of the new copy half written: killed
            written(path, "<p>ne")
            raise Killed
        written(path, content)

    monkeypatch.setattr(output, "_write_new", dying_write)
    with pytest.raises(Killed):
        write_site(site, new, search=False)
    monkeypatch.setattr(output, "_write_new", written)
    assert (tree(site), read_marker(site)) == (old, shown)  # the shown site is untouched
    journal = json.loads((tmp_path / ".site.site-gen").read_text())["copies"][".site.b"]
    assert len(journal["pending"]) == n  # a fresh copy: every name was about to be written
    assert write_site(site, new, search=False)
    assert tree(site) == {n: str(t).encode() for n, t in new.items()}
    assert not list(tmp_path.rglob(f"*{output.TMP}"))  # no temporary file left


def test_a_new_copy_makes_each_file_at_its_name_and_replaces_changed_ones_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Writing a copy nobody is shown, a file that is not there yet is made at its own name
    (no temporary name to rename: one directory entry, not two), and a file that is there
    is replaced by a rename, never written over (it may be a hard link to the shown copy's
    file)."""
    site = tmp_path / "site"
    renamed: list[str] = []
    real = os.replace
    monkeypatch.setattr(output.os, "replace", lambda a, b: renamed.append(
        Path(b).relative_to(tmp_path).as_posix()) or real(a, b))
    write_site(site, pages(5), search=False)  # .site.a, from nothing
    assert [n for n in renamed if "/p" in n] == []
    write_site(site, pages(5, {1: "one"}), search=False)  # .site.b, from nothing: p1 made,
    assert [n for n in renamed if "/p" in n] == []         # the others linked to .site.a's
    shown = inodes(tmp_path / ".site.b")
    write_site(site, pages(5, {1: "one", 2: "two"}), search=False)  # .site.a, where p1 and p2
    assert sorted(n for n in renamed if "/p" in n) == [".site.a/p1/index.html",  # are there
                                                       ".site.a/p2/index.html"]
    assert inodes(tmp_path / ".site.b") == shown  # the copy shown then was not written
    assert tree(site) == {n: str(t).encode() for n, t in pages(5, {1: "one", 2: "two"}).items()}


def test_a_folder_made_by_an_older_site_gen_becomes_the_link(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "old").mkdir(parents=True)
    (site / "old/index.html").write_text("old")
    (site / output.LEGACY_MARKER).write_text("{}")
    write_site(site, pages(3), search=False)
    assert site.is_symlink() and tree(site) == {n: str(t).encode() for n, t in pages(3).items()}
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.a", ".site.site-gen", "site"]


def test_a_link_removed_by_hand_is_put_back(tmp_path: Path) -> None:
    site = tmp_path / "site"
    write_site(site, pages(3), search=False)
    site.unlink()  # rm -rf site
    assert not write_site(site, pages(3), search=False)  # the copy it showed is whole
    assert tree(site) == {n: str(t).encode() for n, t in pages(3).items()}


@pytest.mark.parametrize("slow", [False, True])
def test_many_files_go_to_threads_only_when_the_file_system_is_slow(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slow: bool) -> None:
    """A copy's many files are written on the build's own thread while the file system
    keeps up (four threads taking turns at Python's lock took twice as long); once a batch
    of them takes more than SLOW_FILE a file, WRITERS threads write the rest."""
    monkeypatch.setattr(output, "SLOW_FILE", 0.0 if slow else float("inf"))
    by: dict[str, str] = {}
    written = output._write_new

    def write(path: Path, content: str) -> None:
        by[path.parent.name] = threading.current_thread().name
        written(path, content)

    monkeypatch.setattr(output, "_write_new", write)
    n = 3 * output.BATCH
    write_site(tmp_path / "site", pages(n), search=False)
    assert tree(tmp_path / "site") == {n: str(t).encode() for n, t in pages(n).items()}
    here = threading.current_thread().name
    on_this_thread = sorted(name for name, thread in by.items() if thread == here)
    assert len(by) == n  # the files in the order written: their names'
    assert on_this_thread == sorted(by)[:output.BATCH if slow else n]
