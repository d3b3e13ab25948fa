"""Truth by default: pages are checked against the code their pull request pins, fetched
from local `file://` sources; each wrong page is an error at the line that is wrong."""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from markdown_it.utils import read_fixture_file

from site_gen.fetch import _expanded
from site_gen.git_reader import SourceReader

from .blockutil import PR, render
from .coderepo import make_code_repo
from .conftest import Project, Run, git
from .conftest import commit as commit_files

CLI = Callable[..., Run]
FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def code(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    return make_code_repo(tmp_path_factory.mktemp("code") / "widgets")


@pytest.fixture
def reader(code: tuple[Path, list[str]]) -> Iterator[SourceReader]:
    source = SourceReader(code[0])
    yield source
    source.close()


@pytest.mark.parametrize(("line", "title", "text", "expected"),
                         read_fixture_file(FIXTURES / "verified_errors.md"))
def test_a_wrong_page_is_an_error_at_its_line(line: int, title: str, text: str, expected: str,
                                               code: tuple[Path, list[str]],
                                               reader: SourceReader) -> None:
    head = code[1][1]
    pr = dataclasses.replace(PR, head=head[:7], files=())
    _, errors, _ = render(text, reader, pr)
    assert errors == expected.replace("{head7}", head[:7]).splitlines()


def test_a_hunk_without_positions_is_placed_and_numbered(code: tuple[Path, list[str]],
                                                         reader: SourceReader) -> None:
    pr = dataclasses.replace(PR, head=code[1][1][:7], files=())
    html, errors, _ = render("```proposal\nfile: checkpoint.py L6 · save\n"
                             "-    tag = wait_fn is not None and step > 0\n"
                             "+    tag = wait_fn is not None\n"
                             "     if wait_fn is not None:\n```\n", reader, pr)
    assert errors == []
    # the phone's one number column shows the head's numbers: a removed line has none
    assert ('<td class="diff-ln" data-ln="6"></td>\n<td class="diff-ln"></td>' in html
            and '<td class="diff-ln"></td>\n<td class="diff-ln" data-ln="6" data-either="6"></td>'
            in html)
    assert "Applies at " in html


PR_YML = "repo: acme/widgets\nnumber: 12\ntitle: T\nhead: {head}\nbase: {base}\nstate: open\n"
PAGE = ("---\n{title: T, order: 1, updated: 2026-01-05,\n question: q,\n status: open}\n---\n"
        'The tag is set at [[src/app/checkpoint.py:6 "wait_fn is not None"]].\n')


def pr_page(project: Project, code: tuple[Path, list[str]], *, repo: str = "acme/widgets",
            body: str = PAGE) -> None:
    folder = f"content/{repo}/12"
    project.write(f"{folder}/pr.yml", PR_YML.replace("acme/widgets", repo)
                  .format(head=code[1][1][:7], base=code[1][0]))
    project.write(f"{folder}/cache-bug.md", body)


def sources(project: Project, **repos: Path) -> None:
    lines = "".join(f"    {name.replace('__', '/')}: {path.as_uri()}\n" for name, path in repos.items())
    project.write("mkdocs.yml", (project.root / "mkdocs.yml").read_text()
                  + f"site_gen:\n  sources:\n{lines}")


def test_fetch_brings_only_the_pinned_commits(project: Project, cli: CLI,
                                              code: tuple[Path, list[str]]) -> None:
    repo, commits = code
    # what reads as a reference in code (a code span, an ordinary fenced or indented
    # block) is none: not fetched, as the build does not read it
    # nor is an '@' a reference's quote or label holds (was: "could not be fetched")
    pr_page(project, code, body=PAGE + f"And before: [[src/app/checkpoint.py:6@{commits[0]}]]; "
            f"pin one as `[[checkpoint.py:6@{commits[2][:7]}]]` does.\n\n```python\n"
            f"x = a[[checkpoint.py:6@{commits[2][:7]}]]\n```\n\n"
            f"    y = a[[checkpoint.py:6@{commits[2][:7]}]]\n\n"
            f"Mail [[checkpoint.py:6|a@{commits[2][:7]}]] or [[checkpoint.py:6 \"step > 0\"|x@deadbeef]].\n")
    project.write("content/acme/widgets/12/pr.yml", PR_YML.format(head=commits[1], base=commits[0]))
    sources(project, acme__widgets=repo)
    fetched = cli("fetch")
    assert (fetched.code, fetched.out) == (0, f"acme/widgets: fetched 2 commit(s) from "
                                              f"{repo.as_uri()}; 0 already here, 0 not found\n")
    store = project.root / ".cache/site-gen/repos/acme/widgets.git"
    for commit in commits[:2]:
        assert git(store, "cat-file", "-t", commit) == "commit"
    with pytest.raises(subprocess.CalledProcessError):
        git(store, "cat-file", "-t", commits[2])  # a commit no page pins is not fetched
    again = cli("fetch")
    assert again.out == (f"acme/widgets: fetched 0 commit(s) from {repo.as_uri()}; 2 already "
                         "here, 0 not found\n")
    built = cli("build", "--strict", "--no-search")
    assert built.code == 0, built.err
    html = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    assert (f'<p class="code-check checked"><span aria-hidden="true">✓</span> Checked against '
            f'the code at <a class="ref" href="https://github.com/acme/widgets/commit/'
            f'{commits[1]}" title="commit {commits[1]}"><code>{commits[1][:7]}</code></a>') in html


@pytest.mark.parametrize("first, rest", [("", ""), ("- ", "  "), ("> ", "> ")],
                         ids=["top level", "in a list", "in a block quote"])
def test_fetch_brings_the_commit_a_claim_is_counted_at(project: Project, cli: CLI,
                                                       code: tuple[Path, list[str]],
                                                       first: str, rest: str) -> None:
    """`at: SHA` pins a commit as `[[file:line@SHA]]` does: fetched, then counted there,
    wherever the build reads the claim."""
    repo, commits = code
    later = commits[2][:10]  # the commit no reference pins, abbreviated as an author would
    claim = ["says: a comment came later", "count: 1", "text: # later", f"at: {later}", "```"]
    pr_page(project, code, body=PAGE + f"\n{first}```claim\n"
                                       + "".join(f"{rest}{line}\n" for line in claim))
    sources(project, acme__widgets=repo)
    fetched = cli("fetch")
    assert (fetched.code, fetched.err) == (0, ""), fetched.err
    assert "fetched 3 commit(s)" in fetched.out
    built = cli("build", "--strict", "--no-search")
    assert built.code == 0, built.err
    assert "1 counted: <code>" in (project.site / "acme/widgets/12/cache-bug/index.html").read_text()


def test_an_abbreviated_head_is_fetched_through_the_pull_ref(project: Project, cli: CLI,
                                                              code: tuple[Path, list[str]],
                                                              tmp_path: Path) -> None:
    upstream = tmp_path / "with-pull-ref"
    shutil.copytree(code[0], upstream)
    git(upstream, "update-ref", "refs/pull/12/head", code[1][1])
    pr_page(project, code)
    sources(project, acme__widgets=upstream)
    assert cli("fetch").code == 0
    assert cli("build", "--strict", "--no-search").code == 0


def test_an_abbreviated_head_is_looked_up_in_a_local_source(project: Project, cli: CLI,
                                                            code: tuple[Path, list[str]]) -> None:
    """A clone on this machine has no pull refs; it tells what a short SHA names itself."""
    pr_page(project, code)  # head written as 7 digits
    sources(project, acme__widgets=code[0])
    fetched = cli("fetch")
    assert (fetched.code, fetched.err) == (0, ""), fetched.err
    assert "fetched 2 commit(s)" in fetched.out  # the head and the base
    assert cli("build", "--strict", "--no-search").code == 0
    project.write("content/acme/widgets/12/pr.yml", PR_YML.format(head="abcdef0", base=code[1][0]))
    missing = cli("fetch")
    assert missing.code == 1
    assert missing.err.splitlines()[0] == (
        f"content/acme/widgets/12/pr.yml:4: commit abcdef0 of acme/widgets could not be fetched "
        f"from {code[0].as_uri()}: no commit there has that SHA")


def test_a_short_sha_from_a_host_without_the_pull_ref_says_to_write_it_whole(
        project: Project, cli: CLI, code: tuple[Path, list[str]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where only the host can tell a short SHA (a remote source), its pull ref is the way
    in: when the host has none, the error says why and what to write instead."""
    monkeypatch.setattr("site_gen.fetch._local", lambda source: None)  # as a remote source
    pr_page(project, code)
    sources(project, acme__widgets=code[0])
    missing = cli("fetch")
    assert missing.code == 1
    assert missing.err.splitlines()[0] == (
        f"content/acme/widgets/12/pr.yml:4: commit {code[1][1][:7]} of acme/widgets could not be "
        f"fetched from {code[0].as_uri()}: an abbreviated SHA cannot be fetched by itself, and the "
        "PR's ref could not be: couldn't find remote ref refs/pull/12/head; write the full "
        "40-digit SHA")


def test_a_short_sha_two_commits_share_is_named_with_both(tmp_path: Path) -> None:
    """Enough commits that two share their first four digits: the lookup names both."""
    repo = tmp_path / "many"
    git(tmp_path, "init", "-q", str(repo))
    stream = "".join(f"commit refs/heads/main\ncommitter A <a@b> {1700000000 + n} +0000\n"
                     f"data {len(str(n))}\n{n}\n" for n in range(600))
    subprocess.run(["git", "-C", str(repo), "fast-import", "--quiet"], input=stream, text=True,
                   check=True)
    commits = git(repo, "rev-list", "main").split()
    prefix = next(c[:4] for c in commits if sum(o.startswith(c[:4]) for o in commits) > 1)
    shared = sorted(c for c in commits if c.startswith(prefix))
    assert _expanded(repo, prefix) == (
        f"it names {len(shared)} commits there ({', '.join(c[:12] for c in shared)}); "
        "write more of the SHA")
    assert _expanded(repo, commits[0][:7]) == commits[0]


def test_fetch_names_each_commit_it_cannot_get(project: Project, cli: CLI,
                                               code: tuple[Path, list[str]], tmp_path: Path) -> None:
    project.write("content/acme/widgets/12/pr.yml", PR_YML.format(head="f" * 40, base=code[1][0]))
    project.write("content/acme/widgets/12/cache-bug.md", PAGE)
    pr_page(project, code, repo="acme/gone")
    project.write("content/acme/gone/12/pr.yml", PR_YML.replace("acme/widgets", "acme/gone")
                  .format(head=code[1][1], base=code[1][0]))
    sources(project, acme__widgets=code[0], acme__gone=tmp_path / "nowhere")
    result = cli("fetch")
    assert result.code == 1
    lines = result.err.splitlines()
    assert lines[0].startswith(f"content/acme/gone/12/pr.yml:4: commit {code[1][1]} of acme/gone "
                               f"could not be fetched from {(tmp_path / 'nowhere').as_uri()}: ")
    assert lines[1].startswith(f"content/acme/gone/12/pr.yml:5: commit {code[1][0]} of acme/gone ")
    assert lines[2].startswith(f"content/acme/widgets/12/pr.yml:4: commit {'f' * 40} of "
                               f"acme/widgets could not be fetched from {code[0].as_uri()}: ")
    assert lines[3:] == ["Fetch failed: 3 error(s); 0 warning(s)."]
    assert "acme/widgets: fetched 1 commit(s)" in result.out


def test_a_commit_a_local_clone_has_but_cannot_send_says_to_read_the_clone(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """A clone on this machine that lacks an object the pinned commit needs (a partial
    clone, a copy that left its largest files out) cannot send it: git's reason, then that
    the clone has the commit and how to read it as it is."""
    repo, commits = make_code_repo(tmp_path / "partial")
    blob = git(repo, "rev-parse", f"{commits[1]}:docs/spans.md")
    (repo / ".git/objects" / blob[:2] / blob[2:]).unlink()  # a file no page cites is gone
    project.write("content/acme/widgets/12/pr.yml", PR_YML.format(head=commits[1], base=commits[0]))
    project.write("content/acme/widgets/12/cache-bug.md", PAGE)
    sources(project, acme__widgets=repo)
    fetched = cli("fetch")
    assert fetched.code == 1
    first = fetched.err.splitlines()[0]
    assert first.startswith(f"content/acme/widgets/12/pr.yml:4: commit {commits[1]} of "
                            f"acme/widgets could not be fetched from {repo.as_uri()}: ")
    assert first.endswith("; the clone there has the commit, but not every object it needs (a "
                          f"partial or damaged clone): read it as it is with '--checkout "
                          f"acme/widgets={repo}'")
    built = cli("build", "--strict", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0, built.err  # what the page cites is read from the clone


def test_two_repositories_in_one_site(project: Project, cli: CLI, code: tuple[Path, list[str]],
                                      tmp_path: Path) -> None:
    other, other_commits = make_code_repo(tmp_path / "gears")
    pr_page(project, code)
    project.write("content/acme/widgets/12/pr.yml", PR_YML.format(head=code[1][1], base=code[1][0]))
    project.write("content/acme/gears/12/pr.yml", PR_YML.replace("acme/widgets", "acme/gears")
                  .format(head=other_commits[1], base=other_commits[0]))
    project.write("content/acme/gears/12/q.md", PAGE.replace("is not None", "is not None and"))
    sources(project, acme__widgets=code[0], acme__gears=other)
    assert cli("fetch").code == 0
    both = cli("build", "--no-search")
    assert both.code == 0, both.err
    for key in ("acme/widgets/12/cache-bug", "acme/gears/12/q"):
        assert "Checked against the code at" in (project.site / key / "index.html").read_text()
    by_repo = cli("build", "--no-search", "--site-dir", "by-repo", "--checkout",
                  f"acme/widgets={code[0]}", "--checkout", f"acme/gears={other}")
    assert by_repo.code == 0, by_repo.err


def test_a_page_that_is_not_checked_says_so_and_strict_fails(project: Project, cli: CLI,
                                                             code: tuple[Path, list[str]]) -> None:
    pr_page(project, code)
    result = cli("build", "--no-search")
    message = ("content/acme/widgets/12/pr.yml:4: the pages of acme/widgets#12 are not checked "
               "against the code: the code of acme/widgets was not available when this page was "
               "built; run 'site-gen fetch' (or pass --checkout), or, to publish them unchecked "
               "on purpose, say why in pr.yml (code_unavailable: ...)")
    assert (result.code, result.err) == (0, f"warning: {message}\n")
    html = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    assert ('<p class="code-check unchecked"><span aria-hidden="true">?</span> Not checked against '
            'the code: the code of acme/widgets was not available when this page was built.</p>'
            in html)
    assert cli("build", "--no-search", "--strict").code == 1
    project.write("content/acme/widgets/12/pr.yml", (project.root / "content/acme/widgets/12/pr.yml")
                  .read_text() + "code_unavailable: the fork was deleted\n")
    declared = cli("build", "--no-search", "--strict")
    assert (declared.code, declared.err) == (0, "")
    assert ("Not checked against the code: the fork was deleted.</p>"
            in (project.site / "acme/widgets/12/cache-bug/index.html").read_text())


def test_a_bad_head_is_one_error_at_its_line(project: Project, cli: CLI,
                                             code: tuple[Path, list[str]]) -> None:
    project.write("content/acme/widgets/12/pr.yml", PR_YML.format(head="f" * 12, base=code[1][0]))
    project.write("content/acme/widgets/12/cache-bug.md", PAGE + PAGE.split("---\n")[-1] * 3)
    result = cli("build", "--no-search", "--checkout", str(code[0]))
    assert result.err.splitlines() == [
        "warning: content/acme/widgets/12/pr.yml:4: the pages of acme/widgets#12 are not checked "
        "against the code: commit ffffffffffff (head) of acme/widgets was not available when this "
        "page was built; run 'site-gen fetch' (or pass --checkout), or, to publish them unchecked "
        "on purpose, say why in pr.yml (code_unavailable: ...)"]


def test_an_ambiguous_commit_names_its_candidates(code: tuple[Path, list[str]],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    reader = SourceReader(code[0])
    monkeypatch.setattr(SourceReader, "candidates", lambda self, prefix: ["a" * 40, "a" * 39 + "b"])
    try:
        assert reader.ambiguity("aaaaaaa") == "names 2 commits: aaaaaaaaaaaa, aaaaaaaaaaaa"
        full, problem = reader.verify("aaaaaaa", "x.py", 1, 1, None, "'[[x.py:1@aaaaaaa]]'")
        assert (full, problem) == (None, "commit aaaaaaa of '[[x.py:1@aaaaaaa]]' is ambiguous: it "
                                         "names 2 commits: aaaaaaaaaaaa, aaaaaaaaaaaa; write more "
                                         "digits")
    finally:
        reader.close()


def test_a_checkout_is_judged_by_what_it_holds(project: Project, cli: CLI,
                                               code: tuple[Path, list[str]], tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    shutil.copytree(code[0], clone)
    pr_page(project, code)
    assert cli("build", "--no-search", "--checkout", str(clone)).code == 0
    again = cli("build", "--no-search", "--checkout", str(clone))
    assert again.out.startswith(f"{project.site} is up to date")
    shutil.rmtree(clone)
    clone.mkdir()
    git(clone, "init", "-q")  # the same path, emptied
    emptied = cli("build", "--no-search", "--checkout", str(clone))
    assert not emptied.out.startswith(f"{project.site} is up to date")
    page = project.site / "acme/widgets/12/cache-bug/index.html"
    assert "Not checked against the code" in page.read_text()


def test_a_proposal_is_also_a_patch_git_applies(project: Project, cli: CLI,
                                                code: tuple[Path, list[str]], tmp_path: Path) -> None:
    repo, commits = code
    proposal = ("```proposal\nfile: checkpoint.py L6 · save\n@@ -6,2 +6,2 @@\n"
                "-    tag = wait_fn is not None and step > 0\n+    tag = wait_fn is not None\n"
                "     if wait_fn is not None:\n\nfile: checkpoint.py L13 · load\n"
                " def load(step):\n-    pass\n+    return None\n```\n")  # placed by site_gen
    project.write("content/acme/widgets/12/pr.yml", PR_YML.format(head=commits[1], base=commits[0]))
    project.write("content/acme/widgets/12/cache-bug.md", PAGE + proposal)
    built = cli("build", "--strict", "--no-search", "--checkout", str(repo))
    assert built.code == 0, built.err
    page = project.site / "acme/widgets/12/cache-bug"
    assert '<a href="proposal-1.patch" download>Download the patch</a>' in (page / "index.html").read_text()
    patch = (page / "proposal-1.patch").read_text()
    assert patch.startswith("diff --git a/src/app/checkpoint.py b/src/app/checkpoint.py\n"
                            "--- a/src/app/checkpoint.py\n+++ b/src/app/checkpoint.py\n@@ -6,2 +6,2 @@\n")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    git(clone, "checkout", "-q", commits[1])
    git(clone, "apply", "--check", str(page / "proposal-1.patch"))  # raises if git refuses it
    git(clone, "apply", str(page / "proposal-1.patch"))
    text = (clone / "src/app/checkpoint.py").read_text()
    assert "    tag = wait_fn is not None\n" in text and "def load(step):\n    return None\n" in text


@pytest.mark.parametrize(("original", "hunk", "expected"), [
    (b"def tail():\n    return 0", " def tail():\n-    return 0\n+    return 1\n",
     b"def tail():\n    return 1"),  # no line end after the last line: kept so
    (b"def tail():\n    return 0", " def tail():\n-    return 0\n\\ No newline at end of file\n"
                                   "+    return 1\n\\ No newline at end of file\n",
     b"def tail():\n    return 1"),  # as `git diff` writes it, pasted
    (b"a = 1\r\nb = 2\r\nc = 3\r\n", " a = 1\n-b = 2\n+b = 3\n c = 3\n",
     b"a = 1\r\nb = 3\r\nc = 3\r\n"),  # CRLF line ends
])
def test_the_patch_applies_whatever_the_file_s_line_ends(
        project: Project, cli: CLI, tmp_path: Path, original: bytes, hunk: str,
        expected: bytes) -> None:
    """Before, a file without a last line end or with CRLF line ends got a patch that
    `git apply` refused, though the page said it applied; and git's marker line was an
    error."""
    repo = tmp_path / "code"
    head = commit_files(repo, {"src/app/tail.py": original})
    project.write("content/acme/widgets/12/pr.yml", PR_YML.format(head=head, base=head))
    project.write("content/acme/widgets/12/cache-bug.md",
                  PAGE.split("The tag")[0] + f"```proposal\nfile: tail.py\n{hunk}```\n")
    built = cli("build", "--strict", "--no-search", "--checkout", str(repo))
    assert built.code == 0, built.err
    patch = project.site / "acme/widgets/12/cache-bug/proposal-1.patch"
    assert "Applies at" in (patch.parent / "index.html").read_text()
    git(repo, "apply", str(patch))  # raises if git refuses it
    assert (repo / "src/app/tail.py").read_bytes() == expected


def built_pasting(project: Project, cli: CLI, repo: Path, old: str | None,
                  body: str, name: str = "old.py") -> tuple[str, Run]:
    """A page with the proposal `body` pinned to a commit of `repo` holding src/app/`name`
    (`old`, or no such file) beside another file, strictly built against it."""
    head = commit_files(repo, {"src/app/tail.py": "x = 1\n",
                               **({f"src/app/{name}": old} if old else {})})
    project.write("content/acme/widgets/12/pr.yml", PR_YML.format(head=head, base=head)
                  + f"files:\n  - src/app/{name}\n")
    project.write("content/acme/widgets/12/cache-bug.md", PAGE.split("The tag")[0] + body)
    return head, cli("build", "--strict", "--no-search", "--checkout", str(repo))


RENAMED = ("```proposal\ndiff --git a/src/app/old.py b/src/app/{to}\nsimilarity index 60%\n"
           "rename from src/app/old.py\nrename to src/app/{to}\nindex 1111111..2222222 100644\n"
           "--- a/src/app/old.py\n+++ b/src/app/{to}\n@@ -1,2 +1,2 @@\n def old():\n"
           "-    return 0\n+    return 1\n```\n")


@pytest.mark.parametrize("to", ["new.py", "tail.py"])
def test_a_proposal_pasted_from_git_diff_may_rename_a_file_it_changes(
        project: Project, cli: CLI, tmp_path: Path, to: str) -> None:
    """`git diff` of a file renamed and changed: its lines were checked against the old
    name, but its patch changed the file in place. It renames it, as the diff does, and
    says so on the page; a name the commit has already is an error."""
    repo = tmp_path / "code"
    head, built = built_pasting(project, cli, repo, "def old():\n    return 0\n", RENAMED.format(to=to))
    if to == "tail.py":
        assert built.err.startswith(
            "content/acme/widgets/12/cache-bug.md:7: 'diff --git a/src/app/old.py b/src/app/tail.py' "
            f"renames src/app/old.py to src/app/tail.py, which commit {head[:7]} has already"), \
            built.err
        return
    assert "renamed to <code>src/app/new.py</code>" in applied(project, repo, built)
    assert not (repo / "src/app/old.py").exists()
    assert (repo / "src/app/new.py").read_text() == "def old():\n    return 1\n"


def applied(project: Project, repo: Path, built: Run) -> str:
    """The page of a build that passed, its patch applied to `repo` by `git apply` (which
    raises if git refuses it)."""
    assert built.code == 0, built.err
    page = project.site / "acme/widgets/12/cache-bug"
    git(repo, "apply", str(page / "proposal-1.patch"))
    return (page / "index.html").read_text()


@pytest.mark.parametrize("now", ["def old():\n    return 1\n", "def old():\n    return 0\n"])
def test_a_pasted_rename_the_pr_made_is_one_error(
        project: Project, cli: CLI, tmp_path: Path, now: str) -> None:
    """At a commit where the PR made the rename a pasted diff proposes (it has the new name,
    not the old): 'does not exist', naming the new name as the nearest path; now one error
    that says the rename is made, and the change too when the renamed file holds its lines."""
    head, built = built_pasting(project, cli, tmp_path / "code", now, RENAMED.format(to="new.py"),
                                "new.py")
    header = "'diff --git a/src/app/old.py b/src/app/new.py'"
    assert built.err.startswith("content/acme/widgets/12/cache-bug.md:7: " + (
        f"the proposed change is made at {head[:7]}: it has src/app/new.py, to which {header} "
        "renames src/app/old.py, with the lines it proposes (L1-L2), and no src/app/old.py; "
        "the page proposes what the PR now does" if now.endswith("1\n") else
        f"{header} renames src/app/old.py to src/app/new.py, which commit {head[:7]} has made: "
        "it has src/app/new.py and no src/app/old.py; expected the hunk as a change of "
        "src/app/new.py")), built.err
    assert "1 error(s)" in built.err


REMOVED = ("```proposal\ndiff --git a/src/app/old.py b/src/app/old.py\ndeleted file mode 100644\n"
           "index 1111111..0000000\n--- a/src/app/old.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n"
           "-def old():\n-    return 0\n```\n")


@pytest.mark.parametrize("old", ["def old():\n    return 0\n", "def old():\n    return 0\n# more\n",
                                 None])
def test_a_proposal_pasted_from_git_diff_may_remove_a_file(
        project: Project, cli: CLI, tmp_path: Path, old: str | None) -> None:
    """`git diff` of a file removed (`deleted file mode`, `+++ /dev/null`): its patch
    emptied the file and kept it (`+++ b/...`, no `deleted file mode`). It removes it, as
    `git apply` does with the diff itself; every line must be taken out; and at a commit
    without the file (the PR removed it), the change is made: one error, not 'unknown file'."""
    repo = tmp_path / "code"
    head, built = built_pasting(project, cli, repo, old, REMOVED)
    if old is None:
        assert built.err.startswith(f"content/acme/widgets/12/cache-bug.md:7: the proposed change "
                                    f"is made at {head[:7]}: it has no src/app/old.py, which 'diff "
                                    "--git a/src/app/old.py b/src/app/old.py' removes"), built.err
        return
    if old.endswith("# more\n"):
        assert built.err.startswith(
            "content/acme/widgets/12/cache-bug.md:7: 'diff --git a/src/app/old.py b/src/app/old.py' "
            f"removes src/app/old.py, which has 3 lines at {head[:7]}, but takes out 2 of them"), \
            built.err
        return
    assert '<span class="hunk-new">file removed</span>' in applied(project, repo, built)
    assert not (repo / "src/app/old.py").exists()


@pytest.mark.parametrize("path", ["tests/test_tail.py", "src/app/tail.py", "tests/test_made.py"])
def test_a_proposal_may_make_a_new_file(project: Project, cli: CLI, tmp_path: Path,
                                       path: str) -> None:
    """A hunk `@@ -0,0 +1,N @@` makes a file, named by its whole path: before, it was an
    unknown file. The commit must not have it already; where it has it as the hunk makes
    it (the PR made the proposal: real history of gin and hiredis), the error says so."""
    repo = tmp_path / "code"
    head = commit_files(repo, {"src/app/tail.py": "def tail():\n    return 0\n",
                               "tests/test_made.py": "# the PR's own words\ndef test_tail():\n"
                                                     "    assert tail() == 0\n"})
    project.write("content/acme/widgets/12/pr.yml", PR_YML.format(head=head, base=head))
    project.write("content/acme/widgets/12/cache-bug.md", PAGE.split("The tag")[0] +
                  f"```proposal\nfile: {path}\n@@ -0,0 +1,2 @@\n+def test_tail():\n"
                  "+    assert tail() == 0\n```\n")
    built = cli("build", "--strict", "--no-search", "--checkout", str(repo))
    if path == "tests/test_made.py":
        assert built.err.startswith(f"content/acme/widgets/12/cache-bug.md:7: 'file: {path}' "
                                    f"makes a new file, and commit {head[:7]} has it, with the "
                                    "lines it proposes (L2-L3): the proposed change is made; "
                                    "the page proposes what the PR now does"), built.err
        return
    if path == "src/app/tail.py":
        assert built.code == 1
        assert built.err.startswith(f"content/acme/widgets/12/cache-bug.md:7: 'file: {path}' "
                                    f"makes a new file (@@ -0,0), but commit {head[:7]} has it; "
                                    "expected a new path, or the file's lines with their positions")
        return
    assert built.code == 0, built.err
    page = project.site / "acme/widgets/12/cache-bug"
    html = (page / "index.html").read_text()
    assert '<span class="hunk-new">new file</span>' in html and "Applies at" in html
    assert (page / "proposal-1.patch").read_text().startswith(
        f"diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n")
    git(repo, "apply", str(page / "proposal-1.patch"))
    assert (repo / path).read_text() == "def test_tail():\n    assert tail() == 0\n"


def _on_the_pr(code: tuple[Path, list[str]], *, base: bool = True) -> Any:
    return dataclasses.replace(PR, head=code[1][1][:7], base=code[1][0][:7] if base else None,
                               files=())


def test_an_excerpt_shows_the_lines_the_commit_holds(code: tuple[Path, list[str]],
                                                     reader: SourceReader) -> None:
    html, errors, _ = render("```excerpt\n[[checkpoint.py:5-7]]\nhighlight: 6\n```\n", reader,
                             _on_the_pr(code))
    assert errors == []
    rows = re.findall(r'<tr class="([\w-]+)"><td class="excerpt-ln" data-ln="(\d+)"></td>'
                      r'<td class="diff-code">(.*?)</td></tr>', html)
    assert [(kind, number) for kind, number, _ in rows] == [
        ("diff-ctx", "5"), ("excerpt-marked", "6"), ("diff-ctx", "7")]
    assert re.sub("<[^>]+>", "", rows[1][2]) == "tag = wait_fn is not None and step &gt; 0"


@pytest.mark.parametrize(("at", "shown"), [("", None), ("@base", "at base {base}"),
                                           ("@{base}", "at base {base}"), ("@{head}", None)])
def test_an_excerpt_at_another_commit_than_the_head_says_so(
        code: tuple[Path, list[str]], reader: SourceReader, at: str, shown: str | None) -> None:
    """Lines read at the base look like the head's: the excerpt's head names the commit."""
    base, head = code[1][0][:7], code[1][1][:7]
    html, errors, _ = render(f"```excerpt\n[[checkpoint.py:5-7{at.format(base=base, head=head)}]]\n```\n",
                             reader, _on_the_pr(code))
    assert errors == []
    found = re.findall(r'<span class="excerpt-at">([^<]*)</span>', html)
    assert found == ([shown.format(base=base)] if shown else [])


def test_a_pr_diff_shows_the_change_from_base_to_head(code: tuple[Path, list[str]],
                                                      reader: SourceReader) -> None:
    html, errors, _ = render("```pr-diff\n[[checkpoint.py:6]]\n```\n", reader, _on_the_pr(code))
    assert errors == []
    changed = re.findall(r'<tr class="diff-(del|add)">\n<td class="diff-ln"(?: data-ln="(\d+)")?>'
                         r'(?:<a [^>]*></a>)?</td>\n<td class="diff-ln"(?: data-ln="(\d+)")?[^>]*>'
                         r'(?:<a [^>]*></a>)?</td>\n<td class="diff-code">(.*?)</td>', html)
    assert [(kind, old, new, re.sub("<[^>]+>", "", text)) for kind, old, new, text in changed] == [
        ("del", "6", "", "    tag = wait_fn is not None"),
        ("add", "", "6", "    tag = wait_fn is not None and step &gt; 0")]
    base, head = code[1][0], code[1][1]  # each number is a permalink: old at base, new at head
    assert (f'href="https://github.com/acme/widgets/blob/{base}/src/app/checkpoint.py#L6" '
            'aria-label="line 6 at the commit"') in html
    assert (f'href="https://github.com/acme/widgets/blob/{head}/src/app/checkpoint.py#L6" '
            'aria-label="line 6 at the head"') in html


MODULE = "".join(f"def step_{k}(x):\n    return x + {k}\n\n\n" for k in range(6))


def _rendered_on(repo: Path, text: str, head: str, base: str | None,
                 files: tuple[str, ...]) -> tuple[str, list[str]]:
    """`text` rendered on a PR of `repo` from `base` to `head` that changes `files`."""
    reader = SourceReader(repo)
    try:
        html, errors, _ = render(text, reader, dataclasses.replace(PR, head=head, base=base,
                                                                   files=files))
    finally:
        reader.close()
    return html, errors


@pytest.mark.parametrize("changed", [True, False])
def test_a_pr_diff_of_a_renamed_file_shows_the_change_from_its_old_name(
        tmp_path: Path, changed: bool) -> None:
    """Before, a renamed file showed as all added lines: the base has no file of that name."""
    repo = tmp_path / "code"
    base = commit_files(repo, {"src/old_name.py": MODULE}, "base")
    git(repo, "mv", "src/old_name.py", "src/new_name.py")
    head = commit_files(repo, {"src/new_name.py": MODULE.replace("x + 3", "x * 3") if changed else MODULE})
    html, errors = _rendered_on(repo, "```pr-diff\n[[new_name.py]]\n```\n", head, base,
                                ("src/new_name.py",))
    assert errors == []
    said = re.findall(r'<p class="pr-diff-rename">(.*?)</p>', html)
    assert [re.sub("<[^>]+>", "", s) for s in said] == [
        "src/new_name.py was src/old_name.py at the base"
        + ("." if changed else ": renamed, its lines as they were.")]
    rows = re.findall(r'<tr class="diff-(add|del)">', html)
    assert rows == (["del", "add"] if changed else [])
    if changed:  # the old side's line numbers link the old name at the base
        assert (f'href="https://github.com/acme/widgets/blob/{base}/src/old_name.py#L14" '
                'aria-label="line 14 at the commit"') in html


def test_a_ranged_pr_diff_is_headed_by_the_definition_that_holds_its_change(
        tmp_path: Path) -> None:
    """aeson: `[[FromJSON.hs:796-808]]` takes in the blank line after the function it
    changes, and was headed by no name, for no definition holds the range whole."""
    repo = tmp_path / "code"
    module = "def f(x):\n    return x\n\n\ndef g():\n    pass\n"
    base = commit_files(repo, {"src/m.py": module}, "base")
    head = commit_files(repo, {"src/m.py": module.replace("return x", "return x + 1")})
    html, errors = _rendered_on(repo, "```pr-diff\n[[m.py:1-3]]\n```\n", head, base, ("src/m.py",))
    assert errors == []
    assert re.findall(r'<code class="hunk-symbol">([^<]*)</code>', html) == ["f"]


def test_a_file_in_latin_1_is_text_as_the_code_host_shows_it(tmp_path: Path) -> None:
    """Before, a file not in UTF-8 was 'binary file, not shown', and no quote of a line
    with an accent could match (its bytes read as U+FFFD)."""
    repo = tmp_path / "code"
    head = commit_files(repo, {"src/greet.py": "# café\ndef greet():\n    return 'été'\n"
                                               .encode("latin-1")})
    pr = dataclasses.replace(PR, head=head, base=None, files=("src/greet.py",))
    reader = SourceReader(repo)
    try:
        html, errors, _ = render("It says [[greet.py:3 \"return 'été'\"]].\n\n"
                                 "```excerpt\n[[greet.py:1-3]]\n```\n", reader, pr)
    finally:
        reader.close()
    assert errors == []
    assert "Binary file" not in html
    rows = re.findall(r'<td class="excerpt-ln" data-ln="\d+"></td><td class="diff-code">(.*?)</td>',
                      html)
    assert [re.sub("<[^>]+>", "", row) for row in rows] == [
        "# café", "def greet():", "    return 'été'"]


def test_a_pr_diff_of_a_removed_file_shows_its_lines_removed(tmp_path: Path) -> None:
    """Before, the block was refused: the head has no such file. A reference to it at the
    head says the base has it."""
    repo = tmp_path / "code"
    base = commit_files(repo, {"src/old_name.py": MODULE, "src/keep.py": "x = 1\n"}, "base")
    git(repo, "rm", "-q", "src/old_name.py")
    head = commit_files(repo, {"src/keep.py": "x = 2\n"})
    pr = dataclasses.replace(PR, head=head, base=base, files=("src/old_name.py", "src/keep.py"))
    reader = SourceReader(repo)
    try:
        html, errors, _ = render("```pr-diff\n[[old_name.py]]\n```\n\nSee [[old_name.py:2]].\n",
                                 reader, pr)
    finally:
        reader.close()
    assert errors == [f"5: 'src/old_name.py' of '[[old_name.py:2]]' does not exist at commit "
                      f"{head[:7]}; the base has it (the PR removes or renames it): cite it as it "
                      "was with @base"]
    assert "The PR removes <code>src/old_name.py</code>: its lines as the base has them." in html
    assert html.count('<tr class="diff-del">') == len(MODULE.splitlines())
    assert '<tr class="diff-add">' not in html
    assert f"base <code>{base[:7]}</code> → head <code>{head[:7]}</code>" in html
    assert f'href="https://github.com/acme/widgets/blob/{base}/src/old_name.py"' in html


@pytest.mark.parametrize(("text", "base", "expected"), [
    ("```excerpt\n[[checkpoint.py]]\n```\n", True,
     "2: the excerpt '[[checkpoint.py]]' names no lines; expected a range like "
     "[[src/app/checkpoint.py:10-20]]"),
    ("```excerpt\n[[checkpoint.py:4-8]]\nhighlight: 20\n```\n", True,
     "2: highlight: line 20 is outside the excerpt's lines 4-8"),
    ("```excerpt\nsee [[checkpoint.py:4-8]]\n```\n", True,
     "1: an excerpt block holds one reference on a line of its own, like [[checkpoint.py:480-492]]"),
    ("```pr-diff\n[[docs/spans.md]]\n```\n", True,
     "2: the PR does not change docs/spans.md; expected a file (and lines) its change touches"),
    ("```pr-diff\n[[checkpoint.py:13]]\n```\n", True,
     "2: the PR does not change src/app/checkpoint.py in lines 13-13; expected a file (and lines) "
     "its change touches; it changes L3-L9 at the head"),  # where to look instead
    ("```pr-diff\n[[checkpoint.py]]\n```\n", False,
     "2: a pr-diff block needs the PR's base commit; add 'base: SHA' to pr.yml"),
])
def test_excerpt_and_pr_diff_errors(code: tuple[Path, list[str]], reader: SourceReader,
                                    text: str, base: bool, expected: str) -> None:
    _, errors, _ = render(text, reader, _on_the_pr(code, base=base))
    assert errors == [expected]


def test_without_the_code_they_say_so_and_the_build_warns(code: tuple[Path, list[str]]) -> None:
    html, errors, warnings = render("```excerpt\n[[checkpoint.py:4-8]]\n```\n\n"
                                    "```pr-diff\n[[checkpoint.py]]\n```\n", None, _on_the_pr(code))
    assert errors == []
    assert sorted(warnings) == [
        "2: the excerpt of checkpoint.py L4-L8 cannot be shown: the code is not available at "
        "build time (run 'site-gen fetch')",
        "6: the PR's change to checkpoint.py cannot be shown: the code is not available at build "
        "time (run 'site-gen fetch')"]
    assert html.count('<p class="code-missing">The code is not available at build time') == 2


def test_a_review_comment_shows_its_lines_and_the_proposal_as_a_suggestion(
        code: tuple[Path, list[str]], reader: SourceReader) -> None:
    html, errors, _ = render(
        "::: review blocking [[checkpoint.py:6]]\nThe tag is true for every save.\n:::\n\n"
        "```proposal\nfile: checkpoint.py L6 · save\n@@ -6,2 +6,2 @@\n"
        "-    tag = wait_fn is not None and step > 0\n+    tag = wait_fn is not None\n"
        "     if wait_fn is not None:\n```\n", reader, _on_the_pr(code))
    assert errors == []
    review = html[:html.index("</aside>")]
    code_lines = re.findall(r'<span class="ref-preview-ln">(\d+)</span><code>(.*?)</code>', review)
    assert [(n, re.sub("<[^>]+>", "", text)) for n, text in code_lines] == [
        ("6", "tag = wait_fn is not None and step &gt; 0")]
    assert ("<pre><code>```suggestion\n    tag = wait_fn is not None\n```</code></pre>"
            in review)


def test_checking_many_prs_asks_git_once_for_every_commit(code: tuple[Path, list[str]],
                                                         tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Each PR's head, base and pull ref are looked up in one exchange with git for the
    whole site (a round trip per lookup took 60 ms for 300 PRs), and each PR's check is the
    one it gets alone."""
    from site_gen.code_check import check_code
    from site_gen.config import default_config
    from site_gen.content import Site
    from site_gen.errors import Problems

    repo, commits = code
    git(repo, "update-ref", "refs/pull/7/head", commits[2])  # PR 7 has moved on since
    config = dataclasses.replace(default_config(tmp_path), checkout=repo)
    prs = tuple(dataclasses.replace(PR, number=n, head=commits[1][:7], base=commits[0])
                for n in (3, 7, 12, 40))
    asked: list[list[str]] = []
    ask_many = SourceReader._ask_many

    def spy(self: SourceReader, commands: list[str]) -> Any:
        asked.append(commands)
        return ask_many(self, commands)

    alone = {pr.number: check_code(config, Site((pr,), ()), Problems())[pr.key] for pr in prs}
    monkeypatch.setattr(SourceReader, "_ask_many", spy)
    together = check_code(config, Site(prs, ()), Problems())
    assert asked[0] == [f"info {commits[1][:7]}^{{commit}}", f"info {commits[0]}^{{commit}}",
                        *(f"info refs/pull/{n}/head^{{commit}}" for n in (3, 7, 12, 40))]
    assert all("info" not in command for commands in asked[1:] for command in commands)
    assert {pr.number: together[pr.key] for pr in prs} == alone
    assert together[prs[1].key].drift is not None and together[prs[0].key].drift is None


def test_the_files_a_pr_lists_are_read_at_its_head_at_once(project: Project, cli: CLI,
                                                           code: tuple[Path, list[str]],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The files pr.yml lists (those its pages cite) come from git in one exchange when its
    first page is rendered, not one exchange per file a page cites."""
    repo, commits = code
    pr_page(project, code, body=PAGE + "And the docs: [[docs/spans.md:3]].\n")
    project.write("content/acme/widgets/12/pr.yml",
                  PR_YML.format(head=commits[1][:7], base=commits[0])
                  + "files:\n  - src/app/checkpoint.py\n  - docs/spans.md\n")
    asked: list[list[str]] = []
    ask_many = SourceReader._ask_many

    def spy(self: SourceReader, commands: list[str]) -> Any:
        asked.append([c for c in commands if c.startswith("contents ")])
        return ask_many(self, commands)

    monkeypatch.setattr(SourceReader, "_ask_many", spy)
    built = cli("build", "--no-cache", "--no-search", "--jobs", "1", "--checkout", str(repo))
    assert built.code == 0, built.err
    reads = [commands for commands in asked if commands]
    assert reads == [[f"contents {commits[1]}:src/app/checkpoint.py",
                      f"contents {commits[1]}:docs/spans.md"]]
    html = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    assert "✓</span> Checked against the code" in html
