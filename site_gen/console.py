"""The `site-gen` command's process: how it starts and how it ends, around cli.main."""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from typing import NoReturn

# The cyclic garbage collector's thresholds in the command's process and its workers
# (Python's are 700, 10, 10). A build makes objects by the hundred thousand and keeps most
# of them (the site, its pages' results), so at Python's pace the collector runs hundreds
# of times over a heap that only grows, and finds almost nothing: 0.15 s of a clean build
# at 1,000 PRs in the main process, 0.04 s in each worker, and a few milliseconds while
# site_gen's own modules are imported. The thresholds mypy's command line sets.
GC_THRESHOLDS = (200_000, 30, 30)


def run() -> None:
    """Console-script entry point: the garbage collector set to run seldom before anything
    is imported (GC_THRESHOLDS), then the command; once it is done, the process ends at
    once (see exit_now)."""
    gc.set_threshold(*GC_THRESHOLDS)
    from .cli import main
    from .processes import stop_on_sigterm

    stop_on_sigterm()
    exit_now(main())


def exit_now(code: int) -> NoReturn:
    """End the process with `code` once what it printed is out, without the interpreter's
    clean-up: freeing every object the command made, one by one (a one-edit build at
    1,000 PRs holds the site's discovery, its cache entries and its record: 70-80 ms of
    freeing after the work is done). As mypy ends its runs. Nothing is left to clean up
    by then: every file, lock, pool and connection is closed by the command itself. Under
    a profiler or a tracer (coverage), which write what they found in that clean-up, the
    process ends as usual."""
    if sys.getprofile() is not None or sys.gettrace() is not None:
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing to flush to
            stream.flush()
    os._exit(code)
