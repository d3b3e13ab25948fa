"""Proposed diffs in Chromium: removed and added lines look different; copying skips numbers."""

from __future__ import annotations

from playwright.sync_api import Page

PAGE = "NVIDIA-NeMo/RL/4607/async-save-tag/"


def test_removed_and_added_lines_have_different_backgrounds(page: Page, base_url: str) -> None:
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.goto(base_url + PAGE)
        hunk = page.locator("figure.hunk").first
        removed = hunk.locator("tr.diff-del").first.evaluate("e => getComputedStyle(e).backgroundColor")
        added = hunk.locator("tr.diff-add").first.evaluate("e => getComputedStyle(e).backgroundColor")
        context = hunk.locator("tr.diff-ctx").first.evaluate("e => getComputedStyle(e).backgroundColor")
        assert len({removed, added, context}) == 3, (scheme, removed, added, context)
        signs = [hunk.locator(f"tr.diff-{k} td.diff-code").first.evaluate(
            "e => getComputedStyle(e, '::before').content") for k in ("del", "add")]
        assert signs == ['"−"', '"+"']


def test_copying_code_copies_no_line_numbers_or_signs(page: Page, base_url: str) -> None:
    page.goto(base_url + PAGE)
    copied = page.evaluate("""() => {
        const table = document.querySelector('figure.hunk table');
        const range = document.createRange();
        range.selectNodeContents(table);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        return selection.toString();
    }""")
    assert "with _finalize_telemetry(carrier, step):" in copied
    assert "488" not in copied and "491" not in copied
    assert "−" not in copied


def test_a_tab_in_code_is_four_columns(page: Page, base_url: str) -> None:
    """Code indented with tabs (Go, C, TypeScript): a tab is four columns, in a diff's cell
    (as four spaces) and in a code block; the browser's eight ran deep code off a phone."""
    page.goto(base_url + PAGE)
    widths = page.evaluate("""() => {
        const cell = document.querySelector('figure.hunk td.diff-code');
        const pre = document.createElement('pre');
        pre.append(document.createElement('code'));
        document.querySelector('main').append(pre);
        const width = (parent, text, tabs) => {
            const span = document.createElement('span');
            span.textContent = text;
            parent.style.tabSize = tabs;
            parent.append(span);
            const w = span.getBoundingClientRect().width;
            span.remove();
            parent.style.tabSize = '';
            return w;
        };
        return [cell, pre].map(p => [width(p, '\\t\\tx', ''), width(p, '\\t\\tx', '8'),
                                     width(p, '        x', '')]);
    }""")
    (tabbed, eight, spaced), (in_block, eight_in_block, _) = widths
    assert abs(tabbed - spaced) < 1, widths  # in a diff's cell: as four spaces
    assert in_block < 0.7 * eight_in_block, widths  # in a block: not the browser's eight
