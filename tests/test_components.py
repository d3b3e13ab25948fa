"""Components: a Vue or Svelte single-file component's code, and an Astro page's, is its
script (and an Astro page's front matter), read as the language its `lang` says, where it
stands in the file: its definitions are linked by name, a claim's pattern counts in it
(not in the markup around it), a hunk's `file:` line is checked against it; a Svelte
component and an Astro page are coloured as HTML. Checked against a local repository."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from site_gen.code_index import grammar_of, language_of
from site_gen.components import code_of
from site_gen.content import PullRequest
from site_gen.git_reader import SourceReader
from site_gen.highlight import highlighted_lines
from site_gen.statuses import DEFAULT_STATUSES

from .blockutil import render
from .conftest import commit

SAVE = """\
<template>
  <button @click="save(draft)">Save</button>
  <!-- <script>function hidden() {}</script> -->
</template>

<script setup lang="ts" generic="T extends Record<string, unknown>">
import { ref } from 'vue'
const draft = ref<T | null>(null)

function save(value: T | null) {
  if (value === null)
    return
  store.put(value)
}
</script>
"""
COUNTER = """\
<script>
  let count = $state(0)
  function increment() {
    count += 1
  }
</script>

<button onclick={increment}>{count}</button>
<svelte:head>
  <script type="application/ld+json">{"name": "counter"}</script>
