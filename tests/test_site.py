"""The site around the pages: vocabulary, card, callouts, series, home, status pages, feeds."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

import pytest

from .blockutil import render
from .conftest import Project, Run

CLI = Callable[..., Run]
SITE_URL = "https://reviews.example.org/sub/"


def page_md(title: str, question: str, status: str, order: int, updated: str,
            summary: str = "", body: str = "Body.\n") -> str:
    return (f"---\ntitle: {title}\nquestion: {question}\nstatus: {status}\norder: {order}\n"
            f"updated: {updated}\n{summary}---\n{body}")


@pytest.fixture
def series_site(project: Project) -> Project:
    """acme/widgets#12 with three pages, acme/gears#3 with one."""
    project.write("mkdocs.yml", f"site_name: Reviews\ndocs_dir: content\nsite_url: {SITE_URL}\n")
    project.write("content/acme/widgets/12/cache-bug.md",
                  page_md("Why the cache never hits", "the cache bug", "open", 1, "2026-01-05",
                          "summary:\n  before: No cache.\n  status: Still open.\n"))
    project.write("content/acme/widgets/12/lock.md",
                  page_md("Is the lock held?", "the lock question", "fixed", 2, "2026-01-07"))
    project.write("content/acme/widgets/12/docs.md",
                  page_md("Do the docs match?", "the docs question", "open", 3, "2026-01-02"))
    project.write("content/acme/gears/3/pr.yml",
                  "repo: acme/gears\nnumber: 3\ntitle: Gear ratios\nhead: abcdef0\nstate: merged\n")
    project.write("content/acme/gears/3/ratio.md",
                  page_md("Ratio rounding", "the rounding question", "proposed", 1, "2025-12-30"))
    return project


def html_of(project: Project, path: str) -> str:
    return (project.site / path).read_text(encoding="utf-8")


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_series_on_every_page(series_site: Project, cli: CLI) -> None:
    assert cli("build").code == 0
    middle = html_of(series_site, "acme/widgets/12/lock/index.html")
    start = middle.index('<nav class="series"')
    series = middle[start:middle.index("</nav>", start)]
    assert text_of(series) == ("3 pages on this PR, one question each. This one (2 of 3): the "
                               "lock question. the cache bug the lock question the docs question")
    assert '<a href="../cache-bug/">the cache bug</a>' in series
    assert '<span aria-current="page">the lock question</span>' in series
    assert '<a rel="prev" href="../cache-bug/">← the cache bug</a>' in middle
    assert '<a rel="next" href="../docs/">the docs question →</a>' in middle
    first = html_of(series_site, "acme/widgets/12/cache-bug/index.html")
    assert 'rel="prev"' not in first and 'rel="next" href="../lock/"' in first
    single = html_of(series_site, "acme/gears/3/ratio/index.html")
    assert "One page on this PR. Its question: the rounding question." in single
    assert 'rel="prev"' not in single and 'rel="next"' not in single


def test_pr_landing_lists_questions_in_order_with_badges(series_site: Project, cli: CLI) -> None:
    assert cli("build").code == 0
    landing = html_of(series_site, "acme/widgets/12/index.html")
    items = re.findall(r'<li><a href="([^"]+)">[^<]+</a> <span class="badge tone-(\w+)">'
                       r'<span class="badge-icon" aria-hidden="true">.</span> ([^<]+)</span>',
                       landing)
    assert items == [("cache-bug/", "danger", "Unresolved"),
                     ("lock/", "success", "Fixed in this PR"), ("docs/", "danger", "Unresolved")]


def test_summary_card_draws_only_what_is_given(series_site: Project, cli: CLI) -> None:
    assert cli("build").code == 0
    card = html_of(series_site, "acme/widgets/12/cache-bug/index.html")
    card = card[card.index('<dl class="summary">'):card.index("</dl>")]
    assert re.findall(r"<dt>(\w[\w ]*)</dt>", card) == ["Before", "Status"]
    assert "Still open." in card and "tone-danger" in card
    bare = html_of(series_site, "acme/widgets/12/lock/index.html")
    assert '<dl class="summary">' not in bare


