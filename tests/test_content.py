"""The content model: PR facts, front matter, positions, and the exact messages for bad input."""

from __future__ import annotations

import datetime as dt

from site_gen.config import load_config
from site_gen.content import discover
from site_gen.errors import Problems, sort_key

from .conftest import Project, front

PAGE_CRLF = (b"---\r\ntitle: T\r\nquestion: q\r\nstatus: open\r\norder: 1\r\n"
             b"updated: 2026-01-05\r\n---\r\nbody\r\n")


def read(project: Project) -> tuple[object, list[str]]:
    problems = Problems()
    site = discover(load_config(project.root / "mkdocs.yml"), problems)
    return site, [str(e) for e in sorted(problems.errors, key=sort_key)]


def test_reads_pr_and_page(project: Project) -> None:
    site, errors = read(project)
    assert errors == []
    (pr,) = site.prs  # type: ignore[attr-defined]
    assert (pr.repo, pr.number, pr.title, pr.head, pr.state.key) == (
        "acme/widgets", 12, "Make widgets faster", "1234567abcdef", "open")
    assert pr.files == ("src/widgets/core.py", "src/widgets/util.py", "docs/speed.md")
    (page,) = pr.pages
    assert page.slug == "cache-bug"
    assert page.url == "acme/widgets/12/cache-bug/"
    assert (page.title, page.question, page.order, page.status.key) == (
        "Why the cache never hits", "the cache bug", 1, "unresolved")  # status: open reads so
    assert page.updated == dt.date(2026, 1, 5)
    assert (page.summary.before, page.summary.this_pr, page.summary.status) == (
        "No cache.", "Adds a cache.", "Still open.")
    assert page.body_line == 12
    assert page.body.startswith("\nThe key is built")
    assert page.path == project.root / "content/acme/widgets/12/cache-bug.md"


def test_a_file_pr_yml_lists_twice_is_one_file(project: Project, cli) -> None:  # type: ignore[no-untyped-def]
    """A path added to `files:` that `site-gen new` had listed already: a reference by its
    tail was 'ambiguous ... it matches src/widgets/core.py, src/widgets/core.py'."""
    facts = project.root / "content/acme/widgets/12/pr.yml"
    facts.write_text(facts.read_text() + "  - src/widgets/core.py/\n")
    site, errors = read(project)
    assert errors == []
    assert site.prs[0].files == ("src/widgets/core.py", "src/widgets/util.py", "docs/speed.md")  # type: ignore[attr-defined]
    built = cli("build", "--no-search")
    assert built.code == 0 and "ambiguous" not in built.err, built.err


def test_pages_are_ordered_by_order_then_slug(project: Project) -> None:
    for slug, order in (("zeta", 0), ("alpha", 2), ("beta", 2)):
        project.write(f"content/acme/widgets/12/{slug}.md",
                      f"---\ntitle: T\nquestion: q {slug}\nstatus: fixed\norder: {order}\n"
                      "updated: 2026-01-05\n---\n")
    project.write("content/acme/widgets/12/alpha.md",
                  "---\n{title: T, order: 3, updated: 2026-01-05,\n question: q,\n status: fixed}\n\n---\n")
    site, errors = read(project)
    assert errors == []
    assert [p.slug for p in site.prs[0].pages] == ["zeta", "cache-bug", "beta", "alpha"]  # type: ignore[attr-defined]


def test_front_matter_errors_carry_file_lines(project: Project) -> None:
    project.write("content/acme/widgets/12/cache-bug.md", """\
        ---
        title: T
        question: [not, text]
        status: opne
        order: first
        updated: soon
        colour: red
        ---
        body
        """)
    _, errors = read(project)
    assert errors == [
        "content/acme/widgets/12/cache-bug.md:3: 'question' must be text, found a list",
        "content/acme/widgets/12/cache-bug.md:4: unknown status 'opne'; did you mean 'open'? "
        "expected one of: unresolved (or open), fixed, proposed, wontfix",
        "content/acme/widgets/12/cache-bug.md:5: 'order' must be a whole number, found 'first'",
        "content/acme/widgets/12/cache-bug.md:6: 'updated' must be a date like 2026-01-31, "
        "found 'soon'",
        "content/acme/widgets/12/cache-bug.md:7: unknown field 'colour' in front matter; "
        "expected one of: draft, order, question, status, summary, title, updated",
    ]


def test_missing_and_unclosed_front_matter(project: Project) -> None:
    project.write("content/acme/widgets/12/cache-bug.md", "# No front matter\n")
    project.write("content/acme/widgets/12/other.md", "---\ntitle: T\n")
    _, errors = read(project)
    assert errors == [
        "content/acme/widgets/12/cache-bug.md:1: missing front matter; expected the page to "
        "start with a '---' line, its fields, and another '---' line",
        "content/acme/widgets/12/other.md:1: front matter is not closed; expected a '---' line "
        "after its fields",
    ]


