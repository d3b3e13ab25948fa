"""Writing the site: only the files that changed, published by one atomic switch.

`site_dir` is a symbolic link to one of two copies of the site beside it, `.<site>.a` and
`.<site>.b`. A build brings the other copy (the standby) up to the new outputs, writing
only the files whose bytes differ from what that copy holds (each through a temporary
file and a rename; a file both copies hold alike is one hard-linked file), indexes it
for search, and then points `site_dir` at it by renaming a new link over the old one. A
reader, or a build killed at any moment, sees the old site or the new one.

site_gen's record of both copies sits beside them, `.<site>.site-gen`, never published.
It is also the journal: before a copy is touched, the names about to change in it are
recorded as pending, so after a build killed half-way the next one rewrites or removes
exactly those files and trusts the rest; a copy with pending names is never published.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import itertools
import json
import logging
import os
import re
import shutil
import stat
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .config import Config
from .errors import BuildFailed, ConfigError, SiteGenError
from .search import Indexing, plan

log = logging.getLogger("site_gen")


@dataclass(frozen=True)
class Kept:
    """An output the shown copy already holds byte for byte (a page kept in the page
    cache, of the same digest): written by linking that file, its text read only if asked."""

    digest: str
    searchable: bool  # whether the search index takes it (see search.plan)
    read: Callable[[], str]


def text_digest(text: str) -> str:
    """The digest of a text as written to the site (UTF-8): the site's manifests use it."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# relative path in the site: HTML text, a file to copy, or a file the shown copy holds
Outputs = dict[str, str | Path | Kept]
Writes = dict[str, str | Path | Kept | tuple[Path]]  # what to write at a name (apply_changes)
LEGACY_MARKER = ".site-gen"  # inside site_dir, as builds before 0.2 left it
COPIES = ("a", "b")
TMP = ".site-gen-tmp"  # a file being written in a copy: `<name>.site-gen-tmp`
# A name in the site: relative, '/'-separated, no empty, '.' or '..' segment, no control character.
SAFE_NAME = re.compile(r"^(?!/)(?!.*(?:^|/)\.{0,2}(?:/|$))[^\x00-\x1f\x7f\\]+$")


def place(site_dir: Path) -> Path:
    """`site_dir` as an absolute path, its last part not followed (it is our link)."""
    absolute = Path(os.path.abspath(site_dir))
    return absolute.parent.resolve() / absolute.name


def check_site_dir(config: Config) -> None:
    """Refuse a site_dir that site_gen must never replace."""
    site = place(config.site_dir)
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
    if os.path.lexists(site) and not _ours(site) and (
            site.is_symlink() or not site.is_dir() or any(site.iterdir())):
        raise BuildFailed([ConfigError(f"site_dir '{config.site_dir}' exists and was not made by "
                                       "site_gen; expected an empty or new folder (remove it, or "
                                       "choose another site_dir)", config.config_file)])


def marker_path(site_dir: Path) -> Path:
    """Where site_gen keeps its record of `site_dir`: beside it, never published."""
    return site_dir.parent / f".{site_dir.name}.site-gen"


def _copy_name(site_dir: Path, which: str) -> str:
    return f".{site_dir.name}.{which}"


def _ours(site: Path) -> bool:
    if site.is_symlink():  # ours only if it points at one of our copies
        return marker_path(site).is_file() and os.readlink(site) in {
            _copy_name(site, c) for c in COPIES}
    return marker_path(site).is_file() or (site / LEGACY_MARKER).is_file()