def test_a_summary_status_that_repeats_the_pages_badge_is_a_warning(
        series_site: Project, cli: CLI) -> None:
    """The card shows the page's badge before the status text: `:badge[unresolved]` at its
    start showed it twice. Another badge there is the author's to give."""
    series_site.write("content/acme/widgets/12/cache-bug.md", page_md(
        "Why the cache never hits", "the cache bug", "unresolved", 1, "2026-01-05",
        "summary:\n  before: No cache.\n  status: ':badge[unresolved] Still open.'\n"))
    series_site.write("content/acme/widgets/12/lock.md", page_md(
        "Is the lock held?", "the lock question", "fixed", 2, "2026-01-07",
        "summary:\n  status: ':badge[unresolved] before, now fixed.'\n"))
    built = cli("build")
    assert built.code == 0 and built.err.count("the summary's status") == 1, built.err
    line = 1 + page_md("T", "q", "open", 1, "2026-01-05", "summary:\n").splitlines().index(
        "summary:") + 2
    assert (f"cache-bug.md:{line}: the summary's status begins with ':badge[unresolved]', the badge "
            "of the page's status, which the card shows before it; leave it out") in built.err


def test_home_groups_prs_by_repository(series_site: Project, cli: CLI) -> None:
    assert cli("build").code == 0
    home = html_of(series_site, "index.html")
    assert re.findall(r'<h2 id="repo-\d">([^<]+)</h2>', home) == ["acme/gears", "acme/widgets"]
    widgets = text_of(home[home.index("#12"):])
    assert widgets.startswith("#12 Make widgets faster ● Open 3 pages: 1 fixed in this PR, "
                              "2 unresolved · updated 2026-01-07")
    gears = text_of(home[home.index("#3"):home.index("#12")])
    assert gears.startswith("#3 Gear ratios ⎇ Merged 1 page: 1 proposed, not in the PR · updated "
                            "2025-12-30")


def test_a_page_per_status(series_site: Project, cli: CLI) -> None:
    assert cli("build").code == 0
    assert sorted(p.name for p in (series_site.site / "status").iterdir()) == [
        "fixed", "proposed", "unresolved"]
    open_page = html_of(series_site, "status/unresolved/index.html")
    assert re.findall(r'<li><a href="([^"]+)">', open_page) == [
        "../../acme/widgets/12/cache-bug/", "../../acme/widgets/12/docs/"]
    assert "2 pages" in text_of(open_page)
    home = html_of(series_site, "index.html")
    assert 'href="status/unresolved/"' in home and 'href="status/wontfix/"' not in home


def test_feed_and_sitemap_parse_and_list_every_page(series_site: Project, cli: CLI) -> None:
    assert cli("build").code == 0
    atom = "{http://www.w3.org/2005/Atom}"
    feed = ET.parse(series_site.site / "feed.xml").getroot()
    entries = [(e.findtext(f"{atom}id"), e.findtext(f"{atom}updated"))
               for e in feed.iter(f"{atom}entry")]
    assert entries == [
        (SITE_URL + "acme/widgets/12/lock/", "2026-01-07T00:00:00Z"),
        (SITE_URL + "acme/widgets/12/cache-bug/", "2026-01-05T00:00:00Z"),
        (SITE_URL + "acme/widgets/12/docs/", "2026-01-02T00:00:00Z"),
        (SITE_URL + "acme/gears/3/ratio/", "2025-12-30T00:00:00Z"),
    ]
    assert feed.findtext(f"{atom}updated") == "2026-01-07T00:00:00Z"
    ns = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
    locs = [u.findtext(f"{ns}loc") for u in ET.parse(series_site.site / "sitemap.xml").getroot()]
    for page in ("", "acme/widgets/12/", "acme/widgets/12/cache-bug/", "acme/widgets/12/lock/",
                 "acme/widgets/12/docs/", "acme/gears/3/", "acme/gears/3/ratio/", "status/unresolved/"):
        assert SITE_URL + page in locs
    canonical = html_of(series_site, "acme/gears/3/ratio/index.html")
    assert f'<link rel="canonical" href="{SITE_URL}acme/gears/3/ratio/">' in canonical


def test_code_in_backticks_in_a_title_shows_as_code_as_on_the_code_host(
        series_site: Project, cli: CLI) -> None:
    """GitHub shows `totalTimeout` in a pull request's title as code; the pages showed the
    backticks. Headings and lists show code; the document's title and the feed keep the
    text as written, and whatever else the title holds is escaped."""
    series_site.write("content/acme/gears/3/pr.yml", "repo: acme/gears\nnumber: 3\n"
                      "title: Add `totalTimeout` and <i>x\nhead: abcdef0\nstate: merged\n")
    series_site.write("content/acme/gears/3/ratio.md",
                      page_md("Why `ratio.round` rounds down", "the rounding question", "proposed",
                              1, "2025-12-30"))
    assert cli("build").code == 0
    landing = html_of(series_site, "acme/gears/3/index.html")
    assert "<h1>Add <code>totalTimeout</code> and &lt;i&gt;x</h1>" in landing
    page = html_of(series_site, "acme/gears/3/ratio/index.html")
    assert "<h1>Why <code>ratio.<wbr>round</code> rounds down</h1>" in page
    assert "<title>Why `ratio.round` rounds down" in page
    home = html_of(series_site, "index.html")
    assert "Add <code>totalTimeout</code> and &lt;i&gt;x</a>" in home
    feed = (series_site.site / "feed.xml").read_text()
    assert "acme/gears#3: Why `ratio.round` rounds down</title>" in feed


