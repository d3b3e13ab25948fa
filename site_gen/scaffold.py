"""`site-gen new`: a pull request folder with its facts and a first page showing every part."""

from __future__ import annotations

import re
import subprocess
import unicodedata
from pathlib import Path

from .config import Config
from .errors import ContentError, SiteGenError
from .source import REPO, SHA

TARGET = re.compile(r"^(?P<repo>[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)#(?P<number>[1-9][0-9]*)$")

PR_TEMPLATE = """\
# The facts of {repo}#{number}, written once for all of its pages.
repo: {repo}
number: {number}
title: {title}
head: {head}        # the commit every code link pins
# base: 0123abc    # optional: what [[file:line@base]] pins
state: open         # open, draft, merged or closed
# Full paths of the files the pages cite; a page may use any unique tail of one.
files:
  - path/to/module.py
"""

PAGE_TEMPLATE = """\
---
title: {question_title}
question: {question}
order: 1
status: open                 # open, fixed, proposed or wontfix
updated: 2026-01-01          # the date of your latest change
summary:
  before: What the code did before this pull request.
  this_pr: What the pull request changes.
  status: Where the finding stands, in a sentence.
---

Say what the code does, citing it: [[module.py:12]] links to line 12 of
`path/to/module.py` at the head commit; [[module.py:12-14 "quoted code"]] also checks the
quote when a checkout is configured. Inline badges look like :badge[open].

## Two runs, side by side

```flow
title: What happens in each run
lane a: first run
lane b: second run
step: a step both runs take
step a: what the first run does here
note: why it matters
step b: what the second run does instead
outcome a: wrong: what the first run ends with
outcome b: right: what the second run ends with
source: [[module.py:12]] the line the diagram is about
```

## The fix: proposed, not in the PR

```proposal
title: The change we propose
status: proposed
lands: Where the fix lands. Nothing below is implemented.

file: module.py L12 · function_name
@@ -12,1 +12,1 @@
-old_line = 1
+new_line = 2
```

::: review suggestion [[module.py:12]]
What the reviewer said, in markdown.
:::

::: aside So what
The closing thought: what this means for the people who run the code.
:::
"""


def slugify(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:60].strip("-") or "question"


def head_of(checkout: Path) -> str:
    """The commit checked out in `checkout`."""
    done = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SiteGenError(f"cannot read the head commit of '{checkout}': "
                           f"{(done.stderr.strip() or 'not a git repository')}")
    return done.stdout.strip()


def new_pr(config: Config, target: str, head: str | None, title: str | None,
           question: str | None, checkout: Path | None) -> list[Path]:
    """Create `OWNER/REPO#NUMBER`'s folder; returns the files written. Never overwrites."""
    m = TARGET.match(target)
    if not m or not REPO.match(m["repo"]):
        raise SiteGenError(f"'{target}' is not a pull request; expected OWNER/REPO#NUMBER, "
                           "like NVIDIA-NeMo/RL#4607")
    if head is None:
        if checkout is None:
            raise SiteGenError("the head commit is missing; give --head SHA, or --checkout "
                               "PATH to read it from a local clone")
        head = head_of(checkout)
    if not SHA.match(head.lower()):
        raise SiteGenError(f"--head '{head}' is not a commit SHA; expected 7 to 40 hex digits "
                           "(a branch or tag name would drift)")
    for flag, text in (("--title", title), ("--question", question)):
        bad = next((c for c in text or "" if unicodedata.category(c) in ("Cc", "Zl", "Zp")), None)
        if bad is not None:
            raise SiteGenError(f"{flag} contains the control character U+{ord(bad):04X}; "
                               "expected one line of plain text")
    folder = config.docs_dir / m["repo"] / m["number"]
    question = question or "the first question"
    files = {
        folder / "pr.yml": PR_TEMPLATE.format(repo=m["repo"], number=m["number"], head=head.lower(),
                                              title=_yaml_text(title or "Title of the pull request")),
        folder / f"{slugify(question)}.md": PAGE_TEMPLATE.format(
            question=_yaml_text(question), question_title=_yaml_text(f"Why: {question}")),
    }
    if folder.exists():
        raise ContentError(f"{m['repo']}#{m['number']} already has a folder; site-gen new never "
                           "overwrites (add a page to it by hand)", folder)
    folder.mkdir(parents=True)
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
    return list(files)


def _yaml_text(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)
