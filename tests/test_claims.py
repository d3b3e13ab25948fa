"""Claims, symbols and hunk headers checked against a pinned tree: a local repository of
training loops that each pass a wait function (as the model page's callers do), in Python
and JavaScript."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from site_gen.blocks.claim import UNMATCHED_HINTS
from site_gen.content import PullRequest
from site_gen.git_reader import SourceReader
from site_gen.highlight import _lexer_name
from site_gen.statuses import DEFAULT_STATUSES

from .blockutil import render
from .conftest import Project, Run, commit, git

CLI = Callable[..., Run]
STYLESHEET = Path(__file__).parent.parent / "templates/site.css"

LOOP = """\
from utils.checkpoint import save_checkpoint


def train(steps):
    for step in range(steps):
        save_checkpoint(step, wait_fn=finalize_{name})
"""
CHECKPOINT = """\
class Saver:
    def save(self, step):
        def _finalize():
            return step
        return _finalize


class Loader:
    def save(self):
        pass


def save_checkpoint(step, wait_fn=None):
    tag = wait_fn is not None
    return tag
"""
APP = """\
export function handler(request) {
  return api.fetch(request, { timeout: 5 });
}

class Api {
  fetch(request, options) {
    return request;
  }
}
"""


@pytest.fixture(scope="module")
def code(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """The repository and its commits: the base, the PR head (it changes checkpoint.py and
    adds app.js), and a later commit with a loop that passes no wait function."""
    repo = tmp_path_factory.mktemp("claims") / "code"
    (repo / "src/train").mkdir(parents=True)
    (repo / "src/utils").mkdir()
    (repo / "web").mkdir()
    for name in ("grpo", "sft", "dpo"):
        (repo / f"src/train/{name}.py").write_text(LOOP.format(name=name))
    (repo / "src/utils/checkpoint.py").write_text(CHECKPOINT.replace("    tag = wait_fn is not None\n", ""))
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    commits = [git(repo, "rev-parse", "HEAD")]
    (repo / "src/utils/checkpoint.py").write_text(CHECKPOINT)
    (repo / "web/app.js").write_text(APP)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "head")
    commits.append(git(repo, "rev-parse", "HEAD"))
    (repo / "src/train/rm.py").write_text(LOOP.replace(", wait_fn=finalize_{name}", ""))
    (repo / "src/broken").mkdir()
    (repo / "src/broken/broken.py").write_text("def f(:\n    save_checkpoint(1)\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "later")
    commits.append(git(repo, "rev-parse", "HEAD"))
    return repo, commits


PR = PullRequest(Path("pr.yml"), "acme/trainer", 7, "T", "0" * 40, None, DEFAULT_STATUSES["open"],
                 (), ())


def check(code: tuple[Path, list[str]], text: str, head: int = 1) -> tuple[str, list[str]]:
    repo, commits = code
    pr = dataclasses.replace(PR, head=commits[head], base=commits[0])
    reader = SourceReader(repo)
    try:
        html, errors, _ = render(text, reader, pr)
    finally:
        reader.close()
    return html, errors


CALLERS = ("```claim\nid: callers\nsays: every training loop passes a wait function\n"
           "count: all\npattern: save_checkpoint($$$ARGS)\nwhere: wait_fn=\nin: src/train\n```\n")


def test_a_claim_that_holds_shows_its_count_and_every_site(code: tuple[Path, list[str]]) -> None:
    html, errors = check(code, "All [[claim:callers]] loops wait.\n\n" + CALLERS)
    assert errors == []
    assert "✓</span> Holds" in html and "All 3 matches hold <code>wait_fn=</code>" in html
    assert "in <code>src/train</code>, 3 files read at" in html  # what it rests on
    assert html.count('<li class="claim-counted">') == 3
    assert "src/train/grpo.py:6</a> <code class=\"claim-code\">save_checkpoint(step, " in html
    # the loops are files the PR does not change (it changes checkpoint.py)
    assert html.count("not changed by this PR") == 3
    assert f'href="https://github.com/acme/trainer/blob/{code[1][1]}/src/train/dpo.py#L6"' in html
    assert '<a class="claim-ref" href="#claim-callers" title="every training loop passes a ' \
           f'wait function (counted at {code[1][1][:7]})">3</a>' in html
    assert 'id="claim-callers"' in html


def test_a_caller_that_does_not_make_the_claim_an_error_at_its_count_line(
        code: tuple[Path, list[str]]) -> None:
    _, errors = check(code, "Intro.\n\n" + CALLERS, head=2)
    assert errors == [
        f"6: the claim 'every training loop passes a wait function' does not hold at "
        f"{code[1][2][:7]}: 1 of 4 matches does not hold 'wait_fn=': src/train/rm.py:6"]


def test_a_count_that_falls_short_names_the_lines_where_its_word_stands_unmatched(
        tmp_path: Path) -> None:
    """Alamofire#3999: `processNext()` counted 2 of the 3 places the author saw; the third,
    `self.processNext()` in a closure, is another pattern. The error names each other line
    where every word of the pattern's first line stands as code, with its code: not the
    line that defines it, nor one where it stands in a comment, a string or an import; a
    keyword too (a modifier the pattern does not write is a usual miss)."""
    checked, head = _checker(tmp_path, {
        "Request.swift": ("final class Request {\n    func finish() {\n        processNext()\n"
                          "    }\n    func append() {\n        queue.async { self.processNext() }\n"
                          "    }\n    /// Calls processNext() once.\n    func processNext() {\n"
                          "        log(\"processNext\")\n    }\n    func done() {\n"
                          "        processNext()\n    }\n    private func helper() -> Int { 1 }\n}\n"),
        "use.py": ("from request import processNext\n\n\ndef run(r):\n    processNext()\n"
                   + "".join(f"    r{n}.processNext()\n" for n in range(7)))})
    claim = "```claim\nsays: x\ncount: {count}\npattern: processNext()\nin: {scope}\n```\n"
    _, errors = checked(claim.format(count=3, scope="Request.swift"))
    assert errors == [
        f"3: the claim 'x' does not hold at {head[:7]}: counted 2, not 3: Request.swift:3, "
        "Request.swift:13; 1 other line holds 'processNext' as code where the pattern matches "
        "nothing: Request.swift:6 'queue.async { self.processNext() }'"]
    _, errors = checked(claim.format(count=9, scope="use.py"))  # the first five, then how many
    assert errors == [
        f"3: the claim 'x' does not hold at {head[:7]}: counted 1, not 9: use.py:5; 7 other "
        "lines hold 'processNext' as code where the pattern matches nothing: use.py:6 "
        "'r0.processNext()', use.py:7 'r1.processNext()', use.py:8 'r2.processNext()', use.py:9 "
        "'r3.processNext()', use.py:10 'r4.processNext()' and 2 more"]
    _, errors = checked(claim.replace("processNext()", "r0.processNext($X)").format(
        count=1, scope="use.py"))  # where each word stands: not every line of 'processNext'
    assert errors == [
        f"3: the claim 'x' does not hold at {head[:7]}: counted 0, not 1; 1 other line holds "
        "'r0' and 'processNext' as code where the pattern matches nothing: use.py:6 "
        "'r0.processNext()'"]
    _, errors = checked(claim.format(count=1, scope="Request.swift"))  # more than it says
    assert errors == [f"3: the claim 'x' does not hold at {head[:7]}: counted 2, not 1: "
                      "Request.swift:3, Request.swift:13"]
    # each word of the pattern's first line, keywords too: where all stand, unmatched
    _, errors = checked("```claim\nsays: x\ncount: 5\npattern: func $F($$$A) { $$$B }\n"
                        "in: Request.swift\n```\n")
    assert errors == [
        f"3: the claim 'x' does not hold at {head[:7]}: counted 4, not 5: Request.swift:2, "
        "Request.swift:5, Request.swift:9, Request.swift:12; 1 other line holds 'func' as code "
        "where the pattern matches nothing: Request.swift:15 'private func helper() -> Int { 1 }'"]


@pytest.mark.parametrize(("at", "expected"), [
    ("base", "4: 'at: base' pins the PR's base, but pr.yml has no 'base' commit"),
    ("0123abc", "4: 'at: 0123abc' names no commit of the code here; run 'site-gen fetch' (it "
                "fetches every commit the pages pin)"),
])
def test_a_claim_counted_at_a_commit_not_here_says_why(code: tuple[Path, list[str]], at: str,
                                                        expected: str) -> None:
    repo, commits = code
    reader = SourceReader(repo)
    try:
        _, errors, _ = render(f"```claim\nsays: x\ncount: 1\nat: {at}\ntext: x\n```\n", reader,
                              dataclasses.replace(PR, head=commits[1]))
    finally:
        reader.close()
    assert errors == [expected]


@pytest.mark.parametrize(("fields", "expected"), [
    ("count: 3\npattern: save_checkpoint($$$ARGS)\nin: src/train", []),
    ("count: 4\npattern: save_checkpoint($$$ARGS)\nin: src/train",
     ["3: the claim 'x' does not hold at {head}: counted 3, not 4: src/train/dpo.py:6, "
      "src/train/grpo.py:6, src/train/sft.py:6"]),
    ("count: none\npattern: save_checkpoint($S, wait_fn=None)", []),
    ("count: none\npattern: save_checkpoint($$$ARGS)\nwhere: wait_fn=None\nin: src/train", []),
    # no match at all: that none holds 'where' says nothing (a pattern mistyped, say)
    ("count: none\npattern: save_checkpiont($$$ARGS)\nwhere: wait_fn=None\nin: src/train",
     ["3: the claim 'x' does not hold at {head}: nothing matches at all, so that none holds "
      "'wait_fn=None' says nothing; to claim that nothing matches, leave 'where:' out"]),
    # what the code says against 'none': each site, counted as a reader counts them
    ("count: none\ntext: wait_fn=finalize_\nin: src/train/grpo.py",
     ["3: the claim 'x' does not hold at {head}: 1 match: src/train/grpo.py:6"]),
    ("count: none\ntext: save_checkpoint\nwhere: wait_fn=finalize_\nin: src/train",
     ["3: the claim 'x' does not hold at {head}: 3 matches hold 'wait_fn=finalize_': "
      "src/train/dpo.py:6, src/train/grpo.py:6, src/train/sft.py:6"]),
    ("count: 2\ntext: wait_fn=finalize_\nin: src/train/grpo.py, src/train/sft.py", []),
    ("count: 1\ntext: tag = wait_fn is not None", []),
    ("count: 0\ntext: tag = wait_fn is not None\nat: base", []),  # the line the PR adds
    ("count: 1\ntext: x\nin: src/nowhere", ["5: 'in: src/nowhere' names no file or folder at "
                                            "commit {head}; expected a path from the tree's "
                                            "root, or a glob such as '*.py'"]),
    # globs, as .gitignore reads them, and '!' to leave out: the loops pass wait_fn on
    # three lines, checkpoint.py names it on two, app.js never
    ("count: 5\ntext: wait_fn\nin: *.py", []),
    ("count: 3\ntext: wait_fn\nin: src/**/*.py !src/utils/", []),
    ("count: 2\ntext: wait_fn\nin: !src/train/", []),
    ("count: 4\ntext: request\nin: web/*.js", []),
    ("count: 0\ntext: request\nin: src/*.js", ["5: 'in: src/*.js' matches no file at commit "
                                               "{head}"]),
    ("count: 1\ntext: x\nin: grpo.py train", [
        "5: 'in: grpo.py' names no file or folder at commit {head}; expected a path from the "
        "tree's root, such as src/train/grpo.py"]),
    ("count: 1\ntext: x\nin: train", [
        "5: 'in: train' names no file or folder at commit {head}; expected a path from the "
        "tree's root, such as src/train"]),
    ("count: 1\npattern: $A.fetch($R, $$$)\nin: web/", []),  # JavaScript
    ("count: 2\ntext: wait_fn\nwhere: wait_fn=\nin: src/utils/", [  # says what 'where' kept
        "3: the claim 'x' does not hold at {head}: counted 1 holding 'wait_fn=' (of 2 "
        "matches), not 2: src/utils/checkpoint.py:13"]),
    # a definition as a scope: its lines only, or (with '!') all but its lines
    ("count: 2\ntext: return\nin: src/utils/checkpoint.py::Saver.save", []),
    ("count: 2\ntext: return\nin: src/utils/checkpoint.py !src/utils/checkpoint.py::_finalize",
     []),
    ("count: 2\ntext: return\nin: src/utils/checkpoint.py::_finalize "
     "src/utils/checkpoint.py::save_checkpoint", []),
    ("count: 1\ntext: x\nin: src/utils/checkpoint.py::nothing", [
        "5: unknown symbol 'nothing' in 'in: src/utils/checkpoint.py::nothing': "
        "src/utils/checkpoint.py defines no such name at commit {head} (nearest: "
        "save_checkpoint (L13-L15), Saver.save._finalize (L3-L4), Loader (L8-L10))"]),
    ("count: 1\ntext: x\nin: src/utils::save", [
        "5: 'in: src/utils::save' names a definition, but src/utils names no file at commit "
        "{head}; expected 'path/of/file.py::name', a file as a reference names one"]),
    # the file as a reference names it: any tail that names one file
    ("count: 2\ntext: return\nin: checkpoint.py::Saver.save", []),
    ("count: 2\ntext: return\nin: src/utils/checkpoint.py !utils/checkpoint.py::_finalize", []),
    ("count: all\npattern: save_checkpoint($$$A)", ["3: 'count: all' says every match holds "
                                                    "something: give it as 'where:' (a text) or "
                                                    "'inside:' (code it stands inside)"]),
    ("count: some\ntext: x", ["3: 'count: some' is not a count; expected a number, 'all' or "
                              "'none'"]),
    ("count: 1\ntext: \"tag = wait_fn is not None\"",  # a claim's lines are not YAML
     ["3: the claim 'x' does not hold at {head}: counted 0, not 1; the quotes are part of the "
      "text: write 'text: tag = wait_fn is not None'"]),
    ("count: 3\npattern: \"save_checkpoint($$$ARGS)\"\nin: src/train",  # and a pattern's
     ["3: the claim 'x' does not hold at {head}: counted 0, not 3; the quotes are part of the "
      "pattern: write 'pattern: save_checkpoint($$$ARGS)'"]),
])
def test_claim_counts(code: tuple[Path, list[str]], fields: str, expected: list[str]) -> None:
    _, errors = check(code, f"```claim\nsays: x\n{fields}\n```\n")
    assert errors == [e.format(head=code[1][1][:7]) for e in expected]


def test_a_claim_says_what_it_counted_in_and_what_it_left_out(
        code: tuple[Path, list[str]]) -> None:
    html, errors = check(code, "```claim\nsays: x\ncount: 3\ntext: wait_fn\n"
                               "in: src/**/*.py !src/utils/\n```\n")
    assert errors == []
    assert ("<code>wait_fn</code> in <code>src/**/*.py</code> but not in <code>src/utils/</code>, "
            "3 files read at ") in html
    html, errors = check(code, "```claim\nsays: x\ncount: 2\ntext: wait_fn\nin: !src/train/\n```\n")
    assert errors == [] and "<code>wait_fn</code> outside <code>src/train/</code>, 2 files read at " in html
    # a definition it counts in, or leaves out, links its lines at the commit
    html, errors = check(code, "```claim\nsays: x\ncount: 1\ntext: return\n"
                               "in: src/utils/checkpoint.py !src/utils/checkpoint.py::Saver.save\n```\n")
    head = code[1][1]
    assert errors == []
    assert (f'but not in <a class="ref" href="https://github.com/acme/trainer/blob/{head}/'
            f'src/utils/checkpoint.py#L2-L5" title="src/utils/checkpoint.py::Saver.save at '
            f'{head[:7]}"><code>src/utils/checkpoint.py::Saver.save</code></a>, 1 file read at ') in html


def test_a_claim_in_a_name_counts_in_every_definition_that_shares_it(tmp_path: Path) -> None:
    """A name that several definitions share whole (Java overloads apart from each other,
    the branches of a Haskell `#if`) scopes a claim to all of them, each linked by its
    lines: before, `in:` refused it as ambiguous and told to cite lines, which `in:` does
    not take. A name that only ends several names is still an error."""
    checked, head = _checker(tmp_path, {"Client.java": (
        "class Client {\n  void send(int a) {\n    log(a);\n  }\n  int size() { log(0); return 0; }\n"
        "  void send(int a, int b) {\n    log(a);\n    log(b);\n  }\n}\n"
        "class Other {\n  void send() { log(1); }\n}\n")})
    claim = "```claim\nsays: x\ncount: 3\ntext: log(\nin: Client.java::{name}\n```\n"
    html, errors = checked(claim.format(name="Client.send"))
    assert errors == []
    base = f"https://github.com/acme/trainer/blob/{head}/Client.java"
    assert (f'<code>Client.java::Client.send</code> (<a class="ref" href="{base}#L2-L4" '
            f'title="Client.java::Client.send L2-L4 at {head[:7]}">L2-L4</a>, <a class="ref" '
            f'href="{base}#L6-L9" title="Client.java::Client.send L6-L9 at {head[:7]}">L6-L9</a>)'
            ) in html
    _, errors = checked(claim.format(name="send"))
    assert errors == ["5: ambiguous symbol 'send' in 'in: Client.java::send': it names "
                      "Client.send (L2-L4), Client.send (L6-L9), Other.send (L12); write more "
                      "of the dotted name"]


def test_a_claim_in_a_name_of_a_file_two_paths_end_with_says_so(tmp_path: Path) -> None:
    """`in: util.py::run` where the tree has a/util.py and b/util.py: which one is not
    for the build to guess (as for a reference); pr.yml's files, when one is listed, say."""
    repo, head = _one_commit(tmp_path, {"a/util.py": "def run():\n    log(1)\n",
                                        "b/util.py": "def run():\n    log(2)\n    log(3)\n"})
    claim = "```claim\nsays: x\ncount: 2\ntext: log(\nin: util.py::run\n```\n"
    reader = SourceReader(repo)
    try:
        _, errors, _ = render(claim, reader, dataclasses.replace(PR, head=head))
        assert errors == [
            f"5: 'in: util.py::run' names a definition, but util.py names 2 files at commit "
            f"{head[:7]} (a/util.py, b/util.py); write more of the path"]
        listed = dataclasses.replace(PR, head=head, files=("b/util.py",))
        _, errors, _ = render(claim, reader, listed)
        assert errors == []
    finally:
        reader.close()


def test_a_definition_s_own_name_in_code_not_read_does_not_refuse_its_calls(
        tmp_path: Path) -> None:
    """fmt's format.h: an `#ifdef` opening a namespace in each branch leaves the header
    one stretch the grammar does not read, in which ast-grep still finds the calls. The
    line `FMT_CONSTEXPR auto chr(...)` holds the word only as the name it defines (the walk
    finds the definition): before, that line refused the claim as a call maybe missed."""
    header = ("#ifdef X\nnamespace a {\n#else\nnamespace b {\n#endif\n"
              "template <typename T>\nFMT_CONSTEXPR auto chr(T v) -> T { return v; }\n"
              "int f() { return chr<int>(1); }\nint g() { return chr<int>(2); }\n}\n")
    _, errors = _claimed(tmp_path, "fmt.hpp", header, "count: 2\npattern: chr<$T>($$$A)")
    assert errors == []
    # a use the parser did not read is still no count to trust
    _, errors = _claimed(tmp_path / "more", "fmt.hpp", header.replace(
        "int g()", "FMT_CONSTEXPR int h() { return chr(3) }\nint g()"),
        "count: 2\npattern: chr<$T>($$$A)")
    assert len(errors) == 1 and "does not parse as cpp at line 9, which holds 'chr'" in errors[0]


def test_a_claim_in_a_kotlin_test_named_in_backticks(tmp_path: Path) -> None:
    """`in:` is split at spaces, but not inside backticks, as a reference reads a name
    (before, ``T.kt::`rejects odd length` `` was three scopes: 'T.kt::`rejects', 'odd'...)."""
    checked, _ = _checker(tmp_path, {"T.kt": (
        "class T {\n  @Test\n  fun `rejects odd length`() {\n"
        "    assertFailsWith<ProtocolException> { read() }\n  }\n  @Test\n"
        "  fun `reads even length`() {\n    assertFailsWith<IOException> { read() }\n  }\n}\n")})
    _, errors = checked("```claim\nsays: x\ncount: 1\npattern: assertFailsWith<$E> { $$$B }\n"
                        "in: T.kt::`rejects odd length`\n```\n")
    assert errors == [], errors
    html, errors = checked("```claim\nsays: x\ncount: 2\npattern: assertFailsWith<$E> { $$$B }\n"
                           "in: T.kt::`rejects odd length`, T.kt::T.`reads even length`\n```\n")
    assert errors == []
    assert "<code>T.kt::`rejects odd length`</code>" in html


@pytest.mark.parametrize(("fields", "line"), [
    ("count: 1\npattern: {}", 4),
    ("count: all\npattern: H()\ninside: {}", 5),  # the one of the two ast-grep cannot read
])
def test_a_pattern_that_is_a_part_of_a_statement_says_what_a_pattern_is(
        tmp_path: Path, fields: str, line: int) -> None:
    """serilog: `catch ($T $E) { $$$B }` alone was no C# code ast-grep reads (a clause is
    now read in its statement: see test_a_clause_of_a_statement_is_read_in_the_statement);
    a part of a declaration, `where $T : class`, is none either, and the error says what
    would be."""
    code = ("class A {\n  void F<T>() where T : class {\n    try { G(); } catch (Exception e) "
            "{ H(); }\n  }\n}\n")
    _, errors = _claimed(tmp_path, "A.cs", code, fields.format("where $T : class"))
    field = fields.splitlines()[-1].partition(":")[0]
    assert errors == [f"{line}: '{field}: where $T : class' is not an ast-grep pattern of csharp "
                      "(for A.cs); expected code that reads whole where a function's body has a "
                      "statement, or a clause of one ('catch (...) {...}', 'case 1:'), not a "
                      "part of a declaration, $X for one node and $$$X for any number"]
    _, errors = _claimed(tmp_path / "whole", "A.cs", code,
                         fields.format("catch ($T $E) { $$$B }"))
    assert errors == []


def test_a_pattern_ast_grep_cannot_read_is_told_once_not_for_every_file(tmp_path: Path) -> None:
    """Each file of `in:` that held the pattern's word said the pattern could not be read:
    one error a file, the same but for the file's name."""
    code = "class {} {{\n  void F<T>() where T : class {{\n    G();\n  }}\n}}\n"
    checked, _ = _checker(tmp_path, {f"src/{n}.cs": code.format(n) for n in "ABC"})
    _, errors = checked("```claim\nsays: x\ncount: 1\npattern: where $T : class\n"
                        "in: src/\n```\n")
    assert errors == ["4: 'pattern: where $T : class' is not an ast-grep pattern of csharp "
                      "(for src/A.cs); expected code that reads whole where a function's body "
                      "has a statement, or a clause of one ('catch (...) {...}', 'case 1:'), not "
                      "a part of a declaration, $X for one node and $$$X for any number"]


