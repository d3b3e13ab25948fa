"""`site-gen fetch`: exactly the commits the pages pin, from where each repository's code
comes (`site_gen.sources`, else the code host's clone address), into a bare repository per
repository under `.cache/site-gen/repos/`.
"""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .code_host import fill
from .config import Config, fetched_dir, git_dir
from .content import PullRequest, Site
from .errors import ContentError, display_path
from .git_reader import SourceReader
from .names import SHA, layout, path_written, references, unread
from .submodules import holding

FETCH_DEPTH = 200  # how far back a PR's head ref is fetched to find an abbreviated SHA
PINNED = re.compile(r"@[0-9a-fA-F]{7}")  # what a reference pinned to a commit holds
CLAIM_AT = re.compile(r"^at\s*:\s*([0-9a-fA-F]{7,40})$")  # a claim counted at a SHA
AT = re.compile(r"\bat\s*:")  # what a page with such a claim holds


@dataclass(frozen=True)
class Pin:
    """A commit the content pins, and where: pr.yml's head or base, or a page's `@sha`."""

    sha: str
    number: int
    path: Path
    line: int | None


def pins(site: Site, html: bool = False) -> dict[str, list[Pin]]:
    """Every pinned commit by repository, each once, in the order the content names them
    (`html`: the site's `raw_html`, see names.layout)."""
    found: dict[str, dict[str, Pin]] = {}
    for pr in site.prs:
        seen = found.setdefault(pr.repo, {})
        for pin in _pins_of(pr, html):
            seen.setdefault(pin.sha, pin)
    return {repo: list(by_sha.values()) for repo, by_sha in sorted(found.items())}


def _pins_of(pr: PullRequest, html: bool) -> Iterator[Pin]:
    for key in ("head", "base"):
        sha = getattr(pr, key)
        if sha and not pr.code_unavailable:
            yield Pin(sha, pr.number, pr.path, pr.line_of(key))
    for page in pr.pages if not pr.code_unavailable else ():
        for line, sha in _commits_cited(page.body, html):
            yield Pin(sha, pr.number, page.path, page.body_line + line)


def _commits_cited(body: str, html: bool = False) -> Iterator[tuple[int, str]]:
    """Each commit `body` pins, with its line in `body` (0-based): a reference's `@sha`,
    and a claim block's `at: SHA`; as the build reads them, not what code holds (an
    ordinary fenced or indented block, a code span), which reads the same but is no
    reference (`names.unread`)."""
    pinned = PINNED.search(body)
    if not pinned and not AT.search(body):
        return  # no '@sha', no claim 'at:' anywhere: nothing to read the page for (1-2 ms a page)
    shape = layout(body, html)
    lines = body.split("\n")
    for fence in shape.fences:
        for number, _, text in fence.held(lines) if fence.info == "claim" else ():
            if at := CLAIM_AT.match(text.strip()):
                yield number, at[1].lower()
    if not pinned:
        return
    from .blocks.refs import REF  # the reference's grammar: only for a fetch

    kept = unread(body, shape)
    for start, _, inner in references(kept):  # over lines too, as prose wraps
        ref = REF.match(inner)  # its commit, not an '@' its quote or label holds
        if ref and ref["commit"] and SHA.match(ref["commit"].lower()):
            yield kept.count("\n", 0, start), ref["commit"].lower()


@dataclass
class FetchReport:
    """What `site-gen fetch` did for one repository."""

    repo: str
    source: str
    present: int = 0
    fetched: list[str] = field(default_factory=list)
    failed: list[ContentError] = field(default_factory=list)
    skipped: str | None = None  # why nothing was fetched (a clone is given for it)
    heads: dict[int, str] = field(default_factory=dict)  # each PR's head at the source now


Progress = Callable[[str, int, int], None]


