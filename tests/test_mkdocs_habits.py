"""What MkDocs users type and write works the same: -q, -v, build -c, serve -a/-o,
extra_css and extra_javascript, and a theme name that is not site_gen's is an error."""

from __future__ import annotations

import fcntl
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from .browser.conftest import chromium_path, wait_for_the_install
from .conftest import Project, Run

CLI = Callable[..., Run]


def test_quiet_verbose_and_clean(project: Project, cli: CLI) -> None:
    quiet = cli("build", "-q", "--clean", "--no-search")
    assert (quiet.code, quiet.out, quiet.err) == (0, "", "")
    project.write("content/acme/widgets/12/cache-bug.md",
                  (project.root / "content/acme/widgets/12/cache-bug.md").read_text()
                  + "[x](https://github.com/a/b/blob/main/c.py)\n")
    warned = cli("build", "-q", "--no-search")
    assert (warned.code, warned.out, warned.err) == (0, "", "")  # -q prints errors only
    loud = cli("build", "-v", "-c", "--no-search")  # every build is clean: -c changes nothing
    assert loud.code == 0 and "1 warning(s)" in loud.out and "unpinned link" in loud.err


def test_every_command_takes_quiet_and_verbose(tmp_path: Path, cli: CLI,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The README: every command takes -q and -v. init and new print nothing with -q."""
    from site_gen.cli import _parser

    commands = next(a for a in _parser()._actions if a.dest == "command").choices
    for name, command in commands.items():
        options = {o for a in command._actions for o in a.option_strings}
        assert {"-q", "--quiet", "-v", "--verbose"} <= options, name
    monkeypatch.chdir(tmp_path)
    assert cli("init", "-q") == Run(0, "", "")
    assert cli("new", "-q", "acme/widgets#12", "--head", "a" * 40, "--title", "T") == Run(0, "", "")
    assert (tmp_path / "content/acme/widgets/12/pr.yml").is_file()
    assert "Created" in cli("new", "-v", "acme/widgets#13", "--head", "b" * 40).out


@pytest.mark.parametrize(("address", "message"), [
    ("0.0.0.0:8000", "argument -a/--dev-addr: '0.0.0.0:8000' is not 127.0.0.1:PORT or "
                     "localhost:PORT; the preview only listens on this machine"),
    ("localhost", "argument -a/--dev-addr: 'localhost' is not 127.0.0.1:PORT or localhost:PORT; "
                  "the preview only listens on this machine"),
])
def test_serve_dev_addr_is_this_machine_only(cli: CLI, address: str, message: str) -> None:
    result = cli("serve", "-a", address)
    assert result.code == 2 and result.err.splitlines()[-1].endswith(message)


def test_extra_css_and_javascript_are_copied_and_linked(project: Project, cli: CLI) -> None:
    project.write("content/assets/extra.css", "body { color: red; }\n")
    project.write("content/assets/extra.js", "document.documentElement.dataset.x = 1;\n")
    project.write("mkdocs.yml", (project.root / "mkdocs.yml").read_text()
                  + "extra_css: [assets/extra.css]\nextra_javascript: [assets/extra.js]\n")
    result = cli("build", "--no-search")
    assert (result.code, result.err) == (0, "")
    assert (project.site / "assets/extra.js").is_file() and (project.site / "assets/extra.css").is_file()
    page = (project.site / "acme/widgets/12/cache-bug/index.html").read_text()
    assert '<link rel="stylesheet" href="../../../../assets/extra.css">' in page
    assert '<script src="../../../../assets/extra.js" defer></script>' in page
    project.write("mkdocs.yml", "site_name: R\ndocs_dir: content\n"
                  "extra_css: [https://cdn.example.org/x.css]\nextra_javascript: [missing.js]\n")
    refused = cli("build", "--no-search")
    assert refused.code == 1
    assert refused.err.splitlines()[0] == (
        "mkdocs.yml:3: 'extra_css' entries must be .css files inside docs_dir, like "
        "'assets/extra.css' (nothing from other hosts); found 'https://cdn.example.org/x.css'")
    project.write("mkdocs.yml", "site_name: R\ndocs_dir: content\nextra_javascript: [missing.js]\n")
    missing = cli("build", "--no-search")
    assert ("mkdocs.yml: 'extra_javascript' names 'missing.js', which is not a file in docs_dir; "
            "expected a path relative to docs_dir") in missing.err.splitlines()


def test_a_theme_name_that_is_not_site_gen_is_an_error(project: Project, cli: CLI) -> None:
    project.write("mkdocs.yml", "site_name: R\ndocs_dir: content\ntheme:\n  name: material\n")
    result = cli("build")
    assert (result.code, result.err.splitlines()[0]) == (
        1, "mkdocs.yml:4: 'theme.name' is 'material', but site_gen has one theme of its own; "
           "leave the name out (or write site_gen), and shadow single templates with "
           "theme.custom_dir")


def test_the_browser_tests_wait_for_the_install_scripts_test_started(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """scripts/test installs Chromium in the background holding a lock; the browser
    fixture waits until the lock is let go, then fails with the install's log if no
    Chromium came of it."""
    from .browser import conftest

    lock, chromium = tmp_path / "lock", tmp_path / "chromium"
    (tmp_path / "log").write_text("E: Unable to locate package chromium\n")
    monkeypatch.setattr(conftest, "DEBIAN_CHROMIUM", str(chromium))
    with ThreadPoolExecutor(1) as pool:
        for installed in (False, True):
            with lock.open("wb") as install:
                fcntl.flock(install, fcntl.LOCK_EX)
                waiting = pool.submit(wait_for_the_install, {"SITE_GEN_CHROMIUM_INSTALL": str(lock)})
                with pytest.raises(TimeoutError):
                    waiting.result(timeout=0.3)  # still installing
                if installed:
                    chromium.write_text("#!/bin/sh\n")
                    chromium.chmod(0o755)
            failed = waiting.exception()  # the install ended: the lock's file is closed
            assert (failed and str(failed)) == (None if installed else (
                "installing Debian's chromium failed:\nE: Unable to locate package chromium\n"))
    wait_for_the_install({})  # no install under way: nothing to wait for


def test_the_browser_tests_say_which_chromium() -> None:
    assert chromium_path({"SITE_GEN_CHROMIUM": "/opt/chrome"}) == ("/opt/chrome", "$SITE_GEN_CHROMIUM")
    executable, why = chromium_path({})
    assert (executable, why) in (("/usr/bin/chromium", "Debian's chromium package"),
                                 (None, "Playwright's own Chromium (playwright install chromium)"))
