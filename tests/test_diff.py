"""Proposed diffs: parsing, numbering, highlighting, intra-line marks, elisions, errors."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from markdown_it.utils import read_fixture_file

from site_gen.blocks.proposal import _changed, parse_proposal
from site_gen.config import default_config
from site_gen.context import PageContext
from site_gen.highlight import highlight_code, lexing_for, respaced, shared_indent

from .blockutil import render, rendered_at
from .conftest import Project, Run, commit, git

CLI = Callable[..., Run]

FIXTURES = Path(__file__).parent / "fixtures"

HUNKS = """\
```proposal
title: Remove the tag
status: proposed
lands: RL only. Nothing below is implemented.

file: checkpoint.py L489 · begin_finalization._finalize
@@ -488,3 +488,3 @@
             try:
-                with telemetry(carrier, step, async_save=wait_fn is not None):
+                with telemetry(carrier, step):
                     wait_fn()
@@ -500,1 +500,2 @@
 x = 1
+y = 2

file: spans.md
 a = 1
...
-z = 3
```
"""


def parse(text: str) -> tuple[object, list[str]]:
    ctx = PageContext(default_config())
    lines = text.split("\n")[1:-2]
    model = parse_proposal(ctx, lines, 2)
    return model, [f"{e.line}: {e.message}" for e in ctx.problems.errors]


def test_parser_reads_header_hunks_sections_and_positions() -> None:
    proposal, errors = parse(HUNKS)
    assert errors == []
    assert proposal.title == "Remove the tag"  # type: ignore[attr-defined]
    assert proposal.status.key == "proposed"  # type: ignore[attr-defined]
    assert proposal.lands == "RL only. Nothing below is implemented."  # type: ignore[attr-defined]
    hunk, other = proposal.hunks  # type: ignore[attr-defined]
    assert (hunk.path, hunk.ranges, hunk.symbol, hunk.line) == (
        "checkpoint.py", [(489, 489)], "begin_finalization._finalize", 6)
    first, second = hunk.sections
    assert (first.old_start, first.old_count, first.new_start, first.new_count) == (488, 3, 488, 3)
    assert [(dl.kind, dl.old, dl.new) for dl in first.lines] == [
        (" ", 488, 488), ("-", 489, None), ("+", None, 489), (" ", 490, 490)]
    assert [(dl.kind, dl.old, dl.new) for dl in second.lines] == [
        (" ", 500, 500), ("+", None, 501)]
    assert (other.path, other.ranges, other.symbol) == ("spans.md", [], None)
    assert [(dl.kind, dl.text, dl.old) for dl in other.sections[0].lines] == [
        (" ", "a = 1", None), ("…", "", None), ("-", "z = 3", None)]


def test_header_with_several_ranges() -> None:
    proposal, errors = parse("```proposal\nfile: a/b.py L57-L59 and L77 · f\n-x\n```\n")
    assert errors == []
    assert proposal.hunks[0].ranges == [(57, 59), (77, 77)]  # type: ignore[attr-defined]


def test_rendered_numbers_signs_and_elisions() -> None:
    html, errors, _ = render(HUNKS)
    assert errors == []
    rows = re.findall(r'<tr class="diff-(\w+)">\n?<td class="diff-ln"(?: data-ln="(\d+)")?></td>\n'
                      r'<td class="diff-ln"(?: data-ln="(\d+)")?(?: data-either="\d+")?></td>', html)
    assert rows == [("ctx", "488", "488"), ("del", "489", ""), ("add", "", "489"),
                    ("ctx", "490", "490"), ("ctx", "500", "500"), ("add", "", "501"),
                    ("ctx", "", ""), ("del", "", "")]
    assert html.count('<tr class="diff-elision">') == 2  # between sections, and the '...'
    assert '<span class="visually-hidden">lines left out</span>' in html
    assert "<del>" in html and "<ins>" in html
    assert "488</td>" not in html  # numbers live in data-ln, shown by CSS, never copied


def test_code_is_highlighted_as_its_language() -> None:
    html, _, _ = render(HUNKS)
    assert '<span class="k">with</span> telemetry(<wbr>carrier' in html  # names: plain text
    assert '<span class="k">try</span>' in html


class _Store:
    """A code store (see code_index.Kept) in memory."""

    def __init__(self) -> None:
        self.held: dict[str, Any] = {}

    def get(self, key: str) -> Any:
        return self.held.get(key)

    def put(self, key: str, value: Any) -> None:
        self.held[key] = value


@pytest.mark.parametrize("code", [
    "if ('' !== $body) {\n    $context['http']['content'] = $body;\n}",
    "<?php\nif ('' !== $body) {\n    $context['http']['content'] = $body;\n}",
])
def test_php_code_without_its_opening_tag_is_highlighted(code: str) -> None:
    """guzzle's StreamHandler: a PHP hunk, excerpt or definition (lines from inside a file,
    with no `<?php` before them) and a ```php fence of code alone were shown plain, as
    Pygments' PHP lexer reads text before a `<?php` as HTML; GitHub's diff colours them."""
    lines = code.splitlines()
    store = _Store()
    for tokens in (lexing_for("src/Handler/StreamHandler.php", {}).lex(lines),
                   lexing_for("src/Handler/StreamHandler.php", {}, store).lex(lines),
                   lexing_for("src/Handler/StreamHandler.php", {}, store).lex(lines)):  # kept
        classes = {css for line in tokens for css, _ in line}
        assert {"k", "s1"} <= classes, tokens  # `if`, `''` (the site colours no variable)
    fenced = highlight_code(code, "php")
    assert '<span class="k">if</span>' in fenced and '<span class="nv">$body</span>' in fenced
    if code.startswith("<?php"):  # a text that opens with it is read as Pygments reads it
        assert '<span class="cp">&lt;?php</span>' in fenced


@pytest.mark.parametrize(("path", "old", "new", "same"), [
    ("a.php", ["'method'           => $m,", "'header'  => $h,"], ["'method' => $m,", "'header' => $h,"],
     True),  # guzzle's php-cs-fixer commit: alignment
    ("a.php", ["$m .= \"[$k] $v\" . \\PHP_EOL;"], ["$m .= \"[$k] $v\".\\PHP_EOL;"], True),
    ("a.php", ["$m = 'a  b';"], ["$m = 'a b';"], False),  # a string's text is the program's
    ("a.php", ["'line' => $line"], ["'line' => $line,"], False),  # a token added
    ("a.go", ["x := f(a,", "\tb)"], ["x := f(a, b)"], True),  # a call unwrapped
    ("a.py", ["if x:", "  y()", "  z()"], ["if x:", "    y()", "", "    z()"], True),
    ("a.py", ["if x:", "    y()", "    z()"], ["if x:", "    y()", "z()"], False),  # out of the if
    ("a.js", ["// a  comment", "f()"], ["// a comment", "f()"], False),
])
def test_lines_respaced_are_told_from_lines_changed(
        path: str, old: list[str], new: list[str], same: bool) -> None:
    assert respaced(lexing_for(path, {}), old, new) is same


def test_language_from_extension_and_override() -> None:
    assert lexing_for("src/a.py", {}).lexer.name == "Python"
    assert lexing_for("docs/a.md", {}).lexer.name == "Markdown"
    assert lexing_for("kernels/a.cu", {"cu": "cuda"}).lexer.name == "CUDA"
    assert lexing_for("weird.zzz", {}).lexer.name == "Text only"


def test_a_file_names_lexer_is_the_one_every_pygments_pattern_agrees_on() -> None:
    """A file is lexed by the one lexer whose patterns claim its name, found without
    matching every pattern: the same answer as matching them all, for a name made from
    each of Pygments' patterns and for names no pattern was written for."""
    import fnmatch

    from pygments.lexers._mapping import LEXERS

    from site_gen.filetypes import lexer_by_file_name as _lexer_name_by_file

    claimed = [(pattern, aliases[0]) for _m, _n, aliases, patterns, _t in LEXERS.values()
               if aliases for pattern in patterns]

    def by_every_pattern(name: str) -> str:
        claims = {alias for pattern, alias in claimed if fnmatch.fnmatch(name, pattern)}
        return f"name:{claims.pop()}" if len(claims) == 1 else f"file:{name}"

    def named_by(pattern: str) -> str:  # a name the pattern matches
        return re.sub(r"\[!?\]?[^\]]*\]", lambda m: m[0].lstrip("[!")[0] if m[0][1] != "!"
                      else "~", pattern).replace("*", "ab").replace("?", "c")

    names = {named_by(pattern) for pattern, _ in claimed}
    names |= {"async_save.py", "Makefile", "Makefile.am", "x.PY", "README", ".bashrc.d",
              "a.tar.gz", "kshrc", "CMakeLists.txt.bak", "id_rsa.pub", "v.x]m", ""}
    assert len(names) > 700
    wrong = {n: (_lexer_name_by_file(n), by_every_pattern(n)) for n in sorted(names)
             if _lexer_name_by_file(n) != by_every_pattern(n)}
    assert not wrong

def test_changed_words_are_marked() -> None:
    old = "with telemetry(carrier, step, async_save=wait_fn is not None):"
    new = "with telemetry(carrier, step):"
    old_ranges, new_ranges = _changed(old, new)
    assert [old[a:b] for a, b in old_ranges] == [", async_save=wait_fn is not None"]
    assert new_ranges == []
    html, _, _ = render(HUNKS)
    marked = re.findall(r"<mark>(.*?)</mark>", html)
    assert len(marked) == 1
    assert re.sub(r"<[^>]+>", "", marked[0]) == ", async_save=wait_fn is not None"


def test_two_lines_that_became_one_mark_the_one_it_came_from() -> None:
    """Plug: `{_, next, state} = next_multipart(...)` and `read_part_headers(conn, data <>
    next, ...)` became `read_part_headers_more(conn, data, ...)`: paired in order, the
    first removed line was marked against it, word for word, and the line it came from
    not at all. Runs of unequal length pair the lines most alike, in order."""
    html, errors, _ = render(
        "```proposal\nfile: conn.ex\n@@ -1,3 +1,2 @@\n :more ->\n"
        "-  {_, next, state} = next_multipart(adapter, state, opts)\n"
        "-  read_part_headers(conn, data <> next, boundary, adapter, state, opts)\n"
        "+  read_part_headers_more(conn, data, length, boundary, adapter, state, opts)\n```\n",
        pr=None)  # type: ignore[arg-type]
    assert errors == []
    rows = re.findall(r'<tr class="diff-(del|add|ctx)"[^>]*>(.*?)</tr>', html, re.S)
    marked = [(kind, "<mark>" in row) for kind, row in rows]
    assert marked == [("ctx", False), ("del", False), ("del", True), ("add", True)]