@contextlib.contextmanager
def site_lock(site_dir: Path) -> Iterator[None]:
    """Hold the site folder for one build: a second build into it waits for the first."""
    site_dir = place(site_dir)
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    path = site_dir.parent / f".{site_dir.name}.lock"
    try:  # never through a link: it would create or lock a file elsewhere
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        why = "it is a symbolic link" if path.is_symlink() else exc.strerror or str(exc)
        raise SiteGenError(f"cannot take the lock file {path}: {why}; remove it (site_gen "
                           "makes it again)") from None
    with open(fd, "a+b") as handle:
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
               extra: dict[str, Any] | None = None,
               groups: Mapping[str, str] | None = None) -> bool:
    """Make `site_dir` show exactly `outputs` (plus the search index); False if it already did.

    Only the files that differ from the standby copy are written; then `site_dir` is
    switched to it in one atomic rename. The previous site stays whole until then.
    """
    check_names(outputs)
    site_dir = place(site_dir)
    try:
        return _write(site_dir, outputs, search, extra or {}, groups or {})
    except OSError as exc:  # a read-only or full disk: the old site is still whole
        where = exc.filename or site_dir
        raise SiteGenError(f"cannot write the site: {exc.strerror or exc} ({where}); the site "
                           f"in {site_dir} was not changed") from None


def check_names(outputs: Mapping[str, object]) -> None:
    """Every output stays inside the site folder (a last guard: render_site has already
    refused names that are both a file and a folder, naming the author's file)."""
    for name in sorted(outputs):
        if not SAFE_NAME.match(name):
            raise SiteGenError(f"refusing to write {name!r}: it is not a plain path inside the "
                               "site folder")


def _digest(content: str | Path | Kept) -> str:
    if isinstance(content, Kept):
        return content.digest
    if isinstance(content, Path):
        return hashlib.sha256(content.read_bytes()).hexdigest()
    return text_digest(content)


def _write(site_dir: Path, outputs: Outputs, search: bool, extra: dict[str, Any],
           groups: Mapping[str, str]) -> bool:
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    record = _load(site_dir)
    _recover(site_dir, record)
    manifest = {name: _digest(content) for name, content in sorted(outputs.items())}
    current = _current(site_dir, record)
    shown = record["copies"].get(current, {}) if current else {}
    if shown.get("files") == manifest and shown.get("search") == search:
        if {k: shown.get(k) for k in extra} != extra:
            record["copies"][current] = {**shown, **extra}
            _save(site_dir, record)
        return False
    standby = _copy_name(site_dir, "b" if current == _copy_name(site_dir, "a") else "a")
    held = (record["copies"].get(standby) or {}).get("parts") or {}
    folder, writes, deletes = _prepare(site_dir, record, standby, manifest, outputs)
    planned = plan(outputs, manifest, groups) if search else {}
    shown_parts = (site_dir.parent / current, shown.get("parts") or {}) if current else None
    with Indexing(folder, planned, held, shown_parts) as index:
        _fill(folder, writes, deletes, index)
        parts = index.finish()
    record["copies"][standby] = {"inode": folder.stat().st_ino, "files": manifest,
                                 "search": search, "parts": parts, **extra}
    record["shown"] = standby
    _save(site_dir, record)
    _switch(site_dir, standby)
    return True


def _prepare(site_dir: Path, record: dict[str, Any], standby: str, manifest: dict[str, str],
             outputs: Outputs) -> tuple[Path, Writes, list[str]]:
    """Journal the names of the standby copy that change to bring it to `outputs` (until
    they are written, they are not to be trusted), and say how: the copy, what to write
    in each of those names (see apply_changes), what to delete (see _fill)."""
    folder = site_dir.parent / standby
    held = record["copies"].get(standby)
    if not held or not folder.is_dir() or folder.is_symlink() or \
            held.get("inode") != folder.stat().st_ino:
        _remove(folder)  # unknown: start it again
        folder.mkdir()
        held = {"files": {}, "pending": []}
    known = dict(held.get("files") or {})
    pending = set(held.get("pending") or ())
    for name in pending:
        known.pop(name, None)
    writes = sorted(n for n in manifest if known.get(n) != manifest[n])
    deletes = sorted((set(known) | pending) - set(manifest))
    touched = set(writes) | set(deletes) | pending
    record["copies"][standby] = {
        "inode": folder.stat().st_ino, "pending": sorted(touched),
        "files": {n: d for n, d in known.items() if n not in touched}}
    _save(site_dir, record)  # the journal: these names are not to be trusted until done
    shown = site_dir.parent / _copy_name(site_dir, "a" if standby.endswith(".b") else "b")
    same = (record["copies"].get(shown.name) or {}).get("files") or {}
    sources: Writes = {}
    for name in writes:  # a file the shown copy holds alike is linked, not written again
        sources[name] = (shown / name,) if same.get(name) == manifest[name] else outputs[name]
    return folder, sources, deletes


