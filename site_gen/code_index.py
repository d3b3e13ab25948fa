"""What the code of a pinned commit defines and where: every function, class, method and
type with its dotted name (`Class.method.inner`) and lines, for every language ast-grep
parses (tree-sitter grammars built into ast-grep-py, no download), and the matches of an
ast-grep pattern.

What a text defines does not depend on the commit or the path that holds it, so each
text is parsed once per process: a file that a site's PRs left as it was, the same at
every PR's head, is parsed once, not once per PR. What a build learned is kept by commit
and path between builds (index_of), and a page that did not change is not rendered again
at all (the page cache), so a rebuild that changed no code parses nothing.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import re
import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from .filetypes import configured, shared_ending, written_in

VERSION = "5"  # of what is kept of a file between builds: a new one parses everything again
# File endings and the ast-grep language that parses them.
LANGUAGES = {
    "py": "python", "pyi": "python", "js": "javascript", "mjs": "javascript",
    "cjs": "javascript", "jsx": "javascript", "ts": "typescript", "mts": "typescript",
    "tsx": "tsx", "go": "go", "rs": "rust", "java": "java", "c": "c", "h": "c", "cc": "cpp",
    "cpp": "cpp", "cxx": "cpp", "hpp": "cpp", "hh": "cpp", "cu": "cpp", "cuh": "cpp",
    "cs": "csharp", "rb": "ruby", "kt": "kotlin", "kts": "kotlin", "swift": "swift",
    "scala": "scala", "php": "php", "lua": "lua", "sh": "bash", "bash": "bash",
    "hs": "haskell", "ex": "elixir", "exs": "elixir", "dart": "dart", "sol": "solidity",
    "nix": "nix", "tf": "hcl", "hcl": "hcl",
}
# A node that defines a name: its kind says what (function_definition, class_declaration,
# function_item, method_declaration, type_spec, struct_specifier, ...) and it has a name.
DEFINES = re.compile(r"^(?!(?:var|const|let|field|parameter|import|package|local|short_var|"
                     r"use|namespace_use)_)\w*?(?:function|method|class|struct|enum|interface|"
                     r"trait|impl|module|mod|namespace|type|object|protocol|record|"
                     r"constructor|union|contract|library|modifier|event|property)\w*?_(?:"
                     r"definition|declaration|item|spec|specifier)$")
FUNCTION_VALUES = {"arrow_function", "function", "function_expression", "generator_function"}
# Kinds that define a name when their value is a function (JavaScript, TypeScript): a
# declarator (`const handler = () => ...`; or an object, whose methods it names), a class
# field (`handle = (event) => ...`).
HOLDS_A_FUNCTION = frozenset({"variable_declarator", "field_definition", "public_field_definition"})
# A Go method's receiver, `(s *Server[T])`: the type whose method it is (Server.Handle).
_RECEIVER = re.compile(r"\(\s*(?:[A-Za-z_]\w*\s+)?\*?\s*([A-Za-z_]\w*)")
# An interface's methods, an abstract method, `declare function` (TypeScript).
_SIGNATURES = ("method_signature", "abstract_method_signature", "function_signature")
# Kinds that only declare a name (no body), besides a type named without its body
# (`struct s;`, `struct s *p;`): a definition with a body is preferred to them where a
# name names both (see preferred). A C or C++ declaration declares a function only.
DECLARATIONS = frozenset({"declaration", "field_declaration", "method_elem", "method_spec",
                          "function_signature_item", *_SIGNATURES})
_SPECIFIERS = frozenset({"struct_specifier", "class_specifier", "union_specifier",
                         "enum_specifier"})
# Kinds that define a name in one language, which DEFINES does not read: Ruby's classes,
# modules and methods; Haskell's equations, signatures and types; Elixir's `def`,
# `defmodule`, ... (calls: see _elixir_name); Terraform's blocks (see _block_name);
# TypeScript's namespaces. Only by their name field (a Haskell type `a -> b` is a
# `function` too).
OWN_KINDS: dict[str, frozenset[str]] = {
    "ruby": frozenset({"class", "module", "method", "singleton_method"}),
    "haskell": frozenset({"function", "signature", "data_type", "newtype", "class",
                          "type_synomym"}),
    "elixir": frozenset({"call"}),
    "hcl": frozenset({"block"}),
    "c": frozenset({"declaration"}),  # int f(int x); (see DECLARATIONS)
    "cpp": frozenset({"declaration", "field_declaration"}),  # V get(K key) const;
    "go": frozenset({"method_elem", "method_spec"}),  # an interface's methods
    "javascript": frozenset({"pair"}),  # { put: (x) => ... } (see HOLDS_A_FUNCTION)
    "typescript": frozenset({"internal_module", "module", "pair", *_SIGNATURES}),
    "tsx": frozenset({"internal_module", "module", "pair", *_SIGNATURES}),
}
ELIXIR_DEFINES = frozenset({"defmodule", "def", "defp", "defmacro", "defmacrop", "defguard",
                            "defguardp", "defprotocol", "defimpl", "defdelegate"})
# Languages whose code defines no names a page could cite (Nix: expressions all through).
NO_DEFINITIONS = frozenset({"nix"})
SYMBOL_LANGUAGES = sorted(set(LANGUAGES.values()) - NO_DEFINITIONS)  # for messages
# Languages whose grammar gives a definition no name field (see _name_node), and the
# kinds of a node that is a name there (Kotlin: `class Repo`, `fun find`).
NAMED_BY_CHILD = frozenset({"kotlin", "dart"})
NAME_KINDS = frozenset({"identifier", "type_identifier", "simple_identifier"})
# Kinds of clauses of one definition, besides the clauses of one kind side by side (a
# Haskell function's signature, then its equations).
CLAUSE_OF = {"signature": "function"}
# A name as written where it is defined: dotted (Lua's `M.run`, `M:method`; a TypeScript
# namespace `A.B`) or qualified (C++'s `Table::get`), perhaps asking or insisting (Ruby's
# `valid?`, Elixir's `save!`), or a C++ operator (`Vec::operator==`, `operator()`).
_NAME_TEXT = re.compile(r"[A-Za-z_$][\w$]*(?:(?:::|[.:])[A-Za-z_$][\w$]*)*"
                        r"(?:(?<=operator)\s*(?:\(\)|\[\]|[^\s\w()\[\]]+)|[?!])?")


@dataclass(frozen=True)
class Definition:
    """A name the code defines: dotted as it nests, its first and last lines, and whether
    it only declares the name (a prototype, a method of an interface, `struct s;`)."""

    name: str
    start: int
    end: int
    declared: bool = False

    @property
    def lines(self) -> str:
        return f"L{self.start}" if self.end == self.start else f"L{self.start}-L{self.end}"


class ParseError(Exception):
    """A file the parser cannot read as its language (the line of the first problem)."""

    def __init__(self, language: str, line: int) -> None:
        super().__init__(f"does not parse as {language} (first at line {line})")
        self.language, self.line = language, line


def language_of(path: str, languages: dict[str, str] | None = None,
                lines: list[str] | None = None) -> str | None:
    """The ast-grep language of `path`, or None for a file no grammar reads: the language
    mkdocs.yml's `languages` (Pygments lexers by ending) gives it, else the one its code
    `lines` are written in when its ending is shared (a '.h' file: see filetypes), else
    the one its ending says."""
    lexer = configured(path, languages)
    name = path.rsplit("/", 1)[-1]
    ending = name.rpartition(".")[2].lower() if "." in name else ""
    if lexer is None and lines is not None and ending in LANGUAGES and shared_ending(path):
        lexer = written_in(path, "\n".join(lines))  # a '.h' file (not '.m': no grammar)
    grammars = _grammars() if lexer is not None else {}
    if lexer is not None and lexer.lower() in grammars:
        return grammars[lexer.lower()]
    return LANGUAGES.get(ending)  # a lexer Pygments does not list (a plugin's): the ending's


@functools.cache
def _grammars() -> dict[str, str | None]:
    """The ast-grep language of each Pygments lexer, by each of its names ('cuda': cpp):
    that of the first file ending it claims that a grammar reads (an ending languages share
    counts as C's, which parses an Objective-C header's C as before), or None (plain text,
    a language without a grammar)."""
    from pygments.lexers._mapping import LEXERS

    found: dict[str, str | None] = {}
    for _module, _name, aliases, patterns, _types in LEXERS.values():
        endings = [p[2:].lower() for p in patterns if p.startswith("*.") and "*" not in p[2:]]
        grammar = next((LANGUAGES[e] for e in endings if e in LANGUAGES), None)
        for alias in aliases:
            found.setdefault(alias, grammar)
    return found


def defines_names(language: str | None) -> bool:
    """Whether the code index reads the names `language`'s code defines (see index_of)."""
    return language is not None and language not in NO_DEFINITIONS