def test_a_claim_that_fails_is_told_once_not_again_where_its_count_is_written(
        code: tuple[Path, list[str]]) -> None:
    _, errors = check(code, "All [[claim:callers]] loops wait.\n\n" + CALLERS, head=2)
    assert len(errors) == 1 and errors[0].startswith("6: the claim 'every training loop")
    _, errors = check(code, "All [[claim:nobody]] loops wait.\n\n" + CALLERS, head=2)
    assert errors[0] == ("1: '[[claim:nobody]]' names no claim of this page; expected the id "
                         "of a claim block (ids here: callers)")


def test_a_file_that_does_not_parse_where_a_match_could_stand_is_a_clear_error(
        code: tuple[Path, list[str]], tmp_path: Path) -> None:
    """A file is refused where the pattern's word stands, outside the matches found and
    outside comments, in code the parser could not read (a match there may be missed), or
    anywhere for a pattern without a word. Elsewhere its matches are counted: before, one
    unreadable line anywhere refused the whole file, and with it most C files (hiredis.c's
    `va_arg(ap, char*)`) and C++ headers (fmt's format.h is one ERROR node)."""
    _, errors = check(code, "```claim\nsays: x\ncount: 1\npattern: save_checkpoint($$$A)\n"
                            "in: src/broken/broken.py\n```\n", head=2)
    assert errors == []  # `def f(:` on line 1; the call on line 2 reads whole
    repo, head = _one_commit(tmp_path, {
        "hiredis.c": "void f(va_list ap) {\n    char *s = va_arg(ap, char*);\n"
                     "    freeReplyObject(r);\n    if (s) freeReplyObject(s);\n}\n",
        "broken.py": "save_checkpoint(1)\nsave_checkpoint(2, ]\n",
        # a header whose branches open two namespaces: one ERROR node over the whole file,
        # inside which ast-grep still finds the call; the comment cannot hold a match
        "format.h": "#ifndef X_H_\n#define X_H_\n#if A\nnamespace a {\n#else\nnamespace b {\n"
                    "#endif\ninline int clz(int x) {\n  FMT_ASSERT(x != 0, \"\");\n"
                    "  // FMT_ASSERT(x) holds here\n  return x;\n}\n}\n#endif\n",
        "other.h": "#ifndef X_H_\n#if A\nnamespace a {\n#else\nnamespace b {\n#endif\n"
                   "int f() { return FMT_ASSERT; }\n}\n#endif\n"})
    claim = "```claim\nsays: x\ncount: {count}\npattern: {pattern}\nin: {path}\n```\n"
    for path, pattern, count, expected in (
            ("hiredis.c", "freeReplyObject($$$)", 2, None),
            ("hiredis.c", "va_arg($$$)", 1, None),  # found inside the code it cannot read
            ("hiredis.c", "$F($$$)", 1, "hiredis.c does not parse as c (first at line 2)"),
            ("broken.py", "save_checkpoint($$$)", 2, "broken.py does not parse as python at "
                                                      "line 2, which holds 'save_checkpoint'"),
            ("format.h", "FMT_ASSERT($$$)", 1, None),
            ("other.h", "FMT_ASSERT($$$)", 0, "other.h does not parse as cpp at line 7, which "
                                               "holds 'FMT_ASSERT'")):
        _, errors = check((repo, [head, head]), claim.format(count=count, pattern=pattern,
                                                              path=path))
        assert errors == ([f"4: {expected}, so the claim cannot be counted there; narrow "
                           "'in:' or count with 'text:'"] if expected else []), pattern


def test_without_the_code_a_claim_is_shown_as_not_checked() -> None:
    html, errors, _ = render("```claim\nsays: x\ncount: 12\ntext: y\n```\n")
    assert errors == []
    assert "Not checked" in html and "its count (12) is the page's word" in html


@pytest.mark.parametrize(("ref", "expected"), [
    ("[[checkpoint.py::Saver.save._finalize]]", "#L3-L4"),
    ("[[checkpoint.py::_finalize]]", "#L3-L4"),  # any unique tail
    ("[[checkpoint.py::save_checkpoint]]", "#L13-L15"),
    ("[[checkpoint.py::save_checkpoint@base]]", "#L13-L14"),  # the base has one line less
    ("[[app.js::Api.fetch]]", "#L6-L8"),
    ("[[app.js::handler]]", "#L1-L3"),
])
def test_symbol_references_link_the_definition(code: tuple[Path, list[str]], ref: str,
                                               expected: str) -> None:
    html, errors = check(code, f"See {ref}.\n")
    assert errors == []
    assert expected + '"' in html


@pytest.mark.parametrize(("ref", "expected"), [
    ("[[checkpoint.py::save]]", "1: ambiguous symbol 'save' in '[[checkpoint.py::save]]': it "
                                "names Saver.save (L2-L5), Loader.save (L9-L10); write more of "
                                "the dotted name"),
    ("[[checkpoint.py::Saver.sav]]", "1: unknown symbol 'Saver.sav' in "
                                     "'[[checkpoint.py::Saver.sav]]': src/utils/checkpoint.py "
                                     "defines no such name at commit {head} (nearest: Saver.save "
                                     "(L2-L5), Loader.save (L9-L10), Saver (L1-L5))"),
])
def test_an_unknown_or_ambiguous_symbol_names_the_nearest(code: tuple[Path, list[str]], ref: str,
                                                          expected: str) -> None:
    _, errors = check(code, f"See {ref}.\n")
    assert errors == [expected.format(head=code[1][1][:7])]


HUNK = ("```proposal\nfile: checkpoint.py L14 · {symbol}\n@@ -14,1 +14,1 @@\n"
        "-    tag = wait_fn is not None\n+    tag = bool(wait_fn)\n```\n")


@pytest.mark.parametrize(("symbol", "expected"), [
    ("save_checkpoint", []),
    ("Saver.save", ["2: '· Saver.save' in 'file: checkpoint.py L14' is not a definition that "
                    "holds L14 at commit {head}; the definition that holds them is "
                    "save_checkpoint (L13-L15)"]),
    ("⟨the function it changes⟩", []),  # new's stand-in: a placeholder, reported as one
])
def test_a_hunk_header_names_the_definition_that_holds_its_lines(
        code: tuple[Path, list[str]], symbol: str, expected: list[str]) -> None:
    _, errors = check(code, HUNK.format(symbol=symbol))
    assert errors == [e.format(head=code[1][1][:7]) for e in expected]


@pytest.mark.parametrize("symbol", ["_finalize", "save._finalize", "Saver.save._finalize",
                                    "Saver.save", "Saver", "_finalize()", "Saver.save(step)"])
def test_a_hunk_header_may_name_any_tail_of_a_definition_that_holds_it(
        code: tuple[Path, list[str]], symbol: str) -> None:
    _, errors = check(code, f"```proposal\nfile: checkpoint.py L4 · {symbol}\n@@ -4,1 +4,1 @@\n"
                            "-            return step\n+            return step + 1\n```\n")
    assert errors == []


def _parses_from_now_on(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The language of each text code_index parses from now on, as in a new process (what
    it parsed and answered before forgotten)."""
    from site_gen import code_index

    parsed: list[str] = []
    real = code_index._root.__wrapped__

    def counting(language: str, text: str) -> object:
        parsed.append(language)
        return real(language, text)

    monkeypatch.setattr(code_index, "_root", functools.lru_cache(maxsize=512)(counting))
    code_index._definitions.cache_clear()
    monkeypatch.setattr(code_index, "_UNKEPT", {})
    return parsed


def test_a_rebuild_parses_no_code_again(code: tuple[Path, list[str]], project: Project,
                                        cli: CLI, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the code told one build (definitions, a claim's matches) is kept by commit and
    path: a rebuild that renders the page again, in a new process, parses nothing."""
    repo, commits = code
    project.write("content/acme/widgets/12/pr.yml",
                  f'repo: acme/widgets\nnumber: 12\ntitle: T\nhead: "{commits[1]}"\n'
                  f'base: "{commits[0]}"\nstate: open\nfiles: [src/utils/checkpoint.py]\n')
    page = project.root / "content/acme/widgets/12/cache-bug.md"
    page.write_text(page.read_text().replace("The key is built in [[core.py:10]].",
                                             "See [[checkpoint.py::_finalize]].\n\n" + CALLERS))
    assert cli("build", "--no-search", "--checkout", str(repo)).code == 0
    parsed = _parses_from_now_on(monkeypatch)
    page.write_text(page.read_text() + "\nOne more sentence.\n")
    again = cli("build", "--no-search", "--checkout", str(repo))
    assert again.code == 0, again.err
    assert "One more sentence." in (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    assert parsed == []
    assert cli("build", "--no-search", "--no-cache", "--site-dir", "clean", "--checkout",
               str(repo)).code == 0
    assert parsed  # without the cache, the code is parsed


MAY_BE_EMPTY = re.compile("content|comment")  # an empty comment or string: no error


def _walked_first_error(root: object) -> int | None:
    """The first error found by walking every node in order (what site_gen did before):
    an ERROR node, or a leaf of no width (a token the parser had to assume)."""
    todo = [root]
    while todo:
        node = todo.pop()
        children = node.children()  # type: ignore[attr-defined]
        span = node.range()  # type: ignore[attr-defined]
        if node.kind() == "ERROR" or (not children and  # type: ignore[attr-defined]
                                      span.start.index == span.end.index and node is not root
                                      and not MAY_BE_EMPTY.search(node.kind())):  # type: ignore[attr-defined]
            return int(span.start.line) + 1
        todo.extend(reversed(children))
    return None


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([("python", CHECKPOINT), ("javascript", "function f(a) { return [a, {b: 1}]; }\n"),
                        ("cpp", "template <typename T> T g(T x) { if (x) { return x; } }\n"),
                        ("go", "func f(a int) (int, error) { return a, nil }\n"),
                        ("rust", "fn f(a: u8) -> Option<u8> { Some(a) }\n")]),
       st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(["", *"{}()[];:,.'\"\n=+"])),
                max_size=4))
def test_the_first_parse_error_is_the_one_a_walk_over_every_node_finds(
        source: tuple[str, str], edits: list[tuple[int, str]]) -> None:
    """ast-grep finds the first node the parser could not read (ERROR, or of no width) at
    the line a walk over every node finds, in broken code of any language."""
    from ast_grep_py import SgRoot

    from site_gen import code_index

    language, text = source
    for at, char in edits:  # a character deleted ('') or put in at each place
        at %= len(text) + 1
        text = text[:at] + char + text[at + (char == ""):]
    root = SgRoot(text, language).root()
    assert code_index._first_error(root) == _walked_first_error(root)


def test_a_text_is_parsed_once_whatever_commit_holds_it_and_a_file_read_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that a site's PRs left as it was is the same text at every PR's head: it is
    parsed once, not once per PR; and a file asked for again (by the next block or page) is
    neither read nor looked up in the store again."""
    from site_gen import code_index

    parsed = _parses_from_now_on(monkeypatch)

    class Files:
        def __init__(self) -> None:
            self.read: list[tuple[str, str]] = []

        def lines(self, commit: str, path: str) -> list[str] | None:
            self.read.append((commit, path))
            return CHECKPOINT.splitlines()

    class Store:
        def __init__(self) -> None:
            self.kept: dict[str, object] = {}
            self.asked = 0

        def get(self, key: str) -> object:
            self.asked += 1
            return self.kept.get(key)

        def put(self, key: str, value: object) -> None:
            self.kept[key] = value

        def close(self) -> None:
            pass

    files, store = Files(), Store()
    first = code_index.index_of(files, "a" * 40, "src/utils/checkpoint.py", store)
    second = code_index.index_of(files, "b" * 40, "src/utils/checkpoint.py", store)
    assert first is not None and first == second
    assert [d.name for d in first.definitions][:2] == ["Saver", "Saver.save"]
    assert parsed == ["python"]  # two commits, one text: one parse
    assert code_index.index_of(files, "a" * 40, "src/utils/checkpoint.py", store) is first
    assert len(files.read) == 2 and store.asked == 2  # asked again: nothing read or looked up
    assert code_index.index_of(files, "a" * 40, "src/utils/checkpoint.py") == first
    assert len(files.read) == 3  # no store: its own answers (a store's are not shared)


def test_what_a_definition_is_survives_the_store() -> None:
    """A definition read back from the store between builds is the one parsed: a Ruby
    class method stays one (`Headers.build` apart from `Headers#build`)."""
    from site_gen import code_index

    class Files:
        def lines(self, commit: str, path: str) -> list[str] | None:
            return RUBY_CLASS_METHODS.splitlines()

    class Store:
        def __init__(self, kept: dict[str, object]) -> None:
            self.kept = kept

        def get(self, key: str) -> object:
            return self.kept.get(key)

        def put(self, key: str, value: object) -> None:
            self.kept[key] = value

        def close(self) -> None:
            pass

    kept: dict[str, object] = {}
    parsed = code_index.index_of(Files(), "a" * 40, "lib/headers.rb", Store(kept))
    again = code_index.index_of(Files(), "a" * 40, "lib/headers.rb", Store(kept))  # a new build
    assert parsed is not None and again == parsed and again is not parsed
    assert [d.singleton for d in again.definitions] == [False, True, False, True, False]


@pytest.mark.parametrize(("language", "code", "lines"), [
    ("python", "TOTAL = {sum}\n\n\ndef after():\n    return TOTAL\n", "L4-L5"),
    ("javascript", "const total = {sum};\n\nfunction after() {{\n  return total;\n}}\n", "L3-L5"),
])
def test_code_nested_deeper_than_python_recurses_is_indexed(language: str, code: str,
                                                           lines: str) -> None:
    """A sum of 5,000 terms nests 5,000 deep (generated code, tables written as one
    expression): its definitions are found, as in any file."""
    from site_gen.code_index import definitions

    text = code.format(sum=" + ".join(f"n{k}" for k in range(5000)))
    index = definitions(language, text.splitlines())
    assert index.broken is None
    assert [(d.name, d.lines) for d in index.definitions] == [("after", lines)]


@pytest.mark.parametrize(("language", "text", "expected"), [
    ("python", "class Trainer:\n    @torch.no_grad()\n    @staticmethod\n    def step(x):\n"
               "        return x\n", [("Trainer", 1, 5), ("Trainer.step", 2, 5)]),
    ("python", "@dataclass\nclass Point:\n    x: int\n", [("Point", 1, 3)]),
    ("typescript", "class A {\n  @HostListener('click')\n  onClick(e: Event) {\n    return e;\n"
                   "  }\n}\n@Component({})\nexport class B {}\n",
     [("A", 1, 6), ("A.onClick", 2, 5), ("B", 7, 8)]),
    ("rust", "#[derive(Debug)]\nstruct P { x: i32 }\nimpl P {\n    #[inline]\n    // fast\n"
             "    fn f(&self) -> i32 { self.x }\n}\n",
     [("P", 1, 2), ("P", 3, 7), ("P.f", 4, 6)]),  # a comment between them aside
    ("rust", "impl R {\n    #[doc(alias = \"scope\")] // as others say\n    #[track_caller]\n"
             "    fn nest(self) {}\n}\n", [("R", 1, 5), ("R.nest", 2, 4)]),  # axum's Router.nest
    ("java", "class A {\n  @Override\n  public String toString() {\n    return \"\";\n  }\n}\n",
     [("A", 1, 6), ("A.toString", 2, 5)]),  # the grammar holds it inside already
    ("cpp", "template <typename T>\nstruct Box {\n  T get();\n};\n"
            "template <typename T>\nT Box<T>::get() { return T(); }\n",
     [("Box", 1, 4), ("Box.get", 3, 3), ("Box::get", 5, 6)]),  # declared, then defined
])
def test_a_definition_starts_at_its_decorators_attributes_or_template_head(
        language: str, text: str, expected: list[tuple[str, int, int]]) -> None:
    """What belongs to a definition though the grammar puts it beside it (as Python's
    inspect.getsource shows a function with its decorators)."""
    from site_gen.code_index import definitions

    index = definitions(language, text.splitlines())
    assert index.broken is None
    assert [(d.name, d.start, d.end) for d in index.definitions] == expected


def test_a_hunk_that_changes_a_decorator_names_the_function_it_decorates(
        tmp_path: Path) -> None:
    """Before, the function began at its `def` line: the hunk had to name the class."""
    repo, head = _one_commit(tmp_path, {"trainer.py": "class Trainer:\n    @torch.no_grad()\n"
                                                      "    def step(self, x):\n        return x\n"})
    _, errors = check((repo, [head, head]), "```proposal\nfile: trainer.py L2 · Trainer.step\n"
                                            "@@ -2,1 +2,1 @@\n-    @torch.no_grad()\n"
                                            "+    @torch.inference_mode()\n```\n")
    assert errors == []


# rack's Headers: a class method and an instance method of one name, twice
RUBY_CLASS_METHODS = ("class Headers\n  def self.[](*items)\n  end\n  def [](key)\n  end\n"
                      "  class << self\n    def build\n    end\n  end\n  def build\n  end\nend\n")


GO = """\
package net

type Conn struct{}

type Listener struct{}

func (c *Conn) Close() error { return nil }

func (l Listener) Close() error { return nil }

func Dial(addr string) *Conn { return nil }
"""


@pytest.mark.parametrize(("language", "text", "expected"), [
    ("go", GO, [("Conn", 3, 3), ("Listener", 5, 5), ("Conn.Close", 7, 7),
                ("Listener.Close", 9, 9), ("Dial", 11, 11)]),
    ("javascript", "class A {\n  handle = (e) => {\n    return e;\n  };\n  count = 1;\n}\n",
     [("A", 1, 6), ("A.handle", 2, 4)]),
    ("typescript", "class A {\n  private handle = (e: Event): void => {\n  };\n  n: number = 1;\n}\n",
     [("A", 1, 5), ("A.handle", 2, 3)]),
])
def test_methods_are_named_by_what_holds_them(language: str, text: str,
                                              expected: list[tuple[str, int, int]]) -> None:
    """A Go method by its receiver's type; a class field that holds a function by its class."""
    from site_gen.code_index import definitions

    index = definitions(language, text.splitlines())
    assert [(d.name, d.start, d.end) for d in index.definitions] == expected


@pytest.mark.parametrize(("symbol", "expected"), [
    ("Close", ["Conn.Close", "Listener.Close"]),  # ambiguous: the page must say whose
    ("Conn.Close", ["Conn.Close"]),
    ("(*Conn).Close", ["Conn.Close"]),  # as Go's documentation writes it
    ("(Listener).Close", ["Listener.Close"]),
    ("(*Conn).Close()", ["Conn.Close"]),
    ("Dial", ["Dial"]),
])
def test_a_go_method_is_named_with_its_type(symbol: str, expected: list[str]) -> None:
    from site_gen.code_index import definitions
    from site_gen.definitions import named

    index = definitions("go", GO.splitlines())
    assert [d.name for d in named(index.definitions, symbol)] == expected


