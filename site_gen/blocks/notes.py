"""Callouts pasted from elsewhere read right: MkDocs' admonitions (`!!! note "Title"`, with
mdit-py-plugins' admon plugin) and GitHub's alerts (`> [!NOTE]`, markdown-it's own), both
rendered as the site's callouts (templates/blocks/callout.html), toned by their kind.

    !!! warning "Before you merge"
        The tag is still wrong.

    > [!TIP]
    > Read the sync case first.
"""

from __future__ import annotations

from typing import Any

import jinja2
from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.admon import admon_plugin

# The kinds MkDocs (Material) and GitHub know, by tone; any other kind reads as a note.
TONES = {
    "note": "info", "info": "info", "abstract": "info", "summary": "info", "tldr": "info",
    "question": "info", "help": "info", "faq": "info", "example": "info", "quote": "neutral",
    "tip": "success", "hint": "success", "important": "success", "success": "success",
    "check": "success", "done": "success", "warning": "warning", "caution": "warning",
    "attention": "warning", "danger": "danger", "error": "danger", "failure": "danger",
    "fail": "danger", "missing": "danger", "bug": "danger",
}


def notes_plugin(md: MarkdownIt, *, templates: jinja2.Environment) -> None:
    """Register admonitions and alerts, both rendered as callouts."""
    macros = templates.get_template("blocks/callout.html").module
    admon_plugin(md)
    md.options["alerts"] = True

    def open_box(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        kind = str(tokens[idx].meta.get("tag") or tokens[idx].meta.get("kind") or "note").lower()
        inline = tokens[idx + 2] if idx + 2 < len(tokens) else None
        title = "".join(child.content for child in (inline.children if inline else None) or ()
                        if child.type in ("text", "code_inline")) or kind.capitalize()
        return str(macros.box(TONES.get(kind, "info"), title))  # type: ignore[attr-defined]

    def title_open(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        return '<p class="callout-head">'

    def title_close(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        return '</p>\n<div class="callout-body">\n'

    def close_box(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        return str(macros.close())  # type: ignore[attr-defined]

    for prefix in ("admonition", "alert"):
        md.add_render_rule(f"{prefix}_open", open_box)
        md.add_render_rule(f"{prefix}_title_open", title_open)
        md.add_render_rule(f"{prefix}_title_close", title_close)
        md.add_render_rule(f"{prefix}_close", close_box)