def _fill(folder: Path, writes: Writes, deletes: list[str], index: Indexing) -> None:
    """Make the journaled changes to the standby copy `folder` (see _prepare): first the
    pages of each part of the search index to make again, each part indexed as soon as
    its pages are written (`index`), then the rest of the site."""
    rest = dict(writes)
    for part, pages in index.todo.items():
        apply_changes(folder, {n: rest.pop(n) for n in pages if n in rest}, deletes,
                      unseen=True)
        deletes = []
        index.ready(part)
    apply_changes(folder, rest, deletes, unseen=True)


def apply_changes(folder: Path, writes: Mapping[str, str | Path | Kept | tuple[Path]],
                  deletes: Iterable[str], *, unseen: bool = False) -> None:
    """Write and delete files of `folder` in place, each write atomic (a temporary file,
    then a rename): text, a file to copy, or (a 1-tuple) a file to hard-link.

    `unseen`: nothing reads `folder` while it changes (the copy of the site not shown,
    whose journal lists the names being written), so a file that is not there yet is
    made at its own name (one new directory entry instead of two), and many files may be
    written by WRITERS threads at once (see _write_many)."""
    inside = Inside(folder)
    for name in deletes:
        target = inside(name)
        with contextlib.suppress(FileNotFoundError):
            target.with_name(target.name + TMP).unlink()
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        else:
            target.unlink(missing_ok=True)
        _prune(folder, target.parent)
    made: set[Path] = set()  # folders known to exist: made once, not asked again per file
    here: list[tuple[Path, str | Path | Kept | tuple[Path]]] = []
    pooled: list[tuple[Path, str | Path | Kept | tuple[Path]]] = []
    for name, content in writes.items():  # a Kept is read here: its cache is this thread's
        (pooled if unseen and not isinstance(content, Kept) else here).append(
            (inside(name), content))
    if len(pooled) <= BATCH:  # no more than one batch: never handed to the threads
        here, pooled = here + pooled, []
    for target, content in here:
        _put(folder, target, content, unseen, made)
    if pooled:
        for parent in sorted({target.parent for target, _ in pooled}):
            _make_folder(folder, parent, made)  # here, not raced for by the writers
        _write_many(folder, pooled, made)


WRITERS = 4
BATCH = 64  # files written on the build's thread between two looks at how long they took
SLOW_FILE = 120e-6  # seconds: a batch slower than this a file hands the rest to WRITERS


def _write_many(folder: Path, pooled: list[tuple[Path, str | Path | Kept | tuple[Path]]],
                made: set[Path]) -> None:
    """Write many files of a copy nobody is shown, their folders made: on this thread, a
    BATCH at a time, while the file system keeps up; the rest on WRITERS threads as soon as
    a batch took more than SLOW_FILE a file.

    Made in new folders, on a file system that deleted nothing lately (a build from a fresh
    clone), a file takes 45-75 µs, mostly Python's: four threads taking turns at the
    interpreter took twice as long (a 1,000-PR site's 3,009 files: 138 ms on one thread,
    245 ms on four). Replacing files, or making them right after many were deleted (see
    `scripts/bench churn`), a file takes 130-450 µs, mostly the kernel's, which threads
    do several at once: four took 0.85-1.0 of one thread's time."""
    start = 0
    while start < len(pooled):
        batch = pooled[start:start + BATCH]
        began = time.perf_counter()
        for target, content in batch:
            _put(folder, target, content, True, made)
        start += len(batch)
        if time.perf_counter() - began > SLOW_FILE * len(batch):
            break
    if start == len(pooled):
        return
    # Imported here: a build that writes a few files (an edit) needs no threads.
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(WRITERS) as pool:
        done = [pool.submit(_put, folder, target, content, True, made)
                for target, content in pooled[start:]]
        try:
            for job in done:
                job.result()
        except BaseException:
            pool.shutdown(cancel_futures=True)
            raise


