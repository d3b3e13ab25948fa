"""The flow diagram in Chromium: lanes aligned step by step, readable on a phone."""

from __future__ import annotations

from playwright.sync_api import Page

PAGE = "NVIDIA-NeMo/RL/4607/async-save-tag/"


def test_steps_line_up_and_lanes_do_not_overlap(page: Page, base_url: str) -> None:
    page.goto(base_url + PAGE)
    rows = page.locator(".flow-table tr.flow-differs, .flow-table tr.flow-outcome")
    assert rows.count() == 2
    for i in range(rows.count()):
        tops = [box["y"] for box in (c.bounding_box() for c in rows.nth(i).locator("td").all())
                if box]
        assert len(tops) == 2
        assert max(tops) - min(tops) <= 2
        texts = [c.bounding_box() for c in rows.nth(i).locator(".flow-text, .verdict").all()]
        assert len(texts) == 2 and all(texts)  # the step texts, or (same end) the verdicts
        assert abs(texts[0]["y"] - texts[1]["y"]) <= 2  # type: ignore[index]
    lanes = [c.bounding_box() for c in page.locator(".flow-table th.flow-lane").all()]
    assert lanes[0] and lanes[1]
    assert lanes[0]["x"] + lanes[0]["width"] <= lanes[1]["x"] + 1


def test_lanes_stay_aligned_when_one_wraps_longer(page: Page, base_url: str) -> None:
    page.set_viewport_size({"width": 700, "height": 900})
    page.goto(base_url + PAGE)
    cells = page.locator(".flow-table tr.flow-differs td")
    notes = [c.locator(".flow-note").bounding_box() for c in cells.all()]
    assert notes[0] and notes[1] and notes[0]["height"] > notes[1]["height"]  # one lane wraps longer
    next_row = page.locator(".flow-table tbody tr").nth(2).bounding_box()
    first_cells = [c.bounding_box() for c in cells.all()]
    bottoms = [b["y"] + b["height"] for b in first_cells if b]
    assert next_row and max(bottoms) <= next_row["y"] + 1


def test_readable_on_a_phone(page: Page, base_url: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(base_url + PAGE)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    table = page.locator(".flow-table").bounding_box()
    assert table and table["x"] >= 0 and table["x"] + table["width"] <= 390


def test_verdicts_are_words_not_colours(page: Page, base_url: str) -> None:
    page.goto(base_url + PAGE)
    verdicts = [" ".join(v.inner_text().split()) for v in page.locator(".flow-table .verdict").all()]
    assert verdicts == ["✗ wrong", "⚠ right only by luck"]
    header = page.locator(".flow-table thead th.flow-lane").all_inner_texts()
    assert header == ["Sync save\ncheckpoint.async_save: false",
                      "Async save\ncheckpoint.async_save: true"]  # in words, the setting beneath
    same = page.locator(".flow-table tr.flow-same-end").inner_text()
    assert "EVERY RUN ENDS THE SAME" in same.upper() and "rl.checkpoint.async_save = true" in same
