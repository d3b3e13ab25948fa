"""Pinned code references, checked against a real git repository made for the test."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from site_gen.code_index import SYMBOL_LANGUAGES

from .blockutil import PR, render, rendered_at
from .conftest import Project, Run, front, git

CLI = Callable[..., Run]

def page_with(project: Project, body: str, head: str, files: str = "", *,
              code: bool = False) -> None:
    """A page on acme/widgets#12; with `code`, its commits are expected to be there."""
    unavailable = "" if code else "code_unavailable: made up for the test\n"
    project.write("content/acme/widgets/12/pr.yml",
                  f"repo: acme/widgets\nnumber: 12\ntitle: T\nhead: {head}\nbase: {head}\n"
                  f"state: open\n{unavailable}{files}")
    project.write("content/acme/widgets/12/cache-bug.md",
                  front("T", "q", "open") + body)


def links(project: Project) -> list[tuple[str, str, str]]:
    html = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    html = html[html.index('<div class="body">'):]
    return re.findall(r'<a class="ref" href="([^"]+)" title="([^"]+)">(.*?)</a>', html)


def test_links_and_ranges_from_the_file_map(project: Project, cli: CLI) -> None:
    page_with(project, "[[core.py:10]] [[widgets/core.py:57-59]] [[core.py L57-L59]] "
                       "[[docs/speed.md]] [[core.py:3@abcdef12|the old line]] "
                       "[[core.py:4@abcdef12]] [[core.py:5@base \"x = 1\"]]\n", "1234567",
              "files: [src/widgets/core.py, docs/speed.md]\n")
    assert cli("build").code == 0
    base = "https://github.com/acme/widgets/blob"
    assert links(project) == [
        (f"{base}/1234567/src/widgets/core.py#L10", "src/widgets/core.py L10 at 1234567",
         "<code>core.py:10</code>"),
        (f"{base}/1234567/src/widgets/core.py#L57-L59", "src/widgets/core.py L57-L59 at 1234567",
         "<code>widgets/core.py:57-59</code>"),
        (f"{base}/1234567/src/widgets/core.py#L57-L59", "src/widgets/core.py L57-L59 at 1234567",
         "<code>core.py L57-L59</code>"),
        (f"{base}/1234567/docs/speed.md", "docs/speed.md at 1234567", "<code>docs/speed.md</code>"),
        (f"{base}/abcdef12/src/widgets/core.py#L3", "src/widgets/core.py L3 at abcdef1",
         "the old line"),
        # pinned elsewhere than the head: the text says where, as written (not its quote)
        (f"{base}/abcdef12/src/widgets/core.py#L4", "src/widgets/core.py L4 at abcdef1",
         "<code>core.py:4@abcdef12</code>"),
        (f"{base}/1234567/src/widgets/core.py#L5", "src/widgets/core.py L5 at 1234567",
         "<code>core.py:5@base</code>"),
    ]


def test_a_label_bar_escaped_as_a_table_cell_needs_it_reads_the_same_anywhere(
        project: Project, cli: CLI) -> None:
    """`[[core.py:3\\|the line]]` is how a table's cell writes a label (GFM splits a row at
    a bare bar); markdown reads `\\|` as `|`, so it is a label outside a table too, as it
    is in one, after a line, a symbol, a commit or a quote (was: an error out of a table)."""
    rows = ['[[core.py:3\\|the line]]', '[[core.py::make_key\\|the key]]',
            '[[core.py:4@abcdef12\\|the old line]]', '[[core.py:5 "x \\| y"\\|a bar]]']
    page_with(project, " ".join(rows) + "\n\n| cited |\n|---|\n" +
              "".join(f"| {row} |\n" for row in rows[:3]), "1234567",
              "files: [src/widgets/core.py]\n")
    assert cli("build").code == 0
    shown = [(href.split("/blob/")[1], text) for href, _, text in links(project)]
    cited = [("1234567/src/widgets/core.py#L3", "the line"),
             ("1234567/src/widgets/core.py", "the key"),  # no code here: the file
             ("abcdef12/src/widgets/core.py#L4", "the old line")]
    assert shown == [*cited[:3], ("1234567/src/widgets/core.py#L5", "a bar"), *cited]


