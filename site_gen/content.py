"""Discover the content folder: pull requests (pr.yml) and their question pages (*.md)."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import functools
import hashlib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from . import urls
from .config import Config
from .errors import ContentError, ContentWarning, Problems
from .names import REPO, REPO_PATH, SHA
from .statuses import Status, find_status
from .suggest import did_you_mean, meant
from .yamlfile import FORBIDDEN, Mapping, Sequence, describe, forbidden_character, load_yaml

PR_FILE = "pr.yml"
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_FRONT_MATTER_END = re.compile(r"^---[ \t]*$", re.MULTILINE)


@dataclass(frozen=True)
class Summary:
    """The Before / This PR / Status card at the top of a page."""

    before: str | None = None
    this_pr: str | None = None
    status: str | None = None


@dataclass(frozen=True)
class Page:
    """One question about one pull request, with where each fact came from."""

    path: Path
    slug: str
    title: str
    question: str
    order: int
    status: Status
    updated: dt.date | None
    summary: Summary
    body: str = field(repr=False)  # a page's cache key holds its own body, not its siblings'
    body_line: int
    pr_key: str
    broken: bool = False  # its front matter has errors: rendered only for its body's problems
    draft: bool = False  # left out of the published site; `serve` shows it, marked

    @functools.cached_property
    def url(self) -> str:
        """The page's folder below the site root, with a trailing slash (worked out once:
        every listing asks for it)."""
        return urls.source_url(f"{self.pr_key}/{self.slug}.md")


@dataclass(frozen=True)
class PullRequest:
    """The facts of one pull request, written once in its pr.yml."""

    path: Path
    repo: str
    number: int
    title: str
    head: str
    base: str | None
    state: Status
    files: tuple[str, ...]
    pages: tuple[Page, ...]
    code_unavailable: str | None = None  # why the code cannot be had, when it cannot
    field_lines: tuple[tuple[str, int], ...] = ()  # (field of pr.yml, its line)

    def line_of(self, name: str) -> int:
        """The line of field `name` in pr.yml (1 when it is not written there)."""
        return dict(self.field_lines).get(name, 1)

    def line_of_file(self, path: str) -> int:
        """The line of pr.yml that lists `path` in `files` (else that of `files`)."""
        return dict(self.field_lines).get(f"files: {path}", self.line_of("files"))

    @functools.cached_property
    def listed(self) -> PullRequest:
        """The PR as templates see it: its pages' facts without their markdown (a page's
        template gets its own body rendered), so a page's text changes only that page."""
        pages = tuple(dataclasses.replace(p, body="", body_line=0) for p in self.pages)
        listed = dataclasses.replace(self, pages=pages)
        # Its digest is the PR's: the same fields but where its pages' bodies start (a key
        # made from it may change when only those lines move, never stay when it changed).
        listed.__dict__["digest"] = self.digest
        return listed

    @functools.cached_property
    def digest(self) -> str:
        """A digest of its repr (every field; its pages' bodies are left out of a Page's
        repr): what a cache key made from this PR holds, worked out once however many keys
        (its pages, its PR page, each listing) hold it."""
        return hashlib.sha256(repr(self).encode()).hexdigest()

    @functools.cached_property
    def key(self) -> str:
        """`owner/repo/number`: the PR's folder in content and in the site."""
        return f"{self.repo}/{self.number}"

    @functools.cached_property
    def url(self) -> str:
        """The PR's folder in the site (see urls.source_url), with a trailing slash."""
        return urls.source_url(f"{self.key}/pr.yml")

    @property
    def updated(self) -> dt.date | None:
        """The latest `updated` date of its pages."""
        dates = [p.updated for p in self.pages if p.updated]
        return max(dates) if dates else None


@dataclass(frozen=True)
class Asset:
    """A file in the content folder that is copied to the site as it is."""

    source: Path
    target: str


@dataclass(frozen=True)
class Site:
    """Everything read from the content folder, in a stable order."""

    prs: tuple[PullRequest, ...]
    assets: tuple[Asset, ...]

    @property
    def pages(self) -> tuple[Page, ...]:
        return tuple(page for pr in self.prs for page in pr.pages)


def read_text(path: Path) -> str:
    """Read an author's file as UTF-8 (a BOM is dropped, CRLF becomes LF)."""
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise ContentError("is a folder, expected a file", path) from None
    except OSError as exc:
        raise ContentError(f"cannot read file: {exc.strerror}", path) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ContentError(f"not valid UTF-8 (byte 0x{data[exc.start]:02x}); "
                           "expected a UTF-8 text file", path, line) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


class Excluded(Protocol):
    """What exclude_docs leaves out: pathspec's GitIgnoreSpec, or nothing."""

    def match_file(self, file: str) -> bool: ...


