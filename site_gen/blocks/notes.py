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
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.admon import admon_plugin

from . import block_renderer

# The kinds MkDocs (Material) and GitHub know, by tone; any other kind reads as a note.
TONES = {
    "note": "info", "info": "info", "abstract": "info", "summary": "info", "tldr": "info",
    "question": "info", "help": "info", "faq": "info", "example": "info", "quote": "neutral",
    "tip": "success", "hint": "success", "important": "success", "success": "success",
    "check": "success", "done": "success", "warning": "warning", "caution": "warning",
    "attention": "warning", "danger": "danger", "error": "danger", "failure": "danger",
    "fail": "danger", "missing": "danger", "bug": "danger",
}


def _titles(state: StateCore) -> None:
    """Each box's kind and title (its first inline text, else the kind), on its open token."""
    tokens = state.tokens
    for idx, token in enumerate(tokens):
        if token.type in ("admonition_open", "alert_open"):
            kind = str(token.meta.get("tag") or token.meta.get("kind") or "note").lower()
            inline = tokens[idx + 2] if idx + 2 < len(tokens) else None
            title = "".join(child.content for child in (inline.children if inline else None) or ()
                            if child.type in ("text", "code_inline")) or kind.capitalize()
            token.meta |= {"tone": TONES.get(kind, "info"), "title": title}


def notes_plugin(md: MarkdownIt, *, templates: jinja2.Environment) -> None:
    """Register admonitions and alerts, both rendered as callouts."""
    macros = templates.get_template("blocks/callout.html").module
    admon_plugin(md)
    md.options["alerts"] = True
    md.core.ruler.push("note_titles", _titles)

    def open_box(token: Token, env: dict[str, Any]) -> str:
        return str(macros.box(token.meta["tone"], token.meta["title"]))  # type: ignore[attr-defined]

    def title_open(token: Token, env: dict[str, Any]) -> str:
        return '<p class="callout-head">'

    def title_close(token: Token, env: dict[str, Any]) -> str:
        return '</p>\n<div class="callout-body">\n'

    def close_box(token: Token, env: dict[str, Any]) -> str:
        return str(macros.close())  # type: ignore[attr-defined]

    for prefix in ("admonition", "alert"):
        block_renderer(md, f"{prefix}_open", open_box)
        block_renderer(md, f"{prefix}_title_open", title_open)
        block_renderer(md, f"{prefix}_title_close", title_close)
        block_renderer(md, f"{prefix}_close", close_box)