def test_a_backslash_of_the_code_in_a_quote_is_its_own(tmp_path: Path) -> None:
    """Only `\\"`, `\\\\` and `\\|` escape in a quote: a PHP namespace or a C string's `\\n`
    is quoted as the code writes it (the backslash was dropped: `use GuzzleHttpMiddleware;`
    was not on the line, guzzle's history)."""
    _, [(_, errors, _), (_, wrong, _)] = rendered_at(
        tmp_path, {"src/Utils.php": "<?php\nuse GuzzleHttp\\Middleware;\n",
                   "log.c": 'printf("%s\\n", "a\\\\b | c");\n'},
        '[[Utils.php:2 "use GuzzleHttp\\Middleware;"]] and '
        '[[log.c:1 "printf(\\"%s\\n\\", \\"a\\\\\\\\b \\| c\\")"]]\n',
        '[[Utils.php:2 "use GuzzleHttpMiddleware;"]]\n')
    assert errors == []
    assert len(wrong) == 1 and 'the quote "use GuzzleHttpMiddleware;"' in wrong[0]


def test_a_quote_matches_however_a_formatter_spaced_the_code(tmp_path: Path) -> None:
    """guzzle: php-cs-fixer rewrote `'[' . $records[0]['ipv6'] . ']'` as
    `'['.$records[0]['ipv6'].']'`; repin moved the line as only respaced, and its quote
    then stopped the build. A space beside a mark that is no letter or digit is not
    compared; one between two words is (`returnuri` is not `return $uri`'s)."""
    _, [(_, errors, _), (_, wrong, _)] = rendered_at(
        tmp_path, {"src/StreamHandler.php": "<?php\nreturn $uri->withHost('['.$ip.']');\n"},
        '[[StreamHandler.php:2 "withHost(\'[\' . $ip . \']\')"]]\n',
        '[[StreamHandler.php:2 "returnuri"]]\n')
    assert errors == []
    assert len(wrong) == 1 and 'the quote "returnuri"' in wrong[0]


@pytest.mark.parametrize(("path", "code", "name", "line"), [
    ("less.py", "import shlex\n\n#: options of less with a value\n_VALUES = \"bhjk\"\n", "_VALUES", 4),
    ("conf.py", "TIMEOUT: Final = 5\n", "TIMEOUT", 1),
    ("limits.ts", "export const LIMIT = 5;\n", "LIMIT", 1),
    ("limits.go", "package a\n\nconst (\n\tLimit = 5\n)\n", "Limit", 4),
    ("limits.rs", "pub const LIMIT: u32 = 5;\n", "LIMIT", 1),
    ("mode.go", "package gin\n\nvar DefaultWriter io.Writer = os.Stdout\n", "DefaultWriter", 3),
    ("net.c", "static const char *AF = \"inet\";\nint f(void) { return 5; }\n", "AF", 1),
])
def test_a_symbol_that_names_a_value_says_so_and_which_line_to_cite(
        tmp_path: Path, path: str, code: str, name: str, line: int) -> None:
    """click's `_LESS_VALUE_OPTIONS`: a constant is data, no definition (a function, a class,
    a type); the error named the nearest functions of the file. It now says the name is a
    value, where it is given, and the reference to write instead; so does a claim's `in:`,
    and a hunk's `· name`."""
    hunk = (f"```proposal\nfile: {path} L{line} · {name}\n@@ -{line},1 +{line},1 @@\n"
            f"-{code.splitlines()[line - 1]}\n+{code.splitlines()[line - 1].replace('5', '6')}\n```\n")
    _, [(_, ref, _), (_, claim, _), (_, named, _)] = rendered_at(
        tmp_path, {path: code}, f"See [[{path}::{name}]].\n",
        f"```claim\nid: c\nsays: s\ncount: 1\ntext: 5\nin: {path}::{name}\n```\n", hunk)
    given = f"'{name}' is a value, given at L{line} ('{code.splitlines()[line - 1].strip()}')"
    assert ref == [f"1: unknown symbol '{name}' in '[[{path}::{name}]]': {path} defines no such "
                   f"name at commit {ref[0].split('commit ')[1][:7]}: {given}, and a symbol names "
                   "a definition (a function, a class, a type); cite its line instead, as "
                   f"'[[{path}:{line}]]'"]
    assert len(claim) == 1 and claim[0].endswith(
        f"{given}, and a symbol names a definition (a function, a class, a type); count in its "
        f"file instead, 'in: {path}', or in a definition that holds it")
    assert len(named) == 1 and named[0].endswith(
        f"no definition holds them ('{name}' is a value, given at L{line}: a hunk's symbol names "
        f"the function, class or type that holds its lines; leave '· {name}' out)")