class _Nothing:
    def match_file(self, file: str) -> bool:
        return False


def excluded_by(patterns: str) -> Excluded:
    """The matcher of exclude_docs' gitignore-style `patterns` (pathspec is imported only
    for a site that has some)."""
    if not patterns.strip():
        return _Nothing()
    import pathspec

    spec: Excluded = pathspec.GitIgnoreSpec.from_lines(patterns.splitlines())
    return spec


@dataclass
class DiscoveryMemo:
    """What discover() read, kept by a warm build (the preview) for the next one: each PR
    folder's result and problems by the stat of its files, the entries of docs_dir, and
    which paths are left out. Only for one configuration: a changed mkdocs.yml needs a new
    memo.

    Told which files changed (`note_changes`, from the file watcher), the next discover()
    neither walks docs_dir nor looks at folders where nothing changed."""

    keep: bool = False  # a cold build reads everything once and keeps nothing
    store: Store | None = None  # a CLI build's page cache: folders kept by their content
    salt: str = ""  # what else a folder's result depends on (the settings), for the store
    digests: dict[str, bytes] = field(default_factory=dict)  # files' digests already taken
    # every entry of docs_dir, walked already (cache.input_digest): (relative path, is a
    # folder, is a link) in path order, hidden and excluded ones too; None: walk it here
    listing: list[tuple[str, bool, bool]] | None = None
    folders: dict[str, tuple[tuple[str, ...], object, PullRequest | None, Problems]] = \
        field(default_factory=dict)
    left_out: dict[str, bool] = field(default_factory=dict)
    entries: list[tuple[str, bool, bool]] | None = None  # the last walk's, kept up to date
    _grouped: tuple[list[tuple[str, bool, bool]], dict[str, list[str]], set[str]] | None = None
    changed: set[str] | None = None  # files changed since (relative); None: look at all
    # a CLI build's store entries, asked for at once (see prefetch)
    _keys: dict[str, str] = field(default_factory=dict)
    _fetched: dict[str, dict[str, Any]] = field(default_factory=dict)

    def skipped(self, rel: str, excluded: Excluded) -> bool:
        """Whether exclude_docs leaves out `rel` (a path in docs_dir; ending in '/' for a
        folder, to be entered)."""
        known = self.left_out.get(rel)
        if known is None:
            known = bool(excluded.match_file(rel))
            if self.keep:
                self.left_out[rel] = known
        return known

    def note_changes(self, docs: Path, paths: Iterable[Path] | None) -> None:
        """The paths the watcher saw change. Anything it cannot place (a folder that came
        or went, a file in a folder not seen before) makes the next discover() walk again."""
        self.changed = None
        if paths is None or self.entries is None:
            return
        folders = {rel for rel, folder, _ in self.entries if folder}
        changed = set()
        for path in paths:
            rel = Path(os.path.relpath(path, docs)).as_posix()
            if rel.startswith("../") or hidden(rel, os.path.isdir(path)):
                continue  # outside docs_dir, or hidden: not content
            parent = rel.rpartition("/")[0]
            if rel in folders or os.path.isdir(path) or (parent and parent not in folders):
                return
            changed.add(rel)
        self.changed = changed

    def walk(self, docs: Path, excluded: Excluded) -> list[tuple[str, bool, bool]]:
        """The entries of docs_dir: walked again, or (told what changed) brought up to date."""
        if not self.keep and self.listing is not None:
            entries = _listed(self.listing, excluded, self)
        elif not self.keep or self.entries is None or self.changed is None:
            entries = _entries(docs, excluded, self)
        else:
            listed = {rel for rel, _, _ in self.entries}
            gone = {rel for rel in self.changed & listed if not os.path.lexists(os.path.join(docs, rel))}
            entries = [e for e in self.entries if e[0] not in gone] if gone else self.entries
            added = [(rel, False, os.path.islink(os.path.join(docs, rel)))
                     for rel in sorted(self.changed - listed)
                     if os.path.lexists(os.path.join(docs, rel)) and not self.skipped(rel, excluded)]
            if added:
                entries = sorted(entries + added, key=lambda entry: entry[0].split("/"))
        if self.keep:
            self.entries = entries
        return entries

    def folders_of(self, entries: list[tuple[str, bool, bool]]) -> tuple[dict[str, list[str]],
                                                                         set[str]]:
        """The entries by folder, and the PR folders (kept while the entries are the same)."""
        if self._grouped is not None and self._grouped[0] is entries:
            return self._grouped[1], self._grouped[2]
        by_folder: dict[str, list[str]] = {}
        for rel, _, _ in entries:
            by_folder.setdefault(rel.rpartition("/")[0], []).append(rel)
        pr_dirs = {rel.rpartition("/")[0] for rel, _, _ in entries
                   if rel.rpartition("/")[2] == PR_FILE}
        if self.keep:
            self._grouped = (entries, by_folder, pr_dirs)
        return by_folder, pr_dirs

    def read_pr(self, config: Config, folder: str, files: list[str],
                problems: Problems) -> PullRequest | None:
        """The PR of `folder` (its files, all relative to docs_dir), read again only when
        one of its files changed."""
        docs = config.docs_dir
        if not self.keep:
            if self.store is not None:
                return self._stored_pr(config, folder, files, problems)
            return _read_pr(config, docs / folder, [docs / f for f in files], problems)
        names = tuple(files)
        held = self.folders.get(folder)
        if held is None or held[0] != names or self.changed is None or \
                not self.changed.isdisjoint(names):
            stamp = tuple(stamp_of(os.path.join(docs, f)) for f in files)
            if held is None or held[:2] != (names, stamp):
                own = Problems()
                pr = _read_pr(config, docs / folder, [docs / f for f in files], own)
                held = (names, stamp, pr, own)
            self.folders[folder] = held
        problems.extend(held[3].errors, held[3].warnings)
        return held[2]


    def prefetch(self, config: Config, folders: dict[str, list[str]]) -> None:
        """Ask the store for every PR folder's entry at once (a CLI build with a store):
        one query for a thousand PRs, not a thousand."""
        if self.keep or self.store is None:
            return
        keys = {folder: self._key(config, folder, files) for folder, files in folders.items()}
        self._keys = keys
        self._fetched = self.store.get_many(list(keys.values()))

    def _key(self, config: Config, folder: str, files: list[str]) -> str:
        docs = config.docs_dir
        digest = hashlib.sha256(f"discovery\n{self.salt}\n{docs}\n{folder}\n".encode())
        for name in files:
            digest.update(f"{name}\n".encode())
            known = self.digests.get(os.path.join(docs, name))
            if known is not None:
                digest.update(known)
                continue
            with contextlib.suppress(OSError):  # a folder, or unreadable: read as it is
                digest.update(hashlib.sha256(Path(docs, name).read_bytes()).digest())
        return digest.hexdigest()

    def _stored_pr(self, config: Config, folder: str, files: list[str],
                   problems: Problems) -> PullRequest | None:
        """The PR of `folder` from the store when its files hold what they held then."""
        assert self.store is not None
        docs = config.docs_dir
        key = self._keys.get(folder)
        if key is not None:  # asked for already (prefetch): what the store had, or nothing
            held = self._fetched.get(key)
        else:
            key = self._key(config, folder, files)
            held = self.store.get(key)
        found = _folder_from_data(held) if held is not None else None
        if found is None:
            own = Problems()
            found = (_read_pr(config, docs / folder, [docs / f for f in files], own), own)
            self.store.put(key, _folder_to_data(*found))
        problems.extend(found[1].errors, found[1].warnings)
        return found[0]