@functools.lru_cache(maxsize=512)
def _root(language: str, text: str) -> Any:
    from ast_grep_py import SgRoot  # imported when code is parsed: most builds never are

    return SgRoot(text, language).root()


@dataclass(frozen=True)
class Index:
    """What a file defines, and where it first does not parse (the parser reads on past a
    problem, so the definitions around it are still found)."""

    definitions: tuple[Definition, ...]
    broken: ParseError | None = None


def definitions(language: str, lines: list[str]) -> Index:
    """Every definition in the code `lines` of `language`, in file order."""
    return _definitions(language, "\n".join(lines))


@functools.lru_cache(maxsize=2048)
def _definitions(language: str, text: str) -> Index:
    root = _root(language, text)
    broken = _first_error(root)
    return Index(tuple(_walk(root, language)), ParseError(language, broken) if broken else None)


def _walk(root: Any, language: str) -> list[Definition]:
    """Every definition under `root` (code of `language`), in file order (a node before
    what it holds), each dotted with the names of those that hold it, from its first line:
    that of the decorators, attributes or template head that belong to it (see
    _first_line). The clauses of one definition side by side (Haskell's and Elixir's
    equations, a C++ overload after another: see CLAUSE_OF), each with a body or none
    without, are one definition.

    A loop, not a recursion: a tree is as deep as the code nests (`a + b + ... + z` nests
    once a term), deeper than Python recurses."""
    found: list[Definition] = []
    memo = _MAY_DEFINE.setdefault(language, {})
    own = OWN_KINDS.get(language, frozenset())
    leading = LEADING.get(language, frozenset())
    by_child = language in NAMED_BY_CHILD
    last_kind = ""  # of the last definition found
    todo = [(child, "") for child in reversed(root.named_children())]
    while todo:
        node, prefix = todo.pop()
        kind = node.kind()
        may_define = memo.get(kind)
        if may_define is None:
            may_define = memo[kind] = (kind in own or kind in HOLDS_A_FUNCTION
                                       or DEFINES.match(kind) is not None)
        if may_define and (name := _name(node, kind, by_child and kind not in own)) is not None:
            prefix += name
            start, end = _first_line(node, leading), node.range().end.line + 1
            declared = kind in DECLARATIONS or (kind in _SPECIFIERS and node.field("body") is None)
            last = found[-1] if found else None
            if last is not None and last.name == prefix and last.start <= start and \
                    CLAUSE_OF.get(last_kind, last_kind) == kind and last.declared == declared:
                found[-1] = Definition(prefix, last.start, max(end, last.end), declared)
            else:
                found.append(Definition(prefix, start, end, declared))
            last_kind = kind
            prefix += "."
        for child in reversed(node.named_children()):
            todo.append((child, prefix))
    return found


