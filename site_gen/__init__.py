"""site_gen: a static site generator for review explainers."""

from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.1.0"
__all__ = ["render_markdown", "__version__"]

if TYPE_CHECKING:
    from .markdown import render_markdown


def __getattr__(name: str) -> object:
    # The markdown stage pulls in Pygments' lexers (a quarter of a second); importing it
    # only when asked keeps `site-gen build` on an unchanged site fast.
    if name == "render_markdown":
        from .markdown import render_markdown

        return render_markdown
    raise AttributeError(f"module 'site_gen' has no attribute {name!r}")
