"""What a build depends on, as digests: the up-to-date check, and rendered pages kept
between builds under a key of everything their template receives."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from . import __version__
from .config import PACKAGE_TEMPLATES, Config, output_settings
from .content import PullRequest
from .errors import display_path
from .output import text_digest

log = logging.getLogger(__name__)

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
                 files: dict[str, bytes] | None = None,
                 listing: list[tuple[str, bool, bool]] | None = None) -> str:
    """A digest of everything a build reads: the fingerprint, what the code stores hold,
    and every content file (each file's own digest goes into `files`, by path; every entry
    of docs_dir into `listing`, for discovery: see DiscoveryMemo.listing)."""
    digest = hashlib.sha256(f"{fingerprint}\nsearch={search}\n{code_signature(config)}\n".encode())
    docs = config.docs_dir
    for rel, entry in _tree(str(docs)) if docs.is_dir() else ():
        # Every entry counts, not only readable files: a folder or a broken link where a
        # page was must make the next build look (and fail) again.
        digest.update(f"{rel}\n".encode())
        link = entry.is_symlink()
        if link:
            digest.update(b"link:" + os.fsencode(os.readlink(entry.path)))
        folder = False
        if _is(entry.is_file):
            with open(entry.path, "rb") as handle:
                own = hashlib.sha256(handle.read()).digest()
            digest.update(own)
            if files is not None:
                files[entry.path] = own
        elif _is(entry.is_dir):
            digest.update(b"folder")
            folder = True
        if listing is not None:
            listing.append((rel, folder, link))
    return digest.hexdigest()


def _tree(folder: str, prefix: str = "") -> Iterator[tuple[str, os.DirEntry[str]]]:
    """Every entry under `folder` (relative name, entry) in order of their path parts, not
    entering linked folders nor folders it may not read (as Path.rglob)."""
    try:
        with os.scandir(folder) as found:
            entries = sorted(found, key=lambda entry: entry.name)
    except PermissionError:
        return
    for entry in entries:
        name = prefix + entry.name
        yield name, entry
        if _is(functools.partial(entry.is_dir, follow_symlinks=False)):
            yield from _tree(entry.path, name + "/")


def _is(test: Callable[[], bool]) -> bool:
    """A file type test that says no when the entry cannot be looked at (as Path.is_file)."""
    try:
        return test()
    except OSError:
        return False


def code_signature(config: Config) -> str:
    """What the clones and fetched repositories hold, cheaply: an emptied or replaced
    checkout at the same path, a fetch, or a PR's pull ref moved (even to a commit the
    store already holds) changes it (the page keys themselves hold the commits each page
    was checked against). Git is asked each question in a process of its own, at once."""
    stores = [config.checkout, *config.checkouts.values()]
    stores += sorted((config.cache_dir / "repos").glob("*/*.git"))
    # Where the pull refs are (refs/pull/ on GitHub): each PR's current head, which says
    # whether the PR moved on since its pages were written (the drift notice).
    pulls = config.code_host.pull_ref.partition("{")[0].rpartition("/")[0] or "refs"
    questions = (("count-objects", "-v"), ("rev-parse", "--git-path", "objects/pack"),
                 ("for-each-ref", "--format=%(objectname) %(refname)", pulls))
    asked = [(store, [subprocess.Popen(["git", "-C", str(store), *question], text=True,
                                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
                      for question in questions])
             for store in stores if store is not None]
    lines = []
    for store, running in asked:
        objects, packs, refs = (process.communicate()[0] for process in running)
        packs = packs.strip()
        names = sorted(p.name for p in (store / packs).glob("*.pack")) if packs else []
        lines.append(f"{store.name}:{objects}{names}\n{refs}")
    return "\n".join(lines)


def page_key(fingerprint: str, inputs: Mapping[str, Any], body: str,
             reprs: dict[int, tuple[Any, str]] | None = None) -> str:
    """A page's cache key: the build's fingerprint, the values (by name) everything its
    template receives is made from, and its text. `reprs` remembers the text of values the
    pages of one build share (the settings, their PR)."""
    values = [f"{name}={_stable(value, reprs)}" for name, value in sorted(inputs.items())]
    text = "\n".join([fingerprint, *values, body])
    return hashlib.sha256(text.encode()).hexdigest()


def stable_text(value: Any) -> str:
    """`value` as the text of a cache key: its repr, but a pull request by its digest,
    which each PR works out once."""
    return value.digest if isinstance(value, PullRequest) else repr(value)


def _stable(value: Any, reprs: dict[int, tuple[Any, str]] | None = None) -> str:
    """`value` as text for a key (settings by what can change a page); with `reprs`, a value
    shared by many pages (the settings, a PR) is made into text once."""
    if reprs is None or isinstance(value, (str, int, float, type(None), PullRequest)):
        return output_settings(value) if isinstance(value, Config) else stable_text(value)
    held = reprs.get(id(value))
    if held is None or held[0] is not value:  # its digest: a key's text stays small however
        text = _stable(value)                  # many pages a shared value (a PR) holds
        held = reprs[id(value)] = (value, hashlib.sha256(text.encode()).hexdigest())
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
        self.off: str | None = None  # why this build goes on without the cache
        shutil.rmtree(path.with_suffix(""), ignore_errors=True)  # files of site_gen < 0.3

    def _open(self) -> sqlite3.Connection:
        """The database; a cache that cannot be opened (a folder or a file where it should
        be, a lock another process holds) is no cache: the build goes on without it, and
        says so once, at once."""
        if self.off is not None:
            raise sqlite3.OperationalError(self.off)
        if self._db is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._db = self._connect()
            except (OSError, sqlite3.Error) as exc:
                self.off = str(exc.strerror if isinstance(exc, OSError) and exc.strerror else exc)
                log.info("the page cache %s cannot be used (%s); this build renders without it",
                         display_path(self.path), self.off)
                raise sqlite3.OperationalError(self.off) from None
        return self._db

    def _connect(self) -> sqlite3.Connection:
        try:
            return _connect(self.path)
        except sqlite3.OperationalError:
            raise  # locked, or cannot be opened at all: not ours to remove
        except sqlite3.DatabaseError:  # not a database (damaged, or not ours): start again
            if self.path.is_file() and not self.path.is_symlink():
                self.path.unlink()
            return _connect(self.path)

    def get(self, key: str) -> dict[str, Any] | None:
        """The data stored under `key`; None when there is none, or when the entry is not
        one this cache wrote for that key (a damaged or foreign row is never used)."""
        return self.get_many([key]).get(key)

    def get_many(self, keys: list[str], *, text: bool = True) -> dict[str, dict[str, Any]]:
        """The data stored under each of `keys` that has a sound entry (see get), asked
        for in a few queries rather than one per key. Without `text`, the long text is not
        read: the data holds its digest instead, under TEXT_DIGEST."""
        self.used.update(keys)
        found: dict[str, dict[str, Any]] = {}
        columns = "key, data, digest, text" if text else "key, data, digest, NULL"
        try:
            db = self._open()
            for start in range(0, len(keys), BATCH):
                batch = keys[start:start + BATCH]
                rows = db.execute(f"SELECT {columns} FROM pages WHERE key IN "
                                  f"({', '.join('?' * len(batch))})", batch).fetchall()
                for key, *row in rows:
                    data = _sound(key, *row, with_text=text)
                    if data is not None:
                        found[key] = data
        except sqlite3.Error:
            return {}
        return found

    def put(self, key: str, data: dict[str, Any]) -> None:
        """Keep `data` under `key` (written for good by close()). Its longest text (a page's
        HTML) is kept in a column of its own, read back without decoding JSON, and its
        digest in the data, so the data alone can say what the text is."""
        longest = max((k for k, v in data.items() if isinstance(v, str)),
                      key=lambda k: len(data[k]), default=None)
        text = data[longest] if longest is not None else ""
        rest = json.dumps({**{k: v for k, v in data.items() if k != longest}, LONG: longest,
                           TEXT_DIGEST: text_digest(text)}, sort_keys=True, ensure_ascii=False)
        with contextlib.suppress(sqlite3.Error):  # a cache that cannot be written is no cache
            self._open().execute("INSERT OR REPLACE INTO pages (key, data, digest, text) "
                                 "VALUES (?, ?, ?, ?)", (key, rest, _entry_digest(key, rest), text))

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
BATCH = 500  # keys asked for in one query (SQLite allows 999 parameters, or more)
TEXT_DIGEST = "\0text"  # in an entry's JSON: the digest of its text (as the site's files')


def _sound(key: str, data: object, digest: object, text: object, *,
           with_text: bool) -> dict[str, Any] | None:
    """The data of a row as it was put under `key` (with its text, or the text's digest);
    None for a damaged or foreign row."""
    if not isinstance(data, str) or digest != _entry_digest(key, data):
        return None
    try:
        value = json.loads(data)
    except ValueError:
        return None
    if not isinstance(value, dict) or LONG not in value or \
            not isinstance(value.get(TEXT_DIGEST), str):
        return None
    longest = value.pop(LONG)
    if not with_text:
        return value
    if not isinstance(text, str) or text_digest(text) != value.pop(TEXT_DIGEST):
        return None
    if isinstance(longest, str):
        value[longest] = text
    return value


LOCK_WAIT = 1.0  # seconds a build waits for another holding the cache, then goes on without
LAYOUT = 2  # the page cache's PRAGMA user_version: its table's columns, in their order


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=LOCK_WAIT)
    # A commit appends to the write-ahead log, and nothing waits for the disk (SQLite's
    # default, a rollback journal made, synced and deleted at every commit, made a body
    # edit in `serve` at 1,000 PRs take 40 to 530 ms instead of 32 to 53). A cache may
    # lose its last entries when the machine itself goes down: every row is bound to its
    # key by a digest, and a file that is no database is started again (see PageCache).
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    # The right to write, taken now for the whole build (committed by close()): with the
    # log, another build's readers never wait, so a cache another process writes is found
    # here, once (LOCK_WAIT), not at each page this build would keep.
    db.execute("BEGIN IMMEDIATE")
    if db.execute("PRAGMA user_version").fetchone()[0] != LAYOUT:
        db.execute("DROP TABLE IF EXISTS pages")  # an older site_gen's: a cache, made anew
        db.execute(f"PRAGMA user_version = {LAYOUT}")
    # The long text last: SQLite reads a row's columns in their order, through the pages a
    # long value overflows into, so a row's digest is read without reading its page's HTML
    # (as a cached page the shown site holds is: see get_many's `text`).
    db.execute("CREATE TABLE IF NOT EXISTS pages "
               "(key TEXT PRIMARY KEY, data TEXT, digest TEXT, text TEXT)")
    db.execute("SELECT key, data, digest, text FROM pages LIMIT 0")  # a table of another shape
    return db


def _entry_digest(key: str, data: str) -> str:
    """Binds an entry to its key: a row copied under another key, or edited, fails (the
    data holds the text's digest, so the text is bound too)."""
    return hashlib.sha256(f"{key}\n{len(data)}\n{data}".encode()).hexdigest()


class CodeStore:
    """What was learned from code at a full commit SHA (a file's definitions, a claim's
    matches), kept between builds in a SQLite file of its own beside the page cache: such
    code never changes, so an entry is good for as long as it is there. Each worker
    process opens it for itself; a store that cannot be used is none (the code is parsed)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._off = False

    def _open(self) -> sqlite3.Connection | None:
        if self._db is None and not self._off:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=LOCK_WAIT, isolation_level=None)
                db.execute("PRAGMA journal_mode=WAL")  # workers write while others read
                db.execute("PRAGMA synchronous=OFF")  # a cache: a lost entry is parsed again
                db.execute("CREATE TABLE IF NOT EXISTS code (key TEXT PRIMARY KEY, data TEXT)")
                self._db = db
            except (OSError, sqlite3.Error):
                self._off = True
        return self._db

    def get(self, key: str) -> Any:
        """The value kept under `key`, or None."""
        with contextlib.suppress(sqlite3.Error, ValueError):
            db = self._open()
            row = db.execute("SELECT data FROM code WHERE key = ?", (key,)).fetchone() if db else None
            return json.loads(row[0]) if row else None
        return None

    def put(self, key: str, value: Any) -> None:
        with contextlib.suppress(sqlite3.Error):
            db = self._open()
            if db is not None:
                db.execute("INSERT OR REPLACE INTO code VALUES (?, ?)", (key, json.dumps(value)))

    def trim(self, prefix: str, keep: int) -> None:
        """Keep only the `keep` newest entries whose key starts with `prefix` (code lexed
        for highlighting is kept by its text: each edit of a hunk adds one)."""
        within = (prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1))  # the keys' range
        with contextlib.suppress(sqlite3.Error):
            db = self._open()
            if db is None:
                return
            count = db.execute("SELECT count(*) FROM code WHERE key >= ? AND key < ?",
                               within).fetchone()[0]  # counted on the key's index: quick
            if count > keep:
                db.execute("DELETE FROM code WHERE rowid IN (SELECT rowid FROM code WHERE key "
                           ">= ? AND key < ? ORDER BY rowid DESC LIMIT -1 OFFSET ?)",
                           (*within, keep))

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


def code_store_path(config: Config) -> Path:
    """Where what was learned from pinned code is kept: beside the page cache."""
    return config.cache_dir / "code.sqlite"