@pytest.mark.parametrize(("language", "text", "expected"), [
    ("kotlin", "class Repo(val db: Db) {\n  fun find(id: Int): User? {\n    return null\n  }\n}\n"
               "object Cache {\n  fun clear() {}\n}\n",
     [("Repo", 1, 5), ("Repo.find", 2, 4), ("Cache", 6, 8), ("Cache.clear", 7, 7)]),
    ("ruby", "class Repo\n  def find(id)\n    nil\n  end\n\n  def self.build\n  end\n\n"
             "  def valid?\n  end\nend\nmodule M\nend\n",
     [("Repo", 1, 11), ("Repo.find", 2, 4), ("Repo.build", 6, 7), ("Repo.valid?", 9, 10),
      ("M", 12, 13)]),
    ("elixir", "defmodule Shop.Cart do\n  def total(0), do: 0\n  def total(n) when n > 0 do\n"
               "    n\n  end\n  defp save!(c), do: c\nend\n",
     [("Shop.Cart", 1, 7), ("Shop.Cart.total", 2, 5), ("Shop.Cart.save!", 6, 6)]),
    ("elixir", "defmodule M do\n  def put(c, k, v), do: c\n  def put(c), do: c\n"
               "  def f(x, y \\\\ 2)\n  def f(x, y), do: x + y\nend\n",
     [("M", 1, 6), ("M.put", 2, 2), ("M.put", 3, 3), ("M.f", 4, 5)]),  # by arity; a head too
    ("haskell", "module M where\n\ndata Shape = Circle Float\n\narea :: Shape -> Float\n"
                "area (Circle r) = r\narea _ = 0\ntype Name = String\n",
     [("Shape", 3, 3), ("area", 5, 7), ("Name", 8, 8)]),  # its signature and equations: one
    # aeson#42775f4: an equation's `where` that defines a function (`msg req = ...`) no
    # longer parted it from the next equation (two definitions, and a name ambiguous)
    ("haskell", "module M where\nbound :: Int -> Int\nbound n =\n    msg \"a\"\n  where\n"
                "    msg req = req\nbound _ = 0\n",
     [("bound", 2, 7), ("bound.msg", 6, 6)]),
    # and side by side still means with nothing but what it holds between: `f`, `g`, `f`
    ("haskell", "module M where\nf 0 = 1\ng = 2\nf n = n\n", [("f", 2, 2), ("g", 3, 3), ("f", 4, 4)]),
    # two classes of one name, side by side, are two (Polly's `Policy` and `Policy<T>`)
    ("csharp", "class P {\n  void A() {}\n}\nclass P<T> {\n  void A() {}\n}\n",
     [("P", 1, 3), ("P.A", 2, 2), ("P", 4, 6), ("P.A", 5, 5)]),
    ("haskell", "module M where\nempty :: Int\nempty = 0\nnull = go . size\n  where\n    go = id\n"
                "#ifdef ORDERED\nsize = ordered\n#else\nsize :: Int\nsize = hashed\n#endif\n",
     [("empty", 2, 3), ("null", 4, 6), ("size", 8, 8), ("size", 10, 11)]),  # values; #else too
    ("haskell", "module M where\n(.=) :: Key -> v -> Pair\nk .= v = (k, v)\n\n(<+>) :: A -> A -> A\n"
                "(<+>) a b = a\ninfixr 5 <+>\n",
     [("(.=)", 2, 3), ("(<+>)", 5, 6)]),  # operators, named as Haskell names them
    ("java", "enum Op {\n  PLUS {\n    int apply(int a) { return a; }\n  },\n  MINUS {\n"
             "    int apply(int a) { return -a; }\n  },\n  ZERO;\n  abstract int apply(int a);\n}\n",
     [("Op", 1, 10), ("Op.PLUS", 2, 4), ("Op.PLUS.apply", 3, 3), ("Op.MINUS", 5, 7),
      ("Op.MINUS.apply", 6, 6), ("Op.apply", 9, 9)]),  # a constant's body is its own class
    ("java", "class S {\n  void wire(Bus a, Bus b) {\n    a.on(new L() {\n      void handle() {}\n"
             "    });\n    b.on(new L() {\n      void handle() {}\n    });\n  }\n}\n",
     [("S", 1, 10), ("S.wire", 2, 9), ("S.wire.handle", 4, 4), ("S.wire.handle", 7, 7)]),
    # gson: a field made an anonymous class names its methods (forty adapters' `read` in
    # TypeAdapters were one name, none citable), called on or not; a local does not
    ("java", "class T {\n  static final A INET =\n      new A() {\n        Object read() {}\n"
             "      };\n  static final A BITS =\n      new A() {\n        Object read() {}\n"
             "      }.nullSafe();\n  static final int N = 1;\n  void m() {\n"
             "    A local = new A() {\n      Object read() {}\n    };\n  }\n}\n",
     [("T", 1, 16), ("T.INET", 2, 5), ("T.INET.read", 4, 4), ("T.BITS", 6, 9),
      ("T.BITS.read", 8, 8), ("T.m", 11, 15), ("T.m.read", 13, 13)]),
    # gin's `var defaultLogFormatter = func(...) string {...}`: a package's function value
    # is a definition (it was "a value, given at L167", 20 lines of code); a local is not
    ("go", "package m\n\nvar format = func(p Params) string {\n\treturn p.s\n}\n\nvar (\n"
           "\tnow  = time.Now\n\thook = func() { log() }\n)\n\nfunc Run() {\n"
           "\tvar local = func() {}\n\tlocal()\n}\n",
     [("format", 3, 5), ("hook", 9, 9), ("Run", 12, 15)]),
    # a class's field holding an object names its methods, as a constant holding one does
    ("typescript", "class A {\n  bits = { read() { return 2; } };\n  inet = {\n"
                   "    read() { return 1; },\n  };\n  options = { depth: 2 };\n}\n",
     [("A", 1, 7), ("A.bits", 2, 2), ("A.bits.read", 2, 2), ("A.inet", 3, 5),
      ("A.inet.read", 4, 4)]),
    ("typescript", "function wire(a: Bus, b: Bus) {\n  a.on({\n    handle() {},\n  });\n"
                   "  b.on({\n    handle() {},\n  });\n}\n",
     [("wire", 1, 8), ("wire.handle", 3, 3), ("wire.handle", 6, 6)]),  # two objects' methods
    ("haskell", "module M where\nclass E t where tkErr :: t\ninstance E A where tkErr = a\n"
                "instance E b => E (Maybe b) where\n  tkErr = b\n",
     [("E", 2, 2), ("E.tkErr", 2, 2), ("E.A", 3, 3), ("E.A.tkErr", 3, 3), ("E.Maybe", 4, 5),
      ("E.Maybe.tkErr", 5, 5)]),  # an instance by its class and type, its methods by it
    ("haskell", "module M where\ninstance E (a, b) where tkErr = a\ninstance E [a] where\n"
                "  tkErr = b\n",
     [("tkErr", 2, 2), ("tkErr", 4, 4)]),  # for no named type: one each, not one spanning both
    ("elixir", "defprotocol Size do\n  def size(d)\nend\ndefimpl Size, for: Map do\n"
               "  def size(m), do: 0\nend\ndefmodule User do\n  defimpl Size do\n"
               "    def size(u), do: 1\n  end\nend\n",
     [("Size", 1, 3), ("Size.size", 2, 2), ("Size.Map", 4, 6), ("Size.Map.size", 5, 5),
      ("User", 7, 11), ("Size.User", 8, 10), ("Size.User.size", 9, 9)]),  # as Elixir names them
    ("elixir", "defmodule S do\n  def code(0), do: 0\n  for {c, a} <- x do\n"
               "    def code(unquote(a)), do: unquote(c)\n  end\nend\n",
     [("S", 1, 6), ("S.code", 2, 4)]),  # clauses made in a `for` are clauses of one
    ("kotlin", "enum class Op {\n  PLUS {\n    override fun apply(a: Int) = a\n  },\n  ZERO;\n"
               "  abstract fun apply(a: Int): Int\n}\n",
     [("Op", 1, 7), ("Op.PLUS", 2, 4), ("Op.PLUS.apply", 3, 3), ("Op.apply", 6, 6)]),
    ("ruby", RUBY_CLASS_METHODS, [("Headers", 1, 12), ("Headers.[]", 2, 3), ("Headers.[]", 4, 5),
                                  ("Headers.build", 7, 8), ("Headers.build", 10, 11)]),
    ("ruby", "class H\n  def self.[](*items)\n  end\n  def []=(k, v)\n  end\n  def <<(p)\n"
             "  end\n  def type\n  end\n  def type=(t)\n  end\nend\n",
     [("H", 1, 12), ("H.[]", 2, 3), ("H.[]=", 4, 5), ("H.<<", 6, 7), ("H.type", 8, 9),
      ("H.type=", 10, 11)]),  # operators and setters by their own names
    ("csharp", "class Cache {\n  public int this[int i] {\n    get { return i; }\n  }\n"
               "  public event EventHandler Changed;\n  int n;\n}\n",
     [("Cache", 1, 7), ("Cache.this[]", 2, 4), ("Cache.Changed", 5, 5)]),  # not the field n
    ("cpp", "FMT_BEGIN_NAMESPACE\nnamespace detail {\nFMT_CONSTEXPR20 inline auto count_digits("
            "uint64_t n) -> int {\n  return n;\n}\nFMT_API void vprint(string_view f) {}\n"
            "}  // namespace detail\nFMT_PRAGMA_GCC(optimize(\"Og\"))\nFMT_END_NAMESPACE\n",
     [("detail", 2, 7), ("detail.count_digits", 3, 5), ("detail.vprint", 6, 6)]),  # fmt's macros
    ("scala", "class PermSet {\n  def ++(o: PermSet) = o\n  def /(c: Int): PermSet\n}\n"
              "object / {\n  def unapply(p: Int) = None\n}\n",
     [("PermSet", 1, 4), ("PermSet.++", 2, 2), ("PermSet./", 3, 3), ("/", 5, 7),
      ("/.unapply", 6, 6)]),  # operators by their own names (os-lib's `os./`)
    ("scala", "object Path {\n  @experimental val serializer = new Dyn(default)\n"
              "  @experimental lazy val default: S = {\n    val base = Option(x)\n    base\n"
              "  }\n  var count = 0\n  val (a, b) = (1, 2)\n  def f(): Int = {\n    val y = 1\n"
              "    y match {\n      case 1 =>\n        val z = 2\n        z\n    }\n  }\n}\n",
     [("Path", 1, 17), ("Path.serializer", 2, 2), ("Path.default", 3, 6), ("Path.count", 7, 7),
      ("Path.f", 9, 16)]),  # os-lib's members; not a local val (a body's, a case's), nor a
    # tuple's parts
    ("swift", "struct V {\n  static func == (l: V, r: V) -> Bool { true }\n  func f() {}\n}\n",
     [("V", 1, 4), ("V.==", 2, 2), ("V.f", 3, 3)]),
    ("dart", "class Repo {\n  User? find(int id) {\n    return null;\n  }\n}\nvoid main() {}\n",
     [("Repo", 1, 5), ("Repo.find", 2, 4), ("main", 6, 6)]),
    ("dart", "abstract class Client {\n  Future<String> read(Uri url);\n  @override\n"
             "  Future<Response> head(Uri url) =>\n      send(url);\n  Client(this.x);\n"
             "  factory Client.make() => Impl();\n  final int x;\n  @override\n"
             "  bool operator ==(Object o) => true;\n  int operator [](int i) => i;\n"
             "  void operator []=(int i, int v) {}\n}\n@sealed\nmixin Saver on Client {\n"
             "  void save() {}\n}\nextension Extra on Client {\n  void more() {}\n}\n"
             "typedef Cb = void Function(int);\n",
     [("Client", 1, 13), ("Client.read", 2, 2), ("Client.head", 3, 5), ("Client.Client", 6, 6),
      ("Client.make", 7, 7), ("Client.operator==", 9, 10), ("Client.operator[]", 11, 11),
      ("Client.operator[]=", 12, 12), ("Saver", 14, 17), ("Saver.save", 16, 16),
      ("Extra", 18, 20), ("Extra.more", 19, 19), ("Cb", 21, 21)]),  # not the field x
    ("lua", "local function helper(x)\n  return x\nend\nfunction M.run(y)\n  return y\nend\n"
            "function M:stop() end\n",
     [("helper", 1, 3), ("M.run", 4, 6), ("M.stop", 7, 7)]),
    ("lua", "local M = {}\nM[\"stop\"] = function() end\ntests[\"a.b\"] = function()\n"
            "  local function add() end\nend\nlocal T = {\n  [\"run\"] = function() end,\n}\n",
     [("M.stop", 2, 2), ("add", 4, 4), ("T", 6, 8), ("T.run", 7, 7)]),  # a key that is a name
    ("solidity", "contract Token {\n  function transfer(address to) public returns (bool) {\n"
                 "    return true;\n  }\n}\n", [("Token", 1, 5), ("Token.transfer", 2, 4)]),
    ("solidity", "contract Vault {\n  error Locked(uint until);\n  constructor() {}\n"
                 "  receive() external payable {}\n  fallback() external {}\n}\nerror Top();\n",
     [("Vault", 1, 6), ("Vault.Locked", 2, 2), ("Vault.constructor", 3, 3),
      ("Vault.receive", 4, 4), ("Vault.fallback", 5, 5), ("Top", 7, 7)]),  # errors; by keyword
    ("hcl", "variable \"region\" {\n  default = \"x\"\n}\nresource \"aws_s3_bucket\" \"logs\" {\n"
            "  bucket = \"x\"\n}\ndata \"aws_ami\" \"base\" {\n}\nmodule \"vpc\" {\n}\n",
     [("var.region", 1, 3), ("aws_s3_bucket.logs", 4, 6), ("data.aws_ami.base", 7, 8),
      ("module.vpc", 9, 10)]),  # as Terraform addresses them
    ("hcl", "locals {\n  create = var.create\n  azs = slice(var.azs, 0, 2)\n}\n"
            "resource \"aws_vpc\" \"this\" {\n  count = local.create ? 1 : 0\n}\n",
     [("local.create", 2, 2), ("local.azs", 3, 3), ("aws_vpc.this", 5, 7)]),  # a local value too
    ("typescript", "namespace Api.V2 {\n  export function get() {}\n}\n",
     [("Api.V2", 1, 3), ("Api.V2.get", 2, 2)]),
    ("javascript", "const api = {\n  get(id) {\n    return id;\n  },\n  put: (x) => x,\n  n: 1,\n};\n",
     [("api", 1, 7), ("api.get", 2, 4), ("api.put", 5, 5)]),  # an object's methods
    ("kotlin", "class HostTest {\n  @Test fun `request canonical hostname`() {}\n"
               "  @Test fun `request equals`() {}\n  fun `default`() {}\n}\n",
     [("HostTest", 1, 5), ("HostTest.request canonical hostname", 2, 2),
      ("HostTest.request equals", 3, 3), ("HostTest.default", 4, 4)]),  # not two `request`
    ("swift", "protocol P {\n  var size: Int { get }\n  var name: String { get }\n  func go()\n}\n",
     [("P", 1, 5), ("P.size", 2, 2), ("P.name", 3, 3), ("P.go", 4, 4)]),  # not one `var`
    ("haskell", "module M where\nfoldl' :: Int\nfoldl' = 1\nfoldl = 2\np'' = 3\n",
     [("foldl'", 2, 3), ("foldl", 4, 4), ("p''", 5, 5)]),  # a prime is part of the name
    ("javascript", "const api = {\n  \"stop\": function() {},\n  \"text/plain\": () => 1,\n};\n",
     [("api", 1, 4), ("api.stop", 2, 2)]),  # a key as a string: a name, or none (not `text`)
    ("javascript", "module.exports = function handler(req) {\n  return 1;\n};\n"
                   "exports.run = () => 1;\nx = 1;\n",
     [("module.exports", 1, 3), ("module.exports.handler", 1, 3), ("exports.run", 4, 4)]),
    ("cpp", "struct A {\n  int g(int x) { return x; }\n  int g(double x) { return 1; }\n};\n",
     [("A", 1, 4), ("A.g", 2, 3)]),  # overloads side by side: one name, both
    ("cpp", "struct V {\n  bool operator==(const V&) const;\n  bool operator!=(const V& o) const "
            "{ return false; }\n  int operator[](int i) const { return i; }\n};\ntemplate <class T>"
            "\nbool Box<T>::operator<(const Box&) const { return false; }\n",
     [("V", 1, 5), ("V.operator==", 2, 2), ("V.operator!=", 3, 3), ("V.operator[]", 4, 4),
      ("Box::operator<", 6, 7)]),  # operators by their own names, not all 'operator'
    ("cpp", "class T {\n  T() {}\n  ~T() {}\n};\nT::~T() {}\n",
     [("T", 1, 4), ("T.T", 2, 2), ("T.~T", 3, 3), ("T::~T", 5, 5)]),  # a destructor is ~T
    ("c", "struct foo;\nstruct foo *p;\nstruct foo {\n  int x;\n};\nint f(int);\nint n;\n",
     [("foo", 1, 2), ("foo", 3, 5), ("f", 6, 6)]),  # declared (one), defined; a prototype
    ("c", "#define N 3\n#define MAX(a, b) \\\n  ((a) > (b) ? (a) : (b))\n", [("N", 1, 1), ("MAX", 2, 3)]),
    ("cpp", "__global__ void __launch_bounds__(256) add(float* b) {\n  __shared__ float t[2];\n}\n"
            "__device__ __forceinline__ float sq(float x) { return x * x; }\n"
            "struct __align__(8) SumMax {\n  float sum;\n};\n",
     [("add", 1, 3), ("sq", 4, 4), ("SumMax", 5, 7)]),  # CUDA, its qualifiers left out: parses
    ("cpp", "#define __device__ __attribute__((device))\n__device__ int f() { return 1; }\n",
     [("__device__", 1, 1), ("f", 2, 2)]),  # a HIP header defining the word keeps it
    ("rust", "macro_rules! square {\n    ($x:expr) => { $x * $x };\n}\n", [("square", 1, 3)]),
    ("rust", "define_rejection! {\n    #[status = PAYLOAD_TOO_LARGE]\n    pub struct Limit(Error);\n}\n"
             "mod rt {\n    cfg_rt! {\n        impl Handle {\n            pub fn spawn(&self) {}\n"
             "        }\n        pin_project! { pub struct Sleep { #[pin] e: E } }\n    }\n}\n"
             "fn f() {\n    m! { fn local() {} }\n}\n",
     [("Limit", 2, 3), ("rt", 5, 12), ("rt.Handle", 7, 9), ("rt.Handle.spawn", 8, 8),
      ("rt.Sleep", 10, 10), ("f", 13, 15)]),  # items in a macro where items stand, in a call too
    ("rust", "cfg_if! {\n    if #[cfg(unix)] { fn a() {} }\n}\nbitflags! {\n"
             "    pub struct F: u32 { const A = 1; }\n}\nlazy_static! { static ref X: u8 = 1; }\n",
     []),  # a macro's code that is no items as it stands is left as tokens
    ("csharp", "class Repo {\n  public int Count {\n    get { return 1; }\n  }\n}\n",
     [("Repo", 1, 5), ("Repo.Count", 2, 4)]),  # a property (Swift's too)
    ("swift", "class A {\n  var count: Int {\n    return 1\n  }\n}\n", [("A", 1, 5), ("A.count", 2, 4)]),
    ("rust", "struct P;\nimpl P {\n    fn f(&self) {}\n}\n",
     [("P", 1, 1), ("P", 2, 4), ("P.f", 3, 3)]),  # a type and its impl: two, not clauses
    ("kotlin", "class D {\n  @get:Synchronized\n  var max = 64\n    set(v) {\n      field = v\n"
               "    }\n  val pool: Int\n    get() {\n      return 1\n    }\n"
               "  private val (a, b) = pair\n  val alias = other\n  fun f() {\n"
               "    val local = 1\n  }\n}\nval top = 3\n",
     [("D", 1, 16), ("D.max", 2, 6), ("D.pool", 7, 10), ("D.alias", 12, 12), ("D.f", 13, 15),
      ("top", 17, 17)]),  # a property with its setter or getter; no local, no `(a, b)`
    ("typescript", "class Ky {\n  #retry() {}\n  retry() {}\n}\nfunction f() {\n"
                   "  const options = {a: 1, b: [2]};\n  const api = {get() {}};\n}\n",
     [("Ky", 1, 4), ("Ky.#retry", 2, 2), ("Ky.retry", 3, 3), ("f", 5, 8), ("f.api", 7, 7),
      ("f.api.get", 7, 7)]),  # `#retry` is a member of its own; an object of data is none
    ("go", "func Map[T any](xs []T) []T { return xs }\ntype Set[K comparable] struct{}\n",
     [("Map", 1, 1), ("Set", 2, 2)]),  # not the type parameters T and K
    ("swift", "func f(a: @escaping (Set<Int>) -> Void) {}\ntypealias M = (inout Int) throws -> Void\n",
     [("f", 1, 1), ("M", 2, 2)]),  # not the tuple types' Set and Int
    ("php", "<?php\nclass A {\n  protected ?Resolver $resolver;\n  function run() {}\n}\n",
     [("A", 2, 5), ("A.run", 4, 4)]),  # a field, as Java's: not named by its type
    ("c", "struct node {\n  struct node *next;\n};\nvoid f(struct q *x);\nint n = sizeof(struct z);\n",
     [("node", 1, 3), ("f", 4, 4)]),  # a type used (a field's, a parameter's) declares nothing
    ("c", "struct certs {\n  STACK_OF(X509) *list;\n  unsigned int n;\n};\n",
     [("certs", 1, 4)]),  # a macro used as a type, `unsigned int`: no definitions
    ("lua", "--\n-- a library\n--\nlocal noop = function() end\nM.run = function(x)\n  return x\nend\n"
            "local conf = { a = 1 }\nlocal t = { f = function() end }\n",
     [("noop", 4, 4), ("M.run", 5, 7), ("t", 9, 9), ("t.f", 9, 9)]),  # `--` is an empty comment
    ("scala", "class B {\n  def name(x: String): Int =\n    wrap(x).size\n\n  /** The head. */\n"
              "  def head(xs: String*): Int =\n    xs.size\n}\n",
     [("B", 1, 8), ("B.name", 2, 3), ("B.head", 6, 7)]),  # not to the next one's doc comment
    ("tsx", "const Button = React.forwardRef((props, ref) => {\n  return <button ref={ref} />;\n});\n"
            "const Card = memo(function Card({ title }) {\n  return <div>{title}</div>;\n});\n"
            "const n = compute(1, 2);\n",
     [("Button", 1, 3), ("Card", 4, 6), ("Card.Card", 4, 6)]),  # a function wrapped in a call
    ("swift", "class A {\n  init(x: Int) {}\n  convenience init() {}\n  deinit {}\n"
              "  subscript(i: Int) -> Int { return i }\n}\n",
     [("A", 1, 6), ("A.init", 2, 3), ("A.deinit", 4, 4), ("A.subscript", 5, 5)]),  # by keyword
    ("kotlin", "class A(val x: Int) {\n  constructor() : this(1) {}\n}\n",
     [("A", 1, 3), ("A.constructor", 2, 2)]),
    ("csharp", "class A {\n  A() {}\n  ~A() {}\n}\n", [("A", 1, 4), ("A.A", 2, 2), ("A.~A", 3, 3)]),
    ("csharp", "struct M {\n  public static M operator +(M a, M b) => a;\n"
               "  public static bool operator ==(M a, M b) => true;\n}\n",
     [("M", 1, 4), ("M.operator+", 2, 2), ("M.operator==", 3, 3)]),  # as C++'s operators
    ("csharp", "class C {\n  void Run() {\n    int Local(int a) => a;\n    Local(1);\n  }\n}\n",
     [("C", 1, 6), ("C.Run", 2, 5), ("C.Run.Local", 3, 3)]),  # a local function, as Python's
    ("go", "type C = int\ntype (\n\tD = string\n\tE struct{}\n)\n",
     [("C", 1, 1), ("D", 3, 3), ("E", 4, 4)]),  # an alias, as a type
    ("swift", "class R {\n  let n = 1\n  func f() {\n    let local = 1\n    if ok { var y = 2 }\n"
              "  }\n}\n", [("R", 1, 7), ("R.n", 2, 2), ("R.f", 3, 6)]),  # locals define nothing
])
def test_each_language_s_definitions_are_found_by_their_names(
        language: str, text: str, expected: list[tuple[str, int, int]]) -> None:
    """Before, Kotlin, Ruby, Elixir, Haskell and Terraform files defined nothing (so a hunk
    naming a method there was refused), Dart its classes only, Lua's `M.run` was 'M'."""
    from site_gen.code_index import definitions

    index = definitions(language, text.splitlines())
    assert index.broken is None
    assert [(d.name, d.start, d.end) for d in index.definitions] == expected


@pytest.mark.parametrize(("language", "text", "symbol", "expected"), [
    ("python", "def run():\n    pass\n\n\nclass Job:\n    def run(self):\n        pass\n",
     "run", [("run", 1, 2)]),  # named whole: the function, not the method it ends
    ("python", "def run():\n    pass\n\n\nclass Job:\n    def run(self):\n        pass\n",
     "Job.run", [("Job.run", 6, 7)]),
    ("python", "class A:\n    def run(self):\n        pass\n\n\nclass B:\n    def run(self):\n"
               "        pass\n", "run", [("A.run", 2, 3), ("B.run", 7, 8)]),  # still ambiguous
    ("rust", "pub struct Router;\nimpl Clone for Router {\n    fn clone(&self) -> Self { Router }\n}\n"
             "impl Router {\n    pub fn new() -> Self { Router }\n}\n", "Router",
     [("Router", 1, 1)]),  # the struct, not the impls that add to it
    ("rust", "mod route;\nfn route() {}\n", "route", [("route", 2, 2)]),  # `mod m;` is elsewhere
    ("swift", "extension Repo {\n  func save() {}\n}\nclass Repo {}\n", "Repo", [("Repo", 4, 4)]),
    ("javascript", "app.handle = function handle(req) {\n  return req;\n};\n", "handle",
     [("app.handle", 1, 3)]),  # one function, two names: one definition
    ("ruby", "class Repo\n  def find(id)\n  end\nend\n", "Repo#find",
     [("Repo.find", 2, 3)]),  # as Ruby's (and Javadoc's) documentation writes a method
    ("typescript", "class Ky {\n  #retry() {}\n  retry() {}\n}\n", "#retry", [("Ky.#retry", 2, 2)]),
    ("ruby", RUBY_CLASS_METHODS, "Headers#[]", [("Headers.[]", 4, 5)]),  # an instance's
    ("ruby", RUBY_CLASS_METHODS, "Headers.[]", [("Headers.[]", 2, 3)]),  # the class's
    ("ruby", RUBY_CLASS_METHODS, "Headers::build", [("Headers.build", 7, 8)]),
    ("ruby", RUBY_CLASS_METHODS, "Headers#build", [("Headers.build", 10, 11)]),
    ("ruby", "class H\n  def [](k)\n  end\n  def []=(k, v)\n  end\n  def type\n  end\n"
             "  def type=(t)\n  end\nend\n", "H#[]=(k, v)", [("H.[]=", 4, 5)]),
    ("ruby", "class H\n  def [](k)\n  end\n  def []=(k, v)\n  end\n  def type\n  end\n"
             "  def type=(t)\n  end\nend\n", "H#type=", [("H.type=", 8, 9)]),  # not the getter
    ("typescript", "class Ky {\n  #retry() {}\n  retry() {}\n}\n", "Ky#retry", [("Ky.retry", 3, 3)]),
])
def test_a_reference_s_symbol_chooses_one_definition(language: str, text: str, symbol: str,
                                                    expected: list[tuple[str, int, int]]) -> None:
    """Before, each of these was refused as ambiguous: a function beside a method of its
    name could not be named at all, a Rust struct not beside its impls, nor Express's
    `app.handle = function handle` by its own name."""
    from site_gen.code_index import definitions
    from site_gen.definitions import chosen

    index = definitions(language, text.splitlines())
    assert [(d.name, d.start, d.end) for d in chosen(index.definitions, symbol)] == expected