@pytest.mark.parametrize("line", ["f(TIMEOUT=5)", "if TIMEOUT == 5:", "TIMEOUT => 5",
                                  "    my_TIMEOUT = 5", "x.TIMEOUT = 5", "# TIMEOUT = 5",
                                  "return TIMEOUT", "        TIMEOUT=5,"])
def test_a_name_used_is_not_a_value_given(line: str) -> None:
    from site_gen.definitions import assigned_at

    assert assigned_at([line], "TIMEOUT") is None
    assert assigned_at([line, "TIMEOUT = 1", "    TIMEOUT = 2"], "Conf.TIMEOUT") == (2, "TIMEOUT = 1")


def test_host_pattern_is_a_setting(project: Project, cli: CLI) -> None:
    project.write("mkdocs.yml", """\
site_name: R
site_url: https://x.org/
docs_dir: content
site_gen:
  code_host:
    permalink: "https://gitlab.example/{repo}/-/blob/{commit}/{path}{lines}"
    lines: "#L{start}-{end}"
""")
    page_with(project, "[[core.py:5-6]]\n", "1234567", "files: [src/widgets/core.py]\n")
    assert cli("build").code == 0
    assert links(project)[0][0] == ("https://gitlab.example/acme/widgets/-/blob/1234567/"
                                    "src/widgets/core.py#L5-6")


def test_a_name_many_files_share_lists_some_of_them(project: Project, cli: CLI) -> None:
    """Every route of a SvelteKit app is a `+page.svelte`: kit's PR that touched 42 of
    them got one error line of all 38 paths a bare `+page.svelte` matched."""
    routes = [f"src/routes/r{n}/+page.svelte" for n in range(8)]
    page_with(project, "[[+page.svelte:1]]\n", "1234567", f"files: [{', '.join(routes)}]\n")
    result = cli("build")
    assert result.err.splitlines()[0] == (
        "content/acme/widgets/12/cache-bug.md:6: ambiguous file name '+page.svelte' in "
        "'[[+page.svelte:1]]'; it matches 8 files: src/routes/r0/+page.svelte, "
        "src/routes/r1/+page.svelte, src/routes/r2/+page.svelte, src/routes/r3/+page.svelte, "
        "src/routes/r4/+page.svelte and 3 more; write more of the path")


def test_reference_errors(project: Project, cli: CLI) -> None:
    page_with(project, "\n".join([
        "[[util.py:1]]",
        "[[nothing.py:1]]",
        "[[core.py:1@main]]",
        "[[core.py:9-3]]",
        "[[core.py:1:2]]",
    ]) + "\n", "1234567", "files: [src/widgets/core.py, src/widgets/util.py, src/gears/util.py]\n")
    result = cli("build")
    assert result.code == 1
    path = "content/acme/widgets/12/cache-bug.md"
    assert result.err.splitlines()[:-1] == [
        f"{path}:6: ambiguous file name 'util.py' in '[[util.py:1]]'; it matches "
        "src/widgets/util.py, src/gears/util.py; write more of the path",
        f"{path}:7: unknown file 'nothing.py' in '[[nothing.py:1]]'; it is not among the files "
        "listed in pr.yml (nearest by name: src/gears/util.py, src/widgets/util.py, "
        "src/widgets/core.py)",
        f"{path}:8: 'main' in '[[core.py:1@main]]' is not a commit SHA; expected 7 to 40 hex "
        "digits or @base (a branch or tag name drifts)",
        f"{path}:9: line range 9-3 in '[[core.py:9-3]]' is empty; expected the first line not "
        "after the last",
        f"{path}:10: malformed code reference '[[core.py:1:2]]'; expected [[file:line]], "
        "[[file:start-end]], [[file Lstart-Lend]] or [[file::symbol]], then optionally "
        "@commit, \"quoted code\" and |label; did you mean '[[core.py:1]]'?",
    ]


