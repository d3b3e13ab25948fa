"""The reader's page, third pass, in Chromium: code on the phone, the PR's own change, dark
marks, print, and one meaning per mark. On a PR whose code the tests have (a local
repository: previews, an excerpt, a ranged pr-diff, a proposal that starts inside a
docstring, a review suggestion) and on the model page (not checked)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from site_gen.build import render_site
from site_gen.config import load_config
from site_gen.highlight import line_html
from site_gen.output import write_site
from site_gen.statuses import DEFAULT_STATUSES

from ..conftest import MKDOCS, front, git
from .conftest import NewTab, serve

MODEL = "NVIDIA-NeMo/RL/4607/async-save-tag/"
# Kept for review with the other page screenshots (CI's "screenshots" artifact).
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
PAGE = "acme/widgets/12/the-tag/"
LONG_TOKEN = "checkpoint_finalize_span_async_save_attribute_name_that_never_breaks_anywhere"

APP_BASE = '''\
def save(step, wait_fn=None):
    """Save a checkpoint for a step.

    If the wait function is None, the save is sync and returns at once; with one,
    it waits for the write, and is the save that is not done when this returns.
    """
    tag = wait_fn is not None
    if wait_fn is not None:
        wait_fn()
    return tag
''' + "".join(f"value_{n} = {n}\n" for n in range(11, 201))
# The head changes every fifth line from 20 to 170: git shows it as one hunk of ~150 lines.
APP_HEAD = "".join(line.replace(" = ", " = 10 * ") if 20 <= n <= 170 and n % 5 == 0 else line
                   for n, line in enumerate(APP_BASE.splitlines(keepends=True), 1))

BODY = f"""\
## What the tag says

A prose paragraph long enough to reach the right edge of the column on a wide screen and
then some more words so that the reference lands near the end of the line here [[app.py:7]]
and the sentence goes on after it, for a second line of text.

On a phone the name {LONG_TOKEN} is one long word.

```excerpt
[[app.py:1-10]]
highlight: 7
```

## The PR's own change

```pr-diff
[[app.py:80-119]]
```

## A fix

```proposal
title: Say which save it was
status: proposed

file: app.py L4-L5 · save
@@ -3,4 +3,4 @@

-    If the wait function is None, the save is sync and returns at once; with one,
+    If the wait function is None the save is sync, and returns at once; with one,
     it waits for the write, and is the save that is not done when this returns.
     \"\"\"
```

::: review suggestion [[app.py:4]]
Say it in one sentence.
:::

```claim
says: the head multiplies every fifth value by ten
count: 31
text: = 10 *
in: app.py
```

