"""Processes and signals: children that end with the build that started them, and SIGTERM
handled like Ctrl-C so that every clean-up runs."""

from __future__ import annotations

import functools
import os
import signal
from collections.abc import Callable

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> None:
    """Linux: have the kernel kill this process when its parent dies (no orphans left
    writing into a half-built site). Elsewhere it does nothing. `parent`, the pid of the
    process that started this one: if it died before this call, exit now (the kernel would
    never send the signal)."""
    import ctypes  # here: a build that starts no process has no use for it (1.4 ms)

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
    if parent is not None and os.getppid() != parent:
        os._exit(1)


def dying_with_this_process() -> Callable[[], None]:
    """A `preexec_fn` for children that end with this process."""
    import ctypes  # noqa: F401  loaded here, so that no child loads it between fork and exec

    return functools.partial(die_with_parent, os.getpid())


class Terminated(BaseException):
    """SIGTERM, raised like Ctrl-C's KeyboardInterrupt so that every clean-up runs."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated()


def stop_on_sigterm() -> None:
    """In the main process: SIGTERM raises Terminated."""
    signal.signal(signal.SIGTERM, _terminate)


def cores() -> int:
    """The processors this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _running() -> int | None:
    """How many tasks are runnable on the machine right now, this one included (Linux's
    /proc/loadavg), or None where that cannot be read."""
    try:
        with open("/proc/loadavg", encoding="ascii") as handle:
            return int(handle.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return None


def free_cores(running: Callable[[], int | None] = _running) -> int:
    """How many worker processes can win now: the processors not busy with other work
    (at least one). With both cores of a 2-core machine busy elsewhere, a pool of two
    would only share them with that work and pay for its start on top."""
    total = cores()
    samples = [n for n in (running() for _ in range(3)) if n is not None]
    if not samples:
        return total
    elsewhere = max(0, min(samples) - 1)  # the fewest seen: a short burst is not busy
    return max(1, min(total, total - elsewhere))


def start_worker_process(parent: int | None = None) -> None:
    """In a worker (started by `parent`): die with the parent, and leave Ctrl-C and SIGTERM
    to it (a worker that handled them would print its own traceback)."""
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
