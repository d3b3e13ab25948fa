"""Reuse: what a build takes from the builds before it, wrapped around the stages.

The stages (discover, check the code, render the question pages, render the other pages,
check the output) are plain functions of their inputs; none imports this module. A
`Reuse` wraps them: each result is kept with what it was made from, in up to two stores,
and the next build takes a result whose inputs are the same instead of making it:

- the preview's memory (`Warm`), compared by equality: a PR folder whose files did not
  change is not read again (so it is the very same object, and comparing it costs
  nothing), its code is not checked again, its pages and its PR page are not rendered
  again, and the pages that list every PR (home, status pages, feed, sitemap) are
  rendered again only when what they list changed, not when a page's text did;
- the page cache file (`PageCache`, cache.py), by digest, for the CLI's builds and the
  preview's first one: question pages, the other pages, what discovery read.

A changed mkdocs.yml, template or site_gen starts afresh (the fingerprint is in every key).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cache import TEXT_DIGEST, CodeStore, PageCache, code_store_path, page_key, stable_text
from .code_check import CodeCheck
from .config import Config
from .content import DiscoveryMemo, PullRequest, Site
from .errors import Problems, SiteGenError
from .output import Kept
from .outputcheck import Checked
from .search import searchable

if TYPE_CHECKING:
    from .question_pages import Task
    from .render import Keeping, Renderer
    from .results import PageResult

Progress = Callable[[int, int], None]
log = logging.getLogger(__name__)


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
    # the output check's answers, good while the site's names stay the same
    links: Checked = field(default_factory=Checked)
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
    # the same object first: a dataclass's == compares every field even with itself (a
    # listing's part per PR is asked for with the PR's own `listed`, most the same object)
    if held is None or (held[0] is not inputs and held[0] != inputs):
        held = table[name] = (inputs, make())
    return held[1]


class Stored:
    """A CLI build's keeper: each output and part is kept in the page cache under a digest
    of the fingerprint, its name and what it is made from. An output the shown site
    (`shown`: each file's digest; in `site_dir`) holds as it is comes as a Kept output: not
    read, not checked again, written by linking the shown file."""

    def __init__(self, cache: PageCache, fingerprint: str, shown: Mapping[str, str] | None = None,
                 site_dir: Path | None = None) -> None:
        self.cache, self.fingerprint = cache, fingerprint
        self.shown, self.site_dir = shown or {}, site_dir
        self._digests: dict[int, tuple[object, str]] = {}
        self._light: dict[str, dict[str, Any]] = {}  # entries asked for at once (prefetch)
        self._asked: set[str] = set()  # the keys prefetch asked for, found or not

    def _key(self, name: str, inputs: object) -> str:
        return hashlib.sha256(f"{self.fingerprint}\n{name}\n{self._digest(inputs)}".encode()).hexdigest()

    def prefetch(self, wanted: Iterable[tuple[str, object]]) -> None:
        """Ask the cache at once for the outputs about to be asked for one by one (the PR
        pages: a thousand queries become two)."""
        keys = [self._key(name, inputs) for name, inputs in wanted if name in self.shown]
        self._asked.update(keys)
        self._light.update(self.cache.get_many(keys, text=False))

    def _digest(self, inputs: object) -> str:
        # the same tuple of every PR is given for each listing page: digested once
        held = self._digests.get(id(inputs))
        if held is None or held[0] is not inputs:
            text = "\n".join(map(stable_text, inputs)) if isinstance(inputs, tuple) \
                else stable_text(inputs)
            held = self._digests[id(inputs)] = (inputs, hashlib.sha256(text.encode()).hexdigest())
        return held[1]

    def output(self, name: str, inputs: object, make: Callable[[], str]) -> str | Kept:
        key = self._key(name, inputs)
        shown = self.shown.get(name)
        if shown is not None and self.site_dir is not None:
            light = self._light.get(key) if key in self._asked else \
                self.cache.get_many([key], text=False).get(key)
            if light is not None and light.get(TEXT_DIGEST) == shown and "searchable" in light:
                return kept(self.cache, key, "text", shown, light.get("searchable") is True,
                            self.site_dir / name)
        data = self.cache.get(key)
        if data is not None and isinstance(data.get("text"), str):
            return str(data["text"])
        text = make()
        self.cache.put(key, {"text": text, "searchable": searchable(text)})
        return text

    def fragment(self, name: str, inputs: object, make: Callable[[], str]) -> str:
        # not kept: a listing page kept whole would leave its parts unasked, and pruned
        return make()


@dataclass
class Reuse:
    """What one build may take from those before it: the preview's memory (`warm`), the
    page cache (`cache`), or neither (every stage makes everything).

    `digests` holds each content file's digest, when the build worked them out already,
    and `listing` the entries of docs_dir they were found in (see DiscoveryMemo);
    `shown`, the digest of each file of the site as it is shown now (a page kept in the
    cache whose file the shown site holds as it is need not be read)."""

    fingerprint: str = ""
    cache: PageCache | None = None
    warm: Warm | None = None
    digests: dict[str, bytes] = field(default_factory=dict)
    listing: list[tuple[str, bool, bool]] | None = None
    shown: Mapping[str, str] = field(default_factory=dict)

    def discovery(self, config: Config) -> DiscoveryMemo | None:
        """What discover() may take from before: the preview's memo, or the page cache's."""
        if self.warm is not None:
            return self.warm.discovery
        if self.cache is None:
            return None
        return DiscoveryMemo(store=self.cache, salt=f"{self.fingerprint}\ndrafts={config.drafts}",
                             digests=self.digests, listing=self.listing)

    def checks(self, site: Site) -> dict[str, tuple[PullRequest, CodeCheck, Problems]] | None:
        """The code checks the preview keeps (a PR read again is checked again); what
        belonged to PRs and pages that are gone is dropped first."""
        if self.warm is None:
            return None
        self.warm.forget_others(site.prs)
        return self.warm.checks

    def code(self, config: Config) -> Callable[[], CodeStore] | None:
        """What opens the store of what builds before learned from pinned code (None: a
        build without the cache parses it all)."""
        return functools.partial(CodeStore, code_store_path(config)) if self.cache else None

    def keeping(self, config: Config) -> Keeping | None:
        """Where the pages besides the question pages are kept (None: made every time)."""
        if self.warm is not None:
            return self.warm
        return Stored(self.cache, self.fingerprint, self.shown,
                      config.site_dir) if self.cache else None

    @property
    def ids(self) -> dict[str, tuple[str, set[str]]] | None:
        """Each page's ids, kept with the HTML they were read from (the preview's)."""
        return self.warm.ids if self.warm else None

    def links(self, names: frozenset[str]) -> Checked | None:
        """The output check's answers, good while the site's file names stay `names`."""
        if self.warm is None:
            return None
        if self.warm.links_names != names:
            self.warm.links, self.warm.links_names = Checked(), names  # a file came or went
        return self.warm.links

    def names_checked(self, names: frozenset[str]) -> bool:
        """Whether a build with these same file names was found sound already."""
        return self.warm is not None and self.warm.names == names

    def names_sound(self, names: frozenset[str]) -> None:
        if self.warm is not None:
            self.warm.names = names

    def question_pages(self, renderer: Renderer, *, jobs: int = 1,
                       progress: Progress | None = None,
                       meanwhile: Callable[[], None] | None = None) -> list[PageResult]:
        """Every question page, in site order, rendered by question_pages.render_pages but
        for those kept: in the preview's memory when its inputs are those of the last
        build, else in the page cache. A cached page the shown site holds byte for byte is
        not even read (its HTML comes as a Kept output).

        `progress(done, total)` is called as pages are rendered. `meanwhile` is run while
        worker processes render them, if they do (once the first is in: this process would
        only wait for the others)."""
        from .highlight import LEXED, LEXED_KEPT
        from .question_pages import all_tasks, parallel, render_pages

        site = renderer.site
        tasks = all_tasks(site)
        results: dict[Task, PageResult] = {}
        inputs: dict[Task, object] = {}
        warm, cache = self.warm, self.cache
        if warm is not None:
            for task in tasks:
                pr = site.prs[task[0]]
                inputs[task] = warm.page_inputs(pr, task[1], renderer.checks.get(pr.key))
                held = warm.pages.get(pr.pages[task[1]].path)
                if held is not None and held[0] == inputs[task]:
                    results[task] = held[1]
        reprs: dict[int, tuple[Any, str]] = {}
        keys = {t: self._page_key(renderer, t, reprs) for t in tasks
                if t not in results} if cache else {}
        if cache:
            for task, hit in self._hits(renderer.config, cache, keys, site).items():
                results[task] = hit
                if warm is not None:
                    warm.pages[site.prs[task[0]].pages[task[1]].path] = (inputs[task], hit)
        missing = [t for t in tasks if t not in results]
        pooled = parallel(jobs, len(missing))
        log.debug("Question pages: %d in all, %d kept from the last build, %d to render%s",
                  len(tasks), len(results), len(missing),
                  f" on {jobs} worker processes" if pooled else "")
        code = self.code(renderer.config)
        rendered = render_pages(renderer, missing, jobs=jobs, code=code)
        meanwhile = meanwhile if pooled else None  # on one process, the caller's, after
        for done, (task, result) in enumerate(zip(missing, rendered, strict=True),
                                              len(results) + 1):
            if meanwhile is not None:  # the workers go on with the other pages
                meanwhile()
                meanwhile = None
            results[task] = result
            if warm is not None and result.keepable:
                warm.pages[site.prs[task[0]].pages[task[1]].path] = (inputs[task], result)
            if cache and result.keepable and not result.errors and result.html is not None:
                cache.put(keys[task], result.to_data())
            if progress:
                progress(done, len(tasks))
        if code is not None and missing:  # what was lexed for them stays bounded
            store = code()
            store.trim(LEXED, LEXED_KEPT)
            store.close()
        return [results[t] for t in tasks]

    def _hits(self, config: Config, cache: PageCache, keys: dict[Task, str],
              site: Site) -> dict[Task, PageResult]:
        """The pages found in the cache. One whose HTML the shown site holds as it is is
        taken without reading its HTML (see Kept); the others whole."""
        from .results import PageResult

        found: dict[Task, PageResult | None] = {}
        light = cache.get_many(list(keys.values()), text=False) if self.shown else {}
        for task, key in keys.items():
            data = light.get(key)
            name = site.prs[task[0]].pages[task[1]].url + "index.html"
            if data is not None and self.shown.get(name) == data[TEXT_DIGEST]:
                found[task] = PageResult.from_data(data, kept(
                    cache, key, "html", data[TEXT_DIGEST], data.get("searchable") is True,
                    config.site_dir / name))
        whole = cache.get_many([key for task, key in keys.items() if found.get(task) is None])
        for task, key in keys.items():
            if found.get(task) is None and key in whole:
                found[task] = PageResult.from_data(whole[key])
        pages = {task: site.prs[task[0]].pages[task[1]] for task in found}
        # an entry for another page is never written here
        return {task: hit for task, hit in found.items()
                if hit is not None and (hit.url, hit.path) == (pages[task].url, pages[task].path)}

    def _page_key(self, renderer: Renderer, task: Task, reprs: dict[int, tuple[Any, str]]) -> str:
        pr = renderer.site.prs[task[0]]
        page = pr.pages[task[1]]
        # What Renderer.page_context makes every value of the page's template from: the
        # settings, the PR (its digest: every field of it and of its pages, the bodies
        # left out), the page's place in it and the PR's code check; then its text. Each
        # PR's text is made once for all its pages, and no context is built to be hashed.
        inputs = {"config": renderer.config, "pr": pr, "at": f"{task[1]} {page.url}",
                  "check": renderer.checks.get(pr.key)}
        return page_key(self.fingerprint, inputs, page.body, reprs)


def kept(cache: PageCache, key: str, field: str, digest: str, searchable: bool,
         published: Path) -> Kept:
    """The output kept in `cache` under `key` (its text in `field`), which the shown site
    holds at `published` with `digest`."""
    return Kept(digest, searchable, functools.partial(_read_kept, cache, key, field, published,
                                                      digest))


def _read_kept(cache: PageCache, key: str, field: str, published: Path, digest: str) -> str:
    """The text of a kept output, when it is needed after all (a link names one of its
    #fragments): from the cache, or else from the shown site, when either holds it as it was."""
    data = cache.get(key)
    if data is not None and isinstance(data.get(field), str):
        return str(data[field])
    with contextlib.suppress(OSError, UnicodeDecodeError):
        held = published.read_bytes()
        if hashlib.sha256(held).hexdigest() == digest:
            return held.decode("utf-8")
    raise SiteGenError(f"the page cache and the site both lost what '{published}' held during "
                       "the build; build again")


