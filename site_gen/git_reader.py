"""Reading a local git checkout through one `git cat-file --batch-command` process, and
checking what a page says against what a commit holds."""

from __future__ import annotations

import bisect
import re
import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path

from .definitions import lines_text
from .names import CONTROL, GITLINK, SHA, SYMLINK

ANSWER = re.compile(r"^([0-9a-f]{40}|[0-9a-f]{64}) (blob|tree|commit|tag) (\d+)\n$")


class SourceReader:
    """Answers what a commit holds; one long-lived git process, results cached."""

    def __init__(self, checkout: Path) -> None:
        self.checkout = checkout
        self._process: subprocess.Popen[bytes] | None = None
        self._commits: dict[str, str | None] = {}
        self._files: dict[tuple[str, str], list[str] | None] = {}
        self._trees: dict[str, tuple[str, ...]] = {}
        self._special: dict[str, dict[str, dict[str, str]]] = {}  # by commit, mode: path's id
        self._beside: dict[Path, SourceReader] = {}
        self._routes: dict[str, SourceReader] = {}  # a submodule's commits: read beside
        self._binary: set[tuple[str, str]] = set()
        self._undecoded: dict[tuple[str, str], bytes] = {}  # binary files' bytes, until asked
        self._ends: dict[tuple[str, str], tuple[str, bool]] = {}  # CRLF or LF; a last line end
        self._changed: dict[tuple[str, str], frozenset[str] | None] = {}
        self._renames: dict[tuple[str, str], dict[str, str]] = {}  # by (base, head): old path by new

    def _git(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            self._process = subprocess.Popen(
                ["git", "-C", str(self.checkout), "cat-file", "--batch-command", "--buffer"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            )
        return self._process

    def _ask(self, command: str) -> tuple[list[str], bytes | None]:
        """git's answer to one command: (object id, type, size) and for `contents` the data;
        ([], None) for anything missing or malformed.

        A name with a control character is never sent (a newline would be a second command),
        and an answer is read by its exact form, so the two sides never fall out of step."""
        return self._ask_many([command])[0]

    def _ask_many(self, commands: list[str]) -> list[tuple[list[str], bytes | None]]:
        """git's answers to `commands`, sent a few at a time before their answers are read
        (one round trip each would wait on git for every file; a few commands fit in the
        pipe, so neither side blocks the other). git answers each run at its `flush`, in one
        write rather than one per answer (`--buffer`: 600 lookups 14.5 ms -> 10.4)."""
        answers: list[tuple[list[str], bytes | None]] = []
        for batch in _batches(commands):
            sent = [c for c in batch if not CONTROL.search(c)]
            if sent:
                git = self._git()
                assert git.stdin
                git.stdin.write(b"".join(c.encode() + b"\n" for c in sent) + b"flush\n")
                git.stdin.flush()
            answers += [self._answer(c) if not CONTROL.search(c) else ([], None) for c in batch]
        return answers

    def _answer(self, command: str) -> tuple[list[str], bytes | None]:
        git = self._git()
        assert git.stdout
        header = ANSWER.match(git.stdout.readline().decode("utf-8", "replace"))
        if header is None:
            return [], None  # "<name> missing" or "ambiguous": one line, nothing follows
        if command.startswith("contents "):
            data = git.stdout.read(int(header[3]) + 1)[:-1]
            return list(header.groups()), data
        return list(header.groups()), None

    def commit(self, sha: str) -> str | None:
        """The full SHA of commit `sha` (abbreviated or full, or a ref), or None if it is not
        there (or an abbreviation names more than one commit: see `candidates`)."""
        if sha in self._routes:
            return sha
        if sha not in self._commits:
            self.commits([sha])
        return self._commits[sha]

    def commits(self, shas: Iterable[str]) -> None:
        """Look up every commit of `shas` not looked up yet, at once (see commit): one
        round trip to git for the heads, bases and pull refs of a site's PRs, not one each."""
        todo = [sha for sha in dict.fromkeys(shas) if sha not in self._commits]
        for sha, (header, _) in zip(todo, self._ask_many([f"info {sha}^{{commit}}" for sha in todo]),
                                    strict=True):
            self._commits[sha] = header[0] if header and header[1] == "commit" else None

    def candidates(self, prefix: str) -> list[str]:
        """Every commit whose SHA starts with `prefix`: one, none, or (ambiguous) several."""
        if not SHA.match(prefix):
            return []
        done = subprocess.run(["git", "-C", str(self.checkout), "rev-parse",
                               f"--disambiguate={prefix}"], capture_output=True, text=True,
                              check=False)
        found = [oid for oid in done.stdout.split() if self._type(oid) == "commit"]
        return sorted(found)

    def _type(self, oid: str) -> str | None:
        header, _ = self._ask(f"info {oid}")
        return header[1] if header else None

    def ambiguity(self, sha: str) -> str | None:
        """'names N commits: a, b' when the abbreviation `sha` is ambiguous here, else None."""
        if self.commit(sha) is not None or len(sha) >= 40:
            return None
        found = self.candidates(sha)
        if len(found) < 2:
            return None
        return f"names {len(found)} commits: {', '.join(c[:12] for c in found)}"

    def lines(self, commit: str, path: str) -> list[str] | None:
        """The lines of `path` at full SHA `commit` (each without its LF or CRLF), or None
        when the file is not there. A character no page may hold shows as its visible
        stand-in (␛ for ESC), so code never brings one into a page; a file not in UTF-8
        is read as Windows-1252 (see _decoded)."""
        if commit in self._routes:
            return self._routes[commit].lines(commit, path)
        key = self._read(commit, path)
        if key in self._undecoded:
            self._decode(key, self._undecoded.pop(key))
        return self._files[key]

    def _read(self, commit: str, path: str) -> tuple[str, str]:
        """Ask git for `path` at `commit` once (kept, a binary file undecoded); its key."""
        key = (commit, path)
        if key not in self._files:
            self._keep(key, *self._ask(f"contents {commit}:{path}"))
        return key

    def read_many(self, commit: str, paths: list[str]) -> None:
        """Read the files `paths` at full SHA `commit` at once (see lines): a claim over a
        tree reads thousands."""
        if commit in self._routes:
            self._routes[commit].read_many(commit, paths)
            return
        todo = [p for p in dict.fromkeys(paths) if (commit, p) not in self._files]
        for path, answer in zip(todo, self._ask_many([f"contents {commit}:{p}" for p in todo]),
                                strict=True):
            self._keep((commit, path), *answer)

    def _keep(self, key: tuple[str, str], header: list[str], data: bytes | None) -> None:
        if data is None or header[1] != "blob":
            self._files[key] = None
            return
        if b"\0" in data[:BINARY_SNIFF]:  # binary: its lines are read only when asked for
            self._binary.add(key)           # (a claim over a tree skips it; a page shows none)
            self._files[key] = []
            self._undecoded[key] = data
            return
        self._decode(key, data)

    def _decode(self, key: tuple[str, str], data: bytes) -> None:
        text = _decoded(data)
        # A CRLF file's line ends are not part of its lines: a page, whose markdown holds
        # none, quotes and changes its lines as those of any file (git: --ignore-cr-at-eol).
        crlf = "\r\n" in text
        self._ends[key] = ("\r\n" if crlf else "\n", text.endswith("\n") or not text)
        if crlf:
            text = text.replace("\r\n", "\n")
        if HIDDEN.search(text):  # rare: translate only then (it is per character)
            text = text.translate(VISIBLE)
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        self._files[key] = lines

    def line_ends(self, commit: str, path: str) -> tuple[str, bool]:
        """How `path` at `commit` ends its lines ("\\r\\n" or "\\n"), and whether its last
        line has one: what a patch to it must write, as `git diff` would."""
        if commit in self._routes:
            return self._routes[commit].line_ends(commit, path)
        self.lines(commit, path)
        return self._ends.get((commit, path), ("\n", True))

    def is_binary(self, commit: str, path: str) -> bool:
        """Whether `path` at `commit` is binary (a NUL byte, as git judges): a page shows
        it as 'binary file, not shown', never its bytes."""
        if commit in self._routes:
            return self._routes[commit].is_binary(commit, path)
        return self._read(commit, path) in self._binary

    def tree(self, commit: str) -> tuple[str, ...]:
        """Every file path at full SHA `commit` (a submodule's folder is none: see entries)."""
        if commit in self._routes:
            return self._routes[commit].tree(commit)
        if commit not in self._trees:
            out = subprocess.run(["git", "-C", str(self.checkout), "ls-tree", "-r", "-z", commit],
                                 capture_output=True, check=False)
            files = []
            special: dict[str, dict[str, str]] = {}
            for entry in out.stdout.split(b"\0"):  # "<mode> <type> <id>\t<path>"
                tab = entry.find(b"\t")
                if tab < 0:
                    continue
                mode = entry[:6].decode()
                if mode != GITLINK:
                    files.append(entry[tab + 1:].decode())
                if mode in (GITLINK, SYMLINK):
                    special.setdefault(mode, {})[entry[tab + 1:].decode()] = \
                        entry[:tab].rpartition(b" ")[2].decode()
            self._trees[commit] = tuple(sorted(files))
            self._special[commit] = special
        return self._trees[commit]

    def entries(self, commit: str, mode: str) -> dict[str, str]:
        """The tree entries of mode `mode` at full SHA `commit` (a submodule's GITLINK, a
        symbolic link's SYMLINK), each path's object id."""
        if commit in self._routes:
            return self._routes[commit].entries(commit, mode)
        self.tree(commit)
        return self._special[commit].get(mode, {})

    def changed_files(self, base: str, head: str) -> frozenset[str] | None:
        """The files that differ between commits `base` and `head`, or None when either is
        not here (a fetch brings each pinned commit's files)."""
        key = (base, head)
        if key not in self._changed:
            full = [c for c in (self.commit(base), self.commit(head)) if c is not None]
            done = subprocess.run(["git", "-C", str(self.checkout), "diff", "--name-only",
                                   "--no-renames", "-z", *full, "--"], capture_output=True,
                                  check=False) if len(full) == 2 else None
            self._changed[key] = (frozenset(p.decode() for p in done.stdout.split(b"\0") if p)
                                  if done is not None and done.returncode == 0 else None)
        return self._changed[key]

    def renamed_from(self, base: str, head: str, path: str) -> str | None:
        """The path at `base` of the file at `path` in `head` when the change renamed it
        (as `git diff --find-renames` finds renames: 50% alike or more), else None."""
        if head in self._routes:
            return self._routes[head].renamed_from(base, head, path)
        key = (base, head)
        if key not in self._renames:
            self._renames[key] = {new: old for status, old, new in changes(self.checkout, base, head)
                                  if status == "R"}
        return self._renames[key].get(path)

    def verify(self, commit: str, path: str, start: int | None, end: int | None,
               quote: str | None, what: str) -> tuple[str | None, str | None]:
        """Check that `path` has lines `start`-`end` at `commit`, holding `quote` if given.

        Returns (the full commit, None), or (None, what is wrong, naming `what`).
        """
        if commit in self._routes:
            return self._routes[commit].verify(commit, path, start, end, quote, what)
        full = self.commit(commit)
        if full is None:
            ambiguous = self.ambiguity(commit)
            if ambiguous:
                return None, f"commit {commit} of {what} is ambiguous: it {ambiguous}; write more digits"
            return None, (f"commit {commit} of {what} is not in the code here; run 'site-gen "
                          "fetch' (it fetches every commit the pages pin)")
        if (start is not None or quote) and self.is_binary(full, path):  # (its bytes left
            # undecoded: read as text only to be refused)
            return None, (f"{what} cites lines of {path}, a binary file at commit {full[:7]} "
                          "(an image, an archive: it has no lines to link, quote or show); "
                          "expected a reference to the file whole, without lines or a quote")
        lines = self.lines(full, path)
        if lines is None:
            return None, f"'{path}' of {what} does not exist at commit {full[:7]}"
        if start is not None and end is not None and end > len(lines):
            count = f"{len(lines)} line" + ("" if len(lines) == 1 else "s")
            return None, (f"{what} points past the end of {path}, which has {count} at commit "
                          f"{full[:7]}")
        if quote:
            shown = lines[start - 1:end] if start is not None else lines
            if not holds_quote(shown, quote):
                actual = " / ".join(s.strip() for s in shown)[:160] if start else "(whole file)"
                near = _quoted_at(lines, quote, start) if start else []
                return None, (f"the quote \"{quote}\" of {what} is not on those lines at commit "
                              f"{full[:7]}; "
                              + (f"they read: {actual}" if actual.strip(" /") else "they are blank")
                              + (f"; it is on {', '.join(near)}" if near else ""))
        return full, None

    def compare(self, commit: str, path: str,
                expected: Iterable[tuple[int, str]]) -> list[tuple[int, str | None]] | None:
        """Each (line number, text) of `expected` that `path` at `commit` does not hold, with
        what it holds there (None: past its end); None when the file is not there at all."""
        if commit in self._routes:
            return self._routes[commit].compare(commit, path, expected)
        lines = self.lines(commit, path)
        if lines is None:
            return None
        found = []
        for number, text in expected:
            actual = lines[number - 1] if 1 <= number <= len(lines) else None
            if actual != text:
                found.append((number, actual))
        return found

    def beside(self, checkout: Path) -> SourceReader:
        """A reader of another repository (a submodule's), closed with this one."""
        if checkout not in self._beside:
            self._beside[checkout] = SourceReader(checkout)
        return self._beside[checkout]

    def route(self, commit: str, reader: SourceReader) -> None:
        """Read full SHA `commit` (a submodule's) with `reader` from now on: what a page
        cites there is shown, checked and indexed as any code is."""
        if reader is not self:
            self._routes[commit] = reader

    def close(self) -> None:
        for other in self._beside.values():
            other.close()
        self._beside.clear()
        if self._process is not None:
            assert self._process.stdin and self._process.stdout
            self._process.stdin.close()
            self._process.wait()
            self._process.stdout.close()
            self._process = None


PIPELINE = 32_768  # bytes of commands sent before their answers are read: half a pipe
BINARY_SNIFF = 8000  # git's own test: a NUL in the first 8,000 bytes makes a file binary
# Characters a page may not hold (XML 1.0's rule, as for every text field), each shown as
# its visible stand-in: C0 controls as their Control Pictures, DEL as ␡, the two
# noncharacters as the replacement character.
VISIBLE = {c: 0x2400 + c for c in [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20)]}
VISIBLE |= {0x7F: 0x2421, 0xFFFE: 0xFFFD, 0xFFFF: 0xFFFD}
HIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


def _batches(commands: list[str]) -> Iterator[list[str]]:
    """`commands` in runs of at most PIPELINE bytes (a run never fills git's input pipe,
    so writing it never waits on git, which may be waiting for its answers to be read)."""
    batch: list[str] = []
    size = 0
    for command in commands:
        if batch and size + len(command) + 1 > PIPELINE:
            yield batch
            batch, size = [], 0
        batch.append(command)
        size += len(command.encode()) + 1
    if batch:
        yield batch


def changes(git_dir: Path, base: str, head: str) -> list[tuple[str, str, str]]:
    """The files that differ between commits `base` and `head` of the repository at
    `git_dir`, as `git diff --find-renames` finds them: (status letter, path at the base,
    path at the head), a renamed file ("R") 50% alike or more; [] when git cannot tell."""
    done = subprocess.run(["git", "-C", str(git_dir), "diff", "--find-renames", "--name-status",
                           "-z", base, head, "--"], capture_output=True, check=False)
    fields = done.stdout.decode("utf-8", "replace").split("\0") if done.returncode == 0 else []
    found, k = [], 0
    while k + 1 < len(fields) and fields[k]:  # a status, then one path, or two (R, C)
        if fields[k][:1] in ("R", "C") and k + 2 < len(fields):
            found.append((fields[k][:1], fields[k + 1], fields[k + 2]))
            k += 3
        else:
            found.append((fields[k][:1], fields[k + 1], fields[k + 1]))
            k += 2
    return found


def _decoded(data: bytes) -> str:
    """The text of a file: UTF-8; else, as code in another encoding is most often written
    (Latin-1 and its Windows superset, as a code host shows it), Windows-1252, the five
    bytes that one leaves undefined read as U+FFFD (never as control characters)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace")


QUOTED_SHOWN = 3  # where else a quote stands: the nearest places, at most this many


def _quoted_at(lines: list[str], quote: str, start: int) -> list[str]:
    """Where else in `lines` `quote` stands, each place in as few lines as hold it, the
    nearest to line `start` first: `L324`, `L12-L13` (an off-by-one, a line that moved)."""
    wanted = _squash(quote)
    kept = [(number, text) for number, line in enumerate(lines, 1) if (text := _squash(line))]
    begins, at = [], 0  # where each line's text begins in them all, joined as _squash joins
    for _, text in kept:
        begins.append(at)
        at += len(text) + 1
    whole = " ".join(text for _, text in kept)
    found: list[tuple[int, int, int]] = []
    while wanted and (at := whole.find(wanted, found[-1][2] + 1 if found else 0)) >= 0:
        first = bisect.bisect_right(begins, at) - 1
        last = bisect.bisect_right(begins, at + len(wanted) - 1) - 1
        found.append((kept[first][0], kept[last][0], at))
    nearest = sorted({(a, b) for a, b, _ in found}, key=lambda span: (abs(span[0] - start), span))
    return [lines_text(a, b) for a, b in nearest[:QUOTED_SHOWN]]


def holds_quote(lines: Iterable[str], quote: str) -> bool:
    """Whether `lines` hold `quote`, as a reference's quote is checked: white space folded,
    so a quote matches however the code was indented or wrapped, and none beside a mark
    that is no letter or digit, so it matches however a formatter spaced the code
    (`'[' . $ip . ']'` quoted where php-cs-fixer then wrote `'['.$ip.']'`, a line repin
    moved as only respaced)."""
    text = "\n".join(lines)
    return _squash(quote) in _squash(text) or _tight(quote) in _tight(text)


def _squash(text: str) -> str:
    """Whitespace folded, so a quote matches however the code was indented or wrapped."""
    return " ".join(text.split())


_LOOSE = re.compile(r"(?<=[^\w\s]) | (?=[^\w\s])")  # a space beside a mark (see _tight)


def _tight(text: str) -> str:
    """`text` with its white space folded (see _squash), and none left beside a mark that
    is no letter or digit: what spacing a formatter may change without changing code."""
    return _LOOSE.sub("", _squash(text))
