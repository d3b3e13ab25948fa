"""The build: read and check everything, render every file, then swap the site into place."""

from __future__ import annotations

import ctypes
import hashlib
import json
import logging
import os
import re
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from html import unescape as html_unescape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import Config
from .content import discover
from .errors import BuildFailed, ConfigError, ContentError, SiteGenError
from .fingerprint import build_fingerprint
from .search import index_site

if TYPE_CHECKING:
    from .pages import PageCache, PageResult

log = logging.getLogger("site_gen")

MARKER = ".site-gen"


@dataclass(frozen=True)
class BuildResult:
    pages: int
    files: int
    warnings: int
    seconds: float
    changed: bool = True


class WarningCounter(logging.Handler):
    """Counts the warnings of a run, so `--strict` can fail on them before writing."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    @property
    def count(self) -> int:
        return len(self.messages)

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def render_site(config: Config, *, jobs: int = 1, cache: PageCache | None = None,
                progress: Callable[[int, int], None] | None = None) -> dict[str, str | Path]:
    """Every output file of the site: relative path to HTML text, or to a file to copy.

    Raises BuildFailed with every content error found; writes nothing.
    """
    # Imported here, not at the top: they pull in markdown-it and Pygments, which an
    # up-to-date build never needs.
    from .pages import render_pages
    from .render import CSS_PATH, SEARCH_JS, Renderer

    site, errors = discover(config)
    all_errors: list[SiteGenError] = list(errors)
    outputs: dict[str, str | Path] = {}
    results = render_pages(config, site, jobs=jobs, cache=cache, progress=progress)
    for result in results:
        all_errors.extend(result.errors)
        for warning in result.warnings:
            log.warning("%s", warning)
        if result.html is not None:  # a page with errors too: check_links reads it
            outputs[result.url + "index.html"] = result.html
    check_links(config, results, outputs)
    if all_errors:
        raise BuildFailed(sorted(all_errors, key=_where))
    renderer = Renderer(config, site)
    for pr in site.prs:
        outputs[pr.url + "index.html"] = renderer.pr(pr)
    outputs["index.html"] = renderer.home()
    outputs["404.html"] = renderer.not_found()
    for status in renderer.statuses_used:
        outputs[f"status/{status.key}/index.html"] = renderer.status(status)
    outputs["search/index.html"] = renderer.search()
    outputs[SEARCH_JS] = renderer.search_js()
    outputs[CSS_PATH] = renderer.css()
    if config.site_url:
        pages = sorted(name.removesuffix("index.html") for name in outputs
                       if name.endswith("index.html") and not name.startswith("search/"))
        outputs["sitemap.xml"] = renderer.sitemap(pages)
        outputs["feed.xml"] = renderer.feed()
    else:
        log.warning("site_url is not set, so sitemap.xml and feed.xml are skipped; set it in "
                    "%s (for example site_url: !ENV [SITE_URL, 'https://example.org/'])",
                    config.config_file.name)
    for asset in site.assets:
        outputs[asset.target] = asset.source
    return outputs


_ID = re.compile(r'\bid="([^"]+)"')


def check_links(config: Config, results: list[PageResult],
                outputs: dict[str, str | Path]) -> None:
    """Warn about links to files that do not exist and #fragments that name nothing."""
    for result in results:
        for where, what, href, target in result.targets:
            if not (config.docs_dir / target).exists():
                log.warning("%s: %s to '%s' points at nothing: there is no '%s' in docs_dir",
                            where, what, href, target)
    ids: dict[str, set[str]] = {}
    for result in results:
        for where, url, fragment, href in result.anchors:
            html = outputs.get(url + "index.html")
            if not isinstance(html, str):
                continue  # the page itself is missing: reported as a link to nothing
            if url not in ids:
                ids[url] = {html_unescape(i) for i in _ID.findall(html)}
            if fragment not in ids[url]:
                log.warning("%s: link to '%s' names no heading or element '#%s' on that page",
                            where, href, fragment)


def _where(error: SiteGenError) -> tuple[str, int]:
    if isinstance(error, ContentError):
        return (str(error.path), error.line or 0)
    return ("", 0)


def build(config: Config, counter: WarningCounter | None = None, *, jobs: int = 1,
          cache: bool = True, search: bool = True,
          progress: Callable[[int, int], None] | None = None) -> BuildResult:
    """Build the site into `config.site_dir`; on any error the old site stays as it was.

    `jobs` worker processes render the pages; with `cache`, pages whose inputs did not
    change since the last build are taken from the cache folder instead of rendered.
    """
    started = time.perf_counter()
    earlier = counter.count if counter else 0  # e.g. settings warnings: repeated every run
    check_site_dir(config)
    inputs = input_digest(config, search) if cache else None
    previous = _read_marker(config.site_dir)
    if inputs and previous.get("inputs") == inputs:
        return _unchanged(config, previous, counter, started)
    from .pages import PageCache

    page_cache = PageCache(cache_dir(config)) if cache else None
    outputs = render_site(config, jobs=jobs, cache=page_cache, progress=progress)
    warnings = fail_on_warnings(config, counter)
    pages = sum(1 for name in outputs if name.endswith(".html"))
    extra = {"inputs": inputs, "pages": pages,
             "warnings": counter.messages[earlier:] if counter else []}
    changed = write_site(config.site_dir, outputs, search=search, extra=extra)
    if page_cache:
        page_cache.prune()
    return BuildResult(pages, len(outputs), warnings, time.perf_counter() - started, changed)


def fail_on_warnings(config: Config, counter: WarningCounter | None) -> int:
    """The number of warnings so far; under strict, any of them fails the run."""
    warnings = counter.count if counter else 0
    if config.strict and warnings:
        raise BuildFailed([SiteGenError(f"aborted: {warnings} warning(s) in strict mode")])
    return warnings


