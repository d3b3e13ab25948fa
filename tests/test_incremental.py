"""Incremental and parallel builds give exactly the bytes of a clean, serial build."""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks.sample import write_site
from site_gen.question_pages import PARALLEL_MIN, _Worker

from .conftest import Project, Run, front, tree
from .test_hostile import cache_rows

CLI = Callable[..., Run]


@pytest.fixture
def big(project: Project) -> Project:
    write_site(project.root, PARALLEL_MIN + 6)
    return project


def assert_same_as_clean(project: Project, cli: CLI, *flags: str) -> dict[str, bytes]:
    incremental = cli("build", "--jobs", "2", *flags)
    assert incremental.code == 0, incremental.err
    clean = cli("build", "--no-cache", "--jobs", "1", "--site-dir", "clean", *flags)
    assert clean.code == 0, clean.err
    built = tree(project.site)
    assert built == tree(project.root / "clean")
    return built


def test_parallel_build_equals_serial_build(big: Project, cli: CLI) -> None:
    assert_same_as_clean(big, cli, "--no-search", "--no-cache")


def test_rebuilds_after_every_kind_of_change_equal_clean_builds(big: Project, cli: CLI) -> None:
    content = big.root / "content"
    pages = sorted(content.rglob("p-*.md"))
    first = assert_same_as_clean(big, cli, "--no-search")
    again = cli("build", "--jobs", "2", "--no-search")
    assert again.out.startswith(f"{big.site} is up to date")

    page = pages[4]
    page.write_text(page.read_text().replace("The tag's value", "The tag's whole value", 1))
    edited = assert_same_as_clean(big, cli, "--no-search")
    changed = {name for name in edited if edited[name] != first.get(name)}
    url = page.relative_to(content).with_suffix("").as_posix() + "/index.html"
    assert changed == {url}

    retitled = pages[7]
    retitled.write_text(re.sub(r"question: question \d+", "question: renamed",
                               retitled.read_text()))
    renamed = assert_same_as_clean(big, cli, "--no-search")
    sibling_changes = {name for name in renamed if renamed[name] != edited.get(name)}
    assert len(sibling_changes) >= 4  # the page, its series neighbours, the PR page, feeds

    added = pages[0].parent / "p-new.md"
    added.write_text(pages[0].read_text().replace("order: 1", "order: 9"))
    assert "p-new/index.html" in " ".join(assert_same_as_clean(big, cli, "--no-search"))

    pages[10].unlink()
    after_delete = assert_same_as_clean(big, cli, "--no-search")
    assert not any(name.startswith(pages[10].relative_to(content).with_suffix("").as_posix())
                   for name in after_delete)

    big.write("templates/blocks/badge.html",
              '{% macro badge(status, kind="badge") %}'
              '<span class="{{ kind }} badge-custom tone-{{ status.tone }}">{{ status.label }}</span>\n'
              '{% endmacro %}\n')
    big.write("mkdocs.yml", (big.root / "mkdocs.yml").read_text() + "theme:\n  custom_dir: templates\n")
    themed = assert_same_as_clean(big, cli, "--no-search")
    assert all(b"badge-custom" in html for name, html in themed.items()
               if name.endswith("index.html") and "/p-" in name)


def test_search_index_is_the_same_for_incremental_and_clean_builds(big: Project, cli: CLI) -> None:
    assert_same_as_clean(big, cli)
    page = sorted((big.root / "content").rglob("p-*.md"))[3]
    page.write_text(page.read_text() + "\nA new sentence about zebras.\n")
    built = assert_same_as_clean(big, cli)
    assert any(name.startswith("pagefind/") for name in built)


def test_a_new_page_changes_only_the_pages_that_show_it(project: Project, cli: CLI) -> None:
    """A page with a status no page had before adds its status page and changes its PR page
    (here a new PR: none), the home page, the feed and the sitemap; no other page."""
    first = assert_same_as_clean(project, cli, "--no-search")
    project.write("content/acme/gears/3/pr.yml", "repo: acme/gears\nnumber: 3\ntitle: G\n"
                  "head: abcdef0\nstate: open\ncode_unavailable: made up\n")
    project.write("content/acme/gears/3/q.md",
                  front("T2", "q2", "wontfix") + "Text.\n")
    second = assert_same_as_clean(project, cli, "--no-search")
    changed = sorted(name for name in second if first.get(name) != second[name])
    assert changed == ["acme/gears/3/index.html", "acme/gears/3/q/index.html", "feed.xml",
                       "index.html", "sitemap.xml", "status/wontfix/index.html"]