def test_unrelated_lines_are_not_marked_word_by_word() -> None:
    assert _changed("alpha beta gamma", "completely different text") == ([], [])


def test_author_text_is_escaped() -> None:
    html, errors, _ = render("```proposal\nfile: a.py · <b>sym</b>\n-x = '<script>'\n```\n",
                             pr=None)  # type: ignore[arg-type]
    assert errors == []
    assert "<script>" not in html and "<b>" not in html
    assert "&lt;b&gt;sym&lt;/b&gt;" in html


@pytest.mark.parametrize(("line", "title", "text", "expected"),
                         read_fixture_file(FIXTURES / "proposal_errors.md"))
def test_proposal_errors(line: int, title: str, text: str, expected: str) -> None:
    _, errors, _ = render(text)
    assert errors == expected.splitlines()


def apply_page(project: Project, head: str, removed: str) -> None:
    project.write("content/acme/widgets/12/pr.yml",
                  f"repo: acme/widgets\nnumber: 12\ntitle: T\nhead: {head}\nstate: open\n")
    project.write("content/acme/widgets/12/cache-bug.md", f"""\
---
{{title: T, order: 1, updated: 2026-01-05,
 question: q,
 status: proposed}}
---

```proposal
file: widgets/core.py L10
@@ -9,2 +9,2 @@
 line 9
-{removed}
+key = make_key(user, tenant)
```
""")


def test_apply_check_at_the_pinned_commit(project: Project, cli: CLI,
                                          checkout: tuple[Path, str, str]) -> None:
    repo, first, second = checkout
    apply_page(project, first[:7], "key = make_key(user)")
    result = cli("build", "--checkout", str(repo))
    assert (result.code, result.err) == (0, "")
    html = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    assert ("Applies at " + first[:7] + ": every removed and context line is there.") in html

    apply_page(project, second[:7], "key = make_key(user)")
    result = cli("build", "--checkout", str(repo))
    assert (result.code, result.err.splitlines()) == (1, [
        f"content/acme/widgets/12/cache-bug.md:11: the proposed change does not apply at "
        f"{second[:7]}: line 10 of src/widgets/core.py reads 'key = make_key(user, scope)', not "
        "'key = make_key(user)'",
        "Build failed: 1 error(s); 0 warning(s). The site was not changed."])