class Store(Protocol):
    """Where a CLI build keeps what it read (the page cache)."""

    def get(self, key: str) -> dict[str, Any] | None: ...

    def get_many(self, keys: list[str]) -> dict[str, dict[str, Any]]: ...

    def put(self, key: str, data: dict[str, Any]) -> None: ...


def _folder_to_data(pr: PullRequest | None, problems: Problems) -> dict[str, Any]:
    def status(s: Status) -> list[Any]:
        return [s.key, s.label, s.tone, s.icon, list(s.uses)]

    def page(p: Page) -> list[Any]:
        return [str(p.path), p.slug, p.title, p.question, p.order, status(p.status),
                p.updated.isoformat() if p.updated else None,
                [p.summary.before, p.summary.this_pr, p.summary.status], p.body, p.body_line,
                p.pr_key, p.broken, p.draft]

    data: dict[str, Any] = {
        "errors": [[e.message, str(e.path), e.line, type(e).__name__] for e in problems.errors],
        "warnings": [[w.message, str(w.path) if w.path else None, w.line] for w in problems.warnings],
        "pr": None}
    if pr is not None:
        data["pr"] = [str(pr.path), pr.repo, pr.number, pr.title, pr.head, pr.base,
                      status(pr.state), list(pr.files), [page(p) for p in pr.pages],
                      pr.code_unavailable, [list(f) for f in pr.field_lines]]
        data["digest"] = pr.digest  # kept: the PR read back need not be made into text again
    return data


