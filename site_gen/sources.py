"""Where each repository's code comes from, fetching exactly the commits the pages pin, and
whether each pull request's pages could be checked against its code.

The code of a repository is read from, in this order: a clone given for it (`--checkout
OWNER/REPO=PATH`), a clone given for every repository (`--checkout PATH`,
`site_gen.checkout`), or the bare repository `site-gen fetch` fills under
`.cache/site-gen/repos/`.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .config import Config, fill
from .content import PullRequest, Site
from .errors import ContentError, Problems, display_path
from .source import SHA, SourceReader

UNCHECKED = "unchecked"  # the kind of the warning that a PR's pages are not checked
FETCH_DEPTH = 200  # how far back a PR's head ref is fetched to find an abbreviated SHA
PIN = re.compile(r"\[\[[^\[\]]*?@([0-9a-fA-F]{7,40})(?![0-9a-fA-F])")


@dataclass(frozen=True)
class CodeCheck:
    """Whether a PR's pages are checked against its code, at which commit, or why not."""

    checked: bool
    commit: str  # the full SHA of the head when checked, else the head as pr.yml pins it
    reason: str | None = None  # why the pages are not checked
    declared: bool = False  # pr.yml says the code cannot be had (a deleted fork, say)
    git_dir: Path | None = field(default=None, repr=False, compare=False)


def fetched_dir(config: Config, repo: str) -> Path:
    """The bare repository `site-gen fetch` keeps `repo`'s pinned commits in."""
    return config.cache_dir / "repos" / f"{repo}.git"


def git_dir(config: Config, repo: str) -> Path | None:
    """Where the code of `repo` is read, if it is anywhere."""
    if repo in config.checkouts:
        return config.checkouts[repo]
    if config.checkout is not None:
        return config.checkout
    fetched = fetched_dir(config, repo)
    return fetched if fetched.is_dir() else None


Kept = dict[str, tuple[PullRequest, CodeCheck, Problems]]


def check_code(config: Config, site: Site, problems: Problems,
               kept: Kept | None = None) -> dict[str, CodeCheck]:
    """For every PR: can its pages be checked against its code? A PR that is not checked
    (and does not say why in pr.yml) is a warning, so `--strict` fails on it.

    `kept` (a warm build's) holds the last answers: a PR read again is checked again."""
    readers: dict[Path, SourceReader] = {}
    checks = {}
    try:
        for pr in site.prs:
            held = kept.get(pr.key) if kept is not None else None
            if held is None or held[0] is not pr:
                own = Problems()
                held = (pr, _check(config, pr, readers, own), own)
                if kept is not None:
                    kept[pr.key] = held
            problems.extend(held[2].errors, held[2].warnings)
            checks[pr.key] = held[1]
        return checks
    finally:
        for reader in readers.values():
            reader.close()


def _check(config: Config, pr: PullRequest, readers: dict[Path, SourceReader],
           problems: Problems) -> CodeCheck:
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
            return CodeCheck(True, reader.commit(pr.head) or pr.head, git_dir=where)
        key, sha = missing[0]
        reason = f"commit {sha} ({key}) of {pr.repo} was not available when this page was built"
    problems.warn(f"the pages of {pr.repo}#{pr.number} are not checked against the code: "
                  f"{reason}; run 'site-gen fetch' (or pass --checkout), or, to publish them "
                  "unchecked on purpose, say why in pr.yml (code_unavailable: ...)",
                  pr.path, pr.line_of("head"), kind=UNCHECKED)
    return CodeCheck(False, pr.head, reason)


@dataclass(frozen=True)
class Pin:
    """A commit the content pins, and where: pr.yml's head or base, or a page's `@sha`."""

    sha: str
    number: int
    path: Path
    line: int | None


def pins(site: Site) -> dict[str, list[Pin]]:
    """Every pinned commit by repository, each once, in the order the content names them."""
    found: dict[str, dict[str, Pin]] = {}
    for pr in site.prs:
        seen = found.setdefault(pr.repo, {})
        for pin in _pins_of(pr):
            seen.setdefault(pin.sha, pin)
    return {repo: list(by_sha.values()) for repo, by_sha in sorted(found.items())}


def _pins_of(pr: PullRequest) -> Iterator[Pin]:
    for key in ("head", "base"):
        sha = getattr(pr, key)
        if sha and not pr.code_unavailable:
            yield Pin(sha, pr.number, pr.path, pr.line_of(key))
    for page in pr.pages if not pr.code_unavailable else ():
        for m in PIN.finditer(page.body):
            line = page.body_line + page.body.count("\n", 0, m.start())
            yield Pin(m[1].lower(), pr.number, page.path, line)


