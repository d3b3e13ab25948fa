"""Pygments styles for light and dark pages, with every colour at WCAG AA contrast.

Pygments' own styles use colours (comments, operators, built-ins) that drop below a 4.5:1
contrast ratio on the tinted backgrounds of removed and added diff lines; these two stay
above it on the page, panel, removed, added and marked-word backgrounds of site.css.
"""

from __future__ import annotations

from pygments.style import Style
from pygments.token import Comment, Error, Generic, Keyword, Name, Number, Operator, String, Token, _TokenType


def _palette(comment: str, keyword: str, constant: str, function: str, kind: str,
             string: str, tag: str) -> dict[_TokenType, str]:
    return {
        Token: "",
        Comment: f"italic {comment}",
        Keyword: keyword,
        Keyword.Constant: constant,
        Keyword.Type: kind,
        Operator.Word: keyword,
        Name.Builtin: constant,
        Name.Function: function,
        Name.Class: kind,
        Name.Decorator: kind,
        Name.Exception: kind,
        Name.Tag: tag,  # YAML's and JSON's keys, HTML's and XML's tags
        Name.Attribute: constant,  # HTML's and XML's attributes
        String: string,
        Token.Literal: string,  # YAML's values (Literal.Scalar.Plain: no class of its own)
        Number: constant,
        Error: keyword,
        Generic.Heading: f"bold {constant}",  # a markdown file's headings
        Generic.Subheading: f"bold {constant}",
        Generic.Emph: "italic",
        Generic.Strong: "bold",
        Generic.Inserted: tag,  # a .diff or .patch file's lines
        Generic.Deleted: keyword,
    }


class ReviewLight(Style):
    """Light code colours (GitHub-like hues, darkened for contrast)."""

    name = "review-light"
    background_color = "#f6f8fa"
    styles = _palette("#57606a", "#a0111f", "#0550ae", "#5a32a3", "#8a3100", "#0a3069", "#116329")


class ReviewDark(Style):
    """Dark code colours (GitHub-dark-like hues, lightened for contrast)."""

    name = "review-dark"
    background_color = "#151b23"
    styles = _palette("#aab3bd", "#ff9492", "#79c0ff", "#d2a8ff", "#ffa657", "#a5d6ff", "#9cf5a5")
