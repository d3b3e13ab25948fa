"""When the PR moves on: `site-gen repin` maps every item of its pages to the new head,
confirmed by content, and pages whose PR has moved say how they stand at its new head.

Each test makes a local repository with the pinned head and a newer one (the PR's ref
`refs/pull/12/head` points at the newer), and a one-page project that checks against it."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from .conftest import Project, Run, commit, git

CLI = Callable[..., Run]

CORE = "".join(f"step_{n} = {n}\n" for n in range(1, 9)) + """\


def make_key(user):
    name = user.name
    return hash(name)


def helper():
    return 1
"""  # make_key: L11-L13, its body L12-L13; helper: L16-L17
CHECKPOINT = "def save():\n    return 0\n"
PR_YML = """\
repo: acme/widgets
number: 12
title: Make widgets faster
head: {head}
state: open
files:
  - src/widgets/core.py
  - src/widgets/checkpoint.py
"""
PAGE = """\
---
title: Why the key is wrong
question: the key
order: 1
status: open
updated: 2026-01-05
---

The key is named in [[core.py:12]] and hashed in [[core.py L12-L13]].
"""


def repository(folder: Path, old: dict[str, str], new: dict[str, str | None]) -> tuple[str, str]:
    """A repository with commit `old` (these files) then `new` (these changes; None
    removes a file); the PR's ref points at the new one. Returns both SHAs."""
    folder.mkdir(parents=True)
    git(folder, "init", "-q", "-b", "main")
    shas = []
    for files in (old, new):
        for name, text in files.items():
            path = folder / name
            if text is None:
                git(folder, "rm", "-q", name)
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        git(folder, "add", "-A")
        git(folder, "commit", "-q", "--allow-empty", "-m", "commit")
        shas.append(git(folder, "rev-parse", "HEAD"))
    git(folder, "update-ref", "refs/pull/12/head", shas[1])
    return shas[0], shas[1]


@pytest.fixture
def moved(project: Project, tmp_path: Path) -> Callable[..., tuple[Path, str, str]]:
    """Set up the project: the page `body` (after its front matter) pinned to the old head
    of a repository whose new head applies `new`."""

    def make(body: str, new: dict[str, str | None],
             old: dict[str, str] | None = None) -> tuple[Path, str, str]:
        repo = tmp_path / "code"
        first, second = repository(repo, old or {"src/widgets/core.py": CORE,
                                                 "src/widgets/checkpoint.py": CHECKPOINT}, new)
        project.write("content/acme/widgets/12/pr.yml", PR_YML.format(head=first))
        project.write("content/acme/widgets/12/cache-bug.md",
                      PAGE.split("\n\n", 1)[0] + "\n\n" + body)
        return repo, first, second

    return make


def repin(cli: CLI, repo: Path, *args: str) -> Run:
    return cli("repin", "acme/widgets#12", "--checkout", f"acme/widgets={repo}", *args)


def page_text(project: Project) -> str:
    return (project.root / "content/acme/widgets/12/cache-bug.md").read_text()


ADDED_QUOTE = re.compile(r' "(?:[^"\\]|\\.)*"(?=\]\]|\\?\|)')


def repinned_keeping_the_page(cli: CLI, repo: Path, project: Project) -> str:
    """repin's report where something is changed or gone: it exits 1 and leaves the page
    as it was, for its author to rewrite, but for the quote a line reference without one
    gets of its old text."""
    before = page_text(project)
    run = repin(cli, repo)
    assert run.code == 1, run.out
    assert ADDED_QUOTE.sub("", page_text(project)) == ADDED_QUOTE.sub("", before)
    return run.out