def test_a_proposal_the_commit_has_made_says_so_once(tmp_path: Path) -> None:
    """The PR took the page's proposal (after a repin, the page pins the commit that did):
    each of its lines was 'does not apply: line 4 reads ..., not ...'; now one error at
    the section says the commit has the lines it proposes. A change it has not made is
    told line by line as before."""
    hunk = ("```proposal\nfile: main.go L5 · f\n@@ -4,2 +4,2 @@\n func f() error {\n"
            "-\treturn err\n+\treturn {new}\n```\n")
    head, [(_, made, _), (_, other, _)] = rendered_at(
        tmp_path, {"main.go": "package main\n\n// f fails\nfunc f() error {\n"
                              "\treturn fmt.Errorf(\"f: %w\", err)\n}\n"},
        hunk.replace("{new}", 'fmt.Errorf("f: %w", err)'), hunk.replace("{new}", "nil"))
    assert made == [f"3: the proposed change is made at {head[:7]}: L4-L5 of main.go read as this "
                    "hunk proposes; the page proposes what the PR now does: rewrite it, or drop "
                    "the proposal"]
    assert other == [f"5: the proposed change does not apply at {head[:7]}: line 5 of main.go "
                     "reads 'return fmt.Errorf(\"f: %w\", err)', not 'return err'"]


def test_a_section_pasted_from_git_diff_keeps_its_position_and_leaves_out_the_rest(
        tmp_path: Path) -> None:
    """`git diff` writes the line of the function around a section after its '@@': it was
    'not a diff line'; as `git apply` does, the position is read and the rest left out
    (the page names the function on its 'file:' line)."""
    _, [(html, errors, _), (_, wrong, _)] = rendered_at(
        tmp_path, {"main.go": "package main\n\nfunc f() error {\n\treturn nil\n}\n"},
        "```proposal\nfile: main.go L4 · f\n@@ -3,2 +3,2 @@ func f() error {\n func f() error {\n"
        "-\treturn nil\n+\treturn err\n```\n",
        "```proposal\nfile: main.go L4 · f\n@@ -3,2 +3,2 @@func f()\n func f() error {\n"
        "-\treturn nil\n+\treturn err\n```\n")
    assert errors == [] and "Applies at" in html
    assert html.count("func") == 1  # its line of context, not the heading
    assert wrong[0].startswith("3: '@@ -3,2 +3,2 @@func f()' is not a diff line")


def test_a_file_s_diff_pasted_whole_from_git_diff_is_a_hunk(tmp_path: Path) -> None:
    """`git diff` output pasted as it is: its header (`diff --git`, `index`, `---`, `+++`)
    names the file, as a `file:` line does (it was three errors: 'malformed proposal line',
    and `--- a/...` 'a diff line before any file: line'); `---`/`+++` alone before an `@@`
    line too (`diff -u`'s, with dates), and a file made (`/dev/null`). A removed line that
    reads `--- a/...` (a Lua comment) stays one."""
    files = {"lua/m.lua": "local M = {}\n-- a/b\nM.x = 1\nreturn M\n", "app.py": "x = 1\n"}
    pasted = ("diff --git a/lua/m.lua b/lua/m.lua\nindex 8e03d9e..6efc5a7 100644\n"
              "--- a/lua/m.lua\n+++ b/lua/m.lua\n@@ -1,3 +1,3 @@ local M = {}\n local M = {}\n"
              "--- a/b\n+-- a/c\n M.x = 1\n")
    alone = ("--- app.py\t2026-12-04 10:00:00\n+++ app.py\t2026-12-04 10:01:00\n@@ -1 +1 @@\n"
             "-x = 1\n+x = 2\n")  # as `diff -u` writes it: no a/ b/, and dates
    made = ("diff --git a/new.py b/new.py\nnew file mode 100644\nindex 0000000..e69de29\n"
            "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1,1 @@\n+y = 1\n")
    missing = "diff --git a/gone.py b/gone.py\n--- a/gone.py\n+++ b/gone.py\n@@ -1 +1 @@\n-a\n+b\n"
    head, built = rendered_at(tmp_path, files, *(f"```proposal\n{body}```\n"
                                                 for body in (pasted + alone, made, missing)))
    (html, errors, _), (made_html, made_errors, _), (_, unknown, _) = built
    # an error about the file names the header the page holds
    assert unknown[0].startswith("2: unknown file 'gone.py' in 'diff --git a/gone.py b/gone.py'")
    assert errors == [] and f"Applies at {head[:7]}" in html
    assert html.count('<figure class="hunk">') == 2
    # the header links the lines each names no L range for, as its '@@' says them
    assert re.search(r'lua/m\.lua#L1-L3" title="[^"]*">L1-L3</a></figcaption>', html)
    assert re.search(r'app\.py#L1" title="[^"]*">L1</a></figcaption>', html)
    assert '<del><span class="c1">-- a/</span><mark><span class="c1">b</span></mark></del>' in html
    assert "index 8e03d9e" not in html
    assert made_errors == [] and '<span class="hunk-new">new file</span>' in made_html