def _unchanged(config: Config, previous: dict[str, Any], counter: WarningCounter | None,
               started: float) -> BuildResult:
    """Nothing the site is made from changed: repeat the last build's warnings, write nothing."""
    for message in previous.get("warnings", []):
        log.warning("%s", message)
    warnings = fail_on_warnings(config, counter)
    files = previous.get("files") or {}
    return BuildResult(int(previous.get("pages", 0)), len(files), warnings,
                       time.perf_counter() - started, False)


def input_digest(config: Config, search: bool) -> str:
    """A digest of everything a build reads: code, templates, settings and every content file."""
    digest = hashlib.sha256(f"{build_fingerprint(config)}\nsearch={search}\n".encode())
    docs = config.docs_dir
    for path in sorted(docs.rglob("*")) if docs.is_dir() else ():
        # Every entry counts, not only readable files: a folder or a broken link where a
        # page was must make the next build look (and fail) again.
        digest.update(f"{path.relative_to(docs)}\n".encode())
        if path.is_symlink():
            digest.update(b"link:" + os.fsencode(os.readlink(path)))
        if path.is_file():
            digest.update(hashlib.sha256(path.read_bytes()).digest())
        elif path.is_dir():
            digest.update(b"folder")
    return digest.hexdigest()


def cache_dir(config: Config) -> Path:
    """Where rendered pages are kept between builds."""
    return config.root / ".cache" / "site-gen"


def check_site_dir(config: Config) -> None:
    """Refuse a site_dir that site_gen must never replace."""
    site = config.site_dir.resolve()
    forbidden = {
        Path("/"): "the file system root", Path.home().resolve(): "the home folder",
        config.root.resolve(): "the project folder", config.docs_dir.resolve(): "docs_dir",
    }
    for path, name in forbidden.items():
        if site == path or path.is_relative_to(site):
            raise BuildFailed([ConfigError(f"site_dir '{config.site_dir}' would replace {name}; "
                                           "expected a folder of its own, like 'site'",
                                           config.config_file)])
    if site.exists() and (not site.is_dir() or any(site.iterdir())) and not (site / MARKER).exists():
        raise BuildFailed([ConfigError(f"site_dir '{config.site_dir}' exists and was not made by "
                                       "site_gen; expected an empty or new folder (remove it, or "
                                       "choose another site_dir)", config.config_file)])


def write_site(site_dir: Path, outputs: dict[str, str | Path], *, search: bool = True,
               extra: dict[str, Any] | None = None) -> bool:
    """Make `site_dir` hold exactly `outputs` (plus the search index); False if it already did.

    The new site is written into a fresh folder beside `site_dir` (files that did not change
    are hard-linked from the old site), indexed, then exchanged with the old one in one
    atomic rename: a reader, or a build killed at any moment, sees the old site or the new.
    """
    site_dir = site_dir.resolve()
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    _recover(site_dir)
    manifest = {name: _digest(content) for name, content in sorted(outputs.items())}
    previous = _read_marker(site_dir)
    marker = {"generator": "site_gen", "search": search, "files": manifest, **(extra or {})}
    if previous.get("files") == manifest and previous.get("search") == search:
        if previous != marker:
            _write_marker(site_dir, marker)
        return False
    tmp = site_dir.parent / f".{site_dir.name}.new-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        _fill(tmp, site_dir, outputs, manifest, previous.get("files") or {})
        if search:
            index_site(tmp)
        _write_marker(tmp, marker)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if site_dir.exists():
        _exchange(tmp, site_dir)
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        tmp.rename(site_dir)
    return True


def _digest(content: str | Path) -> str:
    data = content.read_bytes() if isinstance(content, Path) else content.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def _read_marker(site_dir: Path) -> dict[str, Any]:
    """What the build that made `site_dir` recorded in its marker file ({} if nothing)."""
    try:
        data = json.loads((site_dir / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_marker(folder: Path, marker: dict[str, Any]) -> None:
    # Written last and replaced atomically: a marker always describes the whole folder.
    tmp = folder / f"{MARKER}.tmp"
    tmp.write_text(json.dumps(marker, indent=0, sort_keys=True), encoding="utf-8")
    tmp.replace(folder / MARKER)


def _fill(tmp: Path, site_dir: Path, outputs: dict[str, str | Path], manifest: dict[str, str],
          old: object) -> None:
    for name in sorted(outputs):
        target = tmp / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(old, dict) and old.get(name) == manifest[name]:
            try:
                os.link(site_dir / name, target)
                continue
            except OSError:
                pass
        content = outputs[name]
        if isinstance(content, Path):
            shutil.copyfile(content, target)
        else:
            target.write_text(content, encoding="utf-8", newline="\n")


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> None:
    """Swap two folders atomically (Linux renameat2); elsewhere, two renames."""
    libc = ctypes.CDLL(None, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is not None and renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD,
                                           os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return
    aside = b.with_name(b.name + ".old")  # _recover puts it back if we die in between
    shutil.rmtree(aside, ignore_errors=True)
    b.rename(aside)
    a.rename(b)
    aside.rename(a)


def _recover(site_dir: Path) -> None:
    """Clean up after a build that was killed: restore a site set aside, drop half-built ones."""
    aside = site_dir.with_name(site_dir.name + ".old")
    if aside.exists() and not site_dir.exists():
        aside.rename(site_dir)
    for leftover in site_dir.parent.glob(f".{site_dir.name}.new-*"):
        pid = leftover.name.rsplit("-", 1)[-1]
        if not pid.isdigit() or not _alive(int(pid)):
            shutil.rmtree(leftover, ignore_errors=True)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