def _folder_from_data(data: dict[str, Any]) -> tuple[PullRequest | None, Problems] | None:
    """What _folder_to_data wrote; None when the entry is not of that shape."""
    def status(v: list[Any]) -> Status:
        return _status(str(v[0]), str(v[1]), str(v[2]), str(v[3]), tuple(str(u) for u in v[4]))

    def page(v: list[Any]) -> Page:
        return Page(Path(v[0]), str(v[1]), str(v[2]), str(v[3]), int(v[4]), status(v[5]),
                    dt.date.fromisoformat(v[6]) if v[6] else None, Summary(*v[7]), str(v[8]),
                    int(v[9]), str(v[10]), bool(v[11]), bool(v[12]))

    try:
        problems = Problems()
        for message, path, line, kind in data["errors"]:
            if kind != "ContentError":
                return None  # only the author's content errors are kept
            problems.errors.append(ContentError(str(message), Path(path), line))
        problems.warnings.extend(ContentWarning(str(m), Path(p) if p else None, ln)
                                 for m, p, ln in data["warnings"])
        v = data["pr"]
        if v is None:
            return None, problems
        pr = PullRequest(Path(v[0]), str(v[1]), int(v[2]), str(v[3]), str(v[4]), v[5],
                         status(v[6]), tuple(str(f) for f in v[7]), tuple(page(p) for p in v[8]),
                         v[9], tuple((str(k), int(n)) for k, n in v[10]))
        if isinstance(data.get("digest"), str):  # the digest of the PR it was read as
            pr.__dict__["digest"] = data["digest"]
        return pr, problems
    except (KeyError, TypeError, ValueError, IndexError):
        return None


@functools.lru_cache(maxsize=256)
def _status(key: str, label: str, tone: str, icon: str, uses: tuple[str, ...]) -> Status:
    """A status read back from the store: the same few, made once each (they are frozen)."""
    return Status(key, label, tone, icon, uses)


def stamp_of(path: str | Path) -> tuple[int, ...]:
    """What changes when a file is written, replaced or moved: its stat, in short."""
    try:
        st = os.stat(path)
    except OSError:
        return ()
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)


def discover(config: Config, problems: Problems, memo: DiscoveryMemo | None = None) -> Site:
    """Read every PR folder under docs_dir; every problem found goes to `problems`.
    With a `memo` that keeps, folders whose files did not change are not read again."""
    docs = config.docs_dir
    if not docs.is_dir():
        beside = ([p.name for p in docs.parent.iterdir() if p.is_dir() and p.name[0] != "."]
                  if docs.parent.is_dir() else [])
        hint = did_you_mean(docs.name, beside)
        problems.error(f"docs_dir '{docs.name}' is not a folder; {hint}expected the folder of "
                       f"the pages, beside {config.config_file.name}", config.config_file)
        return Site((), ())
    memo = memo or DiscoveryMemo()
    entries = memo.walk(docs, excluded_by(config.exclude_docs))
    outside = _links_outside([docs / rel for rel, _, link in entries if link], docs)
    for path in sorted(outside):
        problems.errors.append(ContentError("is a link to a file outside docs_dir; expected content to "
                                   "live inside docs_dir", path))
    if outside:  # nor anything below such a link
        cut = tuple(p.relative_to(docs).as_posix() for p in outside)
        entries = [e for e in entries if not any(e[0] == c or e[0].startswith(c + "/") for c in cut)]
    by_folder, pr_dirs = memo.folders_of(entries)
    prs, assets = [], []
    folders = sorted(pr_dirs, key=lambda rel: rel.split("/"))
    memo.prefetch(config, {folder: by_folder[folder] for folder in folders})
    for folder in folders:
        pr = memo.read_pr(config, folder, by_folder[folder], problems)
        if pr:
            prs.append(pr)
    for rel, is_folder, _ in entries:
        parent, _, name = rel.rpartition("/")
        if name == PR_FILE or name.endswith(".md") and parent in pr_dirs or is_folder:
            continue
        file = docs / rel
        if name.endswith(".md"):
            problems.errors.append(ContentError(f"page outside a pull request folder; expected it "
                                       f"beside a {PR_FILE}", file))
        elif _publishable(config, file, problems):
            assets.append(Asset(file, urls.source_url(rel)))
    _check_extra_files(config, problems)
    _check_unique(prs, problems)
    ordered = _ordered(config, prs, problems)
    return Site(tuple(ordered), tuple(assets))


# The files of docs_dir besides pages and pr.yml that are published as they are: images,
# documents, data and media. HTML and SVG run script on the site's origin: only with
# `site_gen.publish_html: true`.
PUBLISHED = frozenset({
    "png", "jpg", "jpeg", "gif", "webp", "avif", "bmp", "ico", "pdf", "txt", "csv", "tsv",
    "json", "patch", "diff", "log", "mp4", "webm", "mp3", "ogg", "wav", "woff", "woff2",
})
ACTIVE = frozenset({"html", "htm", "xhtml", "svg", "svgz", "xml", "js", "mjs"})


