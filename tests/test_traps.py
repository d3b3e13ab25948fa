"""No silent traps for authors: each common mistake is one error at its line, with the fix
in the message; drafts, excluded files, and callouts pasted from MkDocs or GitHub."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from .blockutil import render
from .conftest import Project, Run, front

CLI = Callable[..., Run]


@pytest.mark.parametrize(("text", "expected"), [
    ("Intro.\n\n::: aside So what\nThe rest of the page\n\n## is swallowed\n",
     ["3: aside opened here is never closed (add ::: on a line of its own)"]),
    # an unclosed review before a closed aside: the aside's ::: is its own, the review is open
    ("::: review note [[checkpoint.py:1]]\nSaid.\n\n::: aside So what\nThought.\n:::\n",
     ["1: review callout opened here is never closed (add ::: on a line of its own)"]),
    ("::: review note [[checkpoint.py:1]]\nSaid.\n\n::: aside So what\nThought.\n",
     ["1: review callout opened here is never closed (add ::: on a line of its own)",
      "4: aside opened here is never closed (add ::: on a line of its own)"]),
    ("> ```python\n> x = 1\n> ```\n\nAfter.\n", []),  # closed inside its blockquote
    ("> ```python\n> x = 1\n\n```\n", [
        "1: python opened here is never closed (add ``` on a line of its own)",
        "4: code block opened here is never closed (add ``` on a line of its own)"]),
    ("- item\n\n  ```python\n  x = 1\n  ```\n- next\n", []),  # closed inside its list item
    ("::: aside A\n```python\nx = 1\n:::\n", [
        "2: python opened here is never closed (add ``` on a line of its own)"]),
    ("```flow\nlane a: A\nlane b: B\n\nProse that is not a flow line.\nMore prose.\n",
     ["1: flow opened here is never closed (add ``` on a line of its own)"]),
    # a block whose closing line is missing runs into the next block, which closes it:
    # one error, where its lines would each be one of the block's that is wrong
    ("```claim\nsays: x\ncount: 1\ntext: x\n\n```excerpt\n[[checkpoint.py:1]]\n```\n\n"
     "After.\n",
     ["1: claim opened here is not closed before line 6 ('```excerpt'); add ``` on a line of "
      "its own to end it"]),
    ("Intro.\n\n```flow\nlane a: A\n!```\n\n```python\nx = 1\n```\n",
     ["3: flow opened here is not closed before line 7 ('```python'); add ``` on a line of "
      "its own to end it"]),
    # a diff of markdown: a context line that opens a fence is the file's, not a block
    ("````proposal\nfile: docs/spans.md L1-L2\n@@ -1,2 +1,2 @@\n ```python\n-x = 1\n+x = 2\n"
     "````\n", []),
    ("```proposal\nfile: README.md L1-L2\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n```\n",  # said once
     ["2: unknown file 'README.md' in 'file: README.md'; it is not among the files listed in "
      "pr.yml (nearest by name: docs/spans.md, src/app/checkpoint.py)"]),
    ("Text.\n\n````python\nx = 1\n",
     ["3: python opened here is never closed (add ```` on a line of its own)"]),
    # a lane line that is wrong is the one error: not its lane unknown to each step after
    ("```flow\nlane a: A\nlane b:\nstep a: x\nstep b: y\noutcome b: wrong: w\n```\n",
     ["3: 'lane' line has no text"]),
    ("```flow\nlane a: A\nlne b: B\nstep a: x\nstep b: y\n```\n",
     ["3: malformed flow line 'lne b: B'; expected one of: 'title:', 'lane NAME:', 'step:', "
      "'step LANE:', 'note:', 'outcome LANE: VERDICT: text', 'source: [[ref]] code'"]),
    ("```flow\nlane a: A\nlane b: B\nstep a: x\nstep `b: y\n```\n",  # nor a step's
     ["5: malformed flow line 'step `b: y'; expected one of: 'title:', 'lane NAME:', 'step:', "
      "'step LANE:', 'note:', 'outcome LANE: VERDICT: text', 'source: [[ref]] code'"]),
    ("```flow\nlane a: A\nlane b: B\nstep: x\nnote: n\nstp: y\nnote: m\n```\n",  # nor its note
     ["6: malformed flow line 'stp: y'; expected one of: 'title:', 'lane NAME:', 'step:', "
      "'step LANE:', 'note:', 'outcome LANE: VERDICT: text', 'source: [[ref]] code'"]),
    ("```flow\nlane a: A\nlane b: B\nstep c: x\nnote: n\nstep b: y\n```\n",
     ["4: unknown lane 'c'; expected one of: a, b"]),
    ("```flow\nlane a: A\nlane b: B\nstep: x\noutcome a: right: r\noutcome b:\n```\n",
     ["6: 'outcome' line has no text"]),  # not also: lane 'b' has no outcome
    # a lane line dropped: one error that names the lane its steps use, not one a step
    ("```flow\nlane a: A\nstep a: x\nstep b: y\nstep a: z\nstep b: w\n```\n",
     ["2: a flow needs two or more lanes ('lane NAME: label' lines); found 1; its steps also "
      "name 'b': declare each with a 'lane NAME: label' line"]),
    ("```flow\nlane a: A\nlane b: B\nstep a: x\nstep c: y\nstep a: z\nstep c: w\n```\n",
     ["5: unknown lane 'c'; expected one of: a, b"]),  # once, at its first step
    # a proposal's file line dropped: its hunk is one error, not one for each diff line
    ("```proposal\ntitle: T\n\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n```\n",
     ["4: '@@ -1,2 +1,2 @@' is a diff line before any 'file:' line; expected a 'file: PATH "
      "Lstart-Lend · symbol' line above its hunk"]),
    ("```flow\nlane a: A\nstep a: x\nlane b: B\nstep b: y\n```\n",  # lines swapped
     ["4: lane 'b' is declared after the first step; declare every lane first"]),
    ("```flow\nlane a: A\nlane b: B\nstep c: x\n```\n",
     ["4: unknown lane 'c'; expected one of: a, b"]),
    ("```flow\nlane sync: A\nlane async: B\nstep snyc: x\nstep async: y\n```\n",
     ["4: unknown lane 'snyc'; did you mean 'sync'? expected one of: sync, async"]),
    ("::: review blockng [[checkpoint.py:1]]\nx\n:::\n",
     ["1: unknown severity 'blockng'; did you mean 'blocking'? expected one of: blocking, "
      "suggestion, note"]),
])
def test_one_error_at_the_line_that_is_wrong(text: str, expected: list[str]) -> None:
    _, errors, _ = render(text)
    assert errors == expected


def test_callouts_from_mkdocs_and_github_read_as_callouts() -> None:
    html, errors, _ = render('!!! warning "Before you *merge*"\n    The tag is still wrong.\n\n'
                             "> [!NOTE]\n> Read the sync case first.\n")
    assert errors == []
    assert html == (
        '<aside class="callout callout-aside tone-warning" aria-label="Before you merge">\n'
        '<p class="callout-head">Before you <em>merge</em></p>\n<div class="callout-body">\n'
        "<p>The tag is still wrong.</p>\n</div>\n</aside>\n"
        '<aside class="callout callout-aside tone-info" aria-label="Note">\n'
        '<p class="callout-head">Note</p>\n<div class="callout-body">\n'
        "<p>Read the sync case first.</p>\n</div>\n</aside>\n")


def test_drafts_are_previews_only(project: Project, cli: CLI) -> None:
    project.write("content/acme/widgets/12/later.md",
                  front("Later", "q2", "open", 2).replace("order: 2,", "order: 2, draft: true,")
                  + "Not ready.\n")
    assert cli("build", "--no-search").code == 0
    assert not (project.site / "acme/widgets/12/later").exists()
    for name in ("index.html", "acme/widgets/12/index.html", "feed.xml", "sitemap.xml"):
        assert "later" not in (project.site / name).read_text()
    import dataclasses

    from site_gen.build import render_site
    from site_gen.config import load_config
    preview = render_site(dataclasses.replace(load_config(project.root / "mkdocs.yml"), drafts=True))
    page = preview.outputs["acme/widgets/12/later/index.html"]
    assert isinstance(page, str) and "Draft: this page is shown in previews only" in page
    assert "later" not in str(preview.outputs["feed.xml"])


def test_exclude_docs_keeps_files_out(project: Project, cli: CLI) -> None:
    project.write("content/notes/scratch.md", "Not a page: notes.\n")
    project.write("content/acme/widgets/12/data.bin", "x")
    assert cli("build", "--no-search").code == 1
    project.write("mkdocs.yml", (project.root / "mkdocs.yml").read_text()
                  + "exclude_docs: |\n  notes/\n  *.bin\n")
    built = cli("build", "--no-search")
    assert (built.code, built.err) == (0, "")
    assert not (project.site / "acme/widgets/12/data.bin").exists()


def _free_port() -> tuple[socket.socket, int]:
    held = socket.socket()
    held.bind(("127.0.0.1", 0))
    held.listen()
    return held, held.getsockname()[1]


def test_serve_on_a_busy_or_impossible_port_is_one_line(project: Project, cli: CLI) -> None:
    held, port = _free_port()
    try:
        busy = cli("serve", "--port", str(port))
    finally:
        held.close()
    assert (busy.code, busy.err) == (1, f"cannot serve on 127.0.0.1:{port}: Address already in "
                                        "use; choose another port with --port (0 picks a free "
                                        "one)\n")
    impossible = cli("serve", "--port", "70000")
    assert (impossible.code, impossible.err) == (1, "port 70000 is not a port; expected 0 to "
                                                    "65535 (0 picks a free one)\n")


def test_sigterm_stops_serve_like_ctrl_c(project: Project, tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    serve = subprocess.Popen([sys.executable, "-m", "site_gen", "serve", "--port", "0"],
                             cwd=project.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env)
    assert serve.stdout is not None
    deadline = time.monotonic() + 30
    line = ""
    while "Serving on" not in line and time.monotonic() < deadline:
        line = serve.stdout.readline()
    assert any(tmp_path.glob("site-gen-serve-*"))
    serve.send_signal(signal.SIGTERM)
    out, err = serve.communicate(timeout=30)
    assert (serve.returncode, out.strip().splitlines()[-1]) == (0, "Stopped."), err
    assert "Traceback" not in err
    assert not any(tmp_path.glob("site-gen-serve-*"))  # its temporary folder is gone


def test_a_strict_preview_shows_warnings_as_errors_and_search_says_it_has_no_index(
        project: Project) -> None:
    import urllib.request

    project.write("content/acme/widgets/12/cache-bug.md", front() +
                  "See [it](https://github.com/acme/widgets/blob/main/a.py).\n")
    serve = subprocess.Popen([sys.executable, "-m", "site_gen", "serve", "--strict", "--port", "0"],
                             cwd=project.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    assert serve.stdout is not None
    try:
        line = ""
        deadline = time.monotonic() + 30
        while "Serving on" not in line and time.monotonic() < deadline:
            line = serve.stdout.readline()
        url = line.split()[2]
        page = urllib.request.urlopen(url + "acme/widgets/12/cache-bug/").read().decode()
        assert "<h1>Build failed</h1>" in page
        assert ("content/acme/widgets/12/cache-bug.md:6: unpinned link "
                "&#39;https://github.com/acme/widgets/blob/main/a.py&#39;") in page
        assert "(a warning: strict mode stops on it)" in page
    finally:
        serve.send_signal(signal.SIGTERM)
        serve.communicate(timeout=30)
    plain = subprocess.Popen([sys.executable, "-m", "site_gen", "serve", "--port", "0"],
                             cwd=project.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    assert plain.stdout is not None
    try:
        line = ""
        deadline = time.monotonic() + 30
        while "Serving on" not in line and time.monotonic() < deadline:
            line = plain.stdout.readline()
        search = urllib.request.urlopen(line.split()[2] + "search/").read().decode()
        assert "This preview has no search index: site-gen build makes it." in search
    finally:
        plain.send_signal(signal.SIGTERM)
        plain.communicate(timeout=30)


@pytest.mark.parametrize("when", ["first build", "just after serving"])
def test_a_signal_at_any_moment_stops_serve_cleanly(tmp_path: Path, when: str) -> None:
    """SIGTERM (or Ctrl-C) arriving during the first build, or just as the address is
    printed, stops the preview like one arriving later: no traceback, the port let go."""
    from site_gen.processes import Terminated
    from site_gen.serve import serve

    def rebuild(changed: set[Path] | None) -> list[str]:
        if when == "first build":
            raise Terminated
        return []

    def ready(message: str) -> None:
        raise Terminated

    serve(tmp_path, 0, rebuild, [], ready=ready)  # returns: nothing escapes, nothing hangs


def test_a_child_whose_parent_died_before_it_asked_to_die_with_it_exits() -> None:
    """The kernel signals a child when its parent dies only if it asked before: a child
    started just as its build was killed checks, and exits (no orphan left running)."""
    from site_gen.processes import die_with_parent

    pid = os.fork()
    if pid == 0:  # the child: its "parent" is some other process, as after a reparenting
        die_with_parent(os.getppid() + 1)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 1
