"""What a reader downloads: the model page and its stylesheet stay small, and the served
stylesheet says exactly what templates/site.css says."""

from __future__ import annotations

import re
from pathlib import Path

from site_gen.build import render_site
from site_gen.config import load_config
from site_gen.css import minify, token_rules
from site_gen.pygments_styles import ReviewDark

ROOT = Path(__file__).resolve().parent.parent
STRINGS = re.compile(r'("(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\')')


def _bare(css: str) -> str:
    """`css` without comments, without any whitespace outside its strings, and each
    number without its leading zero (`0.5rem` is `.5rem`)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    bare = "".join(p if i % 2 else re.sub(r"(?<![\w.#])0(\.\d)", r"\1", re.sub(r"\s+", " ", p))
                   .replace(" ", "") for i, p in enumerate(STRINGS.split(css)))
    return bare.replace(";}", "}")  # a last ';' in a block says nothing


def test_the_model_page_and_its_css_weigh_at_most_40_kb() -> None:
    outputs = render_site(load_config(ROOT / "mkdocs.yml")).outputs
    page = outputs["NVIDIA-NeMo/RL/4607/async-save-tag/index.html"]
    css = outputs["assets/site.css"]
    assert isinstance(page, str) and isinstance(css, str)
    assert len(page.encode()) + len(css.encode()) <= 40_000


def test_minified_css_keeps_every_rule_and_string() -> None:
    own = (ROOT / "templates/site.css").read_text()
    served = minify(own)
    assert "/*" not in served
    assert _bare(served) == _bare(own)
    assert 'content:" (" attr(href) ")"' in served  # spaces inside strings are kept
    assert "calc(1.5em + 2px)" in served  # and the ones calc() needs
    assert "padding:0 .5rem" in served and "0.5" not in served  # a leading zero says nothing
    assert minify("a{margin:10.5px 0.25em;color:#0.5}") == "a{margin:10.5px .25em;color:#0.5}\n"


def test_token_colours_come_one_rule_per_look() -> None:
    rules = token_rules(ReviewDark, ".highlight").splitlines()
    looks = [rule.split("{", 1)[1] for rule in rules]
    assert len(looks) == len(set(looks))
    assert any(".highlight .sd" in rule for rule in rules)  # docstrings have their colour
