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

from . import urls
from .config import Config
from .errors import Problems
from .output import Kept, Outputs

ELSEWHERE = ("https://", "http://", "data:", "mailto:")  # links that leave the site: not ours


# A page's text, what was wrong with its links, and the pages whose ids they name (each
# with its text then: an edit there can change the answer).
Checked = dict[str, tuple[str, list[str], tuple[tuple[str, object], ...]]]


def check_outputs(config: Config, outputs: Outputs, problems: Problems,
                  blame: Mapping[str, Path], checked: Checked | None = None) -> None:
    """Report each link of a page made in this build (a page kept as it was has the links
    it had, checked when it was made) that names no file of the site, or no id on it.
    An error names the file a page was made from (`blame`), else the templates folder.

    `checked` (a warm build's, kept while the site's names stay the same) holds each
    page's last answer: a page whose text is the very same object is not read again."""
    root, templates = urls.root_path(config.site_url), config.custom_dir  # 404.html: from root
    ids: dict[str, set[str]] = {}
    seen: dict[tuple[str, str], str | None] = {}  # pages of one folder share most links
    for name, content in sorted(outputs.items()):
        if not name.endswith(".html") or not isinstance(content, str):
            continue
        held = checked.get(name) if checked is not None else None
        if held is None or held[0] is not content or any(
                outputs.get(target) is not text for target, text in held[2]):
            found, named = _page_problems(name, content, outputs, root, ids, seen)
            held = (content, found, tuple((t, outputs.get(t)) for t in named))
            if checked is not None:
                checked[name] = held
        for problem in held[1]:
            problems.error(f"the built page '{name}' {problem}; a link a template or a "
                           "block writes must name a file of the site",
                           blame.get(name, templates))


def _page_problems(name: str, content: str, outputs: Outputs, root_path: str,
                   ids: dict[str, set[str]], seen: dict[tuple[str, str], str | None]
                   ) -> tuple[list[str], set[str]]:
    """What is wrong with the links of page `name` (`seen`: answers by folder and link),
    and the other pages whose ids its links name."""
    found = []
    named: set[str] = set()
    here = posixpath.dirname(name)  # a link means the same from every page of a folder
    for raw in dict.fromkeys(_values(content, "href") + _values(content, "src")):
        if raw.startswith(ELSEWHERE):
            continue
        key = (name if raw.startswith("#") or not raw else here, raw)  # '#x': this page
        if key not in seen:
            seen[key] = _problem(name, unescape(raw), outputs, root_path, ids)
        problem = seen[key]
        if problem:
            found.append(problem)
        fragment_of = _fragment_target(name, unescape(raw), root_path)
        if fragment_of and fragment_of != name:
            named.add(fragment_of)
    return found, named


def _fragment_target(name: str, href: str, root_path: str) -> str | None:
    """The page whose id the link `href` of page `name` names, if it names one."""
    parts = urlsplit(href)
    return _target(name, unquote(parts.path), root_path) if parts.fragment else None


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
        ids[target] = {unescape(i) for i in _values(text, "id")} if isinstance(text, str) else set()
    return ids[target]


def _values(html: str, attribute: str) -> list[str]:
    """Every value of `attribute` in `html` as site_gen writes them: ` name="value"` in a
    tag, the name after white space (`id` is not `data-id`). Found by plain string search,
    which is many times faster than a pattern on a whole site. Text that reads so is not a
    tag's: code shown on a page (a README's `<a href="...">`, its `<` written `&lt;`)
    keeps its `"` as they are."""
    key, found, start = f'{attribute.strip()}="', [], 0
    while (at := html.find(key, start)) != -1:
        start = at + len(key)  # text's quotes may not pair: read on from here, not its end
        if at and html[at - 1] in " \t\n" and html.rfind("<", 0, at) > html.rfind(">", 0, at):
            end = html.find('"', start)
            if end == -1:
                break
            found.append(html[start:end])
            start = end + 1
    return found