def fetch(config: Config, site: Site, progress: Progress | None = None) -> list[FetchReport]:
    """Bring exactly the commits the content pins into a bare repository per source, each
    shallow (only that commit's files): all missing ones in one fetch, one by one when that
    fails; what is already there is not fetched again."""
    numbers: dict[str, list[PullRequest]] = {}
    for pr in site.prs:
        if not pr.code_unavailable:
            numbers.setdefault(pr.repo, []).append(pr)
    reports: dict[str, FetchReport] = {}
    for repo, repo_pins in pins(site, config.raw_html).items():
        report = _fetch_repo(config, repo, repo_pins, progress)
        if not report.skipped:
            report.heads = fetch_heads(config, repo, numbers.get(repo, []))
        reports[repo] = report
    # then the submodules the pages cite, which the PRs' own commits (now here) name
    for repo, repo_pins in submodule_pins(config, site).items():
        report = _fetch_repo(config, repo, repo_pins, progress)
        if repo in reports:
            report = dataclasses.replace(
                reports[repo], present=reports[repo].present + report.present,
                fetched=reports[repo].fetched + report.fetched,
                failed=reports[repo].failed + report.failed)
        reports[repo] = report
    return list(reports.values())


def submodule_pins(config: Config, site: Site) -> dict[str, list[Pin]]:
    """The commits of the submodules the pages cite a file of (`[[vendor/lib/x.c:3]]`), by
    their repository: each commit once, where it is first cited. A submodule's commit is
    what the PR's commit pins it at, so this reads the PRs' own commits (fetched first,
    with each PR's current head)."""
    from .blocks.refs import REF  # the reference's grammar: only for a fetch

    found: dict[str, dict[str, Pin]] = {}
    readers: dict[Path, SourceReader] = {}
    try:
        for pr in site.prs:
            where = None if pr.code_unavailable else git_dir(config, pr.repo)
            if where is None:
                continue
            reader = readers.setdefault(where, SourceReader(where))
            # besides each reference's own commit: the base's (for the PR's own change) and
            # the PR's current head's (for the drift notice and repin)
            also = [reader.commit(pr.base) if pr.base else None,
                    reader.commit(fill(config.code_host.pull_ref, number=pr.number))]
            for page in pr.pages:
                kept: str | None = None  # the page as the build reads it: once one is met
                for start, _, inner in references(page.body):
                    ref = REF.match(inner)
                    if ref is None:
                        continue
                    pinned = {None: pr.head, "base": pr.base}.get(ref["commit"], ref["commit"])
                    full = reader.commit(pinned) if pinned else None
                    for at in [full, *also] if full else []:
                        sub = at and holding(reader, at, path_written(ref["path"]),
                                                config.code_host, pr.repo)
                        if sub and sub.repo and sub.commit not in found.get(sub.repo, {}):
                            kept = kept or unread(page.body, layout(page.body, config.raw_html))
                            if not kept.startswith("[[", start):
                                break  # in code: no reference, as the build reads it
                            line = page.body_line + page.body.count("\n", 0, start)
                            found.setdefault(sub.repo, {})[sub.commit] = Pin(
                                sub.commit, pr.number, page.path, line)
    finally:
        for reader in readers.values():
            reader.close()
    return {repo: list(by_sha.values()) for repo, by_sha in sorted(found.items())}


def source_of(config: Config, repo: str) -> str:
    """Where `repo` is fetched from: its `site_gen.sources` entry, else the code host's."""
    return config.sources.get(repo) or fill(config.code_host.clone, repo=repo)


def _bare(target: Path) -> Path:
    """The bare repository `target`, made when it is not there yet."""
    if not target.is_dir():
        target.parent.mkdir(parents=True, exist_ok=True)
        _git(["init", "--bare", "--quiet", str(target)])
    return target


def fetch_head(config: Config, pr: PullRequest) -> str | None:
    """The PR's head at its source now (see fetch_heads), or None."""
    return fetch_heads(config, pr.repo, [pr]).get(pr.number)