@pytest.mark.parametrize(("written", "meant"), [
    ("[[checkpoint.py#L57]]", "checkpoint.py:57"),  # the code host's anchors
    ("[[checkpoint.py#L57-L59]]", "checkpoint.py:57-59"),
    ("[[checkpoint.py:L57-L59 \"wait_fn\"]]", 'checkpoint.py:57-59 "wait_fn"'),
    ("[[checkpoint.py:57–59]]", "checkpoint.py:57-59"),  # an en dash
    ("[[checkpoint.py:57:12]]", "checkpoint.py:57"),  # a column
    ("[[checkpoint.py line 57]]", "checkpoint.py:57"),
    ("[[checkpoint.py lines 57-59]]", "checkpoint.py:57-59"),
    ("[[https://github.com/acme/widgets/blob/2f6b955/src/app/checkpoint.py#L57-L59]]",
     "src/app/checkpoint.py:57-59@2f6b955"),  # a permalink pasted whole
    ('[[checkpoint.py:45 "return ctx"@base]]', 'checkpoint.py:45@base "return ctx"'),
    ('[[checkpoint.py:45 "a \\"b\\"" @2f6b955|the old one]]',
     'checkpoint.py:45@2f6b955 "a \\"b\\""|the old one'),  # the commit before the quote
    ("[[Package@swift-6.0.swift:3]]", "Package%40swift-6.0.swift:3"),  # an '@' in a name
    ("[[Sources/a@b.swift::f]]", "Sources/a%40b.swift::f"),
    # a line ending in a backslash (a macro going on): its `\"` escaped the closing mark
    ('[[amp.py:1 "from .amp import init,\\"]]', 'amp.py:1 "from .amp import init,\\\\"'),
    ('[[run.sh:3 "cmd --a \\"|the cmd]]', 'run.sh:3 "cmd --a \\\\"|the cmd'),
])
def test_a_reference_written_another_way_says_how_this_one_is_written(written: str,
                                                                      meant: str) -> None:
    _, errors, _ = render(f"See {written}.\n")
    assert len(errors) == 1 and errors[0].endswith(f"; did you mean '[[{meant}]]'?"), errors


@pytest.mark.parametrize("written", ["[[checkpoint.py:3@v1.2]]", "[[checkpoint.py@v1.2]]"])
def test_a_tag_after_a_file_is_not_read_as_more_of_its_path(written: str) -> None:
    _, errors, _ = render(f"See {written}.\n")
    assert len(errors) == 1 and "is not a commit SHA" in errors[0] and "%40" not in errors[0]


def test_no_rewrite_is_offered_for_another_repository_or_what_cannot_be_read() -> None:
    for written in ("[[https://github.com/other/repo/blob/2f6b955/src/app/checkpoint.py#L57]]",
                    "[[checkpoint.py:57-]]", "[[nothing.py#L3]]"):
        _, errors, _ = render(f"See {written}.\n")
        assert len(errors) == 1 and "did you mean" not in errors[0], errors


def test_verified_against_a_checkout(project: Project, cli: CLI,
                                     checkout: tuple[Path, str, str]) -> None:
    repo, first, second = checkout
    page_with(project, '[[core.py:10 "make_key(user)"]] and [[widgets/util.py:1-2]]\n',
              first[:7], code=True)
    assert cli("build", "--checkout", str(repo)).code == 0
    base = "https://github.com/acme/widgets/blob"
    assert [link[0] for link in links(project)] == [
        f"{base}/{first}/src/widgets/core.py#L10", f"{base}/{first}/src/widgets/util.py#L1-L2"]


def test_checkout_errors_name_what_the_commit_has(project: Project, cli: CLI,
                                                   checkout: tuple[Path, str, str]) -> None:
    repo, first, second = checkout
    page_with(project, "\n".join([
        '[[core.py:10 "make_key(user)"]]',
        "[[core.py:20-25]]",
        "[[missing.py:1]]",
        "[[util.py:1]]",
        "[[core.py:1@deadbee]]",
        '[[README.md:1 "# Widgets"]]',
    ]) + "\n", second[:10], code=True)
    result = cli("build", "--checkout", str(repo))
    assert result.code == 1
    path = "content/acme/widgets/12/cache-bug.md"
    short = second[:7]  # as GitHub names a commit, however pr.yml writes it
    assert result.err.splitlines()[:-1] == [
        f"{path}:6: the quote \"make_key(user)\" of '[[core.py:10 \"make_key(user)\"]]' is not on "
        f"those lines at commit {short}; they read: key = make_key(user, scope)",
        f"{path}:7: '[[core.py:20-25]]' points past the end of src/widgets/core.py, which has 20 "
        f"lines at commit {short}",
        f"{path}:8: unknown file 'missing.py' in '[[missing.py:1]]'; it is not among commit "
        f"{short} (nearest by name: src/widgets/util.py, src/gears/util.py, "
        "src/widgets/core.py)",
        f"{path}:9: ambiguous file name 'util.py' in '[[util.py:1]]'; it matches "
        "src/gears/util.py, src/widgets/util.py; write more of the path",
        f"{path}:10: commit deadbee of '[[core.py:1@deadbee]]' is not in the code here; run "
        "'site-gen fetch' (it fetches every commit the pages pin)",
    ]