def _first_line(node: Any, leading: frozenset[str]) -> int:
    """The first line of the definition `node`: that of the nodes wrapping it, and of the
    nodes of the `leading` kinds just before it (other tokens between them aside)."""
    first = node
    while (parent := first.parent()) is not None and parent.kind() in WRAPPING:
        first = parent
    before = first.prev() if leading else None  # named or not: `@Component() export class`
    while before is not None:
        if before.is_named():
            if before.kind() not in leading:
                break
            first = before
        before = before.prev()
    return int(first.range().start.line) + 1


# What belongs to the definition it comes before, though the grammar has it beside the
# definition, by language: decorators (TypeScript; JavaScript's before an exported class),
# attributes (Rust); and what wraps a definition: a Python function or class with its
# decorators, a C++ template with its `template <...>` head. (Java, C#, Kotlin, PHP, ...
# hold their annotations inside the definition.)
LEADING = {"typescript": frozenset({"decorator"}), "tsx": frozenset({"decorator"}),
           "javascript": frozenset({"decorator"}), "rust": frozenset({"attribute_item"})}
WRAPPING = frozenset({"decorated_definition", "template_declaration"})


# Whether a node of each kind may define a name, by language (its kind is one DEFINES or
# the language's OWN_KINDS read, or one that may hold a function): a kind is met many
# times in a file.
_MAY_DEFINE: dict[str, dict[str, bool]] = {}


