"""The site's stylesheet as it is served: templates/site.css and the Pygments token colours,
written compactly (every page loads it, so every byte counts on a phone).

The source keeps its comments and layout; the served file drops them, and the token
colours come one rule per colour, not one per token type.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pygments.style import StyleMeta
from pygments.token import STANDARD_TYPES

# Strings are kept as written; comments go; any run of whitespace becomes one space.
_PIECES = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|/\*.*?\*/|\s+', re.S)
# Spaces that mean nothing: around braces, after ; , and { and before ; , and }.
_AROUND = re.compile(r"\s*([{};,])\s*|(:)\s+")
# A number's leading zero (`0.5rem` is `.5rem`), not a digit of a longer number or a name.
_LEADING_ZERO = re.compile(r"(?<![\w.#])0(\.\d)")


def minify(css: str) -> str:
    """`css` without comments, needless whitespace or a number's leading zero; what it
    styles is the same."""
    def piece(m: re.Match[str]) -> str:
        text = m[0]
        if text.startswith(("'", '"')):
            return text
        return "" if text.startswith("/*") else " "

    text = _PIECES.sub(piece, css)
    # then the spaces around punctuation, strings left alone
    parts = re.split(r'("(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\')', text)
    text = "".join(p if i % 2 else _squeeze(p) for i, p in enumerate(parts))
    return text.replace(";}", "}").strip() + "\n"


def _squeeze(text: str) -> str:
    return _LEADING_ZERO.sub(r"\1", _AROUND.sub(lambda m: m[1] or m[2], text))


def token_rules(style: StyleMeta, scope: str) -> str:
    """The colours of `style` for code under `scope`: one rule per look, naming every
    token class that has it (Pygments' own CSS writes one rule per token type)."""
    looks: dict[str, list[str]] = {}
    for ttype, spec in style:
        name = STANDARD_TYPES.get(ttype)
        declarations = declarations_of(spec)
        if name and declarations:
            looks.setdefault(declarations, []).append(f"{scope} .{name}")
    color = getattr(style, "background_color", None)
    background = f"{scope}{{background:{color}}}" if color else ""
    rules = [background] + [f"{','.join(sorted(names))}{{{look}}}"
                            for look, names in sorted(looks.items())]
    return "\n".join(rule for rule in rules if rule) + "\n"


def declarations_of(spec: Mapping[str, object]) -> str:
    """The CSS of one Pygments style entry ('' when it gives the token no look)."""
    found = []
    if spec.get("color"):
        found.append(f"color:#{spec['color']}")
    if spec.get("bold"):
        found.append("font-weight:bold")
    if spec.get("italic"):
        found.append("font-style:italic")
    if spec.get("underline"):
        found.append("text-decoration:underline")
    if spec.get("bgcolor"):
        found.append(f"background-color:#{spec['bgcolor']}")
    return ";".join(found)
