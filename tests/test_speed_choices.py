"""What the build does to be quick, as a user sees it: Pagefind started as its binary (no
Python wrapper before it), and no worker pool on a machine whose cores are busy."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from site_gen import processes, search


def test_pagefind_starts_as_its_own_binary() -> None:
    search.pagefind_command.cache_clear()
    command = search.pagefind_command()
    assert len(command) == 1 and Path(command[0]).name.startswith("pagefind")
    assert os.access(command[0], os.X_OK)


def test_pagefind_binary_path_is_honoured(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(tmp_path / "pagefind"))
    search.pagefind_command.cache_clear()
    try:
        assert search.pagefind_command() == (str(tmp_path / "pagefind"),)
    finally:
        search.pagefind_command.cache_clear()


@pytest.mark.parametrize(("running", "free"), [
    ([1, 1, 1], 2),      # only this build runs: every core
    ([3, 3, 3], 1),      # two tasks busy elsewhere on two cores: one worker
    ([2, 2, 2], 1),      # one elsewhere: one core is free
    ([3, 1, 3], 2),      # a burst in one sample is not a busy machine
    ([None] * 3, 2),     # not known (no /proc): every core
])
def test_workers_follow_the_free_cores(monkeypatch: pytest.MonkeyPatch, running: list[int | None],
                                       free: int) -> None:
    monkeypatch.setattr(processes, "cores", lambda: 2)
    samples = iter(running)
    assert processes.free_cores(lambda: next(samples)) == free


def test_the_cli_uses_the_free_cores_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    from site_gen import cli

    monkeypatch.setattr(cli, "free_cores", lambda: 1)
    args = cli._parser().parse_args(["build"])
    assert cli._jobs(args) == 1
    args = cli._parser().parse_args(["build", "--jobs", "2"])
    assert cli._jobs(args) == 2  # as asked, busy or not
