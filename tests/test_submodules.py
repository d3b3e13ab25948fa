"""Code in a git submodule: a page that cites a file in it links the submodule's own
repository at the commit the PR pins it at, and is checked against that code; what is not
a file of the tree (the submodule's folder, a symbolic link) says what it is."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from site_gen.code_host import CodeHost
from site_gen.submodules import repo_of

from .conftest import Project, Run, commit, front, git

CLI = Callable[..., Run]

CKPT = "def save_checkpoint(x):\n    return x\n"


@pytest.fixture
def code(tmp_path: Path) -> tuple[Path, Path, str, str]:
    """(the PR's repository, the submodule's, the PR's head, the submodule's commit): the
    head holds Megatron as a submodule at 3rdparty/Megatron, listed in .gitmodules by its
    GitHub address, and a symbolic link."""
    sub = tmp_path / "megatron"
    pinned = commit(sub, {"megatron/ckpt.py": CKPT})
    repo = tmp_path / "rl"
    commit(repo, {"src/train.py": "save_checkpoint(model)\n"}, "base")
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub),
        "3rdparty/Megatron")
    git(repo, "config", "-f", ".gitmodules", "submodule.3rdparty/Megatron.url",
        "https://github.com/acme/megatron.git")
    (repo / "link.py").symlink_to("src/train.py")
    head = commit(repo, {}, "vendor megatron")
    return repo, sub, head, pinned


def page(project: Project, head: str, body: str) -> None:
    project.write("content/acme/rl/7/pr.yml", f"repo: acme/rl\nnumber: 7\ntitle: T\nhead: {head}\n"
                                              "state: open\n")
    project.write("content/acme/rl/7/q.md", front() + body)


def html(project: Project) -> str:
    return (project.site / "acme/rl/7/q/index.html").read_text()


def bare(repo: Path, where: Path) -> Path:
    """A bare clone of `repo`: its commits, and no submodule's work tree beside them."""
    subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(where)], check=True)
    return where


def test_a_reference_into_a_submodule_links_its_repository_at_the_pinned_commit(
        project: Project, cli: CLI, code: tuple[Path, Path, str, str]) -> None:
    repo, _, head, pinned = code
    page(project, head, "The save: [[3rdparty/Megatron/megatron/ckpt.py:2 \"return x\"]], "
                        "[[3rdparty/Megatron/ckpt.py::save_checkpoint|the function]].\n\n"
                        "```excerpt\n[[3rdparty/Megatron/megatron/ckpt.py:1-2]]\n```\n\n"
                        "```proposal\ntitle: Wait\nfile: 3rdparty/Megatron/megatron/ckpt.py L2\n"
                        "@@ -1,2 +1,2 @@\n def save_checkpoint(x):\n-    return x\n"
                        "+    return x.wait()\n```\n")
    built = cli("build", "--strict", "--no-search", "--checkout", f"acme/rl={repo}")
    assert built.code == 0, built.err
    shown = html(project)
    assert re.search(r"All code links pin the PR head <a [^>]*><code>[0-9a-f]{7}</code></a>, or "
                     r"the commit it pins its submodule at \(acme/megatron\)\.</span>", shown)
    link = f"https://github.com/acme/megatron/blob/{pinned}/megatron/ckpt.py"
    assert (f'<a class="ref" href="{link}#L2" title="megatron/ckpt.py L2 at {pinned[:7]} in '
            'acme/megatron"><code>3rdparty/Megatron/megatron/ckpt.py:2</code></a>') in shown
    # a tail of the path inside the submodule, and a name it defines
    assert (f'href="{link}#L1-L2" title="megatron/ckpt.py L1-L2 at {pinned[:7]} in '
            'acme/megatron">the function</a>') in shown
    # the excerpt shows its lines; the proposal is checked there, and its patch is the
    # submodule's (it applies in that repository)
    assert '<span class="nf">save_checkpoint</span>' in shown
    assert f'<span class="excerpt-at">at {pinned[:7]} in acme/megatron</span>' in shown
    assert f"Applies at {pinned[:7]} in acme/megatron: every removed and context line" in shown
    patch = (project.site / "acme/rl/7/q/proposal-1.patch").read_text()
    assert patch.startswith("diff --git a/megatron/ckpt.py b/megatron/ckpt.py\n")


