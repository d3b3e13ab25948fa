"""A file of an ending several languages share is in the language its text says: a '.h'
file is C, C++ or Objective-C, parsed (symbols, hunk headers, claims) and highlighted as
that language; a '.m', '.pl', '.fs' file is highlighted so. mkdocs.yml's `languages` says
it for every file of an ending, for the code index as for highlighting. Checked against a
local repository of headers (C++ declarations among them)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from site_gen.code_index import language_of
from site_gen.config import default_config
from site_gen.content import PullRequest
from site_gen.filetypes import written_in
from site_gen.git_reader import SourceReader
from site_gen.highlight import highlighted_lines
from site_gen.statuses import DEFAULT_STATUSES

from .blockutil import render
from .conftest import commit

TABLE = """\
#pragma once
#include <vector>

namespace store {

template <typename K, typename V>
class Table {
 public:
  void put(K key) {
    keys_.push_back(key);
  }
  V get(K key) const;

 private:
  std::vector<K> keys_;
};

template <typename K, typename V>
V Table<K, V>::get(K key) const { return V(); }

}  // namespace store
"""
CLIB = """\
#ifndef CLIB_H
#define CLIB_H
#ifdef __cplusplus
extern "C" {
#endif

int clib_add(int a, int b);

static inline int clib_twice(int x) {
  return 2 * x;
}

#ifdef __cplusplus
}
#endif
#endif
"""
# C++ without a mark of C++ on a line of its own: only mkdocs.yml can say what it is.
POINT = """\
struct Point {
  int x;
  int norm() const { return x; }
};
"""
VIEW = """\
#import <Foundation/Foundation.h>

@interface View : NSObject
@property int width;
@end
"""
FIT = """\
function y = fit(x)
  % the model
  y = x .^ 2; % squares