def test_a_build_into_another_folder_keeps_the_page_cache(project: Project, cli: CLI,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A preview, a --site-dir or a strict build renders nothing the normal build has cached,
    and prunes none of it."""
    assert cli("build", "--no-search").code == 0
    entries = cache_rows(project)
    assert entries  # the page, and the other pages and their parts
    rendered: list[str] = []
    original = _Worker.render
    monkeypatch.setattr(_Worker, "render",
                        lambda self, task: rendered.append(str(task)) or original(self, task))
    for flags in (["--site-dir", "elsewhere"], ["--site-dir", "strict", "--strict"]):
        result = cli("build", "--no-search", *flags)
        assert result.code == 0, result.err
        assert rendered == []
        assert cache_rows(project) == entries
    project.write("content/acme/widgets/12/cache-bug.md",
                  (project.root / "content/acme/widgets/12/cache-bug.md").read_text() + "More.\n")
    assert cli("build", "--no-search").code == 0
    assert len(rendered) == 1


def test_a_rebuild_reads_only_the_folders_whose_files_changed(big: Project, cli: CLI,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """What a PR folder gave (its PR, its errors and warnings) is kept in the page cache by
    the folder's content: a rebuild parses only folders whose files changed, and shows the
    kept problems as the first build did."""
    from site_gen import content

    page = sorted((big.root / "content").rglob("p-*.md"))[5]
    page.write_text(page.read_text() + "\n⟨a placeholder⟩\n")  # a warning, kept with its folder
    first = cli("build", "--no-search")
    assert first.code == 0 and "placeholder" in first.err
    read: list[str] = []
    original = content._read_pr
    monkeypatch.setattr(content, "_read_pr", lambda config, folder, *rest: read.append(
        folder.name) or original(config, folder, *rest))
    page.write_text(page.read_text().replace("⟨a placeholder⟩", "⟨another⟩"))
    again = cli("build", "--no-search")
    assert (again.code, read) == (0, [page.parent.name])
    assert again.err == first.err.replace("⟨a placeholder⟩", "⟨another⟩")
    assert_same_as_clean(big, cli, "--no-search")


def test_a_pr_read_back_from_the_cache_is_not_made_into_text_again(
        big: Project, cli: CLI, monkeypatch: pytest.MonkeyPatch) -> None:
    """A PR folder's entry keeps the PR's digest (what every cache key holding the PR is
    made from): a rebuild digests only the PRs it read from their files, and keys each
    page as a build that read them all does (the same pages taken from the cache)."""
    from site_gen.content import PullRequest

    page = sorted((big.root / "content").rglob("p-*.md"))[5]
    assert cli("build", "--no-search").code == 0
    texts: list[str] = []
    original = PullRequest.__repr__
    monkeypatch.setattr(PullRequest, "__repr__", lambda pr: texts.append(pr.path.parent.name)
                        or original(pr))
    page.write_text(page.read_text() + "\nAn edit.\n")
    again = cli("build", "--no-search", "-v")
    assert again.code == 0, again.err
    assert set(texts) == {page.parent.name}
    pages = sum(1 for _ in (big.root / "content").rglob("*.md"))
    assert f"{pages} in all, {pages - 1} kept from the last build, 1 to render" in again.err
    assert_same_as_clean(big, cli, "--no-search")


def test_an_edit_indexes_again_only_the_part_of_the_index_it_is_in(
        big: Project, cli: CLI, monkeypatch: pytest.MonkeyPatch) -> None:
    """The search index comes in parts: an edited page's part is indexed again, the others
    are taken from the last build; the site is the clean build's, bytes and all."""
    from site_gen import search

    monkeypatch.setattr(search, "PART_PAGES", 8)
    indexed: list[str] = []
    original = search._pagefind
    monkeypatch.setattr(search, "_pagefind", lambda name, pages, folder: indexed.append(
        name) or original(name, pages, folder))
    first = assert_same_as_clean(big, cli)
    parts = json.loads(first["pagefind/parts.json"])["parts"]
    assert len(parts) > 2
    indexed.clear()
    page = sorted((big.root / "content").rglob("p-*.md"))[3]
    page.write_text(page.read_text() + "\nA sentence about zebras.\n")
    incremental = cli("build", "--jobs", "2")
    assert incremental.code == 0, incremental.err
    assert len(indexed) == 1  # this build's; the clean build below indexes every part
    clean = cli("build", "--no-cache", "--site-dir", "clean")
    assert clean.code == 0 and tree(big.site) == tree(big.root / "clean")


def test_a_page_the_site_holds_as_it_is_is_not_read_back(big: Project, cli: CLI,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-edit rebuild reads the HTML of no kept page: the shown site holds each byte for
    byte (its digest is in the cache entry, bound to the key), so its file is linked into
    the new copy. A link to a #fragment of a kept page still checks against its HTML, and
    HTML changed in the cache is never published."""
    from site_gen import build as build_module
    from site_gen.output import Kept

    pages = sorted((big.root / "content").rglob("p-*.md"))
    linking = pages[0]
    target = pages[1]
    anchor = re.search(r"^## (.+)$", target.read_text(), re.M)
    assert anchor, "the sample page has a heading"
    fragment = re.sub(r"[^a-z0-9]+", "-", anchor[1].lower()).strip("-")
    linking.write_text(linking.read_text() + f"\nSee [the other]({target.name}#{fragment}).\n")
    assert cli("build", "--no-search").code == 0
    seen: dict[str, object] = {}
    original = build_module.render_site
    monkeypatch.setattr(build_module, "render_site", lambda *a, **k: seen.setdefault(
        "site", original(*a, **k)))
    with contextlib.closing(sqlite3.connect(big.root / ".cache/site-gen/pages.sqlite")) as db:
        db.execute("UPDATE pages SET text = text || '<script>alert(1)</script>'")
        db.commit()
    edited = pages[5]
    edited.write_text(edited.read_text() + "\nOne more sentence.\n")
    built = assert_same_as_clean(big, cli, "--no-search")
    outputs = seen["site"].outputs  # type: ignore[attr-defined]
    kept = [name for name, content in outputs.items() if isinstance(content, Kept)]
    question_pages = [_url(big, path) for path in (big.root / "content").rglob("*.md")]
    assert len(question_pages) == len(pages) + 1  # and the project's own page
    assert sorted(name for name in kept if name in question_pages) == sorted(
        set(question_pages) - {_url(big, edited), _url(big, target)})
    # the PR pages the edit does not touch are kept the same way (not read, not checked)
    assert any(name.count("/") == 3 and name.endswith("/index.html") and name not in question_pages
               for name in kept)
    assert isinstance(outputs[_url(big, edited)], str)  # rendered again
    assert isinstance(outputs[_url(big, target)], str)  # read: a link names its #fragment
    assert not any(b"alert(1)" in data for data in built.values())


def _url(project: Project, page: object) -> str:
    return Path(str(page)).relative_to(project.root / "content").with_suffix("").as_posix() + "/index.html"


def test_a_page_is_kept_under_what_its_template_receives_is_made_from(big: Project) -> None:
    """A page's cache key holds what its template's values are made from (the settings,
    its PR, its place in it, the PR's code check) and its text, not the values themselves:
    wherever two builds give a page the same key, its template gets the same values."""
    from site_gen.config import Config, load_config, output_settings
    from site_gen.content import discover
    from site_gen.errors import Problems
    from site_gen.question_pages import all_tasks
    from site_gen.render import Renderer
    from site_gen.reuse import Reuse

    def keyed() -> dict[Path, tuple[str, dict[str, object]]]:
        config = load_config(big.root / "mkdocs.yml")
        renderer = Renderer(config, discover(config, Problems()))
        reuse, reprs = Reuse("fingerprint"), {}
        found = {}
        for task in all_tasks(renderer.site):
            pr = renderer.site.prs[task[0]]
            context = renderer.page_context(pr, task[1])
            found[pr.pages[task[1]].path] = (reuse._page_key(renderer, task, reprs), {
                name: output_settings(value) if isinstance(value, Config) else value
                for name, value in context.items() if not callable(value)})
        return found

    before = keyed()
    pages = sorted((big.root / "content").rglob("p-*.md"))
    retitled, edited = pages[4], pages[9]
    retitled.write_text(re.sub(r"question: question \d+", "question: renamed", retitled.read_text()))
    edited.write_text(edited.read_text() + "\nOne more sentence.\n")
    after = keyed()
    same = [path for path in before if before[path][0] == after[path][0]]
    assert same and all(before[path][1] == after[path][1] for path in same)
    changed = {path for path in before if path not in same}
    assert {retitled, edited} <= changed  # and the retitled page's siblings, which list it
    assert {p for p in changed if p.parent == retitled.parent} == \
        {p for p in pages if p.parent == retitled.parent}