def test_a_reference_into_a_submodule_is_checked_against_its_code(
        project: Project, cli: CLI, code: tuple[Path, Path, str, str]) -> None:
    repo, _, head, pinned = code
    page(project, head, "[[3rdparty/Megatron/megatron/ckpt.py:2 \"return y\"]] "
                        "[[3rdparty/Megatron/megatron/ckpt.py:9]] [[3rdparty/Megatron]] "
                        "[[link.py:2]]\n")
    built = cli("build", "--no-search", "--checkout", f"acme/rl={repo}")
    within = f"(in acme/megatron at {pinned[:7]}, the submodule 3rdparty/Megatron)"
    assert built.code == 1
    assert (f"q.md:6: the quote \"return y\" of '[[3rdparty/Megatron/megatron/ckpt.py:2 "
            f"\"return y\"]]' {within} is not on those lines at commit {pinned[:7]}; they "
            "read: return x") in built.err
    assert (f"q.md:6: '[[3rdparty/Megatron/megatron/ckpt.py:9]]' {within} points past the end "
            f"of megatron/ckpt.py, which has 2 lines at commit {pinned[:7]}") in built.err
    assert (f"q.md:6: '[[3rdparty/Megatron]]' names the submodule 3rdparty/Megatron "
            f"(acme/megatron at {pinned[:7]}); expected a file in it") in built.err
    assert ("q.md:6: '[[link.py:2]]' points past the end of link.py, which has 1 line at "
            f"commit {head[:7]}; link.py is a symbolic link to src/train.py: cite the file it "
            "links to") in built.err


def test_fetch_brings_the_submodule_commits_the_pages_cite(
        project: Project, cli: CLI, code: tuple[Path, Path, str, str], tmp_path: Path) -> None:
    repo, sub, head, pinned = code
    upstream = bare(repo, tmp_path / "rl.git")  # no work tree of the submodule to read
    # over a line break, as prose wraps: the build reads it so, and so does fetch
    page(project, head, "[[3rdparty/Megatron/megatron/ckpt.py:2\n\"return x\"]]\n")
    project.write("mkdocs.yml", (project.root / "mkdocs.yml").read_text() + "site_gen:\n  sources:\n"
                  f"    acme/rl: {upstream.as_uri()}\n    acme/megatron: {sub.as_uri()}\n")
    unfetched = cli("build", "--strict", "--no-search", "--checkout", f"acme/rl={upstream}")
    assert unfetched.code == 1
    assert (f"q.md:6: '[[3rdparty/Megatron/megatron/ckpt.py:2 \"return x\"]]' cites "
            f"acme/megatron at {pinned[:7]}, the submodule 3rdparty/Megatron, whose code is not "
            "here, so it is not checked; run 'site-gen fetch'") in unfetched.err
    fetched = cli("fetch")
    assert fetched.code == 0, fetched.err
    assert (f"acme/megatron: fetched 1 commit(s) from {sub.as_uri()}; 0 already here"
            in fetched.out)
    store = project.root / ".cache/site-gen/repos/acme/megatron.git"
    assert git(store, "cat-file", "-t", pinned) == "commit"
    built = cli("build", "--strict", "--no-search")  # the page is checked now, not kept
    assert built.code == 0, built.err


def test_fetch_brings_no_submodule_commit_for_what_code_holds(
        project: Project, cli: CLI, code: tuple[Path, Path, str, str], tmp_path: Path) -> None:
    """A submodule's file written in a code span, to show the syntax, is no reference to the
    build: fetch brought the submodule's commit for it all the same."""
    repo, sub, head, _ = code
    upstream = bare(repo, tmp_path / "rl.git")
    page(project, head, "Write `[[3rdparty/Megatron/megatron/ckpt.py:2]]` to cite it.\n")
    project.write("mkdocs.yml", (project.root / "mkdocs.yml").read_text() + "site_gen:\n  sources:\n"
                  f"    acme/rl: {upstream.as_uri()}\n    acme/megatron: {sub.as_uri()}\n")
    fetched = cli("fetch")
    assert fetched.code == 0, fetched.err
    assert "acme/megatron" not in fetched.out, fetched.out


def test_a_claim_names_no_file_of_a_submodule(project: Project, cli: CLI,
                                              code: tuple[Path, Path, str, str]) -> None:
    repo, _, head, pinned = code
    page(project, head, "```claim\nsays: one return\ncount: 1\ntext: return\n"
                        "in: 3rdparty/Megatron/megatron\n```\n")
    built = cli("build", "--no-search", "--checkout", f"acme/rl={repo}")
    assert (f"q.md:10: 'in: 3rdparty/Megatron/megatron' lies in the submodule 3rdparty/Megatron "
            f"(acme/megatron at {pinned[:7]}), another repository; a claim counts the files of "
            "this one") in built.err


