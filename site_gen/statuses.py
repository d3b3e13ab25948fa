"""The status vocabulary: one word per state, how it reads, and where it may be used.

One vocabulary serves PR states (`pr`), question statuses (`page`), review callout
severities (`callout`) and flow verdicts (`verdict`); mkdocs.yml may add or restyle words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .suggest import did_you_mean

TONES = ("danger", "warning", "success", "info", "neutral", "done")
USES = ("pr", "page", "callout", "verdict")
USE_NAMES = {"pr": "PR state", "page": "status", "callout": "severity", "verdict": "verdict"}


@dataclass(frozen=True)
class Status:
    """One word of the status vocabulary: how it reads and where it may be used."""

    key: str
    label: str
    tone: str
    icon: str
    uses: tuple[str, ...]  # sorted, so reprs (and build fingerprints) never vary


def _status(key: str, label: str, tone: str, icon: str, *uses: str) -> Status:
    return Status(key, label, tone, icon, tuple(sorted(uses)))


DEFAULT_STATUSES: dict[str, Status] = {
    s.key: s
    for s in (
        # A pull request's state, in the code host's colours.
        _status("open", "Open", "success", "●", "pr"),
        _status("draft", "Draft", "neutral", "◌", "pr"),
        _status("merged", "Merged", "done", "⎇", "pr"),
        _status("closed", "Closed", "danger", "✕", "pr"),
        # Where a question stands: words of their own, so they never read as a PR's state.
        _status("unresolved", "Unresolved", "danger", "⚑", "page"),
        _status("fixed", "Fixed in this PR", "success", "✔", "page"),
        _status("proposed", "Proposed, not in the PR", "warning", "◆", "page"),
        _status("wontfix", "Won't fix", "neutral", "–", "page"),
        # A review comment's weight: shaped like neither.
        _status("blocking", "Blocking", "danger", "■", "callout"),
        _status("suggestion", "Suggestion", "warning", "✎", "callout"),
        _status("note", "Note", "info", "ℹ", "callout"),
        _status("right", "right", "success", "✓", "verdict"),
        _status("wrong", "wrong", "danger", "✗", "verdict"),
        _status("luck", "right only by luck", "warning", "⚠", "verdict"),
    )
}
# Words that mean another: a question page's `status: open` (site_gen's word before
# 'unresolved') is the question's status, not the PR's state.
ALIASES = {("page", "open"): "unresolved"}


def find_status(statuses: dict[str, Status], name: str, use: str,
                report: Callable[[str], None]) -> Status | None:
    """Look `name` up among the words allowed for `use`; else report the allowed ones."""
    name = ALIASES.get((use, name.strip()), name.strip())
    status = statuses.get(name)
    if status is None or use not in status.uses:
        allowed = [k for k, s in statuses.items() if use in s.uses]
        aliases = {target: alias for (alias_use, alias), target in ALIASES.items()
                   if alias_use == use and target in allowed}
        words = allowed + list(aliases.values())  # every word the list below shows
        shown = [f"{k} (or {aliases[k]})" if k in aliases else k for k in allowed]
        report(f"unknown {USE_NAMES[use]} '{name}'; {did_you_mean(name, words)}expected one "
               f"of: {', '.join(shown)}")
        return None
    return status