def test_a_dart_hunk_header_names_an_annotated_method(tmp_path: Path) -> None:
    """Before, a Dart method after an annotation (`@override`: most methods of a class that
    implements another) defined nothing, so a hunk naming it was refused: dart-lang/http's
    BaseClient had 2 of its 12 methods."""
    checked, head = _checker(tmp_path, {"lib/base_client.dart": (
        "abstract mixin class BaseClient implements Client {\n  @override\n"
        "  Future<Response> get(Uri url, {Map<String, String>? headers}) =>\n"
        "      _sendUnstreamed('GET', url, headers);\n\n  @override\n"
        "  Future<StreamedResponse> send(BaseRequest request);\n}\n")})
    hunk = ("```proposal\nfile: base_client.dart L4 · {symbol}\n@@ -4,1 +4,1 @@\n"
            "-      _sendUnstreamed('GET', url, headers);\n"
            "+      _sendUnstreamed('GET', url, headers ?? const {{}});\n```\n")
    assert checked(hunk.format(symbol="BaseClient.get"))[1] == []
    assert checked("See [[base_client.dart::send]].\n")[1] == []
    _, errors = checked(hunk.format(symbol="send"))
    assert errors == [f"2: '· send' in 'file: base_client.dart L4' is not a definition that "
                      f"holds L4 at commit {head[:7]}; the definition that holds them is "
                      "BaseClient.get (L2-L4)"]


def test_a_ruby_hunk_header_names_a_setter_apart_from_its_getter(tmp_path: Path) -> None:
    """Before, Ruby's `def content_type=(v)` was read as one more clause of the getter
    `content_type` beside it (rack's Response), so a hunk in the setter that named the
    getter passed, and one that named the setter was refused; `def []=(k, v)` defined
    nothing."""
    checked, head = _checker(tmp_path, {"lib/response.rb": (
        "class Response\n  def content_type\n    get_header CONTENT_TYPE\n  end\n\n"
        "  def content_type=(content_type)\n    set_header CONTENT_TYPE, content_type\n  end\n\n"
        "  def []=(key, value)\n    set_header key, value\n  end\nend\n")})
    hunk = ("```proposal\nfile: response.rb L{line} · {symbol}\n@@ -{line},1 +{line},1 @@\n"
            "-    set_header {old}\n+    set_header {old}.to_s\n```\n")
    setter = {"line": 7, "old": "CONTENT_TYPE, content_type"}
    assert checked(hunk.format(symbol="Response#content_type=", **setter))[1] == []
    assert checked(hunk.format(symbol="Response#[]=", line=11, old="key, value"))[1] == []
    _, errors = checked(hunk.format(symbol="content_type", **setter))
    assert errors == [f"2: '· content_type' in 'file: response.rb L7' is not a definition "
                      f"that holds L7 at commit {head[:7]}; the definition that holds them is "
                      "Response.content_type= (L6-L8)"]


def test_a_kotlin_name_in_backticks_is_cited_whole(tmp_path: Path) -> None:
    """okhttp's tests are named in backticks (`request canonical hostname`): before, each
    was named by its first word, and two beside each other were one definition; a
    reference's symbol could not hold a space."""
    checked, _ = _checker(tmp_path, {"src/HostTest.kt": (
        "class HostTest {\n  @Test fun `request canonical hostname`() {\n    check(1)\n  }\n\n"
        "  @Test fun `request equals`() {\n    check(2)\n  }\n}\n")})
    html, errors = checked(
        "See [[HostTest.kt::HostTest.`request canonical hostname`]] and "
        "[[HostTest.kt::`request equals`|the other]].\n\n```proposal\n"
        "file: HostTest.kt L3 · HostTest.`request canonical hostname`\n@@ -3,1 +3,1 @@\n"
        "-    check(1)\n+    check(3)\n```\n")
    assert errors == []
    assert re.findall(r"HostTest.kt#(L\d+-L\d+)", html)[:2] == ["L2-L4", "L6-L8"]
    assert ">the other</a>" in html


def test_a_kotlin_extension_function_is_cited_by_the_type_it_extends_too(
        tmp_path: Path) -> None:
    """The okio trial: `fun ByteString.commonEqualsConstantTime(...)` was named by its own
    name only, and `[[ByteString.kt::ByteString.commonEqualsConstantTime]]`, as Kotlin's
    documentation writes an extension, was no name the file defined. It is named both
    ways (type arguments and `?` left out of the type); another type's name finds none."""
    checked, _ = _checker(tmp_path, {"src/Bytes.kt": (
        "internal fun ByteString.commonEqualsConstantTime(other: ByteString): Boolean {\n"
        "  return other.size == size\n}\n\nobject Lists {\n"
        "  fun <T> List<T>?.second(): T = this!![1]\n}\n")})
    html, errors = checked(
        "See [[Bytes.kt::ByteString.commonEqualsConstantTime]], "
        "[[Bytes.kt::commonEqualsConstantTime|by its name]], [[Bytes.kt::List.second]] and "
        "[[Bytes.kt::Lists.second|in its object]].\n\n```claim\nsays: x\ncount: 1\n"
        "pattern: return $X\nin: Bytes.kt::ByteString.commonEqualsConstantTime\n```\n")
    assert errors == [], errors
    assert re.findall(r"Bytes.kt#(L\d+(?:-L\d+)?)", html)[:4] == ["L1-L3", "L1-L3", "L6", "L6"]
    _, errors = checked("See [[Bytes.kt::String.commonEqualsConstantTime]].\n")
    assert len(errors) == 1 and "defines no such name" in errors[0], errors


def test_a_reference_s_symbol_may_hold_a_pair_of_brackets(tmp_path: Path) -> None:
    """Before, `[[vec.h::Vec::operator[]]]` ended at its first `]]`, so an index operator
    (C++'s, Ruby's `Headers#[]`) could not be cited by name."""
    checked, head = _checker(tmp_path, {
        "vec.hpp": "struct Vec {\n  int operator[](int i) const { return i; }\n};\n",
        "lib/headers.rb": "class Headers\n  def [](key)\n    get key\n  end\nend\n"})
    html, errors = checked("See [[vec.hpp::Vec::operator[]]], [[headers.rb::Headers#[]]] and "
                           "[note: [[vec.hpp:1]]].\n")
    assert errors == []
    assert [link.split("/")[-1] for link in re.findall(r'href="([^"]+)"', html)] == [
        "vec.hpp#L2", "headers.rb#L2-L4", "vec.hpp#L1"]
    assert "[note: <span" in html and html.endswith("</span>].</p>\n")  # the last ] is text


@pytest.mark.parametrize(("path", "code", "cited", "hunk", "links"), [
    # aeson's API is operators (`.:`, `.:?`): none was a definition, and a reference could
    # not write a symbol holding a ':'
    ("src/Types.hs", "module Types where\n(.:) :: Object -> Key -> Parser a\n"
                     "obj .: key = field obj key\n\n(.:?) :: Object -> Key -> Parser (Maybe a)\n"
                     "obj .:? key = optional obj key\n",
     "[[Types.hs::(.:)]] and [[Types.hs::(.:?)]]", "Types.hs L3 · (.:)", ["L2-L3", "L5-L6"]),
    # a C++ conversion operator, as C++ names it: each was named `const` (from `() const`),
    # and two side by side were one definition
    ("src/s.hpp", "struct S {\n  explicit operator bool() const noexcept {\n    return ok;\n  }\n"
                  "  operator const char*() const { return p; }\n};\n",
     "[[s.hpp::S.`operator bool`]] and [[s.hpp::`operator const char*`]]",
     "s.hpp L3 · S.`operator bool`", ["L2-L4", "L5"]),
    # an instance's operator holding a '|', as Haskell writes it: the '|' began a label
    ("src/Internal.hs", "module Internal where\ninstance Alternative Parser where\n"
                        "  a <|> b = plus a b\n  empty = none\n",
     "[[Internal.hs::Alternative.Parser.(<|>)|the choice]] and [[Internal.hs::(<|>)]]",
     "Internal.hs L3 · (<|>)", ["L3"]),
    # `send_resp/3` and `send_resp/1` are two functions, as Elixir's documentation writes
    # them: their clauses were one definition, and `send_resp/3` named nothing
    ("lib/conn.ex", "defmodule Plug.Conn do\n  def send_resp(conn, status, body) do\n    conn\n"
                    "  end\n\n  def send_resp(%{state: :set} = conn), do: conn\n"
                    "  def send_resp(conn), do: conn\nend\n",
     "[[conn.ex::send_resp/1]]", "conn.ex L3 · Plug.Conn.send_resp/3", ["L6-L7"]),
])
def test_a_symbol_is_written_as_its_language_writes_it(
        tmp_path: Path, path: str, code: str, cited: str, hunk: str, links: list[str]) -> None:
    checked, head = _checker(tmp_path, {path: code})
    line = code.splitlines()[2]
    html, errors = checked(f"Cited as {cited}.\n\n```proposal\nfile: {hunk}\n@@ -3,1 +3,1 @@\n"
                           f"-{line}\n+{line} \n```\n")
    assert errors == []
    assert all(f"/blob/{head}/{path}#{lines}" in html for lines in links)


def test_an_elixir_name_two_arities_share_asks_for_its_arity(tmp_path: Path) -> None:
    checked, _ = _checker(tmp_path, {"lib/conn.ex": (
        "defmodule Plug.Conn do\n  def send_resp(conn, status, body), do: conn\n"
        "  def send_resp(conn), do: conn\nend\n")})
    _, errors = checked("See [[conn.ex::send_resp]].\n")
    assert errors == ["1: ambiguous symbol 'send_resp' in '[[conn.ex::send_resp]]': it names "
                      "Plug.Conn.send_resp/3 (L2), Plug.Conn.send_resp/1 (L3); write its arity, "
                      "as 'send_resp/3'"]


def test_definitions_that_share_their_whole_name_are_cited_by_lines(tmp_path: Path) -> None:
    """A Kotlin property and a function of one name: no more of the name tells them apart,
    so the error says to cite the lines (not to write more of the name)."""
    repo, head = _one_commit(tmp_path, {"Pool.kt": "class Pool {\n  val size: Int\n"
                                                   "    get() = 1\n  fun size(): Int = 2\n}\n"})
    _, errors = check((repo, [head, head]), "See [[Pool.kt::Pool.size]].\n")
    assert errors == ["1: ambiguous symbol 'Pool.size' in '[[Pool.kt::Pool.size]]': it names "
                      "Pool.size (L2-L3), Pool.size (L4); they share the whole name: cite one by "
                      "its lines instead, as '[[Pool.kt:2-3]]'"]


SWIFT_OVERLOADS = """\
final class DataRequest {
    func response(queue: DispatchQueue = .main,
                  completionHandler: @escaping (Data?) -> Void) -> Self {
        self
    }

    var count: Int { 0 }

    func response<S: Serializer>(queue: DispatchQueue = .main, responseSerializer: S,
                                 completionHandler: @escaping (S.Value) -> Void) -> Self {
        self
    }
}
"""
JAVA_OVERLOADS = """\
class Client {
  /** Sends one. */
  void send(int a) {
    log(a);
  }

  /** Sends two. */
  void send(int a, long b) {
    log(a);
    log(b);
  }

  void send(Map<String, Integer> m) { log(m); }
}
"""

SWIFT_INITS = ("struct HTTPHeaders {\n    init(_ headers: [HTTPHeader]) {\n    }\n"
               "    init(_ dictionary: [String: String]) {\n        self.init()\n    }\n}\n")
CSHARP_GENERICS = ("class P {\n  void Add<T>(Action<Builder<T>> a) { }\n  void Add(Action<Builder> a) { }\n"
                   "}\n")


@pytest.mark.parametrize(("path", "code", "cited", "links"), [
    # Swift: by its argument labels, as its documentation writes a function
    ("R.swift", SWIFT_OVERLOADS, "R.swift::DataRequest.response(queue:completionHandler:)", ["L2-L5"]),
    ("R.swift", SWIFT_OVERLOADS, "R.swift::response(queue:responseSerializer:completionHandler:)",
     ["L9-L12"]),
    # overloads side by side are one definition, named whole by the name alone, and
    # each by its parameters' types (or more of them), as Javadoc writes one
    ("Client.java", JAVA_OVERLOADS, "Client.java::Client.send", ["L3-L13"]),
    ("Client.java", JAVA_OVERLOADS, "Client.java::send(int,long)", ["L8-L11"]),
    ("Client.java", JAVA_OVERLOADS, "Client.java::`send(int a)`", ["L3-L5"]),
    ("Client.java", JAVA_OVERLOADS, "Client.java::`send(Map<String, Integer>)`", ["L13"]),
    ("Client.java", JAVA_OVERLOADS, "Client.java::send()", ["L3-L13"]),  # a call: all of them
    # Swift overloads of one label told apart by their types, as DocC does
    ("H.swift", SWIFT_INITS, "H.swift::`HTTPHeaders.init([String: String])`", ["L4-L6"]),
    ("H.swift", SWIFT_INITS, "H.swift::init([HTTPHeader])", ["L2-L3"]),
    # a type written exactly wins over one it is part of (Polly's AddResiliencePipeline)
    ("P.cs", CSHARP_GENERICS, "P.cs::Add(Action<Builder>)", ["L3"]),
    ("P.cs", CSHARP_GENERICS, "P.cs::Add(Action<Builder<T>>)", ["L2"]),
])
def test_an_overload_is_cited_by_its_parameters(tmp_path: Path, path: str, code: str, cited: str,
                                                links: list[str]) -> None:
    """Alamofire's two `DataRequest.response` could be cited only by their lines, which
    the error said to do; gson's eight `Gson.toJson`, side by side, were one definition,
    none of them citable alone. A reference names an overload as the language's
    documentation does."""
    checked, head = _checker(tmp_path, {path: code})
    html, errors = checked(f"See [[{cited}]].\n")
    assert errors == []
    assert [m for m in re.findall(rf"/blob/{head}/{path}#(L[\d-]+L?\d*)", html)] == links


def test_a_hunk_is_named_as_a_reference_names_what_holds_it(tmp_path: Path) -> None:
    """A hunk (or a pr-diff) with no `· name` is headed by the definition that holds its
    lines: Plug's `read_part_headers/7` was headed `Plug.Conn.read_part_headers`, which
    also names its `/2`; an overload of several side by side by its parameters; and where
    the innermost's name finds others too (HCL's `content` of one of two `dynamic
    "statement"` blocks), the innermost around it that its name finds alone."""
    checked, _ = _checker(tmp_path, {"Client.java": JAVA_OVERLOADS, "lib/conn.ex": (
        "defmodule Plug.Conn do\n  def read(conn), do: read(conn, 1, 2)\n\n"
        "  defp read(conn, a, b) do\n    {conn, a}\n  end\nend\n"), "main.tf": (
        'data "aws_iam_policy_document" "this" {\n  dynamic "statement" {\n    content {\n'
        '      resources = var.a\n    }\n  }\n  dynamic "statement" {\n    content {\n'
        '      resources = var.b\n    }\n  }\n}\n')})
    html, errors = checked("```proposal\nfile: Client.java L10\n@@ -10,1 +10,1 @@\n-    log(b);\n"
                           "+    log(b + 1);\n```\n\n```proposal\nfile: conn.ex L5\n"
                           "@@ -5,1 +5,1 @@\n-    {conn, a}\n+    {conn, b}\n```\n\n```proposal\n"
                           "file: main.tf L4\n@@ -4,1 +4,1 @@\n-      resources = var.a\n"
                           "+      resources = var.c\n```\n")
    assert errors == []
    assert re.findall(r'<code class="hunk-symbol">([^<]*)</code>', html) == [
        "Client.send(int,long)", "Plug.Conn.read/3",
        "data.aws_iam_policy_document.this"]  # (its `content`, one of two of that name)


def test_overloads_are_told_apart_by_their_parameters_in_every_check(tmp_path: Path) -> None:
    """The error for a name overloads share says how to write one; parameters no overload
    takes are an error listing what each takes; a hunk's `· send(int)` must hold its
    lines, and a claim's `in:` counts in that overload alone."""
    checked, head = _checker(tmp_path, {"R.swift": SWIFT_OVERLOADS, "Client.java": JAVA_OVERLOADS,
                                        "H.swift": SWIFT_INITS})
    _, errors = checked("See [[R.swift::response]] and [[H.swift::init(_:)]].\n")
    assert errors == [
        "1: ambiguous symbol 'response' in '[[R.swift::response]]': it names "
        "DataRequest.response(queue:completionHandler:) (L2-L5), "
        "DataRequest.response(queue:responseSerializer:completionHandler:) (L9-L12); write its "
        "parameters, as 'DataRequest.response(queue:completionHandler:)'",
        # labels alike: by their types (the two, side by side, are one definition by name)
        "1: ambiguous symbol 'init(_:)' in '[[H.swift::init(_:)]]': it names "
        "HTTPHeaders.init([HTTPHeader]) (L2-L3), `HTTPHeaders.init([String: String])` (L4-L6); "
        "write its parameters, as 'HTTPHeaders.init([HTTPHeader])'"]
    _, errors = checked("See [[R.swift::response(completionHandler:)]] and "
                        "[[Client.java::send(long)]].\n")
    assert errors == [
        "1: 'response(completionHandler:)' in '[[R.swift::response(completionHandler:)]]': no "
        f"definition of that name in R.swift takes those parameters at commit {head[:7]}; "
        "expected one of: DataRequest.response(queue:completionHandler:) (L2-L5), "
        "DataRequest.response(queue:responseSerializer:completionHandler:) (L9-L12)",
        "1: 'send(long)' in '[[Client.java::send(long)]]': no definition of that name in "
        f"Client.java takes those parameters at commit {head[:7]}; expected one of: "
        "Client.send(int) (L3-L5), Client.send(int,long) (L8-L11), "
        "`Client.send(Map<String, Integer>)` (L13)"]
    hunk = ("```proposal\nfile: Client.java L10 · {symbol}\n@@ -10,1 +10,1 @@\n-    log(b);\n"
            "+    log(b + 1);\n```\n")
    _, errors = checked(hunk.format(symbol="send(int,long)"))
    assert errors == []
    _, errors = checked(hunk.format(symbol="send(int)"))  # the one that holds it, as cited
    assert errors == [f"2: '· send(int)' in 'file: Client.java L10' is not a definition that "
                      f"holds L10 at commit {head[:7]}; the definition that holds them is "
                      "Client.send(int,long) (L8-L11)"]
    _, errors = checked("```claim\nsays: x\ncount: 2\ntext: log(\nin: Client.java::send(int,long)\n```\n")
    assert errors == []


@pytest.mark.parametrize(("path", "code", "pattern", "expected"), [
    ("router.rs", "fn a() {\n    panic!(\"a\");\n}\nmacro_rules! b {\n    ($x:expr) => {\n"
                  "        panic!(\"b\")\n    };\n}\n", "panic!($$$A)",
     "router.rs holds 'panic' at line 6 inside a macro, which the rust grammar reads as tokens, "
     "not as code"),  # a macro's own body: a template, not code
    ("router.rs", "fn a() {\n    let j = json!({\"a\": x.unwrap()});\n}\n", "$X.unwrap()",
     "router.rs holds 'unwrap' at line 2 inside a macro, which the rust grammar reads as "
     "tokens, not as code"),  # arguments that do not read as code
    ("alloc.c", "#define FREE_ALL(p) { free(p\nvoid f(void *p) { free(p); }\n", "free($P)",
     "alloc.c holds 'free' at line 1 inside a macro, which the c grammar reads as tokens, not "
     "as code"),  # a body that does not read as code
    ("router.rs", "fn a() {\n    panic!(\"a\");\n    log!(\"panicking\");\n}\n", "panic!($$$A)", None),
    # reqwest: an attribute's tokens are no code (every file with a `#[cfg(test)]` module
    # was refused for `#[test]`)
    ("client.rs", "#![cfg_attr(test, deny(warnings))]\n#[cfg(test)]\nmod tests {\n    #[test]\n"
                  "    fn a() {}\n}\n", "#[test]", None),
    ("Map.hs", "module M where\n#ifdef ORDERED\nsize = ordered 0\n#else\nsize = hashed 0\n#endif\n",
     "hashed $X", None),  # Haskell's grammar reads the first branch of an #if only
    ("Go.hs", "module M where\ngo n = case n of\n#if NEW\n  1 -> ordered 2\n#else\n"
              "  1 -> hashed 3\n#endif\n  _ -> 0\n", "hashed $X",
     "Go.hs holds 'hashed' at line 6 inside a preprocessor branch, which the haskell grammar "
     "reads as text, not as code"),  # a branch inside an expression: not code alone
])
def test_a_claim_is_not_counted_where_a_macro_hides_code(
        tmp_path: Path, path: str, code: str, pattern: str, expected: str | None) -> None:
    """Before, a match inside a macro's arguments (Rust) or body (C), or in a Haskell
    `#else` branch, was missed without a word: a claim counted fewer sites than the code
    has, and `count: none` could hold."""
    _, errors = _claimed(tmp_path, path, code, f"count: 1\npattern: {pattern}")
    assert errors == ([f"4: {expected}, so the claim cannot be counted there; narrow 'in:' or "
                       "count with 'text:'"] if expected else [])


CALLS = {  # a function that calls a method of an object and a function, in each language
    "go": ("main.go", "package main\n\nfunc f() {\n\tobj.run(1)\n\trun(2)\n}\n"),
    "c": ("main.c", "void f(void) {\n  obj.run(1);\n  run(2);\n}\n"),
    "dart": ("main.dart", "void f() {\n  obj.run(1);\n  run(2);\n}\n"),
    "solidity": ("A.sol", "contract A {\n  function f() public {\n    obj.run(1);\n    run(2);\n"
                          "  }\n}\n"),
    "python": ("main.py", "def f():\n    obj.run(1)\n    run(2)\n"),
    "java": ("A.java", "class A {\n  void f() {\n    obj.run(1);\n    run(2);\n  }\n}\n"),
    "rust": ("main.rs", "fn f() {\n    obj.run(1);\n    run(2);\n}\n"),
    "php": ("a.php", "<?php\nfunction f() {\n  $obj->run(1);\n  run(2);\n}\n"),
}