def test_a_commit_pasted_from_git_show_or_format_patch_is_its_diff(tmp_path: Path) -> None:
    """What `git show`, `git log -p` and `git format-patch` write around a commit's diff
    (the commit's header and message, a mail's diffstat and signature) was an error at each
    of its lines, and `git diff --no-prefix`'s `diff --git P P` two: as `git apply` does,
    they are left out, and the diff is read as if pasted alone. A commit's header that no
    diff follows is one error."""
    old = {"app.py": "import os\n\n\ndef f():\n    return 1\n\n\ndef g():\n    return 2\n",
           "lib.py": "x = 1\n"}
    repo = tmp_path / "work"
    commit(repo, old)
    commit(repo, {"app.py": old["app.py"].replace("return 1", "return 10")},
           "Return ten\n\nA message with lines of its own:\n+ one\n- two\n diff --git x")
    commit(repo, {"lib.py": "x = 2\n"}, "Two")
    pasted = [git(repo, "show", "HEAD~1"), git(repo, "log", "-p", "-2"),
              git(repo, "format-patch", "-2", "--stdout"), git(repo, "diff", "--no-prefix", "HEAD~2")]
    assert pasted[2].rstrip().endswith("\n-- \n" + git(repo, "--version").split()[-1])
    head, built = rendered_at(tmp_path, old, *(f"```proposal\ntitle: t\n\n{text}\n```\n"
                                                for text in pasted),
                              "```proposal\ncommit 0123abc\nAuthor: a <a@a>\n\n    Empty\n```\n",
                              "```proposal\ncommit 0123abc\nMerge: 1234567 89abcde\n\n    Merge\n\n"
                              "diff --cc a.py\n--- a/a.py\n+++ b/a.py\n@@@ -1,1 -1,1 +1,1 @@@\n```\n")
    for (html, errors, _), files in zip(built[:-2], (1, 2, 2, 2), strict=True):
        assert errors == [] and f"Applies at {head[:7]}" in html
        assert html.count('<figure class="hunk">') == files
        assert "Return ten" not in html and "Author" not in html and "one" not in html
    # without a title of its own, the proposal is titled by the commit's subject (the first
    # commit's, in git log's order; a mail's, its '[PATCH 1/2]' left out and folded lines
    # joined); a title of its own stands
    subject = "A subject long enough that git format-patch folds it over two lines of the mail"
    commit(repo, {"lib.py": "x = 3\n"}, subject)
    untitled = [git(repo, "show", "HEAD~2"), git(repo, "log", "-p", "-2", "HEAD~1"),
                git(repo, "format-patch", "-1", "--stdout", "HEAD")]
    assert "\n " in untitled[2].split("Subject: ", 1)[1].split("\n\n")[0]  # folded
    _, titled = rendered_at(tmp_path / "titled", {"app.py": old["app.py"], "lib.py": "x = 2\n"},
                            *(f"```proposal\n{text}\n```\n" for text in untitled))
    for (html, _, _), title in zip(titled, ("Return ten", "Two", subject), strict=True):
        assert '<h3 class="proposal-title block-title"' in html and f">{title}" in html, title
    said = ("2: 'commit 0123abc' starts a commit as git show or git format-patch writes it, but "
            "no 'diff --git' line follows; expected the commit's diff after its message")
    assert built[-2][1] == [said]
    assert built[-1][1] == [said + " (a merge's combined diff, 'diff --cc', is no patch: paste "
                                   "'git diff' of the merge against one of its parents)"]


def test_a_hunk_that_names_no_definition_is_named_by_the_one_that_holds_its_change(
        tmp_path: Path) -> None:
    """A hunk pasted from `git diff` names no definition (git's function line after `@@` is
    left out), nor does a `file:` line without `· symbol`: the page showed none. Where it
    applies, the definition that holds the lines it changes names it, found by the file's
    grammar, as a pr-diff is named; a change that no one definition holds names none."""
    files = {"main.go": "package main\n\nfunc f() error {\n\treturn nil\n}\n\nvar x = 1\n"}
    pasted = ("diff --git a/main.go b/main.go\n--- a/main.go\n+++ b/main.go\n"
              "@@ -3,3 +3,4 @@ func f() error {\n func f() error {\n+\tlog()\n \treturn nil\n }\n")
    bare = "file: main.go\n@@ -7,1 +7,1 @@\n-var x = 1\n+var x = 2\n"
    _, built = rendered_at(tmp_path, files, *(f"```proposal\n{body}```\n" for body in (
        pasted, bare, pasted + "\n" + bare)))
    (inside, none, both) = built
    assert inside[1] == [] and '· <code class="hunk-symbol">f</code>' in inside[0]
    assert none[1] == [] and "hunk-symbol" not in none[0]
    assert both[0].count("hunk-symbol") == 1  # each hunk by its own lines


@pytest.mark.parametrize(("header", "said"), [
    ("diff --git a/anet.c b/net.c\nsimilarity index 100%\nrename from anet.c\nrename to net.c\n",
     "renames anet.c to net.c"),
    ("diff --git a/a.keep b/a.keep\nnew file mode 100644\nindex 0000000..e69de29\n",
     "makes an empty file"),
    ("diff --git a/old.keep b/old.keep\ndeleted file mode 100644\nindex e69de29..0000000\n",
     "removes an empty file"),
    ("diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n", "changes the file's mode"),
    ("diff --git a/logo.png b/logo.png\nindex 1111111..2222222 100644\n"
     "Binary files a/logo.png and b/logo.png differ\n", "changes a binary file"),
])
def test_a_pasted_file_s_diff_without_lines_says_what_it_does(header: str, said: str) -> None:
    """`git show` of real commits: hiredis renames anet.c to net.c, ky makes empty `.keep`
    files. Such a file's diff has a header and no lines: it was 'hunk for ... has no diff
    lines'; now what it does, and what to write instead."""
    _, errors = parse(f"```proposal\n{header}```\n")
    assert errors == [f"2: '{header.splitlines()[0]}' {said} and changes no line; a proposal "
                      "shows the lines it changes: leave this file's diff out of the block (and "
                      "say it in the text)"]


def test_a_hunk_that_does_not_apply_is_not_told_of_its_symbol_too(tmp_path: Path) -> None:
    """ky's page once the PR took its proposal (a doc comment over the function, so the
    lines the 'file:' line names no longer hold it): the hunk was told both that it is made
    and that its '· getRetryTimingHeader' holds none of its lines, 'a value, given at L30'
    (an arrow function given to a const is a definition). Where a hunk does not apply, its
    lines are not those, and its symbol is not checked against them; and a name a definition
    has is never told a value."""
    code = ("/** Doc. */\nexport const pick = (h: Headers): string | undefined => {\n"
            "\treturn h.get('Retry-After') ?? undefined;\n};\n")
    hunk = ("```proposal\nfile: pick.ts L1 · {name}\n@@ -1,1 +1,1 @@\n-/** {doc} */\n+/** Other. */\n"
            "```\n")
    other = "\nfile: pick.ts L3 · nothing\n@@ -3,1 +3,1 @@\n-\treturn h.get('Retry-After') ?? undefined;\n" \
            "+\treturn h.get('Retry-After')?.trim();\n"
    head, [(_, stale, _), (_, applies, _), (_, both, _)] = rendered_at(
        tmp_path, {"pick.ts": code}, hunk.format(name="pick", doc="Old."),
        hunk.format(name="pick", doc="Doc."),
        hunk.format(name="pick", doc="Old.").replace("```\n", "", 1).replace(
            "+/** Other. */\n", "+/** Other. */\n" + other + "```\n"))
    assert len(stale) == 1 and "does not apply" in stale[0], stale
    # a hunk that applies is told of its symbol, whatever another hunk of the block does
    assert len(both) == 2 and "'· nothing'" in both[1], both
    assert applies == ["2: '· pick' in 'file: pick.ts L1' is not a definition that holds L1 at "
                       f"commit {head[:7]}; no definition holds them"]


