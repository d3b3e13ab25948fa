"""What a warm build (the preview) keeps in memory between builds of one configuration.

Every stage keeps its results with the inputs they were made from, and the next build
reuses a result whose inputs are equal: a PR folder whose files did not change is not read
again (so it is the very same object, and comparing it costs nothing), its code is not
checked again, its pages and its PR page are not rendered again, and the pages that list
every PR (home, status pages, feed, sitemap) are rendered again only when what they list
changed, not when a page's text did. A changed mkdocs.yml or template starts a new one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .cache import PageCache
from .code_check import CodeCheck
from .content import DiscoveryMemo, PullRequest
from .errors import Problems
from .outputcheck import Checked

if TYPE_CHECKING:
    from .results import PageResult


@dataclass
class Warm:
    """The kept results of the builds so far, for one build fingerprint."""

    fingerprint: str
    discovery: DiscoveryMemo = field(default_factory=lambda: DiscoveryMemo(keep=True))
    checks: dict[str, tuple[PullRequest, CodeCheck, Problems]] = field(default_factory=dict)
    pages: dict[Path, tuple[object, PageResult]] = field(default_factory=dict)
    outputs: dict[str, tuple[object, str]] = field(default_factory=dict)
    fragments: dict[str, tuple[object, str]] = field(default_factory=dict)
    ids: dict[str, tuple[str, set[str]]] = field(default_factory=dict)
    names: frozenset[str] = frozenset()  # the outputs of the last build whose names were sound
    # each page's answer of the output check, good while the site's names stay the same
    links: Checked = field(default_factory=dict)
    links_names: frozenset[str] = frozenset()
    _count: tuple[int, int] = (-1, -1)

    def page_inputs(self, pr: PullRequest, index: int, check: CodeCheck | None) -> object:
        """What a question page is made from: itself, its PR as listed, the code check."""
        return (pr.listed, pr.pages[index], check)

    def output(self, name: str, inputs: object, make: Callable[[], str]) -> str:
        """The file `name` made from `inputs`: kept from the last build when they are equal."""
        return _kept(self.outputs, name, inputs, make)

    def fragment(self, name: str, inputs: object, make: Callable[[], str]) -> str:
        """A part of a page, made from `inputs` (see Renderer.kept)."""
        return _kept(self.fragments, name, inputs, make)

    def forget_others(self, prs: tuple[PullRequest, ...]) -> None:
        """Drop what belonged to PRs and pages that are gone (the memory stays bounded): when
        the number of PRs or pages changed (a page renamed in place is dropped later)."""
        count = (len(prs), sum(len(pr.pages) for pr in prs))
        if count == self._count:
            return
        self._count = count
        paths = {page.path for pr in prs for page in pr.pages}
        self.pages = {k: v for k, v in self.pages.items() if k in paths}
        keys = {pr.key for pr in prs}
        self.checks = {k: v for k, v in self.checks.items() if k in keys}
        self.fragments = {k: v for k, v in self.fragments.items() if k.rpartition("\n")[2] in keys}

    def forget_outputs(self, names: Iterable[str]) -> None:
        """Drop kept files the last build no longer made."""
        alive = set(names)
        self.outputs = {k: v for k, v in self.outputs.items() if k in alive}
        self.ids = {k: v for k, v in self.ids.items() if k + "index.html" in alive}


def _kept(table: dict[str, tuple[object, str]], name: str, inputs: object,
          make: Callable[[], str]) -> str:
    held = table.get(name)
    if held is None or held[0] != inputs:
        held = table[name] = (inputs, make())
    return held[1]


class Keeper(Protocol):
    """Where the pages besides the question pages, and the parts of listing pages, are kept
    between builds: in memory (Warm) or in the page cache (Stored)."""

    def output(self, name: str, inputs: object, make: Callable[[], str]) -> str: ...

    def fragment(self, name: str, inputs: object, make: Callable[[], str]) -> str: ...


class Stored:
    """A CLI build's keeper: each output and part is kept in the page cache under a digest
    of the fingerprint, its name and what it is made from."""

    def __init__(self, cache: PageCache, fingerprint: str) -> None:
        self.cache, self.fingerprint = cache, fingerprint
        self._digests: dict[int, tuple[object, str]] = {}

    def _digest(self, inputs: object) -> str:
        # the same tuple of every PR is given for each listing page: digested once
        held = self._digests.get(id(inputs))
        if held is None or held[0] is not inputs:
            text = "\n".join(map(repr, inputs)) if isinstance(inputs, tuple) else repr(inputs)
            held = self._digests[id(inputs)] = (inputs, hashlib.sha256(text.encode()).hexdigest())
        return held[1]

    def output(self, name: str, inputs: object, make: Callable[[], str]) -> str:
        key = hashlib.sha256(f"{self.fingerprint}\n{name}\n{self._digest(inputs)}".encode())
        data = self.cache.get(key.hexdigest())
        if data is not None and isinstance(data.get("text"), str):
            return str(data["text"])
        text = make()
        self.cache.put(key.hexdigest(), {"text": text})
        return text

    def fragment(self, name: str, inputs: object, make: Callable[[], str]) -> str:
        # not kept: a listing page kept whole would leave its parts unasked, and pruned
        return make()


def make_directly(name: str, inputs: Any, make: Callable[[], str]) -> str:
    """For a cold build: every output is made."""
    return make()
