"""Authoring commands: new, check, and build progress."""

from __future__ import annotations

import datetime as dt
import os
import pty
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from .conftest import Project, Run, commit, front, git

CLI = Callable[..., Run]
ROOT = Path(__file__).resolve().parent.parent


def test_new_creates_a_pr_folder_that_builds(project: Project, cli: CLI) -> None:
    result = cli("new", "acme/gears#7", "--head", "0123456789", "--title", "Gear: ratios",
                 "--question", "Why does rounding drift?")
    assert result.code == 0, result.err
    assert result.out.splitlines() == ["Created content/acme/gears/7/pr.yml",
                                       "Created content/acme/gears/7/why-does-rounding-drift.md"]
    facts = yaml.safe_load((project.root / "content/acme/gears/7/pr.yml").read_text())
    assert facts == {"repo": "acme/gears", "number": 7, "title": "Gear: ratios",
                     "head": "0123456789", "state": "open", "files": ["path/to/module.py"]}
    page = (project.root / "content/acme/gears/7/why-does-rounding-drift.md").read_text()
    front = yaml.safe_load(page.split("---\n")[1])
    assert (front["order"], front["updated"]) == (1, dt.date.today())  # dated the day it is made
    for part in ("summary:", "[[module.py:12]]", ":badge[unresolved]", "```flow", "```proposal",
                 "::: review", "::: aside"):
        assert part in page
    built = cli("build", "--no-search")
    assert built.code == 0, built.err
    html = (project.site / "acme/gears/7/why-does-rounding-drift/index.html").read_text()
    assert "blob/0123456789/path/to/module.py#L12" in html


def test_check_reports_placeholders_until_they_are_replaced(project: Project, cli: CLI) -> None:
    assert cli("new", "acme/gears#7", "--head", "0123456", "--title", "Gears").code == 0
    pr = project.root / "content/acme/gears/7/pr.yml"
    pr.write_text(pr.read_text().replace("   # ⟨the files your pages cite⟩", "")
                  + "code_unavailable: made up\n")
    check = cli("check")
    assert check.code == 1
    assert check.err.splitlines() == [
        "warning: content/acme/gears/7/the-first-question.md:2: 24 placeholder(s) from site-gen "
        "new still here (the first: '⟨A title that answers: the first question⟩'); replace each "
        "⟨…⟩ with your own text",
        "Check found 1 warning in 8 pages."]


def test_new_adds_a_page_to_a_pr_that_exists(project: Project, cli: CLI) -> None:
    added = cli("new", "acme/widgets#12", "--question", "Ünïcode tägs")
    assert (added.code, added.out) == (0, "Created content/acme/widgets/12/unicode-tags.md\n")
    page = (project.root / "content/acme/widgets/12/unicode-tags.md").read_text()
    assert "\norder: 2\n" in page and 'question: "Ünïcode tägs"' in page
    again = cli("new", "acme/widgets#12", "--question", "Unicode tags")
    assert (again.code, again.err) == (1, "content/acme/widgets/12/unicode-tags.md: a page "
                                          "named 'unicode-tags.md' already exists; site-gen new "
                                          "never overwrites (give another --question)\n")
    # an order with a comment after it, as YAML allows, counts
    page_path = project.root / "content/acme/widgets/12/unicode-tags.md"
    page_path.write_text(page.replace("\norder: 2\n", "\norder: 5   # after the others\n"))
    assert cli("new", "acme/widgets#12", "--question", "third").code == 0
    assert "\norder: 6\n" in (project.root / "content/acme/widgets/12/third.md").read_text()


def test_new_refuses_to_overwrite_and_bad_arguments(project: Project, cli: CLI) -> None:
    assert cli("new", "acme/gears#7", "--head", "abcdef1").code == 0
    again = cli("new", "acme/gears#7", "--head", "abcdef1")
    assert (again.code, again.err) == (1, "content/acme/gears/7: acme/gears#7 already has a "
                                          "folder; site-gen new never overwrites (give "
                                          "--question to add a page to it)\n")
    assert cli("new", "acme/gears", "--head", "abcdef1").err == (
        "'acme/gears' is not a pull request; expected OWNER/REPO#NUMBER, like NVIDIA-NeMo/RL#4607\n")
    assert cli("new", "acme/gears#8", "--head", "main").err == (
        "--head 'main' is not a commit SHA, and no clone is here to read it in (--checkout, or "
        "site_gen.sources); expected 7 to 40 hex digits\n")
    assert cli("new", "acme/gears#8").err == (
        "the head commit is missing; give --head SHA, or --checkout PATH to read it from a "
        "local clone\n")