def _name(node: Any, kind: str, unnamed: bool = False) -> str | None:
    """The name the node `node` (of `kind`, one that may define a name) defines, or None;
    with `unnamed`, found without a name field too (see _name_node)."""
    if kind in HOLDS_A_FUNCTION or kind == "pair":
        value = node.field("value")
        if value is None or (value.kind() not in FUNCTION_VALUES and not
                             (value.kind() == "object" and kind == "variable_declarator")):
            return None  # `const api = { get() {...} }` names api.get
    elif kind == "call":
        return _elixir_name(node)
    elif kind == "block":
        return _block_name(node)
    named = node.field("name") or node.field("property") or node.field("key")  # JavaScript
    if named is None and (declarator := node.field("declarator")) is not None:  # C, C++
        function = False  # int *f(int x), not int x
        while (inner := declarator.field("declarator")) is not None:
            function = function or declarator.kind() == "function_declarator"
            declarator = inner
        if kind in ("declaration", "field_declaration") and not function:
            return None  # a variable, a field
        named = declarator
    named = named or node.field("type")  # Rust: impl Type { ... }
    if named is None and unnamed:
        named = _name_node(node)
    text = named.text() if named is not None else ""
    head, operator, tail = text.partition("operator")  # C++: `operator<` is no template
    while "<" in head and (bare := _TEMPLATE_ARGUMENTS.sub("", head)) != head:
        head = bare  # C++: Table<K, std::vector<V>>::get is Table::get
    found = _NAME_TEXT.search(head + operator + tail)
    if found is None:
        return None
    name = _LUA_METHOD.sub(".", found[0])
    receiver = node.field("receiver") if kind == "method_declaration" else None  # Go
    owner = _RECEIVER.match(receiver.text()) if receiver is not None else None
    return f"{owner[1]}.{name}" if owner else name


def _name_node(node: Any) -> Any:
    """For a definition without a name field (in NAMED_BY_CHILD's languages): its first
    child that is a name (Kotlin), or else the name of its first child, if a signature
    (Dart: a method's name is that of its signature's signature)."""
    for _ in range(3):
        children = node.named_children()
        named = next((c for c in children if c.kind() in NAME_KINDS), None)
        if named is not None or not children:
            return named
        node = children[0]
        if "signature" not in node.kind():
            return None
        if (named := node.field("name")) is not None:
            return named
    return None


def _elixir_name(node: Any) -> str | None:
    """`def save!(repo)`, `defmodule Shop.Cart do`: the name of a call that defines one."""
    target = node.field("target")
    if target is None or target.text() not in ELIXIR_DEFINES:
        return None
    arguments = next((c for c in node.named_children() if c.kind() == "arguments"), None)
    first = arguments.named_children() if arguments is not None else []
    found = _NAME_TEXT.match(first[0].text()) if first else None
    return found[0] if found else None