def test_a_blank_line_of_the_file_that_ends_a_section_is_kept_where_its_counts_hold_it(
        tmp_path: Path) -> None:
    """git writes a blank line of the file as ' ', often the last of a section's context
    (httpx's conftest.py): the build took it for the blank line before the next hunk and
    said 'hunk line counts do not match its header'. Where the '@@' counts it, it stays;
    the blank line after it, before the next 'file:' line, is still none of the hunk's."""
    hunk = ("```proposal\nfile: app.py L2-L3\n@@ -2,2 +2,2 @@\n-x = 1\n+x = 3\n{blank}\n\n"
            "file: app.py L4\n@@ -4,1 +4,1 @@\n-y = 2\n+y = 4\n```\n")
    _, built = rendered_at(tmp_path, {"app.py": "import os\nx = 1\n\ny = 2\n"},
                           *(hunk.format(blank=blank) for blank in (" ", "")))
    for html, errors, _ in built:
        assert errors == [] and "Applies at" in html
        assert '<tr class="diff-ctx">\n<td class="diff-ln" data-ln="3"></td>' in html


def test_a_section_whose_lines_stand_elsewhere_says_where_and_what_to_write(
        tmp_path: Path) -> None:
    """An '@@' counted one line off (the lazy.nvim trial page): each line was 'does not
    apply: line 70 reads ..., not ...'; now one error says where the lines stand and the
    '@@' that puts them there, as `patch` finds a hunk at an offset. Lines that stand in
    several places are named nearest first; lines that stand nowhere whole are told line by
    line as before."""
    body = "\n".join(f"x{i} = {i}" for i in range(1, 9))
    hunk = "```proposal\nfile: {f}\n@@ -{a},2 +{a},2 @@\n # mark\n-return 1\n+return 2\n```\n"
    head, built = rendered_at(
        tmp_path, {"a.py": f"{body}\n# mark\nreturn 1\n{body}\n# mark\nreturn 1\n",
                   "b.py": f"{body}\n# mark\nreturn 1\n"},
        hunk.format(f="b.py", a=8), hunk.format(f="b.py", a=9), hunk.format(f="a.py", a=17),
        hunk.replace("return 1", "return 3").format(f="b.py", a=9))
    once, right, twice, nowhere = (errors for _, errors, _ in built)
    assert once == [f"3: the proposed change does not apply at {head[:7]}: '@@ -8,2 +8,2 @@' "
                    "puts it at L8-L9 of b.py, but its removed and context lines stand at L9-L10 "
                    "(1 line below); expected '@@ -9,2 +9,2 @@', or no '@@' line (the section "
                    "is then found in the file)"]
    assert right == []
    assert twice == [f"3: the proposed change does not apply at {head[:7]}: '@@ -17,2 +17,2 @@' "
                     "puts it at L17-L18 of a.py, but its removed and context lines stand at "
                     "L19-L20, L9-L10; expected '@@ -19,2 +19,2 @@' for the nearest, or the '@@' "
                     "of another"]
    assert nowhere == [f"5: the proposed change does not apply at {head[:7]}: line 10 of b.py "
                       "reads 'return 1', not 'return 3'"]


def test_model_page_first_hunk_highlights_with_as_a_keyword() -> None:
    from .test_snapshots import built_pages

    page = built_pages()["NVIDIA-NeMo/RL/4607/async-save-tag/index.html"]
    first_hunk = page.split('<figure class="hunk">')[1]
    assert '<del>    <span class="k">with</span>' in first_hunk  # the shared 12 spaces left out
    assert '<ins>    <span class="k">with</span>' in first_hunk
    assert page.count('<figure class="hunk">') == 3
    assert "Where the fix lands:</strong> RL only. Nothing below is implemented." in page


def test_lexed_lines_are_those_of_pygments_get_tokens() -> None:
    """lex_lines takes tokens straight from get_tokens_unprocessed when get_tokens would
    change nothing: the same tokens, line by line, as get_tokens gives (here for a whole
    module of site_gen's, and for text get_tokens does change: a CR, a tab), a run of
    tokens of one class on a line as one."""
    from site_gen.highlight import _css_class, lex_lines

    def by_get_tokens(lexer: Any, lines: list[str]) -> list[list[tuple[str, str]]]:
        result: list[list[tuple[str, str]]] = [[]]
        for ttype, value in lexer.get_tokens("\n".join(lines) + "\n"):
            css = _css_class(ttype)
            if "\n" not in value and result[-1] and result[-1][-1][0] == css:
                result[-1][-1] = (css, result[-1][-1][1] + value)
                continue
            for k, part in enumerate(value.split("\n")):
                if k:
                    result.append([])
                if part:
                    result[-1].append((_css_class(ttype), part))
        return result[: len(lines)] + [[] for _ in range(len(lines) - len(result))]

    module = (Path(__file__).parent.parent / "site_gen/content.py").read_text().split("\n")
    python = lexing_for("a.py", {}).lexer
    assert lex_lines(python, module) == by_get_tokens(python, module)
    odd = ["x = 1\r", "\tif x:  # é", '        s = """a', '  b"""']
    assert lex_lines(python, odd) == by_get_tokens(python, odd)


