"""Code in a git submodule: a folder of the pinned tree that is another repository at a
commit of its own (`.gitmodules` says which). A page that cites a file in it links that
repository at that commit, as the code host shows a submodule, and checks it against that
repository's code when it is here (`site-gen fetch` brings it).
"""

from __future__ import annotations

import functools
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from .code_host import CodeHost, fill
from .config import Config, git_dir
from .names import GITLINK

if TYPE_CHECKING:
    from .git_reader import SourceReader

# What a clone URL says its repository is on a host: https://host/owner/repo(.git),
# ssh://git@host/owner/repo, or git@host:owner/repo
URL = re.compile(r"^(?:[a-z+]+://(?:[^@/]*@)?(?P<host>[^/:]+)(?::\d+)?/|[^@/:]+@(?P<scp>[^/:]+):)"
                 r"(?P<repo>[^/]+/[^/]+?)(?:\.git)?/?$")


@dataclass(frozen=True)
class Submodule:
    """A submodule of a commit: its folder, the commit it pins, and its repository."""

    path: str  # its folder in the tree
    commit: str  # the full SHA the tree pins it at
    url: str  # as .gitmodules has it ('' when .gitmodules does not list it)
    repo: str | None  # owner/name on the code host; None when its URL is elsewhere

    def inner(self, path: str) -> str:
        """`path` (inside this submodule) as a path of its own repository."""
        return path[len(self.path) + 1:]


def holding(reader: SourceReader, commit: str, path: str, host: CodeHost,
            repo: str) -> Submodule | None:
    """The submodule of `commit` (a full SHA of `repo`) whose folder holds `path`, if any."""
    path = path.strip("/")
    links = reader.entries(commit, GITLINK)
    folder = next((f for f in links if path.startswith(f + "/") or path == f), None)
    if folder is None:
        return None
    url = _urls(reader.checkout, commit).get(folder, "")
    return Submodule(folder, links[folder], url, repo_of(url, repo, host) if url else None)


def reader_of(config: Config, reader: SourceReader, sub: Submodule,
              *commits: str) -> SourceReader | None:
    """Where the submodule's `commits` (default: the one the tree pins) are all read: its
    repository's clone or fetched store, its work tree in a local clone of the PR's
    repository (`reader`'s), or `reader` itself (objects fetched there); None: nowhere."""
    assert sub.repo is not None
    wanted = commits or (sub.commit,)
    for place in (git_dir(config, sub.repo), reader.checkout / sub.path):
        if place is not None and place.exists():
            found = reader.beside(place)
            if all(found.commit(c) is not None for c in wanted):
                return found
    return reader if all(reader.commit(c) is not None for c in wanted) else None


@functools.lru_cache(maxsize=64)
def _urls(checkout: Path, commit: str) -> dict[str, str]:
    """Each submodule's URL by its folder, as .gitmodules at `commit` lists them (git reads
    the file: it is git's configuration format); asked once a commit, as a commit's files
    never change."""
    done = subprocess.run(["git", "-C", str(checkout), "config", "--blob", f"{commit}:.gitmodules",
                           "-z", "--get-regexp", r"^submodule\..*\.(path|url)$"],
                          capture_output=True, text=True, check=False)
    paths: dict[str, str] = {}
    urls: dict[str, str] = {}
    for entry in done.stdout.split("\0"):
        key, _, value = entry.partition("\n")
        name, _, field = key.rpartition(".")
        (paths if field == "path" else urls)[name] = value
    return {path.strip("/"): urls.get(name, "") for name, path in paths.items()}


def repo_of(url: str, repo: str, host: CodeHost) -> str | None:
    """The owner/name on the code host of the repository at clone URL `url` (relative to
    `repo`'s own, as git reads `../other.git`), or None when the URL is on another host."""
    if url.startswith(("./", "../")):
        joined = PurePosixPath(repo, url)
        parts: list[str] = []
        for part in joined.parts:
            if part == "..":
                if parts:
                    parts.pop()
            elif part != ".":
                parts.append(part)
        name = "/".join(parts).removesuffix(".git")
        return name if name.count("/") == 1 else None
    m = URL.match(url)
    own = URL.match(fill(host.clone, repo="owner/name"))
    if m is None or own is None:
        return None
    if (m["host"] or m["scp"]).lower() != (own["host"] or own["scp"]).lower():
        return None
    return m["repo"]