See [the tracking issue](https://example.org/issues/1).
"""


def _project(root: Path) -> Path:
    code = root / "code"
    code.mkdir(parents=True)
    git(code, "init", "-q", "-b", "main")
    shas = []
    for text in (APP_BASE, APP_HEAD):
        (code / "app.py").write_text(text)
        git(code, "add", "-A")
        git(code, "commit", "-q", "-m", "c")
        shas.append(git(code, "rev-parse", "HEAD"))
    (root / "mkdocs.yml").write_text(MKDOCS + f"site_gen:\n  checkout: {code}\n")
    folder = root / "content/acme/widgets/12"
    folder.mkdir(parents=True)
    (folder / "pr.yml").write_text(f"repo: acme/widgets\nnumber: 12\ntitle: The tag\nhead: {shas[1]}\n"
                                   f"base: {shas[0]}\nstate: merged\n")
    (folder / "the-tag.md").write_text(front("Why the tag is true", "the tag", "proposed") + BODY)
    return root


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = _project(tmp_path_factory.mktemp("third"))
    write_site(root / "site", render_site(load_config(root / "mkdocs.yml")).outputs)
    server, url = serve(root / "site")
    yield url
    server.shutdown()
    server.server_close()


def _without_script(browser: Browser, width: int) -> Page:
    """A page of a context of its own, which runs no script (a context's setting)."""
    return browser.new_context(viewport={"width": width, "height": 844},
                               java_script_enabled=False).new_page()


CONTRAST = """(pair) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => { const [r, g, b] = rgb(c).map(v => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const [a, b] = pair.map(lum).sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def _contrast(tab: Page, a: str, b: str) -> float:
    return float(tab.evaluate(CONTRAST, [a, b]))


# 1, 13: previews stay on the screen and stand apart from the page --------------------

@pytest.mark.parametrize("width", [390, 1280])
def test_a_preview_stays_inside_the_screen(new_tab: NewTab, checked: str, width: int) -> None:
    tab = new_tab(width, 844)
    tab.goto(checked + PAGE)
    peek = tab.locator(".body p .ref-peek").first
    peek.scroll_into_view_if_needed()
    tab.evaluate("window.scrollBy(0, -200)")
    peek.focus()
    preview = tab.locator(".body p .ref-preview").first
    expect(preview).to_be_visible()
    box = preview.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    assert box["y"] + box["height"] <= 844, box  # not off the bottom
    assert "tag = wait_fn is not None" in preview.inner_text()  # the line it cites
    head = tab.locator(".body p .ref-preview-head").first.bounding_box()
    assert head is not None and head["x"] >= 0
    assert tab.evaluate("document.documentElement.scrollWidth") <= width
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=SCREENSHOTS / f"checked-page-preview-{width}.png")


def test_a_preview_stands_apart_from_a_dark_page(new_tab: NewTab, checked: str) -> None:
    tab = new_tab(1280, 844, "dark")
    tab.goto(checked + PAGE)
    tab.locator(".body p .ref-peek").first.focus()
    preview = tab.locator(".body p .ref-preview").first
    style = preview.evaluate("p => [getComputedStyle(p).backgroundColor, "
                             "getComputedStyle(p).borderTopColor, "
                             "getComputedStyle(document.body).backgroundColor]")
    assert _contrast(tab, style[0], style[2]) >= 1.2  # its own background
    assert _contrast(tab, style[1], style[2]) >= 3  # and an edge that shows on black


# 2, 11: nothing scrolls sideways on a phone, and lines break between words ------------

def test_the_phone_search_results_do_not_scroll_sideways(new_tab: NewTab, checked: str) -> None:
    tab = new_tab(390, 844)
    tab.goto(checked + "search/?q=" + LONG_TOKEN)
    tab.wait_for_selector("#search-results li")
    assert tab.evaluate("document.documentElement.scrollWidth") <= 390


SPLIT_WORDS = """(root) => {
  const split = [];
  for (const el of root) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const chars = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode())
      for (let i = 0; i < n.data.length; i++) {
        const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
        chars.push([n.data[i], Math.round(r.getBoundingClientRect().top)]);
      }
    const text = chars.map(c => c[0]).join("");
    for (const m of text.matchAll(/[A-Za-z0-9_]{2,}/g)) {
      const tops = new Set(chars.slice(m.index, m.index + m[0].length).map(c => c[1]));
      if (tops.size > 1 && m[0].length < 30) split.push(m[0]);
    }
  }
  return split;
}"""


def test_phone_lines_break_between_names_not_inside_them(new_tab: NewTab, base_url: str) -> None:
    tab = new_tab(390, 844)
    tab.goto(base_url + MODEL)
    assert tab.locator("h1").evaluate_all(SPLIT_WORDS) == []
    assert tab.locator("td.diff-code").evaluate_all(SPLIT_WORDS) == []
    assert tab.locator("td.diff-code").first.evaluate("c => getComputedStyle(c).wordBreak") \
        != "break-all"


def test_a_long_line_scrolls_on_a_wide_screen_and_wraps_on_a_phone(new_tab: NewTab,
                                                                  base_url: str) -> None:
    """Alamofire#3999: on a wide screen a diff's line wrapped at its '[' (a <wbr>, a wrap
    point meant for a phone, where Chromium breaks even in `white-space: pre`) and not at
    its spaces, so one line of code read as two. It scrolls sideways, as GitHub's diff
    does; a phone still wraps it between its names."""
    line = ("let responseSerializer = isAvailableSerializer ? mutableState.responseSerializers["
            "responseSerializerIndex] : mutableState.fallbackSerializers[responseSerializerIndex]")
    html = str(line_html([("", line)], []))
    assert html.count("<wbr>") >= 3
    for width, wraps in ((1280, False), (390, True)):
        tab = new_tab(width, 844)
        tab.goto(base_url + MODEL)
        one, long = tab.evaluate("""(html) => {
            const cell = document.querySelector('figure.hunk td.diff-code');
            const one = cell.getBoundingClientRect().height;
            cell.innerHTML = html;
            return [one, cell.getBoundingClientRect().height];
        }""", html)
        assert (long > one * 1.5) == wraps, (width, one, long)


# 3, 4, 9: the PR's own change -----------------------------------------------------------

def test_a_ranged_pr_diff_shows_only_the_change_in_its_lines(new_tab: NewTab,
                                                               checked: str) -> None:
    tab = new_tab(1280, 844)
    tab.goto(checked + PAGE)
    change = tab.locator("section.pr-diff")
    numbers = change.locator("td.diff-ln[data-either]").evaluate_all(
        "cells => cells.map(c => Number(c.dataset.either))")
    assert numbers and min(numbers) >= 80 - 3 and max(numbers) <= 119 + 3, numbers
    assert change.locator("tr.diff-add").count() == 8  # lines 80, 85, ..., 115


def test_the_prs_own_change_says_what_it_is(new_tab: NewTab, checked: str) -> None:
    tab = new_tab(1280, 844)
    tab.goto(checked + PAGE)
    label = tab.locator("section.pr-diff .pr-diff-label").inner_text()
    assert re.fullmatch(r"The PR’s own change · base [0-9a-f]{7} → head [0-9a-f]{7}", label), label
    head = tab.locator("section.pr-diff .hunk-head").inner_text()
    assert "app.py" in head and "L80-L119" in head
    own = tab.locator("section.pr-diff .hunk-head").evaluate("h => getComputedStyle(h).backgroundColor")
    proposed = tab.locator("section.proposal:not(.pr-diff) .hunk-head").first.evaluate(
        "h => getComputedStyle(h).backgroundColor")
    assert own != proposed
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=SCREENSHOTS / "checked-page-1280.png", full_page=True)


def test_the_phone_number_column_holds_only_the_heads_numbers(new_tab: NewTab,
                                                                checked: str) -> None:
    tab = new_tab(390, 844)
    tab.goto(checked + PAGE)
    shown = tab.locator("section.pr-diff tr").evaluate_all("""rows => rows.map(r => {
        const cell = r.querySelector('td.diff-ln:nth-child(2)');
        return [r.className, cell ? getComputedStyle(cell, '::before').content : ''];
    })""")
    removed = [content for kind, content in shown if kind == "diff-del"]
    assert removed and set(removed) == {"none"}  # a removed line shows no number
    heads = [int(content.strip('"')) for kind, content in shown
             if kind in ("diff-add", "diff-ctx") and content not in ("none", "")]
    assert heads == sorted(heads)  # one side: the head's, in order


# 5: dark marks --------------------------------------------------------------------------

def test_dark_changed_word_marks_stand_out_from_their_line(new_tab: NewTab, base_url: str) -> None:
    tab = new_tab(1280, 844, "dark")
    tab.goto(base_url + MODEL)
    for kind in ("del", "add"):
        mark = tab.locator(f"tr.diff-{kind} mark").first
        colours = mark.evaluate("m => [getComputedStyle(m).backgroundColor, "
                                "getComputedStyle(m.closest('tr')).backgroundColor, "
                                "getComputedStyle(m).color]")
        assert _contrast(tab, colours[0], colours[1]) >= 2, colours
        assert _contrast(tab, colours[2], colours[0]) >= 4.5, colours


# 6, 15: print ---------------------------------------------------------------------------

def test_print_leaves_out_the_navigation_and_prints_the_address(new_tab: NewTab,
                                                                checked: str) -> None:
    tab = new_tab(1280, 844)
    tab.goto(checked + PAGE)
    tab.emulate_media(media="print")
    shown = tab.evaluate("""() => ['.site-nav', '.print-url', '.toc', '.header-search']
        .map(s => getComputedStyle(document.querySelector(s)).display)""")
    assert shown == ["none", "block", "none", "none"]
    after = tab.locator(".body a.ref").first.evaluate("a => getComputedStyle(a, '::after').content")
    assert after in ("none", "normal")  # a reference prints once
    out = tab.locator(".body a[href^='https://example.org']").evaluate(
        "a => getComputedStyle(a, '::after').content")
    assert "https://example.org/issues/1" in out  # a link out prints where it goes
    hunk = tab.locator("figure.hunk").first.evaluate("h => getComputedStyle(h).breakInside")
    assert hunk == "auto"  # a long diff may break between its rows


def test_a_long_claim_folds_its_sites_on_the_screen_and_prints_them_all(
        new_tab: NewTab, checked: str) -> None:
    """A claim over a whole library may count a hundred sites: past the first ten, the rest
    fold under "N more sites", which opens without script and prints unfolded."""
    tab = new_tab(390, 844)
    tab.goto(checked + PAGE)
    sites = tab.locator(".claim-sites li")
    assert sites.count() == 31
    expect(sites.nth(9)).to_be_visible()
    expect(sites.nth(10)).to_be_hidden()
    more = tab.locator(".claim-more > summary")
    expect(more).to_have_text("21 more sites")
    assert tab.locator(".claim-more ol").get_attribute("start") == "11"  # numbered on
    tab.emulate_media(media="print")
    expect(more).to_be_hidden()
    expect(sites.nth(30)).to_be_visible()
    tab.emulate_media(media="screen")
    more.click()  # a <details>: no script needed
    expect(sites.nth(30)).to_be_visible()
    assert tab.evaluate("document.documentElement.scrollWidth") <= 390


# 7: underscores -------------------------------------------------------------------------

def test_a_references_underline_clears_its_underscores(new_tab: NewTab, base_url: str) -> None:
    tab = new_tab(1280, 844)
    tab.goto(base_url + MODEL)
    offset = tab.locator(".body a.ref").first.evaluate(
        "a => parseFloat(getComputedStyle(a).textUnderlineOffset)")
    assert offset >= 3  # px: below an underscore's stroke


# 8: one meaning per mark ----------------------------------------------------------------

def test_each_mark_has_one_meaning() -> None:
    icons = [status.icon for status in DEFAULT_STATUSES.values()]
    assert len(icons) == len(set(icons)), icons
    notice = Path(__file__).resolve().parents[2] / "templates/page.html"
    unchecked = re.search(r'code-check unchecked"><span aria-hidden="true">(.)</span>',
                          notice.read_text())
    assert unchecked is not None and unchecked[1] not in icons
    # open and merged differ in shape, not only in size
    assert {DEFAULT_STATUSES["open"].icon, DEFAULT_STATUSES["merged"].icon} == {"●", "⎇"}


# 10: a hunk inside a docstring is coloured as the file is --------------------------------

def test_a_proposal_that_starts_inside_a_docstring_is_lexed_in_context(new_tab: NewTab,
                                                                        checked: str) -> None:
    tab = new_tab(1280, 844)
    tab.goto(checked + PAGE)
    rows = tab.locator("section.proposal:not(.pr-diff) td.diff-code")
    classes = rows.evaluate_all("cells => cells.map(c => [...c.querySelectorAll('[class]')]"
                                ".map(s => s.className))")
    docstring = [row for row in classes if row]
    assert docstring and all(set(row) <= {"sd"} for row in docstring), classes


# 12: a diff wider than its box says so ----------------------------------------------------

def test_a_clipped_diff_line_shows_a_cue(new_tab: NewTab, checked: str) -> None:
    tab = new_tab(1280, 844)
    tab.goto(checked + PAGE)
    scroll = tab.locator(".hunk-scroll").first
    assert "gradient" in scroll.evaluate("s => getComputedStyle(s).backgroundImage")


# 14, 16, 17, 18: copy, outline, header, patch ---------------------------------------------

def test_the_words_of_the_page(new_tab: NewTab, base_url: str, checked: str) -> None:
    tab = new_tab(1280, 844)
    tab.goto(checked)
    assert "1 proposed, not in the PR" in tab.inner_text("main")
    tab.goto(base_url + "NVIDIA-NeMo/RL/4607/")
    assert "One page on this pull request." in tab.inner_text("main")
    tab.goto(base_url + MODEL)
    assert tab.locator(".flow-tag:has-text('same in every run')").count() == 1
    shown = re.findall(r"\b[0-9a-f]{7,40}\b", tab.inner_text("main"))
    assert shown and {len(sha) for sha in shown} == {7}
    patch = tab.locator(".proposal-patch").first.inner_text()
    assert "not checked against the code" in patch  # the model page is not checked
    tab.goto(checked + PAGE)
    assert "not checked" not in tab.locator(".proposal-patch").first.inner_text()


def test_the_outline_sits_beside_the_text_on_a_wide_screen(new_tab: NewTab, checked: str) -> None:
    wide = new_tab(1280, 844)
    wide.goto(checked + PAGE)
    toc = wide.locator("nav.toc")
    expect(toc).to_be_visible()
    assert toc.locator("a").all_inner_texts() == ["What the tag says", "The PR's own change",
                                                  "A fix", "Say which save it was"]
    prose = wide.locator(".body > p").first.bounding_box()
    box = toc.bounding_box()
    assert prose and box and box["x"] >= prose["x"] + prose["width"]
    phone = new_tab(390, 844)
    phone.goto(checked + PAGE)
    expect(phone.locator("nav.toc")).to_be_hidden()
    expect(phone.locator("form.header-search")).to_be_hidden()
    header = phone.locator(".site-header").bounding_box()
    assert header and header["height"] < 80  # one row


def test_copy_buttons_come_with_script_and_the_page_reads_without(
        browser: Browser, new_tab: NewTab, checked: str) -> None:
    tab = new_tab(1280, 844)
    tab.goto(checked + PAGE)
    expect(tab.locator("figure.excerpt .copy-button")).to_have_count(1)
    expect(tab.locator(".callout-suggestion .copy-button")).to_have_count(1)
    plain = _without_script(browser, 1280)
    plain.goto(checked + PAGE)
    expect(plain.locator(".copy-button")).to_have_count(0)
    expect(plain.locator("figure.excerpt")).to_contain_text("wait_fn is not None")
    plain.context.close()


def test_search_results_read_as_text(new_tab: NewTab, checked: str) -> None:
    tab = new_tab(1280, 844)
    tab.goto(checked + "search/?q=write")
    tab.wait_for_selector("#search-results li")
    excerpts = " ".join(tab.locator(".search-excerpt").all_inner_texts())
    assert "@@" not in excerpts and "not shown" not in excerpts
    expect(tab.locator("form.header-search")).to_have_count(0)  # the page's own box only
    tab.goto(checked + "search/?q=tag")
    tab.wait_for_selector("#search-results li")
    abouts = tab.locator(".search-about").all_inner_texts()
    assert "acme/widgets #12 · Merged" in abouts  # the PR's landing page


def test_a_summary_card_reads_as_label_then_text_in_search(new_tab: NewTab, base_url: str) -> None:
    tab = new_tab(1280, 844)
    tab.goto(base_url + "search/?q=existed")
    tab.wait_for_selector("#search-results li")
    excerpt = tab.locator(".search-excerpt").first.inner_text()
    assert "No finalize span existed" in excerpt and "BeforeNo" not in excerpt, excerpt
