"""The last check before anything is written: every link the built pages hold resolves.

The body links of a page are checked where the author wrote them (`build.check_links`,
with their line); this checks the result, whoever wrote the link (a template, a block, a
body): every internal `href` and `src` of every page this build made names a file of the
site, and every `#fragment` an id on the page it names.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from html import unescape
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .errors import Problems
from .output import Kept, Outputs

ELSEWHERE = ("https://", "http://", "data:", "mailto:")  # links that leave the site: not ours


def check_outputs(outputs: Outputs, root_path: str, problems: Problems,
                  blame: Mapping[str, Path], templates: Path) -> None:
    """Report each link of a page made in this build (a page kept as it was has the links
    it had, checked when it was made) that names no file of the site, or no id on it.
    `root_path` is the site's path on its host (for 404.html, linked from the root);
    an error names the file a page was made from (`blame`), else the templates."""
    ids: dict[str, set[str]] = {}
    seen: dict[tuple[str, str], str | None] = {}  # pages of one folder share most links
    for name, content in sorted(outputs.items()):
        if not name.endswith(".html") or not isinstance(content, str):
            continue
        here = posixpath.dirname(name)  # a link means the same from every page of a folder
        for raw in dict.fromkeys(_values(content, "href") + _values(content, "src")):
            if raw.startswith(ELSEWHERE):
                continue
            key = (name if raw.startswith("#") or not raw else here, raw)  # '#x': this page
            if key not in seen:
                seen[key] = _problem(name, unescape(raw), outputs, root_path, ids)
            problem = seen[key]
            if problem:
                problems.error(f"the built page '{name}' {problem}; a link a template or a "
                               "block writes must name a file of the site",
                               blame.get(name, templates))


def _problem(name: str, href: str, outputs: Outputs, root_path: str,
             ids: dict[str, set[str]]) -> str | None:
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or href.startswith("//"):
        return None  # another host, data:, mailto: (what may leave the site is the CSP's)
    target = _target(name, unquote(parts.path), root_path)
    if target is None:
        return f"links to '{href}', outside the site's path {root_path}"
    if target not in outputs:
        return f"links to '{href}', which is not a file of the site"
    if parts.fragment and parts.fragment not in _ids(target, outputs, ids):
        return f"links to '{href}', and '{target}' has no element with id '{parts.fragment}'"
    return None


def _target(name: str, path: str, root_path: str) -> str | None:
    """The output a link from page `name` names (a folder: its index.html)."""
    if not path:
        return name
    if path.startswith("/"):
        if not path.startswith(root_path):
            return None
        path, here = path[len(root_path):], ""
    else:
        here = posixpath.dirname(name)
    folder = not path or path.endswith("/") or path in (".", "..") or path.endswith(("/.", "/.."))
    joined = posixpath.normpath(posixpath.join("/", here, path)).lstrip("/")
    if folder:
        return f"{joined}/index.html" if joined else "index.html"
    return joined


def _ids(target: str, outputs: Outputs, ids: dict[str, set[str]]) -> set[str]:
    if target not in ids:
        content = outputs[target]
        text = content.read() if isinstance(content, Kept) else content
        ids[target] = {unescape(i) for i in _values(text, " id")} if isinstance(text, str) else set()
    return ids[target]


def _values(html: str, attribute: str) -> list[str]:
    """Every value of `attribute` in `html` (as site_gen writes them: `name="value"`), found
    by plain string search, which is many times faster than a pattern on a whole site."""
    parts = html.split(f'{attribute}="')
    return [part[:part.find('"')] for part in parts[1:] if '"' in part]