</svelte:head>
"""
PAGE = """\
---
import Layout from '../layouts/Layout.astro'
function title(text: string): string {
  return text.toUpperCase()
}
---
<Layout><h1>{title("posts")}</h1></Layout>
"""


@pytest.fixture(scope="module")
def code(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    repo = tmp_path_factory.mktemp("components") / "code"
    return repo, commit(repo, {"src/Save.vue": SAVE, "src/Counter.svelte": COUNTER,
                               "src/pages/index.astro": PAGE})


PR = PullRequest(Path("pr.yml"), "acme/web", 5, "T", "0" * 40, None, DEFAULT_STATUSES["open"],
                 (), ())


def check(code: tuple[Path, str], text: str) -> tuple[str, list[str]]:
    repo, head = code
    reader = SourceReader(repo)
    try:
        html, errors, _ = render(text, reader, dataclasses.replace(PR, head=head))
    finally:
        reader.close()
    return html, errors


def test_the_code_of_a_component_is_its_script_where_it_stands() -> None:
    lines = SAVE.splitlines()
    language, code = code_of("src/Save.vue", lines)
    assert language == "typescript"  # lang="ts", past a `>` in a quoted attribute
    assert [len(line) for line in code] == [len(line) for line in lines]
    assert code[6:14] == lines[6:14]  # the script's lines, as they are
    assert all(not line.strip() for line in code[:6] + code[14:])  # the markup, a comment
    # on one line with its tags: only the code, in its columns
    assert code_of("a.vue", ["<script>let x = 1</script>"]) == (
        "javascript", ["        let x = 1         "])


@pytest.mark.parametrize(("text", "language"), [
    ("<script>\nlet x\n</script>", "javascript"),  # no lang: JavaScript
    ("<script lang=ts>\nlet x\n</script>", "typescript"),
    ("<script lang='tsx'>\nlet x\n</script>", "tsx"),
    # a component's two scripts: one grammar reads both
    ('<script lang="jsx">\n</script>\n<script setup lang="ts">\n</script>', "tsx"),
    ('<script>\n</script>\n<script setup lang="ts">\n</script>', "typescript"),
    ('<template><p/></template>', "javascript"),  # no script: nothing defined, nothing matched
])
def test_the_language_of_a_component_is_the_one_its_script_says(text: str,
                                                                 language: str) -> None:
    assert code_of("src/A.vue", text.split("\n"))[0] == language
    assert language_of("src/A.vue", None, text.split("\n")) == language
    assert language_of("src/A.svelte", {"svelte": "html"}, text.split("\n")) == language


@pytest.mark.parametrize("element", [
    '<script lang="coffee">\nx = 1\n</script>',  # a language no grammar of these reads
    '<script type="application/ld+json">\n{"x": 1}\n</script>',  # data, not code
    '<script src="./x.js">\n</script>',  # another file's code
    '<!--\n<script>\nx = 1\n</script>\n-->',  # a comment
])
def test_what_is_not_the_components_code_is_blanked(element: str) -> None:
    _, code = grammar_of("src/A.svelte", None, element.split("\n"))
    assert not "".join(code).strip()


def test_an_astro_pages_front_matter_is_typescript() -> None:
    language, code = code_of("src/pages/index.astro", PAGE.splitlines())
    assert language == "typescript"
    assert code[1:5] == PAGE.splitlines()[1:5]
    assert not (code[0] + code[5] + code[6]).strip()  # its `---` lines and the markup
    # Astro builds its scripts as TypeScript, with no `lang` (astro's own Inline.astro)
    script = ["<script>", "  interface Props { name: string }", "</script>"]
    assert code_of("src/components/Inline.astro", script)[0] == "typescript"
    assert code_of("src/components/Inline.vue", script)[0] == "javascript"
    # the front matter of a Vue component is no code of it
    assert code_of("src/A.vue", ["---", "let x", "---"])[1] == ["   ", "     ", "   "]


@pytest.mark.parametrize(("ref", "expected"), [
    ("[[Save.vue::save]]", "src/Save.vue#L10-L14"),
    ("[[Counter.svelte::increment]]", "src/Counter.svelte#L3-L5"),
    ("[[index.astro::title]]", "src/pages/index.astro#L3-L5"),
])
def test_a_components_definitions_are_linked_by_name(code: tuple[Path, str], ref: str,
                                                     expected: str) -> None:
    html, errors = check(code, f"See {ref}.\n")
    assert errors == []
    assert expected + '"' in html


def test_a_claim_counts_in_a_components_script_not_its_markup(code: tuple[Path, str]) -> None:
    """The template calls save(draft) too: that is markup, which no grammar reads."""
    claim = "```claim\nsays: saved once\ncount: {}\npattern: store.put($V)\nin: {}\n```\n"
    html, errors = check(code, claim.format(1, "*.vue"))
    assert errors == []
    assert "src/Save.vue:13</a> <code class=\"claim-code\">store.put(value)</code>" in html
    _, errors = check(code, claim.format(0, "*.vue").replace("store.put($V)", "save($V)"))
    assert errors == []
    _, errors = check(code, claim.format(1, "src/").replace("store.put($V)", "count += $N"))
    assert errors == []  # Svelte's


def test_a_hunk_of_a_component_is_checked_against_the_definition_it_names(
        code: tuple[Path, str]) -> None:
    hunk = ("```proposal\nfile: Save.vue L13 · {}\n@@ -13,1 +13,1 @@\n-  store.put(value)\n"
            "+  store.put(structuredClone(value))\n```\n")
    _, errors = check(code, hunk.format("save"))
    assert errors == []
    _, errors = check(code, hunk.format("draft"))
    assert len(errors) == 1 and "save (L10-L14)" in errors[0]


def test_a_svelte_component_and_an_astro_page_are_coloured_as_html() -> None:
    counter = "\n".join(highlighted_lines("src/Counter.svelte", COUNTER.splitlines(), {}))
    assert '&lt;<span class="nt">button</span>' in counter  # the markup
    assert '<span class="kd">let</span>' in counter  # the script, as JavaScript
    page = "\n".join(highlighted_lines("src/pages/index.astro", PAGE.splitlines(), {}))
    assert '&lt;<span class="nt">Layout</span>&gt;' in page
    vue = "\n".join(highlighted_lines("src/Save.vue", SAVE.splitlines(), {}))
    assert '<span class="k">function</span>' in vue or '<span class="kd">function</span>' in vue