@pytest.mark.parametrize(("actual", "wanted", "expected"), [
    ("\treturn nil", "    return nil",
     "'return nil' is indented with 1 tab, not 4 spaces as on the page; expected the file's "
     "whitespace"),
    ("\t\t  x := 1", "\t\tx := 1",
     "'x := 1' is indented with 2 tabs and 2 spaces, not 2 tabs as on the page; expected the "
     "file's whitespace"),
    ("x = 1  ", "x = 1",
     "'x = 1' ends with 2 spaces, not nothing as on the page; expected the file's whitespace"),
    ("a =\tb", "a = b", "reads 'a·=→b', not 'a·=·b' as on the page (· a space, → a tab); "
                        "expected the file's whitespace"),
    ("a\u00a0= b", "a = b", "reads 'a<U+00A0>=·b', not 'a·=·b' as on the page (· a space, → a "
                           "tab); expected the file's whitespace"),
    ("\u00a0\u00a0x", "  x", "'x' is indented with 2 U+00A0, not 2 spaces as on the page; "
                            "expected the file's whitespace"),
    ("x = 2", "x = 1", "reads 'x = 2', not 'x = 1'"),
    (None, "x = 1", "reads the end of the file, not 'x = 1'"),
])
def test_a_line_that_differs_in_whitespace_alone_says_where(
        actual: str | None, wanted: str, expected: str) -> None:
    """Before, both were shown stripped: 'reads 'return nil', not 'return nil''."""
    from site_gen.blocks.placement import _difference

    assert _difference(actual, wanted) == expected


def test_a_go_hunk_typed_with_spaces_is_refused_saying_the_file_has_tabs(tmp_path: Path) -> None:
    hunk = ("```proposal\nfile: main.go L4 · f\n@@ -4,1 +4,1 @@\n-{indent}return nil\n"
            "+{indent}return err\n```\n")
    head, [(_, spaces, _), (_, tabs, _)] = rendered_at(
        tmp_path, {"main.go": "package main\n\nfunc f() error {\n\treturn nil\n}\n"},
        hunk.format(indent="    "), hunk.format(indent="\t"))
    assert spaces == [f"4: the proposed change does not apply at {head[:7]}: line 4 of main.go "
                      "'return nil' is indented with 1 tab, not 4 spaces as on the page; "
                      "expected the file's whitespace"]
    assert tabs == []


def test_a_crlf_file_takes_proposals_and_quotes_like_any_other(tmp_path: Path) -> None:
    """Its lines were compared with their CR: no page (markdown has none) could apply."""
    _, [(html, errors, _)] = rendered_at(
        tmp_path, {"Repo.cs": b"class Repo {\r\n    int Find() {\r\n        return 0;\r\n"
                              b"    }\r\n}\r\n"},
        "See [[Repo.cs:3 \"return 0;\"]].\n\n```proposal\nfile: Repo.cs L3 · Repo.Find\n"
        "@@ -2,3 +2,3 @@\n     int Find() {\n-        return 0;\n+        return 1;\n     }\n```\n")
    assert errors == []
    assert "\r" not in html


def test_sections_of_indented_code_are_parted_by_their_gap() -> None:
    """Every line of these sections shares an indent, which the page leaves out; before,
    the gap between the sections was left out with it, and the code read as one run."""
    html, errors, _ = render("```proposal\ntitle: t\nfile: checkpoint.py L11\n"
                             "@@ -10,2 +10,2 @@\n         a = 1\n-        b = 2\n+        b = 3\n"
                             "@@ -20,1 +20,1 @@\n-        c = 4\n+        c = 5\n```\n")
    assert errors == []
    assert html.count('<tr class="diff-elision">') == 1
    assert "8 lines not shown" in html  # 12 to 19


SET_NAME = ["static int set_name(SSL_CTX *ctx, const char *name) {",
            "    if (name[0] == '\\0')", "        return 0;", "",
            "    /* a name is only enforced when the peer is verified */",
            "    if (!(SSL_CTX_get_verify_mode(ctx) & SSL_VERIFY_PEER))", "        return 0;", "",
            "    X509_VERIFY_PARAM *param = SSL_CTX_get0_param(ctx);", "}"]
CHECK_NEW = ["static int set_name(SSL_CTX *ctx, const char *name) {",
             "    if (!(SSL_CTX_get_verify_mode(ctx) & SSL_VERIFY_PEER))", "        return 0;", "",
             "    X509_VERIFY_PARAM *param = SSL_CTX_get0_param(ctx);"]
CHECK_ADDED = CHECK_NEW[1:4]


def marked(new: list[str], added: list[str], removed: list[str]) -> list[tuple[str, str]]:
    """A section's rows: `new`, whose run `added` is marked added, `removed` taken out
    before it."""
    at = next(k for k in range(len(new)) if new[k:k + len(added)] == added)
    return [*((" ", t) for t in new[:at]), *(("-", t) for t in removed),
            *(("+", t) for t in added), *((" ", t) for t in new[at + len(added):])]


# vueuse's maxWait callback, a proposal that changes two lines apart (one of them to four),
# taken with a comment over the four
MAX_WAIT = ["        maxTimer = setTimeout(() => {", "          if (timer)",
            "            _clearTimeout(timer)", "          maxTimer = undefined",
            "          _pending.value = false", "          resolve(lastInvoker())",
            "        }, maxDuration)"]
SETTLE = ["          const settle = lastResolve", "          lastRejector = noop",
          "          lastResolve = noop", "          settle(lastInvoker())"]
MAX_WAIT_ROWS = [(" ", MAX_WAIT[0]), (" ", MAX_WAIT[1]), ("-", MAX_WAIT[2]),
                 ("+", "            clearTimeout(timer)"), (" ", MAX_WAIT[3]), (" ", MAX_WAIT[4]),
                 ("-", MAX_WAIT[5]), *(("+", t) for t in SETTLE), (" ", MAX_WAIT[6])]
MAX_WAIT_TAKEN = ["    if (timer)", "      _clearTimeout(timer)", *[""] * 18, MAX_WAIT[0], MAX_WAIT[1],
                  "            clearTimeout(timer)", MAX_WAIT[3], MAX_WAIT[4],
                  "          // settle the latest caller, as flush() does", *SETTLE, MAX_WAIT[6]]


@pytest.mark.parametrize(("lines", "rows", "expected"), [
    (MAX_WAIT_TAKEN, MAX_WAIT_ROWS, (23, 30)),
    # one of its changes not made: the line it takes out still stands
    ([*MAX_WAIT_TAKEN[:22], MAX_WAIT[2], *MAX_WAIT_TAKEN[23:]], MAX_WAIT_ROWS, None),
    # both made, but the other way round: not as it proposes
    ([*MAX_WAIT_TAKEN[:22], *SETTLE, *MAX_WAIT_TAKEN[23:25], "            clearTimeout(timer)",
      MAX_WAIT[6]], MAX_WAIT_ROWS, None),
])
def test_a_proposal_of_changes_apart_is_made_when_each_is(lines: list[str],
                                                          rows: list[tuple[str, str]],
                                                          expected: tuple[int, int] | None
                                                          ) -> None:
    """The runs of lines a hunk adds with context between them, each found beside its own
    line of the hunk, in their order: a PR that took the vueuse page's proposal with a
    comment of its own was "its old side was edited"."""
    from site_gen.blocks.hunks import made_at

    assert made_at(lines, rows, 22, len(rows)) == expected


