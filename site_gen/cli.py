"""The command line: build, check, serve and new; the one place errors become exit codes."""

from __future__ import annotations

import argparse
import dataclasses
import logging
import shutil
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from . import __version__
from .build import RenderedSite, build, render_site
from .config import PACKAGE_TEMPLATES, Config, load_config
from .errors import UNCHECKED, BuildFailed, ContentError, ContentWarning, SiteGenError, display_path, sort_key
from .names import REPO
from .processes import Terminated, free_cores

log = logging.getLogger("site_gen")
_QUIET = [False]  # -q: summary lines are not printed either, as with MkDocs


def _say(text: str) -> None:
    """A summary line on standard output (not with --quiet)."""
    if not _QUIET[0]:
        print(text, flush=True)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="site-gen", description="Build review explainer sites.",
                                     formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("-V", "--version", action="version",
                        version=f"site-gen {__version__} (templates: {PACKAGE_TEMPLATES})")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    b = commands.add_parser("build", help="build the site into site_dir")
    _common(b)
    b.add_argument("-d", "--site-dir", type=Path, help="where to write the site")
    b.add_argument("-c", "--clean", action="store_true",
                   help="accepted for MkDocs' sake: every build is clean (no stale file is left)")
    b.add_argument("--no-cache", dest="cache", action="store_false",
                   help="render every page again instead of reusing unchanged ones")
    b.add_argument("--no-search", dest="search", action="store_false",
                   help="skip the search index (faster; the search page finds nothing)")
    c = commands.add_parser("check", help="every check of a build, without writing the site")
    _common(c)
    c.add_argument("--allow-unchecked", action="store_true",
                   help="pages whose code is not here are checked for everything else and "
                        "named, but do not fail (the pre-commit hook; publishing checks them)")
    c.add_argument("--drift", action="store_true",
                   help="also fail when a PR has moved on and a page's reference is changed "
                        "or gone at its current head (for a scheduled job, after fetch)")
    r = commands.add_parser("repin", help="move a PR's pages to a newer head, line by line")
    _common(r)
    r.add_argument("target", metavar="OWNER/REPO#NUMBER")
    r.add_argument("--head", help="the new head (default: the PR's head at its source now)")
    r.add_argument("-n", "--dry-run", action="store_true", help="report, write nothing")
    s = commands.add_parser("serve", help="preview the site, rebuilding as files change")
    _common(s)
    s.add_argument("-p", "--port", type=int, default=None, help="port on 127.0.0.1 "
                   "(default 8000; 0 picks a free one)")
    s.add_argument("-a", "--dev-addr", type=_dev_addr, default=None, metavar="HOST:PORT",
                   help="as in MkDocs; the host must be this machine (127.0.0.1 or localhost)")
    s.add_argument("-o", "--open", action="store_true", help="open the preview in a browser")
    i = commands.add_parser("init", help="start a content repository of your own")
    _verbosity(i)
    i.add_argument("folder", nargs="?", type=Path, default=Path("."), metavar="DIR",
                   help="where (default: this folder)")
    i.add_argument("--force", action="store_true", help="write into a folder that is not empty")
    f = commands.add_parser("fetch", help="fetch the commits every page pins, for checking")
    _common(f)
    n = commands.add_parser("new", help="start the analysis of a pull request")
    _verbosity(n)
    n.add_argument("target", metavar="OWNER/REPO#NUMBER")
    n.add_argument("--head", help="the PR head commit every code link pins")
    n.add_argument("--base", help="the commit the PR's own change starts from (its files "
                   "then list everything the PR changes)")
    n.add_argument("--title", help="the pull request's title")
    n.add_argument("--question", help="the short name of the first question")
    n.add_argument("--checkout", type=Path, help="a local clone to read the head commit from")
    n.add_argument("-f", "--config-file", type=Path, default=Path("mkdocs.yml"))
    return parser


def _dev_addr(value: str) -> int:
    host, sep, port = value.rpartition(":")
    if not sep or host not in ("127.0.0.1", "localhost") or not port.isdigit():
        raise argparse.ArgumentTypeError(
            f"'{value}' is not 127.0.0.1:PORT or localhost:PORT; the preview only listens on "
            "this machine")
    return int(port)


