"""The one URL function: how a page or file of the site is linked from another page.

Every link site_gen writes (templates, body links, the 404 page) goes through here, so
`use_directory_urls: false` gives `index.html` links everywhere and the site works from disk.
"""

from __future__ import annotations

import functools
import posixpath
from urllib.parse import urlsplit


def site_path(source: str) -> str:
    """Where the file or folder `source` of docs_dir ('/'-separated) is published: at the
    same path, but for a name that starts with '.' (a repository like acme/.github), which
    is published with '~' in its place: static hosts and the Pages upload leave hidden
    folders out, and no repository name holds a '~'."""
    return "/".join("~" + part[1:] if part.startswith(".") and part not in (".", "..") else part
                    for part in source.split("/"))


def source_url(source: str) -> str:
    """The one map from a file of docs_dir ('/'-separated, relative) to its place in the
    site, for every link, page, listing, index and check: a page OWNER/REPO/N/slug.md is
    the folder 'OWNER/REPO/N/slug/', a pr.yml its PR's folder 'OWNER/REPO/N/', any other
    file its own path (a leading '.' of a name written '~', see site_path)."""
    folder, _, name = source.rpartition("/")
    if name == "pr.yml":
        return site_path(folder) + "/" if folder else ""
    if name.endswith(".md"):
        return site_path(f"{folder}/{name[:-3]}" if folder else name[:-3]) + "/"
    return site_path(source)


def root_path(site_url: str | None) -> str:
    """The site's path on its host, from site_url ('/' when unset): where links from a page
    served at any address (404.html) start."""
    path = urlsplit(site_url or "").path or "/"
    return path if path.endswith("/") else path + "/"


def url_file(target: str, use_directory_urls: bool) -> str:
    """What a link to `target` names: the folder (`''`, `'x/y/'`) or, when
    use_directory_urls is off, its index.html; a file (`'f.css'`) as it is."""
    if (not target or target.endswith("/")) and not use_directory_urls:
        return target + "index.html"
    return target


@functools.lru_cache(maxsize=1 << 16)  # a page links the same few files; a rebuild, the same
def relative_url(here: str, target: str, use_directory_urls: bool) -> str:
    """A link from the folder `here` (`''` or `'a/b/'`) to `target` (`''`, `'x/y/'` or
    `'f.css'`), relative, so the site works under any path and from disk."""
    target = url_file(target, use_directory_urls)
    start, to = _parts(here), _parts(target)
    if start is None or to is None:  # a '.', '..' or empty part: as posixpath reads it
        rel = posixpath.relpath("/" + target, "/" + here)
    else:  # what posixpath.relpath gives, without making either path absolute first
        common = len(posixpath.commonprefix([start, to]))
        rel = "/".join([".."] * (len(start) - common) + to[common:]) or "."
    if not target or target.endswith("/"):
        rel = "./" if rel == "." else rel + "/"
    return rel


def _parts(path: str) -> list[str] | None:
    """The parts of a site path ('', 'a/b/', 'f.css'), or None when one of them may be
    empty, '.' or '..' (a path to normalize first; a published name never starts with
    '.': see site_path)."""
    if path.startswith((".", "/")) or "/." in path or "//" in path:
        return None
    parts = path.split("/")
    if not parts[-1]:
        parts.pop()
    return parts