def test_new_reads_the_head_from_a_checkout(project: Project, cli: CLI,
                                            checkout: tuple[Path, str, str]) -> None:
    repo, _, second = checkout
    assert cli("new", "acme/gears#9", "--checkout", str(repo)).code == 0
    facts = yaml.safe_load((project.root / "content/acme/gears/9/pr.yml").read_text())
    assert facts["head"] == second


def test_new_with_the_code_here_cites_a_real_line_twice(project: Project, cli: CLI,
                                                        checkout: tuple[Path, str, str]) -> None:
    """With the code here, the examples of `new` cite the PR's first changed file at a real
    line, for the first page and for another question: the build has nothing to say but
    that placeholders are left."""
    repo, _, second = checkout
    assert cli("new", "acme/gears#9", "--checkout", str(repo), "--question", "one",
               "--title", "Gears").code == 0
    facts = yaml.safe_load((project.root / "content/acme/gears/9/pr.yml").read_text())
    assert facts["files"] == ["src/widgets/core.py"]  # what the head commit changes
    added = cli("new", "acme/gears#9", "--question", "two", "--checkout", str(repo))
    assert added.code == 0, added.err
    page = (project.root / "content/acme/gears/9/two.md").read_text()
    # the line the head commit changes
    assert "[[core.py:10]]" in page and "[[core.py:10 \"key = make_key(user, scope)\"]]" in page
    assert "\n-key = make_key(user, scope)\n" in page
    built = cli("build", "--no-search", "--checkout", f"acme/gears={repo}")
    assert built.code == 0, built.err
    problems = [line for line in built.err.splitlines() if "acme/gears" in line]
    assert [line.split(": ", 2)[1] for line in problems] == [
        "content/acme/gears/9/one.md:2", "content/acme/gears/9/two.md:2"]
    assert all("placeholder(s) from site-gen new still here" in line for line in problems)
    html = (project.site / "acme/gears/9/two/index.html").read_text()
    assert f"blob/{second}/src/widgets/core.py#L10" in html


def test_new_with_a_base_lists_every_file_the_pr_changes(project: Project, cli: CLI,
                                                         tmp_path: Path) -> None:
    """A PR of two commits: without a base, `files` held what its head commit changes, and
    the other file was missing (httpx's 12-commit branch: 1 file of 25); with `--base`,
    every file from the base to the head, and pr.yml's `base` set, so a pr-diff builds."""
    repo = tmp_path / "code"
    base = commit(repo, {"src/app.py": "def run(port):\n    return serve(port)\n",
                         "src/cli.py": "def main():\n    run(80)\n"}, "base")
    commit(repo, {"src/cli.py": "def main():\n    run(8080)\n"}, "the PR, 1")
    commit(repo, {"src/app.py": "def run(port):\n    return serve(port or 80)\n"}, "the PR, 2")
    assert cli("new", "acme/gears#9", "--checkout", str(repo), "--base", base[:7],
               "--question", "one").code == 0
    facts = yaml.safe_load((project.root / "content/acme/gears/9/pr.yml").read_text())
    assert facts["files"] == ["src/app.py", "src/cli.py"] and facts["base"] == base  # written whole
    project.write("content/acme/gears/9/two.md", "---\ntitle: T\nquestion: two\norder: 2\n"
                  "status: open\nupdated: 2026-12-04\n---\n\n```pr-diff\n[[cli.py]]\n```\n")
    built = cli("build", "--no-search", "--checkout", f"acme/gears={repo}")
    assert built.code == 0, built.err
    assert "8080" in (project.site / "acme/gears/9/two/index.html").read_text()
    # without it, as before: the head commit's files, and the base left to write
    assert cli("new", "acme/gears#10", "--checkout", str(repo), "--question", "one").code == 0
    text = (project.root / "content/acme/gears/10/pr.yml").read_text()
    assert yaml.safe_load(text)["files"] == ["src/app.py"] and "\n# base: " in text
    again = cli("new", "acme/gears#9", "--base", base[:7], "--question", "three")
    assert again.code == 1 and "write its base in pr.yml: 'base: SHA'" in again.err
    assert cli("new", "acme/gears#11", "--head", "abcdef1", "--base", "main").err.endswith(
        "--base 'main' is not a commit SHA, and no clone is here to read it in (--checkout, or "
        "site_gen.sources); expected 7 to 40 hex digits\n")