@pytest.mark.parametrize(("path", "text", "pattern", "line"), [
    ("A.sol", "contract A {\n  function f() public {\n    revert Locked(1);\n  }\n}\n",
     "revert $E($$$A)", 3),
    ("A.sol", "contract A {\n  function f() public {\n    revert Locked(1);\n  }\n}\n",
     "revert $E($$$A);", 3),  # its `;` written too
    ("A.sol", "contract A {\n  function f() public {\n    emit Saved(1);\n  }\n}\n",
     "emit $E($$$A)", 3),
    ("a.dart", "int f() {\n  return g(1);\n}\n", "return $X", 2),
    ("A.java", "class A {\n  int f() {\n    return g(1);\n  }\n}\n", "return $X", 3),
])
def test_a_statement_pattern_counts_without_its_semicolon(
        tmp_path: Path, path: str, text: str, pattern: str, line: int) -> None:
    """Before, a statement whose node holds its `;` (Solidity's `revert E();` and `emit`,
    Dart's `return x;`) matched nothing when the pattern did not end with it, nor with
    it: a claim counted 0 reverts in every OpenZeppelin contract (455 now)."""
    html, errors = _claimed(tmp_path, path, text, f"count: 1\npattern: {pattern}")
    assert errors == []
    assert f"{path}:{line}</a>" in html


def test_a_csharp_throw_counts_where_it_is_an_expression_too(tmp_path: Path) -> None:
    """`x ?? throw new E()`, `=> throw new E()`: C#'s throw expressions, which a pattern
    read as the statement `throw new E();` did not match (Serilog: 119 counted, 129 now)."""
    html, errors = _claimed(tmp_path, "A.cs", (
        "class A {\n  void F() {\n    throw new E(1);\n  }\n  int G() => throw new E(2);\n"
        "  void H(object o) {\n    var x = o ?? throw new E(3);\n  }\n}\n"),
        "count: 3\npattern: throw new $E($$$A)")
    assert errors == []
    assert all(f"A.cs:{line}</a>" in html for line in (3, 5, 7))


@pytest.mark.parametrize(("pattern", "lines"), [
    # not the Yul `if` of its `assembly`, which has no parentheses; with an `else` too (a
    # pattern that ends with its `}` is no open end, though it does not read alone)
    ("if ($C) { $$$B }", [3, 9]),
    ("while ($C) { $$$B }", [7]),
])
def test_a_solidity_statement_with_a_body_of_a_metavariable_counts(
        tmp_path: Path, pattern: str, lines: list[int]) -> None:
    """OpenZeppelin: `if ($C) { $$$B }` counted none of a contract's `if`s, only Yul's in
    an `assembly` block (Solidity reads no statement outside a function, nor a name alone
    in braces in one, so the pattern was not read in a function's body): of 1,330 patterns
    made from OpenZeppelin's code, 10 such ones matched not even their own `if`."""
    _counts_at(tmp_path, "A.sol", "contract A {\n  function f(uint x) public {\n    if (x > 1) {\n"
               "      a();\n      b();\n    }\n    while (x > 0) { x--; }\n"
               "    assembly { if lt(x, 1) { revert(0, 0) } }\n    if (x == 0) { c(); } else { d(); }\n"
               "  }\n}\n", pattern, lines)


def test_a_solidity_call_counts_in_inline_assembly_too(tmp_path: Path) -> None:
    """OpenZeppelin's EIP7702Utils: `extcodecopy(account, 0x00, 0x00, 0x20)` inside an
    `assembly { }` block is a Yul call, which a pattern read as Solidity's call did not
    match: a claim counted 0 where the code has 1."""
    html, errors = _claimed(tmp_path, "A.sol", (
        "contract A {\n  function f(address a) internal view returns (bytes32 d) {\n"
        "    assembly (\"memory-safe\") {\n      extcodecopy(a, 0x00, 0x00, 0x20)\n"
        "      d := mload(0x00)\n    }\n  }\n  function g() public {\n    extcodecopy(1);\n  }\n}\n"),
        "count: 2\npattern: extcodecopy($$$A)")
    assert errors == []
    assert "A.sol:4</a>" in html and "A.sol:9</a>" in html


@pytest.mark.parametrize(("path", "code", "pattern", "lines"), [
    ("lib/request.rb", "def a\n  raise Error, 'bad'\nend\ndef b\n  raise error.class, error.message, "
                       "cause: error.cause\nend\n", "raise $E, $M", [2]),
    ("lib/plug.ex", "defmodule P do\n  def a, do: put c, 1\n  def b, do: put c, 1, 2\nend\n",
     "put $C, $V", [2]),
    ("run.sh", "cp a b\ncp -r a b\n", "cp $A $B", [1]),
])
def test_a_pattern_that_ends_in_a_name_matches_no_longer_code(
        tmp_path: Path, path: str, code: str, pattern: str, lines: list[int]) -> None:
    """Before, ast-grep's default matching let the code go on where a pattern ends in a
    name: Ruby's `raise $E, $M` also counted rack's `raise e.class, e.message, cause:
    e.cause`, and calls without parentheses (Elixir, Bash) more arguments than written."""
    html, errors = _claimed(tmp_path, path, code, f"count: {len(lines)}\npattern: {pattern}")
    assert errors == []
    assert _linked(html, path) == [str(n) for n in lines]


@pytest.mark.parametrize(("path", "code", "pattern", "lines"), [
    ("src/fs.ts", "export async function removeDir(dir) {\n  await rm(dir)\n}\n"
                  "export function name(dir) {\n  return dir\n}\nexport default function main() {}\n",
     "export function $F($$$A) { $$$B }", [4]),
    ("src/fs.ts", "export async function removeDir(dir) {\n  await rm(dir)\n}\n",
     "export async function $F($$$) { $$$ }", [1]),  # written: counted, `await` and all
    ("src/walk.js", "for await (const part of stream) {}\nfor (const part of parts) {}\n",
     "for (const $A of $B) { $$$C }", [2]),
    ("src/walk.js", "f(await x)\nawait f(1)\n", "f($_)", [1, 2]),  # a call: awaited or not
    ("Tests/T.swift", "func testSync() {\n}\nfunc testAsync() async {\n}\n"
                      "func adapter() -> (any Adapter)? {\n}\n", "func $F($$$A) { $$$B }", [1, 5]),
])
def test_a_pattern_matches_no_code_with_a_keyword_it_does_not_write(
        tmp_path: Path, path: str, code: str, pattern: str, lines: list[int]) -> None:
    """ast-grep skips a keyword that is a token of its grammar: `export function $F(...)`
    counted astro's `export async function removeDir`, and `for (const $A of $B)` a `for
    await`; a claim that no export is async was wrong. What a metavariable matches may
    hold any, and a part the pattern leaves out whole (a Swift return type) is let be,
    as before."""
    html, errors = _claimed(tmp_path, path, code, f"count: {len(lines)}\npattern: {pattern}")
    assert errors == []
    assert _linked(html, path) == [str(n) for n in lines]


@pytest.mark.parametrize(("path", "code", "pattern", "lines"), [
    ("src/A.cs", "class A {\n  public int Count { get; set; }\n  public void Save(int n) { }\n"
                 "  void Run() {\n    void Local() { }\n  }\n}\n", "public void $M($$$A) { $$$B }", [3]),
    ("src/A.cs", "class A {\n  public int Count { get; set; }\n}\n", "public $T $P { get; set; }", [2]),
    ("src/A.php", "<?php\nfunction helper() { }\nclass A {\n  public function save($n) { }\n}\n",
     "public function $F($$$A) { $$$B }", [4]),
    ("lib/a.dart", "void main() { }\nclass A {\n  void save(int n) { }\n}\n",
     "void $F($$$A) { $$$B }", [1, 3]),
    ("src/a.ts", "class A {\n  save(n: number) { }\n  async load() { }\n}\n", "$M($$$A) { $$$B }", [2]),
])
def test_a_pattern_of_a_member_counts_the_members_of_classes(
        tmp_path: Path, path: str, code: str, pattern: str, lines: list[int]) -> None:
    """A method or a property, read as ast-grep reads the pattern alone or in a function,
    is a local function (C#, Dart) or no code at all (a PHP or TypeScript method, a C#
    property): a claim about the methods of a class counted 0 of them (C#, PHP), only
    the file's own functions (Dart), or was refused. It is read in a class's body too."""
    html, errors = _claimed(tmp_path, path, code, f"count: {len(lines)}\npattern: {pattern}")
    assert errors == []
    assert _linked(html, path) == [str(n) for n in lines]


@pytest.mark.parametrize(("fields", "line"), [
    ("count: 2\npattern: void $F($$$A) { $$$B }", 4),
    ("count: 1\npattern: push($K)\ninside: void $F($$$A) { $$$B }", 5),
])
def test_a_cpp_pattern_of_a_function_definition_is_an_error_not_a_count_of_none(
        tmp_path: Path, fields: str, line: int) -> None:
    """C++'s grammar reads `{ $$$B }` after a function's parameters as an initializer
    list: the pattern is a declaration to ast-grep and matched no definition, so a claim
    counted 0 functions (or stood inside none) where the file has two."""
    code = "void put(int k) {\n  push(k);\n}\nvoid get() { }\n"
    _, errors = _claimed(tmp_path, "table.cpp", code, fields)
    key = fields.splitlines()[-1].partition(":")[0]
    assert errors == [f"{line}: '{key}: void $F($$$A) {{ $$$B }}' matches no function's definition "
                      "in C++: ast-grep reads a body of a metavariable alone after the parameters "
                      "('{ $$$B }') as an initializer list, so the pattern is a declaration to "
                      "it; expected a pattern of what the bodies hold, counted in a definition "
                      "by its name ('in: table.cpp::Table.put'), or 'text:'"]
    _, errors = _claimed(tmp_path / "c", "table.c", code.replace("get()", "get(void)"),
                         "count: 2\npattern: void $F($$$A) { $$$B }")
    assert errors == []  # C reads it as written


@pytest.mark.parametrize(("path", "code", "pattern", "lines"), [
    # a clause is no function's definition, though C++ reads it alone as one
    ("t.cpp", "void f() {\n  try { g(); }\n  catch (const std::exception& e)\n  { h(); }\n}\n",
     "catch ($C) { $$$B }", [3]),
    # a condition of several nodes: only the body's `$$$B` is the body
    ("R.swift", "func f() {\n    guard let a = b else { return }\n    guard !c, let d else {\n"
                "        return\n    }\n}\n", "guard $$$C else { $$$B }", [2, 3]),
])
def test_a_body_of_a_metavariable_beside_other_multiple_metavariables_is_counted(
        tmp_path: Path, path: str, code: str, pattern: str, lines: list[int]) -> None:
    """Alamofire: `guard $$$C else { $$$B }` was refused as reading its body as other code
    than a body, for the check left out every `$$$` of the pattern, its condition too,
    where it meant the body's; a C++ `catch ($C) { $$$B }` (6 of the witness corpus's
    legitimate patterns) as matching no function's definition. Both count what they say."""
    html, errors = _claimed(tmp_path, path, code, f"count: {len(lines)}\npattern: {pattern}")
    assert errors == []
    assert _linked(html, path) == [str(n) for n in lines]


def test_a_bash_command_s_pattern_counts_no_definition_of_its_name(tmp_path: Path) -> None:
    """nvm's install.sh: `nvm_download $$$A` counted the line `nvm_download() {` among its 4
    calls (written without its `$$$A`, the pattern read alone as a word, which the
    function's name is too); a call after a redirect (`>&2 nvm_echo "$@"`) still counts."""
    _counts_at(tmp_path, "install.sh", "nvm_download() {\n  command curl \"$@\"\n}\n"
               "nvm_download -s a -o b\n>&2 nvm_download \"$x\"\nnvm_download\n", "nvm_download $$$A",
               [4, 5, 6])


BASH_NAMED = ("matches no definition or assignment in bash: a function's or a variable's name "
              "is a word there, and a metavariable in its place ('$F() {', '$V=') is read as a "
              "variable's expansion; expected the name written out ('nvm_echo() { $$$B; }', "
              "'NVM_DIR=$X'), or 'text:'")


@pytest.mark.parametrize(("pattern", "message"), [
    ("$F() { $$$B; }", BASH_NAMED),
    ("$V=$(nvm_ls)", BASH_NAMED),
    ("nvm_echo() { $$$B }", "is not an ast-grep pattern of bash (for nvm.sh); expected code that "
                            "reads whole where a function's body has a statement, or a clause of "
                            "one ('catch (...) {...}', 'case 1:'), not a part of a declaration, $X "
                            "for one node and $$$X for any number; in bash a group's '}' comes "
                            "after ';' or a new line, as in 'nvm_echo() { $$$B; }'"),
])
def test_a_bash_pattern_that_names_a_function_by_a_metavariable_is_an_error(
        tmp_path: Path, pattern: str, message: str) -> None:
    """Bash reads `$F` where a function's or a variable's name stands as a variable's
    expansion: such a pattern matched nothing, so a claim that no function (or no
    assignment) of nvm.sh does something held. A group closed without `;` is no bash: the
    refusal says what bash asks."""
    code = "nvm_echo() {\n  printf '%s\\n' \"$*\"\n}\nx=$(nvm_ls)\n"
    _, errors = _claimed(tmp_path, "nvm.sh", code, f"count: none\npattern: {pattern}")
    assert errors == [f"4: 'pattern: {pattern}' {message}"]
    _, written = _claimed(tmp_path / "w", "nvm.sh", code, "count: 1\npattern: nvm_echo() { $$$B; }")
    assert written == []


SOLID_COUNTER = """\
import { createSignal } from 'solid-js';

export default function Counter() {
  const [count, setCount] = createSignal(0);
  return (
    <div class="counter">
      <button onClick={() => setCount(count() - 1)}>-</button>
      <button onClick={() => setCount(count() + 1)}>+</button>
    </div>
  );
}
"""


@pytest.mark.parametrize("path", ["Counter.jsx", "Counter.js"])
def test_jsx_the_javascript_grammar_cannot_read_is_read_as_tsx(tmp_path: Path, path: str) -> None:
    """The JavaScript grammar reads no JSX attribute named as a keyword (Solid's and
    Preact's `class="counter"`): a claim of metavariables only in such a component was
    'does not parse as javascript (first at line 6)'. A JavaScript file that does not parse,
    where TSX's grammar reads it, is read as TSX (21 of astro's 25 JavaScript files that
    did not parse; the other 4 are its fixtures of syntax errors)."""
    html, errors = _claimed(tmp_path, path, SOLID_COUNTER, "count: 5\npattern: $F($$$A)")
    assert errors == []
    assert _linked(html, path) == ["4", "7", "7", "8", "8"]


APEX_FILE = ("#include \"group_norm.h\"\n\nGN_FWD_BWD_ONE_PASS_DEFINITION(10, 640)\n"
             "GN_FWD_BWD_ONE_PASS_DEFINITION(16, 1280)\n\nvoid launch(float* x) {\n"
             "  group_norm_fwd(x, 10);\n}\n")


@pytest.mark.parametrize(("pattern", "lines"), [
    ("$F($$$A)", [7]),  # the macros' lines blanked: the file parses, the call is counted
    ("GN_FWD_BWD_ONE_PASS_DEFINITION($$$A)", [3, 4]),  # a claim that names the macro keeps it
])
def test_a_file_that_parses_once_its_macros_are_left_out_is_counted(
        tmp_path: Path, pattern: str, lines: list[int]) -> None:
    """NVIDIA/apex calls a macro at file scope with no `;` after it, which C++'s grammar
    does not read: a pattern of metavariables only was refused in such a file (it does
    not parse). Blanking such a line (and fmt's `FMT_CONSTEXPR`, `FMT_BEGIN_NAMESPACE`)
    where the file does not parse as written: 46 of apex's 90 files that did not parse
    now do."""
    html, errors = _claimed(tmp_path, "gn.cu", APEX_FILE, f"count: {len(lines)}\npattern: {pattern}")
    assert errors == []
    assert _linked(html, "gn.cu") == [str(n) for n in lines]


# fmt's format.h in small: an `#if` the grammar does not read wherever macros are, and
# `FMT_CONSTEXPR`-style macros it reads once they are left out.
WIDE_HEADER = """\
#ifndef W_H_
#define W_H_
#if W_HAS_INCLUDE(<bit>)
#  include <bit>
#endif
W_BEGIN_NAMESPACE
namespace detail {
W_CONSTEXPR inline auto put(char* out, unsigned v) -> char* {
  *out = static_cast<char>(v);
  return out;
}
W_CONSTEXPR inline auto widen(char c) -> int { return static_cast<int>(c); }
}  // namespace detail
W_END_NAMESPACE
#define ASSERT_NO_THROW(statement) \\
  TEST_NO_THROW_(statement, FATAL_FAILURE_)
#define ASSERT_ANY_THROW(statement) \\
  TEST_ANY_THROW_(statement, FATAL_FAILURE_)
#endif
"""


@pytest.mark.parametrize(("fields", "lines"), [
    ("count: 1\npattern: static_cast<char>($V)", [9]),
    ("count: none\npattern: static_cast<long>($V)", []),
    ("count: 1\npattern: TEST_ANY_THROW_($$$A)", [18]),  # a `#define`'s body stays whole
])
def test_a_file_that_parses_better_once_its_macros_are_left_out_is_read_so(
        tmp_path: Path, fields: str, lines: list[int]) -> None:
    """fmt's format.h does not parse even with its macros blanked (an `#if
    FMT_HAS_INCLUDE(<bit>)` stays unread), so it was read as written: one stretch the
    grammar could not read from its include guard to its end, where every claim's word
    stood (`count: none` of `static_cast<...>` was refused at the first cast of the file)
    and its definitions were named by a macro (`FMT_BEGIN_EXPORT.size_padding.write_int`).
    It is read with its macros blanked where that leaves unread only lines the text as
    written left unread, and fewer: a line that goes on a `#define` is never blanked."""
    from site_gen.code_index import definitions

    html, errors = _claimed(tmp_path, "w.hpp", WIDE_HEADER, fields)
    assert errors == []
    assert _linked(html, "w.hpp") == [str(n) for n in lines]
    names = [(d.name, d.start, d.end) for d in definitions("cpp", WIDE_HEADER.splitlines()).definitions]
    assert ("detail.put", 8, 11) in names and ("detail.widen", 12, 12) in names


GTEST_FILE = """\
#include "gtest/gtest.h"

TEST(format_test, format_int) {
  EXPECT_EQ(fmt::format("{}", 42), "42");
}

TEST(format_test, format_char) { EXPECT_EQ(fmt::format("{:c}", 120), "x"); }

struct person {
  person(const char* name) : name_(name) {}
  explicit person(int) {}
  std::string name_;
  NLOHMANN_DEFINE_TYPE_INTRUSIVE(person, name_)
};
"""


@pytest.mark.parametrize(("code", "fields", "expected"), [
    (GTEST_FILE, "count: 2\npattern: TEST($$$A)", ["3", "7"]),
    (GTEST_FILE, "count: 1\npattern: TEST($S, format_char)", ["7"]),
    (GTEST_FILE, "count: 2\npattern: EXPECT_EQ($$$A)", ["4", "7"]),  # its body is read
    (GTEST_FILE, "count: 1\npattern: NLOHMANN_DEFINE_TYPE_INTRUSIVE($$$A)", ["13"]),
    (GTEST_FILE, "count: none\npattern: person($$$A)", []),  # a constructor is no call
    ("template <typename T, FMT_ENABLE_IF(std::is_integral<T>::value)>\nvoid f(T) {}\n",
     "count: 1\npattern: FMT_ENABLE_IF($$$A)", ["1"]),  # read as a parameter of a function type
    # cutlass: a macro before `static` leaves the grammar `const min() noexcept {...}`, a
    # definition of no type, but no macro's call
    ("struct L {\n  HD static value_type const min() noexcept { return lowest(); }\n};\n",
     "count: none\npattern: min($$$A)", []),
    # a test named by a word of C++ (fmt's `TEST(printf_test, bool)`) is read as a name
    ("TEST(printf_test, bool) {}\nTEST(printf_test, int) {}\n", "count: 1\npattern: TEST($S, $N)\n"
     "where: bool", ["1", "2"]),  # its text as written holds 'bool' (line 2, listed, does not)
    ("void f() {\n  FMT_TRY { g(); }\n  FMT_CATCH(...) {}\n}\n", "count: 1\npattern: FMT_CATCH($$$A)",
     "4: x.cc holds 'FMT_CATCH' at line 3 inside a call, which the cpp grammar reads as a "
     "declaration, not as code, so the claim cannot be counted there; narrow 'in:' or count "
     "with 'text:'"),
])
def test_a_macro_called_where_a_declaration_stands_is_counted_as_a_call(
        tmp_path: Path, code: str, fields: str, expected: list[str] | str) -> None:
    """C++'s grammar reads gtest's `TEST(format_test, format_int) {...}` as the definition
    of a function named TEST (its arguments as parameters' types), a macro called in a
    class as a method's declaration, fmt's `FMT_ENABLE_IF(...)` among a template's
    parameters as a parameter of a function type: a claim counting `TEST($$$A)` counted 1
    of fmt's 139 tests in format-test.cc, and `count: none` would have held. Such a
    declarator is read again as a call; one a parameter of which names itself, a
    constructor, or one with more than a name and its parameters, is not; one that does
    not read as a call (`...`) is a file the claim cannot be counted in; a test named by a
    word of C++ (`bool`) is read as a name."""
    html, errors = _claimed(tmp_path, "x.cc", code, fields)
    if isinstance(expected, str):
        assert errors == [expected]
        return
    assert errors == []
    assert _linked(html, "x.cc") == expected


CUDA_FILE = """\
__global__ void __launch_bounds__(256) add(const float* __restrict__ a, float* b, int n) {
  __shared__ float tile[256];
  if (n > 0) atomicAdd(&b[0], a[0]);
}

__device__ __forceinline__ float sq(float x) { return x * x; }

void launch(const float* a, float* b, int n, cudaStream_t s) {
  add<<<(n + 255) / 256, 256, 0, s>>>(a, b, n);
  sq(1.0f);
}
"""


@pytest.mark.parametrize(("fields", "lines"), [
    ("count: 1\npattern: add($$$A)\nwhere: 0, s>>>", [9]),  # a launch is a call of its kernel
    ("count: 1\npattern: sq($X)", [10]),
    ("count: 1\npattern: atomicAdd($$$A)", [3]),
])
def test_cuda_is_read_as_cpp_with_its_own_words_left_out(
        tmp_path: Path, fields: str, lines: list[int]) -> None:
    """Before, a `__device__ __forceinline__` function's line, or a `__global__` kernel's
    with `__launch_bounds__`, did not parse as C++: a claim naming the function was refused
    for the whole file, and a launch `add<<<...>>>(...)` was no call."""
    html, errors = _claimed(tmp_path, "kernels.cu", CUDA_FILE, fields)
    assert errors == []
    assert [int(n) for n in _linked(html, "kernels.cu")] == lines


@pytest.mark.parametrize("language", sorted(CALLS))
def test_a_call_pattern_counts_calls_in_every_language(tmp_path: Path, language: str) -> None:
    """Go reads `obj.run($$$)` alone as a type conversion, C reads `run($$$)` as a
    declaration, Dart and Solidity read no call outside a function: each pattern matched
    nothing there, so a claim counted 0 (and `count: none` held whatever the code). A
    pattern is now read as code inside a function is, where the grammar reads it so."""
    path, text = CALLS[language]
    repo, head = _one_commit(tmp_path, {path: text})
    method = "$obj->run($$$)" if language == "php" else "obj.run($$$)"
    lines = text.splitlines()
    for pattern, called in ((method, "run(1)"), ("run($$$)", "run(2)")):
        line = next(n for n, code in enumerate(lines, 1) if called in code)
        html, errors = check((repo, [head, head]), f"```claim\nsays: x\ncount: 1\n"
                                                   f"pattern: {pattern}\nin: {path}\n```\n")
        assert errors == [], (pattern, errors)
        assert f"{path}:{line}</a>" in html, (pattern, line)