@dataclass
class FetchReport:
    """What `site-gen fetch` did for one repository."""

    repo: str
    source: str
    present: int = 0
    fetched: list[str] = field(default_factory=list)
    failed: list[ContentError] = field(default_factory=list)
    skipped: str | None = None  # why nothing was fetched (a clone is given for it)


Progress = Callable[[str, int, int], None]


def fetch(config: Config, site: Site, progress: Progress | None = None) -> list[FetchReport]:
    """Bring exactly the commits the content pins into a bare repository per source, each
    shallow (only that commit's files): all missing ones in one fetch, one by one when that
    fails; what is already there is not fetched again."""
    return [_fetch_repo(config, repo, repo_pins, progress)
            for repo, repo_pins in pins(site).items()]


def _fetch_repo(config: Config, repo: str, repo_pins: list[Pin],
                progress: Progress | None) -> FetchReport:
    source = config.sources.get(repo) or fill(config.code_host.clone, repo=repo)
    report = FetchReport(repo, source)
    if repo in config.checkouts or config.checkout is not None:
        report.skipped = f"reads the clone {git_dir(config, repo)}"
        return report
    target = fetched_dir(config, repo)
    if not target.is_dir():
        target.parent.mkdir(parents=True, exist_ok=True)
        _git(["init", "--bare", "--quiet", str(target)])
    missing = _missing(target, repo_pins)
    report.present = len(repo_pins) - len(missing)
    errors: dict[str, str] = {}
    full = [pin.sha for pin in missing if len(pin.sha) == 40]
    if full and _fetch(target, source, full, 1):  # one negotiation for all; if it fails,
        for done, sha in enumerate(full, 1):      # one fetch each, to learn which failed
            if progress:
                progress(repo, done, len(full))
            errors[sha] = _fetch(target, source, [sha], 1)
    short = [pin for pin in _missing(target, missing) if len(pin.sha) < 40]
    for number in sorted({pin.number for pin in short}):
        ref = fill(config.code_host.pull_ref, number=number)
        problem = _fetch(target, source, [ref], FETCH_DEPTH)
        for pin in short:
            errors[pin.sha] = problem or (
                f"an abbreviated SHA cannot be fetched by itself, and it is not among the last "
                f"{FETCH_DEPTH} commits of {ref}; write the full 40-digit SHA")
    still = {pin.sha for pin in _missing(target, missing)}
    report.fetched = [pin.sha for pin in missing if pin.sha not in still]
    report.failed = [ContentError(f"commit {pin.sha} of {repo} could not be fetched from "
                                  f"{source}: {errors.get(pin.sha) or 'not found there'}",
                                  pin.path, pin.line) for pin in missing if pin.sha in still]
    return report


def _missing(target: Path, repo_pins: list[Pin]) -> list[Pin]:
    reader = SourceReader(target)  # a fresh one: git's answers are remembered per reader
    try:
        return [pin for pin in repo_pins if SHA.match(pin.sha) and reader.commit(pin.sha) is None]
    finally:
        reader.close()


def _fetch(target: Path, source: str, what: list[str], depth: int) -> str:
    """Fetch `what` (full SHAs, or a ref) from `source`; '' or git's reason for failing."""
    done = _git(["-C", str(target), "-c", "protocol.version=2", "fetch", "--quiet", "--no-tags",
                 f"--depth={depth}", "--", source, *what])
    if done.returncode == 0:
        return ""
    lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
    # git's own verdict ('fatal: ...', 'error: ...') says why; the advice after it does not
    said = [line.split(": ", 1)[1] for line in lines if line.startswith(("fatal: ", "error: "))]
    return (said[0] if said else lines[-1] if lines else
            f"git fetch exited with {done.returncode}")


def _git(args: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}  # never wait for a password
    return subprocess.run(["git", *args], capture_output=True, text=True, check=False, env=env)


def describe_report(report: FetchReport) -> str:
    """One line for one repository: what was fetched, from where."""
    if report.skipped:
        return f"{report.repo}: nothing to fetch; it {report.skipped}"
    where = report.source if "://" in report.source else display_path(Path(report.source))
    return (f"{report.repo}: fetched {len(report.fetched)} commit(s) from {where}; "
            f"{report.present} already here, {len(report.failed)} not found")