def _block_name(node: Any) -> str | None:
    """A Terraform block by the address it is known by: `resource "aws_s3_bucket" "logs"`
    is aws_s3_bucket.logs, `variable "region"` var.region, `module "vpc"` module.vpc,
    `data "aws_ami" "base"` data.aws_ami.base; a block without labels by its type."""
    parts = node.named_children()
    if not parts or parts[0].kind() != "identifier":
        return None
    labels = [p.text().strip('"') for p in parts[1:] if p.kind() in ("string_lit", "identifier")]
    kind = parts[0].text()
    head = [] if kind == "resource" and labels else ["var" if kind == "variable" else kind]
    return ".".join(head + labels)


_TEMPLATE_ARGUMENTS = re.compile(r"<[^<>]*>")
_LUA_METHOD = re.compile(r"(?<!:):(?!:)")  # M:method (Lua) is M.method
_GO_METHOD = re.compile(r"\(\*?([A-Za-z_]\w*)\)(?=\.)")
_CALLED = re.compile(r"(?<!operator)\([^()]*\)$")  # not C++'s `operator()`


def _first_error(root: Any) -> int | None:
    """The line of the first node the parser could not read (an ERROR node, or a token it
    had to assume: a node of no width), or None. ast-grep finds both (a rule of the kind,
    a rule of the empty text): a walk over every node in Python took most of the index's
    time."""
    empty = next((node for node in root.find_all(regex="^$") if node != root), None)
    return min((int(node.range().start.line) + 1 for node in (root.find(kind="ERROR"), empty)
                if node is not None), default=None)


@dataclass(frozen=True)
class Match:
    """A match of a pattern: its first line, that line of code, and the matched text."""

    line: int
    code: str
    text: str


def matches(language: str, lines: list[str], pattern: str) -> list[Match]:
    """The matches of the ast-grep `pattern` in the code `lines` of `language`, in order.
    Raises ParseError when the file does not parse, ValueError for a pattern ast-grep
    cannot read in `language`."""
    root = _root(language, "\n".join(lines))
    broken = _first_error(root)
    if broken is not None:
        raise ParseError(language, broken)
    try:
        found = root.find_all(pattern=pattern)
    except BaseException as exc:  # ast-grep raises a Rust panic for a pattern it cannot read
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        raise ValueError(str(exc)) from None
    out = []
    for node in found:
        line = int(node.range().start.line) + 1
        out.append(Match(line, lines[line - 1] if line <= len(lines) else "", node.text()))
    return out


def literal_of(pattern: str) -> str | None:
    """The longest word of `pattern` that is not a metavariable: a file without it holds
    no match, so it is not parsed at all."""
    words = [w for w in re.findall(r"\$*[A-Za-z_][\w]*", pattern) if not w.startswith("$")]
    return max(words, key=len) if words else None


class Code(Protocol):
    """Where the lines of a file at a commit come from (the page's code: its git reader)."""

    def lines(self, commit: str, path: str) -> list[str] | None: ...


class Kept(Protocol):
    """Where what was learned from code at a commit is kept between builds (a CodeStore)."""

    def get(self, key: str) -> Any: ...

    def put(self, key: str, value: Any) -> None: ...

    def close(self) -> None: ...


def index_of(code: Code, commit: str, path: str, kept: Kept | None = None,
             languages: dict[str, str] | None = None) -> Index | None:
    """The definitions of `path` at the full SHA `commit` (from `kept` when a build before
    learned them); None when no grammar reads the file or it is not there. `languages`:
    mkdocs.yml's, which may say what language the file is in (see language_of). Asked
    again in this process (the blocks of a page, the pages of a PR ask for the same files),
    the index it gave (a file at a full SHA never changes)."""
    if not defines_names(language_of(path, languages)):
        return None
    chosen = configured(path, languages) or ""
    answers = _UNKEPT if kept is None else _ANSWERS.setdefault(kept, {})
    asked = (commit, path, chosen)
    if asked in answers:
        return answers[asked]
    index = _index_of(code, commit, path, languages, kept)
    if index is not None:  # a file not there yet may be fetched later in a `serve`
        if len(answers) >= ANSWERS_KEPT:  # a long `serve` meets commit after commit
            answers.clear()
        answers[asked] = index
    return index


