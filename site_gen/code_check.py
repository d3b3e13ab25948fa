"""Whether each pull request's pages can be checked against its code, and where that code
is read: a clone given for its repository (`--checkout OWNER/REPO=PATH`), a clone given for
every repository (`--checkout PATH`, `site_gen.checkout`), or the bare repository
`site-gen fetch` fills under `.cache/site-gen/repos/`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .code_host import fill
from .config import Config, git_dir
from .content import PullRequest, Site
from .errors import UNCHECKED, Problems
from .git_reader import SourceReader

if TYPE_CHECKING:
    from .cache import CodeStore as CodeKept
    from .drift import Drift

log = logging.getLogger(__name__)



@dataclass(frozen=True)
class CodeCheck:
    """Whether a PR's pages are checked against its code, at which commit, or why not."""

    checked: bool
    commit: str  # the full SHA of the head when checked, else the head as pr.yml pins it
    reason: str | None = None  # why the pages are not checked
    declared: bool = False  # pr.yml says the code cannot be had (a deleted fork, say)
    git_dir: Path | None = field(default=None, repr=False, compare=False)
    drift: Drift | None = None  # the PR has moved on since: its pages at the newer head


Kept = dict[str, tuple[PullRequest, CodeCheck, Problems]]


def check_code(config: Config, site: Site, problems: Problems, kept: Kept | None = None,
               code: Callable[[], CodeKept] | None = None) -> dict[str, CodeCheck]:
    """For every PR: can its pages be checked against its code? A PR that is not checked
    (and does not say why in pr.yml) is a warning, so `--strict` fails on it.

    `kept` (a warm build's) holds the last answers: a PR read again is checked again.
    `code` opens what builds before learned from code (see cache.CodeStore): a PR that
    moved on is measured at both heads (its claims counted at each), from there when it can."""
    readers: dict[Path, SourceReader] = {}
    checks = {}
    store = _Opened(code)
    try:
        _look_up_at_once(config, [pr for pr in site.prs if kept is None or pr.key not in kept
                                  or kept[pr.key][0] is not pr], readers)
        for pr in site.prs:
            held = kept.get(pr.key) if kept is not None else None
            if held is None or held[0] is not pr:
                own = Problems()
                held = (pr, _check(config, pr, readers, own, store), own)
                if kept is not None:
                    kept[pr.key] = held
            problems.extend(held[2].errors, held[2].warnings)
            checks[pr.key] = held[1]
        return checks
    finally:
        for reader in readers.values():
            reader.close()
        store.close()


class _Opened:
    """A store opened when first asked for (only a PR that moved on asks), closed after."""

    def __init__(self, open_it: Callable[[], CodeKept] | None) -> None:
        self._open_it = open_it
        self._store: CodeKept | None = None

    def __call__(self) -> CodeKept | None:
        if self._store is None and self._open_it is not None:
            self._store = self._open_it()
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()


def _look_up_at_once(config: Config, prs: list[PullRequest],
                     readers: dict[Path, SourceReader]) -> None:
    """Ask each repository's reader, at once, for every commit checking `prs` looks up
    (each PR's head, base and pull ref): a round trip to git each took 0.1 ms, 60 ms for
    300 PRs."""
    wanted: dict[Path, list[str]] = {}
    for pr in prs:
        where = None if pr.code_unavailable else git_dir(config, pr.repo)
        if where is not None:
            wanted.setdefault(where, []).extend(
                name for name in (pr.head, pr.base, _pull_ref(config, pr)) if name)
    for where, names in wanted.items():
        readers.setdefault(where, SourceReader(where)).commits(names)


ENDED = ("merged", "closed")  # PR states whose head no longer moves


def _pull_ref(config: Config, pr: PullRequest) -> str:
    return fill(config.code_host.pull_ref, number=pr.number)


def current_head(config: Config, reader: SourceReader, pr: PullRequest) -> str | None:
    """The PR's head at its source as `site-gen fetch` last saw it: its pull ref in the
    repository the code is read from (fetched there, or a local clone's own)."""
    return reader.commit(_pull_ref(config, pr))


def _drift(config: Config, reader: SourceReader, where: Path, pr: PullRequest,
           full: str, store: Callable[[], CodeKept | None]) -> Drift | None:
    """Where the PR's pages stand at its current head, when that is not the pinned one.

    A merged or closed PR's head no longer moves: pages that pin a commit on another
    history than it, made after it, pin what the PR was merged as (GitHub's squash, a
    rebase onto the base branch), which holds the PR's last commit, and are not behind
    it. One made before it is a head the PR left (rebased away before the merge, say)."""
    current = current_head(config, reader, pr)
    if current is None or current == full:
        return None
    from .drift import commits_between, made_after, measure, summary  # when a PR moved

    commits = commits_between(where, full, current)
    if commits is None and pr.state.key in ENDED and made_after(where, full, current):
        log.debug("%s#%d is %s: its pages pin %s, not on its head's history (%s): taken "
                  "as the commit it was merged as", pr.repo, pr.number, pr.state.key,
                  full[:7], current[:7])
        return None
    drift = measure(config, reader, where, pr, full, current, commits, store=store())
    log.info("%s#%d has moved on: written for %s, the PR is now at %s; %s", pr.repo,
             pr.number, full[:7], current[:7], summary(drift.counts(), drift.cited()))
    return drift


def _check(config: Config, pr: PullRequest, readers: dict[Path, SourceReader],
           problems: Problems, store: Callable[[], CodeKept | None]) -> CodeCheck:
    if pr.code_unavailable:
        return CodeCheck(False, pr.head, pr.code_unavailable, declared=True)
    where = git_dir(config, pr.repo)
    reason = f"the code of {pr.repo} was not available when this page was built"
    if where is not None:
        reader = readers.setdefault(where, SourceReader(where))
        missing = [(key, sha) for key, sha in (("head", pr.head), ("base", pr.base))
                   if sha and reader.commit(sha) is None]
        for key, sha in missing:
            ambiguous = reader.ambiguity(sha)
            if ambiguous:
                problems.error(f"'{key}' {sha} is ambiguous in the code of {pr.repo}: it "
                               f"{ambiguous}; write more digits", pr.path, pr.line_of(key))
                return CodeCheck(False, pr.head, f"'{key}' {sha} is ambiguous")
        if not missing:
            full = reader.commit(pr.head) or pr.head
            return CodeCheck(True, full, git_dir=where,
                             drift=_drift(config, reader, where, pr, full, store))
        key, sha = missing[0]
        reason = f"commit {sha} ({key}) of {pr.repo} was not available when this page was built"
    problems.warn(f"the pages of {pr.repo}#{pr.number} are not checked against the code: "
                  f"{reason}; run 'site-gen fetch' (or pass --checkout), or, to publish them "
                  "unchecked on purpose, say why in pr.yml (code_unavailable: ...)",
                  pr.path, pr.line_of("head"), kind=UNCHECKED)
    return CodeCheck(False, pr.head, reason)