@pytest.mark.parametrize(("language", "code", "pattern"), [
    # fragments ast-grep matches although the grammar cannot read them alone, and code
    # outside any function: reading a pattern inside a function must not lose these
    ("python", "@cache\ndef f():\n    pass\n", "@$DECO"),
    ("java", "class A {\n  @Override\n  void f() {}\n}\n", "@Override"),
    ("kotlin", "@Composable\nfun f() {}\n", "@Composable"),
    ("rust", "#[derive(Debug)]\nstruct A;\n", "#[derive($$$)]"),
    ("go", "package p\nimport \"fmt\"\n", "import \"$P\""),
    ("go", "package p\ntype A struct{}\nfunc (a *A) F() {}\n", "func ($R *A) $F($$$) { $$$ }"),
    ("go", "package p\nvar x = fmt.Sprint(1)\n", "fmt.Sprint($$$)"),
    ("c", "int x = run(1);\n", "run($$$)"),
    ("java", "class A { int x = run(1); }\n", "run($$$)"),
    ("typescript", "interface A { x: string }\n", "interface $I { $$$ }"),
    ("rust", "impl A { fn f(&self) {} }\n", "fn $F(&self) { $$$ }"),
    ("solidity", "contract A { function f() public { require(x > 0); } }\n", "require($$$)"),
])
def test_a_pattern_read_inside_a_function_still_matches_what_it_matched(
        language: str, code: str, pattern: str) -> None:
    from site_gen.code_index import matches

    assert len(matches(language, code.splitlines(), pattern)) == 1


def test_a_go_file_that_ends_with_a_declaration_parses(tmp_path: Path) -> None:
    """gin's version.go ends with `const Version = "v1.12.0"`: its last line reached the
    grammar without its line end, which Go reads as cut short, so the file 'did not parse'
    and any claim whose pattern it could hold failed the build."""
    repo, head = _one_commit(tmp_path, {"version.go": "package gin\n\n// Version is gin's.\n"
                                                      "const Version = \"v1.12.0\"\n"})
    html, errors = check((repo, [head, head]), "```claim\nsays: x\ncount: 1\n"
                                               "pattern: const Version = $V\nin: version.go\n```\n")
    assert errors == []
    assert "version.go#L4" in html


def test_a_c_define_s_body_is_counted_as_code(tmp_path: Path) -> None:
    """C keeps a `#define`'s body as one text: a file with `#define FREE(p) do { free(p); }
    while (0)` was refused for any claim about `free` (hiredis's test.c for `assert`). The
    body is now read as a function's, across its continued lines."""
    html, errors = _claimed(tmp_path, "alloc.c", (
        "#define FREE(p) \\\n  do { \\\n    free(p); \\\n  } while (0)\n#define release free\n"
        "void f(void *p) { free(p); }\n"), "count: 2\npattern: free($P)")
    assert errors == []
    assert [int(n) for n in _linked(html, "alloc.c")] == [3, 6]


def test_a_define_that_makes_a_string_or_pastes_a_name_is_counted_as_code(tmp_path: Path) -> None:
    """PyTorch's extensions check their tensors with `#define CHECK_CUDA(x) TORCH_CHECK(
    x.is_cuda(), #x " must be a CUDA tensor")`: `#x` (the argument made a string) does not
    read as code, so a claim counting `TORCH_CHECK` was refused in 10 of NVIDIA/apex's
    files. A body is read with `#x` as a string and `a ## b` as one name."""
    html, errors = _claimed(tmp_path, "ext.cpp", (
        "#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x \" must be a CUDA tensor\")\n"
        "#define KERNEL(NAME) \\\n  TORCH_CHECK(run_##NAME##_kernel(), # NAME)\n"
        "void f(at::Tensor t) { TORCH_CHECK(t.dim() == 2, \"2-D\"); }\n"),
        "count: 3\npattern: TORCH_CHECK($$$A)")
    assert errors == []
    assert [int(n) for n in _linked(html, "ext.cpp")] == [1, 3, 4]


def test_a_rust_macro_call_s_arguments_are_counted_as_code(tmp_path: Path) -> None:
    """Rust keeps a macro call's arguments as tokens: a file with `assert_eq!(x.unwrap(),
    1)` was refused for any claim about `unwrap` (64 of axum's files). The arguments are
    now read again as code, and the calls inside them in turn."""
    repo, head = _one_commit(tmp_path, {"lib.rs": (
        "fn f() {\n    assert_eq!(x.unwrap(), 1);\n    let v = vec![a.unwrap(), format!(\"{}\",\n"
        "        b.unwrap())];\n    y.unwrap();\n}\nasync fn g() {\n"
        "    let t = quote! { #x.await };\n}\n")})
    html, errors = check((repo, [head, head]), "```claim\nsays: x\ncount: 4\n"
                                               "pattern: $X.unwrap()\nin: lib.rs\n```\n")
    assert errors == []
    assert [int(n) for n in re.findall(r"lib\.rs:(\d+)</a>", html)] == [2, 3, 4, 5]
    _, errors = check((repo, [head, head]), "```claim\nsays: x\ncount: 0\npattern: $X.await\n"
                                            "in: lib.rs\n```\n")
    assert errors == []  # a DSL's `.await` is a keyword's token, as it was: not refused


def test_a_hunk_in_ruby_names_its_method_and_one_in_nix_is_not_checked(tmp_path: Path) -> None:
    repo, head = _one_commit(tmp_path, {
        "repo.rb": "class Repo\n  def find(id)\n    nil\n  end\nend\n",
        "flake.nix": "{\n  outputs = { self }: {\n    x = 1;\n  };\n}\n"})
    _, errors = check((repo, [head, head]), "```proposal\nfile: repo.rb L3 · Repo.find\n"
                                            "@@ -3,1 +3,1 @@\n-    nil\n+    db.find(id)\n```\n\n"
                                            "```proposal\nfile: flake.nix L3 · outputs\n"
                                            "@@ -3,1 +3,1 @@\n-    x = 1;\n+    x = 2;\n```\n")
    assert errors == []


def _one_commit(tmp_path: Path, files: dict[str, str | bytes]) -> tuple[Path, str]:
    """A repository of `files` in one commit, and that commit."""
    return tmp_path / "code", commit(tmp_path / "code", files)


def _checker(tmp_path: Path, files: dict[str, str]) -> tuple[Callable[[str], tuple[str, list[str]]], str]:
    """What checks a page's text against a repository of `files` in one commit (its html
    and errors), and that commit."""
    repo, head = _one_commit(tmp_path, dict(files))
    return functools.partial(check, (repo, [head, head])), head


def _claimed(tmp_path: Path, path: str, code: str, fields: str) -> tuple[str, list[str]]:
    """A claim of `fields` (its count and pattern) in `path`, checked against a repository
    of that one file: (html, errors)."""
    checked, _ = _checker(tmp_path, {path: code})
    return checked(f"```claim\nsays: x\n{fields}\nin: {path}\n```\n")


def _counts_at(tmp_path: Path, path: str, code: str, pattern: str, lines: list[int]) -> None:
    """A claim of `pattern` in `path` (holding `code`) holds with a count of `lines`, and
    links those lines."""
    html, errors = _claimed(tmp_path, path, code, f"count: {len(lines)}\npattern: {pattern}")
    assert errors == [], errors
    assert _linked(html, path) == [str(line) for line in lines]


def _linked(html: str, path: str) -> list[str]:
    """The lines of `path` (by its name) `html` links to, in its order."""
    return re.findall(rf"{re.escape(path.rsplit('/', 1)[-1])}:(\d+)</a>", html)


SAMPLES = {  # a few definitions in each language the code index reads names in
    "python": "class T:\n    @d\n    def f(self):\n        return 1\n",
    "cpp": "template <class T>\nstruct A { bool operator==(const A&) const; void f() {} };\n",
    "javascript": "const api = { get() {}, put: (x) => x };\nclass A { h = () => 1; }\n",
    "go": GO, "ruby": "class R\n  def self.b; end\n  def v?; end\nend\n",
    "elixir": "defmodule M do\n  def f(0), do: 0\n  def f(n) when n > 0, do: n\nend\n",
    "haskell": "f :: Int -> Int\nf 0 = 1\nf n = n\n", "kotlin": "class R { fun f() {} }\n",
    "dart": "class R { int f() { return 1; } }\n", "lua": "function M:stop() end\n",
    "hcl": "resource \"a\" \"b\" {\n  c = 1\n}\n", "rust": "#[inline]\nfn f() {}\n",
}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(SAMPLES)),
       st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(
           ["", *"{}()[];:,.'\"\n=<>@#!?*&", "def ", "class ", "template <", "operator", "end",
            "do", "::", "defmodule ", "resource \""])), max_size=6))
def test_reading_definitions_never_fails_whatever_the_code(language: str,
                                                           edits: list[tuple[int, str]]) -> None:
    """Broken code of any language (a page may pin a commit mid-edit): definitions are
    read, each with a name and lines in order, and nothing raises."""
    from site_gen.code_index import definitions

    text = SAMPLES[language]
    for at, chars in edits:
        at %= len(text) + 1
        text = text[:at] + chars + text[at + (chars == ""):]
    for d in definitions(language, text.splitlines()).definitions:
        assert d.name and 1 <= d.start <= d.end


def test_a_pattern_claim_with_no_code_to_count_in_is_an_error(tmp_path: Path) -> None:
    """A pattern counts in the files a grammar reads: a claim whose `in:` holds none (notes
    and configuration only, say) would hold whatever the code says: `count: none`, `count:
    0` and `count: all` alike. It is an error that says what counts in such files. A claim
    that holds shows how many files it was counted in, and `count: none` without `where:`
    does not say how many matches it looked at (none)."""
    checked, head = _checker(tmp_path, {"docs/notes.md": "call save()\n",
                                        "docs/conf.yaml": "save: true\n",
                                        "src/app.py": "def main():\n    load()\n"})
    claim = "```claim\nsays: nothing saves\ncount: none\npattern: save($$$A)\n{}```\n"
    _, errors = checked("Intro.\n\n" + claim.format("in: docs/\n"))
    assert errors == [
        f"7: 'in: docs/' holds no file a grammar reads at {head[:7]}, so the pattern has "
        "nothing to count in; a pattern counts in code (bash, c, " + errors[0].split(
            "(bash, c, ", 1)[1].split(")", 1)[0] + ") (in YAML, a pattern that writes a key or "
        "an item, 'Enabled: $V' or '- uses: $A', not a value alone): write 'text:' to count a "
        "literal in any file"]  # (docs/conf.yaml: YAML, where a call is a value alone)
    assert "python" in errors[0]
    html, errors = checked("Intro.\n\n" + claim.format(""))  # the tree: src/app.py
    assert errors == []
    assert "No match: <code>save($$$A)</code>, 1 file read at" in html
    html, errors = checked("Intro.\n\n" + claim.format("in: docs/\n").replace(
        "count: none\npattern: save($$$A)", "count: 1\ntext: save("))
    assert errors == [] and "1 counted: <code>save(</code> in <code>docs/</code>, 2 files " \
                            "read at" in html


CACHE = """\
class Cache:
    def put(self, key, value):
        with self._lock:
            self._items[key] = value

    def warm(self, items):
        for key, value in items:
            self._items[key] = value
        with self._lock:
            seen[key] = True
"""


@pytest.mark.parametrize(("fields", "expected"), [
    # every write stands inside the lock: one does not, named with its line
    ("count: all\npattern: self._items[$K] = $V\ninside: with self._lock: $$$B",
     ["3: the claim 'x' does not hold at {head}: 1 of 2 matches does not stand inside 'with "
      "self._lock: $$$B': cache.py:8"]),
    ("count: 1\npattern: self._items[$K] = $V\ninside: with self._lock: $$$B", []),
    ("count: all\npattern: for $K, $V in $I: $$$B\ninside: def warm($$$A): $$$B", []),
    ("count: none\npattern: self._items[$K] = $V\ninside: for $X in $Y: $$$B",
     ["3: the claim 'x' does not hold at {head}: 1 match stands inside 'for $X in $Y: $$$B': "
      "cache.py:8"]),
    # with `where:`: a counted match holds it and stands inside
    ("count: 1\npattern: self._items[$K] = $V\nwhere: key\ninside: def warm($$$A): $$$B", []),
    ("count: 2\npattern: self._items[$K] = $V\nwhere: key\ninside: def warm($$$A): $$$B",
     ["3: the claim 'x' does not hold at {head}: counted 1 holding 'key' inside 'def "
      "warm($$$A): $$$B' (of 2 matches), not 2: cache.py:8"]),
    # `count: all` with both: each match by what it wants, not both said of each (the
    # sqlalchemy trial: a match that held the text, outside, "does not hold 'x' inside 'P'")
    ("count: all\npattern: self._items[$K] = $V\nwhere: key\ninside: def warm($$$A): $$$B",
     ["3: the claim 'x' does not hold at {head}: 1 of 2 matches does not stand inside 'def "
      "warm($$$A): $$$B': cache.py:4"]),
    ("count: all\npattern: self._items[$K] = $V\nwhere: value\ninside: def put($$$A): $$$B",
     ["3: the claim 'x' does not hold at {head}: 1 of 2 matches does not stand inside 'def "
      "put($$$A): $$$B': cache.py:8"]),
    ("count: all\npattern: $D[$K] = $V\nwhere: value\ninside: def put($$$A): $$$B",
     ["3: the claim 'x' does not hold at {head}: 2 of 3 matches are not counted: 1 does not "
      "stand inside 'def put($$$A): $$$B': cache.py:8; 1 does not hold 'value' or stand inside "
      "'def put($$$A): $$$B': cache.py:10"]),
    ("count: all\npattern: $D[$K] = $V\nwhere: self._\ninside: with self._lock: $$$B",
     ["3: the claim 'x' does not hold at {head}: 2 of 3 matches are not counted: 1 does not "
      "hold 'self._': cache.py:10; 1 does not stand inside 'with self._lock: $$$B': cache.py:8"]),
    ("count: 1\npattern: $D[$K] = $V\nwhere: self._\ninside: with self._lock: $$$B", []),
    # nothing matches: that none stands inside says nothing
    ("count: none\npattern: self._gone[$K] = $V\ninside: with self._lock: $$$B",
     ["3: the claim 'x' does not hold at {head}: nothing matches at all, so that none stands "
      "inside 'with self._lock: $$$B' says nothing; to claim that nothing matches, leave "
      "'inside:' out"]),
    ("count: all\ntext: self._items\ninside: with self._lock: $$$B",
     ["5: 'inside:' needs a 'pattern:': a 'text:' is matched line by line, not read as code; "
      "count with 'pattern:', or say the text with 'where:'"]),
    # quoted as YAML would quote it (the hiredis trial page did): the quotes are code
    ("count: 1\npattern: self._items[$K] = $V\ninside: \"with self._lock: $$$B\"",
     ["3: the claim 'x' does not hold at {head}: counted 0 standing inside '\"with self._lock: "
      "$$$B\"' (of 2 matches), not 1; the quotes are part of the inside: write 'inside: with "
      "self._lock: $$$B'"]),
])
def test_a_claim_counts_what_stands_inside_code_a_pattern_matches(
        tmp_path: Path, fields: str, expected: list[str]) -> None:
    """'Every write to the cache holds the lock' is a claim about where code stands, which
    no text on the match's own lines can say: `inside:` is an ast-grep pattern a counted
    match stands inside, at any depth (ast-grep's `inside` rule)."""
    checked, head = _checker(tmp_path, {"cache.py": CACHE})
    html, errors = checked(f"```claim\nsays: x\n{fields}\nin: cache.py\n```\n")
    assert errors == [e.format(head=head[:7]) for e in expected]
    if "count: all" in fields and not expected:
        assert "The 1 match stands inside <code>" in html  # not "All 1 matches stand"
    if "where: self._" in fields and not expected:  # each site not counted by what it wants
        assert "not counted: no <code>self._</code></span>" in html
        assert "not counted: not inside</span>" in html
    if not expected and "count: 1\n" in fields and "$D" not in fields:
        assert html.count('<li class="claim-counted">') == 1
        assert html.count('<li class="claim-other">') == 1
        # which one is not counted, in words (not by colour alone)
        assert len(re.findall(r'<li class="claim-other">.*?</code> <span class="claim-uncounted">'
                              r'not counted(: not inside)?</span>', html)) == 1
        if "where:" in fields:  # with both, by what it wants (it holds 'key', outside)
            assert '<span class="claim-uncounted">not counted: not inside</span>' in html
        assert "1 counted, each standing inside <code>with self._lock: $$$B</code>" in html \
            or "1 counted, each holding <code>key</code> inside <code>def warm($$$A): " \
               "$$$B</code>" in html


@pytest.mark.parametrize(("language", "path", "code", "pattern", "inside", "lines"), [
    ("javascript", "a.js", "function a() {\n  try {\n    save(x);\n  } catch (e) {}\n  save(y);\n}\n",
     "save($$$A)", "try { $$$B } catch ($E) { $$$C }", [3]),
    ("rust", "a.rs", "fn f() {\n    unsafe {\n        free(p);\n    }\n    free(q);\n}\n",
     "free($P)", "unsafe { $$$B }", [2 + 1]),
    ("go", "a.go", "package p\nfunc (c *Cache) Put(k string) {\n\tc.m[k] = 1\n}\n"
     "func other() { c.m[k] = 2 }\n", "c.m[$K] = $V", "func ($R *Cache) Put($$$A) { $$$B }", [3]),
    # a match read again from a macro's arguments: inside by its lines
    ("rust", "b.rs", "fn f() {\n    unsafe {\n        assert_eq!(free(p), 1);\n    }\n"
     "    assert_eq!(free(q), 1);\n}\n", "free($P)", "unsafe { $$$B }", [3]),
])
def test_inside_reads_each_language_s_blocks(tmp_path: Path, language: str, path: str,
                                             code: str, pattern: str, inside: str,
                                             lines: list[int]) -> None:
    html, errors = _claimed(tmp_path, path, code,
                            f"count: {len(lines)}\npattern: {pattern}\ninside: {inside}")
    assert errors == [], language
    counted = re.findall(r'<li class="claim-counted"><a [^>]*>[^<:]*:(\d+)</a>', html)
    assert [int(n) for n in counted] == lines



@pytest.mark.parametrize(("fields", "expected"), [
    ("count: 1\ntext:  +", []),  # the space before a regular expression's '+'
    ("count: 2\ntext: +", []),
    ("count:  2\ntext:\t+", []),  # a count's spaces are no part of it; a tab separates too
    ("count: all\ntext: =\nwhere:  +", ["3: the claim 'x' does not hold at {head}: 1 of 2 "
                                        "matches does not hold ' +': spaces.py:2"]),
])
def test_a_text_may_start_with_a_space(tmp_path: Path, fields: str, expected: list[str]) -> None:
    """The sqlalchemy trial: `text:  +` (the patterns that want a space before '+') counted
    every '+', the spaces after the colon all left out, and no text could start with one.
    One space after the colon separates; more are the text's (`text:` and `where:`)."""
    checked, head = _checker(tmp_path, {"spaces.py": "p = r'CONSTRAINT +PRIMARY'\nq = a+b\n"})
    html, errors = checked(f"```claim\nsays: x\n{fields}\nin: spaces.py\n```\n")
    assert errors == [e.format(head=head[:7]) for e in expected]
    if fields.endswith("text:  +"):  # shown with its space, kept as written (white-space: pre-wrap)
        assert "1 counted: <code> +</code>" in html, html
        assert re.search(r"\.claim-count code \{ white-space: pre-wrap; \}", STYLESHEET.read_text())


SAVING = """\
def run():
    try:
        save()
    except OSError:
        log()
    try:
        save()
    finally:
        close()
"""


@pytest.mark.parametrize(("fields", "expected"), [
    ("count: all\npattern: save()\ninside: |\n  try:\n      $$$A\n  except $E:\n      $$$B",
     ["3: the claim 'x' does not hold at {head}: 1 of 2 matches does not stand inside 'try:\n"
      "    $$$A\nexcept $E:\n    $$$B': run.py:7"]),
    ("count: 1\npattern: save()\ninside: |\n  try:\n      $$$A\n\n  except $E:\n      $$$B\n", []),
    ("count: 1\npattern: |\n    try:\n        $$$A\n    finally:\n        $$$B\nin: run.py", []),
    ("count: 1\npattern: |-\n\ttry:\n\t\t$$$A\n\tfinally:\n\t\t$$$B\nin: run.py", []),  # tabs
])
def test_a_pattern_may_be_written_as_a_block_of_lines(tmp_path: Path, fields: str,
                                                     expected: list[str]) -> None:
    """Python's `try:` with its `except` is no pattern on one line ('try: $$$A except $E:
    $$$B' reads with an error and matches nothing), so 'every save stands inside a try
    that catches' could not be claimed: `pattern: |` and `inside: |` take the lines after
    them, indented, as YAML and ast-grep's rules write a literal block."""
    checked, head = _checker(tmp_path, {"run.py": SAVING})
    html, errors = checked(f"```claim\nsays: x\n{fields}\nin: run.py\n```\n".replace(
        "in: run.py\nin: run.py", "in: run.py"))
    assert errors == [e.format(head=head[:7]) for e in expected]
    if not expected:  # shown on lines of their own, as written
        assert '<code class="claim-lines">try:\n' in html
        assert re.search(r"\.claim-lines \{[^}]*white-space: pre;",
                         STYLESHEET.read_text())


@pytest.mark.parametrize(("path", "code", "fields", "at"), [
    # Ruby reads a metavariable where a class's name (a constant) stands as a variable's
    ("cop.rb", "module Cop\n  class Name < Base\n    def on_send(node)\n    end\n  end\nend\n",
     "count: none\npattern: class $C < Base $$$B end", "$C <"),
    ("cop.rb", "module Cop\n  class Name < Base\n    def on_send(node)\n    end\n  end\nend\n",
     "count: none\npattern: def on_send($N) $$$B end\ninside: class $C < Base $$$B end", "$C <"),
    ("run.py", SAVING, "count: 0\npattern: try: $$$A except $E: $$$B", "$$$A except"),
])
def test_a_pattern_the_grammar_cannot_read_is_an_error_not_a_count_of_none(
        tmp_path: Path, path: str, code: str, fields: str, at: str) -> None:
    """The rubocop trial: `class $C < Base $$$B end` counted 0 cops, with no word that the
    pattern could match nothing at all (ast-grep matches no code with a pattern its grammar
    reads with an error), so `count: none` held whatever the code was. Where a pattern (or
    an inside) that matched nothing does not read whole, the error says where."""
    _, errors = _claimed(tmp_path, path, code, fields)
    key = "inside" if "inside" in fields else "pattern"
    written = fields.split(f"{key}: ")[1]
    assert len(errors) == 1 and errors[0].startswith(
        f"{4 if key == 'pattern' else 5}: '{key}: {written}' matches nothing: ast-grep reads it as "
        f"{'ruby' if path.endswith('.rb') else 'python'} with an error (at '{at}'), and what it "
        "cannot read matches no code"), errors


