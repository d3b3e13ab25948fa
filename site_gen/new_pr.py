"""`site-gen new`: a pull request folder with its facts and a first page showing every part."""

from __future__ import annotations

import datetime as dt
import logging
import re
import subprocess
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .code_index import index_of, language_of
from .config import Config, git_dir
from .definitions import Definition, citable, enclosing, named_around
from .errors import ContentError, SiteGenError
from .fetch import local_clone, revisions_of
from .git_reader import SourceReader
from .names import REPO, SHA, as_quote, path_writing
from .slugs import slugify
from .yamlfile import load_yaml

log = logging.getLogger(__name__)

TARGET = re.compile(r"^(?P<repo>[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)#(?P<number>[1-9][0-9]*)$")

PR_TEMPLATE = """\
# The facts of {repo}#{number}, written once for all of its pages.
repo: {repo}
number: {number}
title: {title}
head: {head}   # the commit every code link pins
{base}
state: open   # open, draft, merged or closed
# Full paths of the files the pages cite; a page may use any unique tail of one.
files:
{files}"""
NO_FILES = "  - path/to/module.py   # ⟨the files your pages cite⟩\n"

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

⟨Say what the code does, citing it:⟩ [[{cite}:{line}]] links to line {line} of
`{path}` at the head commit; [[{cite}:{line} "{quote_ref}"]] also checks the
quote against the code, and [[{cite}::{symbol_ref}]] links a whole definition by its
name. Inline badges look like :badge[unresolved]. A count the argument rests on is
checked too: [[claim:example]] line(s) hold the quote.

```claim
id: example
says: ⟨What the code shows, in a sentence.⟩
count: {count}
text: {quote}
in: {in}
```

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
source: [[{cite}:{line}]] {quote}
```

## ⟨The fix: proposed, not in the PR⟩

```proposal
title: ⟨The change we propose⟩
status: proposed
lands: ⟨Where the fix lands. Nothing below is implemented.⟩

