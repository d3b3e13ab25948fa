"""The markdown stage on its own: `site_gen.render_markdown`."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.parser_inline import _DEFAULT_TERMINATORS
from markupsafe import Markup

import site_gen
from site_gen.blocks import plain_text, render_inline
from site_gen.config import default_config
from site_gen.context import ENV_KEY, PageContext
from site_gen.markdown import make_markdown, render_inline_text

COMMONMARK_SAMPLES = [
    "Hello *world* and **bold** and `code`.\n",
    "# A level-one heading\n\nText.\n",
    "- one\n- two\n  - nested\n\n1. first\n2. second\n",
    "> quoted\n> text\n",
    "    indented code\n",
    "```\nplain fence\n```\n",
    "[a link](https://example.org \"title\") and <https://example.org/auto>\n",
    "Line one  \nline two\n\n---\n",
    "![alt text](picture.png)\n",
    "A & B < C \"quoted\"\n",
    "[ref]\n\n[ref]: https://example.org/ref\n",
]


@pytest.mark.parametrize("text", COMMONMARK_SAMPLES)
def test_plain_commonmark_renders_as_commonmark(text: str) -> None:
    assert site_gen.render_markdown(text) == MarkdownIt("commonmark").render(text)


def test_raw_html_is_escaped_by_default() -> None:
    assert site_gen.render_markdown("<script>alert(1)</script>\n\nx <b>y</b>\n") == (
        "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n<p>x &lt;b&gt;y&lt;/b&gt;</p>\n")


def test_gfm_tables_and_strikethrough() -> None:
    html = site_gen.render_markdown("| a | b |\n|---|---|\n| 1 | ~~2~~ |\n")
    assert "<table>" in html
    assert "<td><s>2</s></td>" in html


def test_fenced_code_is_highlighted_by_pygments() -> None:
    html = site_gen.render_markdown("```python\nwith open(p) as f:\n    pass\n```\n")
    assert html.startswith('<pre class="highlight"><code class="language-python">')
    assert '<span class="k">with</span>' in html


def test_unknown_fence_language_is_plain_escaped_code() -> None:
    assert site_gen.render_markdown("```nolang\n<b>\n```\n") == (
        '<pre><code class="language-nolang">&lt;b&gt;\n</code></pre>\n')


def test_headings_get_stable_ids_and_self_links() -> None:
    first = site_gen.render_markdown("## The fix: proposed, not in the PR\n\nText one.\n")
    second = site_gen.render_markdown("Intro added.\n\n## The fix: proposed, not in the PR\n")
    link = ('<h2 id="the-fix-proposed-not-in-the-pr">The fix: proposed, not in the PR '
            '<a class="header-anchor" href="#the-fix-proposed-not-in-the-pr">#</a></h2>')
    assert link in first
    assert link in second


def test_block_titles_are_headings_with_ids_and_self_links() -> None:
    """A flow's and a proposal's title can be linked to like any heading; ids never repeat."""
    html = site_gen.render_markdown(
        "## The fix\n\n"
        "```flow\ntitle: The fix\nlane a: A\nlane b: B\nstep: x\n```\n\n"
        "```proposal\ntitle: The *fix*\n\nfile: checkpoint.py L1\n@@ -1,1 +1,1 @@\n-a\n+b\n```\n")
    assert '<h2 id="the-fix">' in html
    assert ('<h3 class="block-title" id="the-fix-1">The fix <a class="header-anchor" '
            'href="#the-fix-1">#</a></h3>') in html
    assert ('<h3 class="proposal-title block-title" id="the-fix-2">The <em>fix</em> '
            '<a class="header-anchor" href="#the-fix-2">#</a></h3>') in html


def test_the_outline_names_a_block_title_as_its_heading_reads() -> None:
    """`create_ssl_context` and an escaped quote in a flow's title: the outline read them
    with their marks cut out ('createsslcontext', a backslash kept); the heading showed them
    as markdown reads them. Their id is as it was."""
    md, env = _site_markdown()
    html = md.render('```flow\ntitle: Why \\"create_ssl_context\\" returns _early_ in `a_b` '
                     "[[f.py:1]]\nlane a: A\nlane b: B\nstep: x\n```\n\n## A `plain_name`\n", env)
    context = env[ENV_KEY]
    assert isinstance(context, PageContext)
    assert context.outline == [
        (3, "why-createsslcontext-returns-early-in-ab", 'Why "create_ssl_context" returns early in a_b'),
        (2, "a-plain-name", "A plain_name")]
    assert 'id="why-createsslcontext-returns-early-in-ab"' in html


def test_a_link_to_a_block_title_resolves(project, cli) -> None:  # type: ignore[no-untyped-def]
    project.write("content/acme/widgets/12/cache-bug.md", project.root.joinpath(
        "content/acme/widgets/12/cache-bug.md").read_text()
        + "\n[the runs](#two-runs)\n\n```flow\ntitle: Two runs\nlane a: A\nlane b: B\nstep: x\n```\n")
    built = cli("build", "--no-search")
    assert built.code == 0, built.err


# Inline text that no inline rule can start in (flow cells, summary fields): rendered as
# the text, escaped, without running the parser (blocks.plain_text).

INLINE_ALPHABET = st.sampled_from(
    list("aZé9 .,;'\"()/?|\t\r\0") + sorted(_DEFAULT_TERMINATORS) + ["🙂", "&amp;", "[[f.py:1]]"])


def _site_markdown() -> tuple[MarkdownIt, dict[str, object]]:
    config = default_config()
    return make_markdown(config), {ENV_KEY: PageContext(config)}


@settings(max_examples=400, deadline=None)
@given(st.lists(INLINE_ALPHABET, max_size=12).map("".join))
def test_inline_text_renders_as_the_parser_renders_it(text: str) -> None:
    md, env = _site_markdown()
    assert render_inline(md, env, text, 1) == Markup(md.renderInline(text, dict(env)))
    assert render_inline_text(PageContext(default_config()), text, 1) == \
        md.renderInline(text, dict(env))


def test_plain_inline_text_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    md, env = _site_markdown()
    parsed: list[str] = []
    monkeypatch.setattr(md, "parseInline", lambda src, env=None: parsed.append(src) or [])
    assert render_inline(md, env, 'Sync save, so the "tag" is (wrongly) true', 1) == \
        "Sync save, so the &quot;tag&quot; is (wrongly) true"
    assert parsed == []
    render_inline(md, env, "calls `wait_fn()`", 1)
    render_inline(md, env, "a snake_case name", 1)
    assert parsed == ["calls `wait_fn()`", "a snake_case name"]


def test_inline_text_is_parsed_when_the_typographer_may_change_it() -> None:
    md = MarkdownIt("commonmark", {"typographer": True}).enable(["replacements", "smartquotes"])
    assert not plain_text(md, "(c) 'quoted'")
    assert render_inline(md, {ENV_KEY: PageContext(default_config())}, "(c) 'quoted'", 1) == \
        md.renderInline("(c) 'quoted'")