def fetch_heads(config: Config, repo: str, prs: list[PullRequest]) -> dict[int, str]:
    """Each PR's head at its source now (its pull ref, `code_host.pull_ref`), fetched into
    the repository the code is read from under the same ref name, so builds can say how far
    the pages are behind: one `ls-remote` for all of them, then a fetch only of the heads
    that are not here yet, or that moved on from the pages' head and are here without the
    commits before them (fetched as a pin, shallow: a build could not tell how many commits
    after the pages' head it is, and would say the PR was force-pushed; a head the pages pin
    needs no history). A PR whose source has no such ref is left out."""
    if not prs:
        return {}
    source = source_of(config, repo)
    target = fetched_dir(config, repo)
    refs = {fill(config.code_host.pull_ref, number=pr.number): pr.number for pr in prs}
    listed = _git(["ls-remote", "--", source, *sorted(refs)])
    found: dict[str, str] = {}
    for line in listed.stdout.splitlines() if listed.returncode == 0 else ():
        sha, _, ref = line.partition("\t")
        if ref in refs and SHA.match(sha):
            found[ref] = sha
    pinned = {fill(config.code_host.pull_ref, number=pr.number): pr.head for pr in prs}
    reader = SourceReader(target)
    try:  # a head that moved on, here as a pin without its history: fetched again, with it
        cut = set((target / "shallow").read_text().split()) if (target / "shallow").exists() \
            else set()
        missing = [ref for ref, sha in found.items() if reader.commit(sha) is None
                   or sha in cut and not sha.startswith(pinned[ref])]
    finally:
        reader.close()
    if missing and _fetch(target, source, [f"+{ref}:{ref}" for ref in missing], FETCH_DEPTH):
        for ref in missing:  # all at once failed: one by one, to keep those that can be had
            if _fetch(target, source, [f"+{ref}:{ref}"], FETCH_DEPTH):
                del found[ref]
    present = "".join(f"update {ref} {sha}\n" for ref, sha in found.items() if ref not in missing)
    if present:  # heads already here (fetched as pins): their refs, in one git process
        env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
        subprocess.run(["git", "-C", str(target), "update-ref", "--stdin"], input=present,
                       capture_output=True, text=True, check=False, env=env)
    return {refs[ref]: sha for ref, sha in found.items()}


def fetch_commit(config: Config, repo: str, sha: str, number: int) -> str:
    """Fetch one commit of `repo` (of its PR `number`) from its source, as `site-gen fetch`
    does: '' or why it could not be."""
    source = source_of(config, repo)
    target = _bare(fetched_dir(config, repo))
    if len(sha) == 40:
        return _fetch(target, source, [sha], 1)
    local = _local(source)
    if local is not None:
        return _fetch_from_clone(target, source, local, [sha])[sha]
    ref = fill(config.code_host.pull_ref, number=number)
    problem = _fetch(target, source, [ref], FETCH_DEPTH)
    return "" if not problem and _missing(target, [Pin(sha, number, Path(), None)]) == [] \
        else _not_through(ref, problem)


def _fetch_repo(config: Config, repo: str, repo_pins: list[Pin],
                progress: Progress | None) -> FetchReport:
    source = source_of(config, repo)
    report = FetchReport(repo, source)
    if repo in config.checkouts or config.checkout is not None:
        report.skipped = f"reads the clone {git_dir(config, repo)}"
        return report
    target = _bare(fetched_dir(config, repo))
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
    local = _local(source)
    if local is not None and short:  # a clone on this machine tells a short SHA itself
        errors.update(_fetch_from_clone(target, source, local, [pin.sha for pin in short]))
        short = []  # the pull ref cannot tell more than the clone itself
    for number in sorted({pin.number for pin in short}):
        ref = fill(config.code_host.pull_ref, number=number)
        problem = _fetch(target, source, [ref], FETCH_DEPTH)
        for pin in (pin for pin in short if pin.number == number):
            errors[pin.sha] = _not_through(ref, problem)
    still = {pin.sha for pin in _missing(target, missing)}
    report.fetched = [pin.sha for pin in missing if pin.sha not in still]
    report.failed = [ContentError(f"commit {pin.sha} of {repo} could not be fetched from "
                                  f"{source}: {_why_not(repo, local, pin.sha, errors.get(pin.sha))}",
                                  pin.path, pin.line) for pin in missing if pin.sha in still]
    return report