def test_new_refuses_a_base_the_head_does_not_descend_from(project: Project, cli: CLI,
                                                            tmp_path: Path) -> None:
    """The rubocop trial: `--head` and `--base` swapped (the base a later commit) gave a PR
    that changes nothing from its base, every claim's site 'not changed by this PR', and
    no word of it. `new` says so, and writes nothing; a branch apart is said so too."""
    repo = tmp_path / "code"
    base = commit(repo, {"src/app.py": "def run(port):\n    return serve(port)\n"}, "base")
    head = commit(repo, {"src/app.py": "def run(port):\n    return serve(port or 80)\n"}, "PR")
    later = commit(repo, {"src/cli.py": "def main():\n    run(8080)\n"}, "after it")
    swapped = cli("new", "acme/gears#9", "--checkout", str(repo), "--head", head,
                  "--base", later)
    assert swapped.code == 1 and swapped.err == (
        f"--base {later[:10]} is no commit the head {head[:10]} descends from: it descends "
        "from the head (were --head and --base swapped?); expected the commit the PR's change "
        "starts from ('git merge-base <head> origin/main' in a clone)\n"), swapped.err
    assert not (project.root / "content/acme/gears/9").exists()
    git(repo, "checkout", "-q", "--orphan", "apart")
    apart = commit(repo, {"other.py": "x = 1\n"}, "another history")
    assert "the two are on histories apart" in cli(
        "new", "acme/gears#9", "--checkout", str(repo), "--head", head, "--base", apart).err
    assert cli("new", "acme/gears#9", "--checkout", str(repo), "--head", head,
               "--base", base).code == 0


def test_new_pins_a_revision_as_the_commit_it_names_now(project: Project, cli: CLI,
                                                        tmp_path: Path) -> None:
    """`--base main~2` (or a tag, `HEAD`) in a clone here is written as the SHA of the
    commit it names: the name would drift, the commit does not. One the clone does not
    have is an error that names the clone."""
    repo = tmp_path / "code"
    base = commit(repo, {"src/app.py": "def run(port):\n    return serve(port)\n"}, "base")
    commit(repo, {"src/app.py": "def run(port):\n    return serve(port or 80)\n"}, "the PR")
    head = commit(repo, {"src/cli.py": "def main():\n    run(8080)\n"}, "the PR, 2")
    made = cli("new", "acme/gears#9", "--checkout", str(repo), "--head", "main",
               "--base", "main~2")
    assert made.code == 0, made.err
    assert f"--base main~2 is commit {base[:10]}\n" in made.err
    facts = yaml.safe_load((project.root / "content/acme/gears/9/pr.yml").read_text())
    assert (facts["head"], facts["base"]) == (head, base)
    assert facts["files"] == ["src/app.py", "src/cli.py"]  # from the base, as with its SHA
    assert cli("new", "acme/gears#10", "--checkout", str(repo), "--head", "v9").err == (
        f"--head 'v9' names no commit of {repo}; expected 7 to 40 hex digits, or a revision of "
        "it such as main~1\n")
    # an abbreviated SHA the clone holds is written whole, as a permalink is; one it does
    # not hold (a fork's commit, not fetched yet) as it was written
    assert cli("new", "acme/gears#12", "--checkout", str(repo), "--head", head[:7],
               "--base", "abcdef1").code == 0
    facts = yaml.safe_load((project.root / "content/acme/gears/12/pr.yml").read_text())
    assert (facts["head"], facts["base"]) == (head, "abcdef1")


