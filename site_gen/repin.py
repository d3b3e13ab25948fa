"""`site-gen repin OWNER/REPO#N --head SHA`: move every page of a PR to a newer head.

Each item a page cites is placed at the new head (drift.py); what moved is rewritten in
the markdown, what changed or is gone is reported at its line with both texts (a line
reference without a quote gets one of its old text, so the build stops at it until its
author reads it again), and pr.yml gets the new head, the old one kept in `history:`.
When the PR merged in, or was rebased onto, newer commits of its base branch, the base
moves to the newest of them, and the references pinned `@base` with it. Files are
replaced atomically; with `dry_run` nothing is written.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .cache import CodeStore, code_store_path
from .config import Config, fetched_dir, git_dir
from .content import PullRequest, Site
from .definitions import lines_text
from .drift import (
    MOVED,
    Drift,
    Placed,
    base_moved,
    changed_part,
    commits_between,
    measure,
    rewrite,
    summary,
)
from .errors import SiteGenError, display_path
from .fetch import fetch_commit, fetch_head, revisions_of
from .git_reader import SourceReader
from .names import REPO
from .new_pr import pinned

TARGET = re.compile(r"^(?P<repo>[^#\s]+)#(?P<number>\d{1,9})$")


@dataclass(frozen=True)
class BaseMove:
    """The PR's base, moved with the head: the PR merged in, or was rebased onto, newer
    commits of its base branch, so its own change starts from the newest (`drift.new`)."""

    drift: Drift  # the references pinned @base, from the old base to the new
    how: str  # in words


@dataclass
class Repinned:
    """What repinning one PR found and did."""

    pr: PullRequest
    old: str
    new: str
    drift: Drift
    written: list[Path] = field(default_factory=list)
    dry_run: bool = False
    base: BaseMove | None = None

    @property
    def failed(self) -> bool:
        return self.drift.broken or (self.base is not None and self.base.drift.broken)

    def lines(self) -> list[str]:
        """One line per item that is not the same, then the summary (and the base's)."""
        out = self._items(self.drift)
        out.append(f"{self.pr.repo}#{self.pr.number} {self.old[:7]} → {self.new[:7]}: "
                   + self._summary(self.drift))
        if self.base is not None:
            base = self.base
            out.extend(self._items(base.drift))
            out.append(f"{display_path(self.pr.path)}:{self.pr.line_of('base')}: base "
                       f"{base.drift.old[:7]} → {base.drift.new[:7]}: {base.how}, where the "
                       "PR's own change now starts; "
                       + self._summary(base.drift, " @base"))
        return out

    def _items(self, drift: Drift) -> list[str]:
        return [describe(page, p) + self._quoted(p) for page, placed in drift.placed.items()
                for p in placed if p.state != "same"]

    def _summary(self, drift: Drift, at: str = "") -> str:
        counts = drift.counts()
        rewritten = " (rewritten)" if counts[MOVED] and self.written else ""
        return summary(counts, drift.cited() + at).replace(f"{counts[MOVED]} moved",
                                             f"{counts[MOVED]} moved{rewritten}")

    def _quoted(self, p: Placed) -> str:
        """What a reference that keeps its numbers now quotes, so the build stops at it."""
        if p.quote is None or self.new == self.old:
            return ""
        if not p.quote:
            return ("\n    what it read is part of what its lines read now, so no quote would "
                    "stop the build: read it again")
        quoted = "would quote" if self.dry_run else "now quotes"
        if p.renumbered:
            assert p.start is not None and p.end is not None
            point, quote = ("would point", "quote") if self.dry_run else ("now points", "quotes")
            quoted = f"{point} at {lines_text(p.start, p.end)}, where they stand, and {quote}"
        return (f'\n    {quoted} its old text, "{p.quote}": the build stops at it until you '
                f"rewrite it for the new {p.item.at} (or drop the quote)")


def describe(page: Path, p: Placed) -> str:
    """One item that is not the same, at its page's line (with both texts when it changed
    or is gone)."""
    where = f"{display_path(page)}:{p.item.line}"
    if p.state == MOVED:
        return f"{where}: moved: {p.where} {p.detail}"
    said = f"{where}: {p.state}: {p.where}: {p.detail}"
    if p.old_text or p.new_text:
        old, new = p.old_text, p.new_text
        if old and new:  # the lines that differ, which a long text cut short could hide
            i1, i2, j1, j2 = changed_part(old, new)
            old, new = old[i1:i2], new[j1:j2]
        said += "\n    was: " + (" ⏎ ".join(t.strip() for t in old)[:200] or "(nothing)")
        said += "\n    now: " + (" ⏎ ".join(t.strip() for t in new)[:200] or "(nothing)")
    return said


def find_pr(site: Site, target: str) -> PullRequest:
    m = TARGET.match(target)
    if not m or not REPO.match(m["repo"]):
        raise SiteGenError(f"'{target}' is not a pull request; expected OWNER/REPO#NUMBER")
    for pr in site.prs:
        if pr.repo == m["repo"] and pr.number == int(m["number"]):
            return pr
    raise SiteGenError(f"there is no {target} in the content; expected a folder "
                       f"{m['repo']}/{m['number']} with a pr.yml")


def repin(config: Config, site: Site, target: str, head: str | None, *,
          dry_run: bool = False) -> Repinned:
    """Place every item of the PR `target` at `head` (default: its head at the source now,
    fetched) and, unless `dry_run`, rewrite its pages and pr.yml."""
    pr = find_pr(site, target)
    where = git_dir(config, pr.repo)
    if where is None or not where.is_dir():
        raise SiteGenError(f"the code of {pr.repo} is not here; run 'site-gen fetch' first "
                           "(or pass --checkout)", pr.path)
    new = _new_head(config, pr, where, head)
    reader = SourceReader(where)
    store = CodeStore(code_store_path(config))  # the counts the build at the new head reads
    try:
        old = reader.commit(pr.head)
        if old is None:
            raise SiteGenError(f"the pinned head {pr.head} of {pr.repo} is not here; run "
                               "'site-gen fetch' first", pr.path, pr.line_of("head"))
        full = reader.commit(new)
        if full is None:
            raise SiteGenError(f"commit {new} of {pr.repo} is not here and could not be "
                               "fetched; give a full SHA the source has")
        commits = commits_between(where, old, full)
        drift = measure(config, reader, where, pr, old, full, commits, store=store)
        drift.tree = reader.tree(full)  # what a path written on a page may name (rewrite)
        base = _base_move(config, reader, where, pr, old, full, commits is not None)
    finally:
        reader.close()
        store.close()
    done = Repinned(pr, old, full, drift, dry_run=dry_run, base=base)
    if not dry_run and full != old:
        _write(done)
    return done


def _base_move(config: Config, reader: SourceReader, where: Path, pr: PullRequest, old: str,
               new: str, descends: bool) -> BaseMove | None:
    """The base moved with the head, when the PR merged in or was rebased onto newer
    commits of its base branch (see drift.base_moved)."""
    base = reader.commit(pr.base) if pr.base else None
    moved = base_moved(where, base, old, new, descends) if base and new != old else None
    if base is None or moved is None:
        return None
    drift = measure(config, reader, where, pr, base, moved[0], None, at="base")
    drift.tree = reader.tree(moved[0])
    return BaseMove(drift, moved[1])


def _write(done: Repinned) -> None:
    """Rewrite the PR's pages and pr.yml: every new text made first, so that a pr.yml that
    cannot be rewritten leaves the pages as they were."""
    pr, drift = done.pr, done.drift
    facts = _new_pr_yml(pr.path.read_text(encoding="utf-8"), done.old, done.new, pr.head, drift)
    if done.base is not None:
        facts = _new_field(facts, "base", pr.base or "", done.base.drift.new)
    texts: dict[Path, str] = {}
    for page in pr.pages:
        placed = drift.placed.get(page.path, []) + \
            (done.base.drift.placed.get(page.path, []) if done.base else [])
        if any(p.state == MOVED or p.quote for p in placed):
            text = page.path.read_text(encoding="utf-8")
            new = rewrite(text, placed, drift)
            if new != text:  # a file moved, its paths kept as written: nothing to write
                texts[page.path] = new
    texts[pr.path] = facts  # the pages, then the head they now cite
    for path, text in texts.items():
        _replace(path, text)
        done.written.append(path)


def _new_head(config: Config, pr: PullRequest, where: Path, head: str | None) -> str:
    head = pinned("--head", head, revisions_of(config, pr.repo)) if head is not None else None
    fetched = where == fetched_dir(config, pr.repo)
    if head is None:
        found = fetch_head(config, pr) if fetched else _local_head(config, where, pr)
        if found is None:
            raise SiteGenError(f"cannot learn the current head of {pr.repo}#{pr.number} from "
                               "its source; give it with --head SHA")
        return found
    reader = SourceReader(where)
    try:
        present = reader.commit(head.lower()) is not None
    finally:
        reader.close()
    if not present and fetched:
        problem = fetch_commit(config, pr.repo, head.lower(), pr.number)
        if problem:
            raise SiteGenError(f"commit {head} of {pr.repo} could not be fetched: {problem}")
    return head.lower()


def _local_head(config: Config, where: Path, pr: PullRequest) -> str | None:
    from .code_check import current_head

    reader = SourceReader(where)
    try:
        return current_head(config, reader, pr)
    finally:
        reader.close()


def _new_pr_yml(text: str, old: str, new: str, written_head: str, drift: Drift) -> str:
    """pr.yml with `head:` at `new`, the old head added to `history:`, and the paths of
    renamed files in `files:` renamed (every file the diff renames, cited or not)."""
    text = _new_field(text, "head", written_head, new)
    entry = f"  - {old}\n"
    history = re.search(r"^history\s*:\s*\n((?:[ \t]+-.*\n?)*)", text, re.MULTILINE)
    if history:
        at = history.end(1)
        before = text[:at] if text[:at].endswith("\n") else text[:at] + "\n"
        text = before + entry + text[at:]
    else:
        text = text if text.endswith("\n") else text + "\n"
        text += "# The heads the pages were pinned to before, oldest first (site-gen repin).\n"
        text += "history:\n" + entry
    renamed = {**drift.renamed, **{p.item.file: p.file for ps in drift.placed.values()
                                   for p in ps if p.file and p.file != p.item.file}}
    for old_path, new_path in sorted(renamed.items()):
        entry_line = re.compile(rf"^(\s*-\s*['\"]?){re.escape(old_path)}(['\"]?[ \t]*(?:#.*)?)$",
                                re.MULTILINE)
        text = entry_line.sub(lambda m: f"{m[1]}{new_path}{m[2]}", text)  # noqa: B023
    return text


def _new_field(text: str, key: str, written: str, new: str) -> str:
    """pr.yml's `text` with field `key`, written `written`, set to `new`: as written, its
    quotes and a comment after it (`head: "2f6b955"   # the commit ...`, as `site-gen new`
    writes it) kept."""
    line = re.compile(rf"^({key}\s*:\s*)(['\"]?){re.escape(written)}\2([ \t]*(?:#.*)?)$",
                      re.MULTILINE | re.IGNORECASE)
    text, found = line.subn(lambda m: m[1] + m[2] + new + m[2] + m[3], text, count=1)
    if not found:
        raise SiteGenError(f"cannot find the '{key}:' line of pr.yml to rewrite; write it as "
                           f"'{key}: SHA' on a line of its own")
    return text


def _replace(path: Path, text: str) -> None:
    """Write `text` to `path` atomically: a reader sees the old file or the new, whole."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.chmod(tmp, path.stat().st_mode & 0o777)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