@pytest.mark.parametrize(("lines", "new", "added", "removed", "expected"), [
    # the new side whole, near where the hunk puts it
    (["a", "x = 2", "b"], ["x = 2", "b"], ["x = 2"], ["x = 1"], (2, 3)),
    # hiredis: taken with a comment over it and another check before it
    (SET_NAME, CHECK_NEW, CHECK_ADDED, [], (6, 7)),
    # the added lines stand near, but beside neither line of the hunk around them
    ([*SET_NAME[:8], "    call();", *SET_NAME[8:]], CHECK_NEW, CHECK_ADDED, [], None),
    # too little to tell apart from other code
    (["f() {", "    // why", "    return 0;", "    g();"], ["f() {", "    return 0;", "    g();"],
     ["    return 0;"], [], None),
    # what the hunk takes out still stands by them
    ([*SET_NAME[:8], "    X509_VERIFY_PARAM *old = 0;", *SET_NAME[8:]], CHECK_NEW, CHECK_ADDED,
     ["    X509_VERIFY_PARAM *old = 0;"], None),
    # in two places, beside the line after them both times: which one is not known
    ([SET_NAME[0], *SET_NAME[4:9], *SET_NAME[4:]], CHECK_NEW, CHECK_ADDED, [], None),
])
def test_where_a_proposed_change_is_made(lines: list[str], new: list[str], added: list[str],
                                         removed: list[str], expected: tuple[int, int] | None
                                         ) -> None:
    """A proposal the PR took, as a PR takes one: whole, or with lines of its own around
    it; never one whose lines only happen to stand near."""
    from site_gen.blocks.hunks import made_at

    assert made_at(lines, marked(new, added, removed), 1, len(new)) == expected


# click's `less` options (pallets/click#3777): a proposal that stops at an option taking a
# value, taken by the PR with comments in its own words
LESS_ROWS = [(" ", "        if token.startswith(\"--\"):"),
             (" ", "            if token.casefold() == \"--raw-control-chars\":"),
             (" ", "                return True"),
             (" ", "        elif token.startswith(\"-\") and len(token) > 1:"),
             ("-", "            if \"r\" in token[1:].casefold():"), ("-", "                return True"),
             ("+", "            for letter in token[1:]:"), ("+", "                if letter in \"rR\":"),
             ("+", "                    return True"),
             ("+", "                if letter in _LESS_VALUE_OPTIONS:"),
             ("+", "                    # The rest of the cluster is this option's value."),
             ("+", "                    break"), (" ", ""), (" ", "    return False")]
LESS_TAKEN = [text for mark, text in LESS_ROWS[:4]] + [
    "            # Options such as -p and -o take the rest of the cluster as their value.",
    *(text for mark, text in LESS_ROWS[6:10]), "                    break", "",
    "    return False"]


@pytest.mark.parametrize(("lines", "expected"), [
    (LESS_TAKEN, (6, 10)),
    # one of its code lines in other words: not made
    ([*LESS_TAKEN[:5], "            for letter in token[1:].lower():", *LESS_TAKEN[6:]], None),
])
def test_a_proposal_taken_with_comments_in_the_prs_own_words_is_made(
        lines: list[str], expected: tuple[int, int] | None) -> None:
    """The PR took the click page's proposal, its code as it proposed and its comments in
    words of its own (one more over the loop, one fewer in it): each of the hunk's lines
    was 'does not apply'. Comments alone, the page's and the file's, are aside, as blank
    lines are; and a line it takes out that its context has too (`return True` before the
    `elif`) standing by them is that context, not the line still there."""
    from site_gen.blocks.hunks import made_at
    from site_gen.highlight import comment_lines

    comments = comment_lines("_termui_impl.py", {})
    assert made_at(lines, LESS_ROWS, 1, len(LESS_ROWS), comments) == expected
    assert made_at(lines, LESS_ROWS, 1, len(LESS_ROWS)) is None  # comments weigh as code


# reqwest's blocking wait: a proposal with no context, its `log::warn!` line moved into a
# closure, taken by the PR with its comment in other words
DEADLINE_ROWS = [("-", "        let deadline = Instant::now().checked_add(d);"), ("-", ""),
                 ("-", "        if deadline.is_none() {"),
                 ("-", '            log::warn!("timeout {d:?} overflows");'), ("-", "        }"),
                 ("-", "        deadline"), ("+", "        // An overflow is no deadline."),
                 ("+", "        Instant::now().checked_add(d).or_else(|| {"),
                 ("+", '            log::warn!("timeout {d:?} overflows");'), ("+", "            None"),
                 ("+", "        })")]
DEADLINE_TAKEN = ["    let deadline = timeout.and_then(|d| {", "        // Overflowing means forever.",
                  *(text for mark, text in DEADLINE_ROWS[7:]), "    });"]


def test_a_proposal_without_context_that_moves_a_line_is_made() -> None:
    """A hunk with no context has no line beside its added run: it was never told made. A
    line it takes out and adds again (moved into a closure) stands among the lines it adds,
    and is that line, not the old one still standing; but a hunk that adds back just what
    it takes out (as the page holds it: a change of line ends) is not made where it applies."""
    from site_gen.blocks.hunks import made_at, made_beside
    from site_gen.highlight import comment_lines

    assert made_at(DEADLINE_TAKEN, DEADLINE_ROWS, 1, len(DEADLINE_ROWS),
                   comment_lines("wait.rs", {})) == (3, 6)
    same = [(" ", "#ifndef _WIN32"), ("-", "#else"), ("-", "#define strcasecmp stricmp"),
            ("+", "#else"), ("+", "#define strcasecmp stricmp"), (" ", "#endif")]
    lines = ["#ifndef _WIN32", "#else", "#define strcasecmp stricmp", "#endif"]
    assert made_beside(lines, same, 1, 4) is None