@pytest.mark.parametrize(("path", "code", "pattern"), [
    ("A.kt", "val x = 1\n", "fun $F($$$A) { $$$B }"),  # `$$$A` may stand for no parameter
    ("a.php", "<?php\n$y = 1;\n", "$x = new $C($$$A)"),  # PHP's `$x` is a variable, kept
    ("main.tf", "variable \"a\" {}\n", "resource \"aws_vpc\" $$$A"),
    ("a.js", "let x = 1;\n", "$el.on($E, $H)"),
    ("send.dart", "void main() {}\n", "if ($C) { $$$B; }"),  # a body of one statement
    # alone, Swift reads it as a variable missing its `let`, which matches no capture's
    # `[unowned self]` the pattern matches: no code written as it is
    ("a.swift", "let x = 1\n", "unowned $X"),
])
def test_a_pattern_that_reads_whole_may_count_none(tmp_path: Path, path: str, code: str,
                                                  pattern: str) -> None:
    """What ast-grep reads whole is no error where it matches nothing: each metavariable
    is read as a name, `$$$A` also as nothing, and a `$` that begins no metavariable kept."""
    _, errors = _claimed(tmp_path, path, code, f"count: none\npattern: {pattern}")
    assert errors == []


TREE_BEYOND_ENDINGS = {  # files highlighting reads as languages a grammar reads
    "include/table.hxx": "int put(int k) {\n  return store(k);\n}\n",  # C++
    "include/table.inl": "inline int get() { return store(2); }\n",  # C++: no lexer claims it
    "Rakefile": "task :build do\n  store(:all)\nend\n",  # Ruby
    "BUILD.bazel": 'cc_library(name = "t", srcs = store(["*.cc"]))\n',  # Starlark: Python
    "app.mm": "@implementation A\n- (void)f { store(1); }\n@end\n",  # Objective-C++: none
    "lib/page.html.eex": "<p><%= store(@x) %></p>\n",  # a template Pygments colours as Elixir
    "src/main.py": "store(0)\n",
}


def test_a_file_highlighting_reads_as_a_language_a_grammar_reads_is_counted_in(
        tmp_path: Path) -> None:
    """A claim over the tree skipped, without a word, every file whose ending the code
    index did not list, though highlighting read it as a language a grammar reads: a
    C++ header `.hxx` (`.ipp`, `.tpp`, `.h++`; `.inl`, which no lexer claims, coloured
    as C++ now), Ruby's `Rakefile` and `.gemspec`, Bazel's
    `BUILD.bazel` (Python), so `count: none` of a call held where they call it. A file is
    read in the grammar of the lexer highlighting reads it with, by its name, where that
    lexer's own ending is one a grammar reads (Objective-C++, which shares `.hh` with C++,
    is not), and no template (EEx)."""
    checked, head = _checker(tmp_path, TREE_BEYOND_ENDINGS)
    html, errors = checked("```claim\nsays: x\ncount: 5\npattern: store($A)\n```\n\n"
                           "Put: [[table.hxx::put]].\n")
    assert errors == [], errors
    for path, line in (("table.hxx", "2"), ("table.inl", "1"), ("Rakefile", "2"),
                       ("BUILD.bazel", "1"), ("main.py", "1")):
        assert _linked(html, path) == [line], (path, _linked(html, path))
    assert f"{head}/include/table.hxx#L1-L3" in html  # the symbol, by the C++ grammar
    assert _lexer_name("include/table.inl") == "name:cpp"  # coloured as C++ too
    assert _linked(html, "app.mm") == []  # not counted
    assert ("not read, as no grammar reads them, though each holds <code>store</code>: "  # named
            "<code>app.mm</code> (Objective-C++), <code>lib/page.html.eex</code> (Elixir)") in html


@pytest.mark.parametrize(("path", "code", "pattern", "said"), [
    # Swift's parameters stand beside the return type: `$T` took the first parameter
    ("A.swift", "func f(x: Int) -> Int {\n  return x\n}\nfunc h() -> Int {\n  return 1\n}\n",
     "func $F($$$A) -> $T { $$$B }", ("$$$A", "$T")),
    ("log.py", "log(1)\nlog(1, 2)\nlog(1, 2, 3)\n", "log($B, $$$A)", None),
    ("log.py", "log(1, _DEFAULT)\n", "log($$$A, _DEFAULT)", None),  # a name, no metavariable
    ("A.swift", "func f(x: Int) -> Int {\n  return x\n}\n", "func $F($$$A) -> Int { $$$B }", None),
])
def test_a_multiple_metavariable_ast_grep_ends_at_once_is_an_error(
        tmp_path: Path, path: str, code: str, pattern: str, said: tuple[str, str] | None) -> None:
    """The Alamofire trial: `func $F($$$A) -> $T { $$$B }` counted 12 of Alamofire's
    functions, those of no parameter: ast-grep ends `$$$A` at the first node the
    metavariable after it matches, and any node does, and tries no other split. Such a
    pattern is an error that says so, whatever it counts."""
    _, errors = _claimed(tmp_path, path, code, f"count: 2\npattern: {pattern}")
    if said is None:
        assert not any("stands for no node" in e for e in errors), errors
        return
    many, one = said
    assert errors == [
        f"4: 'pattern: {pattern}' matches only code where '{many}' stands for no node: "
        f"ast-grep's '{many}' takes nodes only until one that '{one}', the metavariable after "
        "it, matches, and any node does, so it takes none and does not try again (Swift's "
        "'func $F($$$A) -> $T { $$$B }' counts functions of no parameter, whose parameters "
        f"stand beside the return type); expected what '{one}' stands for written out ('-> "
        "Int'), or the pattern without it ('func $F($$$A) { $$$B }' counts functions "
        "whatever they return)"], errors


@pytest.mark.parametrize(("path", "code", "pattern", "lines"), [
    ("log.py", "log(1)\nlog(1, 2)\nlog(1, 2, 3)\nlog()\n", "log($$$A, $B)", [1, 2, 3]),
    ("log.py", "log(1)\nlog(1, 2)\nlog(1, 2, 3)\nlog()\n", "log($$$, $_)", [1, 2, 3]),
    # the item after `$$$A` stands earlier in the list too
    ("log.py", "log(3, 1, 3)\nlog(1, 3)\nlog(3, 1)\n", "log($$$A, 3)", [1, 2]),
    ("A.scala", 'object A {\n  List("", "a", "")\n  List("a", "")\n}\n', 'List($$$A, "")', [2, 3]),
    # a lambda's parameters stand beside its body: `$B` took the first parameter
    ("run.py", "f = lambda: 1\ng = lambda x: x\nh = lambda x, y: x + y\n", "lambda $$$A: $B",
     [1, 2, 3]),
])
def test_a_multiple_metavariable_before_an_item_is_read_spelled_out(
        tmp_path: Path, path: str, code: str, pattern: str, lines: list[int]) -> None:
    """`log($$$A, $B)` counted calls of one argument, `List($$$A, "")` no list with a `""`
    before its last, and `lambda $$$A: $B` no lambda of a parameter: ast-grep ends `$$$A`
    at the first node the node after it matches and tries no other split. Such a pattern
    is read with `$$$A` written as one, two, ... metavariables alone too (up to twelve)."""
    _counts_at(tmp_path, path, code, pattern, lines)


CALLS_AND_METHODS = """\
class Store:
    def close(self):
        pass

    def save(self, path, wait=True):
        pass


put(key=1)
put(1, key=2)
put(1, 2, key=3)
put(key=4, x=5)
put(1)
put()
"""


@pytest.mark.parametrize(("pattern", "lines"), [
    ("def $F(self, $$$A):\n      $$$B", [2, 5]),  # was 5 alone: `close(self)` has no comma
    ("put($$$A, key=$V, $$$B)", [9, 10, 11, 12]),  # was 12 alone: `key` last in the others
    ("put($B, $$$A)", [9, 10, 11, 12, 13]),  # was 10-12: a call of one argument
    ("put(key=$V, $$$A)", [9, 12]),  # was 12
    ("put($$$A)", [9, 10, 11, 12, 13, 14]),
])
def test_a_multiple_metavariable_last_after_a_comma_may_stand_for_nothing(
        tmp_path: Path, pattern: str, lines: list[int]) -> None:
    """`def $F(self, $$$A): $$$B` counted no method that takes `self` alone: ast-grep
    matches the comma before a multiple metavariable that ends a list only to a comma,
    so what the metavariable stands for could not be nothing (`put($$$A, key=$V, $$$B)`
    missed every call that passes `key` last). The pattern is also read with each such
    metavariable and its comma left out."""
    count = len(lines)
    fields = (f"count: {count}\npattern: |\n  " + pattern.replace("\n", "\n  ")
              if "\n" in pattern else f"count: {count}\npattern: {pattern}")
    html, errors = _claimed(tmp_path, "store.py", CALLS_AND_METHODS, fields)
    assert errors == [], errors
    assert _linked(html, "store.py") == [str(line) for line in lines]


def test_code_in_a_claim_s_scope_no_grammar_reads_is_named_where_it_holds_the_word(
        tmp_path: Path) -> None:
    """A claim over the tree read only the files a grammar reads, and said nothing of the
    others: `count: none` of `save_checkpoint(...)` held where a Cython file made the call.
    The block names the files of code in its scope that no grammar reads and that hold the
    pattern's word, with their language; prose, data and a file without the word are not
    named."""
    checked, _ = _checker(tmp_path, {
        "src/train.py": "def run():\n    pass\n",
        "src/fast.pyx": "cdef int go():\n    save_checkpoint(1)\n",
        "src/other.pyx": "cdef int other():\n    return 1\n",
        "docs/guide.md": "Call `save_checkpoint(step)` to save.\n",
        "data/steps.json": '{"call": "save_checkpoint(1)"}\n',
        "certs/save_checkpoint.pem": "-----BEGIN CERTIFICATE-----\nsave_checkpoint\n"
                                     "-----END CERTIFICATE-----\n"})
    html, errors = checked("```claim\nsays: nothing saves\ncount: none\n"
                           "pattern: save_checkpoint($$$A)\n```\n")
    assert errors == [], errors
    assert ("; not read, as no grammar reads it, though it holds <code>save_checkpoint</code>: "
            "<code>src/fast.pyx</code> (Cython).</p>") in html
    assert "guide.md" not in html and "steps.json" not in html and "other.pyx" not in html
    assert ".pem" not in html  # a certificate is no code (Pygments colours it as armored text)
    html, _ = checked("```claim\nsays: nothing saves\ncount: none\n"
                      "pattern: save_checkpoint($$$A)\nin: src/*.py\n```\n")
    assert "not read, as no grammar" not in html  # the scope holds no such file


@pytest.mark.parametrize(("path", "code", "pattern", "lines"), [
    ("send.ts", "async function send() {\n  try {\n    await go();\n  } catch (error) {\n"
     "    log(error);\n  }\n}\n", "catch ($E) { $$$B }", [4]),  # a call of catch, a block
    ("run.py", "try:\n    go()\nexcept OSError:\n    pass\nexcept ValueError as e:\n"
     "    raise\n", "pattern: |\n  except $E as $V:\n      $$$B", [5]),  # read alone already
    ("mode.go", "package t\n\nfunc f(x int) int {\n\tswitch x {\n\tcase 1:\n\t\treturn 2\n"
     "\tdefault:\n\t\treturn 0\n\t}\n}\n", "pattern: |\n  case $X:\n  \t$$$B", [5]),
    ("A.java", "class A {\n  void f() {\n    try {\n      go();\n    } catch (IOException e) {\n"
     "      log(e);\n    }\n  }\n}\n", "catch ($T $E) { $$$B }", [5]),
])
def test_a_clause_of_a_statement_is_read_in_the_statement(
        tmp_path: Path, path: str, code: str, pattern: str, lines: list[int]) -> None:
    """ky's `catch ($E) { $$$B }` counted none of its catches (TypeScript reads it alone as
    a call of `catch` and a block), a `case $X:` none of gin's cases, and Java's `catch ($T
    $E) { $$$B }` could not be read at all: a clause of a statement is read in the
    statement that holds it too (`try {} catch ...`, in a function where the language
    asks), its node picked by kind (Python's `except`, read alone, counts as before)."""
    fields = pattern if pattern.startswith("pattern: ") else f"pattern: {pattern}"
    html, errors = _claimed(tmp_path, path, code, f"count: {len(lines)}\n{fields}")
    assert errors == [], errors
    assert _linked(html, path) == [str(line) for line in lines]


@pytest.mark.parametrize(("path", "code", "pattern", "lines"), [
    ("run.js", "function f() {\n  foo(1);\n  x = 2;\n  foo(3);\n}\n", "foo($X);", [2, 4]),
    # a statement, as ast-grep reads `foo($X);`: not the calls in `x = foo(2)`, `bar(foo(3))`
    ("run.js", "function f() {\n  x = foo(2);\n  bar(foo(3));\n  foo(4);\n}\n", "foo($X);", [4]),
    ("Run.java", "class Run {\n  void f() {\n    x = foo(2);\n    foo(3);\n  }\n}\n",
     "foo($X);", [4]),
    ("run.php", "<?php\nfunction f() {\n  $x = foo(2);\n  foo(3);\n}\n", "foo($X);", [4]),
    ("run.ts", "function f() {\n  x = 1;\n  y = 2;\n}\n", "$A = $B;", [2, 3]),
    ("Run.java", "class Run {\n  void f() {\n    foo(1);\n    throw new E(2);\n  }\n}\n",
     "foo($X);", [3]),
    ("run.c", "void f(void) {\n  foo(1);\n  x = 2;\n}\n", "$A = $B;", [3]),
    ("run.cpp", "void f() {\n  foo(1);\n  foo(2);\n}\n", "foo($X);", [2, 3]),
    ("Run.cs", "class Run {\n  void F() {\n    Foo(1);\n  }\n}\n", "Foo($X);", [3]),
    ("run.rs", "fn f() {\n    foo(1);\n    x = 2;\n}\n", "foo($X);", [2]),
    # guzzle's StreamHandler: 4 for its 2 `$request = $request->withHeader(...);`
    ("run.php", "<?php\nfunction f($r) {\n  $r = $r->withHeader('A', '1');\n"
     "  throw new E('x');\n}\n", "throw new $E($$$A);", [4]),
    ("run.php", "<?php\nfunction f($r) {\n  $r = $r->withHeader('A', '1');\n}\n",
     "$R = $R->withHeader($$$A);", [3]),
])
def test_a_statement_s_pattern_counts_each_statement_once(
        tmp_path: Path, path: str, code: str, pattern: str, lines: list[int]) -> None:
    """A pattern that ends in `;` is read in a function's body as the expression and alone
    as the statement, and each reading matched every statement: `foo($X);` counted each
    call twice in JavaScript, TypeScript, Java, C, C++, C#, Rust and PHP (guzzle's
    `throw new $E($$$A);` 134 for its 67 throws), so a true count failed and a count of
    twice the code held. And the reading in a function's body picked the expression, so
    the calls inside other statements counted too: a pattern with its `;` is a statement,
    as ast-grep reads it alone."""
    _counts_at(tmp_path, path, code, pattern, lines)


TYPED_PY = "def load(path) -> dict:\n    return {}\n\n\nasync def save(path):\n    pass\n"


@pytest.mark.parametrize(("path", "code", "pattern", "lines"), [
    ("run.py", TYPED_PY, "pattern: |\n  def $F($$$A):\n      $$$B", [1]),  # not `async def`
    ("run.py", TYPED_PY, "pattern: |\n  async def $F($$$A):\n      $$$B", [5]),  # as before
    ("run.ts", "function load(path: string): string {\n  return path;\n}\nfunction save(p) {\n}\n",
     "pattern: function $F($$$A) { $$$B }", [1, 4]),
    ("run.rs", "fn load(path: &str) -> String {\n    String::new()\n}\nfn save(p: &str) {\n}\n",
     "pattern: fn $F($$$A) { $$$B }", [1, 4]),
    ("run.go", "package run\n\nfunc load(path string) string {\n\treturn path\n}\n\n"
     "func save(p string) {\n}\n", "pattern: func $F($$$A) { $$$B }", [3, 7]),
    ("Run.kt", "fun load(path: String): String {\n    return path\n}\nfun save(p: String) {\n}\n",
     "pattern: fun $F($$$A) { $$$B }", [1, 4]),
    # ky's methods and arrow functions: a TypeScript method's head begins with its name
    ("ky.ts", "export class Ky {\n  static create(input: string): Ky {\n    return new Ky();\n  }\n"
     "  static plain(x) {\n    return x;\n  }\n}\n", "pattern: static $M($$$A) { $$$B }", [2, 5]),
    ("ky.ts", "const f = (x: number): number => x + 1;\nconst g = (x) => x;\n",
     "pattern: ($$$A) => $B", [1, 2]),
    # plug: a guard stands where a return type would, and ast-grep matches it likewise
    ("conn.ex", "defmodule Conn do\n  def assign(conn, key, value) when is_atom(key) do\n"
     "    conn\n  end\n\n  def download(conn) do\n    conn\n  end\n\n"
     "  def halt(conn) when is_map(conn), do: conn\nend\n",
     "pattern: def $F($$$A) do $$$B end", [2, 6]),
    ("conn.ex", "defmodule Conn do\n  def halt(conn) when is_map(conn), do: conn\n"
     "  def put(conn), do: conn\nend\n", "pattern: def $F($$$A), do: $B", [2, 3]),
])
def test_a_function_s_pattern_without_a_return_type_counts_functions_with_one(
        tmp_path: Path, path: str, code: str, pattern: str, lines: list[int]) -> None:
    """Python's `def $F($$$A): $$$B` counted no function with a `-> dict` (ast-grep
    matches a head that holds a return type only with a pattern that writes one), nor
    TypeScript's, Rust's, Go's or Kotlin's function patterns a function that declares what
    it returns: in a typed code base, most of them. Where the language writes the type
    after the parameters, the pattern is read with one written in too; and Elixir's with a
    guard (`when is_atom(key)`), which stands there (67 of the 259 `def ... do` in plug)."""
    html, errors = _claimed(tmp_path, path, code, f"count: {len(lines)}\n{pattern}")
    assert errors == [], errors
    assert _linked(html, path) == [str(line) for line in lines]


SWITCH = ("function f(x) {\n  switch (x) {\n    case 1: a(); break;\n    case 2:\n    case 3: b();\n"
          "    default: z();\n  }\n}\n")


@pytest.mark.parametrize(("path", "code", "pattern", "lines"), [
    ("run.js", SWITCH, "case $X:", [3, 4, 5]),
    ("run.js", SWITCH, "case $X: $$$B", [3, 4, 5]),
    ("run.js", SWITCH, "default:", [6]),
    ("run.c", SWITCH.replace("function f(x)", "void f(int x)"), "case $X:", [3, 4, 5]),
    ("Run.java", "class Run {\n" + SWITCH.replace("function f(x)", "void f(int x)") + "}\n",
     "case $X:", [4, 5, 6]),
    ("run.go", "package run\n\nfunc f(x int) {\n\tswitch x {\n\tcase 1:\n\t\ta()\n\tcase 2:\n"
     "\tdefault:\n\t\tz()\n\t}\n}\n", "case $X:", [5, 7]),
    # C#'s and Dart's counted only the cases that hold nothing, and no `default:` holding
    # a statement (the check that a match holds no more than the pattern writes, which a
    # label alone does not parse for, dropped the rest); Java's `case $X: $$$B` too
    ("Run.java", "class Run {\n" + SWITCH.replace("function f(x)", "void f(int x)") + "}\n",
     "case $X: $$$B", [4, 5, 6]),
    ("Run.cs", "class Run {\n" + SWITCH.replace("function f(x)", "void F(int x)") + "}\n",
     "case $X:", [4, 5, 6]),
    ("Run.cs", "class Run {\n" + SWITCH.replace("function f(x)", "void F(int x)") + "}\n",
     "default:", [7]),
    ("run.dart", SWITCH.replace("function f(x)", "void f(int x)"), "case $X:", [3, 4, 5]),
    ("run.dart", SWITCH.replace("function f(x)", "void f(int x)"), "case $X: $$$B", [3, 4, 5]),
])
def test_a_case_s_label_counts_the_case_whatever_it_holds(
        tmp_path: Path, path: str, code: str, pattern: str, lines: list[int]) -> None:
    """`case $X:` counted only a case that holds no statement (1 of the 3 here; 59 of
    gin's 66 were counted as `pattern: |` with their statements), and `case $X: $$$B`
    only those that hold one, though `$$$B` may stand for nothing: a case's label is read
    with the statements after it, any number of them."""
    _counts_at(tmp_path, path, code, pattern, lines)


IFS_JAVA = """\
class FieldNamingPolicy {
  String upper(String s, int i) {
    if (i == 0) {
      return s;
    } else {
      return s.substring(i);
    }
  }

  void check(int i) {
    if (i < 0) { throw new IllegalArgumentException(); }
  }
}
"""


@pytest.mark.parametrize(("path", "code", "pattern", "lines"), [
    ("FieldNamingPolicy.java", IFS_JAVA, "if ($C) { $$$B }", [3, 11]),
    ("FieldNamingPolicy.java", IFS_JAVA, "if ($C) { $$$B } else { $$$E }", [3]),  # as before
    ("run.go", "package run\n\nfunc f(a bool) {\n\tif a {\n\t\tx()\n\t} else if b {\n\t\ty()\n"
     "\t}\n}\n", "if $C { $$$B }", [4, 6]),  # the `else if` is an `if` too
    # an `if` whose else is another `if`: Rust's, Swift's and Dart's were not counted (the
    # `if` of its `else if` one more word `if` than the pattern writes); Dart's else
    # neither, which its grammar reads after no metavariable alone
    ("run.rs", "fn f(a: bool) {\n    if a {\n        x();\n    } else if b {\n        y();\n"
     "    } else {\n        z();\n    }\n}\n", "if $C { $$$B }", [2, 4]),
    ("Run.swift", "func f(a: Bool) {\n    if a {\n        x()\n    } else if b {\n        y()\n"
     "    } else {\n        z()\n    }\n}\n", "if $C { $$$B }", [2, 4]),
    ("run.dart", "void f(bool a) {\n  if (a) {\n    x();\n  } else if (b) {\n    y();\n  } else {\n"
     "    z();\n  }\n}\n", "if ($C) { $$$B; }", [2, 4]),
])
def test_an_if_s_pattern_that_writes_no_else_counts_an_if_that_has_one(
        tmp_path: Path, path: str, code: str, pattern: str, lines: list[int]) -> None:
    """gson: `if ($C) { $$$B }` counted 511 of its 637 `if`s, none with an `else` (ast-grep
    matches an `if` with one only with a pattern that writes one; Python's pattern counted
    them, its grammar holding the `else` among what `$$$B` stands for)."""
    _counts_at(tmp_path, path, code, pattern, lines)