end
"""


@pytest.fixture(scope="module")
def code(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    repo = tmp_path_factory.mktemp("headers") / "code"
    files: dict[str, str | bytes] = {f"include/{name}": text for name, text in (
        ("table.h", TABLE), ("clib.h", CLIB), ("point.h", POINT), ("view.h", VIEW), ("fit.m", FIT))}
    return repo, commit(repo, files)


PR = PullRequest(Path("pr.yml"), "acme/store", 3, "T", "0" * 40, None, DEFAULT_STATUSES["open"],
                 (), ())


def check(code: tuple[Path, str], text: str, languages: dict[str, str] | None = None,
          ) -> tuple[str, list[str]]:
    repo, head = code
    config = dataclasses.replace(default_config(), languages=languages or {})
    reader = SourceReader(repo)
    try:
        html, errors, _ = render(text, reader, dataclasses.replace(PR, head=head), config)
    finally:
        reader.close()
    return html, errors


@pytest.mark.parametrize(("text", "language"), [
    (TABLE, "cpp"),
    (CLIB, "c"),  # `#ifdef __cplusplus` and `extern "C"` are how C headers serve C++
    (POINT, "c"),
    (VIEW, "objective-c"),
    ("using namespace std;\nint f();\n", "cpp"),
    ("int f(std::string s);\n", "cpp"),
    ("#if __cplusplus >= 201703L\n#endif\n", "cpp"),
    ("#include <stdio.h>\nint main(void);\n", "c"),
    ("#import \"View.h\"\n", "objective-c"),
])
def test_the_text_of_a_header_says_its_language(text: str, language: str) -> None:
    assert written_in("include/x.h", text) == language
    assert written_in("include/X.H", text) == language
    assert written_in("src/x.c", text) is None  # its ending says


def test_the_code_index_parses_a_header_as_its_language() -> None:
    lines = TABLE.splitlines()
    assert language_of("include/table.h", None, lines) == "cpp"
    assert language_of("include/clib.h", None, CLIB.splitlines()) == "c"
    assert language_of("include/view.h", None, VIEW.splitlines()) == "c"  # no grammar of its own
    assert language_of("include/table.h") == "c"  # without its text: as its ending says
    assert language_of("include/table.h", {"h": "c"}, lines) == "c"  # mkdocs.yml first
    assert language_of("kernels/a.cuh", {"cuh": "cuda"}) == "cpp"  # a lexer by the grammar it needs
    assert language_of("notes/a.h", {"h": "text"}) is None  # no grammar reads it
    # a lexer of a Pygments plugin, which Pygments' own list does not hold: the ending says
    assert language_of("src/a.py", {"py": "acme-python"}) == "python"


def test_a_hunk_in_a_cpp_header_is_checked_as_cpp(code: tuple[Path, str]) -> None:
    """As C, the class and its method are parse errors and the header names no Table.put:
    the page was refused."""
    _, errors = check(code, "```proposal\nfile: include/table.h L10 · Table.put\n"
                            "@@ -10,1 +10,1 @@\n-    keys_.push_back(key);\n"
                            "+    keys_.emplace_back(key);\n```\n")
    assert errors == []


@pytest.mark.parametrize(("ref", "expected"), [
    ("[[table.h::Table.put]]", "#L9-L11"),
    ("[[table.h::Table::put]]", "#L9-L11"),  # as C++ writes it
    # defined out of its class, with template arguments; from its `template <...>` line
    ("[[table.h::Table::get]]", "#L18-L19"),
    ("[[table.h::Table.get]]", "#L18-L19"),
    ("[[table.h::Table]]", "#L6-L16"),
    ("[[clib.h::clib_twice]]", "#L9-L11"),
])
def test_symbols_of_headers_link_their_definitions(code: tuple[Path, str], ref: str,
                                                   expected: str) -> None:
    html, errors = check(code, f"See {ref}.\n")
    assert errors == []
    assert expected + '"' in html


def test_a_claim_counts_in_a_cpp_header(code: tuple[Path, str]) -> None:
    _, errors = check(code, "```claim\nsays: one push\ncount: 1\npattern: keys_.push_back($K)\n"
                            "in: include/table.h\n```\n")
    assert errors == []


def test_mkdocs_yml_says_what_language_a_header_is_in(code: tuple[Path, str]) -> None:
    _, errors = check(code, "See [[point.h::Point.norm]].\n")
    assert len(errors) == 1 and "unknown symbol 'Point.norm'" in errors[0]
    assert "the file does not parse as c (first at line 3)" in errors[0]
    html, errors = check(code, "See [[point.h::Point.norm]].\n", {"h": "cpp"})
    assert errors == []
    assert '#L3"' in html


def test_a_header_is_highlighted_as_its_language() -> None:
    def html(path: str, text: str, languages: dict[str, str] | None = None) -> str:
        return "\n".join(highlighted_lines(path, text.splitlines(), languages or {}))

    table = html("include/table.h", TABLE)
    assert table == html("include/table.hpp", TABLE)  # as a C++ file
    assert '<span class="k">template</span>' in table and '<span class="k">class</span>' in table
    assert html("include/clib.h", CLIB) == html("include/clib.c", CLIB)  # as a C file
    assert html("include/view.h", VIEW) == html("include/view.m", VIEW)  # as Objective-C
    assert html("include/table.h", TABLE, {"h": "c"}) == html("include/table.c", TABLE)


def test_a_hunk_of_a_cpp_header_is_highlighted_as_cpp(code: tuple[Path, str]) -> None:
    html, errors = check(code, "```proposal\nfile: include/table.h L6-L7 · Table\n"
                               "@@ -6,2 +6,2 @@\n template <typename K, typename V>\n"
                               "-class Table {\n+class [[nodiscard]] Table {\n```\n")
    assert errors == []
    assert '<span class="k">template</span>' in html


@pytest.mark.parametrize(("path", "text", "lexer"), [
    ("lib/Repo.pl", "use strict;\nmy $x = 1;\n", "Perl"),
    ("lib/facts.pl", "parent(tom, bob).\nancestor(X, Y) :- parent(X, Y).\n", "Prolog"),
    ("lib/plain.pl", "print 1;\n", "Perl"),  # no marks: the usual language of the ending
    ("t/basic.t", "ok(1);\n", "Perl"),  # a Perl test, not TADS 3
    ("src/fit.m", FIT, "Matlab"),
    ("src/View.m", "#import \"View.h\"\n@implementation View\n@end\n", "Objective-C"),
    ("R/model.r", "x <- c(1, 2)\n", "S"),  # R, not REBOL
    ("src/Main.fs", "let f x = x + 1\n", "F#"),  # F#, not Forth
    ("src/words.fs", ": square dup * ;\n", "Forth"),
])
def test_files_of_other_shared_endings_are_highlighted_as_their_text_says(
        path: str, text: str, lexer: str) -> None:
    from site_gen.highlight import lexing_for

    assert lexing_for(path, {}, None, text.splitlines()).lexer.name == lexer
    assert language_of(path, None, text.splitlines()) is None  # no grammar reads them


def test_cited_lines_are_highlighted_as_their_whole_file_says(code: tuple[Path, str]) -> None:
    """The line cited has no mark of MATLAB; the file it is in has."""
    html, errors = check(code, "See [[fit.m:3]].\n")
    assert errors == []
    assert '<span class="c">% squares</span>' in html


@pytest.mark.parametrize(("hunk", "symbol"), [
    ("file: include/table.h L12 · Table::get\n@@ -12,1 +12,1 @@\n-  V get(K key) const;\n"
     "+  V get(const K& key) const;\n", "a method declared in its class"),
    ("file: include/clib.h L7 · clib_add\n@@ -7,1 +7,1 @@\n-int clib_add(int a, int b);\n"
     "+long clib_add(long a, long b);\n", "a C prototype"),
])
def test_a_hunk_that_changes_a_declaration_names_what_it_declares(
        code: tuple[Path, str], hunk: str, symbol: str) -> None:
    """A declaration without a body declares its name: before, no definition held the
    line, and a hunk changing a prototype in a header was refused."""
    _, errors = check(code, f"```proposal\n{hunk}```\n")
    assert errors == [], symbol


def test_a_name_declared_and_defined_links_its_definition(code: tuple[Path, str]) -> None:
    """Table::get is declared in its class (L12) and defined after it (L18-L19): the
    reference links the definition, not 'ambiguous'; a name only declared links that."""
    html, errors = check(code, "[[table.h::Table::get]] [[clib.h::clib_add]]\n")
    assert errors == []
    assert '#L18-L19"' in html and '#L7"' in html


def test_keys_tags_and_values_of_data_and_markup_files_are_coloured() -> None:
    """A workflow's YAML, a JSON file, HTML, a markdown file and a patch showed as plain
    text: the styles gave YAML's and JSON's keys and HTML's tags (Name.Tag), HTML's
    attributes, YAML's values (Literal), markdown's headings and emphasis and a patch's
    lines (Generic) no colour, where GitHub colours each."""
    def html(path: str, *lines: str) -> list[str]:
        return [str(line) for line in highlighted_lines(path, list(lines), {})]

    assert html(".github/workflows/ci.yml", "name: Run Tests", "branches:", "  - master") == [
        '<span class="nt">name</span>: <span class="l">Run Tests</span>',  # one span a run
        '<span class="nt">branches</span>:', '  - <span class="l">master</span>']
    assert html("package.json", '{"key": "v"}') == [
        '{<span class="nt">"key"</span>: <span class="s2">"v"</span>}']
    assert html("a.html", '<a href="x">') == [
        '&lt;<span class="nt">a</span> <span class="na">href</span>=<span class="s">"x"</span>&gt;']
    # a markdown file's headings and emphasis, a patch's lines
    assert html("README.md", "# Title", "Some **strong** words") == [
        '<span class="gh"># Title</span>', 'Some <span class="gs">**strong**</span> words']
    assert html("fix.patch", "-x = 1", "+x = 2") == [
        '<span class="gd">-x = 1</span>', '<span class="gi">+x = 2</span>']
    from site_gen.css import token_rules
    from site_gen.pygments_styles import ReviewDark, ReviewLight

    for style, tag in ((ReviewLight, "#116329"), (ReviewDark, "#9cf5a5")):
        rules = token_rules(style, "x").splitlines()
        assert any("x .nt" in rule and rule.endswith(f"{{color:{tag}}}") for rule in rules)
        assert any("x .na," in rule for rule in rules)  # with the constants
        assert any("x .l," in rule and "x .s," in rule for rule in rules)  # with the strings


@pytest.mark.parametrize("name", ["go.mod", "go.sum", "go.work"])
def test_go_module_files_are_not_read_as_modula_2(name: str) -> None:
    """Pygments reads every '.mod' file as Modula-2: go.mod showed its versions as
    numbers and `module`, `go` and `require` as whatever Modula-2 made of them."""
    from site_gen.highlight import lexing_for

    assert lexing_for(f"src/{name}", {}).lexer.name == "Text only"
    assert [str(line) for line in highlighted_lines(name, ["go 1.24.0", "require ("], {})] == [
        "go 1.24.0", "require ("]