def _publishable(config: Config, file: Path, problems: Problems) -> bool:
    """Whether `file` is published as it is; a file of another type is an error."""
    ending = file.suffix.lower().lstrip(".")
    named = file.relative_to(config.docs_dir).as_posix() in config.extra_css + config.extra_javascript
    if ending in PUBLISHED or named or (ending in ACTIVE and config.publish_html):
        if not file.is_file():  # a broken or looping link where a file should be
            problems.error("cannot be read (a broken link?); expected a file", file)
            return False
        return True
    if ending in ACTIVE:
        problems.error(f"'.{ending}' files can run script on the site, so they are not published; "
                       "set site_gen.publish_html: true in mkdocs.yml to publish them, or remove it",
                       file)
    else:
        problems.error(f"'{file.name}' is not a page, a pr.yml or a file type site_gen publishes "
                       f"({', '.join(sorted(PUBLISHED))}); move it out of docs_dir", file)
    return False


PLACEHOLDER = re.compile(r"⟨[^⟩\n]*⟩?")


def _placeholders(text: str, path: Path, problems: Problems) -> None:
    """The ⟨…⟩ texts `site-gen new` writes for the author to replace: a warning while any is
    left, so `check` and a strict build fail on a page that was never finished."""
    found = PLACEHOLDER.findall(text)
    if found:
        line = text.count("\n", 0, text.index(found[0])) + 1
        problems.warn(f"{len(found)} placeholder(s) from site-gen new still here (the first: "
                      f"'{found[0]}'); replace each ⟨…⟩ with your own text", path, line)


def _control_characters(body: str, path: Path, body_line: int, problems: Problems) -> None:
    """A character no page may hold (a control character, a noncharacter) is an error at
    its line, never passed on to the page: one error per line that has one."""
    lines: dict[int, str] = {}
    for m in FORBIDDEN.finditer(body):
        what = "noncharacter" if ord(m[0]) >= 0xD800 else "control character"
        lines.setdefault(body_line + body.count("\n", 0, m.start()), f"{what} U+{ord(m[0]):04X}")
        if len(lines) > 20:
            break
    for line, char in lines.items():
        problems.error(f"contains the {char}, which pages and feeds cannot "
                       "hold; remove it (write a visible character, or `code` that names it)",
                       path, line)


def _check_extra_files(config: Config, problems: Problems) -> None:
    for key, names in (("extra_css", config.extra_css), ("extra_javascript", config.extra_javascript)):
        for name in names:
            if not (config.docs_dir / name).is_file():
                problems.error(f"'{key}' names '{name}', which is not a file in docs_dir; expected "
                               "a path relative to docs_dir", config.config_file)


def _entries(docs: Path, excluded: Excluded,
             memo: DiscoveryMemo) -> list[tuple[str, bool, bool]]:
    """Every entry below `docs` as `docs.rglob("*")` lists them (a linked folder is listed,
    not entered), hidden and excluded ones left out: (relative path, is a folder, is a
    link), in path order. A folder excluded or hidden is not entered at all."""
    found: list[tuple[str, bool, bool]] = []
    stack = [""]
    while stack:
        here = stack.pop()
        try:
            with os.scandir(os.path.join(docs, here)) as listing:
                items = [(e.name, _is_dir(e), e.is_symlink()) for e in listing]
        except OSError:
            continue
        for name, folder, link in items:
            rel = f"{here}/{name}" if here else name
            if name.startswith(".") and hidden(rel, folder):
                continue
            if memo.skipped(rel, excluded):
                continue
            found.append((rel, folder, link))
            if folder and not link and not memo.skipped(rel + "/", excluded):
                stack.append(rel)
    found.sort(key=lambda entry: entry[0].split("/"))
    return found


def _listed(listing: list[tuple[str, bool, bool]], excluded: Excluded,
            memo: DiscoveryMemo) -> list[tuple[str, bool, bool]]:
    """What _entries would find, taken from every entry of docs_dir (see
    DiscoveryMemo.listing): hidden and excluded entries left out, with what lies below a
    folder _entries would not enter (one left out, or excluded as a folder)."""
    found: list[tuple[str, bool, bool]] = []
    below = "\0"  # the folder whose entries are left out, with its '/' (path order: next)
    for rel, folder, link in listing:
        if rel.startswith(below):
            continue
        name = rel.rpartition("/")[2]
        if (name.startswith(".") and hidden(rel, folder)) or memo.skipped(rel, excluded):
            below = rel + "/"
            continue
        found.append((rel, folder, link))
        if folder and not link and memo.skipped(rel + "/", excluded):
            below = rel + "/"
    return found


