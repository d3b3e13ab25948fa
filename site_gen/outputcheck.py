"""The last check before anything is written: every link the built pages hold resolves.

The body links of a page are checked where the author wrote them (`build.check_links`,
with their line); this checks the result, whoever wrote the link (a template, a block, a
body): every internal `href` and `src` of every page this build made names a file of the
site, and every `#fragment` an id on the page it names.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path
from urllib.parse import unquote, urlsplit

from . import urls
from .config import Config
from .errors import Problems
from .output import Kept, Outputs

ELSEWHERE = ("https://", "http://", "data:", "mailto:")  # links that leave the site: not ours


@dataclass
class Checked:
    """The output check's answers kept by a warm build, good while the site's file names
    stay the same (a file that comes or goes can change any of them)."""

    # each page's text, what was wrong with its links, and the pages whose ids they name
    # (each with its text then: an edit there can change the answer)
    pages: dict[str, tuple[str, list[str], tuple[tuple[str, object], ...]]] = field(
        default_factory=dict)
    # each link's answer by the folder it is written in (a '#x' link: by its page) and the
    # link as written: after an edit, a page is read again but most of its links are not
    # (the home page and the status pages of 1,000 PRs hold thousands, a title edit changes
    # their text but not their links)
    links: dict[tuple[str, str], Answer] = field(default_factory=dict)


# What is wrong with a link (None: nothing), and the page whose id its fragment names with
# that page's text when the answer was found (None, None: it names no id).
Answer = tuple[str | None, str | None, object]


def check_outputs(config: Config, outputs: Outputs, problems: Problems,
                  blame: Mapping[str, Path], checked: Checked | None = None) -> None:
    """Report each link of a page made in this build (a page kept as it was has the links
    it had, checked when it was made) that names no file of the site, or no id on it.
    An error names the file a page was made from (`blame`), else the templates folder.

    `checked` (a warm build's) holds the last answers: a page whose text is the very same
    object is not read again, and a link answered before is not looked up again unless
    the page whose id it names changed."""
    root, templates = urls.root_path(config.site_url), config.custom_dir  # 404.html: from root
    ids: dict[str, set[str]] = {}
    pages = checked.pages if checked is not None else {}
    answers = checked.links if checked is not None else {}  # pages of one folder share most
    wrong: list[tuple[str, list[str]]] = []
    for name, content in outputs.items():
        if not name.endswith(".html") or not isinstance(content, str):
            continue
        held = pages.get(name)
        if held is None or held[0] is not content or (held[2] and any(
                outputs.get(target) is not text for target, text in held[2])):
            found, named = _page_problems(name, content, outputs, root, ids, answers)
            held = pages[name] = (content, found, tuple((t, outputs.get(t)) for t in named))
        if held[1]:
            wrong.append((name, held[1]))
    for name, found in sorted(wrong):  # by page, whatever order the pages were made in
        for problem in found:
            problems.error(f"the built page '{name}' {problem}; a link a template or a "
                           "block writes must name a file of the site",
                           blame.get(name, templates))


def _page_problems(name: str, content: str, outputs: Outputs, root_path: str,
                   ids: dict[str, set[str]], answers: dict[tuple[str, str], Answer]
                   ) -> tuple[list[str], set[str]]:
    """What is wrong with the links of page `name` (`answers`: by folder and link), and
    the other pages whose ids its links name."""
    found = []
    named: set[str] = set()
    here = posixpath.dirname(name)  # a link means the same from every page of a folder
    for raw in dict.fromkeys(_values(content, "href") + _values(content, "src")):
        if raw.startswith(ELSEWHERE):
            continue
        key = (name if raw.startswith("#") or not raw else here, raw)  # '#x': this page
        answer = answers.get(key)
        if answer is None or (answer[1] is not None and outputs.get(answer[1]) is not answer[2]):
            answer = answers[key] = _answer(name, unescape(raw), outputs, root_path, ids)
        problem, fragment_of, _ = answer
        if problem:
            found.append(problem)
        if fragment_of is not None and fragment_of != name:
            named.add(fragment_of)
    return found, named


def _answer(name: str, href: str, outputs: Outputs, root_path: str,
            ids: dict[str, set[str]]) -> Answer:
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or href.startswith("//"):
        return None, None, None  # another host, data:, mailto: (what may leave is the CSP's)
    target = _target(name, unquote(parts.path), root_path)
    if target is None:
        return f"links to '{href}', outside the site's path {root_path}", None, None
    if target not in outputs:
        return f"links to '{href}', which is not a file of the site", None, None
    if not parts.fragment:
        return None, None, None
    problem = None if parts.fragment in _ids(target, outputs, ids) else (
        f"links to '{href}', and '{target}' has no element with id '{parts.fragment}'")
    return problem, target, outputs[target]


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
