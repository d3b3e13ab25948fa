"""The command line: `site-gen build`; the one place errors become exit codes."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from .build import WarningCounter, build
from .config import load_config
from .errors import BuildFailed, SiteGenError

log = logging.getLogger("site_gen")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="site-gen", description="Build review explainer sites.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    b = commands.add_parser("build", help="build the site into site_dir")
    b.add_argument("-f", "--config-file", type=Path, default=Path("mkdocs.yml"),
                   help="the configuration file (default: mkdocs.yml)")
    b.add_argument("-s", "--strict", action="store_true", default=None,
                   help="fail the build on warnings")
    b.add_argument("-d", "--site-dir", type=Path, help="where to write the site")
    b.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                   help="worker processes for rendering pages (default: all cores)")
    b.add_argument("--no-cache", dest="cache", action="store_false",
                   help="render every page again instead of reusing unchanged ones")
    b.add_argument("--no-search", dest="search", action="store_false",
                   help="skip the search index (faster; the search page finds nothing)")
    b.add_argument("--checkout", type=Path,
                   help="a local git clone to verify every code reference against")
    return parser


class _Plain(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return f"warning: {record.getMessage()}" if record.levelno >= logging.WARNING else record.getMessage()


def main(argv: list[str] | None = None) -> int:
    """Run site-gen; returns the exit code (0 ok, 1 config/content error, 2 usage)."""
    args = _parser().parse_args(argv)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_Plain())
    counter = WarningCounter()
    log.addHandler(handler)
    log.addHandler(counter)
    log.propagate = False
    try:
        config = load_config(args.config_file, strict=args.strict, site_dir=args.site_dir,
                             checkout=args.checkout)
        result = build(config, counter, jobs=max(1, args.jobs), cache=args.cache,
                       search=args.search)
    except BuildFailed as failed:
        for error in failed.errors:
            print(error, file=sys.stderr)
        print(f"Build failed: {len(failed.errors)} error(s); {counter.count} warning(s). "
              "The site was not changed.", file=sys.stderr)
        return 1
    except SiteGenError as error:
        print(error, file=sys.stderr)
        return 1
    finally:
        log.removeHandler(handler)
        log.removeHandler(counter)
    where = args.site_dir or config.site_dir
    if result.changed:
        print(f"Built {result.pages} pages ({result.files} files) into {where} "
              f"in {result.seconds:.2f} s; {result.warnings} warning(s).")
    else:
        print(f"{where} is up to date ({result.pages} pages); checked in {result.seconds:.2f} s; "
              f"{result.warnings} warning(s).")
    return 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