def hidden(rel: str, folder: bool) -> bool:
    """Whether the entry `rel` of docs_dir (a folder, or a file) is hidden, so not content:
    a name starting with '.' anywhere on its path, but for a repository's folder
    (OWNER/.github: a real and common name), which is content like any other."""
    parts = rel.split("/")
    for depth, part in enumerate(parts):
        if part.startswith("."):
            is_folder = folder or depth < len(parts) - 1
            if not (depth == 1 and is_folder and part not in (".", "..", ".git")):
                return True
    return False


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:  # a link that loops: not a folder (read, it is an error)
        return False


def _links_outside(files: list[Path], docs: Path) -> set[Path]:
    """Symbolic links in docs_dir whose targets lie outside it (broken links are left to
    the reader, which reports them)."""
    inside = docs.resolve()
    return {p for p in files
            if p.is_symlink() and p.exists() and not p.resolve().is_relative_to(inside)}


def _check_unique(prs: list[PullRequest], problems: Problems) -> None:
    seen: dict[str, PullRequest] = {}
    for pr in prs:
        if pr.key.lower() in seen:
            problems.errors.append(ContentError(f"pull request {pr.repo}#{pr.number} is also described "
                                       f"in {seen[pr.key.lower()].path}", pr.path, 1))
        seen[pr.key.lower()] = pr


def _ordered(config: Config, prs: list[PullRequest], problems: Problems) -> list[PullRequest]:
    """PRs in `nav` order first, then the rest by repository and number."""
    by_key = {pr.key: pr for pr in prs}
    for index, entry in enumerate(config.nav):
        if entry not in by_key:
            line = config.nav_lines[index] if index < len(config.nav_lines) else None
            known = ", ".join(sorted(by_key)) or "(none yet: add one with site-gen new)"
            problems.errors.append(ContentError(f"'nav' names '{entry}', which is not a pull request "
                                                f"folder; expected one of: {known}",
                                                config.config_file, line))
    rank = {key: i for i, key in enumerate(config.nav)}
    return sorted(prs, key=lambda pr: (rank.get(pr.key, len(rank)), pr.repo.lower(), pr.number))


class _Fields:
    """Typed reads from one YAML mapping that record errors instead of raising."""

    def __init__(self, data: Mapping, path: Path, problems: Problems, what: str) -> None:
        self.data, self.path, self.problems, self.what = data, path, problems, what
        self.misspelt: set[str] = set()  # fields not given, but a field like each one is

    def fail(self, key: str, message: str) -> None:
        if key not in self.data and key in self.misspelt:
            return  # said once, at the field written for it ("did you mean ...?")
        self.problems.errors.append(ContentError(message, self.path, self.data.line_of(key)))

    def text(self, key: str, required: bool = True) -> str | None:
        value = self.data.get(key)
        if value is None:
            if required:
                self.fail(key, f"{self.what} needs '{key}'")
            return None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str) or not value.strip():
            self.fail(key, f"'{key}' must be text, found {describe(value)}")
            return None
        bad = forbidden_character(value)
        if bad:
            self.fail(key, f"'{key}' contains the control character {bad}, which pages and feeds "
                           "cannot hold; expected plain text")
            return None
        return value.strip()

    def status(self, key: str, config: Config, use: str) -> Status | None:
        name = self.text(key)
        if name is None:
            return None
        line = self.data.line_of(key)
        return find_status(config.statuses, name, use,
                           lambda message: self.problems.error(message, self.path, line))

    def unknown(self, known: set[str]) -> None:
        """An error for each field not among `known`; one like a known field not given
        (`upadted`) asks if that was meant, and stands for it: that field is not also
        missing."""
        for key in sorted(set(self.data) - known, key=self.data.line_of):
            missing = known - set(self.data) - self.misspelt
            like = meant(key, missing) or next(  # 'title:fix: ...' (no space after its colon),
                (k for k in sorted(missing)  # 'title"Fix' (a quote cut), 'er' (of 'order')
                 if re.match(rf"{re.escape(k)}\W", str(key)) or (len(str(key)) > 1 and str(key) in k)),
                None)
            hint = f"did you mean '{like}'? " if like else ""
            self.fail(key, f"unknown field '{key}' in {self.what}; {hint}expected one of: "
                           f"{', '.join(sorted(known))}")
            if like:
                self.misspelt.add(like)


_PR_FIELDS = {"repo", "number", "title", "head", "base", "state", "files", "code_unavailable",
              "history"}