file: {cite} L{line}{hunk_symbol}
@@ -{line},1 +{line},1 @@
-{old}
+⟨the line as you would write it⟩
```

::: review suggestion [[{cite}:{line}]]
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


def pinned(flag: str, given: str, code: Path | None) -> str:
    """The commit SHA `given` for `flag`: for a revision (`main~1`, a tag, `HEAD`), the SHA
    of the commit it names in the clone `code` now, since the name would drift and the
    commit does not; an abbreviated SHA the clone holds, written whole (as a permalink
    is); any other SHA as written (a commit not fetched yet)."""
    done = subprocess.run(["git", "-C", str(code), "rev-parse", "--verify", "--quiet",
                           "--end-of-options", f"{given}^{{commit}}"],
                          capture_output=True, text=True, check=False) if code else None
    if SHA.match(given.lower()):
        whole = done.stdout.strip() if done is not None and done.returncode == 0 else ""
        return whole if whole.startswith(given.lower()) else given.lower()
    if done is None:
        raise SiteGenError(f"{flag} '{given}' is not a commit SHA, and no clone is here to "
                           "read it in (--checkout, or site_gen.sources); expected 7 to 40 hex "
                           "digits")
    if done.returncode != 0:
        raise SiteGenError(f"{flag} '{given}' names no commit of {code}; expected 7 to 40 hex "
                           "digits, or a revision of it such as main~1")
    sha = done.stdout.strip()
    log.info("%s %s is commit %s", flag, given, sha[:10])
    return sha


@dataclass(frozen=True)
class Example:
    """The line of code a new page's examples cite: a real line of the PR when its code is
    here (so every example checks), else a stand-in the build cannot check."""

    path: str  # the file's path in the repository, as pr.yml lists it
    line: int
    text: str | None = None  # the line at the head, when the code is here
    cite: str = ""  # how the page names the file: the shortest tail pr.yml makes unique
    symbol: str | None = None  # the definition that holds the line, when the code is here
    any_symbol: str | None = None  # a definition of the file, for a symbol reference
    count: int = 1  # the lines of the file that hold the quote
    quote: str | None = None  # what the examples quote of the line: its start, when long

    def fields(self) -> dict[str, object]:
        quote = (self.quote or self.text.strip()) if self.text is not None else "quoted code"
        if self.text is None:  # a stand-in: nothing to check the symbol against
            hunk_symbol = " · ⟨the function it changes⟩"
        else:
            hunk_symbol = f" · {self.symbol}" if self.symbol else ""
        return {"cite": path_writing(self.cite or self.path), "line": self.line,
                "path": self.path, "in": path_writing(self.path),
                "quote": quote, "quote_ref": as_quote(quote),
                "old": self.text if self.text is not None else "old_line = 1",
                "hunk_symbol": hunk_symbol, "count": self.count,
                "symbol_ref": self.any_symbol or "⟨function⟩"}


STAND_IN = Example("path/to/module.py", 12, None, "module.py")


NO_BASE = '# base: "0123abc"   # optional: where the PR starts from ([[file:line@base]], pr-diff)'
BASE = "base: {sha}   # where the PR starts from ([[file:line@base]], pr-diff)"


def new_pr(config: Config, target: str, head: str | None, title: str | None,
           question: str | None, checkout: Path | None, base: str | None = None) -> list[Path]:
    """Create `OWNER/REPO#NUMBER`'s folder; returns the files written. Never overwrites.
    With `base` (the commit the PR's own change starts from, as the code host shows it),
    `files` lists every file the PR changes, not only what its head commit changes."""
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
    # the code: the clone given, else the one `sources:` names (all of its history, so
    # what the PR changes can be told before a fetch), else what was fetched
    code = checkout or local_clone(config, m["repo"]) or git_dir(config, m["repo"])
    clone = checkout or revisions_of(config, m["repo"])  # where a revision is read
    base = pinned("--base", base, clone) if base is not None else None
    if folder.exists():
        if base is not None:
            raise ContentError(f"{m['repo']}#{m['number']} already has a folder; site-gen new "
                               "never overwrites (write its base in pr.yml: 'base: SHA')",
                               folder / "pr.yml")
        return _add_page(folder, m["repo"], m["number"], question, code, config.languages)
    if head is None:
        if checkout is None:
            raise SiteGenError("the head commit is missing; give --head SHA, or --checkout "
                               "PATH to read it from a local clone")
        head = head_of(checkout)
    head = pinned("--head", head, clone)
    if code and base:
        _check_base(code, head, base)
    question = question or "the first question"
    # from the base when the code has it, else what the head commit changes
    changed = (base and changed_files(code, head, base) or
               changed_files(code, head, None)) if code else []
    example = (find_example(code, head, sorted(changed, key=is_test_or_example),
                            languages=config.languages, base=base)
               or _example_beside(code, head, config.languages)
               if code and changed else None)
    files = "".join(f"  - {_yaml_text(path)}\n" for path in changed) if changed else NO_FILES
    pr = folder / "pr.yml"
    page = _page(folder, question, 1, example or STAND_IN)
    texts = {pr: PR_TEMPLATE.format(repo=m["repo"], number=m["number"], head=_yaml_text(head),
                                    title=_yaml_text(title or "⟨Title of the pull request⟩"),
                                    files=files,
                                    base=BASE.format(sha=_yaml_text(base)) if base else NO_BASE),
             page[0]: page[1]}
    folder.mkdir(parents=True)
    for path, text in texts.items():
        path.write_text(text, encoding="utf-8")
    return list(texts)


def _add_page(folder: Path, repo: str, number: str, question: str | None,
              code: Path | None, languages: dict[str, str]) -> list[Path]:
    """One more page on a PR that has a folder: the next `order`, never overwriting; its
    examples cite a file of the PR's own (a real line of it when the code is here). A
    pr.yml whose `files:` is still new's stand-in gets the files the PR changes."""
    if question is None:
        raise ContentError(f"{repo}#{number} already has a folder; site-gen new never overwrites "
                           "(give --question to add a page to it)", folder)
    orders = [int(m[1]) for md in folder.glob("*.md")
              if (m := re.search(r"^order:\s*(\d{1,9})\s*(?:#.*)?$", md.read_text(encoding="utf-8"),
                                 re.MULTILINE))]
    target = _page_path(folder, question)
    if target.exists():
        raise ContentError(f"a page named '{target.name}' already exists; site-gen new never "
                           "overwrites (give another --question)", target)
    filled = _fill_files(folder / "pr.yml", code)
    path, text = _page(folder, question, max(orders, default=0) + 1,
                       _example_of(folder, code, languages))
    path.write_text(text, encoding="utf-8")
    return [path, *filled]


def _fill_files(pr: Path, code: Path | None) -> list[Path]:
    """Replace the stand-in `files:` entry of `pr` with the files the PR changes, once the
    code is here; the pr.yml when it was rewritten."""
    try:
        text = pr.read_text(encoding="utf-8")
        facts = load_yaml(text, pr)
    except (OSError, UnicodeDecodeError, ContentError):
        return []
    head = str(facts.get("head") or "") if isinstance(facts, dict) else ""
    if NO_FILES not in text or code is None or not SHA.match(head):
        return []
    changed = changed_files(code, head, str(facts.get("base") or "") or None)
    if not changed:
        return []
    replace_text(pr, text.replace(NO_FILES, "".join(f"  - {_yaml_text(p)}\n" for p in changed)))
    return [pr]


def replace_text(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file and a rename: all or nothing."""
    temporary = path.with_name(f".{path.name}.new")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)


def _example_of(folder: Path, code: Path | None, languages: dict[str, str]) -> Example:
    """The example line for another page of the PR in `folder`, from its pr.yml."""
    try:
        facts = load_yaml((folder / "pr.yml").read_text(encoding="utf-8"), folder / "pr.yml")
    except (OSError, UnicodeDecodeError, ContentError):
        return STAND_IN  # the build reports a broken pr.yml at its line
    listed = facts.get("files") if isinstance(facts, dict) else None
    files = [f for f in listed if isinstance(f, str)] if isinstance(listed, list) else []
    head, base = (str(facts.get(k) or "") for k in ("head", "base"))
    if not files or files == [STAND_IN.path]:
        return STAND_IN
    if code is not None and SHA.match(head):
        changed = set(changed_files(code, head, base or None))
        found = find_example(code, head, [f for f in sorted(files, key=is_test_or_example) if f in changed]
                             + files, files,
                             languages, base or None)
        found = found or _example_beside(code, head, languages)
        if found is not None:
            return found
    return Example(files[0], STAND_IN.line, None, shortest_tail(files[0], files))


BESIDE = 50  # how many of the head's other files `_example_beside` looks in


def _example_beside(code: Path, head: str, languages: dict[str, str]) -> Example | None:
    """An example line from the head's other files, when no file the PR changes has one
    (it changes an image, or only deletes): the examples then build, citing code the PR
    leaves as it is, instead of a stand-in the build reports. The files nearest the top
    of the tree first, tests and examples last."""
    reader = SourceReader(code)
    try:
        commit = reader.commit(head)
        tree = reader.tree(commit) if commit else ()
    finally:
        reader.close()
    near = sorted(tree, key=lambda path: (is_test_or_example(path), path.count("/"), path))
    return find_example(code, head, near[:BESIDE], languages=languages) if near else None


def changed_files(code: Path, head: str, base: str | None) -> list[str]:
    """The files the PR changes, as far as the code tells: base...head when the base is
    known, else what the head commit itself changes; [] when the commits are not here.
    A file it removes too (a page cites it `@base`, a pr-diff shows it removed); a file it
    renames by its new name."""
    done = subprocess.run(["git", "-C", str(code), "diff", "--name-status", "--find-renames",
                           "--diff-filter=AMRD", *_compared(code, head, base), "--"],
                          capture_output=True, text=True, check=False)
    rows = [line.split("\t") for line in done.stdout.splitlines() if "\t" in line]
    return sorted({row[-1] for row in rows}) if done.returncode == 0 else []


def _compared(code: Path, head: str, base: str | None) -> list[str]:
    """What git diffs for the PR's change: base...head, else the head commit against its
    parent, or against nothing when it is the first commit (not where a shallow fetch
    stops: there its parent is only not here, and nothing is compared)."""
    if base or _parents(code, head) != []:
        return [f"{base or head + '^'}...{head}"]
    shallow = subprocess.run(["git", "-C", str(code), "rev-parse", "--git-path", "shallow"],
                             capture_output=True, text=True, check=False).stdout.strip()
    cut = Path(code, shallow).read_text().split() if shallow and Path(code, shallow).is_file() else []
    full = subprocess.run(["git", "-C", str(code), "rev-parse", "--verify", "--quiet",
                           "--end-of-options", f"{head}^{{commit}}"],
                          capture_output=True, text=True, check=False).stdout.strip()
    if full in cut:
        return [f"{head}^...{head}"]  # fails, as the parent is not here
    empty = subprocess.run(["git", "-C", str(code), "hash-object", "-t", "tree", "--stdin"],
                           input="", capture_output=True, text=True, check=False).stdout.strip()
    return [empty, head]


def _check_base(code: Path, head: str, base: str) -> None:
    """`base` must be a commit `head` descends from, where `code` has both: a later commit
    (the two swapped, say) gave a PR that changes nothing, its sites all 'not changed by
    this PR'."""
    def descends(commit: str, of: str) -> bool | None:
        done = subprocess.run(["git", "-C", str(code), "merge-base", "--is-ancestor",
                               "--end-of-options", of, commit], capture_output=True, check=False)
        return {0: True, 1: False}.get(done.returncode)  # None: a commit is not here

    if descends(head, base) is not False:
        return
    how = ("it descends from the head (were --head and --base swapped?)"
           if descends(base, head) else "the two are on histories apart")
    raise SiteGenError(f"--base {base[:10]} is no commit the head {head[:10]} descends from: "
                       f"{how}; expected the commit the PR's change starts from ('git "
                       "merge-base <head> origin/main' in a clone)")


def _parents(code: Path, head: str) -> list[str] | None:
    """The parents of `head` as `code` has them, or None when it has no such commit."""
    done = subprocess.run(["git", "-C", str(code), "rev-list", "--parents", "-n", "1",
                           "--end-of-options", head],
                          capture_output=True, text=True, check=False)
    return done.stdout.split()[1:] if done.returncode == 0 else None


def changed_lines(code: Path, compared: list[str], path: str) -> set[int]:
    """The lines of `path` at the head the PR adds or changes, `compared` (see _compared)
    giving what git diffs; none when the commits are not here."""
    done = subprocess.run(["git", "-C", str(code), "diff", "-U0", "--no-renames", "--no-color",
                           *compared, "--", path],
                          capture_output=True, text=True, check=False)
    found: set[int] = set()
    for m in HUNK_AT.finditer(done.stdout if done.returncode == 0 else ""):
        start, count = int(m[1]), int(m[2] or 1)
        found.update(range(start, start + count))
    return found


HUNK_AT = re.compile(r"^@@ -\S+ \+(\d+)(?:,(\d+))? @@", re.M)


def find_example(code: Path, head: str, candidates: list[str], files: list[str] | None = None,
                 languages: dict[str, str] | None = None, base: str | None = None) -> Example | None:
    """The first line that reads well as a quote inside a definition of the first
    candidate file that has one (code: its examples then name a real function), else the
    first such line of the first candidate file (a changelog, a README); in each file, the
    lines the PR changes first (from `base`, else the head's parent), so the examples cite
    its change; `languages`: mkdocs.yml's, which may say what language a file is in."""
    reader = SourceReader(code)
    try:
        commit = reader.commit(head)
        if commit is None:
            return None
        first: Example | None = None
        compared = _compared(code, commit, base)  # what the PR changes: once for every file
        for path in dict.fromkeys(candidates):
            if reader.is_binary(commit, path):
                continue  # an image, a font: no line to cite (its bytes read as text would)
            lines = reader.lines(commit, path) or []
            changed = changed_lines(code, compared, path)
            quotable = sorted(((number, text) for number, text in enumerate(lines, 1)
                               if _quote_of(text) and "⟨" not in text),
                              key=lambda line: line[0] not in changed)
            if not quotable:
                continue
            index = index_of(reader, commit, path, languages=languages)
            defs = index.definitions if index else ()
            held = leaf = None  # the first line in a definition; in a function's body
            leaves: dict[Definition, bool] = {}
            for number, text in quotable:
                if held and held[0] in changed and number not in changed:
                    break  # a line the PR changes, in a definition, before any it does not
                inner = enclosing(defs, number, number)
                if inner is None:
                    continue
                held = held or (number, text, inner)
                if inner not in leaves:  # not a namespace or a class around functions, nor
                    # a one-line declaration (`mod listener;`, `namespace X;`)
                    leaves[inner] = inner.end > inner.start and not inner.declared and not any(
                        d != inner and inner.start <= d.start and d.end <= inner.end for d in defs)
                if leaves[inner]:
                    leaf = (number, text, inner)
                    break
            number, text, inner = leaf or held or (*quotable[0], None)
            quote = _quote_of(text) or text.strip()
            named, any_named = _names_near(defs, number, lines, language_of(path, languages, lines))
            example = Example(path, number, text, shortest_tail(path, files or candidates),
                              named, any_named,
                              sum(quote in line for line in lines), quote)
            if held:
                return example
            first = first or example
        return first
    finally:
        reader.close()


# A test's or an example's path: in a folder of tests or examples (tests/, spec/, java-test/,
# e2e_tests/, examples/), or named as a test (test_x.py, x_test.go, x.test.ts, x.spec.js,
# XTest.java, XTests.cs, x_spec.rb).
TEST_PATH = re.compile(r"(?:^|/)(?:[Tt]ests?|__tests__|[Ss]pecs?|testing|testdata|[\w.-]*[-_]tests?"
                       r"|examples?|samples?)/"
                       r"|(?:^|/)test_[^/]*$|[_.](?:test|spec)\.[^/.]+$|[A-Za-z0-9]Tests?\.[^/.]+$")


def is_test_or_example(path: str) -> bool:
    """Whether `path` is a test's or an example's: the examples of `new` cite the code the
    PR changes before them (retrofit's RetrofitTest.java sorts before Retrofit.java,
    terraform-aws-vpc's examples/complete/main.tf before main.tf)."""
    return TEST_PATH.search(path) is not None


def _names_near(defs: Sequence[Definition], number: int, lines: Sequence[str],
                language: str | None) -> tuple[str | None, str | None]:
    """How the examples name what holds line `number` (see definitions.named_around); and
    a definition of the file to cite by name, that one where there is one."""
    named = named_around(defs, number, number, lines, language)
    return named, named or next((c for d in defs if (c := citable(defs, d, lines, language))),
                                None)


# A line that reads well quoted: a few words, nothing that ends a reference or a code span
# (a `"` is escaped in a reference's quote: a TOML or JSON file's lines hold them).
QUOTABLE = re.compile(r"^[^\s\[\]`#][^\[\]`]{4,68}$")


def _quote_of(line: str) -> str | None:
    """What an example quotes of `line`: the line, when it reads well whole (QUOTABLE);
    of a longer one, its start up to a space or a `(`, `.`, `,` or `;` (Alamofire's
    `return url.deletingLastPathComponent()`, of 71 characters), as a quote need not be
    the whole line; None when neither reads well."""
    text = line.strip()
    if QUOTABLE.match(text):
        return text
    if len(text) <= 68:
        return None
    ends = [i for i in range(20, 69) if text[i] in " (.,;"]
    start = text[:ends[-1]].rstrip() if ends else ""
    return start if QUOTABLE.match(start) else None


def shortest_tail(path: str, files: list[str]) -> str:
    """The shortest tail of `path` (whole segments) that no other file of `files` ends with."""
    parts = path.split("/")
    for size in range(1, len(parts) + 1):
        tail = "/".join(parts[-size:])
        if not any(f != path and (f == tail or f.endswith("/" + tail)) for f in files):
            return tail
    return path


def _page(folder: Path, question: str, order: int, example: Example) -> tuple[Path, str]:
    text = PAGE_TEMPLATE.format(question=_yaml_text(question), order=order,
                                question_title=_yaml_text(f"⟨A title that answers: {question}⟩"),
                                today=dt.date.today().isoformat(), **example.fields())
    return _page_path(folder, question), text


def _page_path(folder: Path, question: str) -> Path:
    return folder / f"{slugify(question, 'question')[:60].strip('-')}.md"


def _yaml_text(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)
