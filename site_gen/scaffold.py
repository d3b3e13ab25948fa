"""`site-gen new`: a pull request folder with its facts and a first page showing every part."""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import unicodedata
from pathlib import Path

from .config import Config
from .errors import ContentError, SiteGenError
from .slugs import slugify
from .source import REPO, SHA

TARGET = re.compile(r"^(?P<repo>[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)#(?P<number>[1-9][0-9]*)$")

PR_TEMPLATE = """\
# The facts of {repo}#{number}, written once for all of its pages.
repo: {repo}
number: {number}
title: {title}
head: {head}   # the commit every code link pins
# base: "0123abc"   # optional: what [[file:line@base]] pins
state: open   # open, draft, merged or closed
# Full paths of the files the pages cite; a page may use any unique tail of one.
files:
  - path/to/module.py   # ⟨the files your pages cite⟩
"""

# ⟨…⟩ marks what the author replaces; a build warns (and `check` fails) while one is left.
PAGE_TEMPLATE = """\
---
title: {question_title}
question: {question}
order: {order}
status: unresolved           # unresolved, fixed, proposed or wontfix
updated: {today}          # the date of your latest change
summary:
  before: ⟨What the code did before this pull request.⟩
  this_pr: ⟨What the pull request changes.⟩
  status: ⟨Where the finding stands, in a sentence.⟩
---

⟨Say what the code does, citing it:⟩ [[module.py:12]] links to line 12 of
`path/to/module.py` at the head commit; [[module.py:12-14 "quoted code"]] also checks the
quote against the code. Inline badges look like :badge[unresolved].

## ⟨Two runs, side by side⟩

```flow
title: ⟨What happens in each run⟩
lane a: ⟨first run⟩
lane b: ⟨second run⟩
step: ⟨a step both runs take⟩
step a: ⟨what the first run does here⟩
note: ⟨why it matters⟩
step b: ⟨what the second run does instead⟩
outcome a: wrong: ⟨what the first run ends with⟩
outcome b: right: ⟨what the second run ends with⟩
source: [[module.py:12]] the line the diagram is about
```

## ⟨The fix: proposed, not in the PR⟩

```proposal
title: ⟨The change we propose⟩
status: proposed
lands: ⟨Where the fix lands. Nothing below is implemented.⟩

file: module.py L12 · function_name
@@ -12,1 +12,1 @@
-old_line = 1
+new_line = 2
```

::: review suggestion [[module.py:12]]
⟨What the reviewer said, in markdown.⟩
:::

::: aside So what
⟨The closing thought: what this means for the people who run the code.⟩
:::
"""


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
    for flag, text in (("--title", title), ("--question", question)):
        bad = next((c for c in text or "" if unicodedata.category(c) in ("Cc", "Zl", "Zp")), None)
        if bad is not None:
            raise SiteGenError(f"{flag} contains the control character U+{ord(bad):04X}; "
                               "expected one line of plain text")
    folder = config.docs_dir / m["repo"] / m["number"]
    if folder.exists():
        return [_add_page(folder, m["repo"], m["number"], question)]
    if head is None:
        if checkout is None:
            raise SiteGenError("the head commit is missing; give --head SHA, or --checkout "
                               "PATH to read it from a local clone")
        head = head_of(checkout)
    if not SHA.match(head.lower()):
        raise SiteGenError(f"--head '{head}' is not a commit SHA; expected 7 to 40 hex digits "
                           "(a branch or tag name would drift)")
    question = question or "the first question"
    pr = folder / "pr.yml"
    page = _page(folder, question, 1)
    texts = {pr: PR_TEMPLATE.format(repo=m["repo"], number=m["number"], head=_yaml_text(head.lower()),
                                    title=_yaml_text(title or "⟨Title of the pull request⟩")),
             page[0]: page[1]}
    folder.mkdir(parents=True)
    for path, text in texts.items():
        path.write_text(text, encoding="utf-8")
    return list(texts)


def _add_page(folder: Path, repo: str, number: str, question: str | None) -> Path:
    """One more page on a PR that has a folder: the next `order`, never overwriting."""
    if question is None:
        raise ContentError(f"{repo}#{number} already has a folder; site-gen new never overwrites "
                           "(give --question to add a page to it)", folder)
    orders = [int(m[1]) for md in folder.glob("*.md")
              if (m := re.search(r"^order:\s*(\d{1,9})\s*$", md.read_text(encoding="utf-8"),
                                 re.MULTILINE))]
    path, text = _page(folder, question, max(orders, default=0) + 1)
    if path.exists():
        raise ContentError(f"a page named '{path.name}' already exists; site-gen new never "
                           "overwrites (give another --question)", path)
    path.write_text(text, encoding="utf-8")
    return path


def _page(folder: Path, question: str, order: int) -> tuple[Path, str]:
    text = PAGE_TEMPLATE.format(question=_yaml_text(question), order=order,
                                question_title=_yaml_text(f"⟨A title that answers: {question}⟩"),
                                today=dt.date.today().isoformat())
    return folder / f"{slugify(question, 'question')[:60].strip('-')}.md", text


def _yaml_text(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)