def test_when_the_pr_moves_on_a_submodule_reference_stands_while_its_commit_does(
        project: Project, cli: CLI, code: tuple[Path, Path, str, str]) -> None:
    repo, _, head, _ = code
    page(project, head, "[[3rdparty/Megatron/megatron/ckpt.py:2 \"return x\"]]\n")
    later = commit(repo, {"src/train.py": "save_checkpoint(model, wait_fn=w)\n"}, "later")
    git(repo, "update-ref", "refs/pull/7/head", later)
    moved = cli("repin", "acme/rl#7", "--dry-run", "--checkout", f"acme/rl={repo}")
    assert moved.code == 0, moved.err
    assert f"acme/rl#7 {head[:7]} → {later[:7]}: 1 reference: 1 same" in moved.out


def bumped_to(repo: Path, sub: Path, text: str) -> str:
    """The PR's ref moved to a commit that pins the submodule at a new commit of `text`."""
    commit(sub, {"megatron/ckpt.py": text})
    git(repo / "3rdparty/Megatron", "pull", "-q", "origin", "main")
    newest = commit(repo, {}, "bump megatron")
    git(repo, "update-ref", "refs/pull/7/head", newest)
    return newest


def test_when_the_pr_bumps_the_submodule_its_lines_are_placed_in_the_submodule(
        project: Project, cli: CLI, code: tuple[Path, Path, str, str]) -> None:
    """Before, every reference into a bumped submodule was 'changed', whatever its text."""
    repo, sub, head, _ = code
    page(project, head, "[[3rdparty/Megatron/megatron/ckpt.py:2 \"return x\"]] and "
                        "[[3rdparty/Megatron/ckpt.py:1]]\n")
    bumped_to(repo, sub, "import os\n\n" + CKPT)
    moved = cli("repin", "acme/rl#7", "--checkout", f"acme/rl={repo}")
    assert moved.code == 0, moved.out + moved.err
    assert "q.md:6: moved: 3rdparty/Megatron/megatron/ckpt.py L2 now at L4" in moved.out
    assert ('[[3rdparty/Megatron/megatron/ckpt.py:4 "return x"]] and '
            "[[3rdparty/Megatron/ckpt.py:3]]") in (project.root / "content/acme/rl/7/q.md").read_text()
    built = cli("build", "--strict", "--no-search", "--checkout", f"acme/rl={repo}")
    assert built.code == 0, built.err
    bumped_to(repo, sub, "import os\n\n" + CKPT.replace("return x", "return x  # v2"))
    edited = cli("repin", "acme/rl#7", "--dry-run", "--checkout", f"acme/rl={repo}")
    assert edited.code == 1
    assert ("q.md:6: changed: 3rdparty/Megatron/megatron/ckpt.py L4: the cited lines were "
            "edited: L4 at the old head, L4 at the new\n    was: return x\n    now: return x  # v2"
            ) in edited.out


def test_a_bumped_submodule_whose_code_is_not_here_is_changed(
        project: Project, cli: CLI, code: tuple[Path, Path, str, str], tmp_path: Path) -> None:
    repo, sub, head, pinned = code
    page(project, head, "[[3rdparty/Megatron/megatron/ckpt.py:2 \"return x\"]]\n")
    bumped_to(repo, sub, CKPT + "# later\n")
    upstream = bare(repo, tmp_path / "rl.git")  # the PR's commits, no submodule's
    git(upstream, "update-ref", "refs/pull/7/head", git(repo, "rev-parse", "refs/pull/7/head"))
    drift = cli("repin", "acme/rl#7", "--dry-run", "--checkout", f"acme/rl={upstream}")
    assert drift.code == 1
    new = git(repo, "rev-parse", "HEAD:3rdparty/Megatron")
    assert (f"q.md:6: changed: 3rdparty/Megatron/megatron/ckpt.py L2: the new head pins the "
            f"submodule 3rdparty/Megatron at {new[:7]}, not {pinned[:7]}, whose code is not "
            "here: read the cited lines there") in drift.out


@pytest.fixture
def bump(code: tuple[Path, Path, str, str]) -> tuple[str, str, str]:
    """A PR that bumps the submodule (its base pins it at the first commit, its head at a
    second that changes the function): (the PR's head, the two submodule commits)."""
    repo, sub, head, pinned = code
    later = commit(sub, {"megatron/ckpt.py": CKPT.replace("return x", "return x.wait()")})
    git(repo / "3rdparty/Megatron", "pull", "-q", "origin", "main")
    return commit(repo, {}, "bump megatron"), pinned, later