def _verbosity(command: argparse.ArgumentParser) -> None:
    """-q and -v, which every command takes (as in MkDocs)."""
    command.add_argument("-q", "--quiet", action="store_true", help="print errors only")
    command.add_argument("-v", "--verbose", action="store_true", help="print more of what happens")


def _common(command: argparse.ArgumentParser) -> None:
    _verbosity(command)
    command.add_argument("-f", "--config-file", type=Path, default=Path("mkdocs.yml"),
                         help="the configuration file (default: mkdocs.yml)")
    command.add_argument("-s", "--strict", action="store_true", default=None,
                         help="fail on warnings")
    command.add_argument("-j", "--jobs", type=int, default=None,
                         help="worker processes for rendering pages (default: the cores "
                              "not busy with other work)")
    command.add_argument("--checkout", action="append", default=[], type=_checkout,
                         metavar="[OWNER/REPO=]PATH",
                         help="a local git clone to check the pages against: for every "
                              "repository, or (OWNER/REPO=PATH, repeatable) for one")


def _jobs(args: argparse.Namespace) -> int:
    """--jobs as given, else as many workers as there are cores free now (one on a busy
    machine, where a pool would only slow the build down)."""
    if args.jobs is not None:
        return max(1, int(args.jobs))
    return free_cores()  # the log line of the question pages says how many ran


def _checkout(value: str) -> tuple[str | None, Path]:
    repo, sep, path = value.partition("=")
    if sep and REPO.match(repo):
        return repo, Path(path)
    return None, Path(value)


class _Plain(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        if record.levelno >= logging.WARNING:
            return f"warning: {record.getMessage()}"
        return record.getMessage()


class Progress:
    """`pages done / all` on a terminal, rewritten in place; nothing when not a terminal."""

    def __init__(self, at_least: int = 20) -> None:
        self.active = sys.stderr.isatty()
        self.shown = False
        self.at_least = at_least  # fewer steps than this finish before they need showing

    def __call__(self, done: int, total: int, what: str = "Rendering pages") -> None:
        if self.active and total >= self.at_least:
            sys.stderr.write(f"\r\033[K{what}: {done}/{total}")
            sys.stderr.flush()
            self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            self.shown = False


def main(argv: list[str] | None = None) -> int:
    """Run site-gen; returns the exit code (0 ok, 1 config/content error, 2 usage)."""
    args = _parser().parse_args(argv)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_Plain())
    log.addHandler(handler)
    quiet, verbose = getattr(args, "quiet", False), getattr(args, "verbose", False)
    log.setLevel(logging.ERROR if quiet else logging.DEBUG if verbose else logging.INFO)
    _QUIET[0] = quiet
    log.propagate = False
    try:
        return COMMANDS[args.command](args)
    except (KeyboardInterrupt, Terminated) as stop:
        print("Interrupted" + ("; the site was not changed." if args.command == "build" else "."),
              file=sys.stderr)
        return 130 if isinstance(stop, KeyboardInterrupt) else 143
    except BuildFailed as failed:
        _show(failed.warnings)
        for error in failed.errors:
            print(error, file=sys.stderr)
        print(_failure(args.command, failed), file=sys.stderr)
        return 1
    except SiteGenError as error:
        print(error, file=sys.stderr)
        return 1
    finally:
        log.removeHandler(handler)


def _failure(command: str, failed: BuildFailed) -> str:
    """The last line of a failed run: what stopped it."""
    def count(n: int, what: str) -> str:
        return f"{n} {what}{'' if n == 1 else 's'}"

    if failed.stopped_by_strict:
        line = f"{command.capitalize()} stopped: {count(failed.warning_count, 'warning')} in strict mode."
    else:
        line = (f"{command.capitalize()} failed: {len(failed.errors)} error(s); "
                f"{failed.warning_count} warning(s).")
    return line + (" The site was not changed." if command == "build" else "")