_PAGE_FIELDS = {"title", "question", "order", "status", "updated", "summary", "draft"}
_SUMMARY_FIELDS = {"before", "this_pr", "status"}


def _load_mapping(path: Path, text: str, first_line: int, what: str,
                  problems: Problems) -> Mapping | None:
    try:
        data = load_yaml(text, path, first_line)
    except ContentError as exc:
        problems.errors.append(exc)
        return None
    if not isinstance(data, Mapping):
        problems.errors.append(ContentError(f"{what} must be a mapping of fields, found {describe(data)}",
                                   path, first_line))
        return None
    return data


def _read_pr(config: Config, folder: Path, files: list[Path],
             problems: Problems) -> PullRequest | None:
    path = folder / PR_FILE
    try:
        text = read_text(path)
        _placeholders(text, path, problems)
        data = _load_mapping(path, text, 1, PR_FILE, problems)
    except ContentError as exc:
        problems.errors.append(exc)
        return None
    if data is None:
        return None
    facts = problems.checkpoint()
    f = _Fields(data, path, problems, PR_FILE)
    f.unknown(_PR_FIELDS)
    repo, title, head = f.text("repo"), f.text("title"), f.text("head")
    base = f.text("base", required=False)
    unavailable = f.text("code_unavailable", required=False)
    state = f.status("state", config, "pr")
    number = data.get("number")
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        f.fail("number", f"'number' must be a positive whole number, found {describe(number)}")
    if repo and not REPO.match(repo):
        f.fail("repo", f"'repo' must be 'owner/name', found '{repo}'")
    for key, sha in (("head", head), ("base", base)):
        if sha and not SHA.match(sha):
            f.fail(key, f"'{key}' must be a commit SHA (7 to 40 hex digits), found '{sha}'; "
                        "a branch or tag name would drift")
    file_list = _file_list(f)
    history = data.get("history")
    if history is not None and not (isinstance(history, list) and all(
            isinstance(sha, str) and SHA.match(sha) for sha in history)):
        f.fail("history", "'history' must be a list of commit SHAs (the heads the pages were "
                          "pinned to before; `site-gen repin` keeps it)")
    where = folder.relative_to(config.docs_dir).as_posix()
    key = f"{repo}/{number}"
    if not facts.failed and where != key:
        f.fail("repo", f"{repo}#{number} belongs in the folder '{key}', found '{where}'")
    # The pages are read even when pr.yml is wrong, so their problems show in the same run.
    facts_ok = not facts.failed
    sources = [md for md in files if md.suffix == ".md"]
    pages = [p for p in (_read_page(config, md, where, problems) for md in sources) if p]
    if not sources:
        problems.errors.append(ContentError("a pull request folder needs at least one question page "
                                   "(a .md file)", path, 1))
    _check_orders(pages, problems)
    pages = [p for p in pages if config.drafts or not p.draft]  # drafts: only in previews
    if not facts_ok or (sources and not pages):
        return None  # (a PR whose pages are all drafts is not published yet)
    assert repo and title and head and state and isinstance(number, int)
    pages.sort(key=lambda p: (p.order, p.slug))
    return PullRequest(path, repo, number, title, head.lower(), base and base.lower(), state,
                       file_list, tuple(pages), unavailable,
                       tuple(sorted([(k, data.line_of(k)) for k in data]
                                    + _file_lines(data.get("files")))))


def _file_list(f: _Fields) -> tuple[str, ...]:
    files = f.data.get("files")
    if files is None:
        return ()
    if not isinstance(files, list) or not all(isinstance(x, str) and x.strip() for x in files):
        f.fail("files", "'files' must be a list of paths in the repository, "
                        "like 'src/pkg/module.py'")
        return ()
    paths = tuple(dict.fromkeys(x.strip().strip("/") for x in files))  # each once
    for path in paths:
        if not REPO_PATH.match(path):
            f.fail("files", f"'files' entry {path!r} is not a path inside the repository; expected "
                            "a path like 'src/pkg/module.py' (no control characters, no '..')")
            return ()
    return paths


def _file_lines(files: object) -> list[tuple[str, int]]:
    """('files: PATH', its line) for each path `files` lists (its first line if twice)."""
    lines: dict[str, int] = {}
    if isinstance(files, Sequence):
        for index, path in enumerate(files):
            if isinstance(path, str):
                lines.setdefault(f"files: {path.strip().strip('/')}", files.line_of(index))
    return list(lines.items())


def _check_orders(pages: list[Page], problems: Problems) -> None:
    orders: dict[int, Page] = {}
    for page in sorted((p for p in pages if not p.broken), key=lambda p: p.slug):
        if page.order in orders:
            problems.errors.append(ContentError(f"order {page.order} is also used by "
                                       f"{orders[page.order].path.name}", page.path, 1))
        orders[page.order] = page


