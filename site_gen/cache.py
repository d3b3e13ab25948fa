"""What a build depends on, as digests: the up-to-date check, and rendered pages kept
between builds under a key of everything their template receives."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import __version__
from .config import PACKAGE_TEMPLATES, Config, output_settings

PACKAGE_DIR = Path(__file__).resolve().parent


def build_fingerprint(config: Config) -> str:
    """A digest of site_gen's version and code, the templates, and the settings that can
    change a page (not `site_dir` or `strict`)."""
    digest = hashlib.sha256(f"site_gen {__version__}\n{output_settings(config)}\n".encode())
    for folder, pattern in ((PACKAGE_DIR, "**/*.py"), (PACKAGE_TEMPLATES, "**/*"),
                            (config.custom_dir, "**/*")):
        for path in sorted(folder.glob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(f"{path.relative_to(folder)}\n".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def input_digest(config: Config, fingerprint: str, search: bool) -> str:
    """A digest of everything a build reads: the fingerprint, what the code stores hold,
    and every content file."""
    digest = hashlib.sha256(f"{fingerprint}\nsearch={search}\n{code_signature(config)}\n".encode())
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


def code_signature(config: Config) -> str:
    """What the clones and fetched repositories hold, cheaply: an emptied or replaced
    checkout at the same path, or a fetch, changes it (the page keys themselves hold the
    commits each page was checked against)."""
    stores = [config.checkout, *config.checkouts.values()]
    stores += sorted((config.cache_dir / "repos").glob("*/*.git"))
    lines = []
    for store in stores:
        if store is not None:
            done = subprocess.run(["git", "-C", str(store), "count-objects", "-v"],
                                  capture_output=True, text=True, check=False)
            packs = subprocess.run(["git", "-C", str(store), "rev-parse", "--git-path", "objects/pack"],
                                   capture_output=True, text=True, check=False).stdout.strip()
            names = sorted(p.name for p in (store / packs).glob("*.pack")) if packs else []
            lines.append(f"{store.name}:{done.stdout}{names}")
    return "\n".join(lines)


def page_key(fingerprint: str, context: Mapping[str, Any], body: str) -> str:
    """A page's cache key: the build's fingerprint, every value its template receives
    (functions are made from the settings, already in the fingerprint), and its text."""
    values = [f"{name}={_stable(value)}" for name, value in sorted(context.items())
              if not callable(value)]
    text = "\n".join([fingerprint, *values, body])
    return hashlib.sha256(text.encode()).hexdigest()


def _stable(value: Any) -> str:
    return output_settings(value) if isinstance(value, Config) else repr(value)


def cache_dir(config: Config) -> Path:
    """Where rendered pages are kept between builds."""
    return config.cache_dir / "pages"


class PageCache:
    """Rendered pages on disk, one JSON file per key; pruned to what the last build used."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.used: set[str] = set()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The data stored under `key`; None when there is none, or when the entry is not
        one this cache wrote for that key (a damaged or foreign file is never used)."""
        self.used.add(key)
        try:
            entry = json.loads(self._path(key).read_text(encoding="utf-8"))
            data = entry["data"]
            valid = entry["key"] == key and entry["digest"] == _entry_digest(key, data)
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return data if valid and isinstance(data, dict) else None

    def put(self, key: str, data: dict[str, Any]) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        entry = {"key": key, "digest": _entry_digest(key, data), "data": data}
        tmp.write_text(json.dumps(entry), encoding="utf-8")
        tmp.replace(path)

    def prune(self) -> None:
        """Forget entries the last build did not ask for (deleted or changed pages).

        Another build may prune or write at the same time: files that vanish are fine."""
        for path in self.folder.glob("*/*.json"):
            if path.stem not in self.used:
                path.unlink(missing_ok=True)
        for folder in self.folder.glob("*/"):
            with contextlib.suppress(OSError):  # not empty, or already gone
                folder.rmdir()


def _entry_digest(key: str, data: Any) -> str:
    """Binds an entry's data to its key: a file copied under another key, or edited, fails."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(f"{key}\n{text}".encode()).hexdigest()