# index_of's answers in this process by commit, path and configured language, for each
# store it kept them in (so that each store is given them once), and without a store.
_ANSWERS: weakref.WeakKeyDictionary[Kept, dict[tuple[str, str, str], Index]] = \
    weakref.WeakKeyDictionary()
_UNKEPT: dict[tuple[str, str, str], Index] = {}
ANSWERS_KEPT = 4096


def _index_of(code: Code, commit: str, path: str, languages: dict[str, str] | None,
              kept: Kept | None) -> Index | None:
    # The language is the file's own at the commit, but for one mkdocs.yml gives it.
    chosen = configured(path, languages)
    key = f"definitions\n{VERSION}\n{commit}\n{path}" + (f"\n{chosen}" if chosen else "")
    held = kept.get(key) if kept is not None else None
    if isinstance(held, dict):
        with contextlib.suppress(KeyError, TypeError, ValueError):
            broken = held["broken"]
            return Index(tuple(Definition(str(n), int(a), int(b), bool(d))
                               for n, a, b, d in held["defs"]),
                         ParseError(str(held["language"]), int(broken)) if broken else None)
    lines = code.lines(commit, path)
    if lines is None:
        return None
    language = language_of(path, languages, lines)
    if language is None or not defines_names(language):
        return None
    index = definitions(language, lines)
    if kept is not None:
        kept.put(key, {"defs": [[d.name, d.start, d.end, d.declared] for d in index.definitions],
                       "broken": index.broken.line if index.broken else None,
                       "language": language})
    return index


def named(defs: Iterable[Definition], symbol: str) -> list[Definition]:
    """The definitions whose dotted name is `symbol` or ends with '.' + `symbol`; a '::'
    reads as a '.' (C++: `Table::get` names get, defined in the class Table or out of it),
    Go's `(*Conn).Close` as `Conn.Close`, and a call's parentheses are left out
    (`save_checkpoint()`, `put(K key)` name save_checkpoint and put)."""
    wanted = _CALLED.sub("", _GO_METHOD.sub(r"\1", symbol.strip())).replace("::", ".")
    return [d for d in defs
            if (name := d.name.replace("::", ".")) == wanted or name.endswith("." + wanted)]


def preferred(found: list[Definition]) -> list[Definition]:
    """Of the definitions a name names, those with a body when there are any: a C++ method
    declared in its class and defined after it, a `struct s` used before its definition."""
    bodies = [d for d in found if not d.declared]
    return bodies or found


def enclosing(defs: Iterable[Definition], start: int, end: int) -> Definition | None:
    """The innermost definition that holds lines `start` to `end`, if any."""
    holding = [d for d in defs if d.start <= start and end <= d.end]
    return min(holding, key=lambda d: (d.end - d.start, -d.start)) if holding else None


def nearest_names(defs: Iterable[Definition], symbol: str, count: int = 3) -> str:
    """'a (L1-L9), b (L12)': the `count` definitions named most like `symbol`."""
    tail = symbol.rsplit(".", 1)[-1]
    def likeness(d: Definition) -> tuple[float, float, int]:
        own = d.name.rsplit(".", 1)[-1]
        return (-difflib.SequenceMatcher(None, tail, own).ratio(),
                -difflib.SequenceMatcher(None, symbol, d.name).ratio(), d.start)

    ranked = sorted(defs, key=likeness)
    return ", ".join(f"{d.name} ({d.lines})" for d in ranked[:count]) or "none"
