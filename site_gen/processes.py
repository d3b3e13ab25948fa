"""Processes and signals: children that end with the build that started them, and SIGTERM
handled like Ctrl-C so that every clean-up runs."""

from __future__ import annotations

import ctypes
import signal

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Linux: have the kernel kill this process when its parent dies (no orphans left
    writing into a half-built site). Elsewhere it does nothing."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


class Terminated(BaseException):
    """SIGTERM, raised like Ctrl-C's KeyboardInterrupt so that every clean-up runs."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated()


def stop_on_sigterm() -> None:
    """In the main process: SIGTERM raises Terminated."""
    signal.signal(signal.SIGTERM, _terminate)


def start_worker_process() -> None:
    """In a worker: die with the parent, and leave Ctrl-C and SIGTERM to it (a worker that
    handled them would print its own traceback)."""
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