def test_the_prs_own_change_to_a_submodules_file_is_between_the_commits_it_pins(
        project: Project, cli: CLI, code: tuple[Path, Path, str, str],
        bump: tuple[str, str, str]) -> None:
    repo, _, base, _ = code
    head, old, new = bump
    page(project, head, "```pr-diff\n[[3rdparty/Megatron/ckpt.py]]\n```\n")
    project.write("content/acme/rl/7/pr.yml", (project.root / "content/acme/rl/7/pr.yml")
                  .read_text() + f"base: {base}\n")
    built = cli("build", "--strict", "--no-search", "--checkout", f"acme/rl={repo}")
    assert built.code == 0, built.err
    shown = html(project)
    assert (f"The PR’s own change</span> · base <code>{old[:7]}</code> → head <code>{new[:7]}"
            "</code> in acme/megatron</p>") in shown
    # one line changed, not every line added; each side's numbers link the submodule's lines
    assert shown.count('<tr class="diff-del">') == 1 and shown.count('<tr class="diff-add">') == 1
    assert f'href="https://github.com/acme/megatron/blob/{old}/megatron/ckpt.py#L2"' in shown
    assert f'href="https://github.com/acme/megatron/blob/{new}/megatron/ckpt.py#L2"' in shown


def test_fetch_brings_the_commit_the_base_pins_a_cited_submodule_at(
        project: Project, cli: CLI, code: tuple[Path, Path, str, str],
        bump: tuple[str, str, str], tmp_path: Path) -> None:
    repo, sub, base, _ = code
    head, old, new = bump
    upstream = bare(repo, tmp_path / "rl.git")
    page(project, head, "```pr-diff\n[[3rdparty/Megatron/ckpt.py]]\n```\n")
    project.write("content/acme/rl/7/pr.yml", (project.root / "content/acme/rl/7/pr.yml")
                  .read_text() + f"base: {base}\n")
    project.write("mkdocs.yml", (project.root / "mkdocs.yml").read_text() + "site_gen:\n  sources:\n"
                  f"    acme/rl: {upstream.as_uri()}\n    acme/megatron: {sub.as_uri()}\n")
    unfetched = cli("build", "--no-search", "--checkout", f"acme/rl={upstream}")
    assert ("q.md:7: the PR's change to ckpt.py cannot be shown: the code of "
            "acme/megatron at the commit the base pins 3rdparty/Megatron at is not here (run "
            "'site-gen fetch')") in unfetched.err
    fetched = cli("fetch")
    assert f"acme/megatron: fetched 2 commit(s) from {sub.as_uri()}" in fetched.out, fetched.err
    built = cli("build", "--strict", "--no-search")
    assert built.code == 0, built.err
    assert html(project).count('<tr class="diff-del">') == 1


@pytest.mark.parametrize(("url", "expected"), [
    ("https://github.com/NVIDIA/Megatron-LM.git", "NVIDIA/Megatron-LM"),
    ("git@github.com:NVIDIA/Megatron-LM.git", "NVIDIA/Megatron-LM"),
    ("ssh://git@github.com/NVIDIA/Megatron-LM", "NVIDIA/Megatron-LM"),
    ("https://GitHub.com/a/b/", "a/b"),
    ("../Megatron-LM.git", "NVIDIA/Megatron-LM"),  # beside the PR's repository, as git reads it
    ("../../other/lib.git", "other/lib"),
    ("https://gitlab.com/a/b.git", None),  # another host: no permalink here
    ("/srv/git/lib", None),
])
def test_a_submodule_url_names_its_repository_on_the_code_host(url: str,
                                                               expected: str | None) -> None:
    assert repo_of(url, "NVIDIA/RL", CodeHost()) == expected


def test_fetch_brings_the_commit_the_prs_current_head_pins_a_cited_submodule_at(
        project: Project, cli: CLI, code: tuple[Path, Path, str, str], tmp_path: Path) -> None:
    repo, sub, head, _ = code
    page(project, head, "[[3rdparty/Megatron/megatron/ckpt.py:2 \"return x\"]]\n")
    newest = bumped_to(repo, sub, "import os\n\n" + CKPT)
    upstream = bare(repo, tmp_path / "rl.git")
    git(upstream, "update-ref", "refs/pull/7/head", newest)
    project.write("mkdocs.yml", (project.root / "mkdocs.yml").read_text() + "site_gen:\n  sources:\n"
                  f"    acme/rl: {upstream.as_uri()}\n    acme/megatron: {sub.as_uri()}\n")
    fetched = cli("fetch")
    assert f"acme/megatron: fetched 2 commit(s) from {sub.as_uri()}" in fetched.out, fetched.err
    moved = cli("repin", "acme/rl#7", "--dry-run")
    assert "1 reference: 1 moved" in moved.out, moved.out + moved.err