def test_no_site_url_skips_feeds_with_a_warning(project: Project, cli: CLI) -> None:
    project.write("mkdocs.yml", "site_name: R\ndocs_dir: content\n")
    result = cli("build")
    assert result.code == 0
    assert result.err == ("warning: site_url is not set, so sitemap.xml and feed.xml are "
                          "skipped; set it in mkdocs.yml (for example site_url: !ENV [SITE_URL, "
                          "'https://example.org/'])\n")
    assert not (project.site / "feed.xml").exists()
    assert not (project.site / "sitemap.xml").exists()


def test_callouts() -> None:
    html, errors, _ = render("::: review blocking [[checkpoint.py:489]]\nKeep the *span*.\n:::\n\n"
                             "::: aside So what\nNothing breaks.\n:::\n")
    assert errors == []
    assert html == (
        '<aside class="callout callout-review tone-danger" aria-label="Review comment">\n'
        '<p class="callout-head"><span class="callout-icon" aria-hidden="true">■</span> '
        '<span class="callout-kind">Blocking</span> review comment — <a class="ref" '
        'href="https://github.com/acme/widgets/blob/2f6b955/src/app/checkpoint.py#L489" '
        'title="src/app/checkpoint.py L489 at 2f6b955"><code>checkpoint.py:489</code></a></p>\n'
        '<div class="callout-body"><p>Keep the <em>span</em>.</p>\n</div>\n</aside>\n'
        '<aside class="callout callout-aside" aria-label="So what">\n'
        '<p class="callout-head">So what</p>\n'
        '<div class="callout-body"><p>Nothing breaks.</p>\n</div>\n</aside>\n')


def test_inline_badges() -> None:
    html, errors, _ = render("Now :badge[fixed], once :badge[open].\n")
    assert errors == []
    assert html == ('<p>Now <span class="badge tone-success"><span class="badge-icon" '
                    'aria-hidden="true">✔</span> Fixed in this PR</span>, once <span '
                    'class="badge tone-success"><span class="badge-icon" aria-hidden="true">●'
                    '</span> Open</span>.</p>\n')  # the PR state's word and colour


def test_unknown_statuses_everywhere_name_the_line_and_the_allowed_values() -> None:
    _, errors, _ = render(
        "Text :badge[done].\n\n"
        "::: review urgent [[checkpoint.py:1]]\nx\n:::\n\n"
        "::: review\ny\n:::\n\n"
        "```flow\nlane a: A\nlane b: B\nstep: s\noutcome a: maybe: x\noutcome b: right: y\n```\n")
    assert errors == [
        "1: unknown badge ':badge[done]'; expected one of: open, draft, merged, closed, unresolved, fixed, "
        "proposed, wontfix, blocking, suggestion, note, right, wrong, luck",
        "3: unknown severity 'urgent'; expected one of: blocking, suggestion, note",
        "7: malformed review callout '::: review'; expected '::: review SEVERITY [[file:line]]', "
        "optionally followed by the review thread's https:// address",
        "15: unknown verdict 'maybe'; expected one of: right, wrong, luck",
    ]


def test_vocabulary_from_config_reaches_pages(project: Project, cli: CLI) -> None:
    project.write("mkdocs.yml", "site_name: R\ndocs_dir: content\nsite_url: https://x.org/\n"
                  "site_gen:\n  statuses:\n    open: {label: Needs work, icon: '!'}\n"
                  "    nit: {label: Nit, tone: info, icon: '·', for: callout}\n")
    project.write("content/acme/widgets/12/cache-bug.md",
                  page_md("T", "q", "open", 1, "2026-01-01", body="::: review nit\nx\n:::\n"))
    assert cli("build").code == 0
    page = html_of(project, "acme/widgets/12/cache-bug/index.html")
    assert '<span class="badge-icon" aria-hidden="true">!</span> Needs work</span>' in page
    assert '<span class="callout-kind">Nit</span>' in page
