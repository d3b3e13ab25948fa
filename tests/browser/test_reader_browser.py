"""A reviewer's page on every screen and on paper (issue 18): phone diffs without sideways
scrolling, a prose measure, print that is light and keeps the diff's meaning, links out
to the pull request, and the page's own metadata. Screenshots in test-artifacts/."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from .conftest import NewTab

PAGE = "NVIDIA-NeMo/RL/4607/async-save-tag/"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


def test_on_a_phone_no_content_hides_behind_sideways_scrolling(new_tab: NewTab,
                                                               base_url: str) -> None:
    page = new_tab(390, 844)
    page.goto(base_url + PAGE)
    hidden = page.evaluate("""() => [...document.querySelectorAll('.body *')]
        .filter(e => e.clientWidth > 1 && e.scrollWidth > e.clientWidth + 1
                     && getComputedStyle(e).overflowX !== 'visible')
        .map(e => e.className + ' ' + e.scrollWidth + '>' + e.clientWidth)""")
    assert hidden == []
    outside = page.evaluate("""() => [...document.querySelectorAll('.flow-cell')].flatMap(cell => {
        const box = cell.getBoundingClientRect();
        return [...cell.querySelectorAll('*')].filter(e => {
            const r = e.getBoundingClientRect();
            return r.width && (r.right > box.right + 1 || r.left < box.left - 1);
        }).map(e => e.className || e.tagName);
    })""")
    assert outside == []
    changed = page.locator("tr.diff-add mark").first
    assert changed.is_visible() and changed.bounding_box()["x"] + 5 < 390  # type: ignore[index]
    numbers = page.locator("figure.hunk tr.diff-del td.diff-ln").evaluate_all(
        "cells => cells.map(c => getComputedStyle(c).display)")
    assert numbers[:2] == ["none", "table-cell"]  # one number column on a phone
    # "⋯ 17 lines not shown" reads across the code column on one line, not down the numbers
    elisions = page.locator("tr.diff-elision td.diff-code").evaluate_all("""cells => cells.map(c => {
        const code = c.closest('tbody').querySelector('tr.diff-ctx td.diff-code');
        return [Math.round(c.getBoundingClientRect().left - code.getBoundingClientRect().left),
                c.getBoundingClientRect().height <= 1.6 * parseFloat(getComputedStyle(c).lineHeight)];
    })""")
    assert elisions and all(row == [0, True] for row in elisions), elisions
    # each line's − or + stays in its own cell, off the line number
    marks = page.locator("tr.diff-del td.diff-code, tr.diff-add td.diff-code").evaluate_all(
        "cells => cells.map(c => getComputedStyle(c, '::before').textIndent)")
    assert marks and set(marks) == {"0px"}, marks
    # a long indented line starts on its first line (no line of indentation alone)
    starts = page.locator("td.diff-code").evaluate_all("""cells => cells.map(cell => {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        let first = null;
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            for (let i = 0; i < n.data.length; i++) {
                const r = document.createRange();
                r.setStart(n, i);
                r.setEnd(n, i + 1);
                const top = r.getBoundingClientRect().top;
                if (first === null) first = top;
                if (n.data[i].trim()) return Math.abs(top - first) < 2;
            }
        }
        return true;
    })""")
    assert starts and all(starts), [i for i, ok in enumerate(starts) if not ok]
    # a short line is one line tall: its number (1008) does not break either
    tall = page.locator("tr.diff-ctx, tr.diff-del, tr.diff-add").evaluate_all("""rows => rows
        .filter(r => r.querySelector('.diff-code').textContent.length < 30)
        .filter(r => r.getBoundingClientRect().height >
                     1.6 * parseFloat(getComputedStyle(r.querySelector('.diff-code')).lineHeight))
        .map(r => r.textContent)""")
    assert tall == []
    page.screenshot(path=_shot("question-phone-light"), full_page=True)


def test_prose_reads_at_about_75_characters_a_line(page: Page, base_url: str) -> None:
    page.goto(base_url + PAGE)
    widths = page.evaluate("""() => {
        const probe = document.createElement('span');
        probe.textContent = '0'.repeat(100);
        probe.style.whiteSpace = 'nowrap';  // one line, whatever the paragraph wraps
        document.querySelector('.body p').appendChild(probe);
        const ch = probe.getBoundingClientRect().width / 100;
        probe.remove();
        return [...document.querySelectorAll('.body > p')].map(p => p.getBoundingClientRect().width / ch);
    }""")
    assert widths and max(widths) <= 76, widths
    hunk = page.locator("figure.hunk").first.bounding_box()
    prose = page.locator(".body > p").first.bounding_box()
    assert hunk and prose and hunk["width"] > prose["width"] + 100  # figures take the full width


def test_printing_from_a_dark_system_gives_a_light_page(new_tab: NewTab,
                                                        base_url: str) -> None:
    page = new_tab(1000, 900, "dark")
    page.goto(base_url + PAGE)
    page.emulate_media(media="print", color_scheme="dark")
    colours = page.evaluate("""() => ({
        body: getComputedStyle(document.body).backgroundColor,
        removed: getComputedStyle(document.querySelector('tr.diff-del')).backgroundColor,
        del: getComputedStyle(document.querySelector('tr.diff-del del')).textDecorationLine,
        ins: getComputedStyle(document.querySelector('tr.diff-add ins')).textDecorationLine,
        url: getComputedStyle(document.querySelector('.print-url') || document.body).display,
    })""")
    assert colours["body"] == "rgb(255, 255, 255)"
    assert colours["removed"] == "rgb(255, 235, 233)"  # the light removed-line colour
    assert (colours["del"], colours["ins"]) == ("line-through", "underline")
    page.screenshot(path=_shot("question-print-dark-system"), full_page=True)
    page.emulate_media(media="screen", color_scheme="dark")
    page.screenshot(path=_shot("question-desktop-dark"), full_page=True)


def test_links_out_and_the_page_metadata(page: Page, base_url: str) -> None:
    page.goto(base_url + PAGE)
    links = page.locator(".pr-links a")
    assert [links.nth(i).get_attribute("href") for i in range(links.count())] == [
        "https://github.com/NVIDIA-NeMo/RL/pull/4607",
        "https://github.com/NVIDIA-NeMo/RL/pull/4607/files"]
    assert page.locator(".page-facts a").inner_text().startswith("Checkpoint finalize span")
    meta = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        'meta[property^="og:"], meta[name="description"], meta[name="twitter:card"]')]
        .map(m => [m.getAttribute('property') || m.getAttribute('name'), m.content]))""")
    assert meta["og:type"] == "article" and meta["twitter:card"] == "summary"
    assert meta["og:title"] == "Why the new rl.checkpoint.async_save tag says true on every save"
    assert meta["description"].startswith("Wraps checkpoint finalization")
    assert page.locator("form.header-search input[name=q]").count() == 1


def _shot(name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"
