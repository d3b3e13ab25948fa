"""site_gen: a static site generator for review explainers."""

from .markdown import render_markdown

__version__ = "0.1.0"
__all__ = ["render_markdown", "__version__"]