def _why_not(repo: str, local: Path | None, sha: str, why: str | None) -> str:
    """Why `sha` was not fetched; when the clone on this machine it comes from has that
    commit, also how to read it there as it is (git cannot send a commit whose objects are
    not all there: a partial clone, a copy that left its largest files out)."""
    if not why:
        return "not found there"
    if local is None or _git(["-C", str(local), "cat-file", "-e", "--end-of-options",
                              f"{sha}^{{commit}}"]).returncode != 0:
        return why
    return (f"{why.rstrip('.')}; the clone there has the commit, but not every object it "
            f"needs (a partial or damaged clone): read it as it is with '--checkout "
            f"{repo}={local}'")


def _not_through(ref: str, problem: str) -> str:
    """Why an abbreviated SHA was not fetched through its PR's ref `ref` (`problem`: why
    that ref could not be fetched, or '')."""
    return ("an abbreviated SHA cannot be fetched by itself, and "
            + (f"the PR's ref could not be: {problem}" if problem else
               f"it is not among the last {FETCH_DEPTH} commits of {ref}")
            + "; write the full 40-digit SHA")


def _missing(target: Path, repo_pins: list[Pin]) -> list[Pin]:
    reader = SourceReader(target)  # a fresh one: git's answers are remembered per reader
    try:
        return [pin for pin in repo_pins if SHA.match(pin.sha) and reader.commit(pin.sha) is None]
    finally:
        reader.close()


def local_clone(config: Config, repo: str) -> Path | None:
    """The clone on this machine `repo` is fetched from (`site_gen.sources`), if any."""
    folder = _local(source_of(config, repo))
    return folder if folder is not None and folder.is_dir() else None


def revisions_of(config: Config, repo: str) -> Path | None:
    """The clone on this machine whose branches and tags a revision (`main~1`) names: the
    one given (`--checkout`), else the one `repo` is fetched from; None when its code is
    only fetched here (the fetched commits hold no branch)."""
    where = git_dir(config, repo)
    if where is not None and where != fetched_dir(config, repo):
        return where
    return local_clone(config, repo)


def _local(source: str) -> Path | None:
    """The folder of a source on this machine (a `file://` URL), else None."""
    if not source.startswith("file://"):
        return None
    return Path(unquote(urlsplit(source).path))


def _fetch_from_clone(target: Path, source: str, clone: Path, shas: list[str]) -> dict[str, str]:
    """Fetch the commits the abbreviated `shas` name in `clone` (the source on this
    machine), in one fetch: for each, '' or why it could not be."""
    expanded = {sha: _expanded(clone, sha) for sha in shas}
    found = sorted({full for full in expanded.values() if SHA.fullmatch(full)})
    problem = _fetch(target, source, found, 1) if found else ""
    return {sha: problem if SHA.fullmatch(why) else why for sha, why in expanded.items()}


def _expanded(clone: Path, sha: str) -> str:
    """The full SHA of the commit `sha` abbreviates in `clone`, or why there is none."""
    done = _git(["-C", str(clone), "rev-parse", "--verify", "--quiet", "--end-of-options",
                 f"{sha}^{{commit}}"])
    if done.returncode == 0 and SHA.match(done.stdout.strip()):
        return done.stdout.strip()
    named = _git(["-C", str(clone), "rev-parse", f"--disambiguate={sha}"]).stdout.split()
    commits = [c for c in named
               if _git(["-C", str(clone), "cat-file", "-t", c]).stdout.strip() == "commit"]
    if len(commits) > 1:
        return (f"it names {len(commits)} commits there ({', '.join(c[:12] for c in commits)}); "
                "write more of the SHA")
    return "no commit there has that SHA"


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
            f"{report.present} already here, {len(report.failed)} not found"
            + (f"; the current head of {len(report.heads)} PR(s)" if report.heads else ""))