def test_broken_front_matter_yaml(project: Project) -> None:
    project.write("content/acme/widgets/12/cache-bug.md",
                  "---\ntitle: T\nquestion: q\nstatus: [open\n---\n")
    _, errors = read(project)
    assert errors == ["content/acme/widgets/12/cache-bug.md:5: invalid YAML: did not find "
                      "expected ',' or ']'"]


def test_pr_facts_errors(project: Project) -> None:
    project.write("content/acme/widgets/12/pr.yml", """\
        repo: acme
        number: twelve
        head: main
        state: shipped
        owner: me
        """)
    _, errors = read(project)
    assert errors == [
        "content/acme/widgets/12/pr.yml:1: pr.yml needs 'title'",
        "content/acme/widgets/12/pr.yml:1: 'repo' must be 'owner/name', found 'acme'",
        "content/acme/widgets/12/pr.yml:2: 'number' must be a positive whole number, "
        "found 'twelve'",
        "content/acme/widgets/12/pr.yml:3: 'head' must be a commit SHA (7 to 40 hex digits), "
        "found 'main'; a branch or tag name would drift",
        "content/acme/widgets/12/pr.yml:4: unknown PR state 'shipped'; expected one of: "
        "open, draft, merged, closed",
        "content/acme/widgets/12/pr.yml:5: unknown field 'owner' in pr.yml; expected one of: "
        "base, code_unavailable, files, head, history, number, repo, state, title",
    ]


def test_pr_folder_must_match_its_facts(project: Project) -> None:
    project.write("content/acme/widgets/12/pr.yml", "repo: acme/widgets\nnumber: 13\n"
                  "title: T\nhead: abcdef0\nstate: open\n")
    _, errors = read(project)
    assert errors == ["content/acme/widgets/12/pr.yml:1: acme/widgets#13 belongs in the folder "
                      "'acme/widgets/13', found 'acme/widgets/12'"]


def test_page_outside_a_pr_and_bad_file_names(project: Project) -> None:
    project.write("content/stray.md", "---\n---\n")
    project.write("content/acme/widgets/12/Bad Name.md",
                  "---\n{title: T, order: 2, updated: 2026-01-05,\n question: q,\n status: open}\n\n---\n")
    _, errors = read(project)
    assert errors == [
        "content/acme/widgets/12/Bad Name.md: page file name 'Bad Name.md' must be lower-case "
        "letters, digits and '-', ending in .md (it becomes the URL)",
        "content/stray.md: page outside a pull request folder; expected it beside a pr.yml",
    ]


def test_duplicate_order(project: Project) -> None:
    project.write("content/acme/widgets/12/second.md",
                  "---\n{title: T, order: 1, updated: 2026-01-05,\n question: q,\n status: open}\n\n---\n")
    _, errors = read(project)
    assert errors == ["content/acme/widgets/12/second.md:1: order 1 is also used by cache-bug.md"]


def test_bom_crlf_and_non_utf8(project: Project) -> None:
    page = project.root / "content/acme/widgets/12/cache-bug.md"
    page.write_bytes(b"\xef\xbb\xbf" + PAGE_CRLF)
    site, errors = read(project)
    assert errors == []
    assert site.prs[0].pages[0].title == "T"  # type: ignore[attr-defined]
    page.write_bytes(b"---\ntitle: caf\xe9\n---\n")
    _, errors = read(project)
    assert errors == ["content/acme/widgets/12/cache-bug.md:2: not valid UTF-8 (byte 0xe9); "
                      "expected a UTF-8 text file"]





def test_nav_orders_prs_and_must_name_real_folders(project: Project) -> None:
    project.write("content/acme/gears/3/pr.yml",
                  "repo: acme/gears\nnumber: 3\ntitle: G\nhead: abcdef0\nstate: merged\n")
    project.write("content/acme/gears/3/q.md", front("T", "q", "fixed"))
    site, errors = read(project)
    assert [pr.key for pr in site.prs] == ["acme/gears/3", "acme/widgets/12"]  # type: ignore[attr-defined]
    project.write("mkdocs.yml", "site_name: R\ndocs_dir: content\n"
                  "nav: [acme/widgets/12, acme/gears/3, acme/nope/1]\n")
    site, errors = read(project)
    assert [pr.key for pr in site.prs] == ["acme/widgets/12", "acme/gears/3"]  # type: ignore[attr-defined]
    assert errors == ["mkdocs.yml:3: 'nav' names 'acme/nope/1', which is not a pull request "
                      "folder; expected one of: acme/gears/3, acme/widgets/12"]
