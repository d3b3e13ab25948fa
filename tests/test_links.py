"""Links and images in markdown: script URLs refused, relative links kept inside the site."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .blockutil import render
from .conftest import Project, Run, front

CLI = Callable[..., Run]


@pytest.mark.parametrize(("markdown", "message"), [
    ("[x](javascript:alert(1))", "link to 'javascript:alert(1)' is refused: javascript: URLs"),
    ("[x](JaVaScRiPt:alert(1))", "link to 'JaVaScRiPt:alert(1)' is refused: javascript: URLs"),
    ("[x](java\tscript:alert(1))", None),
    ("<vbscript:msgbox>", "link to 'vbscript:msgbox' is refused: vbscript: URLs"),
    ("![x](data:image/png;base64,AAAA)", "image to 'data:image/png;base64,AAAA' is refused: "
                                         "data: URLs"),
    ("[x](data:text/html,<script>alert(1)</script>)", None),
    ("[x](file:///etc/passwd)", "link to 'file:///etc/passwd' is refused: file: URLs"),
])
def test_script_and_data_urls_are_refused(markdown: str, message: str | None) -> None:
    html, errors, _ = render(markdown + "\n")
    for attr in ('href="', 'src="'):
        for scheme in ("javascript", "java\tscript", "vbscript", "data", "file"):
            assert attr + scheme not in html.lower()
    if message:
        assert errors == [f"1: {message} can run code or hide content; expected an https:// "
                          "address or a file of the site"]


def test_relative_links_are_rewritten_from_file_to_url(project: Project, cli: CLI) -> None:
    project.write("content/acme/widgets/12/other.md",
                  front("T", "q2", "open", 2) + "\n## Why\n")
    (project.root / "content/acme/widgets/12/diagram.png").write_bytes(b"\x89PNG")
    project.write("content/acme/widgets/12/cache-bug.md",
                  "---\n{title: T, order: 1, updated: 2026-01-05,\n question: q,\n status: open}\n---\n"
                  "[other](other.md#why) ![d](diagram.png) [up](../../widgets/12/other.md)\n")
    result = cli("build")
    assert result.code == 0, result.err
    html = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    assert '<a href="../other/#why">other</a>' in html
    assert '<img src="../diagram.png" alt="d" />' in html
    assert '<a href="../other/">up</a>' in html
    assert (project.site / "acme/widgets/12/diagram.png").read_bytes() == b"\x89PNG"


def test_links_that_climb_out_or_point_at_nothing(project: Project, cli: CLI) -> None:
    project.write("content/acme/widgets/12/cache-bug.md",
                  "---\n{title: T, order: 1, updated: 2026-01-05,\n question: q,\n status: open}\n---\n"
                  "[secret](../../../../../etc/passwd)\n\n[gone](missing.md)\n")
    result = cli("build")
    assert result.code == 1
    assert result.err.splitlines() == [
        "content/acme/widgets/12/cache-bug.md:6: link to '../../../../../etc/passwd' climbs out "
        "of docs_dir; expected a file inside it",
        "content/acme/widgets/12/cache-bug.md:8: link to 'missing.md' points at "
        "nothing: there is no 'acme/widgets/12/missing.md' in docs_dir",
        "Build failed: 2 error(s); 0 warning(s). The site was not changed.",
    ]


def test_a_link_to_a_page_address_says_which_file_to_link(project: Project, cli: CLI) -> None:
    project.write("content/acme/widgets/12/other.md",
                  front("T", "q2", "open", 2) + "\nText.\n")
    project.write("content/acme/widgets/12/cache-bug.md",
                  front("T", "q", "open") + "[o](../other/) [n](../none/)\n")
    result = cli("build", "--no-search")
    assert result.err.splitlines()[:2] == [
        "content/acme/widgets/12/cache-bug.md:6: link to '../other/' points at nothing: there is "
        "no 'acme/widgets/other' in docs_dir; link the page's file instead: 'other.md'",
        "content/acme/widgets/12/cache-bug.md:6: link to '../none/' points at nothing: there is "
        "no 'acme/widgets/none' in docs_dir; link a page by its .md file, like "
        "'other-question.md'"]


def test_a_cached_page_does_not_keep_a_stale_warning(project: Project, cli: CLI) -> None:
    project.write("content/acme/widgets/12/cache-bug.md",
                  front("T", "q", "open") + "[next](later.md)\n")
    first = cli("build", "--no-search")
    assert first.code == 1 and "link to 'later.md' points at nothing" in first.err
    project.write("content/acme/widgets/12/later.md",
                  front("T", "q2", "open", 2) + "\nText.\n")
    second = cli("build", "--no-search")
    assert (second.code, second.err) == (0, "")


def test_body_links_and_navigation_agree_without_directory_urls(project: Project,
                                                                 cli: CLI) -> None:
    """A site opened from disk needs index.html in every link, the body's included."""
    project.write("mkdocs.yml", (project.root / "mkdocs.yml").read_text()
                  + "use_directory_urls: false\n")
    project.write("content/acme/widgets/12/other.md",
                  front("T", "q2", "open", 2) + "\n## Why\n")
    project.write("content/acme/widgets/12/cache-bug.md",
                  "---\n{title: T, order: 1, updated: 2026-01-05,\n question: q,\n status: open}\n---\n"
                  "[other](other.md) [why](other.md#why) ![d](diagram.png)\n")
    (project.root / "content/acme/widgets/12/diagram.png").write_bytes(b"\x89PNG")
    result = cli("build")
    assert result.code == 0, result.err
    html = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    assert '<a href="../other/index.html">other</a>' in html
    assert '<a href="../other/index.html#why">why</a>' in html
    assert '<img src="../diagram.png" alt="d" />' in html
    assert '<a rel="next" href="../other/index.html">' in html  # the navigation's own link


def test_the_url_scheme_is_one_function_and_every_link_follows_it(
        project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    """Move every page, PR and file of docs_dir under 'reviews/' by changing urls.source_url
    alone: the build (whose last check is that every link of every page resolves) passes,
    and the pages and their links are where the new scheme puts them."""
    from site_gen import urls
    from site_gen.build import render_site
    from site_gen.config import load_config

    project.write("content/acme/widgets/12/other.md",
                  "---\n{title: O, order: 2, updated: 2026-01-05, question: o, status: open}\n"
                  "---\n\nBack to [the first](cache-bug.md#main) and "
                  "![a picture](pic.png).\n")
    (project.root / "content/acme/widgets/12/pic.png").write_bytes(b"png")
    moved = urls.source_url
    monkeypatch.setattr(urls, "source_url", lambda source: "reviews/" + moved(source))
    outputs = render_site(load_config(project.root / "mkdocs.yml")).outputs
    assert {"reviews/acme/widgets/12/index.html", "reviews/acme/widgets/12/other/index.html",
            "reviews/acme/widgets/12/cache-bug/index.html",
            "reviews/acme/widgets/12/pic.png"} <= set(outputs)
    other = str(outputs["reviews/acme/widgets/12/other/index.html"])
    assert 'href="../cache-bug/#main"' in other and 'src="../pic.png"' in other
    assert 'href="reviews/acme/widgets/12/"' in str(outputs["index.html"])