def _put(folder: Path, target: Path, content: str | Path | Kept | tuple[Path], unseen: bool,
         made: set[Path]) -> None:
    """Write one file of `folder` (see apply_changes); `made`: the folders known to exist."""
    _make_folder(folder, target.parent, made)
    if unseen and not isinstance(content, Path) and _made_new(target, content):
        return
    tmp = target.with_name(target.name + TMP)
    tmp.unlink(missing_ok=True)  # a leftover at this name, a link too, is replaced, not used
    if isinstance(content, tuple):
        try:
            os.link(content[0], tmp)
        except OSError:
            shutil.copyfile(content[0], tmp)
    elif isinstance(content, Path):
        shutil.copyfile(content, tmp)
    else:
        _write_new(tmp, content)
    try:
        os.replace(tmp, target)
    except IsADirectoryError:  # a folder of files (now deleted) that becomes a file
        if target.is_symlink():
            raise
        shutil.rmtree(target)
        os.replace(tmp, target)
    if isinstance(content, tuple):
        tmp.unlink(missing_ok=True)  # a rename onto a hard link of itself leaves both


def _make_folder(folder: Path, path: Path, made: set[Path]) -> None:
    """Make the folder `path` of `folder` and those above it, unless `made` knows they are
    there (it then does). The writer threads find every folder made already: when they
    made them, several at once, a site of 1,000 PRs took 5,200 mkdir calls (3,200 failing)
    where 2,000 make it."""
    if path not in made:
        path.mkdir(parents=True, exist_ok=True)
        made.update(itertools.takewhile(lambda p: p != folder, [path, *path.parents]))


def _made_new(target: Path, content: str | Kept | tuple[Path]) -> bool:
    """Make `target` at its own name when nothing is there (False when something is: a file,
    a folder or a link, which only a rename may replace)."""
    try:
        if isinstance(content, tuple):
            os.link(content[0], target)
            return True
        _write_new(target, content)
    except FileExistsError:
        return False
    except OSError:
        if isinstance(content, tuple):  # no hard link here: copied the usual way
            return False
        raise
    return True


def _write_new(path: Path, content: str | Kept) -> None:
    """Make the file `path` holding `content` as UTF-8; FileExistsError when anything is
    at that name (a link too: it is never written through). The bytes go straight to the
    file: no text layer, whose set-up makes four more system calls per file (an fstat,
    isatty's ioctl, two seeks)."""
    data = (content.read() if isinstance(content, Kept) else content).encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


