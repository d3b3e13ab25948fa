"""What a build depends on, as digests: the up-to-date check, and rendered pages kept
between builds under a key of everything their template receives."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sqlite3
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


def input_digest(config: Config, fingerprint: str, search: bool,
                 files: dict[str, bytes] | None = None) -> str:
    """A digest of everything a build reads: the fingerprint, what the code stores hold,
    and every content file (each file's own digest goes into `files`, by path)."""
    digest = hashlib.sha256(f"{fingerprint}\nsearch={search}\n{code_signature(config)}\n".encode())
    docs = config.docs_dir
    for path in sorted(docs.rglob("*")) if docs.is_dir() else ():
        # Every entry counts, not only readable files: a folder or a broken link where a
        # page was must make the next build look (and fail) again.
        digest.update(f"{path.relative_to(docs)}\n".encode())
        if path.is_symlink():
            digest.update(b"link:" + os.fsencode(os.readlink(path)))
        if path.is_file():
            own = hashlib.sha256(path.read_bytes()).digest()
            digest.update(own)
            if files is not None:
                files[str(path)] = own
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


def page_key(fingerprint: str, context: Mapping[str, Any], body: str,
             reprs: dict[int, tuple[Any, str]] | None = None) -> str:
    """A page's cache key: the build's fingerprint, every value its template receives
    (functions are made from the settings, already in the fingerprint), and its text.
    `reprs` remembers the text of values the pages of one build share (their PR)."""
    values = [f"{name}={_stable(value, reprs)}" for name, value in sorted(context.items())
              if not callable(value)]
    text = "\n".join([fingerprint, *values, body])
    return hashlib.sha256(text.encode()).hexdigest()


def _stable(value: Any, reprs: dict[int, tuple[Any, str]] | None = None) -> str:
    """`value` as text for a key (settings by what can change a page); with `reprs`, a value
    shared by many pages (the settings, a PR) is made into text once."""
    if reprs is None or isinstance(value, (str, int, float, type(None))):
        return output_settings(value) if isinstance(value, Config) else repr(value)
    held = reprs.get(id(value))
    if held is None or held[0] is not value:
        held = reprs[id(value)] = (value, _stable(value))
    return held[1]


def cache_path(config: Config) -> Path:
    """Where rendered pages are kept between builds: one SQLite file."""
    return config.cache_dir / "pages.sqlite"


class PageCache:
    """Rendered pages kept between builds in one SQLite file, a row per key whose data is
    bound to the key by a digest; pruned to what the last build used. Several builds may
    share it (SQLite takes turns); a damaged file is started again."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.used: set[str] = set()
        self._db: sqlite3.Connection | None = None
        shutil.rmtree(path.with_suffix(""), ignore_errors=True)  # files of site_gen < 0.3

    def _open(self) -> sqlite3.Connection:
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                self._db = _connect(self.path)
            except sqlite3.DatabaseError:  # not a database (damaged, or not ours): again
                self.path.unlink(missing_ok=True)
                self._db = _connect(self.path)
        return self._db

    def get(self, key: str) -> dict[str, Any] | None:
        """The data stored under `key`; None when there is none, or when the entry is not
        one this cache wrote for that key (a damaged or foreign row is never used)."""
        self.used.add(key)
        try:
            row = self._open().execute("SELECT data, text, digest FROM pages WHERE key = ?",
                                       (key,)).fetchone()
            if row is None or not isinstance(row[0], str) or not isinstance(row[1], str) or \
                    row[2] != _entry_digest(key, row[0], row[1]):
                return None
            data = json.loads(row[0])
        except (sqlite3.Error, ValueError):
            return None
        if not isinstance(data, dict) or LONG not in data:
            return None
        longest = data.pop(LONG)
        if isinstance(longest, str):
            data[longest] = row[1]
        return data

    def put(self, key: str, data: dict[str, Any]) -> None:
        """Keep `data` under `key` (written for good by close()). Its longest text (a page's
        HTML) is kept in a column of its own, read back without decoding JSON."""
        longest = max((k for k, v in data.items() if isinstance(v, str)),
                      key=lambda k: len(data[k]), default=None)
        text = data[longest] if longest is not None else ""
        rest = json.dumps({**{k: v for k, v in data.items() if k != longest}, LONG: longest},
                          sort_keys=True, ensure_ascii=False)
        with contextlib.suppress(sqlite3.Error):  # a cache that cannot be written is no cache
            self._open().execute("INSERT OR REPLACE INTO pages VALUES (?, ?, ?, ?)",
                                 (key, rest, text, _entry_digest(key, rest, text)))

    def prune(self) -> None:
        """Forget entries the last build did not ask for (deleted or changed pages)."""
        with contextlib.suppress(sqlite3.Error):
            db = self._open()
            db.execute("CREATE TEMP TABLE IF NOT EXISTS used (key TEXT PRIMARY KEY)")
            db.execute("DELETE FROM used")
            db.executemany("INSERT OR IGNORE INTO used VALUES (?)", ((k,) for k in self.used))
            db.execute("DELETE FROM pages WHERE key NOT IN (SELECT key FROM used)")

    def close(self) -> None:
        """Write what was put, and let the file go."""
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.commit()
            self._db.close()
            self._db = None


LONG = "\0long"  # in an entry's JSON: which field is kept in the text column


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=60)
    db.execute("CREATE TABLE IF NOT EXISTS pages "
               "(key TEXT PRIMARY KEY, data TEXT, text TEXT, digest TEXT)")
    db.execute("SELECT key, data, text, digest FROM pages LIMIT 0")  # a table of another shape
    return db


def _entry_digest(key: str, data: str, text: str) -> str:
    """Binds an entry to its key: a row copied under another key, or edited, fails."""
    digest = hashlib.sha256(f"{key}\n{len(data)}\n{data}\n".encode())
    digest.update(text.encode())
    return digest.hexdigest()