def repinned_and_built(cli: CLI, repo: Path, project: Project) -> tuple[str, str]:
    """repin's report and the page it rewrote, where everything moved or stayed: it exits
    0, and the page builds strictly at the new head."""
    run = repin(cli, repo)
    assert run.code == 0, run.out
    built = cli("build", "--strict", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0, built.err
    return run.out, page_text(project)


def test_lines_inserted_above_move_every_reference_and_rewrite_it(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    repo, old, new = moved("Named in [[core.py:12]], hashed in [[core.py L12-L13|the hash]], "
                           "the function [[core.py:11-13]].\n",
                           {"src/widgets/core.py": "import os\nimport sys\n" + CORE})
    run = repin(cli, repo)
    assert run.code == 0, run.out + run.err
    assert "3 references: 3 moved (rewritten)" in run.out
    assert "cache-bug.md:9: moved: src/widgets/core.py L12 now at L14" in run.out
    assert "[[core.py:14]]" in page_text(project)
    assert "[[core.py L14-L15|the hash]]" in page_text(project)
    assert "[[core.py:13-15]]" in page_text(project)
    pr_yml = (project.root / "content/acme/widgets/12/pr.yml").read_text()
    assert f"head: {new}\n" in pr_yml
    assert f"history:\n  - {old}\n" in pr_yml
    # the rewritten pages build, checked against the new head
    built = cli("build", "--strict", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0, built.err


def test_a_reference_wrapped_over_a_line_break_is_read_moved_and_quoted(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """Prose wraps, and the build reads a reference over a line break as over a space:
    repin and the drift notice read pages line by line and did not see such a reference
    at all (after repin it linked the new head's lines without a word)."""
    body = ("The key is named in [[core.py\nL12]], hashed in [[core.py:12-13|the\nhash]], and\n"
            "[[core.py:16]] helps.\n")
    new_core = "import os\n" + CORE.replace("return hash(name)", "return hash(name.lower())")
    repo, _, _ = moved(body, {"src/widgets/core.py": new_core})
    assert "3 references: 2 moved, 1 changed" in cli(
        "build", "--no-search", "--checkout", f"acme/widgets={repo}").err
    run = repin(cli, repo)
    out = run.out
    assert run.code == 1 and "cache-bug.md:9: moved: src/widgets/core.py L12 now at L13" in out, out
    assert "cache-bug.md:10: changed: src/widgets/core.py L12-L13" in out
    assert "cache-bug.md:12: moved: src/widgets/core.py L16 now at L17" in out
    assert page_text(project).endswith(  # the edited lines moved too: where they stand
        'The key is named in [[core.py\nL13]], hashed in [[core.py:13-14 "return hash(name)"|the\n'
        "hash]], and\n[[core.py:17]] helps.\n")


def test_a_pr_yml_as_site_gen_new_writes_it_is_repinned(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """`site-gen new` writes `head: "2f6b955"   # the commit every code link pins` and
    quoted paths: repin could not find that head line ("cannot find the 'head:' line"),
    after it had already rewritten the page, which then cited the new head's lines under
    the old head. The line keeps its quotes and comment; a renamed path its quotes."""
    repo, old, new = moved("Named in [[core.py:12]].\n",
                           {"src/widgets/core.py": "import os\n" + CORE,
                            "src/widgets/checkpoint.py": None,
                            "src/widgets/saving/checkpoint.py": CHECKPOINT})
    facts = project.root / "content/acme/widgets/12/pr.yml"
    facts.write_text(facts.read_text().replace(
        f"head: {old}\n", f'head: "{old[:7]}"   # the commit every code link pins\n').replace(
        "  - src/widgets/checkpoint.py\n", '  - "src/widgets/checkpoint.py"   # saving\n'))
    run = repin(cli, repo)
    assert run.code == 0, run.out + run.err
    text = facts.read_text()
    assert f'head: "{new}"   # the commit every code link pins\n' in text
    assert '  - "src/widgets/saving/checkpoint.py"   # saving\n' in text
    assert "[[core.py:13]]" in page_text(project)
    built = cli("build", "--strict", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0, built.err


def test_a_pr_yml_repin_cannot_rewrite_leaves_the_pages_as_they_were(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    repo, old, _ = moved("Named in [[core.py:12]].\n", {"src/widgets/core.py": "import os\n" + CORE})
    facts = project.root / "content/acme/widgets/12/pr.yml"
    facts.write_text(facts.read_text().replace(f"head: {old}\n", f"head: >-\n  {old}\n"))
    before = page_text(project)
    run = repin(cli, repo)
    assert run.code == 1 and "cannot find the 'head:' line of pr.yml" in run.err, run.err
    assert page_text(project) == before  # not moved to lines of a head pr.yml does not name


def test_a_path_written_with_url_escapes_moves_and_keeps_how_it_was_written(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """`Sample%20Data/core.py`: the drift reads the path the build reads, and the rewrite
    keeps the author's spelling."""
    repo, _, _ = moved("Named in [[Sample%20Data/core.py:12]].\n",
                       {"Sample Data/core.py": "import os\nimport sys\n" + CORE},
                       old={"Sample Data/core.py": CORE})
    run = repin(cli, repo)
    assert run.code == 0, run.out + run.err
    assert "moved: Sample Data/core.py L12 now at L14" in run.out
    assert "[[Sample%20Data/core.py:14]]" in page_text(project)


def test_a_tail_pr_yml_makes_unique_is_placed_as_the_build_reads_it(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """`core.py` names one file of pr.yml's but two of the tree (a test's `core.py` too):
    the build reads pr.yml's, and so does repin. Before, such a reference was left out of
    the count and never placed (an edit there went unreported, a move unwritten)."""
    old = {"src/widgets/core.py": CORE, "src/widgets/checkpoint.py": CHECKPOINT,
           "tests/core.py": "def test():\n    pass\n"}
    repo, _, _ = moved("Named in [[core.py:12]], [[core.py::make_key]].\n",
                       {"src/widgets/core.py": "import os\n" + CORE.replace(
                           "return hash(name)", "return hash(name.lower())")}, old=old)
    run = repin(cli, repo)
    assert run.code == 1, run.out
    assert "2 references: 1 moved (rewritten), 1 changed" in run.out, run.out
    assert "cache-bug.md:9: changed: src/widgets/core.py · make_key: make_key was edited" in run.out
    assert "Named in [[core.py:13]], [[core.py::make_key]]." in page_text(project)


def test_an_edited_line_is_changed_and_reported_with_both_texts(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    repo, _, _ = moved("Named in [[core.py:12]], called [[core.py:16]].\n",
                       {"src/widgets/core.py": CORE.replace("name = user.name",
                                                            "name = user.full_name")})
    out = repinned_keeping_the_page(cli, repo, project)  # the changed one keeps its old line
    assert "cache-bug.md:9: changed: src/widgets/core.py L12: the cited lines were edited" in out
    assert "was: name = user.name" in out and "now: name = user.full_name" in out
    assert "2 references: 1 same, 1 changed" in out


def test_a_changed_reference_gets_its_old_text_quoted_so_the_build_stops_at_it(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """A reference without a quote keeps its line numbers when its lines were edited:
    before, repin moved the head and the build then linked the new text, which the page
    never saw, without a word. Now it quotes a line of the old text, the build stops at it
    naming what the lines read now, and the author decides."""
    repo, _, new = moved("Named in [[core.py:12]], hashed in [[core.py L12-L13|the hash]].\n\n"
                         "```excerpt\n[[core.py:11-13]]\n```\n",
                         {"src/widgets/core.py": CORE.replace("name = user.name",
                                                              'name = user["full name"]')})
    out = repinned_keeping_the_page(cli, repo, project)
    assert ('now quotes its old text, "name = user.name": the build stops at it until you '
            "rewrite it for the new head (or drop the quote)") in out
    text = page_text(project)
    assert 'Named in [[core.py:12 "name = user.name"]], hashed in ' \
           '[[core.py L12-L13 "name = user.name"|the hash]].' in text
    built = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 1
    assert (f'cache-bug.md:9: the quote "name = user.name" of \'[[core.py:12 "name = user.name"]]\''
            f" is not on those lines at commit {new[:7]}; they read: name = user[\"full name\"]"
            ) in built.err, built.err
    assert "[[core.py:11-13 \"name = user.name\"]]\n" in text
    assert built.err.count("the quote") == 3  # each reference, once
    # the author rewrites the line for the new head: the build takes it
    project.write("content/acme/widgets/12/cache-bug.md", text.replace(' "name = user.name"', ""))
    assert cli("build", "--no-search", "--checkout", f"acme/widgets={repo}").code == 0


def test_a_changed_reference_whose_lines_moved_points_where_they_stand(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """The dart-lang/http trial: a new commit added a doc comment above a handler, moving
    its lines by four, and edited one of the cited ones. Repin kept the old numbers and quoted
    the old text: the build's error then showed the comment the numbers now held, and,
    the quote dropped, the page linked the comment. Lines edited in place and moved
    between the same neighbours are cited where they stand now, the old text quoted."""
    new_core = "import os\n" + CORE.replace("name = user.name", "name = user.full_name")
    repo, _, new = moved("The key: [[core.py L11-L13]].\n", {"src/widgets/core.py": new_core})
    run = repin(cli, repo)
    out = run.out
    assert run.code == 1 and ('changed: src/widgets/core.py L11-L13: the cited lines were '
                              'edited: L12 at the old head, L13 at the new\n') in out, out
    assert ('now points at L12-L14, where they stand, and quotes its old text, "name = '
            'user.name": the build stops at it') in out
    text = page_text(project)
    assert 'The key: [[core.py L12-L14 "name = user.name"]].' in text
    built = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 1 and (
        f"is not on those lines at commit {new[:7]}; they read: def make_key(user): / name = "
        "user.full_name / return hash(name)") in built.err, built.err
    project.write("content/acme/widgets/12/cache-bug.md", text.replace(' "name = user.name"', ""))
    rebuilt = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert rebuilt.code == 0, rebuilt.err
    html = (project.root / "site/acme/widgets/12/cache-bug/index.html").read_text()
    assert f"{new}/src/widgets/core.py#L12-L14" in html


def test_a_quote_is_of_a_line_the_kept_numbers_no_longer_hold(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """A line inserted inside the range: every old line still stands, but the last one has
    left the numbers the reference keeps; that is the line quoted. A quote with a quote
    mark is escaped as a quote is written; a dry run says what it would quote and writes
    nothing; a reference with a quote of its own, and a flow's source with its code, are
    left as written (the build checks them already)."""
    old = CORE.replace("return hash(name)", 'return hash("k" + name)')
    body = ('All of it: [[core.py:11-13]], quoted [[core.py:12-13 "user.name"]].\n\n'
            "```flow\ntitle: Two users\nlane a: Ana\nlane b: Bo\nstep: both log in\n"
            "outcome a: wrong: same key\noutcome b: wrong: same key\n"
            "source: [[core.py:12-13]] user.name\n```\n")
    repo, _, _ = moved(body, {"src/widgets/core.py": old.replace(
        "    name = user.name\n", "    name = user.name\n    name = name.strip()\n")},
        old={"src/widgets/core.py": old, "src/widgets/checkpoint.py": CHECKPOINT})
    before = page_text(project)
    dry = repin(cli, repo, "--dry-run")
    assert 'would quote its old text, "return hash(\\"k\\" + name)"' not in dry.out
    assert 'would quote its old text, "return hash("k" + name)"' in dry.out, dry.out
    assert dry.out.count("quote its old text") == 1 and dry.out.count(": changed: ") == 3
    assert page_text(project) == before
    out = repinned_keeping_the_page(cli, repo, project)
    assert 'now quotes its old text, "return hash("k" + name)"' in out
    text = page_text(project)
    assert 'All of it: [[core.py:11-13 "return hash(\\"k\\" + name)"]]' in text
    assert '[[core.py:12-13 "user.name"]]' in text
    assert "source: [[core.py:12-13]] user.name\n" in text


def test_the_quote_is_a_line_that_tells_the_lines_apart(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """Of the lines that changed, a `break;` is no quote to read: a longer one is taken
    when there is one; a long line whose start still stands there is quoted whole."""
    long_call = "total = compute_total(item, discount=None, currency=None, rounding=None, log=None)"
    old = f"def f(items):\n    for item in items:\n        break;\n        {long_call}\n"
    new = old.replace("break;", "continue;").replace("log=None", "log=True")
    repo, _, _ = moved("The loop: [[core.py:3-4]]; the call [[core.py:4]].\n",
                       {"src/widgets/core.py": new},
                       old={"src/widgets/core.py": old, "src/widgets/checkpoint.py": CHECKPOINT})
    repinned_keeping_the_page(cli, repo, project)
    assert ('[[core.py:3-4 "total = compute_total(item, discount=None, currency=None, rounding=None, '
            'log=None)"]]; the call [[core.py:4 "total = compute_total(item, discount=None, '
            'currency=None, rounding=None, log=None)"]]') in page_text(project)


def test_a_quote_repin_adds_holds_no_backtick(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """A quote of `name = `user.name`` pairs with a stray backtick earlier in the paragraph
    into a code span that takes the reference: the build then showed it as code, no link
    and no error. The quote is of a line without one, or of a part of a line between
    them."""
    old = CORE.replace("name = user.name", "name = `user.name`")
    repo, _, _ = moved("A stray ` here; the key [[core.py:12-13]], and [[core.py:12]].\n",
                       {"src/widgets/core.py": CORE.replace("return hash(name)", "return 0")
                        .replace("name = user.name", "name = `user.first`")},
                       old={"src/widgets/core.py": old, "src/widgets/checkpoint.py": CHECKPOINT})
    repinned_keeping_the_page(cli, repo, project)
    assert ('A stray ` here; the key [[core.py:12-13 "return hash(name)"]], and '
            '[[core.py:12 "user.name"]].') in page_text(project)
    built = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.err.count("the quote") == 2 and "2 error(s)" in built.err, built.err


def test_a_line_whose_old_text_is_part_of_the_new_gets_no_quote_and_says_so(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """A quote matches as part of the lines: `return 1` is part of `return 10`, so no quote
    of it would stop the build; the report says so rather than quote in vain."""
    repo, _, _ = moved("The helper [[core.py:17]].\n",
                       {"src/widgets/core.py": CORE.replace("return 1", "return 10")})
    out = repinned_keeping_the_page(cli, repo, project)
    assert ("changed: src/widgets/core.py L17: the cited lines were edited: L17 at the old head, "
            "L17 at the new\n    was: return 1\n    now: return 10\n    what it read is part of "
            "what its lines read now, so no quote would stop the build: read it again") in out
    assert "The helper [[core.py:17]]." in page_text(project)


def test_a_reference_in_a_table_is_read_and_quoted_as_its_cell_allows(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """In a table, a label's bar is written `\\|` (GFM splits a row at a bare one): such a
    reference was no item of repin, so it linked the new head's lines without a word. And
    a quote of a line holding `|` is escaped there, or it would end the cell; outside a
    table it is written as it is."""
    old = CORE.replace("name = user.name", "name = user.first | user.last")
    body = ("| where | what |\n|---|---|\n| [[core.py:12\\|the name]] | named |\n"
            "| [[core.py:12]] | plain |\n\nIn prose: [[core.py:12]].\n")
    repo, _, new = moved(body, {"src/widgets/core.py": CORE}, old={
        "src/widgets/core.py": old, "src/widgets/checkpoint.py": CHECKPOINT})
    out = repinned_keeping_the_page(cli, repo, project)
    assert out.count('now quotes its old text, "name = user.first | user.last"') == 3, out
    text = page_text(project)
    assert '| [[core.py:12 "name = user.first \\| user.last"\\|the name]] | named |\n' in text
    assert '| [[core.py:12 "name = user.first \\| user.last"]] | plain |\n' in text
    assert 'In prose: [[core.py:12 "name = user.first | user.last"]].' in text
    built = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    # each stops at its quote, read whole: no row was cut into other cells
    assert built.err.count('the quote "name = user.first | user.last" of') == 3, built.err
    assert built.err.count("error") == 1 and "3 error(s)" in built.err
    project.write("content/acme/widgets/12/cache-bug.md",
                  text.replace(' "name = user.first \\| user.last"', "")
                  .replace(' "name = user.first | user.last"', ""))
    assert cli("build", "--no-search", "--checkout", f"acme/widgets={repo}").code == 0
    page = (project.root / "site/acme/widgets/12/cache-bug/index.html").read_text()
    assert re.search(r"<td><span class=\"ref-wrap\"><a class=\"ref\" href=\"[^\"]*"
                     rf"{new}/src/widgets/core.py#L12\"[^>]*>the name</a>", page)


def test_an_edit_deep_in_a_long_range_is_reported_by_the_lines_that_changed(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """The report's `was:` and `now:` are cut at 200 characters: of a long range whose
    last line was edited, both read the same. They show the lines that differ, and say
    which (before, 'the cited lines were edited' and two equal texts)."""
    repo, _, _ = moved("All of it: [[core.py:1-13]].\n",
                       {"src/widgets/core.py": CORE.replace("return hash(name)",
                                                            "return hash(name.lower())")})
    out = repinned_keeping_the_page(cli, repo, project)
    assert ("changed: src/widgets/core.py L1-L13: the cited lines were edited: L13 at the old "
            "head, L13 at the new\n    was: return hash(name)\n    now: return hash(name.lower())"
            ) in out, out


def test_a_renamed_file_moves_with_its_new_path(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """A path written as a tail that still names the file at the new head is kept as the
    author wrote it (before, every such path was written whole: a move into `pkgs/`
    rewrote every reference of the page)."""
    repo, _, _ = moved("Saved in [[checkpoint.py:2]], [[checkpoint.py::save]].\n\n"
                       "```proposal\nfile: checkpoint.py L2 · save\n@@ -2,1 +2,1 @@\n"
                       "-    return 0\n+    return 1\n```\n",
                       {"src/widgets/checkpoint.py": None,
                        "src/widgets/saving/checkpoint.py": CHECKPOINT})
    run = repin(cli, repo)
    assert run.code == 0, run.out
    assert "now at src/widgets/saving/checkpoint.py L2" in run.out
    assert "Rewrote content/acme/widgets/12/pr.yml.\n" in run.out  # the page reads the same
    text = page_text(project)
    assert "[[checkpoint.py:2]], [[checkpoint.py::save]]" in text
    assert "file: checkpoint.py L2 · save\n" in text
    pr_yml = (project.root / "content/acme/widgets/12/pr.yml").read_text()
    assert "  - src/widgets/saving/checkpoint.py\n" in pr_yml
    assert "  - src/widgets/checkpoint.py\n" not in pr_yml
    built = cli("build", "--strict", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0, built.err


def test_a_path_that_no_longer_names_the_renamed_file_is_written_whole(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    repo, _, _ = moved("Saved in [[widgets/checkpoint.py:2]].\n",
                       {"src/widgets/checkpoint.py": None,
                        "src/widgets/saving/checkpoint.py": CHECKPOINT})
    assert repin(cli, repo).code == 0
    assert "[[src/widgets/saving/checkpoint.py:2]]" in page_text(project)


def test_a_path_written_whole_escapes_what_a_reference_cannot_hold(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """Moved into a folder whose name holds a space: written whole, the path was written
    with its space, which ends a reference's path (the page then failed to build)."""
    repo, _, _ = moved("Saved in [[widgets/checkpoint.py:2]].\n\n```proposal\nfile: "
                       "widgets/checkpoint.py L2 · save\n@@ -2,1 +2,1 @@\n-    return 0\n"
                       "+    return 1\n```\n",
                       {"src/widgets/checkpoint.py": None,
                        "src/widgets/old saves/checkpoint.py": CHECKPOINT})
    assert repin(cli, repo).code == 0
    text = page_text(project)
    assert "[[src/widgets/old%20saves/checkpoint.py:2]]" in text
    assert "file: src/widgets/old%20saves/checkpoint.py L2 · save" in text
    built = cli("build", "--strict", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0, built.err


def test_a_file_no_page_cites_is_renamed_in_pr_yml_too(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """Before, only the files the pages cite were renamed: pr.yml kept the old path of
    the others, which a reference added later would fail on."""
    repo, _, _ = moved("Named in [[core.py:12]].\n",
                       {"src/widgets/checkpoint.py": None,
                        "src/widgets/saving/checkpoint.py": CHECKPOINT})
    assert repin(cli, repo).code == 0
    pr_yml = (project.root / "content/acme/widgets/12/pr.yml").read_text()
    assert "  - src/widgets/saving/checkpoint.py\n" in pr_yml
    assert "  - src/widgets/checkpoint.py\n" not in pr_yml


def test_a_deleted_file_is_gone(moved: Callable[..., tuple[Path, str, str]], project: Project,
                                cli: CLI) -> None:
    repo, _, _ = moved("Saved in [[checkpoint.py:2]].\n", {"src/widgets/checkpoint.py": None})
    run = repin(cli, repo)
    assert run.code == 1
    assert "gone: src/widgets/checkpoint.py L2: src/widgets/checkpoint.py was removed" in run.out


def test_a_function_moved_within_its_file_is_found_again(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    reordered = CORE.replace("def make_key(user):\n    name = user.name\n    return hash(name)"
                             "\n\n\n", "") + "\n\ndef make_key(user):\n    name = user.name\n" \
                                             "    return hash(name)\n"
    repo, _, _ = moved("The key: [[core.py L11-L13]]; by name [[core.py::make_key]].\n",
                       {"src/widgets/core.py": reordered})
    run = repin(cli, repo)
    assert run.code == 0, run.out
    lines = reordered.splitlines()
    start = lines.index("def make_key(user):") + 1
    assert f"[[core.py L{start}-L{start + 2}]]" in page_text(project)
    assert "[[core.py::make_key]]" in page_text(project)  # a name needs no rewriting
    assert "2 references: 2 moved (rewritten)" in run.out


def test_a_reference_whose_quote_holds_brackets_moves(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """A quote may hold `]]` (bash's `[[ -f "$1" ]]`): the reference is found and moved
    whole, as the build reads it."""
    script = 'if [[ -f "$1" ]]; then\n  echo "${a[i[0]]}"\nfi\n'
    repo, _, _ = moved('The test [[run.sh:1 "if [[ -f \\"$1\\" ]]; then"]] and the lookup '
                       '[[run.sh:2 "${a[i[0]]}"]].\n\n::: review suggestion [[run.sh:2 "${a[i[0]]}"]]\n'
                       'Quote the lookup.\n:::\n',
                       {"src/widgets/run.sh": "set -e\n" + script},
                       {"src/widgets/core.py": CORE, "src/widgets/run.sh": script})
    project.write("content/acme/widgets/12/pr.yml", (project.root / "content/acme/widgets/12/"
                  "pr.yml").read_text() + "  - src/widgets/run.sh\n")
    run = repin(cli, repo)
    assert run.code == 0, run.out + run.err
    assert "3 references: 3 moved (rewritten)" in run.out
    assert '::: review suggestion [[run.sh:3 "${a[i[0]]}"]]' in page_text(project)
    assert ('[[run.sh:2 "if [[ -f \\"$1\\" ]]; then"]] and the lookup [[run.sh:3 "${a[i[0]]}"]]'
            in page_text(project))
    built = cli("build", "--strict", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0, built.err


def test_a_symbol_whose_definition_stands_where_it_stood_is_the_same(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """Before, every symbol reference counted as moved (a name has no lines to compare),
    even when nothing above its definition changed."""
    repo, _, _ = moved("By name [[core.py::helper]] and [[core.py::make_key]].\n",
                       {"src/widgets/core.py": CORE + "\n\ndef extra():\n    return 3\n"})
    run = repin(cli, repo)
    assert run.code == 0, run.out
    assert "2 references: 2 same" in run.out and "moved" not in run.out


def test_a_symbol_whose_body_changed_is_changed(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    repo, _, _ = moved("By name [[core.py::helper]].\n",
                       {"src/widgets/core.py": CORE.replace("return 1", "return 2")})
    run = repin(cli, repo)
    assert run.code == 1
    assert ("changed: src/widgets/core.py · helper: helper was edited: L17 at the old head, "
            "L17 at the new") in run.out
    assert "was: return 1\n    now: return 2\n" in run.out  # what changed, not its first lines


REFORMATTED = CORE.replace("    name = user.name\n", "    name  =  user.name\n\n")
# a formatter's commit: spaces around `=`, a blank line added in make_key (L11-L14 now)


def test_a_symbol_reformatted_moves_and_says_only_its_spacing_changed(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """guzzle#3131 repinned over a php-cs-fixer commit: the definition the page cites by
    name was changed (repin exited 1, the page's notice said so) where only the spaces
    aligning its `=>` went. The same tokens, strings as they were, are the code the page
    explained: it is moved, and says so."""
    repo, _, _ = moved("By name [[core.py::make_key]], named at [[core.py:12]], "
                       "all of it [[core.py:11-13]].\n", {"src/widgets/core.py": REFORMATTED})
    out, page = repinned_and_built(cli, repo, project)
    assert ("moved: src/widgets/core.py · make_key now at L11-L14, only the white space "
            "between its tokens changed") in out, out
    assert "moved: src/widgets/core.py L11-L13 now at L11-L14, only the white space" in out
    assert "[[core.py:11-14]]" in page and "[[core.py:12]]" in page  # L12: the same text
    assert "3 references: 1 same, 2 moved" in out


@pytest.mark.parametrize(("new", "edit"), [
    (CORE.replace("return hash(name)", "return hash( name, )"), "L13"),  # a token added
    (CORE.replace("    name = user.name\n", "name = user.name\n"), "L12"),  # out of the def
])
def test_a_symbol_whose_tokens_or_structure_changed_with_its_spacing_is_changed(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI,
        new: str, edit: str) -> None:
    """Spacing is all that may change: a trailing comma is a token, and in Python a line
    moved out of its block is another program (it is no longer make_key's)."""
    repo, _, _ = moved("By name [[core.py::make_key]].\n", {"src/widgets/core.py": new})
    run = repin(cli, repo)
    assert run.code == 1, run.out
    assert "changed: src/widgets/core.py · make_key" in run.out and edit in run.out


def test_a_symbol_is_reported_by_the_lines_that_changed_in_it(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """Before, the report showed the definition's first lines, the same on both sides."""
    grown = CORE.replace("    return hash(name)", "    name = name.lower()\n    return hash(name)")
    repo, _, _ = moved("By name [[core.py::make_key]].\n", {"src/widgets/core.py": grown})
    run = repin(cli, repo)
    assert ("make_key was edited: L13 added at the new head\n"
            "    was: (nothing)\n    now: name = name.lower()\n") in run.out


def test_lines_that_left_their_definition_are_changed_and_say_where_they_went(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """The page cited make_key's lines; their text now stands once, in another function
    (make_key calls it). Before, the reference 'moved' there, and repin rewrote the page to
    cite the other function as make_key's lines."""
    split = CORE.replace("    name = user.name\n    return hash(name)", "    return _hashed(user)") \
        + "\n\ndef _hashed(user):\n    name = user.name\n    return hash(name)\n"
    repo, _, _ = moved("make_key hashes the name: [[core.py L12-L13]].\n",
                       {"src/widgets/core.py": split})
    out = repinned_keeping_the_page(cli, repo, project)
    assert ("changed: src/widgets/core.py L12-L13: the cited lines were edited: L12-L13 at the "
            "old head, L12 at the new; their text is now at L20-L21, in _hashed") in out
    assert "now: return _hashed(user)" in out


def test_a_line_the_old_head_held_more_than_once_does_not_say_where_it_went(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """A `return 1` edited in helper, where another function has the same line: the report
    said "their text is now at L20, in other", a line the page never cited (gin's
    `return err`, "now at L961, in Context.ShouldBindBodyWith")."""
    old = CORE + "\n\ndef other():\n    return 1\n"  # helper: L16-L17; other: L20-L21
    repo, _, _ = moved("The helper returns [[core.py:17]].\n",
                       {"src/widgets/core.py": old.replace("def helper():\n    return 1",
                                                           "def helper():\n    return 2")},
                       old={"src/widgets/core.py": old, "src/widgets/checkpoint.py": CHECKPOINT})
    out = repinned_keeping_the_page(cli, repo, project)
    assert "the cited lines were edited: L17 at the old head, L17 at the new\n" in out, out
    assert "their text is now" not in out


def test_a_folder_stands_while_the_new_head_has_it(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """Before, a reference to a folder was no item at all: the notice said nothing of it."""
    repo, _, _ = moved("The widgets live in [[src/widgets/]]; the old helpers in [[src/gears]].\n",
                       {"src/gears/util.py": None},
                       {"src/widgets/core.py": CORE, "src/gears/util.py": "x = 1\n"})
    run = repin(cli, repo, "--dry-run")
    assert "cache-bug.md:9: gone: src/gears: the new head has no folder src/gears/" in run.out
    assert "2 references: 1 same, 1 gone" in run.out


HUNK = """\
```proposal
title: Hash the whole user
status: proposed

file: core.py L12-L13 · make_key
@@ -12,2 +12,2 @@
-    name = user.name
-    return hash(name)
+    name = (user.name, user.id)
+    return hash(name)
```
"""


def test_a_hunk_moves_with_its_lines_and_its_position(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    repo, _, _ = moved(HUNK, {"src/widgets/core.py": "import os\n" + CORE})
    run = repin(cli, repo)
    assert run.code == 0, run.out
    text = page_text(project)
    assert "file: core.py L13-L14 · make_key\n@@ -13,2 +13,2 @@\n" in text
    built = cli("build", "--strict", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0, built.err


def test_hunks_apart_by_a_blank_line_move_with_their_lines(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """The blank line between two hunks (before the next 'file:' line) is no line of the
    first, as the build reads it: repin read it as an empty context line, so the hunk's
    old side stood nowhere ("the hunk no longer applies: its old side is not at the old
    head either", the lazy.nvim trial page) and the page kept its old numbers."""
    two = ("```proposal\nfile: core.py L12 · make_key\n@@ -11,2 +11,2 @@\n def make_key(user):\n"
           "-    name = user.name\n+    name = (user.name, user.id)\n\n"
           "file: core.py L17 · helper\n@@ -17,1 +17,1 @@\n-    return 1\n+    return 2\n```\n")
    repo, _, _ = moved(two, {"src/widgets/core.py": "import os\n" + CORE})
    out, text = repinned_and_built(cli, repo, project)
    assert "2 hunks: 2 moved" in out
    assert "file: core.py L13 · make_key\n@@ -12,2 +12,2 @@\n" in text
    assert "file: core.py L18 · helper\n@@ -18,1 +18,1 @@\n" in text


def test_a_hunk_pasted_from_git_diff_moves_with_what_git_wrote_after_its_position(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """`git diff` writes the line of the function around a section after its '@@' (here
    with numbers of its own): the build read such a line as no diff line; repin moves the
    position and leaves the rest as it was."""
    pasted = HUNK.replace("@@ -12,2 +12,2 @@\n", "@@ -12,2 +12,2 @@ def make_key(user, n=-1):\n")
    repo, _, _ = moved(pasted, {"src/widgets/core.py": "import os\n" + CORE})
    at = ("--strict", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert cli("build", *at).code == 0
    run = repin(cli, repo)
    assert run.code == 0, run.out
    assert "@@ -13,2 +13,2 @@ def make_key(user, n=-1):\n" in page_text(project)
    built = cli("build", *at)
    assert built.code == 0, built.err


def test_a_hunk_whose_file_line_names_no_lines_moves_by_its_positions(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """`file: core.py` without `L` ranges: its sections' old sides stood one line lower, and
    repin said 'same' (it compared the lines the file line names, none) and left the '@@'
    lines where the build no longer applied them."""
    repo, _, _ = moved(HUNK.replace(" L12-L13 · make_key", ""),
                       {"src/widgets/core.py": "import os\n" + CORE})
    out, text = repinned_and_built(cli, repo, project)
    assert "moved: src/widgets/core.py L12-L13 now at L13-L14" in out
    assert "file: core.py\n@@ -13,2 +13,2 @@\n" in text


GIT_LINE = "diff --git {a}{{path}} {b}{{path}}\nindex 8e03d9e..6efc5a7 100644\n"
MAILED = (f"From {'0123abc' * 6}0123 Mon Sep 17 00:00:00 2001\nFrom: t <t@t>\n"
          "Subject: [PATCH] Keys of two parts\n\nfile: core.py L1\n---\n"
          " src/widgets/core.py | 4 ++--\n\n")


@pytest.mark.parametrize(("renamed", "a", "b", "before"), [
    (False, "a/", "b/", GIT_LINE), (True, "a/", "b/", GIT_LINE), (True, "", "", ""),
    (True, "", "", GIT_LINE), (True, "a/", "b/", MAILED + GIT_LINE)],
    ids=["git diff", "renamed", "pair alone", "no prefix", "format-patch"])
def test_a_file_s_diff_pasted_from_git_diff_moves_and_names_the_file_where_it_went(
        renamed: bool, a: str, b: str, before: str, moved: Callable[..., tuple[Path, str, str]],
        project: Project, cli: CLI) -> None:
    """A hunk pasted whole from `git diff`, its header naming the file: repin moves its
    positions as a `file:` line's, and a renamed file's header names the new path (with
    `a/` and `b/`, or without, as `git diff --no-prefix` writes it); pasted from `git
    format-patch`, the mail's header before it and its signature after it are none of its
    lines (the signature's `-- ` was a removed line: 'no longer applies'), left as they are."""
    header = before.format(a=a, b=b) + \
        f"--- {a}{{path}}\n+++ {b}{{path}}\n@@ -12,2 +12,2 @@ def make_key(user):\n"
    pasted = ("```proposal\n" + header.format(path="src/widgets/core.py") +
              "-    name = user.name\n-    return hash(name)\n+    name = (user.name, user.id)\n"
              "+    return hash(name)\n" + ("-- \n2.39.5\n" if before.startswith("From") else "")
              + "```\n")
    path = "src/widgets/keys/core.py" if renamed else "src/widgets/core.py"
    repo, _, _ = moved(pasted, {"src/widgets/core.py": None, path: "import os\n" + CORE}
                       if renamed else {path: "import os\n" + CORE})
    out, text = repinned_and_built(cli, repo, project)
    assert "1 hunk: 1 moved" in out
    assert header.format(path=path).replace("@@ -12,2 +12,2", "@@ -13,2 +13,2") in text


@pytest.mark.parametrize(("line", "renamed"), [
    ("diff --git a/diff b/diff", "diff --git a/bin/diff b/bin/diff"),
    ("--- a/diff", "--- a/bin/diff"), ("+++ b/diff", "+++ b/bin/diff"),
    ("--- diff\t2026-12-04 10:00:00", "--- bin/diff\t2026-12-04 10:00:00"),
    ("index 8e03d9e..6efc5a7 100644", "index 8e03d9e..6efc5a7 100644"),
    ("rename from diff", "rename from bin/diff"), ("rename to diff2", "rename to diff2"),
])
def test_a_pasted_header_is_renamed_where_it_names_the_file(line: str, renamed: str) -> None:
    """A file named as a word of the header itself (`diff`, or `a`): its name was replaced
    wherever it stood, `diff --git` too."""
    from site_gen.drift import _renamed

    assert _renamed(line, "diff", "bin/diff") == renamed


def test_a_hunk_in_a_block_quote_moves_in_place(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """A proposal the build reads in a block quote (or a list's item) is placed and moved
    as one at the top level: its lines rewritten after their marks."""
    quoted = "Before the fix:\n\n" + "".join(f"> {line}\n" for line in HUNK.splitlines())
    repo, _, _ = moved(quoted, {"src/widgets/core.py": "import os\n" + CORE})
    out, text = repinned_and_built(cli, repo, project)
    assert "moved: src/widgets/core.py L12-L13 · make_key now at L13-L14" in out
    assert "> file: core.py L13-L14 · make_key\n> @@ -13,2 +13,2 @@\n" in text


def test_a_hunk_in_sections_moves_with_its_lines(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """An elision (' ...') between a hunk's sections is part of neither side."""
    hunk = HUNK.replace("file: core.py L12-L13 · make_key\n@@ -12,2 +12,2 @@\n",
                        "file: core.py L12-L17\n@@ -12,2 +12,2 @@\n").replace(
        "+    return hash(name)\n", "+    return hash(name)\n ...\n@@ -17,1 +17,1 @@\n"
                                   "-    return 1\n+    return 2\n")
    repo, _, _ = moved(hunk, {"src/widgets/core.py": "import os\n" + CORE})
    run = repin(cli, repo)
    assert run.code == 0, run.out
    assert "@@ -13,2 +13,2 @@" in page_text(project) and "@@ -18,1 +18,1 @@" in page_text(project)


def test_a_hunk_that_no_longer_applies_is_changed(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    repo, _, _ = moved(HUNK, {"src/widgets/core.py": CORE.replace("return hash(name)",
                                                                  "return hash(name) % 7")})
    out = repinned_keeping_the_page(cli, repo, project)
    assert ("changed: src/widgets/core.py L12-L13 · make_key: the hunk no longer applies: its "
            "old side was edited (first at 'return hash(name)')") in out
    # what took its place, to rewrite the hunk by (before: "now: (nothing)")
    assert "was: return hash(name)\n    now: return hash(name) % 7" in out


@pytest.mark.parametrize("made", [
    "    name = (user.name, user.id)\n    return hash(name)\n",  # as proposed
    "    # the id too, as the review asked\n    name = (user.name, user.id)\n"
    "    return hash(name)\n",  # with a line of the PR's own before it
])
def test_a_hunk_the_pr_then_made_says_so(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI,
        made: str) -> None:
    """The PR took the proposal: its old side is gone, and its new side stands where it
    stood. Still changed (the page proposes what the PR now does), told apart from an
    edit that went another way."""
    repo, old, _ = moved(HUNK, {"src/widgets/core.py": CORE.replace(
        "    name = user.name\n    return hash(name)\n", made)})
    out = repinned_keeping_the_page(cli, repo, project)
    at = "L12-L13" if made.startswith("    name") else "L13-L14"
    assert ("changed: src/widgets/core.py L12-L13 · make_key: the hunk no longer applies: the "
            f"new head has the lines it proposes ({at}): the PR may have made this change") in out
    # the page, before it is repinned, tells its reader so under its header
    project.write("content/acme/widgets/12/pr.yml", PR_YML.format(head=old))
    project.write("content/acme/widgets/12/cache-bug.md", PAGE.split("\n\n", 1)[0] + "\n\n" + HUNK)
    built = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0, built.err
    html = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    notice = re.sub(r"<[^>]+>", "", re.search(r'<p class="code-check drift".*?</p>', html, re.S)[0])
    assert (f"Its new head has the lines this page proposes (src/widgets/core.py {at}): the PR "
            "may have made the change.") in " ".join(notice.split())


CHECK = """\
```proposal
file: core.py L11-L12 · make_key
@@ -11,2 +11,3 @@
 def make_key(user):
+    assert user.id is not None, "a user without an id"
     name = user.name
```
"""


def test_a_hunk_the_pr_made_with_lines_of_its_own_says_so(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """hiredis: the PR took a proposed check, with a comment over it and another check
    before it, so the hunk's new side no longer stands whole anywhere: it was told 'its
    old side was edited'. The lines it adds, together, beside the hunk's next line, are
    the change made; repin, the notice and the build each say so."""
    repo, old, new = moved(CHECK, {"src/widgets/core.py": CORE.replace(
        "    name = user.name\n", "    # every key needs the id, as the review asked\n"
        "    assert user.id is not None, \"a user without an id\"\n    name = user.name\n")})
    out = repinned_keeping_the_page(cli, repo, project)
    assert ("changed: src/widgets/core.py L11-L12 · make_key: the hunk no longer applies: the "
            "new head has the lines it proposes (L13): the PR may have made this change\n"
            "    was: def make_key(user): ⏎ name = user.name\n"  # its old side, and what made it
            "    now: assert user.id is not None, \"a user without an id\"\n") in out
    built = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.err.startswith(
        f"content/acme/widgets/12/cache-bug.md:11: the proposed change is made at {new[:7]}: "
        "L13 of src/widgets/core.py read as this hunk proposes"), built.err
    project.write("content/acme/widgets/12/pr.yml", PR_YML.format(head=old))  # as written
    html = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}").code == 0 and \
        (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    assert html and "Its new head has the lines this page proposes (<code>src/widgets/core.py " \
                    "L13</code>)" in html
    assert "later. Of its 1 hunk: 1 changed." in html  # not "of its 1 reference"


def test_a_hunk_the_pr_made_in_words_of_its_own_where_they_are_comments_says_so(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """click: the PR took a proposal's code as proposed, its comment in words of its own:
    'its old side was edited'. Comments alone are aside, on the page and in the file."""
    commented = CHECK.replace("+    assert", "+    # a key is only as unique as its id\n+    assert")
    repo, _, _ = moved(commented, {"src/widgets/core.py": CORE.replace(
        "    name = user.name\n", "    # the id makes each key unique (asked in the review)\n"
        "    assert user.id is not None, \"a user without an id\"\n    name = user.name\n")})
    out = repinned_keeping_the_page(cli, repo, project)
    assert ("changed: src/widgets/core.py L11-L12 · make_key: the hunk no longer applies: the "
            "new head has the lines it proposes (L13): the PR may have made this change") in out


@pytest.mark.parametrize(("later", "said"), [
    (None, None),  # the new head has no such file yet: the hunk still makes it
    ("# ours\ndef check_user(user):\n    return user.id is not None\n",
     "changed: src/widgets/checks.py: the new head has src/widgets/checks.py, which the hunk "
     "makes, with the lines it proposes (L2-L3): the PR may have made this change"),
    ("def check(user):\n    return True\n",
     "changed: src/widgets/checks.py: the new head has src/widgets/checks.py, which the hunk "
     "makes new: applied, it would make it again"),
], ids=["not yet", "made", "another file"])
def test_a_hunk_that_makes_a_file_is_made_when_the_new_head_has_it(
        later: str | None, said: str | None, moved: Callable[..., tuple[Path, str, str]],
        project: Project, cli: CLI) -> None:
    """Real history (gin, hiredis): a proposal that makes a file the PR then made was 'gone:
    ... was removed' (the old head had no such file, as a hunk that makes one expects)."""
    made = ("```proposal\nfile: src/widgets/checks.py\n@@ -0,0 +1,2 @@\n"
            "+def check_user(user):\n+    return user.id is not None\n```\n")
    repo, _, _ = moved(made, {"src/widgets/checks.py": later} if later else
                       {"src/widgets/core.py": "import os\n" + CORE})
    pr_yml = project.root / "content/acme/widgets/12/pr.yml"
    pr_yml.write_text(pr_yml.read_text() + "  - src/widgets/checks.py\n")
    run = repin(cli, repo)
    if said is None:
        assert run.code == 0 and "1 hunk: 1 same" in run.out, run.out
        return
    assert run.code == 1 and said in run.out, run.out


def test_a_hunk_pasted_to_remove_a_file_is_made_when_the_new_head_has_no_such_file(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """A proposal to remove a file the PR then removed was 'gone: ... was removed'."""
    removes = ("```proposal\ndiff --git a/src/widgets/checkpoint.py b/src/widgets/checkpoint.py\n"
               "deleted file mode 100644\n--- a/src/widgets/checkpoint.py\n+++ /dev/null\n"
               "@@ -1,2 +0,0 @@\n-def save():\n-    return 0\n```\n")
    repo, old, _ = moved(removes, {"src/widgets/checkpoint.py": None})
    run = repin(cli, repo)
    assert run.code == 1 and ("changed: src/widgets/checkpoint.py L1-L2: the new head has no "
                              "src/widgets/checkpoint.py, which the hunk removes: the PR may have "
                              "made this change") in run.out, run.out
    # the notice lists it too, beside any lines made (it listed lines only)
    assert "Its new head has no <code>src/widgets/checkpoint.py</code>, which this page proposes " \
           "to remove: the PR may have made the change." in notice_at(old, repo, project, cli)


def notice_at(head: str, repo: Path, project: Project, cli: CLI) -> str:
    """The drift notice of the page built pinned to `head`, the PR having moved on."""
    project.write("content/acme/widgets/12/pr.yml", PR_YML.format(head=head))
    built = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0, built.err
    html = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    notice = re.search(r'<p class="code-check drift".*?</p>', html, re.S)
    assert notice is not None, html
    return notice[0]


RENAMES = ("```proposal\ndiff --git a/src/widgets/checkpoint.py b/src/widgets/saving.py\n"
           "similarity index 60%\nrename from src/widgets/checkpoint.py\n"
           "rename to src/widgets/saving.py\n--- a/src/widgets/checkpoint.py\n"
           "+++ b/src/widgets/saving.py\n@@ -1,2 +1,2 @@\n def save():\n-    return 0\n"
           "+    return 1\n```\n")


@pytest.mark.parametrize(("later", "said", "noticed"), [
    ("def save():\n    return 1\n",
     "changed: src/widgets/checkpoint.py L1-L2: the new head has src/widgets/saving.py, to which "
     "the hunk renames src/widgets/checkpoint.py, with the lines it proposes (L1-L2): the PR "
     "may have made this change",
     "Its new head has the lines this page proposes (<code>src/widgets/saving.py L1-L2</code>): "
     "the PR may have made the change."),
    (CHECKPOINT,
     "changed: src/widgets/checkpoint.py L1-L2: the new head has src/widgets/saving.py, to which "
     "the hunk renames src/widgets/checkpoint.py, with the lines the hunk changes (L1-L2): the "
     "PR made the rename, not the change; rewrite the hunk as a change of src/widgets/saving.py",
     "Its new head has <code>src/widgets/saving.py</code> and no "
     "<code>src/widgets/checkpoint.py</code>: the PR may have made the rename this page proposes."),
], ids=["renamed and changed", "renamed alone"])
def test_a_hunk_pasted_to_rename_a_file_is_made_when_the_new_head_has_its_new_name(
        later: str, said: str, noticed: str, moved: Callable[..., tuple[Path, str, str]],
        project: Project, cli: CLI) -> None:
    """A proposal pasted from git diff that renames a file, at a head where the PR made the
    rename: 'gone: ... was removed' where git did not tell the rename (a small file, much
    changed), else 'moved', rewritten to rename the new name onto itself (an error at the
    next build). Now the rename is made, and the change too where its lines stand."""
    repo, old, _ = moved(RENAMES, {"src/widgets/checkpoint.py": None, "src/widgets/saving.py": later})
    assert said in repinned_keeping_the_page(cli, repo, project)
    assert noticed in notice_at(old, repo, project, cli)


NEW_FUNCTION = """\
```proposal
file: core.py L14-L16
@@ -14,3 +14,7 @@
\x20
\x20
+def check_user(user):
+    return user.id is not None
+
+
 def helper():
```
"""


def test_a_hunk_that_still_applies_beside_the_lines_it_adds_was_made(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """ky: the hunk's context is generic (blank lines and the next definition's first
    line); the PR added its function right there, so its old side stands again after
    them. It was 'moved' (and the build applied it, to add the function twice); the lines
    it adds touch where it applies: made, said by repin, the notice and the build."""
    made = CORE.replace("def helper():", "def check_user(user):\n    return user.id is not None"
                                         "\n\n\ndef helper():")
    repo, old, new = moved(NEW_FUNCTION, {"src/widgets/core.py": made})
    out = repinned_keeping_the_page(cli, repo, project)
    assert ("changed: src/widgets/core.py L14-L16: the hunk still applies (L18-L20), but the new "
            "head has the lines it proposes beside it (L16-L17): the PR may have made this "
            "change") in out, out
    project.write("content/acme/widgets/12/pr.yml", PR_YML.format(head=old))  # as written
    built = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0, built.err
    html = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    assert "Its new head has the lines this page proposes (<code>src/widgets/core.py " \
           "L16-L17</code>)" in html
    # at the new head, moved where its old side stands again (as repin moved it before)
    project.write("content/acme/widgets/12/pr.yml", PR_YML.format(head=new))
    project.write("content/acme/widgets/12/cache-bug.md", page_text(project).replace(
        "L14-L16\n@@ -14,3 +14,7 @@", "L18-L20\n@@ -18,3 +18,7 @@"))
    built = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.err.startswith(
        "content/acme/widgets/12/cache-bug.md:11: the lines this hunk adds already stand at "
        f"L16-L17 of src/widgets/core.py at {new[:7]}, beside where it applies (L18-L20): "
        "applied, it would add them again"), built.err


def test_lines_a_hunk_adds_that_stood_near_before_are_not_the_change_made(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """The check a hunk adds to make_key stands, at the old head already, in the function
    after it; the PR then edits make_key another way. That check is not the change made:
    repin reads the old head; the build, at the new head, the function the hunk names."""
    other = "\n\ndef other_key(user):\n    assert user.id is not None, \"a user without an id\"\n" \
            "    name = user.name\n    return name\n"
    old = {"src/widgets/core.py": CORE + other, "src/widgets/checkpoint.py": CHECKPOINT}
    repo, _, new = moved(CHECK, {"src/widgets/core.py": CORE.replace(
        "    name = user.name\n", "    name = user.name.lower()\n") + other}, old)
    out = repinned_keeping_the_page(cli, repo, project)
    assert "changed: src/widgets/core.py L11-L12 · make_key: the hunk no longer applies: its " \
           "old side was edited" in out, out
    built = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")  # at the new head
    assert built.err.startswith(f"content/acme/widgets/12/cache-bug.md:14: the proposed change "
                                f"does not apply at {new[:7]}: line 12 of src/widgets/core.py "
                                "reads 'name = user.name.lower()'"), built.err


def test_a_renamed_function_is_changed_and_named_for_its_symbol_and_its_hunk(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """make_key renamed user_key, its lines as they were. Before, the symbol reference was
    only 'gone', and the hunk that names make_key counted as the same: repin wrote the new
    head, and the page then failed to build (make_key holds no line there)."""
    repo, _, _ = moved("By name [[core.py::make_key]].\n\n" + HUNK,
                       {"src/widgets/core.py": CORE.replace("def make_key(", "def user_key(")})
    out = repinned_keeping_the_page(cli, repo, project)
    assert ("changed: src/widgets/core.py · make_key: make_key is no longer defined in "
            "src/widgets/core.py: its lines are in user_key (L11-L13), a name the old head did "
            "not define (renamed?)") in out
    assert "was: def make_key(user):\n    now: def user_key(user):\n" in out
    assert ("changed: src/widgets/core.py L12-L13 · make_key: the hunk names make_key, which "
            "holds none of its lines at the new head; user_key (L11-L13) holds them") in out
    assert "1 reference and 1 hunk: 2 changed" in out


SHOP = ("defmodule Shop do\n  def total(items), do: total(items, 0)\n\n"
        "  defp total([], acc), do: acc\n  defp total([x | rest], acc), do: total(rest, acc + x)\n"
        "end\n")


def test_a_symbol_named_with_its_arity_is_found_by_it_at_the_new_head(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """Elixir's `Shop.total/2` beside `Shop.total/1`: repin looked the definition up at
    the new head by its name alone, which names both, and said 'gone' of a function that
    had only moved (plug's `build_path_clause/7`); the build found it."""
    repo, _, _ = moved("Summed in [[lib/shop.ex::Shop.total/2]].\n",
                       {"lib/shop.ex": "# the shop\n" + SHOP},
                       old={"src/widgets/core.py": CORE, "lib/shop.ex": SHOP})
    out, _ = repinned_and_built(cli, repo, project)
    assert "moved: lib/shop.ex · Shop.total/2 now at L5-L6" in out


SEND = ("class Client {\n  void send(int a) {\n    log(a);\n  }\n\n  void send(int a, long b) {\n"
        "    log(b);\n  }\n}\n")


@pytest.mark.parametrize(("new", "said"), [
    # lines above: the overload moves, its sibling's change is no change of it
    ("// the client\n" + SEND.replace("log(a);", "log(a + 1);"),
     "moved: src/Client.java · send(int,long) now at L7-L9"),
    (SEND.replace("log(b);", "log(b + 1);"), "changed: src/Client.java · send(int,long)"),
])
def test_an_overload_named_by_its_parameters_is_followed_alone(
        new: str, said: str, moved: Callable[..., tuple[Path, str, str]], project: Project,
        cli: CLI) -> None:
    """An overload cited by its parameters (`send(int,long)`) is one of the overloads side
    by side that its name alone names: repin followed the whole group, so an edit of its
    sibling changed it, and it moved with the group's lines."""
    repo, _, _ = moved("Sent by [[Client.java::send(int,long)]].\n", {"src/Client.java": new},
                       old={"src/Client.java": SEND})
    run = repin(cli, repo)
    assert said in run.out, run.out
    assert run.code == (1 if said.startswith("changed") else 0)


JOBS = "class A:\n    def run(self):\n        return 1\n"


@pytest.mark.parametrize(("new", "said"), [
    (JOBS + "\n\nclass B:\n    def run(self):\n        return 2\n",
     "run names 2 definitions at the new head: A.run, B.run"),
    ("def run():\n    return 0\n\n\n" + JOBS, "run names run (L1-L2) at the new head, not A.run"),
])
def test_a_symbol_that_names_other_definitions_at_the_new_head_is_changed(
        new: str, said: str, moved: Callable[..., tuple[Path, str, str]], project: Project,
        cli: CLI) -> None:
    """A name that found one definition at the old head and finds two, or another one, at
    the new head: repin looked it up by the old definition's name, said 'same' or
    'renamed', and the build then stopped at it or linked another function."""
    repo, _, _ = moved("Named [[core.py::run]].\n", {"src/widgets/core.py": new},
                       old={"src/widgets/core.py": JOBS})
    out = repinned_keeping_the_page(cli, repo, project)
    assert f"changed: src/widgets/core.py · run: {said}" in out


@pytest.mark.parametrize("new", [
    CORE.replace("\n\ndef helper():\n    return 1\n", "\n"),  # nothing holds its lines
    # a new function that shares one line of its three: not its body under a new name
    CORE.replace("def helper():\n    return 1\n",
                 "def fresh():\n    z = other()\n    return 1\n"),
])
def test_a_removed_function_is_gone_not_renamed(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI, new: str) -> None:
    old = CORE.replace("def helper():\n    return 1\n",
                       "def helper():\n    x = compute()\n    y = x + 1\n    return 1\n")
    repo, _, _ = moved("By name [[core.py::helper]].\n", {"src/widgets/core.py": new},
                       {"src/widgets/core.py": old, "src/widgets/checkpoint.py": CHECKPOINT})
    run = repin(cli, repo, "--dry-run")
    assert "gone: src/widgets/core.py · helper: helper is no longer defined" in run.out
    assert "renamed" not in run.out


CLAIM = """\
```claim
says: every function returns
count: 2
pattern: return $X
in: src/widgets/core.py
```
"""


def test_a_claim_whose_count_changes_is_changed(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    repo, _, _ = moved(CLAIM, {"src/widgets/core.py": CORE + "\n\ndef more():\n    return 3\n"})
    run = repin(cli, repo)
    assert run.code == 1
    assert ("changed: claim 'every function returns': counted at the new head only: "
            "src/widgets/core.py:21; it held at the old head (2 counted) "
            "and does not at the new: counted 3, not 2: src/widgets/core.py:13, "
            "src/widgets/core.py:17, src/widgets/core.py:21\n"
            "    was: holds, 2 counted\n"
            "    now: does not hold: counted 3, not 2: src/widgets/core.py:13, ") in run.out


def test_a_claim_in_a_list_is_counted_without_its_indentation(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """A claim in a list's item: its lines stand indented; read as the build reads them (it
    was read with its indentation, so found no pattern, and said 'same' of a claim that no
    longer held)."""
    listed = "- The claim:\n\n" + "".join(f"  {line}\n" for line in CLAIM.splitlines())
    repo, _, _ = moved(listed, {"src/widgets/core.py": CORE + "\n\ndef more():\n    return 3\n"})
    run = repin(cli, repo)
    assert run.code == 1
    assert ("changed: claim 'every function returns': counted at the new head only: "
            "src/widgets/core.py:21; it held at the old head (2 counted) "
            "and does not at the new: counted 3, not 2") in run.out


def test_a_claim_whose_count_changes_says_which_matches_came_and_went(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """fmt's format-test.cc holds 139 tests, and the PR added one: repin listed the first
    ten of the 140 it counted, and the author had to find the new one by hand. What one
    head counts and the other does not is said first, by each match's line of code
    (wherever it moved: lines added above every match move none of them apart; of lines
    alike, as many as came)."""
    core = "def first():\n    return 1\n\n\ndef gone():\n    return 2\n"
    new = ("import os\n\n\ndef first():\n    return 1\n\n\ndef fresh():\n    return 5\n\n\n"
           "def later():\n    return 1\n")  # a line alike: one of the two is new
    repo, _, _ = moved(CLAIM.replace("count: 2", "count: 2\nwhere: return"),
                       {"src/widgets/core.py": new}, {"src/widgets/core.py": core})
    out = repinned_keeping_the_page(cli, repo, project)
    assert ("changed: claim 'every function returns': counted at the new head only: "
            "src/widgets/core.py:9, src/widgets/core.py:13; counted at the old head only: "
            "src/widgets/core.py:6; it held at the old head (2 counted) and does not at the new: "
            "counted 3, not 2: ") in out, out


def test_a_claim_that_still_holds_but_counts_otherwise_says_so(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """Its conclusion holds; the number a page may quote has changed: for the author to
    read again (exit 1), told which of the two it is."""
    claim = CLAIM.replace("count: 2\n", "count: all\nwhere: return\n")
    repo, _, _ = moved(claim, {"src/widgets/core.py": CORE + "\n\ndef more():\n    return 3\n"})
    run = repin(cli, repo)
    assert run.code == 1
    assert ("changed: claim 'every function returns': counted at the new head only: "
            "src/widgets/core.py:21; it holds at both heads, but counts "
            "otherwise: 2 counted, now 3 counted\n"
            "    was: holds, 2 counted\n    now: holds, 3 counted\n") in run.out


def test_a_claim_that_counts_the_same_is_same(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    repo, _, _ = moved(CLAIM, {"src/widgets/core.py": "# a comment\n" + CORE})
    run = repin(cli, repo)
    assert run.code == 0, run.out
    assert "1 claim: 1 same" in run.out


def _merged_main(tmp_path: Path, main: dict[str, str]) -> tuple[Path, str, str, str]:
    """A repository whose PR (base, then one commit) then merged its base branch, where
    `main` was committed meanwhile: the base, the PR's first head, and main's commit; the
    PR's ref points at the merge."""
    repo = tmp_path / "code"
    base = commit(repo, {"src/widgets/core.py": CORE, "src/widgets/checkpoint.py": CHECKPOINT},
                  "base")
    git(repo, "checkout", "-q", "-b", "feature")
    head = commit(repo, {"src/widgets/core.py": CORE.replace("return 1", "return 2")}, "the PR")
    git(repo, "checkout", "-q", "main")
    on_main = commit(repo, main, "meanwhile, on main")
    git(repo, "checkout", "-q", "feature")
    git(repo, "merge", "-q", "--no-edit", "main")
    git(repo, "update-ref", "refs/pull/12/head", git(repo, "rev-parse", "HEAD"))
    return repo, base, head, on_main


def _merged_at_base(project: Project, tmp_path: Path, above: str,
                    body: str) -> tuple[Path, str, str]:
    """The page `body`, pinned to the PR's first head with its base, where main then renamed
    `user.name` (with `above` over the file) and the PR merged main: the repository, the
    base and main's commit."""
    main = above + CORE.replace("name = user.name", "name = user.full_name")
    repo, base, head, on_main = _merged_main(tmp_path, {"src/widgets/core.py": main})
    project.write("content/acme/widgets/12/pr.yml",
                  PR_YML.format(head=head).replace("state: open", f"state: open\nbase: {base[:7]}"))
    project.write("content/acme/widgets/12/cache-bug.md", PAGE.split("\n\n", 1)[0] + "\n\n" + body)
    return repo, base, on_main


def assert_own_change_shown(project: Project, cli: CLI, repo: Path) -> None:
    """The page builds, and its pr-diff of core.py shows the PR's change (`return 2`), not
    main's (`full_name`, `import os`)."""
    assert cli("build", "--no-search", "--checkout", f"acme/widgets={repo}").code == 0
    html = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    diff = re.sub(r"<[^>]*>", "", html[html.index("own change"):])
    assert "return 2" in diff and "full_name" not in diff and "import os" not in diff


def test_a_head_that_merged_its_base_branch_moves_the_base_with_it(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """The PR merged main: the code host's diff of it now starts from main's commit. Before,
    repin kept the old base, and the page's pr-diff showed main's edit as the PR's own
    change; now the base moves to the commit merged in, and each reference pinned @base is
    placed there as a head's are (moved and rewritten, or changed and quoted)."""
    repo, base, on_main = _merged_at_base(
        project, tmp_path, "import os\n\n", "Before the PR: [[core.py:17@base]] and "
        "[[core.py:12@base|the name]].\n\n```pr-diff\n[[core.py]]\n```\n")
    run = repin(cli, repo)
    assert run.code == 1, run.out  # a reference @base changed
    assert (f"pr.yml:6: base {base[:7]} → {on_main[:7]}: the new head merges 1 commit of the "
            "base branch (in ") in run.out, run.out
    assert "where the PR's own change now starts; 2 references @base: 1 moved (rewritten), " \
           "1 changed" in run.out
    assert "changed: src/widgets/core.py L12@base: the cited lines were edited: L12 at the old " \
           "base, L14 at the new" in run.out
    assert "now points at L14, where they stand, and quotes its old text" in run.out
    assert "the build stops at it until you rewrite it for the new base" in run.out
    assert f"base: {on_main}\n" in (project.root / "content/acme/widgets/12/pr.yml").read_text()
    text = page_text(project)
    assert ('Before the PR: [[core.py:19@base]] and [[core.py:14@base "name = user.name"|the name]].'
            ) in text
    built = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 1 and built.err.count("\n") == 2, built.err  # the quote, and the summary
    assert '"name = user.name" of \'[[core.py:14@base "name = user.name"|the name]]\'' in built.err
    project.write("content/acme/widgets/12/cache-bug.md",
                  text.replace("14@base \"name = user.name\"", "14@base"))
    assert_own_change_shown(project, cli, repo)


def test_a_claim_at_the_base_is_counted_again_where_the_base_moved(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """The PR merged main, and repin moved its base there: a claim counted `at: base` was
    left out of the report (only references @base were placed), though the build would
    count it at the new base, where main's edit made it false."""
    repo, base, on_main = _merged_at_base(
        project, tmp_path, "", "```claim\nsays: the base names the user\ncount: 1\n"
        "text: user.name\nin: src/widgets/core.py\nat: base\n```\n")
    run = repin(cli, repo)
    assert f"base {base[:7]} → {on_main[:7]}" in run.out, run.out
    assert ("changed: claim 'the base names the user': counted at the old base only: "
            "src/widgets/core.py:12; it held at the old base (1 counted) and "
            "does not at the new: counted 0, not 1") in run.out, run.out
    assert run.code == 1


def test_a_claim_that_holds_at_neither_head_is_not_said_to_hold(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """A claim false at the pinned head and, counting otherwise, at the new one: the report
    said "at the new it holds"."""
    repo, _, _ = moved("```claim\nsays: x\ncount: 5\ntext: return\nin: src/widgets/core.py\n```\n",
                       {"src/widgets/core.py": CORE + "\ndef more():\n    return 3\n"})
    out = repinned_keeping_the_page(cli, repo, project)
    assert ("changed: claim 'x': counted at the new head only: src/widgets/core.py:20; it "
            "holds at neither head: counted 2, not 5: ") in out, out
    assert "; now counted 3, not 5: " in out


def test_the_notice_counts_the_commits_made_on_top_of_the_pinned_head(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """The PR merged main, which had one commit: the PR is one commit later (the merge), as
    the code host counts its commits; before, main's commit counted too."""
    repo, _, head, _ = _merged_main(tmp_path, {"README.md": "Widgets.\n"})
    project.write("content/acme/widgets/12/pr.yml", PR_YML.format(head=head))
    project.write("content/acme/widgets/12/cache-bug.md", PAGE)
    built = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0, built.err
    html = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    assert "1 commit later." in html, html


def _rebased(tmp_path: Path, how: str = "") -> tuple[Path, str, str, str]:
    """A PR of two commits on its base, then rebased onto main's newer commit (where its
    first commit meets main's edit: the patch changes), with a new commit of its own on
    top (`how`: "squash", its two commits made one in the rebase, keeping the first one's
    author, time and subject, as git's squash does; "drop first", only its second kept):
    the base, the PR's first head, main's commit; the PR's ref points at the new head."""
    repo = tmp_path / "code"
    base = commit(repo, {"src/widgets/core.py": CORE, "src/widgets/checkpoint.py": CHECKPOINT},
                  "base")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {"src/widgets/core.py": CORE.replace("return 1", "return 2")}, "the PR, 1")
    head = commit(repo, {"src/widgets/checkpoint.py": CHECKPOINT + "# saved\n"}, "the PR, 2")
    git(repo, "checkout", "-q", "main")
    on_main = commit(repo, {"src/widgets/core.py": "import os\n\n" + CORE.replace(
        "name = user.name", "name = user.full_name").replace(
        "\n\n\ndef helper", "\n# between\n\ndef helper")}, "meanwhile, on main")
    git(repo, "checkout", "-q", "feature")
    git(repo, "rebase", "-q", "main")
    assert "# between" in git(repo, "show", "HEAD~1")  # the first commit's patch changed
    if how == "squash":
        git(repo, "reset", "-q", "--soft", "HEAD~2")
        git(repo, "commit", "-q", "-m", "the PR, 1")
    elif how == "drop first":
        second = git(repo, "rev-parse", "HEAD")
        git(repo, "reset", "-q", "--hard", "HEAD~2")
        git(repo, "cherry-pick", second)
    commit(repo, {"src/widgets/checkpoint.py": CHECKPOINT + "# saved\n# twice\n"}, "the PR, 3")
    git(repo, "update-ref", "refs/pull/12/head", git(repo, "rev-parse", "HEAD"))
    return repo, base, head, on_main


def test_a_pr_rebased_onto_its_base_branch_moves_the_base_with_it(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """A force-push after `git rebase main`: the PR's two commits stand again, by their
    patches, on main's newer commit, a third on top; the code host's diff of the PR starts
    there. Before, the base stayed, and a pr-diff showed main's edit as the PR's own."""
    repo, base, head, on_main = _rebased(tmp_path)
    project.write("content/acme/widgets/12/pr.yml",
                  PR_YML.format(head=head).replace("state: open", f"state: open\nbase: {base}"))
    project.write("content/acme/widgets/12/cache-bug.md", PAGE.split("\n\n", 1)[0] + "\n\n"
                  "Before the PR: [[core.py:17@base]].\n\n```pr-diff\n[[core.py]]\n```\n")
    run = repin(cli, repo)
    assert run.code == 0, run.out
    assert (f"pr.yml:6: base {base[:7]} → {on_main[:7]}: the PR was rebased 1 commit further "
            f"along the base branch (its 2 commits now on {on_main[:7]}), where the PR's own change "
            "now starts; 1 reference @base: 1 moved (rewritten)") in run.out, run.out
    assert "Before the PR: [[core.py:19@base]]." in page_text(project)
    assert_own_change_shown(project, cli, repo)


def test_a_rebase_that_squashed_the_prs_commits_moves_the_base_too(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """The PR's two commits squashed into one in the rebase (it keeps the first one's
    author, time and subject): its first commit is found, so where the PR now starts is.
    Before, the base stayed unless every commit was found."""
    repo, base, head, on_main = _rebased(tmp_path, "squash")
    project.write("content/acme/widgets/12/pr.yml",
                  PR_YML.format(head=head).replace("state: open", f"state: open\nbase: {base}"))
    project.write("content/acme/widgets/12/cache-bug.md", PAGE.split("\n\n", 1)[0] + "\n\n"
                  "```pr-diff\n[[core.py]]\n```\n")
    run = repin(cli, repo)
    assert (f"pr.yml:6: base {base[:7]} → {on_main[:7]}: the PR was rebased 1 commit further "
            f"along the base branch (its 2 commits, squashed or dropped to 1, now on "
            f"{on_main[:7]})") in run.out, run.out
    assert_own_change_shown(project, cli, repo)


def test_a_rebase_without_the_prs_first_commit_leaves_the_base(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """The PR's first commit dropped in the rebase: where the PR begins is not certain, so
    the base stays (set it by hand)."""
    repo, base, head, _ = _rebased(tmp_path, "drop first")
    project.write("content/acme/widgets/12/pr.yml",
                  PR_YML.format(head=head).replace("state: open", f"state: open\nbase: {base}"))
    project.write("content/acme/widgets/12/cache-bug.md", PAGE)
    run = repin(cli, repo)
    assert "base" not in run.out, run.out
    assert f"base: {base}\n" in (project.root / "content/acme/widgets/12/pr.yml").read_text()


@pytest.mark.parametrize("how", ["no base", "a branch of the PR"])
def test_the_base_stays_without_a_merge_of_the_base_branch(
        project: Project, cli: CLI, tmp_path: Path, how: str) -> None:
    """A PR without a base says nothing of one; a merge of a branch made from the PR's own
    commits (a colleague's) brings in no base commits: the base stays."""
    repo, base, head, _ = _merged_main(tmp_path, {"README.md": "Widgets.\n"})
    if how == "a branch of the PR":
        git(repo, "checkout", "-q", "-b", "colleague", head)
        commit(repo, {"src/widgets/checkpoint.py": CHECKPOINT + "# more\n"}, "colleague")
        git(repo, "checkout", "-q", "-b", "feature2", head)
        git(repo, "merge", "-q", "--no-edit", "colleague")
        git(repo, "update-ref", "refs/pull/12/head", git(repo, "rev-parse", "HEAD"))
    pr_yml = PR_YML.format(head=head)
    if how != "no base":
        pr_yml = pr_yml.replace("state: open", f"state: open\nbase: {base}")
    project.write("content/acme/widgets/12/pr.yml", pr_yml)
    project.write("content/acme/widgets/12/cache-bug.md", PAGE)
    run = repin(cli, repo)
    assert run.code == 0, run.out
    assert "base" not in run.out
    assert (f"base: {base}\n" in (project.root / "content/acme/widgets/12/pr.yml").read_text()) \
        == (how != "no base")


def test_a_force_push_to_an_unrelated_history_is_checked_by_content(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    repo = tmp_path / "code"
    old, _ = repository(repo, {"src/widgets/core.py": CORE, "src/widgets/checkpoint.py": CHECKPOINT},
                        {})
    # an unrelated history: the same file with a line edited, two lines inserted above
    git(repo, "checkout", "-q", "--orphan", "rewritten")
    git(repo, "rm", "-q", "--cached", "src/widgets/checkpoint.py")
    (repo / "src/widgets/checkpoint.py").unlink()
    (repo / "src/widgets/core.py").write_text("# new\n# history\n" + CORE.replace(
        "return hash(name)", "return hash(name, 1)"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "rewritten")
    new = git(repo, "rev-parse", "HEAD")
    git(repo, "update-ref", "refs/pull/12/head", new)
    project.write("content/acme/widgets/12/pr.yml", PR_YML.format(head=old))
    project.write("content/acme/widgets/12/cache-bug.md",
                  PAGE.split("\n\n", 1)[0] + "\n\nNamed [[core.py:12]], hashed [[core.py:13]], "
                  "saved [[checkpoint.py:1]].\n")
    run = repin(cli, repo, "--dry-run")
    assert run.code == 1
    assert "moved: src/widgets/core.py L12 now at L14" in run.out
    assert "changed: src/widgets/core.py L13" in run.out
    assert "gone: src/widgets/checkpoint.py L1" in run.out  # not in the new history at all


def test_dry_run_writes_nothing(moved: Callable[..., tuple[Path, str, str]], project: Project,
                                cli: CLI) -> None:
    repo, _, _ = moved("Named in [[core.py:12]].\n",
                       {"src/widgets/core.py": "import os\n" + CORE})
    content = {p: p.read_bytes() for p in (project.root / "content").rglob("*") if p.is_file()}
    run = repin(cli, repo, "--dry-run")
    assert run.code == 0 and "1 reference: 1 moved" in run.out
    assert "Dry run: nothing written." in run.out
    assert {p: p.read_bytes() for p in (project.root / "content").rglob("*") if p.is_file()} == content


def test_base_and_sha_pinned_references_are_left_as_they_are(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    repo, old, _ = moved("Now [[core.py:12]], then [[core.py:12@{old}]].\n",
                         {"src/widgets/core.py": "import os\n" + CORE})
    text = page_text(project).replace("{old}", old[:12])
    (project.root / "content/acme/widgets/12/cache-bug.md").write_text(text)
    run = repin(cli, repo)
    assert run.code == 0, run.out
    assert f"[[core.py:12@{old[:12]}]]" in page_text(project)
    assert "[[core.py:13]]" in page_text(project)
    assert "1 reference: 1 moved" in run.out


def test_references_in_code_blocks_are_not_items(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """Nor in code spans or an indented block, which the build does not read as references
    either: before, repin rewrote (and now would have quoted) `[[core.py:12]]` written to
    show the syntax. A reference wrapped in a block quote is one (its marks are not)."""
    repo, _, _ = moved("```python\nx = [[core.py:12]]\n```\n\nSee [[core.py:12]]; write "
                       "`[[core.py:12]]` or ``[[core.py:12]] `x` `` to cite it:\n\n"
                       "    as in [[core.py:12]]\n\n> Quoted, [[core.py\n> L12]].\n",
                       {"src/widgets/core.py": "import os\n" + CORE})
    run = repin(cli, repo)
    assert "2 references: 2 moved" in run.out
    assert "x = [[core.py:12]]" in page_text(project)
    assert "    as in [[core.py:12]]\n\n> Quoted, [[core.py\n> L13]].\n" in page_text(project)
    assert "See [[core.py:13]]; write `[[core.py:12]]` or ``[[core.py:12]] `x` `` to" \
        in page_text(project)


def test_a_page_of_a_pr_that_moved_says_so_and_check_drift_fails(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    repo, old, new = moved("Named in [[core.py:12]], returns [[core.py:17]], kept [[core.py:1]].\n",
                           {"src/widgets/core.py": "import os\n" + CORE.replace(
                               "return 1", "return 2")})
    built = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0, built.err
    assert f"acme/widgets#12 has moved on: written for {old[:7]}, the PR is now at {new[:7]}" \
        in built.err
    html = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    notice = re.search(r'<p class="code-check drift".*?</p>', html, re.S)
    assert notice is not None
    text = re.sub(r"<[^>]+>", "", notice[0])
    assert f"Written for {old[:7]}. The PR is now at {new[:7]}, 1 commit later. Of its 3 " \
           "references: 2 moved, 1 changed. What moved." == " ".join(text.split()).lstrip("↻ ")
    assert 'href="../#drift"' in notice[0]
    landing = (project.site / "acme/widgets/12/index.html").read_text()
    assert 'id="drift"' in landing and "the cited lines were edited" in landing
    # both texts without the indentation they share, each right after its label, the
    # lines that changed marked as a diff marks them
    assert ('<pre class="drift-was"><span class="drift-label">was</span>'
            '<span class="drift-edited">return 1</span></pre>\n'
            '<pre class="drift-now"><span class="drift-label">now</span>'
            '<span class="drift-edited">return 2</span></pre>') in landing
    drift = cli("check", "--drift", "--checkout", f"acme/widgets={repo}")
    assert drift.code == 1
    assert "changed: src/widgets/core.py L17" in drift.err
    assert "run 'site-gen repin acme/widgets#12'" in drift.err
    plain = cli("check", "--checkout", f"acme/widgets={repo}")
    assert plain.code == 0, plain.err  # a notice, not a failure


def test_the_pr_page_marks_the_lines_that_changed_among_those_cited(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """Of three cited lines one was edited: the PR page shows all three on each side and
    marks that one, as a diff does (before, the reader had to find it)."""
    repo, _, _ = moved("The key: [[core.py:11-13]].\n",
                       {"src/widgets/core.py": CORE.replace("user.name", "user.full_name")})
    built = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0, built.err
    landing = (project.site / "acme/widgets/12/index.html").read_text()
    assert ('<span class="drift-label">was</span>def make_key(user):\n'
            '<span class="drift-edited">    name = user.name</span>\n    return hash(name)</pre>'
            ) in landing
    assert ('<span class="drift-label">now</span>def make_key(user):\n'
            '<span class="drift-edited">    name = user.full_name</span>\n    return hash(name)</pre>'
            ) in landing


def test_no_notice_while_the_pr_is_where_the_pages_pin_it(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    repo, old, _ = moved("Named in [[core.py:12]].\n", {"src/widgets/core.py": "x = 1\n" + CORE})
    git(repo, "update-ref", "refs/pull/12/head", old)
    built = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0 and "moved on" not in built.err
    html = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    assert "code-check drift" not in html
    assert cli("check", "--drift", "--checkout", f"acme/widgets={repo}").code == 0


def test_a_rebuild_sees_the_pr_move_to_a_commit_the_code_already_holds(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """The PR's ref moving is a change to what a build reads, even when no object comes
    with it (a force-push back to a head fetched before): the next build says so, and says
    nothing once the ref is back, without a page edited in between."""
    repo, old, new = moved("Named in [[core.py:12]].\n", {"src/widgets/core.py": "x = 1\n" + CORE})
    at = ("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    git(repo, "update-ref", "refs/pull/12/head", old)
    assert "moved on" not in cli(*at).err
    page = project.site / "acme/widgets/12/cache-bug/index.html"
    for head, notice in ((new, True), (old, False), (new, True)):
        git(repo, "update-ref", "refs/pull/12/head", head)
        built = cli(*at)
        assert built.code == 0, built.err
        assert ("has moved on" in built.err) is notice
        assert ("code-check drift" in page.read_text()) is notice


def test_fetch_records_the_current_head_and_repin_fetches_it(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    repo, old, new = moved("Named in [[core.py:12]].\n",
                           {"src/widgets/core.py": "import os\n" + CORE})
    mkdocs = project.root / "mkdocs.yml"
    mkdocs.write_text(mkdocs.read_text() + f"site_gen:\n  sources:\n    acme/widgets: {repo.as_uri()}\n")
    fetched = cli("fetch")
    assert fetched.code == 0, fetched.err
    assert "the current head of 1 PR(s)" in fetched.out
    built = cli("build", "--no-search")
    assert "has moved on" in built.err
    run = cli("repin", "acme/widgets#12")
    assert run.code == 0, run.out + run.err
    assert f"{old[:7]} → {new[:7]}" in run.out
    assert "[[core.py:13]]" in page_text(project)
    again = cli("build", "--strict", "--no-search")
    assert again.code == 0 and "moved on" not in again.err


def test_a_pr_head_fetched_before_as_a_pin_is_fetched_with_its_history(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """The click trial: the PR's new head was in the cache already, fetched alone (a pin of
    the page repinned to it, then put back; an `@sha` reference does the same), so the
    commits before it were not there, and every page said the PR was 'on another history
    (force-pushed)', where it was a commit later. `fetch` brings its history with it (and
    not that of a head the pages pin, which needs none)."""
    repo, old, new = moved("Named in [[core.py:12]], later [[core.py:13@{new}]].\n",
                           {"src/widgets/core.py": "import os\n" + CORE})
    page = project.root / "content/acme/widgets/12/cache-bug.md"
    page.write_text(page.read_text().replace("{new}", new))
    mkdocs = project.root / "mkdocs.yml"
    mkdocs.write_text(mkdocs.read_text() + f"site_gen:\n  sources:\n    acme/widgets: {repo.as_uri()}\n")
    git(repo, "update-ref", "refs/pull/12/head", old)
    assert cli("fetch").code == 0  # both pins, each alone (the PR's head is the pinned one)
    # a head the pages pin needs no history: not fetched again (a CI run's every fetch)
    shallow = next((project.root / ".cache").rglob("shallow")).read_text().split()
    assert old in shallow and new in shallow
    git(repo, "update-ref", "refs/pull/12/head", new)
    assert cli("fetch").code == 0
    built = cli("build", "--no-search")
    assert f"written for {old[:7]}, the PR is now at {new[:7]}" in built.err, built.err
    html = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    assert "1 commit later" in html and "force-pushed" not in html


def test_repin_to_a_short_sha_a_local_source_has_but_no_pull_ref_names(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """A clone on this machine (a local `sources:` entry) tells a short SHA itself, as
    `site-gen fetch` reads it; before, repin asked for a pull ref and said 'no pull ref'."""
    repo, old, new = moved("Named in [[core.py:12]].\n",
                           {"src/widgets/core.py": "import os\n" + CORE})
    git(repo, "update-ref", "-d", "refs/pull/12/head")
    mkdocs = project.root / "mkdocs.yml"
    mkdocs.write_text(mkdocs.read_text() + f"site_gen:\n  sources:\n    acme/widgets: {repo.as_uri()}\n")
    assert cli("fetch").code == 0
    run = cli("repin", "acme/widgets#12", "--head", new[:7])
    assert run.code == 0, run.out + run.err
    assert f"{old[:7]} → {new[:7]}" in run.out and "[[core.py:13]]" in page_text(project)
    missing = cli("repin", "acme/widgets#12", "--head", "abcdef0")
    assert (missing.code, missing.err) == (1, (
        "commit abcdef0 of acme/widgets could not be fetched: no commit there has that SHA\n"))


def test_repin_to_a_revision_of_the_clone_pins_the_commit_it_names(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """`--head main` (a branch the PR's author pushes to, a tag) is the commit it names in
    the clone now, written as its SHA; a name the clone does not have, an error naming it."""
    repo, _, new = moved("Named in [[core.py:12]].\n", {"src/widgets/core.py": "import os\n" + CORE})
    run = repin(cli, repo, "--head", "main")
    assert run.code == 0, run.out + run.err
    assert f"head: {new}\n" in (project.root / "content/acme/widgets/12/pr.yml").read_text()
    assert "[[core.py:13]]" in page_text(project)
    assert repin(cli, repo, "--head", "no-such-branch").err == (
        f"--head 'no-such-branch' names no commit of {repo}; expected 7 to 40 hex digits, or a "
        "revision of it such as main~1\n")


def test_repin_to_a_revision_reads_it_in_the_local_source_the_code_is_fetched_from(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """With the code fetched from a clone on this machine (a `sources:` entry), `--head
    main` is read in that clone, as `new` reads it: the fetched commits hold no branch, and
    repin said 'main' named no commit of the cache."""
    repo, _, new = moved("Named in [[core.py:12]].\n", {"src/widgets/core.py": "import os\n" + CORE})
    git(repo, "update-ref", "-d", "refs/pull/12/head")
    mkdocs = project.root / "mkdocs.yml"
    mkdocs.write_text(mkdocs.read_text() + f"site_gen:\n  sources:\n    acme/widgets: {repo.as_uri()}\n")
    assert cli("fetch").code == 0
    run = cli("repin", "acme/widgets#12", "--head", "main")
    assert run.code == 0, run.out + run.err
    assert f"head: {new}\n" in (project.root / "content/acme/widgets/12/pr.yml").read_text()
    assert "[[core.py:13]]" in page_text(project)
    assert cli("build", "--strict", "--no-search").code == 0
    # fetched from a host, the code here holds no branch to read it in
    mkdocs.write_text(mkdocs.read_text().replace(repo.as_uri(), "https://git.example/w.git"))
    assert cli("repin", "acme/widgets#12", "--head", "main").err == (
        "--head 'main' is not a commit SHA, and no clone is here to read it in (--checkout, or "
        "site_gen.sources); expected 7 to 40 hex digits\n")


def test_excerpts_callouts_and_flow_sources_move_with_their_lines(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    body = ("```excerpt\n[[core.py:11-13]]\nhighlight: 12-13\n```\n\n"
            "::: review blocking [[core.py:12]]\nThe name alone collides.\n:::\n\n"
            "```flow\ntitle: Two users\nlane a: Ana\nlane b: Bo\nstep: both log in\n"
            "outcome a: wrong: same key\noutcome b: wrong: same key\n"
            "source: [[core.py:13]] hash(name)\n```\n")
    repo, _, _ = moved(body, {"src/widgets/core.py": "import os\nimport sys\nimport re\n" + CORE})
    run = repin(cli, repo)
    assert run.code == 0, run.out
    text = page_text(project)
    assert "[[core.py:14-16]]\nhighlight: 15-16\n" in text
    assert "::: review blocking [[core.py:15]]\n" in text
    assert "source: [[core.py:16]] hash(name)\n" in text
    built = cli("build", "--strict", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0, built.err


def _reviewed_then_main_moved(tmp_path: Path) -> tuple[Path, str]:
    """A repository whose PR branch made one commit (its SHA returned), after which the
    base branch (checked out) got one of its own."""
    repo = tmp_path / "code"
    commit(repo, {"src/widgets/core.py": CORE, "src/widgets/checkpoint.py": CHECKPOINT}, "base")
    git(repo, "checkout", "-q", "-b", "feature")
    reviewed = commit(repo, {"src/widgets/core.py": CORE.replace("return 1", "return 2")},
                      "the PR")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"README.md": "Widgets.\n"}, "meanwhile, on main")
    return repo, reviewed


def _built_at(project: Project, cli: CLI, repo: Path, head: str, state: str) -> tuple[Run, str]:
    """The build of the page pinned at `head` of a PR in `state` (its pull ref set), and
    the page's HTML."""
    project.write("content/acme/widgets/12/pr.yml",
                  PR_YML.format(head=head).replace("state: open", f"state: {state}"))
    project.write("content/acme/widgets/12/cache-bug.md", PAGE)
    built = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0, built.err
    return built, (project.site / "acme/widgets/12/cache-bug/index.html").read_text()


@pytest.mark.parametrize("state", ["merged", "open"])
def test_a_merged_pr_pinned_at_the_commit_it_was_merged_as_has_not_moved_on(
        project: Project, cli: CLI, tmp_path: Path, state: str) -> None:
    """A squash merge makes the PR one new commit on the base branch, on another history
    than the PR's own head. Pages of the merged PR pinned there pin what the base branch
    holds of it, not a head the PR left behind: no notice, `check --drift` passes. An
    open PR whose head is on another history was force-pushed: the notice says so."""
    repo, branch_head = _reviewed_then_main_moved(tmp_path)
    squashed = commit(repo, {"src/widgets/core.py": CORE.replace("return 1", "return 2")},
                      "the PR, squashed (#12)")
    git(repo, "update-ref", "refs/pull/12/head", branch_head)
    built, html = _built_at(project, cli, repo, squashed, state)
    drift = cli("check", "--drift", "--checkout", f"acme/widgets={repo}")
    assert drift.code == 0, drift.err
    if state == "merged":
        assert "has moved on" not in built.err and "drift-notice" not in html
    else:
        assert f"acme/widgets#12 has moved on: written for {squashed[:7]}, the PR is now at " \
               f"{branch_head[:7]}; 2 references: 2 same" in built.err
        assert f"The PR is now at <code>{branch_head[:7]}</code>, on another history " \
               "(force-pushed)" in html


def test_a_merged_pr_whose_pages_pin_a_head_it_later_rebased_away_has_moved_on(
        project: Project, cli: CLI, tmp_path: Path) -> None:
    """The other way a merged PR's head can be on another history than its pages' commit:
    they were written during the review, and the PR was rebased before it was merged. The
    head they pin was made before the PR's last one (by the commits' own dates): the
    notice says the PR moved on."""
    repo, written_for = _reviewed_then_main_moved(tmp_path)
    git(repo, "checkout", "-q", "-b", "rebased")
    (repo / "src/widgets/core.py").write_text(CORE.replace("return 1", "return 3"))
    git(repo, "add", "-A")
    later = {"GIT_AUTHOR_DATE": "2026-01-02T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-02T00:00:00Z"}
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", "the PR, rebased and edited"],
                   check=True, env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                                    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
                                    "PATH": "/usr/bin:/bin", **later})
    last = git(repo, "rev-parse", "HEAD")
    git(repo, "update-ref", "refs/pull/12/head", last)
    built, html = _built_at(project, cli, repo, written_for, "merged")
    assert f"acme/widgets#12 has moved on: written for {written_for[:7]}, the PR is now at " \
           f"{last[:7]}" in built.err
    assert "drift-notice" in html


def test_a_moved_pr_s_claims_are_counted_once_at_each_head(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The sqlalchemy trial: a PR that moved on is measured at both heads on every build,
    and a claim over the whole tree (3,309 matches) was counted again at each on every
    save of any of its pages (3.3 s a build, 0.3 s now): what builds before counted at a
    commit is kept for the drift as it is for the page's own count."""
    from site_gen.blocks import claim as claims

    repo, _, _ = moved("```claim\nsays: x\ncount: 1\npattern: hash($N)\n```\n",
                       {"src/widgets/core.py": "import os\n" + CORE})
    counted: list[str] = []
    real = claims._matches_in
    monkeypatch.setattr(claims, "_matches_in",
                        lambda ctx, claim, commit, path: counted.append(commit) or real(
                            ctx, claim, commit, path))
    built = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0 and "1 claim: 1 same" in built.err, built.err
    assert len(set(counted)) == 2  # at the pinned head and the new one
    counted.clear()
    page = project.root / "content/acme/widgets/12/cache-bug.md"
    page.write_text(page.read_text() + "\nMore words.\n")
    built = cli("build", "--no-search", "--checkout", f"acme/widgets={repo}")
    assert built.code == 0 and "1 claim: 1 same" in built.err, built.err
    assert counted == []


def test_a_claim_counted_in_a_renamed_definition_says_where_its_lines_are(
        moved: Callable[..., tuple[Path, str, str]], project: Project, cli: CLI) -> None:
    """The sqlalchemy trial: the PR renamed the function a claim's `in:` names, and repin
    said the name is unknown, its nearest names listed third among others; it now says
    where the lines are, as it says of a reference to a renamed definition."""
    repo, _, _ = moved("```claim\nsays: x\ncount: 1\ntext: hash(\nin: core.py::make_key\n```\n",
                       {"src/widgets/core.py": CORE.replace("make_key", "user_key")})
    out = repinned_keeping_the_page(cli, repo, project)
    assert ("; make_key is no longer defined in src/widgets/core.py: its lines are in "
            "user_key (L11-L13) (renamed?)") in out, out