class Inside:
    """Names of the site as paths in `folder`, each refused unless it is a plain name whose
    folders, links resolved, lie inside `folder` (a link in a copy never leads a write or
    a removal out of it). Each folder is looked at once, below the folders known sound: a
    link is resolved in full, a folder that is none is sound when the one holding it is."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.root = folder, folder.resolve()
        self.sound: set[Path] = {folder}

    def __call__(self, name: str) -> Path:
        target = self.folder / name
        if not SAFE_NAME.match(name):
            raise SiteGenError(f"refusing to write or remove {name!r}: it is not a plain name "
                               "inside the site")
        if not self._inside(target.parent):
            raise SiteGenError(f"refusing to write or remove {name!r}: a link takes it out "
                               f"of {self.folder}")
        return target

    def _inside(self, path: Path) -> bool:
        """Whether the folder `path` of the copy (there or not yet made) lies inside it, its
        links resolved; each folder is asked about once (an lstat), not each of its parents."""
        if path in self.sound:
            return True
        if path.parent == path or not self._inside(path.parent):
            return False
        try:
            link = stat.S_ISLNK(os.lstat(path).st_mode)
        except FileNotFoundError:  # made later, as a folder, by this copy's writer
            link = False
        except OSError:  # a file where a folder should be, say: as resolving sees it
            link = True
        if link and not path.resolve().is_relative_to(self.root):
            return False
        self.sound.add(path)
        return True


def _prune(folder: Path, parent: Path) -> None:
    """Remove folders left empty by deletions, up to `folder` (compared resolved)."""
    folder, parent = folder.resolve(), parent.resolve()
    while parent != folder and parent.is_relative_to(folder):
        try:
            parent.rmdir()
        except OSError:
            return
        parent = parent.parent


def _remove(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.exists():
        shutil.rmtree(path)


def read_marker(site_dir: Path) -> dict[str, Any]:
    """What the build that made the copy `site_dir` shows recorded ({} if nothing is known
    of it, or the record does not describe the folder now there)."""
    site_dir = place(site_dir)
    record = _load(site_dir)
    current = _current(site_dir, record)
    return dict(record["copies"][current]) if current else {}


def _current(site_dir: Path, record: dict[str, Any]) -> str | None:
    """The copy `site_dir` shows, when the record knows it whole."""
    try:
        name = os.readlink(site_dir)
        inode = site_dir.stat().st_ino
    except OSError:
        return None
    held = record["copies"].get(name)
    if not held or held.get("pending") or held.get("inode") != inode or "search" not in held:
        return None
    return name


def _load(site_dir: Path) -> dict[str, Any]:
    """The record, as far as it can be trusted: a copy it describes with a name that is not
    one of the two copies, or a file or pending name that is not a plain name inside the
    site, is forgotten (that copy is then started again), whoever wrote the record."""
    try:
        data = json.loads(marker_path(site_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("copies"), dict):
        return {"generator": "site_gen", "copies": {}}  # none, or a record of before 0.3
    names = {_copy_name(site_dir, c) for c in COPIES}
    data["copies"] = {name: held for name, held in data["copies"].items()
                      if name in names and _sound(held)}
    if data.get("shown") not in data["copies"]:
        data.pop("shown", None)
    return data


def _sound(held: Any) -> bool:
    """Whether a copy's entry in the record names only plain files of the site."""
    if not isinstance(held, dict):
        return False
    files, pending = held.get("files") or {}, held.get("pending") or []
    return (isinstance(files, dict) and isinstance(pending, list)
            and all(isinstance(n, str) and SAFE_NAME.match(n) and isinstance(d, str)
                    for n, d in files.items())
            and all(isinstance(n, str) and SAFE_NAME.match(n) for n in pending))


def _save(site_dir: Path, record: dict[str, Any]) -> None:
    path = marker_path(site_dir)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(record, sort_keys=True), encoding="utf-8")  # C encoder: no indent
    tmp.replace(path)


def _switch(site_dir: Path, copy: str) -> None:
    """Point `site_dir` at `copy` atomically (a folder left by an older site_gen is
    exchanged with the link, then removed)."""
    link = site_dir.with_name(f".{site_dir.name}.link-{os.getpid()}")
    link.unlink(missing_ok=True)
    os.symlink(copy, link)
    if site_dir.is_dir() and not site_dir.is_symlink():
        _exchange(link, site_dir)
        shutil.rmtree(link)
    else:
        os.replace(link, site_dir)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> None:
    """Swap two names atomically (Linux renameat2); elsewhere, two renames."""
    import ctypes  # only for a site folder of an older site_gen, once

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


def _recover(site_dir: Path, record: dict[str, Any]) -> None:
    """Clean up after a build that was killed: restore a site set aside or a link removed,
    drop what older versions of site_gen left half-built."""
    parent = site_dir.parent
    aside = site_dir.with_name(site_dir.name + ".old")
    if aside.exists() and not os.path.lexists(site_dir):
        aside.rename(site_dir)
    if not os.path.lexists(site_dir):  # a link removed by hand: show the last whole copy
        shown = str(record.get("shown"))
        held = record["copies"].get(shown) or {}
        folder = parent / shown
        if held and not held.get("pending") and folder.is_dir() and \
                folder.stat().st_ino == held.get("inode"):
            os.symlink(shown, site_dir)
    for pattern in (f".{site_dir.name}.new-*", f".{site_dir.name}.link-*",
                    f".{site_dir.name}.site-gen.*.tmp"):
        for leftover in parent.glob(pattern):
            pid = leftover.name.removesuffix(".tmp").rsplit(".", 1)[-1].rsplit("-", 1)[-1]
            if not pid.isdigit() or not _alive(int(pid)):
                _remove(leftover)


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
