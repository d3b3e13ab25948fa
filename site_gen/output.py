"""Writing the site: into a fresh folder beside `site_dir`, then one atomic exchange.

A reader, or a build killed at any moment, sees the old site or the new one; site_gen
only ever replaces a folder it made itself (it leaves a marker file in it).
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

from .config import Config
from .errors import BuildFailed, ConfigError
from .search import index_site

MARKER = ".site-gen"
Outputs = dict[str, str | Path]  # relative path in the site: HTML text, or a file to copy


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


def write_site(site_dir: Path, outputs: Outputs, *, search: bool = True,
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
    previous = read_marker(site_dir)
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


def read_marker(site_dir: Path) -> dict[str, Any]:
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