def _show(warnings: Iterable[ContentWarning]) -> None:
    for warning in warnings:
        log.warning("%s", warning)


def _config(args: argparse.Namespace, site_dir: Path | None = None) -> Config:
    """The settings, their warnings shown once (every build counts them, for --strict)."""
    every = [path for repo, path in args.checkout if repo is None]
    if len(every) > 1:
        raise SiteGenError("--checkout PATH names a clone for every repository, so it can be "
                           "given once; for several, write --checkout OWNER/REPO=PATH")
    config = load_config(args.config_file, strict=args.strict, site_dir=site_dir,
                         checkout=every[0] if every else None,
                         checkouts={repo: path for repo, path in args.checkout if repo})
    _show(config.warnings)
    return config


def _build(args: argparse.Namespace) -> int:
    config = _config(args, args.site_dir)
    progress = Progress()
    try:
        result = build(config, jobs=_jobs(args), cache=args.cache, search=args.search,
                       progress=progress)
    finally:
        progress.clear()
    _show(result.warnings)
    where = args.site_dir or config.site_dir
    warnings = len(config.warnings) + len(result.warnings)
    if result.changed:
        _say(f"Built {result.pages} pages ({result.files} files) into {where} "
             f"in {result.seconds:.2f} s; {warnings} warning(s).")
    elif result.rendered:
        _say(f"Built {result.pages} pages into {where} in {result.seconds:.2f} s: every file "
             f"was already as built, nothing written; {warnings} warning(s).")
    else:
        _say(f"{where} is up to date ({result.pages} pages); checked in {result.seconds:.2f} s; "
             f"{warnings} warning(s).")
    return 0


def _check(args: argparse.Namespace) -> int:
    config = _config(args)
    if args.allow_unchecked:  # every warning fails `check` anyway, but these: counted below
        config = dataclasses.replace(config, strict=False)
    def apart(found: tuple[ContentWarning, ...]) -> tuple[ContentWarning, ...]:
        """The warnings that count; the pages not checked against their code, noted."""
        for note in (w for w in found if args.allow_unchecked and w.kind == UNCHECKED):
            print(f"note: {note} (not counted: --allow-unchecked)", file=sys.stderr)
        return tuple(w for w in found if not (args.allow_unchecked and w.kind == UNCHECKED))

    try:
        site = render_site(config, jobs=_jobs(args))
    except BuildFailed as failed:
        raise BuildFailed(failed.errors, apart(failed.warnings), failed.settings_warnings) from None
    counted = apart(site.warnings)
    _show(counted)
    warnings = len(config.warnings) + len(counted)
    if warnings:  # anything reported is something to fix before publishing
        print(f"Check found {warnings} warning{'' if warnings == 1 else 's'} in {site.pages} pages.",
              file=sys.stderr)
        return 1
    if args.drift and _drifted(site):
        return 1
    _say(f"No problems in {site.pages} pages.")
    return 0


def _drifted(site: RenderedSite) -> bool:
    """Print each item changed or gone at its PR's current head; whether there was any."""
    from .drift import CHANGED, GONE, summary
    from .repin import describe

    broken = False
    for pr in site.site.prs if site.site else ():
        drift = site.checks[pr.key].drift
        if drift is None or not drift.broken:
            continue
        broken = True
        for page, placed in drift.placed.items():
            for item in placed:
                if item.state in (CHANGED, GONE):
                    print(describe(page, item), file=sys.stderr)
        print(f"{pr.repo}#{pr.number} is now at {drift.new[:7]}: {summary(drift.counts(), drift.cited())}; "
              f"run 'site-gen repin {pr.repo}#{pr.number}' and rewrite what changed",
              file=sys.stderr)
    return broken


def _repin(args: argparse.Namespace) -> int:
    from .content import discover
    from .errors import Problems
    from .repin import repin

    config = _config(args)
    problems = Problems()
    site = discover(config, problems)
    if problems.errors:
        failed: list[SiteGenError] = [*sorted(problems.errors, key=sort_key)]
        raise BuildFailed(failed)
    done = repin(config, site, args.target, args.head, dry_run=args.dry_run)
    for line in done.lines():
        print(line)
    if args.dry_run:
        _say("Dry run: nothing written.")
    elif done.written:
        _say("Rewrote " + ", ".join(display_path(p) for p in done.written) + ".")
    return 1 if done.failed else 0


