"""The preview's warm builds: after every kind of change, the served folder holds exactly
the bytes of a clean build, and only what changed was read, rendered and written."""

from __future__ import annotations

import dataclasses
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks.sample import write_site
from site_gen import outputcheck
from site_gen.build import render_site
from site_gen.config import default_config, load_config
from site_gen.errors import BuildFailed, Problems
from site_gen.preview import Preview
from site_gen.question_pages import _Worker

from .conftest import Project, front, tree


def clean(project: Project) -> dict[str, bytes]:
    """What a clean build (no cache, no memory) makes of the project now."""
    config = dataclasses.replace(load_config(project.root / "mkdocs.yml"), drafts=True)
    outputs = render_site(config).outputs
    return {name: content.read_bytes() if isinstance(content, Path) else content.encode()
            for name, content in sorted(outputs.items())}


@pytest.fixture
def preview(project: Project) -> Preview:
    write_site(project.root, 30)
    return Preview(lambda: dataclasses.replace(load_config(project.root / "mkdocs.yml"),
                                               drafts=True), project.root / "served")


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The question pages rendered, by URL, as they are rendered."""
    seen: list[str] = []
    original = _Worker.render

    def render(self: _Worker, task: tuple[int, int]) -> object:
        seen.append(self.renderer.site.prs[task[0]].pages[task[1]].url)
        return original(self, task)

    monkeypatch.setattr(_Worker, "render", render)
    return seen


def step(project: Project, preview: Preview, rendered: list[str], *changed: Path,
         edit: Callable[[], None]) -> tuple[dict[str, bytes], list[str]]:
    before = tree(preview.folder)
    rendered.clear()
    edit()
    preview.build(set(changed))
    again = sorted(rendered)
    after = tree(preview.folder)
    assert after == clean(project)
    return {n: b for n, b in after.items() if before.get(n) != b}, again


def test_every_kind_of_change_gives_the_clean_build(project: Project, preview: Preview,
                                                   rendered: list[str]) -> None:
    content = project.root / "content"
    pages = sorted(content.rglob("p-*.md"))
    preview.build()
    assert tree(preview.folder) == clean(project)

    def url(page: Path) -> str:
        return page.relative_to(content).with_suffix("").as_posix() + "/"

    body = pages[4]
    changed, again = step(project, preview, rendered, body, edit=lambda: body.write_text(
        body.read_text().replace("The tag's value", "The tag's whole value", 1)))
    assert (sorted(changed), again, preview.written) == ([url(body) + "index.html"], [url(body)], 1)

    title = pages[7]
    changed, again = step(project, preview, rendered, title, edit=lambda: title.write_text(
        re.sub(r"question: question \d+", "question: renamed", title.read_text())))
    siblings = sorted(url(p) for p in pages if p.parent == title.parent)
    assert again == siblings  # its series line shows the title: the PR's pages again
    assert {url(title) + "index.html", "index.html", "feed.xml"} <= set(changed)

    status = pages[1]
    changed, _ = step(project, preview, rendered, status, edit=lambda: status.write_text(
        re.sub(r"status: \w+", "status: wontfix", status.read_text(), count=1)))
    assert "status/wontfix/index.html" in changed

    added = pages[0].parent / "p-new.md"
    changed, again = step(project, preview, rendered, added, edit=lambda: added.write_text(
        pages[0].read_text().replace("order: 1", "order: 9")))
    assert url(added) in again and url(added) + "index.html" in changed

    gone = pages[10]
    step(project, preview, rendered, gone, edit=gone.unlink)
    assert not (preview.folder / url(gone)).exists()

    new_pr = content / "acme/gears/3"

    def add_pr() -> None:  # a new folder: the watcher names the folder, or its files
        project.write("content/acme/gears/3/pr.yml", "repo: acme/gears\nnumber: 3\ntitle: G\n"
                      "head: abcdef0\nstate: open\ncode_unavailable: made up\n")
        project.write("content/acme/gears/3/q.md", front("T2", "q2", "wontfix") + "Text.\n")

    changed, again = step(project, preview, rendered, new_pr, new_pr / "q.md", edit=add_pr)
    assert again == ["acme/gears/3/q/"] and "acme/gears/3/index.html" in changed
    old_pr = pages[13].parent
    step(project, preview, rendered, old_pr, edit=lambda: shutil.rmtree(old_pr))
    assert not (preview.folder / old_pr.relative_to(content)).exists()

    pr_yml = pages[20].parent / "pr.yml"
    _, again = step(project, preview, rendered, pr_yml, edit=lambda: pr_yml.write_text(
        re.sub(r"title: .*", "title: A new PR title", pr_yml.read_text(), count=1)))
    assert again == sorted(url(p) for p in pages if p.parent == pr_yml.parent)

    figure = content / "org0/repo0/1/figure.png"
    step(project, preview, rendered, figure, edit=lambda: figure.write_bytes(b"\x89PNG one"))
    changed, again = step(project, preview, rendered, figure,
                          edit=lambda: figure.write_bytes(b"\x89PNG two!"))
    assert (list(changed), again) == (["org0/repo0/1/figure.png"], [])
    step(project, preview, rendered, figure, edit=figure.unlink)

    theme = project.root / "theme/blocks/badge.html"

    def retheme() -> None:
        project.write("theme/blocks/badge.html",
                      '{% macro badge(status, kind="badge") %}<span class="{{ kind }} '
                      'badge-custom">{{ status.label }}</span>\n{% endmacro %}\n')
        project.write("mkdocs.yml", (project.root / "mkdocs.yml").read_text()
                      + "theme:\n  custom_dir: theme\n")

    changed, _ = step(project, preview, rendered, theme, project.root / "mkdocs.yml",
                      edit=retheme)
    assert any(b"badge-custom" in html for html in changed.values())


def test_a_broken_save_keeps_the_last_site_and_the_fix_shows(project: Project, preview: Preview,
                                                           rendered: list[str]) -> None:
    preview.build()
    good = tree(preview.folder)
    page = sorted((project.root / "content").rglob("p-*.md"))[2]
    text = page.read_text()
    page.write_text(text.replace("status: ", "status: nonsense-", 1))
    with pytest.raises(BuildFailed):
        preview.build({page})
    assert tree(preview.folder) == good
    page.write_text(text.replace("The tag's value", "The tag's fixed value", 1))
    preview.build({page})
    assert tree(preview.folder) == clean(project)


def test_a_warm_output_check_looks_up_again_only_links_whose_answer_may_have_changed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A title edit changes the text of the pages that list every PR, not their links: a
    warm build reads those pages again but does not look each link up again, unless the
    page whose id a link names changed."""
    looked_up: list[str] = []
    answer = outputcheck._answer

    def counted(name: str, href: str, *args: object) -> outputcheck.Answer:
        looked_up.append(href)
        return answer(name, href, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(outputcheck, "_answer", counted)
    config, warm = default_config(), outputcheck.Checked()

    def check(outputs: dict[str, str]) -> list[str]:
        looked_up.clear()
        problems = Problems()
        outputcheck.check_outputs(config, dict(outputs), problems, {}, warm)
        return [e.message for e in problems.errors]

    listing = '<a href="../b/#why">why</a> <a href="../c/">c</a> <a href="#top">top</a>'
    outputs = {"a/index.html": f'<p id="top">{listing}</p>', "b/index.html": '<h2 id="why">W</h2>',
               "c/index.html": "<p>c</p>"}
    assert check(outputs) == [] and sorted(looked_up) == ["#top", "../b/#why", "../c/"]

    outputs["a/index.html"] = f'<p id="top">Renamed: {listing}</p>'  # a new text, the same links
    assert check(outputs) == [] and looked_up == ["#top"]  # '#top' names the page itself

    outputs["b/index.html"] = '<h2 id="how">H</h2>'  # the id the listing names is gone
    assert check(outputs) == ["the built page 'a/index.html' links to '../b/#why', and "
                              "'b/index.html' has no element with id 'why'; a link a template "
                              "or a block writes must name a file of the site"]
    assert looked_up == ["../b/#why"]
