"""Writing the site: into a fresh folder beside `site_dir`, then one atomic exchange.

A reader, or a build killed at any moment, sees the old site or the new one. site_gen
only ever replaces a folder it made itself: its record of the folder (the marker, with
the files it holds) sits beside it, `.<site_dir>.site-gen`, so it is never published.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import hashlib
import json
import logging
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .config import Config
from .errors import BuildFailed, ConfigError, SiteGenError
from .search import index_site

log = logging.getLogger("site_gen")

Outputs = dict[str, str | Path]  # relative path in the site: HTML text, or a file to copy
LEGACY_MARKER = ".site-gen"  # inside site_dir, as builds before 0.2 left it
# A name in the site: relative, '/'-separated, no empty, '.' or '..' segment, no control character.
SAFE_NAME = re.compile(r"^(?!/)(?!.*(?:^|/)\.{0,2}(?:/|$))[^\x00-\x1f\x7f\\]+$")


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
    if site.is_relative_to(config.docs_dir.resolve()):
        raise BuildFailed([ConfigError(f"site_dir '{config.site_dir}' is inside docs_dir, so every "
                                       "build would publish the last one again; expected a folder "
                                       "outside it", config.config_file)])
    if site.exists() and (not site.is_dir() or any(site.iterdir())) and not _ours(site):
        raise BuildFailed([ConfigError(f"site_dir '{config.site_dir}' exists and was not made by "
                                       "site_gen; expected an empty or new folder (remove it, or "
                                       "choose another site_dir)", config.config_file)])


def marker_path(site_dir: Path) -> Path:
    """Where site_gen keeps its record of `site_dir`: beside it, never published."""
    return site_dir.parent / f".{site_dir.name}.site-gen"


def _ours(site: Path) -> bool:
    return marker_path(site).is_file() or (site / LEGACY_MARKER).is_file()


@contextlib.contextmanager
def site_lock(site_dir: Path) -> Iterator[None]:
    """Hold the site folder for one build: a second build into it waits for the first."""
    site_dir = site_dir.resolve()
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    with open(site_dir.parent / f".{site_dir.name}.lock", "a+b") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log.info("waiting for another build of %s to finish", site_dir)
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def write_site(site_dir: Path, outputs: Outputs, *, search: bool = True,
               extra: dict[str, Any] | None = None) -> bool:
    """Make `site_dir` hold exactly `outputs` (plus the search index); False if it already did.

    The new site is written into a fresh folder beside `site_dir` (files that did not change
    are hard-linked from the old site), indexed, then exchanged with the old one in one
    atomic rename: a reader, or a build killed at any moment, sees the old site or the new.
    """
    check_names(outputs)
    site_dir = site_dir.resolve()
    try:
        return _write(site_dir, outputs, search, extra or {})
    except OSError as exc:  # a read-only or full disk: the old site is still whole
        where = exc.filename or site_dir
        raise SiteGenError(f"cannot write the site: {exc.strerror or exc} ({where}); the site "
                           f"in {site_dir} was not changed") from None


def check_names(outputs: Outputs) -> None:
    """Every output stays inside the site folder (a last guard: render_site has already
    refused names that are both a file and a folder, naming the author's file)."""
    for name in sorted(outputs):
        if not SAFE_NAME.match(name):
            raise SiteGenError(f"refusing to write {name!r}: it is not a plain path inside the "
                               "site folder")


def _write(site_dir: Path, outputs: Outputs, search: bool, extra: dict[str, Any]) -> bool:
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    _recover(site_dir)
    manifest = {name: _digest(content) for name, content in sorted(outputs.items())}
    previous = read_marker(site_dir)
    marker = {"generator": "site_gen", "search": search, "files": manifest, **extra}
    if previous.get("files") == manifest and previous.get("search") == search:
        marker["folder"] = previous["folder"]
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
        # Written before the exchange, naming the new folder: should the build die before
        # the exchange, the marker names a folder that is not site_dir, and is ignored.
        _write_marker(site_dir, {**marker, "folder": tmp.stat().st_ino})
        try:
            _exchange(tmp, site_dir) if site_dir.exists() else tmp.rename(site_dir)
        except OSError:
            _write_marker(site_dir, previous)  # still describes the folder that stays
            raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    (site_dir / LEGACY_MARKER).unlink(missing_ok=True)
    return True


def _digest(content: str | Path) -> str:
    data = content.read_bytes() if isinstance(content, Path) else content.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def read_marker(site_dir: Path) -> dict[str, Any]:
    """What the build that made `site_dir` recorded ({} if nothing, or if the record
    describes another folder than the one now at `site_dir`)."""
    try:
        data = json.loads(marker_path(site_dir).read_text(encoding="utf-8"))
        folder = site_dir.stat().st_ino
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("folder") == folder else {}


def _write_marker(site_dir: Path, marker: dict[str, Any]) -> None:
    path = marker_path(site_dir)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(marker, indent=0, sort_keys=True), encoding="utf-8")
    tmp.replace(path)


def _fill(tmp: Path, site_dir: Path, outputs: Outputs, manifest: dict[str, str],
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
    for leftover in site_dir.parent.glob(f".{site_dir.name}.site-gen.*.tmp"):
        pid = leftover.name.split(".")[-2]  # a record being written when its build died
        if not pid.isdigit() or not _alive(int(pid)):
            leftover.unlink(missing_ok=True)


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
