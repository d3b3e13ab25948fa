"""Time grows about linearly with the input on hostile inputs (a ratio, not a clock).

Each case is timed at 1x and 4x size, best of three (of up to twenty when the first three
say otherwise); linear growth gives a ratio near 4, the quadratic behaviour these guard
against gave 16 or more.
"""

from __future__ import annotations

import contextlib
import gc
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from site_gen.blocks.proposal import _changed
from site_gen.build import render_site
from site_gen.cache import build_fingerprint
from site_gen.config import load_config
from site_gen.errors import BuildFailed

from .blockutil import render
from .test_properties import PARAGRAPH, long_diff

MAX_RATIO = 8.0


def _seconds(run: Callable[[], object]) -> float:
    """The CPU time this thread spends in one run of `run`: what other processes (a build
    beside the tests, the other test workers) and other threads of this one do does not
    count, as it would in wall-clock time. The garbage collector is off meanwhile, as
    timeit times: a collection passes over every object of the process (a test worker's
    heap, grown by the tests before), and the larger input, which allocates more, would
    meet more of them."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        started = time.thread_time()
        run()
        return time.thread_time() - started
    finally:
        if enabled:
            gc.enable()


def _words(n: int) -> None:
    old = " ".join(f"value_{i} + other_{i}" for i in range(n))
    _changed(old, old.replace("other_1", "changed_1"))


def _laughs(levels: int, folder: Path) -> Callable[[], object]:
    """mkdocs.yml whose `extra` is an alias tree: ten times more values at each level."""
    lines = ["site_name: R", "extra:", "  a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"  a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, levels)]
    path = folder / f"mkdocs-{levels}.yml"
    path.write_text("\n".join(lines) + "\n")

    def run() -> None:
        with contextlib.suppress(BuildFailed):
            build_fingerprint(load_config(path))  # the fingerprint walks every value
    return run


def _body(make: Callable[[int], str]) -> Callable[[int], object]:
    def run(n: int) -> object:
        text = make(n)
        return lambda: render(text)
    return run


CASES: dict[str, tuple[Callable[[int], object], int]] = {
    "word marks of one long changed line": (lambda n: lambda: _words(n), 2_000),
    "spaces inside a reference label": (
        _body(lambda n: "[[checkpoint.py:1|" + " " * n + "|]]\n"), 20_000),
    "unclosed badges": (_body(lambda n: ":badge[" * n + "\n"), 1_000),
    "closed badges": (_body(lambda n: ":badge[open] " * n + "\n"), 2_000),
    "unclosed references": (_body(lambda n: "[[" * n + "\n"), 5_000),
    "one title repeated as headings": (_body(lambda n: "## Same\n\n" * n), 1_000),
    # a long page and a long diff: what used to be timed against a clock
    "paragraphs of prose and references": (_body(lambda n: PARAGRAPH * n), 80),
    "lines of a proposed diff": (_body(long_diff), 400),
}


def _ratio(small: Callable[[], object], large: Callable[[], object], *, rounds: int = 3,
           most: int = 20) -> float:
    """Best of `rounds` of each, the two sizes taking turns, so a slow moment (a cache gone
    cold) falls on both alike and is not read as growth; while that ratio is over
    MAX_RATIO, more rounds, up to `most`. A busy machine only ever adds time, so the
    best times only come closer to the work itself (in a full suite run one case read
    8.1 once, where it reads 4.1-4.4 alone); growth that is too fast stays over the bound
    in every round (test_quadratic_growth_is_read_as_such)."""
    best_small = best_large = float("inf")
    for done in range(1, most + 1):
        best_small = min(best_small, _seconds(small))
        best_large = min(best_large, _seconds(large))
        ratio = best_large / max(best_small, 1e-4)
        if done >= rounds and ratio < MAX_RATIO:
            break
    return ratio


def _pairs(n: int) -> int:
    """Quadratic work: every pair of n items compared."""
    items = list(range(n))
    return sum(1 for a in items for b in items if a < b)


def test_quadratic_growth_is_read_as_such() -> None:
    """The measurement tells the growth these tests guard against: 4x the input of a
    quadratic run is well over MAX_RATIO, in every round it takes."""
    ratio = _ratio(lambda: _pairs(250), lambda: _pairs(1_000))
    assert ratio > 1.5 * MAX_RATIO, ratio  # about 16


@pytest.mark.parametrize("name", sorted(CASES))
def test_time_grows_about_linearly(name: str) -> None:
    make, size = CASES[name]
    small, large = make(size), make(4 * size)
    assert callable(small) and callable(large)
    ratio = _ratio(small, large)
    assert ratio < MAX_RATIO, f"{name}: 4x the input took {ratio:.1f}x the time"


def test_an_alias_tree_in_the_settings_is_refused_in_linear_time(tmp_path: Path) -> None:
    ratio = _ratio(_laughs(5, tmp_path), _laughs(20, tmp_path))
    assert ratio < MAX_RATIO, f"4x the alias levels took {ratio:.1f}x the time"
    with pytest.raises(BuildFailed) as failed:
        load_config(tmp_path / "mkdocs-20.yml")
    assert [str(e) for e in failed.value.errors] == [
        f"{tmp_path}/mkdocs-20.yml:2: the YAML aliases here expand to more than 100,000 values; "
        "expected plain values"]


def _one_pr(folder: Path, pages: int) -> Path:
    """A site of one PR with `pages` question pages; its mkdocs.yml."""
    pr = folder / f"content/acme/widgets/{pages}"
    pr.mkdir(parents=True)
    (pr / "pr.yml").write_text(f"repo: acme/widgets\nnumber: {pages}\ntitle: T\nhead: 1234567\n"
                               "state: open\nfiles: [a.py]\ncode_unavailable: made up\n")
    for n in range(pages):
        (pr / f"q{n}.md").write_text(f"---\ntitle: Question {n}\nquestion: question {n}\n"
                                     f"order: {n + 1}\nstatus: unresolved\nupdated: 2026-01-05\n"
                                     f"---\n\nText {n}.\n")
    (folder / "mkdocs.yml").write_text("site_name: R\nsite_url: https://x.org/\ndocs_dir: content\n")
    return folder / "mkdocs.yml"


def test_a_page_costs_the_same_however_many_pages_its_pr_has(tmp_path: Path) -> None:
    """Each page lists its neighbours, not every page of its PR: 4x the pages in one PR
    take about 4x the time and bytes, not 16x."""
    small, large = _one_pr(tmp_path / "small", 60), _one_pr(tmp_path / "large", 240)

    def site(settings: Path) -> Callable[[], object]:
        return lambda: render_site(load_config(settings), jobs=1)

    ratio = _ratio(site(small), site(large))
    assert ratio < MAX_RATIO, f"4x the pages in one PR took {ratio:.1f}x the time"
    size = {n: sum(len(text) for text in render_site(load_config(path)).outputs.values()
                   if isinstance(text, str)) for n, path in ((60, small), (240, large))}
    assert size[240] / size[60] < 5, size


def test_past_ten_pages_a_page_lists_its_neighbours_and_links_the_pr_for_all(tmp_path: Path) -> None:
    outputs = render_site(load_config(_one_pr(tmp_path, 20))).outputs
    html = str(outputs["acme/widgets/20/q9/index.html"])
    listed = re.findall(r'<li value="(\d+)">', html)
    assert listed == ["1", "8", "9", "10", "11", "12", "20"]  # first, two either side, last
    assert html.count('<li class="series-gap">') == 2
    assert '<a href="../">All 20 pages of this PR</a>' in html
    assert "20 pages on this PR, one question each. This one (10 of 20)" in html
    pr_page = str(outputs["acme/widgets/20/index.html"])
    assert all(f"question {n}<" in pr_page for n in range(20))  # the PR's page lists every one
    few = render_site(load_config(_one_pr(tmp_path / "few", 10))).outputs
    assert re.findall(r'<li value="(\d+)">', str(few["acme/widgets/10/q0/index.html"])) == [
        str(n) for n in range(1, 11)]
