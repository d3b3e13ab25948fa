"""The build: read and check everything, render every file, then swap the site into place."""

from __future__ import annotations

import logging
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from .config import Config
from .content import Site, discover
from .context import PageContext
from .errors import BuildFailed, ConfigError, ContentError, SiteGenError
from .markdown import render_body
from .render import CSS_PATH, SEARCH_JS, Renderer
from .search import index_site
from .source import SourceReader

log = logging.getLogger("site_gen")

MARKER = ".site-gen"


@dataclass(frozen=True)
class BuildResult:
    pages: int
    files: int
    warnings: int
    seconds: float


class WarningCounter(logging.Handler):
    """Counts the warnings of a run, so `--strict` can fail on them before writing."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def render_site(config: Config) -> dict[str, str | Path]:
    """Every output file of the site: relative path to HTML text, or to a file to copy.

    Raises BuildFailed with every content error found; writes nothing.
    """
    site, errors = discover(config)
    source = SourceReader(config.checkout) if config.checkout else None
    outputs: dict[str, str | Path] = {}
    all_errors: list[SiteGenError] = list(errors)
    try:
        renderer = Renderer(config, site)
        for pr in site.prs:
            for page in pr.pages:
                ctx = PageContext(config, page.path, pr, page.body_line, source)
                body = render_body(ctx, page.body)
                all_errors.extend(ctx.errors)
                for warning in ctx.warnings:
                    log.warning("%s", warning)
                outputs[page.url + "index.html"] = renderer.page(page, pr, body)
            outputs[pr.url + "index.html"] = renderer.pr(pr)
    finally:
        if source:
            source.close()
    if all_errors:
        raise BuildFailed(sorted(all_errors, key=_where))
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


def _where(error: SiteGenError) -> tuple[str, int]:
    if isinstance(error, ContentError):
        return (str(error.path), error.line or 0)
    return ("", 0)


def build(config: Config, counter: WarningCounter | None = None) -> BuildResult:
    """Build the site into `config.site_dir`; on any error the old site stays as it was."""
    started = time.perf_counter()
    check_site_dir(config)
    outputs = render_site(config)
    warnings = counter.count if counter else 0
    if config.strict and warnings:
        raise BuildFailed([SiteGenError(f"aborted: {warnings} warning(s) in strict mode")])
    write_site(config.site_dir, outputs)
    pages = sum(1 for name in outputs if name.endswith(".html"))
    return BuildResult(pages, len(outputs), warnings, time.perf_counter() - started)


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


def write_site(site_dir: Path, outputs: dict[str, str | Path], *, search: bool = True) -> None:
    """Write every file into a fresh folder beside `site_dir`, index it, then swap it in."""
    site_dir = site_dir.resolve()
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = site_dir.parent / f".{site_dir.name}.new-{os.getpid()}"
    old = site_dir.parent / f".{site_dir.name}.old-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    for name in sorted(outputs):
        target = tmp / name
        target.parent.mkdir(parents=True, exist_ok=True)
        content = outputs[name]
        if isinstance(content, Path):
            shutil.copyfile(content, target)
        else:
            target.write_text(content, encoding="utf-8", newline="\n")
    if search:
        try:
            index_site(tmp)
        except SiteGenError:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    (tmp / MARKER).write_text("This folder is built by site_gen; a build replaces it whole.\n",
                              encoding="utf-8")
    if site_dir.exists():
        site_dir.rename(old)
    tmp.rename(site_dir)
    shutil.rmtree(old, ignore_errors=True)