def test_a_path_pr_yml_lists_wrong_is_named_where_it_is_listed(
        project: Project, cli: CLI, checkout: tuple[Path, str, str]) -> None:
    """A reference resolved through pr.yml's `files` to a path the commit lacks: the list
    is what is wrong, at its line, with the paths most like it."""
    repo, first, _ = checkout
    page_with(project, "[[core.py:1]] [[core.py::make_key]]\n", first[:7],
              "files:\n  - src/widgets/util.py\n  - src/widget/core.py\n", code=True)
    result = cli("build", "--checkout", str(repo))
    assert result.code == 1
    listed = ("pr.yml lists it in 'files' (line 9): expected a path the commit has (nearest: "
              "src/widgets/core.py, src/widgets/util.py, src/gears/util.py)")
    assert result.err.splitlines()[:-1] == [
        f"content/acme/widgets/12/cache-bug.md:6: 'src/widget/core.py' of '[[core.py:1]]' does "
        f"not exist at commit {first[:7]}; {listed}",
        f"content/acme/widgets/12/cache-bug.md:6: src/widget/core.py of '[[core.py::make_key]]' "
        f"is not there at commit {first[:7]}; {listed}"]


def test_a_name_pr_yml_lists_wrong_is_suggested_where_the_tree_has_several(
        project: Project, cli: CLI, checkout: tuple[Path, str, str]) -> None:
    """`util.py` would have named the one file pr.yml lists, but the entry is cut short: the
    commit's tree has two, and the error says which entry of pr.yml it has not."""
    repo, first, _ = checkout
    page_with(project, "[[util.py:1]]\n", first[:7], "files:\n  - src/widgets/uti.py\n",
              code=True)
    result = cli("build", "--checkout", str(repo))
    assert result.err.splitlines()[0] == (
        "content/acme/widgets/12/cache-bug.md:6: ambiguous file name 'util.py' in "
        "'[[util.py:1]]'; it matches src/gears/util.py, src/widgets/util.py; write more of the "
        "path; pr.yml lists 'src/widgets/uti.py' in 'files' (line 8), which the commit does not "
        "have: is that the file meant?")