def _serve(args: argparse.Namespace) -> int:
    import tempfile

    from .preview import Preview
    from .serve import Problem, serve

    first = _config(args)
    folder = Path(tempfile.mkdtemp(prefix="site-gen-serve-"))
    site = folder / "site"
    # --strict: the page shows warnings as errors; drafts are shown, marked
    preview = Preview(lambda: dataclasses.replace(_config(args, site), drafts=True), site,
                      jobs=_jobs(args))

    def rebuild(changed: set[Path] | None) -> list[Problem]:
        started = time.perf_counter()
        try:
            result = preview.build(changed)
        except BuildFailed as failed:
            strict = failed.stopped_by_strict or bool(args.strict)
            if not strict:
                _show(failed.warnings)
            problems = [Problem.of(e) for e in failed.errors] + [
                Problem.of(w, " (a warning: strict mode stops on it)")
                for w in failed.warnings if strict]
            for problem in problems:
                print(problem.text, file=sys.stderr)
            print(f"Build failed: {len(problems)} error(s); the browser shows them until they "
                  "are fixed.", file=sys.stderr, flush=True)
            return problems
        _show(result.warnings)
        settings = len(preview.config.warnings) if preview.config else 0
        written = f"{preview.written} file{'' if preview.written == 1 else 's'} written"
        _say(f"Rebuilt {result.pages} pages in {time.perf_counter() - started:.3f} s "
             f"({written}); {settings + len(result.warnings)} warning(s).")
        return []

    # fetched code too: a `site-gen fetch` while serving checks the pages again
    watched = [first.config_file, first.docs_dir, first.custom_dir, first.cache_dir / "repos"]
    port = args.dev_addr if args.dev_addr is not None else 8000 if args.port is None else args.port

    def ready(message: str) -> None:
        print(message, flush=True)
        if args.open:
            import webbrowser

            webbrowser.open(message.split()[2])
    try:
        serve(site, port, rebuild, watched, ready=ready)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    _say("Stopped.")
    return 0


def _fetch(args: argparse.Namespace) -> int:
    from .content import discover
    from .errors import Problems
    from .fetch import describe_report, fetch

    config = _config(args)
    progress = Progress(at_least=1)

    def show(repo: str, done: int, total: int) -> None:
        progress(done, total, f"Fetching {repo}")

    problems = Problems()  # a broken pr.yml is an error here too: its commits are not known
    try:
        reports = fetch(config, discover(config, problems), show)
    finally:
        progress.clear()
    for report in reports:
        _say(describe_report(report))
    errors: list[ContentError] = [*problems.errors,
                                  *(error for report in reports for error in report.failed)]
    errors.sort(key=sort_key)
    failed: list[SiteGenError] = list(errors)
    if failed:
        raise BuildFailed(failed)
    return 0


def _init(args: argparse.Namespace) -> int:
    from .init_repo import init_repository

    written, notes = init_repository(args.folder, force=args.force)
    for path in written:
        _say(f"Created {display_path(path)}")
    for note in notes:
        log.warning("%s", note)
    _say("Next: site-gen new OWNER/REPO#NUMBER --head SHA, then site-gen serve.")
    return 0


def _new(args: argparse.Namespace) -> int:
    from .new_pr import new_pr

    config = load_config(args.config_file)
    _show(config.warnings)
    existed = {path for path in config.docs_dir.rglob("pr.yml")} if config.docs_dir.is_dir() else set()
    written = new_pr(config, args.target, args.head, args.title, args.question, args.checkout,
                     args.base)
    for path in written:
        what = "Filled in the files of" if path in existed else "Created"
        _say(f"{what} {display_path(path)}")
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "build": _build, "check": _check, "serve": _serve, "fetch": _fetch, "init": _init,
    "new": _new, "repin": _repin,
}