def split_front_matter(text: str, path: Path) -> tuple[str, str, int]:
    """Split a page into (front matter, body, line of the body's first line)."""
    if not text.startswith("---\n"):
        raise ContentError("missing front matter; expected the page to start with a '---' "
                           "line, its fields, and another '---' line", path, 1)
    end = _FRONT_MATTER_END.search(text, 4)
    if end is None:
        raise ContentError("front matter is not closed; expected a '---' line after its "
                           "fields", path, 1)
    front = text[4:end.start()]
    body_start = end.end() + 1
    body_line = text.count("\n", 0, body_start) + 1
    return front, text[body_start:], body_line


def _read_page(config: Config, path: Path, pr_key: str,
               problems: Problems) -> Page | None:
    page_check = problems.checkpoint()
    slug = path.stem
    if not SLUG.match(slug):
        problems.errors.append(ContentError(f"page file name '{path.name}' must be lower-case letters, "
                                   "digits and '-', ending in .md (it becomes the URL)", path))
    try:
        text = read_text(path)
        _placeholders(text, path, problems)
        front, body, body_line = split_front_matter(text, path)
    except ContentError as exc:
        problems.errors.append(exc)
        return None
    _control_characters(body, path, body_line, problems)
    data = _load_mapping(path, front, 2, "front matter", problems)
    if data is None:  # the body is still rendered, for its own problems
        return Page(path, slug, slug, slug, 0, _any_page_status(config), None, Summary(), body,
                    body_line, pr_key, broken=True)
    f = _Fields(data, path, problems, "front matter")
    f.unknown(_PAGE_FIELDS)
    title, question = f.text("title"), f.text("question")
    status = f.status("status", config, "page")
    order, updated = data.get("order"), data.get("updated")
    if order is None:
        f.fail("order", "front matter needs 'order': add a line like 'order: 1' (the page's "
                        "place among its pull request's pages)")
    elif not isinstance(order, int) or isinstance(order, bool):
        f.fail("order", f"'order' must be a whole number, found {describe(order)}")
    if updated is None:
        f.fail("updated", "front matter needs 'updated': add a line like 'updated: 2026-01-31' "
                          "(the date of your latest change, shown on the home page and the feed)")
    elif not isinstance(updated, dt.date) or isinstance(updated, dt.datetime):
        f.fail("updated", f"'updated' must be a date like 2026-01-31, found {describe(updated)}")
    summary = _summary(data, path, problems)
    if status is not None and summary.status:
        _badge_twice(data, summary.status, status, config, path, problems)
    draft = data.get("draft", False)
    if not isinstance(draft, bool):
        f.fail("draft", f"'draft' must be true or false, found {describe(draft)}")
    if not page_check.failed:
        assert title and question and status and isinstance(order, int)
        assert isinstance(updated, dt.date)
        return Page(path, slug, title, question, order, status, updated, summary, body,
                    body_line, pr_key, draft=bool(draft))
    # Broken front matter: the page is still rendered, so its body's problems show in the
    # same run (the build fails on the front matter's anyway).
    return Page(path, slug, title or slug, question or slug, order if isinstance(order, int) else 0,
                status or _any_page_status(config), None, Summary(), body, body_line, pr_key,
                broken=True)


def _any_page_status(config: Config) -> Status:
    return next(s for s in config.statuses.values() if "page" in s.uses)


LEADING_BADGE = re.compile(r"^\s*:badge\[([^\]]*)\]")


def _badge_twice(data: Mapping, text: str, status: Status, config: Config, path: Path,
                 problems: Problems) -> None:
    """The summary's status cell shows the page's badge before its text: a text that begins
    with that badge would show it twice."""
    m = LEADING_BADGE.match(text)
    if m and config.statuses.get(m[1].strip()) == status:
        problems.warn(f"the summary's status begins with ':badge[{m[1].strip()}]', the badge of "
                      "the page's status, which the card shows before it; leave it out",
                      path, data["summary"].line_of("status"))


def _summary(data: Mapping, path: Path, problems: Problems) -> Summary:
    value = data.get("summary")
    if value is None:
        return Summary()
    if not isinstance(value, Mapping):
        problems.errors.append(ContentError("'summary' must be a mapping with before, this_pr and "
                                   f"status, found {describe(value)}", path, data.line_of("summary")))
        return Summary()
    f = _Fields(value, path, problems, "summary")
    f.unknown(_SUMMARY_FIELDS)
    return Summary(**{k: f.text(k, required=False) for k in sorted(_SUMMARY_FIELDS)})