def test_a_method_taken_with_its_javadoc_in_other_words_is_made() -> None:
    """A Javadoc's middle lines (` * ...`) read alone are no comment: a proposal of a method
    with its doc comment, taken by the PR in other words, was not made."""
    from site_gen.blocks.hunks import made_at
    from site_gen.highlight import comment_lines

    rows = [(" ", "    }"), ("+", ""), ("+", "    /**"), ("+", "     * Closes the pool."),
            ("+", "     * @throws IOException never"), ("+", "     */"),
            ("+", "    public void close() throws IOException {"), ("+", "        pool.shutdown();"),
            ("+", "    }"), (" ", "}")]
    taken = ["    }", "", "    /** Shuts the pool down: idle connections are closed at once. */",
             "    public void close() throws IOException {", "        pool.shutdown();", "    }", "}"]
    assert made_at(taken, rows, 1, len(rows), comment_lines("Pool.java", {})) == (4, 6)
    assert made_at(taken, rows, 1, len(rows)) is None


def test_a_line_taken_out_is_still_by_them_unless_its_context_has_it_too() -> None:
    """A removed line its context also has is that line, by them (the click case above);
    one the hunk adds again alike (ky's `throw error;` without its trailing tab) is not
    told made where it still stands: which of the two stands cannot be told."""
    from site_gen.blocks.hunks import made_beside

    rows = [(" ", "\t} else {"), ("-", "\t\tthrow error;\t"), ("+", "\t\tthrow error;"),
            (" ", "\t}")]
    assert made_beside(["\t} else {", "\t\tthrow error;\t", "\t}"], rows, 1, 3) is None


@pytest.mark.parametrize(("path", "line", "alone"), [
    ("a.py", "    # why", True), ("a.py", "#: doc of a constant", True),
    ("a.py", "x = 1  # why", False), ("a.py", '"""A docstring."""', True), ("a.py", "", False),
    ("a.c", "/* why */", True), ("a.c", "// why", True), ("a.c", "#include <stdio.h>", False),
    ("a.c", "#define MAX 4", False), ("a.lua", "-- why", True), ("a.rb", "# why", True),
    ("a.rs", "/// Why.", True), ("a.rs", "#[derive(Debug)]", False), ("a.cs", "#region X", False),
    ("a.md", "# A heading", False),
])
def test_a_comment_alone_is_told_by_the_file_s_lexer(path: str, line: str, alone: bool) -> None:
    from site_gen.highlight import comment_lines

    assert comment_lines(path, {})([line]) == [alone]
    # a block comment's lines read together: each is a comment alone, but for code after it
    assert comment_lines("A.java", {})(["/**", " * Why.", " * @param x the x", " */", "int f;"]) \
        == [True, True, True, True, False]


def test_the_build_says_once_that_a_proposal_taken_in_the_prs_own_comments_is_made(
        tmp_path: Path) -> None:
    """At the head that took it (comments reworded), the proposal is one error, 'the
    proposed change is made', not one for each line."""
    def of(lines: list[str]) -> str:
        return "def raw(tokens):\n    for token in tokens:\n" + "\n".join(lines) + "\n"

    body = "\n".join(f"{mark}{text}" for mark, text in LESS_ROWS)
    page = f"```proposal\nfile: less.py L7-L8 · raw\n@@ -3,8 +3,12 @@\n{body}\n```\n"
    head, [(_, errors, _)] = rendered_at(tmp_path / "pr", {"less.py": of(LESS_TAKEN)}, page)
    said = (": L8-L12 of less.py read as this hunk proposes; the page proposes what the PR now "
            "does: rewrite it, or drop the proposal")
    assert errors == [f"3: the proposed change is made at {head[:7]}{said}"]
    # with pr.yml's base, how the page shows the PR's own change instead: a pr-diff
    old = of([text for mark, text in LESS_ROWS if mark in " -"])
    head, [(_, errors, _), (html, shown, _)] = rendered_at(
        tmp_path / "based", {"less.py": of(LESS_TAKEN)}, page,
        "```pr-diff\n[[less.py:8-12]]\n```\n", base={"less.py": old})
    assert errors == [f"3: the proposed change is made at {head[:7]}{said} (a pr-diff block of "
                      "[[less.py:8-12]] shows the PR's own change)"]
    assert shown == [] and "own change" in html


MERGE = ["\t}", "", "\t// the other order", "\tif (typeof value === 'number' && isObject(old)) {",
         "\t\tvalue = {...old, limit: value};", "\t}", "", "\tif (isObject(value)) {"]
BRANCH = ["\t}", "", "\tif (typeof value === 'number' && isObject(old)) {",
          "\t\tvalue = {...old, limit: value};", "\t}", "", "\tif (isObject(value)) {"]


@pytest.mark.parametrize(("lines", "first", "expected"), [
    (MERGE, 6, (4, 6)),  # ky: its old side ("}", "", "if") stands again after what it adds
    ([*MERGE[:6], *[""] * 8, *MERGE[6:]], 14, None),  # what it adds stands apart from it
    (MERGE[:2] + MERGE[6:], 1, None),  # not made: it applies where it was written
])
def test_a_hunk_that_still_applies_beside_what_it_adds(lines: list[str], first: int,
                                                       expected: tuple[int, int] | None) -> None:
    """A hunk whose context is generic applies again next to the lines it adds, once the
    PR has taken it: those lines, touching where it applies, are the change made."""
    from site_gen.blocks.hunks import made_beside

    added = BRANCH[2:6]
    assert made_beside(lines, marked(BRANCH, added, []), first, first + 2) == expected


def test_code_indented_with_tabs_starts_at_the_left_edge() -> None:
    """The indentation every line of a hunk shares is left out: four tabs deep in ky's
    merge loop it was kept (only spaces were counted), and a phone showed 16 columns of
    blank before each line; a blank line shares any. Lines indented otherwise keep theirs."""
    html, errors, _ = render("```proposal\ntitle: t\nfile: checkpoint.py L2\n@@ -1,2 +1,3 @@\n"
                             " \t\t\t\t}\n \n+\t\t\t\tif (typeof value === 'number') {\n"
                             "```\n")
    assert errors == []
    assert "\t\t\t\t}" not in html and "\t\t\t\t<" not in html
    assert shared_indent(["\t\tif x {", "", "\t\t\treturn"]) == 2
    assert shared_indent(["\tif x {", "    return"]) == 0  # a tab and spaces: nothing alike