def test_new_cites_a_line_of_a_function_when_the_pr_changes_one(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """Before, the examples cited the first changed file's first line: a changelog's, or a
    module's constant, and so named no definition. Now a line inside a function, in the
    first changed file that has one: the line the PR changes there."""
    repo = tmp_path / "code"
    commit(repo, {"CHANGES.md": "Changes to widgets.\n", "src/app.py": "VERSION = 1\n\n\n"
                  "class App:\n    def start(self, port):\n        return serve(port)\n"}, "base")
    commit(repo, {"CHANGES.md": "Changes to widgets.\nA port.\n",
                  "src/app.py": "VERSION = 2\n\n\nclass App:\n    def start(self, port):\n"
                                "        return serve(port or 80)\n"})
    assert cli("new", "acme/gears#9", "--checkout", str(repo), "--question", "one").code == 0
    page = (project.root / "content/acme/gears/9/one.md").read_text()
    assert '[[app.py:6 "return serve(port or 80)"]]' in page
    assert "file: app.py L6 · App.start\n" in page and "[[app.py::App.start]]" in page
    built = cli("build", "--no-search", "--checkout", f"acme/gears={repo}")
    assert built.code == 0, built.err


def _new_page_on(project: Project, cli: CLI, tmp_path: Path, path: str, base: str,
                 head: str) -> str:
    """The page `new` writes for a PR that changes `path` from `base` to `head`."""
    repo = tmp_path / "code"
    commit(repo, {path: base}, "base")
    commit(repo, {path: head})
    assert cli("new", "acme/gears#9", "--checkout", str(repo), "--question", "one").code == 0
    return (project.root / "content/acme/gears/9/one.md").read_text()


def test_new_cites_the_changed_line_of_a_function_that_holds_another(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """os-lib#416 changes `watch`, which defines a thread's `run` inside it: the examples
    cited an unchanged line of `run`, for a line inside a function that holds none was
    preferred to a line the PR changes. The changed line comes first."""
    code = ("def watch(roots):\n    def run():\n        return loop()\n"
            "    sentinels = make(roots)\n    return run\n")
    page = _new_page_on(project, cli, tmp_path, "src/watch.py", code,
                        code.replace("make(roots)", "make(real(roots))"))
    assert '[[watch.py:4 "sentinels = make(real(roots))"]]' in page
    assert "file: watch.py L4 · watch\n" in page and "[[watch.py::watch]]" in page


def test_new_names_the_innermost_definition_that_its_name_finds_alone(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """terraform-aws-vpc#1264 changes a line of a `dynamic "statement"`'s `content`, one of
    two of that name in its `data` block: the examples named the file's first definition
    (`data.aws_region.current`) and headed the hunk with none. What holds the line and its
    name finds alone, innermost first: the `data` block."""
    code = ('data "aws_region" "current" {}\n\ndata "aws_iam_policy_document" "this" {\n'
            '  dynamic "statement" {\n    for_each = [1]\n    content {\n'
            '      resources = var.a\n    }\n  }\n  dynamic "statement" {\n'
            '    for_each = [2]\n    content {\n      resources = var.b\n    }\n  }\n}\n')
    page = _new_page_on(project, cli, tmp_path, "main.tf", code, code.replace("var.a", "var.c"))
    assert "[[main.tf::data.aws_iam_policy_document.this]]" in page
    assert "file: main.tf L7 · data.aws_iam_policy_document.this\n" in page


def test_new_on_a_first_commit_cites_its_files_and_not_where_a_shallow_clone_stops(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """A PR whose head is a repository's first commit adds every file it has (before, no
    file was found and the page cited the stand-in `path/to/module.py`); a clone cut short
    at the head does not know what it changes, and `new` does not guess."""
    repo = tmp_path / "code"
    commit(repo, {"src/app.py": "def run(port):\n    return serve(port)\n"}, "first")
    assert cli("new", "acme/gears#9", "--checkout", str(repo), "--question", "one").code == 0
    facts = yaml.safe_load((project.root / "content/acme/gears/9/pr.yml").read_text())
    assert facts["files"] == ["src/app.py"]
    assert "[[app.py::run]]" in (project.root / "content/acme/gears/9/one.md").read_text()
    commit(repo, {"src/app.py": "def run(port):\n    return serve(port or 80)\n",
                  "README.md": "Gears.\n"}, "second")
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth=1", repo.as_uri(), str(shallow)], check=True)
    assert cli("new", "acme/gears#10", "--checkout", str(shallow), "--question", "one").code == 0
    facts = yaml.safe_load((project.root / "content/acme/gears/10/pr.yml").read_text())
    assert facts["files"] == ["path/to/module.py"]  # not both files, as if the PR added them


def test_new_reads_the_clone_mkdocs_yml_names_as_the_pr_s_source(
        project: Project, cli: CLI, checkout: tuple[Path, str, str]) -> None:
    """`sources: acme/gears: ../gears` names a clone on this machine: `new` reads it as it
    reads `--checkout`, before any fetch (before, the page cited the stand-in
    `path/to/module.py` until the author listed the files by hand)."""
    repo, _, second = checkout
    settings = project.root / "mkdocs.yml"
    settings.write_text(settings.read_text() + f"site_gen:\n  sources:\n    acme/gears: {repo}\n")
    assert cli("new", "acme/gears#9", "--head", second[:7], "--question", "one").code == 0
    facts = yaml.safe_load((project.root / "content/acme/gears/9/pr.yml").read_text())
    assert facts["files"] == ["src/widgets/core.py"]
    assert "[[core.py:10]]" in (project.root / "content/acme/gears/9/one.md").read_text()


def test_new_names_a_kotlin_test_in_backticks_as_a_reference_must(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """The function a PR changes is a Kotlin test named with spaces: `new`'s examples
    name it in backticks (before, `[[T.kt::T.rejects odd length]]`, which no build reads),
    and a hunk header naming another function is told the one that holds it, so written."""
    repo = tmp_path / "code"
    test = ("class T {\n  @Test\n  fun `rejects odd length`() {\n    check(read(3))\n  }\n"
            "  fun helper() {}\n}\n")
    commit(repo, {"src/T.kt": test.replace("read(3)", "read(1)")}, "base")
    commit(repo, {"src/T.kt": test})
    assert cli("new", "acme/gears#9", "--checkout", str(repo), "--question", "one").code == 0
    page = project.root / "content/acme/gears/9/one.md"
    text = page.read_text()
    assert "[[T.kt::T.`rejects odd length`]]" in text and "file: T.kt L4 · T.`rejects odd length`" in text
    page.write_text(text.replace("file: T.kt L4 · T.`rejects odd length`", "file: T.kt L4 · T.helper"))
    built = cli("build", "--no-search", "--checkout", f"acme/gears={repo}")
    assert "the definition that holds them is T.`rejects odd length` (L2-L5)" in built.err


def test_new_names_a_definition_so_that_the_name_finds_it_alone(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """plug's read_part_headers/2 beside its helper read_part_headers/7: `new` wrote the
    bare name, which a build refuses as ambiguous. It writes the arity where the name alone
    is shared, and an overload's parameters (Java's `A.put(int)` apart from `A.put(String)`;
    before, no name, and the page cited its class)."""
    repo = tmp_path / "code"
    elixir = ("defmodule M do\n  def read(conn, opts \\\\ []) do\n    read(conn, 1, opts)\n  end\n\n"
              "  defp read(conn, n, opts) do\n    {conn, n, opts}\n  end\nend\n")
    java = ("class A {\n  void put(int a) {\n    log(a);\n  }\n  void other() {\n  }\n"
            "  void put(String s) {\n    log(s);\n  }\n}\n")  # overloads apart: two put
    commit(repo, {"lib/m.ex": elixir.replace("read(conn, 1, opts)", "read(conn, 0, opts)"),
                  "A.java": java.replace("log(a)", "log(0)")}, "base")
    commit(repo, {"lib/m.ex": elixir, "A.java": java})
    assert cli("new", "acme/gears#9", "--checkout", str(repo), "--question", "one").code == 0
    page = (project.root / "content/acme/gears/9/one.md").read_text()  # A.java: the first
    assert "file: A.java L3 · A.put(int)\n" in page and "[[A.java::A.put(int)]]" in page
    built = cli("build", "--no-search", "--checkout", f"acme/gears={repo}")
    assert [line for line in built.err.splitlines() if "placeholder" not in line] == [], built.err
    facts = project.root / "content/acme/gears/9/pr.yml"
    facts.write_text(facts.read_text().replace('  - "A.java"\n', ""))
    assert cli("new", "acme/gears#9", "--checkout", str(repo), "--question", "two").code == 0
    page = (project.root / "content/acme/gears/9/two.md").read_text()
    assert "[[m.ex::M.read/2]]" in page and "file: m.ex L3 · M.read/2\n" in page
    (project.root / "content/acme/gears/9/one.md").unlink()
    built = cli("build", "--no-search", "--checkout", f"acme/gears={repo}")
    assert [line for line in built.err.splitlines() if "placeholder" not in line] == [], built.err


def test_new_quotes_the_start_of_a_long_line_the_pr_changes(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """Alamofire: the one line the PR changes is 71 characters, longer than a quote reads
    well, so `new` cited a line of another function. It quotes the line's start instead;
    the proposal's old line is the whole line."""
    repo = tmp_path / "code"
    long = "        return url.deletingLastPathComponent().appendingPathComponent(filename)\n"
    swift = ("class D {\n    func other() {\n        let x = 1\n    }\n"
             "    func dest(url: URL) -> URL {\n{}    }}\n}}\n")
    commit(repo, {"D.swift": swift.replace("{}", "        return url\n").replace("}}", "}")}, "base")
    commit(repo, {"D.swift": swift.replace("{}", long).replace("}}", "}")})
    assert cli("new", "acme/gears#9", "--checkout", str(repo), "--question", "one").code == 0
    page = (project.root / "content/acme/gears/9/one.md").read_text()
    assert '[[D.swift:6 "return url.deletingLastPathComponent().appendingPathComponent"]]' in page
    assert "\n-" + long in page and "[[D.swift::D.dest]]" in page
    built = cli("build", "--no-search", "--checkout", f"acme/gears={repo}")
    assert [line for line in built.err.splitlines() if "placeholder" not in line] == [], built.err


def test_new_quotes_a_line_with_quote_marks_and_lists_the_files_it_changes(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """okhttp's `Update graalvm`: the PR changes one TOML file, every line of which holds a
    `"`. No line was quotable, so `new` listed `path/to/module.py` in `files` instead of the
    file the PR changes, and the page's examples cited it: seven errors. A `"` is escaped
    in a reference's quote; `files` lists what the PR changes, example or not."""
    repo = tmp_path / "code"
    toml = '[versions]\nagp = "9.1.1"\ngraalvm = "{}"\n'
    base = commit(repo, {"gradle/libs.versions.toml": toml.format("25.0.3"), "logo.png": "x"}, "b")
    commit(repo, {"gradle/libs.versions.toml": toml.format("25.0.4")}, "Update graalvm")
    assert cli("new", "acme/gears#9", "--checkout", str(repo), "--base", base[:7],
               "--question", "one").code == 0
    facts = yaml.safe_load((project.root / "content/acme/gears/9/pr.yml").read_text())
    assert facts["files"] == ["gradle/libs.versions.toml"]
    page = (project.root / "content/acme/gears/9/one.md").read_text()
    assert '[[libs.versions.toml:3 "graalvm = \\"25.0.4\\""]]' in page
    assert 'text: graalvm = "25.0.4"\n' in page
    built = cli("build", "--no-search", "--checkout", f"acme/gears={repo}")
    assert [line for line in built.err.splitlines() if "placeholder" not in line] == [], built.err


LOGO = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR logo\nsecond row of bytes\n"


def test_new_on_a_pr_that_changes_an_image_cites_code_beside_it(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """A PR that changes only an image: `new` quoted its bytes as a line of code (a page of
    errors and unreadable quotes). It cites no binary file: another file of the head, the
    nearest the top of the tree, so the examples build; and a PR that changes an image
    and code cites the code, wherever the image sorts."""
    repo = tmp_path / "code"
    base = commit(repo, {"src/app.py": "def run(port):\n    return serve(port)\n",
                         "tests/test_app.py": "def test_run():\n    assert run(80)\n",
                         "assets/logo.png": b"\x89PNG\r\n\x00old\n"}, "base")
    commit(repo, {"assets/logo.png": LOGO}, "a new logo")
    assert cli("new", "acme/gears#9", "--checkout", str(repo), "--base", base[:7],
               "--question", "one").code == 0
    facts = yaml.safe_load((project.root / "content/acme/gears/9/pr.yml").read_text())
    assert facts["files"] == ["assets/logo.png"]
    page = (project.root / "content/acme/gears/9/one.md").read_text()
    assert '[[app.py:1 "def run(port):"]]' in page and "PNG" not in page
    built = cli("build", "--no-search", "--checkout", f"acme/gears={repo}")
    assert [line for line in built.err.splitlines() if "placeholder" not in line] == [], built.err
    assert cli("new", "acme/gears#9", "--checkout", str(repo), "--question", "two").code == 0
    assert "[[app.py:1 " in (project.root / "content/acme/gears/9/two.md").read_text()
    commit(repo, {"assets/logo.png": LOGO + b"more\n", "src/app.py": "def run(port):\n"
                  "    return serve(port or 80)\n"}, "the logo and the port")
    assert cli("new", "acme/gears#10", "--checkout", str(repo), "--question", "one").code == 0
    page = (project.root / "content/acme/gears/10/one.md").read_text()
    assert '[[app.py:2 "return serve(port or 80)"]]' in page


def test_new_on_a_pr_that_removes_a_file_lists_it_and_cites_code_beside_it(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """A PR that only deletes: `files:` was the stand-in `path/to/module.py` and the page's
    examples cited it (seven errors). It lists the file removed (a page cites it `@base`);
    a file renamed by its new name alone; the examples cite a file the head has."""
    repo = tmp_path / "code"
    base = commit(repo, {"src/old.py": "def old():\n    return 1\n",
                         "src/app.py": "def run(port):\n    return serve(port)\n",
                         "docs/guide.md": "How to run it, step by step.\n"}, "base")
    git(repo, "rm", "-q", "src/old.py")
    git(repo, "mv", "docs/guide.md", "docs/howto.md")
    git(repo, "commit", "-q", "-m", "drop old.py, rename the guide")
    assert cli("new", "acme/gears#9", "--checkout", str(repo), "--base", base[:7],
               "--question", "one").code == 0
    facts = yaml.safe_load((project.root / "content/acme/gears/9/pr.yml").read_text())
    assert facts["files"] == ["docs/howto.md", "src/old.py"]
    page = (project.root / "content/acme/gears/9/one.md").read_text()
    assert "module.py" not in page and "old.py" not in page
    built = cli("build", "--no-search", "--checkout", f"acme/gears={repo}")
    assert [line for line in built.err.splitlines() if "placeholder" not in line] == [], built.err


def test_new_escapes_a_path_a_reference_cannot_hold(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """Alamofire's `Alamofire 5.0 Migration Guide.md`: `new` wrote its name with its spaces
    into every example (a reference's path ends at a space): three errors."""
    repo = tmp_path / "code"
    base = commit(repo, {"docs/Migration Guide.md": "Version 5 is the latest release.\n"}, "b")
    commit(repo, {"docs/Migration Guide.md": "Version 6 is the latest release.\n"}, "6")
    assert cli("new", "acme/gears#9", "--checkout", str(repo), "--base", base[:7],
               "--question", "one").code == 0
    page = (project.root / "content/acme/gears/9/one.md").read_text()
    assert '[[Migration%20Guide.md:1 "Version 6 is the latest release."]]' in page
    assert "in: docs/Migration%20Guide.md\n" in page and "`docs/Migration Guide.md`" in page
    built = cli("build", "--no-search", "--checkout", f"acme/gears={repo}")
    assert [line for line in built.err.splitlines() if "placeholder" not in line] == [], built.err


def test_a_line_of_a_binary_file_is_an_error(project: Project, cli: CLI, tmp_path: Path) -> None:
    """An image has no lines: a reference to its lines linked nothing, a quote of it was
    checked against its bytes (shown in the error), an excerpt of them showed 'binary
    file, not shown'; the file itself is cited whole."""
    repo = tmp_path / "code"
    head = commit(repo, {"assets/logo.png": LOGO})
    project.write("content/acme/gears/9/pr.yml", f"repo: acme/gears\nnumber: 9\ntitle: T\n"
                  f"head: {head}\nstate: open\nfiles:\n  - assets/logo.png\n")
    project.write("content/acme/gears/9/one.md", "---\ntitle: T\nquestion: one\norder: 1\n"
                  "status: open\nupdated: 2026-12-04\n---\n\nThe logo, [[logo.png]], is new; "
                  '[[logo.png:2]] and\n[[logo.png:1 "PNG"]] are not lines.\n\n'
                  "```excerpt\n[[logo.png:1-2]]\n```\n")
    built = cli("build", "--no-search", "--checkout", f"acme/gears={repo}")
    assert built.code == 1
    assert built.err.splitlines()[:2] == [
        f"content/acme/gears/9/one.md:{n}: '{ref}' cites lines of assets/logo.png, a binary file at "
        f"commit {head[:7]} (an image, an archive: it has no lines to link, quote or show); "
        "expected a reference to the file whole, without lines or a quote"
        for n, ref in ((9, "[[logo.png:2]]"), (10, '[[logo.png:1 "PNG"]]'))]
    assert "'[[logo.png:1-2]]' cites lines of assets/logo.png" in built.err  # nor shown


def test_new_cites_the_code_a_pr_changes_before_its_tests(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """retrofit: RetrofitTest.java sorts before Retrofit.java, and the examples cited a
    line of the test. They cite the code the PR changes; pr.yml lists both as git does."""
    repo = tmp_path / "code"
    code = "class R {\n  Object load(int m) {\n    return cache(m);\n  }\n}\n"
    test = "class RTest {\n  void fails() {\n    assertThrows(load(0));\n  }\n}\n"
    commit(repo, {"java-test/RTest.java": test.replace("load(0)", "load(1)"),
                  "main/R.java": code.replace("cache(m)", "m")}, "base")
    commit(repo, {"java-test/RTest.java": test, "main/R.java": code})
    assert cli("new", "acme/gears#9", "--checkout", str(repo), "--question", "one").code == 0
    facts = yaml.safe_load((project.root / "content/acme/gears/9/pr.yml").read_text())
    assert facts["files"] == ["java-test/RTest.java", "main/R.java"]
    page = (project.root / "content/acme/gears/9/one.md").read_text()
    assert '[[R.java:3 "return cache(m);"]]' in page and "[[R.java::R.load]]" in page


@pytest.mark.parametrize(("path", "aside"), [
    ("retrofit/java-test/src/test/java/retrofit2/RetrofitTest.java", True),
    ("examples/complete/main.tf", True), ("tests/test_a.py", True), ("src/a_test.go", True),
    ("web/x.test.ts", True), ("spec/foo_spec.rb", True), ("Tests/SessionTests.swift", True),
    ("src/IOTest.kt", True), ("main.tf", False), ("app/Attest.java", False),
    ("src/latest.py", False), ("contest/x.py", False), ("src/testing.py", False),
])
def test_new_tells_tests_and_examples_from_the_code(path: str, aside: bool) -> None:
    from site_gen.new_pr import is_test_or_example

    assert is_test_or_example(path) is aside


def test_new_fills_in_the_stand_in_files_once_the_code_is_here(
        project: Project, cli: CLI, checkout: tuple[Path, str, str]) -> None:
    repo, _, second = checkout
    assert cli("new", "acme/gears#9", "--head", second, "--title", "Gears").code == 0
    added = cli("new", "acme/gears#9", "--question", "two", "--checkout", str(repo))
    assert added.out.splitlines() == ["Created content/acme/gears/9/two.md",
                                      "Filled in the files of content/acme/gears/9/pr.yml"]
    facts = yaml.safe_load((project.root / "content/acme/gears/9/pr.yml").read_text())
    assert facts["files"] == ["src/widgets/core.py"]
    assert "[[core.py:10]]" in (project.root / "content/acme/gears/9/two.md").read_text()


def test_new_on_a_pr_without_its_code_cites_a_file_pr_yml_lists(project: Project,
                                                               cli: CLI) -> None:
    assert cli("new", "acme/widgets#12", "--question", "another").code == 0
    page = (project.root / "content/acme/widgets/12/another.md").read_text()
    assert "[[core.py:12]]" in page and "module.py" not in page
    built = cli("build", "--no-search")
    assert built.code == 0, built.err


def test_check_reports_every_problem_and_writes_nothing(project: Project, cli: CLI) -> None:
    project.write("content/acme/widgets/12/cache-bug.md",
                  front("T", "q", "open") + "[[nope.py:1]]\n\n"
                  "[x](#no-such-heading)\n\n## A heading\n\n[y](#a-heading)\n")
    result = cli("check")
    assert result.code == 1
    assert result.err.splitlines() == [
        "content/acme/widgets/12/cache-bug.md:6: unknown file 'nope.py' in '[[nope.py:1]]'; it "
        "is not among the files listed in pr.yml (nearest by name: src/widgets/core.py, "
        "src/widgets/util.py, docs/speed.md)",
        "content/acme/widgets/12/cache-bug.md:8: link to '#no-such-heading' names no "
        "heading or element '#no-such-heading' on that page",
        "Check failed: 2 error(s); 0 warning(s).",
    ]
    assert not project.site.exists()


def test_check_fails_on_anything_it_reports(project: Project, cli: CLI) -> None:
    ok = cli("check")
    assert (ok.code, ok.out, ok.err) == (0, "No problems in 6 pages.\n", "")
    project.write("mkdocs.yml", (project.root / "mkdocs.yml").read_text() + "typo: 1\n")
    warned = cli("check")
    assert warned.code == 1
    assert warned.err.splitlines()[-1] == "Check found 1 warning in 6 pages."


def test_the_pre_commit_hook_runs_check(project: Project) -> None:
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "site-gen-check"
    assert hook["entry"].split()[:2] == ["site-gen", "check"]
    assert hook["pass_filenames"] is False and hook["language"] == "python"
    entry = [sys.executable, "-m", "site_gen", *hook["entry"].split()[1:]]
    assert subprocess.run(entry, cwd=project.root, capture_output=True).returncode == 0


def _read_all(leader: int) -> bytes:
    """Everything the other end of a pseudo-terminal wrote, once it is closed. One read
    may return only part of it: the kernel hands a terminal's output to its reader in
    steps, and on a busy machine the last step may come after the writer ended."""
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the other end is closed and all it wrote was read
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def test_progress_on_a_terminal_and_one_line_otherwise(project: Project) -> None:
    from benchmarks.sample import write_site

    write_site(project.root, 30)
    command = [sys.executable, "-m", "site_gen", "build", "--no-search", "--jobs", "1"]
    plain = subprocess.run(command, cwd=project.root, capture_output=True, text=True)
    assert plain.returncode == 0
    assert plain.stderr == "" and len(plain.stdout.splitlines()) == 1
    leader, follower = pty.openpty()
    done = subprocess.run([*command, "--no-cache"], cwd=project.root, stdout=subprocess.PIPE, stderr=follower,
                          text=True)
    os.close(follower)
    shown = _read_all(leader).decode()
    os.close(leader)
    assert done.returncode == 0
    assert "\r\033[KRendering pages: 1/31" in shown and "Rendering pages: 31/31" in shown  # 30 + 1
    assert shown.endswith("\r\x1b[K")




def test_new_names_the_example_s_definition_as_mkdocs_yml_says_the_file_is_written(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """A header of C++ with no mark of C++ (see filetypes) is C++ when mkdocs.yml says so:
    the first page's hunk names the member function that holds the line it cites, as the
    build will check it."""
    from .conftest import commit

    repo = tmp_path / "geometry"
    commit(repo, {"point.h": "#pragma once\nstruct [[nodiscard]] Point {\n  int x[2];\n};\n"})
    commit(repo, {"point.h": "#pragma once\nstruct [[nodiscard]] Point {\n  int x[2];\n"
                             "  int norm() const {\n    return x[0];\n  }\n};\n"})  # line 4:
    # the first that reads well as a quote (none with a bracket)
    project.write("mkdocs.yml", (project.root / "mkdocs.yml").read_text()
                  + "site_gen:\n  languages:\n    h: cpp\n")
    assert cli("new", "acme/geometry#3", "--checkout", str(repo), "--question", "norm").code == 0
    page = (project.root / "content/acme/geometry/3/norm.md").read_text()
    assert "file: point.h L4 · Point.norm\n" in page