@pytest.mark.parametrize(("path", "code", "pattern", "lines"), [
    ("Path.scala", "object Path {\n  def f(x: Any) = x match {\n    case p: String if p.isEmpty => 1\n"
     "    case q => 2\n  }\n}\n", "case $X => $Y", [3, 4]),
    ("run.py", "def f(x):\n    match x:\n        case [a] if a > 0:\n            return a\n"
     "        case [b]:\n            return b\n", "pattern: |\n  case [$A]:\n      $$$B", [3, 5]),
    # a Rust arm alone was no pattern at all (refused): it is read in a `match`
    ("run.rs", "fn f(x: Option<i32>) -> i32 {\n    match x {\n        Some(v) if v > 0 => v,\n"
     "        Some(v) => -v,\n        None => 0,\n    }\n}\n", "Some($V) => $E", [3, 4]),
    # a `when`'s entry and a `case`'s clause, likewise no code alone
    ("run.kt", "fun f(x: Int) = when (x) {\n    1 -> \"a\"\n    else -> \"b\"\n}\n", "else -> $Y", [3]),
    ("run.ex", "defmodule M do\n  def f(x) do\n    case x do\n      {:ok, v} -> v\n"
     "      :error -> nil\n    end\n  end\nend\n", "{:ok, $V} -> $E", [4]),
])
def test_a_case_of_a_match_that_writes_no_guard_counts_a_guarded_one(
        tmp_path: Path, path: str, code: str, pattern: str, lines: list[int]) -> None:
    """os-lib: Scala's `case $X => $Y` counted none of its cases with a guard (`case h :: t
    if h == ".." =>`), as ast-grep matches one only with a pattern that writes a guard;
    Python's `case` likewise. Such a pattern is read with a guard written in too."""
    fields = pattern if pattern.startswith("pattern: ") else f"pattern: {pattern}"
    html, errors = _claimed(tmp_path, path, code, f"count: {len(lines)}\n{fields}")
    assert errors == [], errors
    assert _linked(html, path) == [str(line) for line in lines]


RETURNS_GO = "package run\n\nfunc f() {\n\treturn\n}\n\nfunc g() int {\n\treturn 1\n}\n"


@pytest.mark.parametrize(("path", "code", "pattern", "lines"), [
    ("run.go", RETURNS_GO, "return $$$A", [4, 8]),
    ("run.py", "def f():\n    return\n\n\ndef g():\n    return 1, 2\n", "return $$$A", [2, 6]),
    ("run.go", RETURNS_GO, "return", [4]),  # a keyword alone, read where it stands
    # nvm: written without its `$$$A`, `nvm_echo` matched each command's name as well
    ("nvm.sh", "nvm_echo \"$1\"\nnvm_echo\nx=$(nvm_echo \"a\" | sed s/a/b/)\n", "nvm_echo $$$A",
     [1, 2, 3]),
])
def test_a_multiple_metavariable_that_ends_the_pattern_may_stand_for_nothing(
        tmp_path: Path, path: str, code: str, pattern: str, lines: list[int]) -> None:
    """Go's `return $$$A` counted no bare `return` (69 of gin's 872 returns), as ast-grep
    matches a `$$$` after a keyword only to at least one node; and `return` alone, which
    ast-grep reads as the name of a kind of node, was no pattern at all."""
    _counts_at(tmp_path, path, code, pattern, lines)


POLLY_CATCH = """\
class CacheEngine
{
    void Get()
    {
        try
        {
            Load();
        }
#pragma warning disable CA1031
        catch (Exception ex)
#pragma warning restore CA1031
        {
            Log(ex);
        }
        try { Load(); }
        catch (Exception ex) // logged below
        {
            Log(ex);
        }
    }
}
"""


@pytest.mark.parametrize(("path", "code", "pattern", "lines"), [
    ("src/CacheEngine.cs", POLLY_CATCH, "catch ($T $E) { $$$B }", [10, 16]),
    ("src/CacheEngine.cs", POLLY_CATCH, "Log($X)", [13, 18]),  # (no aside in its way)
    ("run.js", "if (ready) // the cache is warm\n{\n  serve();\n}\n", "if ($C) { $$$B }", [1]),
    ("run.cpp", "void f() {\n  for (auto x : xs) // each shard\n  {\n    g(x);\n  }\n}\n",
     "for (auto $X : $XS) { $$$B }", [2]),
    ("run.py", "def f(x):\n    if x:  # cached\n        return 1\n    return 2\n",
     "pattern: |\n  if $C:\n      return $X", [2]),
    ("run.go", "package run\n\nfunc f() {\n\tg(1, /* n */ 2)\n}\n", "g($A, $B)", [4]),
])
def test_a_comment_inside_the_code_a_pattern_writes_is_no_part_of_it(
        tmp_path: Path, path: str, code: str, pattern: str, lines: list[int]) -> None:
    """Polly: `catch ($T $E) { $$$B }` counted 47 of its 58 catches, none of the ten with
    a `#pragma warning restore CA1031` before their block (ast-grep matches a pattern to
    the code's nodes whole, a comment among them), nor one with a comment after its
    `catch (...)`. A comment, and C#'s `#pragma`, `#region` and `#nullable`, inside a
    construct is read as no part of it."""
    fields = pattern if pattern.startswith("pattern: ") else f"pattern: {pattern}"
    html, errors = _claimed(tmp_path, path, code, f"count: {len(lines)}\n{fields}")
    assert errors == [], errors
    assert _linked(html, path) == [str(line) for line in lines]
    if "catch" in pattern:  # each match's line as it is written, its comment too
        assert "catch (Exception ex) // logged below</code>" in html


GUZZLE = """\
<?php
class StreamHandler
{
    public function __invoke($request, array $options)
    {
        try {
            $request = $request->withoutHeader('Expect');
            $request = $request->withHeader('Content-Length', '0');
        } catch (\\InvalidArgumentException $e) {
            throw $e;
        } catch (\\Exception $e) {
            $sink = static function ($x) { return $x; };
            $wrap = function ($value) use ($request): string { return $value; };
        }
    }

    private function getDefaultContext($request): array
    {
        return ['http' => []];
    }
}
"""


@pytest.mark.parametrize(("pattern", "lines"), [
    ("private function $F($$$A) { $$$B }", [17]),  # it returns an `array`
    ("public function $F($$$A) { $$$B }", [4]),
    ("catch ($T $E) { $$$B }", [9, 11]),  # $E: PHP's caught variable
    ("catch (\\Exception $e) { $$$B }", [11]),
    ("$R = $R->withHeader($$$A);", [8]),  # a metavariable assigned to
    ("function ($$$A) use ($$$U) { $$$B }", [13]),  # a closure, with its return type
    ("static function ($X) { $$$B }", [12]),
])
def test_php_patterns_count_what_they_say(tmp_path: Path, pattern: str, lines: list[int]) -> None:
    """guzzle (PHP): `private function $F($$$A) { $$$B }` counted 8 of its 53 private
    methods (the others declare what they return), `catch ($T $E) { $$$B }` and
    `$R = $R->withHeader($$$A);` were no pattern ast-grep reads, and a closure none: PHP
    writes a variable where the parse that reads a pattern wrote a metavariable as a name,
    which PHP reads in no variable's place (a parameter, a caught exception, what is
    assigned to), and a closure stands where an expression does."""
    html, errors = _claimed(tmp_path, "src/StreamHandler.php", GUZZLE,
                            f"count: {len(lines)}\npattern: {pattern}")
    assert errors == [], errors
    assert _linked(html, "StreamHandler.php") == [str(line) for line in lines]


DART_SEND = """\
void send(Request request) {
  if (request.body == null) {
    throw ArgumentError('no body');
  }
  request.close();
}
"""


@pytest.mark.parametrize(("path", "code", "fields", "written", "how"), [
    # Dart reads `{ $$$B }` after `if (...)` as a set's literal, which no body is
    ("send.dart", DART_SEND, "count: none\npattern: if ($C) { $$$B }",
     "if (_C) { ___B; }", "a body of a metavariable alone written as a statement"),
    ("send.dart", DART_SEND, "count: 1\npattern: request.close()\ninside: if ($C) { $$$B }",
     "if (_C) { ___B; }", "a body of a metavariable alone written as a statement"),
    # HCL matches no block with it, not even 74 resources of terraform-aws-vpc's main.tf
    ("main.tf", 'resource "aws_vpc" "this" {\n  cidr_block = "10.0.0.0/16"\n}\n',
     "count: none\npattern: resource $T $N { $$$B }", "resource _T _N { }",
     "a body of a metavariable alone written empty"),
])
def test_a_pattern_that_matches_not_even_code_written_as_it_is_is_an_error(
        tmp_path: Path, path: str, code: str, fields: str, written: str, how: str) -> None:
    """A pattern the grammar reads whole may still match no code: ast-grep reads it as
    other code than the same text in a file (Dart's `if ($C) { $$$B }` an `if` of a set's
    literal), and `count: none` held of a file full of them. Such a pattern (or inside)
    that matched nothing is tried on code written as it is, each metavariable a name (a
    body of one alone a statement, or empty): where it does not match that, the error
    shows the code."""
    _, errors = _claimed(tmp_path, path, code, fields)
    key = "inside" if "inside" in fields else "pattern"
    pattern = fields.split(f"{key}: ")[1].splitlines()[0]
    language = "dart" if path.endswith(".dart") else "hcl"
    assert errors == [
        f"{4 if key == 'pattern' else 5}: '{key}: {pattern}' matches nothing, not even code "
        f"written as it is: ast-grep does not match it in '{written}' ({how}, read as "
        f"{language}), for it reads the pattern as other code than a file's, so it matches no "
        "code; expected the pattern closer to the code it counts (what a body holds written "
        "out), a definition counted in by its name ('in: file::Name'), or 'text:'"
        + UNMATCHED_HINTS[language]], errors
    if language == "hcl":  # as the hint writes it, the pattern counts
        _, errors = _claimed(tmp_path / "again", path, code,
                             "count: 1\npattern: resource $T $N $$$B")
        assert errors == [], errors


def test_a_decorator_alone_may_count_none(tmp_path: Path) -> None:
    """Python reads a decorator without its function with an error around it, which
    ast-grep matches by what it wraps (it counted click's `@click.option(...)` lines): no
    error where it matches nothing (real lines of seven repositories as patterns: none of
    those it matches is told unreadable)."""
    _, errors = _claimed(tmp_path, "app.py", "def run():\n    pass\n",
                         "count: none\npattern: @pytest.fixture($$$A)")
    assert errors == []


JAVA_ADAPTER = """\
class T {
  static final A INET =
      new A() {
        @Override
        public Object read(String in) {
          return lookup(in);
        }
      };
}
"""


@pytest.mark.parametrize(("inside", "holds"), [
    ("public Object read(String in) { $$$B }", True),  # `@Override` is no part of it
    ("@Override public Object read(String in) { $$$B }", True),
    ("public static Object read(String in) { $$$B }", False),  # a keyword not there
])
def test_a_claim_nothing_stands_inside_says_how_a_definition_is_matched(
        tmp_path: Path, inside: str, holds: bool) -> None:
    """The gson trial: `inside: public InetAddress read(...) { $$$B }` stood around no
    match, for ast-grep matches a method's pattern only where its modifiers and
    annotations are as written (`@Override` was not). An annotation the pattern does not
    write is no part of what it says now; where a modifier differs, the error says that
    modifiers are matched as written, and how to count in a definition by its name."""
    _, errors = _claimed(tmp_path, "T.java", JAVA_ADAPTER,
                         f"count: 1\npattern: lookup($X)\ninside: {inside}")
    assert errors == [] if holds else errors[0].endswith(
        "; none stands inside it: 'inside:' matches code as it is written (a definition by "
        "its name and each of its modifiers: Java's 'public static ...'); to count in a "
        "definition by its name, write 'in: file::Name'"), errors


OKIO_BYTESTRING = """\
expect open class ByteString
// Trusted internal constructor doesn't clone data.
internal constructor(data: ByteArray) : Comparable<ByteString> {
  fun utf8(): String

  fun base64(): String
}
"""


def test_a_file_whose_grammar_reads_no_comment_where_one_stands_is_read_without_it(
        tmp_path: Path) -> None:
    """okio's ByteString.kt: Kotlin's grammar reads no comment between a class's name and
    its constructor, so the class's lines were not read at all: its functions were no
    definitions, and a claim over the file was refused. Where a file does not parse, it is
    read with its comments as spaces when that leaves fewer lines unread."""
    checked, _ = _checker(tmp_path, {"ByteString.kt": OKIO_BYTESTRING})
    html, errors = checked("[[ByteString.kt::ByteString.base64]]\n\n```claim\nsays: x\n"
                           "count: 2\npattern: fun $F(): String\nin: ByteString.kt\n```\n")
    assert errors == [], errors
    assert _linked(html, "ByteString.kt") == ["4", "6"]
    assert "ByteString.kt#L6" in html  # the definition, by its name


OKIO_TESTS = """\
class ByteStringTest {
  @Test
  fun ofCopy() {
    assertEquals(1, 1)
  }

  @Test fun ofCopyRange() {
  }

  @Throws(IOException::class)
  internal fun resize() {
  }

  fun helper() {
  }
}
"""


@pytest.mark.parametrize(("path", "code", "pattern", "lines"), [
    ("ByteStringTest.kt", OKIO_TESTS, "fun $F($$$A) { $$$B }", [3, 7, 14]),  # not `internal`
    ("ByteStringTest.kt", OKIO_TESTS, "@Test fun $F($$$A) { $$$B }", [2, 7]),
    ("T.java", "class T {\n  @Override\n  void a() {}\n  @Deprecated(since = \"2\") void b() {}\n"
     "  void c() {}\n}\n", "void $M() { $$$B }", [3, 4, 5]),
    ("T.cs", "class T {\n  [Fact]\n  public void A() {}\n  public void B() {}\n}\n",
     "public void $M() { $$$B }", [3, 4]),
    ("Alamofire.swift", "import Dispatch\n@_exported import Foundation\n", "import $X", [1, 2]),
])
def test_an_annotation_a_pattern_does_not_write_is_no_part_of_it(
        tmp_path: Path, path: str, code: str, pattern: str, lines: list[int]) -> None:
    """okio: `fun $F($$$A) { $$$B }` counted 42 of its functions, none with `@Test` or
    `@Throws(...)` before it: ast-grep matches a declaration whole, its annotations among
    its modifiers. An annotation is no part of what a pattern that writes none says; a
    keyword still is (`internal fun` is not `fun`), and a pattern that writes one counts by
    it."""
    _counts_at(tmp_path, path, code, pattern, lines)


def test_each_site_marks_its_match_in_its_line(tmp_path: Path) -> None:
    """The rubocop trial: two matches on one line were two rows alike. Each site marks
    where its match stands in the line (the second after the first); a match that is the
    whole line is not marked."""
    code = "x = f(1) + f(2)\nf(3)\n"
    html, errors = _claimed(tmp_path, "m.py", code, "count: 3\npattern: f($A)")
    assert errors == []
    assert 'claim-code">x = <mark>f(1)</mark> + f(2)</code>' in html
    assert 'claim-code">x = f(1) + <mark>f(2)</mark></code>' in html
    assert 'claim-code">f(3)</code>' in html
    html, errors = _claimed(tmp_path / "text", "m.py", code, "count: 2\ntext: f(")
    assert errors == [] and 'claim-code">x = <mark>f(</mark>1) + f(2)</code>' in html
    # a mark of the page's own colours, which the dark theme keeps legible
    assert ".claim-code mark { background: var(--warning-bg); color: var(--fg); }" in \
        STYLESHEET.read_text()


def test_an_error_lists_a_line_of_several_matches_once(tmp_path: Path) -> None:
    """Two matches on one line were listed as the same 'path:line' twice."""
    _, errors = _claimed(tmp_path, "m.py", "x = f(1) + f(2)\nf(3)\n", "count: 2\npattern: f($A)")
    assert errors == [f"3: the claim 'x' does not hold at {errors[0].split(' at ')[1][:7]}: "
                      "counted 3, not 2: m.py:1 (2 matches), m.py:2"], errors


@pytest.mark.parametrize("pattern", ["for $X in $Y:\n    yield $X", "with $L:\n    save()\n    return $R",
                                     "try:\n    $$$A\nexcept $E:\n    $$$B"])
def test_a_block_pattern_is_read_in_a_function_with_its_lines_indented(pattern: str) -> None:
    """A pattern of lines placed in a function's body to be read there had only its first
    line indented: Python read `for ...:` with an empty body and the rest outside it, and
    ast-grep was asked for a 'block' no code was. Each way it is read now holds it whole."""
    from site_gen.code_index import _root, readings

    for reading in readings("python", pattern):
        code = reading if isinstance(reading, str) else reading["context"]
        assert _root("python", code.replace("$", "_")).find(kind="ERROR") is None, reading
        assert not isinstance(reading, dict) or reading["selector"] != "block", reading


WORKFLOW = """\
name: ci
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@0b93645e9fea7318ecaed2b359559ac225c90a2b
      - run: save(x)
"""


@pytest.mark.parametrize(("fields", "expected"), [
    ("count: 2\npattern: uses: $A\nin: .github/", []),  # a key, in a workflow
    ("count: all\npattern: uses: $A\nwhere: @\nin: .github/", []),
    ("count: none\npattern: - uses: $A\nwhere: @main\nin: .github/", []),
    ("count: 1\npattern: uses: $A\nwhere: @v4\nin: .github/", []),
    ("count: 1\npattern: save($A)", []),  # the Python call, not the workflow's text
    ("count: none\npattern: save($$$A)\nin: .github/", [
        "5: 'in: .github/' holds no file a grammar reads at {head}, so the pattern has nothing "
        "to count in"]),  # YAML reads a call as a scalar: none counted there, whatever the code
    ("count: 1\npattern: \"runs-on: ubuntu-latest\"\nin: .github/", [
        "5: 'in: .github/' holds no file a grammar reads at {head}, so the pattern has nothing "
        "to count in; a pattern counts in code ("]),  # quoted, as YAML would: a value alone
])
def test_a_claim_counts_keys_and_items_of_yaml(tmp_path: Path, fields: str,
                                               expected: list[str]) -> None:
    """What a page concludes from a workflow or a manifest ("every action is pinned") is
    a claim on YAML: a pattern that writes a key or an item is counted in `.yml` and `.yaml`
    files (a claim there could only be `text:`). A pattern of code is not counted in them:
    YAML reads a call as a lone scalar, which matches nothing, and an `in:` holding only
    YAML would hold any `count: none`."""
    checked, head = _checker(tmp_path, {".github/workflows/ci.yml": WORKFLOW,
                                        "app.py": "save(1)\n"})
    _, errors = checked(f"```claim\nsays: x\n{fields}\n```\n")
    if '"' in fields:  # what to write instead
        assert errors[0].endswith("(in YAML, a pattern that writes a key or an item, 'Enabled: "
                                  "$V' or '- uses: $A', not a value alone): write 'text:' to "
                                  "count a literal in any file; the quotes are part of the "
                                  "pattern: write 'pattern: runs-on: ubuntu-latest'"), errors
    assert [e[:len(x.format(head=head[:7]))] for e, x in zip(errors, expected, strict=False)] \
        == [x.format(head=head[:7]) for x in expected] and len(errors) == len(expected), errors


@pytest.mark.parametrize(("fields", "key", "at"), [
    ("count: 1\ninside: |\npattern: save($A)", "inside", 4),  # was no inside at all: held
    ("count: 1\npattern: |", "pattern", 4),
    ("count: 1\npattern: save($A)\nwhere:", "where", 5),
])
def test_an_empty_field_is_an_error(tmp_path: Path, fields: str, key: str, at: int) -> None:
    """`inside: |` with no lines under it was read as no `inside:` at all, and the claim
    held whatever stood around its match; an empty `where:` as none too. A field given
    empty is an error at its line."""
    _, errors = _claimed(tmp_path, "a.py", "save(1)\n", fields)
    assert len(errors) == 1 and errors[0].startswith(f"{at}: '{key}:' is empty; expected "), errors


CSHARP_IFS = """\
class T {
  Outcome Run(Outcome outcome, Token token) {
    if (token.IsCancellationRequested) { return Wrap(outcome); }
    foreach (var item in items) { Use(item); }
    try { Use(outcome); } catch (E e) { Log(e); }
    return outcome;
  }
}
"""


@pytest.mark.parametrize("pattern", ["if ($C) { $$$B; }", "try { $$$B; } catch ($T $E) { $$$C; }"])
def test_a_csharp_body_written_as_a_statement_is_an_error_not_a_count(
        tmp_path: Path, pattern: str) -> None:
    """C# reads no name alone as a statement, `$$$B;` included: ast-grep matched no body
    written `{ $$$B; }`, not even one of one statement, and `count: none` held of a file
    of `if`s."""
    _, errors = _claimed(tmp_path, "T.cs", CSHARP_IFS, f"count: none\npattern: {pattern}")
    assert errors == [f"4: 'pattern: {pattern}' matches nothing: csharp's grammar reads '{{ $$$B; "
                      "}' as no block of statements (C# reads no name alone as a statement; Ruby "
                      "reads the braces as a hash), so ast-grep matches no code with it; expected "
                      "what the body holds written out ('{ return $X; }', '{ $F($$$A); }'), or "
                      "count in a definition by its name ('in: file::Name')"]


@pytest.mark.parametrize("path", ["loop.c", "Loop.java"])
def test_a_pattern_whose_head_reads_as_no_code_says_so_not_its_body(
        tmp_path: Path, path: str) -> None:
    """`for ($$$A) { $$$B }` over hiredis counted none of its 49 `for` loops: a C `for`
    writes its three parts, and `($$$A)` reads as none. The error blamed the body (`{ $$$B
    }` read as another kind of code), which is not what stops it."""
    loop = "for (int i = 0; i < n; i++) {\n    g(i);\n  }\n"
    code = f"void f(int n) {{\n  {loop}}}\n" if path.endswith(".c") else \
        f"class Loop {{\n  void f(int n) {{\n  {loop}}}\n}}\n"
    _, errors = _claimed(tmp_path, path, code, "count: none\npattern: for ($$$A) { $$$B }")
    assert len(errors) == 1 and "grammar reads 'for ($$$A)' of it as no code" in errors[0] \
        and "its body of a metavariable" not in errors[0], errors


@pytest.mark.parametrize(("fields", "said"), [
    ("count: none\npattern: if ($C) { $$$B }", True),  # counted 0 ifs, and held
    ("count: 1\npattern: Wrap($X)\ninside: foreach (var $I in $X) { $$$B }", True),
    ("count: 1\npattern: if ($C) { return $X; }", False),  # the body written out: counted
    ("count: 1\npattern: try { $$$B } catch ($E $V) { $$$C }\nin: T.cs", False),
])
def test_a_csharp_body_of_a_metavariable_alone_is_an_error_not_a_count(
        tmp_path: Path, fields: str, said: bool) -> None:
    """The Polly trial: `if ($C) { $$$B }` counted no `if` of C# (its grammar reads a name
    alone in braces after `if (...)` as an initializer, so ast-grep matches nothing), and
    `count: none` held. Such a pattern, or `inside:`, is an error that says what to write;
    a body written out, and a `try` (read as a body), count as before."""
    _, errors = _claimed(tmp_path, "T.cs", CSHARP_IFS, fields.replace("\nin: T.cs", ""))
    if not said:
        assert errors == [], errors
        return
    assert len(errors) == 1 and "matches nothing: ast-grep reads its body of a metavariable " \
        "alone ('{ $$$B }') as another kind of code than a body, as csharp's grammar" in errors[0], errors
