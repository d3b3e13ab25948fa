"""The code host's vocabulary: how a permalink, a commit, a pull request and a clone are
spelled there (GitHub's by default; `site_gen.code_host` in mkdocs.yml changes any), and
the one way a pattern is filled in."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from .filetypes import ending

GITHUB_PERMALINK = "https://github.com/{repo}/blob/{commit}/{path}{lines}"
GITHUB_FOLDER = "https://github.com/{repo}/tree/{commit}/{path}"
GITHUB_LINES = "#L{start}-L{end}"
GITHUB_LINE = "#L{start}"
GITHUB_COMMIT = "https://github.com/{repo}/commit/{commit}"
GITHUB_CLONE = "https://github.com/{repo}.git"
GITHUB_PULL_REF = "refs/pull/{number}/head"
GITHUB_PULL = "https://github.com/{repo}/pull/{number}"
GITHUB_FILES = "https://github.com/{repo}/pull/{number}/files"
GITHUB_PLAIN = "?plain=1"
# Endings of the files a code host shows rendered (markup, notebooks, tables, maps,
# images): a link to their lines shows them only as text (`plain`).
RENDERED = frozenset({"md", "markdown", "mdown", "mkdn", "mkd", "rst", "adoc", "asciidoc",
                      "asc", "org", "textile", "rdoc", "creole", "mediawiki", "wiki", "pod",
                      "ipynb", "csv", "tsv", "svg", "geojson", "topojson"})

# The fields each code-host pattern may name; nothing else is ever substituted.
HOST_FIELDS = {"permalink": ("repo", "commit", "path", "lines"), "lines": ("start", "end"),
               "folder": ("repo", "commit", "path"),
               "line": ("start",), "commit": ("repo", "commit"), "clone": ("repo",),
               "pull_ref": ("number",), "pull": ("repo", "number"), "files": ("repo", "number"),
               "name": (), "plain": ()}
WEB_PATTERNS = ("permalink", "folder", "commit", "clone", "pull", "files")  # pages a link opens
FIELD = re.compile(r"\{([^{}]*)\}")


def fill(pattern: str, **values: object) -> str:
    """`pattern` with each `{name}` of `values` replaced; other braces stay as they are.

    Unlike str.format, it evaluates nothing: `{repo.__class__}` is just text."""
    fields, tail = _fields(pattern)
    return "".join([text + (str(values[name]) if name in values else whole)
                    for text, name, whole in fields]) + tail


@functools.lru_cache(maxsize=64)
def _fields(pattern: str) -> tuple[tuple[tuple[str, str, str], ...], str]:
    """`pattern` cut at its `{name}` fields: (the text before, the name, the field as
    written) for each, and the text after the last. A site fills a few patterns thousands
    of times (every permalink of every page)."""
    fields, at = [], 0
    for m in FIELD.finditer(pattern):
        fields.append((pattern[at:m.start()], m[1], m[0]))
        at = m.end()
    return tuple(fields), pattern[at:]


@dataclass(frozen=True)
class CodeHost:
    """How a pinned permalink is spelled on the code host."""

    permalink: str = GITHUB_PERMALINK
    folder: str = GITHUB_FOLDER  # a folder of the tree at a commit
    lines: str = GITHUB_LINES
    line: str = GITHUB_LINE
    commit: str = GITHUB_COMMIT
    clone: str = GITHUB_CLONE  # where `site-gen fetch` gets a repository not in `sources`
    pull_ref: str = GITHUB_PULL_REF  # a PR's head ref: how an abbreviated SHA is found
    pull: str = GITHUB_PULL  # the pull request's page, linked from every page about it
    files: str = GITHUB_FILES  # its changed files
    name: str = "GitHub"  # where those links go, as they say it ("Open on GitHub")
    # what a link to lines of a file the host shows rendered (see RENDERED) adds before the
    # lines, to show it as text with the lines marked ('' where the host has no such view)
    plain: str = GITHUB_PLAIN

    def rendered(self, path: str) -> bool:
        """Whether the host shows `path` rendered, not as lines of text."""
        return ending(path) in RENDERED
