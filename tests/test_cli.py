"""The command line: exit codes, messages, and an untouched site when a build fails."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable

import pytest

from .conftest import Project, Run, front, tree

CLI = Callable[..., Run]


def test_build_writes_the_site(project: Project, cli: CLI) -> None:
    result = cli("build")
    assert result.code == 0, result.err
    assert re.fullmatch(r"Built 6 pages \(11 files\) into \S+/site in \d+\.\d\d s; 0 warning\(s\)\.\n",
                        result.out)
    files = [f for f in tree(project.site) if not f.startswith("pagefind/")]
    assert (project.root / ".site.site-gen").is_file()  # the record sits beside, unpublished
    assert sorted(files) == [
        "404.html", "acme/widgets/12/cache-bug/index.html",
        "acme/widgets/12/index.html", "assets/copy.js", "assets/search.js", "assets/site.css", "feed.xml",
        "index.html", "search/index.html", "sitemap.xml", "status/unresolved/index.html"]
    assert (project.site / "pagefind/pagefind.js").is_file()
    page = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    assert ('href="https://github.com/acme/widgets/blob/1234567abcdef/src/widgets/core.py#L10"'
            in page)
    assert 'href="../../../../assets/site.css"' in page


def test_usage_error_exits_2(project: Project, cli: CLI) -> None:
    assert cli("publish").code == 2
    assert cli("build", "--no-such-flag").code == 2


@pytest.mark.parametrize(("path", "text", "message"), [
    ("mkdocs.yml", "site_name: [R\n",
     "mkdocs.yml:2: invalid YAML: did not find expected ',' or ']'"),
    ("content/acme/widgets/12/cache-bug.md", "---\ntitle: [T\n---\n",
     "content/acme/widgets/12/cache-bug.md:3: invalid YAML: did not find expected ',' or ']'"),
    ("content/acme/widgets/12/cache-bug.md", front("T", "q", "done"),
     "content/acme/widgets/12/cache-bug.md:4: unknown status 'done'; expected one of: "
     "unresolved (or open), fixed, proposed, wontfix"),
])
def test_broken_input_leaves_the_site_untouched(project: Project, cli: CLI, path: str,
                                                text: str, message: str) -> None:
    assert cli("build").code == 0
    before = project.snapshot_site()
    project.write(path, text)
    result = cli("build")
    assert result.code == 1
    assert result.err.splitlines() == [
        message, "Build failed: 1 error(s); 0 warning(s). The site was not changed."]
    assert project.snapshot_site() == before


def test_unknown_key_warns_and_fails_under_strict(project: Project, cli: CLI) -> None:
    assert cli("build").code == 0
    before = project.snapshot_site()
    project.write("mkdocs.yml", "site_name: R\nsite_url: https://x.org/\ndocs_dir: content\n"
                  "site_nmae: typo\n")
    warned = cli("build")
    assert warned.code == 0
    assert warned.err.startswith("warning: mkdocs.yml:4: unknown setting 'site_nmae'; did you "
                                 "mean 'site_name'? expected one of: copyright, docs_dir,")
    before = project.snapshot_site()
    project.write("content/acme/widgets/12/cache-bug.md", PAGE_EDITED)
    strict = cli("build", "--strict")
    assert strict.code == 1
    assert strict.err.splitlines()[1:] == [
        "Build stopped: 1 warning in strict mode. The site was not changed."]
    assert project.snapshot_site() == before


PAGE_EDITED = front("Edited", "q", "open") + "Changed.\n"


def test_every_error_of_a_build_in_one_run(project: Project, cli: CLI) -> None:
    project.write("content/acme/widgets/12/cache-bug.md",
                  "---\n{title: T, order: 1, updated: 2026-01-05,\n question: q,\n status: open}\n---\n"
                  "See [[nope.py:1]] and [[core.py:0-3]].\n")
    project.write("content/acme/widgets/12/two.md", "---\ntitle: T\nquestion: q\nstatus: x\n"
                  "order: 2\nupdated: 2026-01-05\n---\n")
    result = cli("build")
    assert result.code == 1
    assert result.err.splitlines() == [
        "content/acme/widgets/12/cache-bug.md:6: unknown file 'nope.py' in '[[nope.py:1]]'; it "
        "is not among the files listed in pr.yml (nearest by name: src/widgets/core.py, "
        "src/widgets/util.py, docs/speed.md)",
        "content/acme/widgets/12/cache-bug.md:6: line 0 in '[[core.py:0-3]]' does not exist; "
        "expected a line number from 1, as GitHub numbers them",
        "content/acme/widgets/12/two.md:4: unknown status 'x'; expected one of: unresolved (or open), fixed, "
        "proposed, wontfix",
        "Build failed: 3 error(s); 0 warning(s). The site was not changed.",
    ]
    assert not project.site.exists()


def test_site_dir_flag_and_refusals(project: Project, cli: CLI) -> None:
    assert cli("build", "--site-dir", "public").code == 0
    assert (project.root / "public/index.html").exists()
    (project.root / "mine").mkdir()
    (project.root / "mine/notes.txt").write_text("keep me")
    result = cli("build", "--site-dir", "mine")
    assert result.code == 1
    assert result.err.splitlines()[0] == (
        "mkdocs.yml: site_dir 'mine' exists and was not made by site_gen; expected an empty or "
        "new folder (remove it, or choose another site_dir)")
    assert (project.root / "mine/notes.txt").read_text() == "keep me"
    result = cli("build", "--site-dir", ".")
    assert result.err.splitlines()[0] == (
        "mkdocs.yml: site_dir '.' would replace the project folder; expected a folder of its "
        "own, like 'site'")


def test_module_entry_point_and_no_traceback(project: Project) -> None:
    project.write("mkdocs.yml", "site_name: R\ndocs_dir: content\nstrict: 3\n")
    done = subprocess.run([sys.executable, "-m", "site_gen", "build"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[0] == "mkdocs.yml:3: 'strict' must be true or false, found 3"


def test_an_up_to_date_build_repeats_each_warning_once(project: Project, cli: CLI) -> None:
    project.write("mkdocs.yml", "site_name: R\nsite_url: https://x.org/\ndocs_dir: content\n"
                  "typo_key: 1\n")
    project.write("content/acme/widgets/12/cache-bug.md",
                  front("T", "q", "open") + "[x](https://github.com/a/b/blob/main/c.py)\n")
    first = cli("build", "--no-search")
    second = cli("build", "--no-search")
    assert second.out.startswith(f"{project.site} is up to date")
    assert second.err == first.err
    assert len(second.err.splitlines()) == 2


def test_no_cache_renders_every_page_again_and_says_so(project: Project, cli: CLI) -> None:
    assert cli("build", "--no-search").code == 0
    again = cli("build", "--no-search", "--no-cache", "-v")
    assert again.code == 0
    assert re.fullmatch(rf"Built 6 pages into {re.escape(str(project.site))} in \d+\.\d\d s: every "
                        r"file was already as built, nothing written; 0 warning\(s\)\.\n", again.out)
    assert again.err.splitlines() == [
        "Rendering every page (--no-cache)",
        "Read 1 pull request(s) and 1 page(s) from content",
        "Question pages: 1 in all, 0 kept from the last build, 1 to render",
        "Every file was already as built: site was left as it was"]


def test_verbose_says_what_each_stage_did_and_the_default_does_not(project: Project,
                                                                   cli: CLI) -> None:
    plain = cli("build", "--no-search")
    assert plain.err == ""
    page = project.root / "content/acme/widgets/12/cache-bug.md"
    page.write_text(page.read_text() + "\nMore.\n")
    verbose = cli("build", "--no-search", "-v")
    assert verbose.err.splitlines() == [
        "The inputs changed since the last build: rendering what they changed",
        "Read 1 pull request(s) and 1 page(s) from content",
        "Question pages: 1 in all, 0 kept from the last build, 1 to render",
        "Wrote the files that changed into the copy not shown, and switched site to it"]
    same = cli("build", "--no-search", "-v")
    assert same.err.splitlines() == [
        "Nothing changed since the last build (settings, templates, content, code and "
        "site_gen itself): nothing to render"]
    assert same.out.startswith(f"{project.site} is up to date")


@pytest.mark.parametrize(("template", "message"), [
    ("{% extends 'base.html' %}\n{% block main %}\n{% if %}\n{% endblock %}\n",
     "templates/home.html:3: template syntax error: Expected an expression, got 'end of "
     "statement block'"),
    ("{% extends 'base.html' %}\n{% block main %}\n<p>\n{{ no_such_name.title }}\n</p>\n"
     "{% endblock %}\n",
     "templates/home.html:4: template error: 'no_such_name' is undefined"),
])
def test_a_broken_template_is_an_error_at_its_line(project: Project, cli: CLI, template: str,
                                                   message: str) -> None:
    assert cli("build").code == 0
    before = project.snapshot_site()
    project.write("mkdocs.yml", (project.root / "mkdocs.yml").read_text()
                  + "theme:\n  custom_dir: templates\n")
    project.write("templates/home.html", template)
    result = cli("build")
    assert (result.code, result.err) == (1, message + "\n")
    assert project.snapshot_site() == before


def test_a_broken_block_template_names_its_file(project: Project, cli: CLI) -> None:
    project.write("mkdocs.yml", (project.root / "mkdocs.yml").read_text()
                  + "theme:\n  custom_dir: templates\n")
    project.write("templates/blocks/ref.html",
                  "{% macro code_ref(ref, inner) %}\n{{ ref.nope() }}\n{% endmacro %}\n")
    result = cli("build")
    assert result.code == 1
    assert result.err.startswith("templates/blocks/ref.html:2: template error: ")


@pytest.mark.parametrize(("link", "problem"), [
    ("{{ url('acme/widgets/99/') }}", "links to '../../acme/widgets/99/', which is not a file of "
                                      "the site"),
    ("{{ url('acme/widgets/12/') }}#no-such-id", "links to '../../acme/widgets/12/#no-such-id', "
                                                 "and 'acme/widgets/12/index.html' has no "
                                                 "element with id 'no-such-id'"),
    ("/elsewhere/", "links to '/elsewhere/', which is not a file of the site"),
])
def test_a_template_link_to_nothing_fails_the_build_naming_the_page(
        project: Project, cli: CLI, link: str, problem: str) -> None:
    assert cli("build", "--no-search").code == 0
    before = project.snapshot_site()
    project.write("mkdocs.yml", (project.root / "mkdocs.yml").read_text()
                  + "theme:\n  custom_dir: templates\n")
    project.write("templates/status.html", "{% extends 'base.html' %}\n{% block main %}\n"
                  f'<a href="{link}">more</a>\n{{% endblock %}}\n')
    result = cli("build", "--no-search")
    assert result.code == 1
    assert result.err.splitlines()[0] == (
        f"templates: the built page 'status/unresolved/index.html' {problem}; a link a "
        "template or a block writes must name a file of the site")
    assert project.snapshot_site() == before