def test_an_entry_pr_yml_lists_wrong_is_named_when_a_name_goes_to_another_file(
        project: Project, cli: CLI, checkout: tuple[Path, str, str]) -> None:
    """`util.py` meant src/gears/util.py, whose entry is mistyped: the name goes to the one
    other util.py listed, where line 2 is not; the error names the entry no commit has. A
    file the PR adds, which its base has not, is no such entry (a reference at the base)."""
    repo, first, _ = checkout
    (repo / "src/widgets/new.py").write_text("n = 1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "third")
    head = git(repo, "rev-parse", "HEAD")
    page_with(project, '[[util.py:2 "x = 1"]] [[core.py:1@base "nope"]]\n', head[:7],
              "files:\n  - src/widgets/new.py\n  - src/widgets/util.py\n"
              "  - src/gaers/util.py\n  - src/widgets/core.py\n", code=True)
    project.write("content/acme/widgets/12/pr.yml", (project.root / "content/acme/widgets/12/"
                  "pr.yml").read_text().replace(f"base: {head[:7]}", f"base: {first[:7]}"))
    result = cli("build", "--checkout", str(repo))
    errors = result.err.splitlines()[:-1]
    assert len(errors) == 2
    assert errors[0].endswith("; pr.yml lists 'src/gaers/util.py' in 'files' (line 10), which "
                              "the commit does not have: is that the file meant?"), errors[0]
    assert "src/widgets/new.py" not in result.err


def test_a_symbol_in_a_file_no_grammar_reads_asks_for_its_lines(
        project: Project, cli: CLI, checkout: tuple[Path, str, str]) -> None:
    repo, first, _ = checkout
    page_with(project, "[[README.md::Widgets]]\n", first[:7], code=True)
    result = cli("build", "--checkout", str(repo))
    assert result.code == 1
    assert result.err.splitlines()[0] == (
        "content/acme/widgets/12/cache-bug.md:6: '[[README.md::Widgets]]' names a definition, "
        "but no grammar reads README.md, so it has none (definitions are found in: "
        f"{SYMBOL_LANGUAGES}); expected its lines, as [[file:start-end]]")
    assert SYMBOL_LANGUAGES.endswith(", typescript, and the script of .astro, .svelte, .vue "
                                     "components")


def test_a_symbol_in_a_file_of_data_says_it_defines_no_names(tmp_path: Path) -> None:
    """A workflow is read as YAML now (for claims): a symbol in it is told that YAML defines
    no names, not that no grammar reads it."""
    _, [(_, errors, _), (_, counted, _)] = rendered_at(
        tmp_path, {"ci.yml": "jobs:\n  test:\n    x: 1\n"}, "See [[ci.yml::jobs]].\n",
        "```claim\nsays: s\ncount: 1\npattern: x: $V\nin: ci.yml::jobs\n```\n")
    assert errors == ["1: '[[ci.yml::jobs]]' names a definition, but ci.yml is yaml, which "
                      f"defines no names (definitions are found in: {SYMBOL_LANGUAGES}); "
                      "expected its lines, as [[file:start-end]]"]
    assert counted == ["5: 'in: ci.yml::jobs' names a definition, but ci.yml is yaml, which "
                       f"defines no names (definitions are found in: {SYMBOL_LANGUAGES}); "
                       "expected the file alone, 'in: ci.yml'"]  # (`in:` takes no lines)


def test_checkout_must_be_a_repository(project: Project, cli: CLI, tmp_path: Path) -> None:
    result = cli("build", "--checkout", str(tmp_path))
    assert result.code == 1
    assert result.err.splitlines()[0] == (
        f"mkdocs.yml: checkout '{tmp_path}' is not a git repository; expected a local clone of "
        "the reviewed repository")


def test_unpinned_links_warn_and_fail_under_strict(project: Project, cli: CLI) -> None:
    page_with(project, "See [the code](https://github.com/acme/widgets/blob/main/src/a.py#L3)"
                       " and [pinned](https://github.com/acme/widgets/blob/1234567/src/a.py).\n",
              "1234567")
    result = cli("build")
    assert result.code == 0
    assert result.err == (
        "warning: content/acme/widgets/12/cache-bug.md:6: unpinned link "
        "'https://github.com/acme/widgets/blob/main/src/a.py#L3' points at 'main', which moves; "
        "pin a commit SHA, or write a [[file:line]] reference\n")
    assert cli("build", "--strict").code == 1


def test_every_code_link_of_the_real_site_is_pinned() -> None:
    from .test_snapshots import built_pages

    pages = built_pages()
    page = pages["NVIDIA-NeMo/RL/4607/async-save-tag/index.html"]
    code_links = re.findall(r'href="(https://github\.com/[^"]+)"', page)
    assert len(code_links) >= 14
    for link in code_links:
        assert link.startswith(("https://github.com/NVIDIA-NeMo/RL/blob/2f6b955/",
                                "https://github.com/NVIDIA-NeMo/RL/commit/2f6b955",
                                "https://github.com/NVIDIA-NeMo/RL/pull/4607")), link
    for html in pages.values():
        for link in re.findall(r'href="(https?://[^"]+/(?:blob|tree)/[^"]+)"', html):
            assert re.search(r"/(?:blob|tree)/[0-9a-f]{7,40}/", link), link
    for ref in ("grpo.py#L4125", "test_checkpoint_spans.py#L196", "checkpoint.py#L489",
                "instrumentation.py#L101", "span-groups.md?plain=1#L130", "checkpoint.py#L57-L59",
                "checkpoint.py#L77", "instrumentation.py#L970-L974", "instrumentation.py#L1008"):
        assert f"{ref}\"" in page, ref


def test_a_path_may_hold_a_scoped_package_s_at_sign() -> None:
    """`packages/@scope/pkg/...` (npm's scoped packages): the '@' that begins a part of a
    path is the path's; before, it began the commit ('scope/pkg/index.ts:10' is not a
    commit SHA), and no such file could be cited."""
    import dataclasses

    from .blockutil import PR, render

    pr = dataclasses.replace(PR, files=("packages/@scope/pkg/index.ts",))
    html, errors, _ = render("See [[packages/@scope/pkg/index.ts:10]] and "
                             "[[@scope/pkg/index.ts:3@2f6b955]].\n", pr=pr)
    assert errors == []
    assert 'href="https://github.com/acme/widgets/blob/2f6b955/packages/@scope/pkg/index.ts#L10"' in html
    assert 'href="https://github.com/acme/widgets/blob/2f6b955/packages/@scope/pkg/index.ts#L3"' in html


def test_a_permalink_escapes_what_a_url_s_path_cannot_hold() -> None:
    """A '#' in a path began the link's fragment, a '%' an escape: the link led elsewhere."""
    import dataclasses

    from .blockutil import PR, render

    pr = dataclasses.replace(PR, files=("samples/C#/Program.cs", "src/100%.py",
                                        "app/[slug]/page.tsx"))
    html, errors, _ = render("[[C#/Program.cs:1]], [[100%.py:2]], [[[slug]/page.tsx:3]]\n", pr=pr)
    assert errors == []
    blob = "https://github.com/acme/widgets/blob/2f6b955/"
    assert f'href="{blob}samples/C%23/Program.cs#L1"' in html
    assert f'href="{blob}src/100%25.py#L2"' in html
    assert f'href="{blob}app/[slug]/page.tsx#L3"' in html  # what a path may hold stays


def test_a_line_link_to_a_file_the_host_renders_shows_its_text(project: Project,
                                                                cli: CLI) -> None:
    """GitHub shows a markdown file or a notebook rendered, where '#L3' marks nothing:
    '?plain=1' shows its text with the lines marked, as GitHub's own permalinks do."""
    page_with(project, "[[guide.md:3]] [[guide.md]] [[a.ipynb:3-5]] [[core.py:5]]\n", "1234567",
              "files: [docs/guide.md, nb/a.ipynb, src/widgets/core.py]\n")
    assert cli("build").code == 0
    blob = "https://github.com/acme/widgets/blob/1234567/"
    assert [href for href, *_ in links(project)] == [
        f"{blob}docs/guide.md?plain=1#L3", f"{blob}docs/guide.md",
        f"{blob}nb/a.ipynb?plain=1#L3-L5", f"{blob}src/widgets/core.py#L5"]
    project.write("mkdocs.yml", "site_name: R\nsite_url: https://x.org/\ndocs_dir: content\n"
                                "site_gen:\n  code_host:\n    plain: ''\n")  # a host without
    assert cli("build").code == 0
    assert links(project)[0][0] == f"{blob}docs/guide.md#L3"


def test_a_reference_to_a_folder_links_it_at_the_commit() -> None:
    html, errors, _ = render("The code is in [[src/app/]], [[app|the app]] and [[src@base]].\n",
                             pr=dataclasses.replace(PR, base="fe40302"))
    assert errors == []
    assert ('<a class="ref" href="https://github.com/acme/widgets/tree/2f6b955/src/app" '
            'title="src/app/ at 2f6b955"><code>src/app/</code></a>') in html
    assert 'href="https://github.com/acme/widgets/tree/2f6b955/src/app" title="src/app/ at ' \
           '2f6b955">the app</a>' in html
    assert 'href="https://github.com/acme/widgets/tree/fe40302/src" title="src/ at fe40302">' in html
    _, errors, _ = render("[[src/app/:3]] [[src/app/::run]]\n")
    assert errors == ["1: '[[src/app/:3]]' names the folder src/app/; lines, a name or a quote "
                      "need a file in it",
                      "1: '[[src/app/::run]]' names the folder src/app/; lines, a name or a "
                      "quote need a file in it"]


def test_a_folder_name_several_folders_end_with_is_ambiguous() -> None:
    pr = dataclasses.replace(PR, files=("src/app/utils/a.py", "tests/utils/b.py"))
    _, errors, _ = render("[[utils/]]\n", pr=pr)
    assert errors == ["1: ambiguous folder name 'utils/' in '[[utils/]]'; it matches "
                      "src/app/utils/, tests/utils/; write more of the path"]


def test_a_path_with_a_space_is_written_as_a_url_writes_it(project: Project, cli: CLI,
                                                           tmp_path: Path) -> None:
    """A reference ends its path at a space, so a file in `Sample Data/` could not be cited
    at all. `%20` (or any URL escape, as pasted from the host's address bar) now names it:
    in references, proposal heads and a claim's `in:`; the page shows the path with its
    space, the link and the patch are the host's and git's."""
    from .conftest import commit, git

    repo = tmp_path / "code"
    head = commit(repo, {"Sample Data/load.py": "def load(x):\n    return x + 1\n",
                         "app/[slug]/page.tsx": "export const slug = 1;\n"})
    proposal = ("```proposal\ntitle: T\nstatus: proposed\nlands: Nothing.\n\n"
                "file: Sample%20Data/load.py L2 · load\n@@ -1,2 +1,2 @@\n def load(x):\n"
                "-    return x + 1\n+    return x + 2\n```\n\n")
    claim = "```claim\nsays: one load adds one\ncount: 1\ntext: x + 1\nin: Sample%20Data/\n```\n"
    page_with(project, '[[Sample%20Data/load.py:2 "x + 1"]], [[load.py::load]], '
              "[[app/%5Bslug%5D/page.tsx:1]].\n\n" + proposal + claim, head, code=True)
    result = cli("build", "--checkout", str(repo))
    assert (result.code, result.err) == (0, "")
    blob = f"https://github.com/acme/widgets/blob/{head}/"
    assert links(project)[:3] == [
        (f"{blob}Sample%20Data/load.py#L2", f"Sample Data/load.py L2 at {head[:7]}",
         "<code>Sample Data/load.py:2</code>"),
        (f"{blob}Sample%20Data/load.py#L1-L2", f"Sample Data/load.py L1-L2 at {head[:7]}",
         "<code>load.py::load</code>"),
        (f"{blob}app/[slug]/page.tsx#L1", f"app/[slug]/page.tsx L1 at {head[:7]}",
         "<code>app/[slug]/page.tsx:1</code>")]
    page = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    assert "<code>Sample Data/load.py</code></a>" in page  # the proposal's head
    assert "1 counted: <code>x + 1</code> in <code>Sample Data/</code>" in page
    patch = project.site / "acme/widgets/12/cache-bug/proposal-1.patch"
    assert patch.read_text().splitlines()[1:3] == ["--- a/Sample Data/load.py\t",
                                                   "+++ b/Sample Data/load.py\t"]
    git(repo, "apply", "--check", str(patch))
    page_with(project, '[[Sample Data/load.py:2 "x + 1"]]\n', head, code=True)
    refused = cli("build", "--checkout", str(repo))
    assert refused.code == 1 and refused.err.splitlines()[0].endswith(
        "did you mean '[[Sample%20Data/load.py:2 \"x + 1\"]]'?")


def test_code_that_holds_a_link_s_markup_is_shown_not_checked_as_a_link(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """The check of the links a build writes read `href="..."` anywhere in a page, code
    shown on it too: an excerpt of a README with `<a href="https://...">` (a plain-text
    token of the markdown lexer) failed the build as a link to no file of the site."""
    from .conftest import commit

    repo = tmp_path / "code"
    head = commit(repo, {"README.md": '# W\n\n<a href="https://example.org/x">x</a>\n'
                                      '<img src="logo.png">\n',
                         "page.py": "HTML = '<a href=\"/nowhere\">'\n"})
    page_with(project, "```excerpt\n[[README.md:3-4]]\n```\n\n```excerpt\n[[page.py:1]]\n```\n",
              head, code=True)
    result = cli("build", "--strict", "--checkout", str(repo))
    assert (result.code, result.err) == (0, "")
    page = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    assert '&lt;a href="https://example.<wbr>org/x"&gt;x&lt;/a&gt;' in page  # shown as code


def test_a_root_file_is_named_by_its_path_beside_files_that_end_with_it() -> None:
    """terraform-aws-vpc: the root `main.tf` and `examples/complete/main.tf`, both listed:
    `[[main.tf:3]]` was ambiguous, and 'write more of the path' cannot be done for a file
    at the root. A path that is one of the files whole names that file."""
    pr = dataclasses.replace(PR, files=("examples/complete/main.tf", "main.tf"))
    html, errors, _ = render("[[main.tf:3]] and [[complete/main.tf:4]]\n", pr=pr)
    assert errors == []
    assert "/blob/2f6b955/main.tf#L3" in html and "/blob/2f6b955/examples/complete/main.tf#L4" in html
    _, errors, _ = render("[[main.tf:3]]\n", pr=dataclasses.replace(
        PR, files=("examples/complete/main.tf", "modules/x/main.tf")))
    assert len(errors) == 1 and "ambiguous file name 'main.tf'" in errors[0]
