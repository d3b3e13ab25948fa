"""The code of a component: Vue's and Svelte's single-file components and Astro's pages
hold their code in `<script>` elements (Astro's also between the `---` lines that open
the file), among markup that no grammar reads. The code index and claims read that code
as the language its `lang` says (TypeScript, TSX or JavaScript; without one, JavaScript,
but TypeScript in an Astro page) with everything else blanked, so that a definition's
and a match's lines and columns are the file's own."""

from __future__ import annotations

import re

ENDINGS = frozenset({"vue", "svelte", "astro"})
# A comment (whose `<script>` is no element), or a script element: its attributes (a
# quoted value may hold `>`: Vue's `generic="T extends Record<string, unknown>"`) and code.
_ELEMENT = re.compile(r"<!--.*?-->|<script\b((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>(.*?)</script\s*>",
                      re.DOTALL | re.IGNORECASE)
_LANG = re.compile(r"""\blang\s*=\s*["']?([\w-]*)""", re.IGNORECASE)
_TYPE = re.compile(r"""\btype\s*=\s*["']?([\w/+.-]*)""", re.IGNORECASE)
_SRC = re.compile(r"\bsrc\s*=", re.IGNORECASE)
# What a `lang` says, read as the grammars read it; another (`coffee`) is not read.
_LANGS = {"js": "javascript", "javascript": "javascript", "jsx": "jsx",
          "ts": "typescript", "typescript": "typescript", "tsx": "tsx"}
# A `type` that is code (a JSON-LD `<script type="application/ld+json">` is not).
_CODE_TYPES = frozenset({"", "module", "text/javascript", "application/javascript",
                         "text/typescript", "text/ecmascript", "application/ecmascript"})
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)---[ \t]*$", re.DOTALL | re.MULTILINE)


def code_of(path: str, lines: list[str]) -> tuple[str, list[str]]:
    """The ast-grep language of the component `path`'s code and its lines as a grammar
    reads them: the code of its script elements (and of an Astro page's front matter)
    where it stands, every other character a space; 'javascript' when it has none."""
    text = "\n".join(lines)
    kept: list[tuple[int, int]] = []
    langs: set[str] = set()
    markup = 0  # where the markup starts: after an Astro page's front matter
    astro = path.lower().endswith(".astro")
    if astro and (front := _FRONT_MATTER.match(text)):
        kept.append(front.span(1))
        langs.add("typescript")
        markup = front.end()
    for element in _ELEMENT.finditer(text, markup):
        attributes = element.group(1)
        if attributes is None or _SRC.search(attributes):
            continue  # a comment, or a script whose code is another file's
        kind = _TYPE.search(attributes)
        lang = _LANG.search(attributes)
        # Astro builds its scripts as TypeScript; Vue and Svelte need `lang="ts"` for that
        said = _LANGS.get(lang.group(1).lower()) if lang else "typescript" if astro else \
            "javascript"
        if said is not None and (kind is None or kind.group(1).lower() in _CODE_TYPES):
            kept.append(element.span(2))
            langs.add(said)
    return _language(langs), _blanked(text, kept).split("\n")


def _language(langs: set[str]) -> str:
    # TypeScript's grammar reads JavaScript's code, and TSX's reads both with JSX.
    if "tsx" in langs or {"typescript", "jsx"} <= langs:
        return "tsx"
    return "typescript" if "typescript" in langs else "javascript"


def _blanked(text: str, kept: list[tuple[int, int]]) -> str:
    """`text` with every character outside the `kept` spans a space, but line ends."""
    parts, at = [], 0
    for start, end in sorted(kept):
        parts += [_BLANK.sub(" ", text[at:start]), text[start:end]]
        at = end
    parts.append(_BLANK.sub(" ", text[at:]))
    return "".join(parts)


_BLANK = re.compile(r"[^\n]")
