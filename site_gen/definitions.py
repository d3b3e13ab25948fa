"""What code defines, language by language: every function, class, method and type, with
its dotted name (`Class.method.inner`) and lines, read from the tree ast-grep parses; and
how a name a page writes finds them (named, preferred, enclosing).

Each grammar says it its own way: most by kinds like function_definition or
class_declaration with a name field (DEFINES), some by kinds of their own (OWN_KINDS: Ruby's
`method`, Elixir's `def` calls, Terraform's blocks, Dart's mixins), some with the name in a
child (NAMED_BY_CHILD: Kotlin, Dart). What belongs to a definition beside it (decorators,
attributes, a template head) starts it; the clauses of one definition are one.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

# A node that defines a name: its kind says what (function_definition, class_declaration,
# function_item, method_declaration, type_spec, struct_specifier, ...) and it has a name;
# not a parameter's or a tuple's (Go's `[T any]`, Swift's `(inout URLRequest)`).
DEFINES = re.compile(r"^(?!(?:var|const|let|field|parameter|import|package|local|short_var|"
                     r"use|namespace_use)_)(?!\w*(?:parameter|tuple))"
                     r"\w*?(?:function|method|class|struct|enum|interface|"
                     r"trait|impl|module|mod|namespace|type|object|protocol|record|"
                     r"constructor|union|contract|library|modifier|event|property|macro)\w*?_(?:"
                     r"definition|declaration|item|spec|specifier)$")
FUNCTION_VALUES = {"arrow_function", "function", "function_expression", "generator_function",
                   "function_definition",  # Lua's `function() ... end`
                   "func_literal"}  # Go's, a package's `var newClient = func(...) {...}`
# What names the functions it holds by its own name (`api.get`, Lua's `M.run` in a table),
# and the kinds that name one so (`const api = {...}`, Lua's `local M = {...}`).
HOLDERS = frozenset({"object", "table_constructor"})
_HOLDS_IN_LUA = ("assignment_statement", "field")
# (a class's field too: `bits = { read() {...} }` names Adapters.bits.read, as the
# object a constant holds does)
_DECLARES = ("variable_declarator", "assignment_statement", "field_definition",
             "public_field_definition")
# Kinds that define a name when their value is a function (JavaScript, TypeScript): a
# declarator (`const handler = () => ...`; or an object, whose methods it names), a class
# field (`handle = (event) => ...`).
HOLDS_A_FUNCTION = frozenset({"variable_declarator", "field_definition", "public_field_definition",
                              "var_spec"})  # Go's, at a package's level (see _name)
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
# Kinds that add to a name defined elsewhere, or say where it is defined, like the
# declarations above: a Rust `impl` (of a type, or of a trait for it), a Swift `extension`
# (see _declares); and, without a body, a C type named (`struct s;`) or a Rust `mod m;`.
ELSEWHERE = frozenset({"impl_item"})
# Where a C or C++ type named without its body declares it (see _only_used): `struct s;`
# in a file, a namespace or a class, or beginning a declaration or a typedef.
_DECLARING = frozenset({"translation_unit", "declaration_list", "field_declaration_list",
                        "declaration", "type_definition", "preproc_if", "preproc_ifdef",
                        "preproc_else", "preproc_elif", "preproc_elifdef", "linkage_specification"})
_BODY_ELSEWHERE = _SPECIFIERS | {"mod_item"}
_MACROS = ("preproc_def", "preproc_function_def")  # C, C++: #define MAX(a, b) ...
# JavaScript's functions given a name where they are made: `exports.run = () => ...`,
# `module.exports = function handler() {...}` (its own name, `handler`, held by it).
_ASSIGNED = ("assignment_expression", "function_expression")
# Kinds that define a name in one language, which DEFINES does not read: Ruby's classes,
# modules and methods; Haskell's equations, signatures and types; Elixir's `def`,
# `defmodule`, ... (calls: see _elixir_name); Terraform's blocks (see _block_name);
# TypeScript's namespaces; Dart's mixins, extensions, typedefs and what a class declares
# without a body (an abstract method, a constructor: a `declaration` that holds a
# signature, not a field). Their names are looked for in a child only in NAMED_BY_CHILD's
# languages (see _child_name): a Haskell type `a -> b` is a `function` too, without a name.
OWN_KINDS: dict[str, frozenset[str]] = {
    "ruby": frozenset({"class", "module", "method", "singleton_method"}),
    "haskell": frozenset({"function", "bind", "signature", "data_type", "newtype", "class",
                          "type_synonym", "instance"}),  # an instance: see _instance_name
    "elixir": frozenset({"call"}),
    "hcl": frozenset({"block", "attribute"}),  # an attribute: a `locals` value (_local_name)
    "c": frozenset({"declaration", *_MACROS}),  # int f(int x); (see DECLARATIONS)
    "cpp": frozenset({"declaration", "field_declaration", *_MACROS}),  # V get(K key) const;
    "go": frozenset({"method_elem", "method_spec",  # an interface's methods
                     "type_alias"}),  # type ID = string
    "javascript": frozenset({"pair", *_ASSIGNED}),  # { put: (x) => ... } (HOLDS_A_FUNCTION)
    "typescript": frozenset({"internal_module", "module", "pair", *_SIGNATURES, *_ASSIGNED}),
    "tsx": frozenset({"internal_module", "module", "pair", *_SIGNATURES, *_ASSIGNED}),
    "lua": frozenset({"assignment_statement", "field"}),  # M.run = function ... end
    "swift": frozenset({"init_declaration", "deinit_declaration", "subscript_declaration"}),
    "java": frozenset({"enum_constant"}),  # with a body of its own (see _CONSTANTS)
    "kotlin": frozenset({"secondary_constructor", "enum_entry"}),
    "csharp": frozenset({"operator_declaration",  # public static A operator +(A a, A b)
                         "local_function_statement",  # a function inside a method's body
                         "indexer_declaration"}),  # public T this[int i] { get; }
    "solidity": frozenset({"error_declaration", "fallback_receive_definition"}),
    "dart": frozenset({"declaration", "mixin_declaration", "extension_declaration",
                       "extension_type_declaration", "type_alias"}),
    "scala": frozenset({"val_definition", "var_definition"}),  # a member (see LOCALS)
}
# Definitions named by their keyword, as their language's documentation names them
# (Swift's `A.deinit`, `A.subscript`; Kotlin's and Solidity's `A.constructor`; Swift's
# `init` has a name; C#'s indexer as it is declared, `A.this[]`); None: by the keyword
# they start with (Solidity's `fallback`, `receive`).
KEYWORD_NAMED: dict[str, str | None] = {
    "deinit_declaration": "deinit", "subscript_declaration": "subscript",
    "secondary_constructor": "constructor", "constructor_definition": "constructor",
    "fallback_receive_definition": None, "indexer_declaration": "this[]"}  # C#: `this[int i]`
ELIXIR_DEFINES = frozenset({"defmodule", "def", "defp", "defmacro", "defmacrop", "defguard",
                            "defguardp", "defprotocol", "defimpl", "defdelegate"})
ELIXIR_FUNCTIONS = ELIXIR_DEFINES - {"defmodule", "defprotocol", "defimpl"}  # have an arity
# Languages whose grammar gives a definition no name field (see _child_name), and the
# kinds of a node that is a name there (Kotlin: `class Repo`, `fun find`).
NAMED_BY_CHILD = frozenset({"kotlin", "dart"})
NAME_KINDS = frozenset({"identifier", "type_identifier", "simple_identifier"})
# An enum's constant is a definition where it has a body of its own, as a class has
# (Java's and Kotlin's `PLUS { int apply(...) {...} }`): its methods are `Op.PLUS.apply`,
# not clauses of the `Op.apply` they override; a constant without one names no code.
_CONSTANTS = frozenset({"enum_constant", "enum_entry"})
# Kinds of clauses of one definition, besides the clauses of one kind side by side (a
# Haskell function's signature, then its equations).
CLAUSE_OF = {"signature": ("function", "bind")}  # `size :: Int` then `size = 0` too
# Languages whose definitions of one name side by side are the clauses of one function
# (`def total(0)`, `def total(n)`), not overloads, each a function of its own.
CLAUSES_OF_ONE = frozenset({"elixir", "haskell"})
# A name as written where it is defined: dotted (Lua's `M.run`, `M:method`; a TypeScript
# namespace `A.B`) or qualified (C++'s `Table::get`), perhaps asking or insisting (Ruby's
# `valid?`, Elixir's `save!`), a C++ operator (`Vec::operator==`, `operator()`) or
# destructor (`Table::~Table`), a JavaScript private member (`Ky.#retry`: `#retry` and
# `retry` are two members), a Haskell name with its primes (`foldl'` is not `foldl`).
_NAME_TEXT = re.compile(r"[~#]?[A-Za-z_$][\w$']*(?:(?:::|[.:])[~#]?[A-Za-z_$][\w$']*)*"
                        r"(?:(?<=operator)\s*(?:\(\)|\[\]=?|[^\s\w()\[\]]+)|[?!])?")


@dataclass(frozen=True)
class Definition:
    """A name the code defines: dotted as it nests, its first and last lines, and whether
    it only declares the name or adds to it (a prototype, a method of an interface,
    `struct s;`, a Rust `impl` of a type: see DECLARATIONS, ELSEWHERE). An Elixir
    function has an arity too, the fewest and the most arguments it takes (defaults
    make them differ): `send_resp/3` and `send_resp/1` are two functions. A Ruby class
    method is named as its instance method of the same name is (`Repo.build`), and told
    apart as Ruby's documentation tells them: `Repo.build` the class's, `Repo#build` an
    instance's (see named). A Kotlin extension function is named by its name, and by the
    type it extends too, as Kotlin's documentation writes it (`ByteString.commonEquals`).
    Overloads side by side are one definition, which keeps each one's lines as a part (a
    reference tells them apart by their parameters: see overloads)."""

    name: str
    start: int
    end: int
    declared: bool = False
    arity: tuple[int, int] | None = None
    singleton: bool = False  # a Ruby class method: `def self.build`, or in `class << self`
    receiver: str | None = None  # a Kotlin extension function's type: `fun ByteString.f()`
    parts: tuple[tuple[int, int], ...] = ()  # each overload's first and last line (see _add)

    @property
    def written(self) -> str:
        """Its name as a reference writes it: a part holding spaces in backticks (Kotlin's
        ``HostTest.`request canonical hostname` ``)."""
        if " " not in self.name:
            return self.name
        return ".".join(f"`{part}`" if " " in part else part for part in self.name.split("."))

    @property
    def shown(self) -> str:
        """Its name as a page writes it in prose: Elixir's with its arity."""
        return self.written if self.arity is None else f"{self.written}/{self.arity[1]}"

    @property
    def lines(self) -> str:
        return lines_text(self.start, self.end)


def lines_text(start: int, end: int) -> str:
    """Lines as a page and a code host write them: `L7`, `L7-L9`."""
    return f"L{start}" if end == start else f"L{start}-L{end}"


def walk(root: Any, language: str, text: str | None = None) -> list[Definition]:
    """Every definition under `root` (code of `language`), in file order (a node before
    what it holds), each dotted with the names of those that hold it, from its first line:
    that of the decorators, attributes or template head that belong to it (see
    _first_line). The clauses of one definition side by side in one class or object
    (Haskell's and Elixir's equations, a C++ overload after another: see CLAUSE_OF,
    MEMBERS_HELD_IN), each with a body or none without, are one definition.

    A definition ends at its last code, not at the space or comments after it, which
    some grammars hold in it (Scala's indented body runs to the next definition's doc
    comment): seen where the node ends in white space of `text` (the code parsed).

    A loop, not a recursion: a tree is as deep as the code nests (`a + b + ... + z` nests
    once a term), deeper than Python recurses."""
    found: list[Definition] = []
    memo = _ROLES.setdefault(language, {})
    own = OWN_KINDS.get(language, frozenset())
    leading = LEADING.get(language, frozenset())
    by_child = language in NAMED_BY_CHILD
    wrapper = WRAPPING.get(language)
    trailing = TRAILING.get(language, frozenset())
    # where each node that wraps a definition begins, by where the definition begins
    wrapped: dict[tuple[int, int], tuple[int, int]] = {}
    # of the last definition found of each name: its kind, and where it is held
    lasts: dict[str, tuple[str, int]] = {}
    holders: list[int] = []  # objects named as what names their methods (see below)
    # each node to walk, with the names it is in and where the node holding it as a
    # member begins (see MEMBERS_HELD_IN), -1 for none
    todo = [(child, "", -1) for child in reversed(root.named_children())]
    while todo:
        node, prefix, held = todo.pop()
        kind = node.kind()
        role = memo.get(kind)
        if role is None:
            role = memo[kind] = _role(kind, wrapper, own)
        children = node.named_children()
        if role & _HOLDS:  # what it holds: its own start (a Haskell instance is named too)
            held = int(node.range().start.index)
        if role == _WRAPS and children:  # met before the definition it wraps, its last child
            inner, outer = children[-1].range().start, node.range().start
            wrapped[int(inner.line), int(inner.column)] = (int(outer.line), int(outer.column))
        elif role & _DEFINES_NAME and not (kind in _USED_WHERE_THEY_STAND and _only_used(node, kind)) \
                and (name := _name(node, kind, by_child)) is not None:
            prefix = name if _implements(node, kind) else prefix + name
            span = node.range()
            start = _first_line(node, span, wrapped, leading)
            end = _end_line(node, span, text, trailing)
            last_kind, last_held = lasts.get(prefix, ("", -2))
            added = _add(found, Definition(prefix, start, end, *_traits(node, kind, language)),
                         kind, last_kind, held == last_held, language not in CLAUSES_OF_ONE)
            lasts[prefix] = (kind, held)
            if kind in _DECLARES and (value := _value(node, kind)) is not None \
                    and (value.kind() in HOLDERS or _field_of_a_class_made(node, value)):
                holders.append(added)
            prefix += "."
        for child in reversed(children):
            todo.append((child, prefix, held))
    return _without_empty(found, holders)


def _without_empty(found: list[Definition], holders: list[int]) -> list[Definition]:
    """`found` without the objects among them (at `holders`) that hold no function: `const
    api = { get() {...} }` defines api.get, and api as what holds it; an object of options
    or a table of data defines nothing."""
    empty = {k for k in holders if not (k + 1 < len(found) and found[k + 1].start <= found[k].end
                                        and found[k + 1].name.startswith(found[k].name + "."))}
    return [d for k, d in enumerate(found) if k not in empty] if empty else found


def _defines(kind: str) -> bool:
    """Whether a node of `kind` defines a name (see DEFINES): of C's and C++'s specifiers,
    a struct's, class's, union's or enum's does; `unsigned int`, `static`, `explicit`, a
    macro used as a type (`__struct_group(...)`) do not."""
    return DEFINES.match(kind) is not None and (not kind.endswith("_specifier")
                                                or kind in _SPECIFIERS)


# Nodes that hold members as a class's body does, named or not: clauses of one definition
# stand in one (see _add). Two anonymous classes' or object literals' `handle`, one after
# the other in a method, are two methods, as are a Haskell function's equations in two
# instances; an Elixir `for`'s `def`s are clauses of one function.
MEMBERS_HELD_IN = frozenset({"class_body", "object", "table_constructor", "instance",
                             "template_body", "enum_class_body", "enum_body",
                             "singleton_class"})  # Ruby's `class << self`


def _traits(node: Any, kind: str, language: str) -> tuple[
        bool, tuple[int, int] | None, bool, str | None]:
    """What a definition `node` (of `kind`) is besides its name and lines: whether it
    only declares it (see _declares), its arity (Elixir), whether it is a Ruby class
    method (`def self.build`, a method in `class << self`), the type a Kotlin extension
    function extends (`fun List<T>.second()`: List)."""
    singleton = kind == "singleton_method" or (kind == "method" and (
        (body := node.parent()) is not None and (holder := body.parent()) is not None
        and holder.kind() == "singleton_class"))
    extended = next((c for c in node.children() if c.kind() == "receiver_type"), None) \
        if language == "kotlin" else None
    receiver = _RECEIVER_TYPE.match(_TEMPLATE_ARGUMENTS.sub("", extended.text())) \
        if extended is not None else None
    return (_declares(node, kind, language), _elixir_arity(node) if kind == "call" else None,
            singleton, receiver[0] if receiver else None)


_RECEIVER_TYPE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")  # `okio.ByteString?`'s name


def _add(found: list[Definition], definition: Definition, kind: str, last_kind: str,
         beside: bool, overload: bool) -> int:
    """Add `definition` (a node of `kind`) to `found`; or, when it is one more clause of the
    last (of `last_kind`: see CLAUSE_OF; of one function's clauses, past what that one
    holds: a Haskell `where`'s `msg req = ...`), with a body as it has or none as it has none, make that
    one span it too, where it stands `beside` it (held in the same node: see
    MEMBERS_HELD_IN), and, where it is an `overload` (not a clause of one function, as
    Elixir's and Haskell's are), keep the lines of each as a part. Where it is in `found`."""
    at = len(found) - 1  # the last definition; of a function's clauses, past what it holds
    while not overload and at >= 0 and found[at].name.startswith(definition.name + "."):
        at -= 1  # (not two classes of one name, C#'s `Policy` and `Policy<T>`, nor overloads)
    last = found[at] if at >= 0 else None
    if last is not None and last.name == definition.name and last.start <= definition.start \
            and kind in CLAUSE_OF.get(last_kind, (last_kind,)) and last.declared == definition.declared \
            and beside and _same_arity(last.arity, definition.arity):
        arity = last.arity and definition.arity and (min(last.arity[0], definition.arity[0]),
                                                     max(last.arity[1], definition.arity[1]))
        parts = (last.parts or ((last.start, last.end),)) + ((definition.start, definition.end),)
        found[at] = dataclasses.replace(last, end=max(definition.end, last.end), arity=arity,
                                        parts=parts if overload else ())
        return at
    found.append(definition)
    return len(found) - 1


def _same_arity(one: tuple[int, int] | None, other: tuple[int, int] | None) -> bool:
    """Whether two clauses take the same number of arguments (an Elixir head with defaults,
    `def f(x, y \\\\ 2)`, and its clauses `def f(x, y)`); always, without arities."""
    return one is None or other is None or (one[0] <= other[1] and other[0] <= one[1])


def _last_line(span: Any) -> int:
    """The last line of a node of `span`: a node whose text ends with its line's end (C's
    `#define`) ends on that line, not at the start of the next."""
    last = int(span.end.line) + (1 if span.end.column > 0 else 0)
    return max(last, int(span.start.line) + 1)


def _only_used(node: Any, kind: str) -> bool:
    """Whether `node` (of `kind`) uses a name where it stands, defining none: a `let`,
    `val` or `var` among the statements of a body, a Haskell `where`'s `x = ...` (LOCALS: a
    local value), an enum's constant without a body of its own (_CONSTANTS), or a C or C++
    type named without its body anywhere but where a declaration stands (a field's, a
    parameter's or a cast's type: `struct node *next;` inside `struct node`)."""
    if kind in _CONSTANTS:
        return all(child.kind() != "class_body" for child in node.named_children())
    if kind in _SPECIFIERS and node.field("body") is not None:
        return False
    parent = node.parent()
    if parent is None:
        return False
    return parent.kind() in LOCALS[kind] if kind in LOCALS else \
        parent.kind() not in _DECLARING


def _end_line(node: Any, span: Any, text: str | None, trailing: frozenset[str]) -> int:
    """The last line of the definition `node` (of `span`): that of its last code, when it
    ends in white space of `text` (see walk); or that of what trails it (`trailing`)."""
    end = _last_line(span)
    if text is not None and 0 < span.end.index <= len(text) and text[span.end.index - 1].isspace():
        end = min(end, _last_line(_last_code(node).range()))
    return _trailing_end(node, end, trailing) if trailing else end


def _declares(node: Any, kind: str, language: str) -> bool:
    """Whether the definition `node` (of `kind`) only declares its name or adds to it (see
    Definition): a prototype, `struct s;`, a Rust `impl`, a Swift `extension`."""
    if kind in DECLARATIONS or kind in ELSEWHERE:
        return True
    if kind in _BODY_ELSEWHERE:
        return node.field("body") is None
    first = node.child(0) if language == "swift" and kind == "class_declaration" else None
    return first is not None and first.kind() == "extension"


def _last_code(node: Any) -> Any:
    """The last node of code that `node` ends with: its last child but comments, and that
    child's, down to a token."""
    while kids := [c for c in node.children() if "comment" not in c.kind()]:
        node = kids[-1]
    return node


def _trailing_end(node: Any, end: int, trailing: frozenset[str]) -> int:
    """The last line of the definition `node` (`end` its own) with the nodes of the
    `trailing` kinds just after it: a Kotlin property's getter and setter."""
    after = node.next()
    while after is not None and (not after.is_named() or after.kind() in trailing):
        if after.is_named():
            end = max(end, _last_line(after.range()))
        after = after.next()
    return end


def _first_line(node: Any, span: Any, wrapped: dict[tuple[int, int], tuple[int, int]],
                leading: frozenset[str]) -> int:
    """The first line of the definition `node` (of `span`): that of the nodes wrapping it
    (`wrapped`: where each begins, by where what it wraps begins), or of the nodes of the
    `leading` kinds just before it (other tokens and comments between them aside)."""
    at = (int(span.start.line), int(span.start.column))
    while at in wrapped:  # a template in a template
        at = wrapped[at]
    first = at[0] + 1
    before = node.prev() if leading else None  # named or not: `@Component() export class`
    while before is not None:
        if before.is_named() and "comment" not in before.kind():  # `#[doc(alias)] // why`
            if before.kind() not in leading:
                break
            first = min(first, int(before.range().start.line) + 1)
        before = before.prev()
    return first


# What belongs to the definition it comes before, though the grammar has it beside the
# definition, by language: decorators (TypeScript; JavaScript's before an exported class),
# attributes (Rust), annotations (Dart's, before what a class declares without a body);
# and what wraps a definition: a Python function or class with its
# decorators, a C++ template with its `template <...>` head. (Java, C#, Kotlin, PHP, ...
# hold their annotations inside the definition.)
LEADING = {"typescript": frozenset({"decorator"}), "tsx": frozenset({"decorator"}),
           "javascript": frozenset({"decorator"}), "rust": frozenset({"attribute_item"}),
           "dart": frozenset({"annotation"})}
WRAPPING = {"python": "decorated_definition", "cpp": "template_declaration"}
# What belongs to the definition it comes after, though the grammar has it beside the
# definition: a Kotlin property's getter and setter.
TRAILING = {"kotlin": frozenset({"getter", "setter"})}
# Kinds that define a name as a member of a type or of a file, and nothing where their
# parent is of a kind given, in a body (see _only_used): Swift's and Kotlin's `let`, `val`
# and `var` are properties there (`Repo.count`, its getter and setter inside it), local
# variables among a body's statements; so are Scala's `val` and `var` (os-lib's `lazy val
# defaultPathSerializer = {...}`, a member of `object Path`), local in a block; a Haskell
# `x = ...` defines x in a module, a class or an instance, and is a local value in a
# `where` or a `let`.
SCALA_BLOCKS = ("block", "indented_block", "case_clause")  # a body, a case's
LOCALS = {"property_declaration": ("statements",), "bind": ("local_binds",),
          "val_definition": SCALA_BLOCKS, "var_definition": SCALA_BLOCKS}
# Kinds of node that may only use a name where they stand (see _only_used).
_USED_WHERE_THEY_STAND = frozenset(LOCALS) | _SPECIFIERS | _CONSTANTS


# What a node of each kind is to the walk, by language: one that may define a name (its
# kind is one DEFINES or the language's OWN_KINDS read, or one that may hold a function),
# one that wraps a definition (WRAPPING), one that holds members (MEMBERS_HELD_IN), or
# none of these (0). A kind is met many times a file.
_ROLES: dict[str, dict[str, int]] = {}
_DEFINES_NAME, _WRAPS, _HOLDS = 1, 2, 4  # the last with the first: both


def _role(kind: str, wrapper: str | None, own: frozenset[str]) -> int:
    """What a node of `kind` is to the walk (see _ROLES), in a language whose wrapping kind
    is `wrapper` and whose own defining kinds are `own`."""
    if kind == wrapper:
        return _WRAPS
    holds = _HOLDS if kind in MEMBERS_HELD_IN else 0
    defines = kind in own or kind in HOLDS_A_FUNCTION or _defines(kind)
    return holds | (_DEFINES_NAME if defines else 0)


def _name(node: Any, kind: str, unnamed: bool = False) -> str | None:
    """The name the node `node` (of `kind`, one that may define a name) defines, or None;
    with `unnamed`, found without a name field too (see _child_name)."""
    if kind in KEYWORD_NAMED or kind in _CSHARP_NAMED:
        return _keyword_name(node, kind)
    if kind in HOLDS_A_FUNCTION or kind in _HOLDS_IN_LUA or kind == "pair":
        value = _value(node, kind)
        if value is None or (value.kind() not in FUNCTION_VALUES and not
                             (value.kind() in HOLDERS and kind in _DECLARES)
                             and not (kind == "variable_declarator" and _wraps_a_function(value))
                             and not _field_of_a_class_made(node, value)):
            return None  # `const api = { get() {...} }` names api.get
        if kind in _HOLDS_IN_LUA:
            return _lua_name(node)
        if kind == "var_spec" and not _of_a_package(node):
            return None  # a function's local, as Go's `handler := func() {...}` is
    elif kind == "assignment_expression":
        value, target = node.field("right"), node.field("left")
        if value is None or target is None or value.kind() not in FUNCTION_VALUES:
            return None
        found = _NAME_TEXT.fullmatch(target.text())  # exports.run, Foo.prototype.bar
        return found[0] if found else None
    elif kind == "call":
        return _elixir_name(node)
    elif kind == "block":
        return _block_name(node)
    elif kind == "attribute":
        return _local_name(node)
    elif kind == "instance":
        return _instance_name(node)
    named = node.field("name") or node.field("property") or node.field("key")  # JavaScript
    if named is None and kind == "event_field_declaration":  # C#: `public event E Changed;`
        named = (node.find(kind="variable_declarator") or node).field("name")
    if named is None and (declarator := node.field("declarator")) is not None \
            and (named := _declared(declarator, kind)) is None:  # C, C++
        return None  # a variable, a field
    if named is None and kind in ("val_definition", "var_definition"):
        named = node.field("pattern")  # Scala: `val size = ...`, not `val (a, b) = ...`
        if named is not None and named.kind() != "identifier":
            return None
    if named is None and kind == "impl_item":
        named = node.field("type")  # Rust: impl Type { ... }
    if named is None and kind == "function" and (infix := node.field("operator")) is not None:
        return f"({infix.text()})"  # Haskell: `k .= v = ...` defines (.=)
    if named is not None and named.kind() == "string":  # JavaScript: `{ "stop": f }`
        return _string_key(named.text())
    if named is not None and named.kind() == "pattern":  # Swift: `var size: Int { get }`
        named = next((c for c in named.named_children() if c.kind() == "simple_identifier"), None)
    if named is not None and (_OPERATOR_NAME.fullmatch(named.text()) or (
            kind in _RUBY_METHODS and named.kind() == "setter")):
        return str(named.text())  # `def [](k)`, `def type=(t)` (Ruby), `def ++(o: P)` (Scala)
    text = named.text() if named is not None else (_child_name(node) if unnamed else None) or ""
    if len(text) > 2 and text[0] == text[-1] == "`":  # Kotlin's `request canonical hostname`
        return text[1:-1]
    return _name_written(text, node, kind)


def _name_written(text: str, node: Any, kind: str) -> str | None:
    """The name the text of a definition's name node (of `node`, of `kind`) writes: dotted
    or qualified as it is (see _NAME_TEXT), a C++ name without its template arguments, a
    Go method with its receiver's type (`Conn.Close`)."""
    if _OPERATOR.fullmatch(text):  # Haskell: `(.=) :: ...`, `(<+>) a b = ...`
        return text
    if (conversion := _CONVERSION.search(text)) is not None:  # C++: `operator bool() const`
        owner = _NAME_TEXT.search(_TEMPLATE_ARGUMENTS.sub("", text[:conversion.start()]))
        return (f"{owner[0]}::" if owner else "") + "operator " + re.sub(r"\s*([*&]+)$", r"\1",
                                                                         conversion[1])
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


# A Lua table's key as a string, `M["stop"]`: the same as `M.stop` where the string is a
# name; another (`tests["lume.clamp"]`) names no definition.
_LUA_KEY = re.compile(r"""\[\s*(["'])([A-Za-z_]\w*)\1\s*\]""")


def _lua_name(node: Any) -> str | None:
    """The name a Lua assignment or table field holding a function (or a table) gives it:
    `M.run = function`, `M:stop`, `M["stop"]` and `{ ["stop"] = ... }` (as `M.stop`);
    None for a key that is no name (`tests["lume.clamp"]`)."""
    named = node.field("name")
    text = "" if named is None else _LUA_KEY.sub(r".\2", named.text())
    if text[:1] in ("'", '"'):  # a field's key: `{ ["stop"] = function() end }`
        text = _string_key(text) or ""
    found = _NAME_TEXT.fullmatch(text)
    return _LUA_METHOD.sub(".", found[0]) if found else None


def _declared(declarator: Any, kind: str) -> Any:
    """The innermost declarator of a C or C++ declaration of `kind` (what it names); None
    for a variable or a field, which no function declarator leads to (`int *f(int x)`
    declares f; `int x` no definition)."""
    function = False
    while declarator.kind() != "operator_cast" and \
            (inner := declarator.field("declarator")) is not None:
        function = function or declarator.kind() == "function_declarator"
        declarator = inner
    function = function or declarator.kind() == "operator_cast"  # `operator bool() const`
    return None if kind in ("declaration", "field_declaration") and not function else declarator


_CSHARP_NAMED = frozenset({"destructor_declaration", "operator_declaration"})


def _keyword_name(node: Any, kind: str) -> str | None:
    """The name of a definition its keyword names (see KEYWORD_NAMED), or a C# destructor
    or operator, named as C++'s are: `~Table`, `operator+`."""
    if kind == "destructor_declaration":
        named = node.field("name")
        return f"~{named.text()}" if named is not None else None
    if kind == "operator_declaration":
        symbol = node.field("operator")
        return f"operator{symbol.text()}" if symbol is not None else None
    keyword = KEYWORD_NAMED[kind]
    if keyword is None and (first := node.child(0)) is not None:
        keyword = str(first.text())  # fallback, receive
    return keyword


def _of_a_package(node: Any) -> bool:
    """Whether a Go `var_spec` stands at its file's top (in `var x = ...` or `var (...)`),
    not in a function's body."""
    holder = node.parent()
    while holder is not None and holder.kind() in ("var_spec_list", "var_declaration"):
        holder = holder.parent()
    return holder is not None and holder.kind() == "source_file"


def _field_of_a_class_made(node: Any, value: Any) -> bool:
    """Whether `node` declares a field (Java's) whose `value` makes an anonymous class, as
    gson's `TypeAdapters.INET_ADDRESS = new TypeAdapter<InetAddress>() { read ... }`: its
    methods are named by the field (`TypeAdapters.INET_ADDRESS.read`), as an object's
    methods are by it in JavaScript; not by the class alone, where the forty adapters'
    `read` of that class were one name none could be cited by. The class may be called
    on (`new TypeAdapter<BitSet>() {...}.nullSafe()`)."""
    while value.kind() == "method_invocation" and (made := value.field("object")) is not None:
        value = made
    return (value.kind() == "object_creation_expression"
            and any(c.kind() == "class_body" for c in value.named_children())
            and (field := node.parent()) is not None and field.kind() == "field_declaration")


def _wraps_a_function(value: Any, depth: int = 3) -> bool:
    """Whether `value` is a call that takes a function as it is written, perhaps in a call
    that does (JavaScript's `memo(forwardRef((props, ref) => ...))`, `useCallback(() =>
    ..., [])`): the function is the name's, as React code names its components and hooks."""
    if depth == 0 or value.kind() != "call_expression":
        return False
    arguments = value.field("arguments")
    return arguments is not None and any(
        a.kind() in FUNCTION_VALUES or _wraps_a_function(a, depth - 1)
        for a in arguments.named_children())


def _value(node: Any, kind: str) -> Any:
    """The value a node that may hold a function holds (Lua's, in its list of one)."""
    value = node.field("value")
    if (kind in _HOLDS_IN_LUA or kind == "var_spec") and value is not None \
            and value.kind() == "expression_list":
        values = value.named_children()
        return values[0] if len(values) == 1 else None
    return value


def _child_name(node: Any) -> str | None:
    """For a definition without a name field (in NAMED_BY_CHILD's languages): its first
    child that is a name (Kotlin), or else the name of its signature (Dart: a method's
    name is that of its signature's signature, after its annotations; a field declared
    has none). A Kotlin property is named by its variable (`val x = y` names x; `val (a,
    b) = pair` names nothing)."""
    if node.kind() == "property_declaration":
        variable = next((c for c in node.named_children() if c.kind() == "variable_declaration"),
                        None)
        return _child_name(variable) if variable is not None else None
    for _ in range(3):
        children = node.named_children()
        named = next((c for c in children if c.kind() in NAME_KINDS), None)
        if named is not None or not children:
            return str(named.text()) if named is not None else None
        node = next((c for c in children if "signature" in c.kind() or c.kind() in _NAMES_IN), None)
        if node is None:
            return None
        if node.kind().endswith("constructor_signature"):  # Dart: `Client.named()` is named
            names = [c for c in node.named_children() if c.kind() == "identifier"]
            return str(names[-1].text()) if names else None
        if node.kind() == "operator_signature":  # Dart: `bool operator ==(Object o)`
            found = _DART_OPERATOR.search(node.text())
            return "operator" + found[1] if found else None
        if (named := node.field("name")) is not None:
            return str(named.text())
    return None


# Dart: what holds a definition's name besides its signatures (`extension type Id(int i)`),
# and an operator's symbol where it is defined (`operator []=(int i, V v)`).
_NAMES_IN = frozenset({"extension_type_name"})
_DART_OPERATOR = re.compile(r"\boperator\s*([^\s(]+)")


def _elixir_name(node: Any) -> str | None:
    """`def save!(repo)`, `defmodule Shop.Cart do`: the name of a call that defines one;
    an implementation's as Elixir names its module (see _implemented)."""
    target = node.field("target")
    if target is None or target.text() not in ELIXIR_DEFINES:
        return None
    first = _arguments(node)
    found = _NAME_TEXT.match(first[0].text()) if first else None
    if found is None or target.text() != "defimpl":
        return found[0] if found else None
    implemented = _implemented(node)
    return f"{found[0]}.{implemented}" if implemented else found[0]


def _implemented(node: Any) -> str | None:
    """The type an Elixir `defimpl` implements its protocol for: its `for:` (one module,
    not a list), or else the module it stands in. Elixir names the implementation by
    both, whatever holds it: `defimpl Inspect, for: Plug.Conn` and a `defimpl Inspect`
    inside `defmodule Plug.Conn` are `Inspect.Plug.Conn` (its functions
    `Inspect.Plug.Conn.inspect`)."""
    for argument in _arguments(node)[1:]:
        for pair in argument.named_children() if argument.kind() == "keywords" else []:
            key, value = pair.field("key"), pair.field("value")
            if key is not None and value is not None and key.text().rstrip(": ") == "for":
                return str(value.text()) if value.kind() == "alias" else None  # not a list
    holder = node.parent()
    while holder is not None:
        target = holder.field("target") if holder.kind() == "call" else None
        if target is not None and target.text() == "defmodule":
            return _elixir_name(holder)
        holder = holder.parent()
    return None


_TYPE_NAME = re.compile(r"[A-Z][\w']*(?:\.[A-Z][\w']*)*")


def _instance_name(node: Any) -> str | None:
    """A Haskell instance, named by its class and the type it is for, as Elixir names an
    implementation (see _implemented): `instance ToJSON Int64` is ToJSON.Int64, its
    `toJSON` ToJSON.Int64.toJSON (`instance ToJSON a => ToJSON (Maybe a)`: ToJSON.Maybe).
    None for an instance for no named type (`ToJSON (a, b)`, `ToJSON [a]`): its methods
    are named alone, each apart from another instance's."""
    named, patterns = node.field("name"), node.field("patterns")
    found = _TYPE_NAME.match(patterns.text().lstrip("( ")) if patterns is not None else None
    return f"{named.text()}.{found[0]}" if named is not None and found else None


def _implements(node: Any, kind: str) -> bool:
    """Whether `node` (of `kind`) is an Elixir `defimpl`, named whatever holds it."""
    target = node.field("target") if kind == "call" else None
    return target is not None and target.text() == "defimpl"


def _elixir_arity(node: Any) -> tuple[int, int] | None:
    """The fewest and the most arguments of a function an Elixir `def` call defines: `def
    f(x, y \\\\ 2) when ...` takes 1 or 2; `def a, do: 1` none; None for a module."""
    target = node.field("target")
    if target is None or target.text() not in ELIXIR_FUNCTIONS:
        return None
    heads = _arguments(node)
    head = heads[0] if heads else None
    if head is not None and _operator(head) == "when" and head.field("left") is not None:
        head = head.field("left")  # def f(x) when is_atom(x)
    if head is None or head.kind() != "call":
        return (0, 0)
    params = _arguments(head)
    defaults = sum(1 for p in params if _operator(p) == "\\\\")
    return (len(params) - defaults, len(params))


def _arguments(call: Any) -> list[Any]:
    """The arguments of an Elixir call, as nodes (none without parentheses)."""
    given = next((c for c in call.named_children() if c.kind() == "arguments"), None)
    return list(given.named_children()) if given is not None else []


def _operator(node: Any) -> str:
    """The operator of an Elixir binary operation (`when`, `\\\\`), or ''."""
    operator = node.field("operator")
    return str(operator.text()) if operator is not None else ""


def _block_name(node: Any) -> str | None:
    """A Terraform block by the address it is known by: `resource "aws_s3_bucket" "logs"`
    is aws_s3_bucket.logs, `variable "region"` var.region, `module "vpc"` module.vpc,
    `data "aws_ami" "base"` data.aws_ami.base; a block without labels by its type. A
    `locals` block names nothing: each of its values does (see _local_name)."""
    parts = node.named_children()
    if not parts or parts[0].kind() != "identifier" or parts[0].text() == "locals":
        return None
    labels = [p.text().strip('"') for p in parts[1:] if p.kind() in ("string_lit", "identifier")]
    kind = parts[0].text()
    head = [] if kind == "resource" and labels else ["var" if kind == "variable" else kind]
    return ".".join(head + labels)


def _local_name(node: Any) -> str | None:
    """A Terraform local value by its address: `x = ...` in a `locals` block is local.x
    (as `local.x` uses it); any other attribute names nothing."""
    body = node.parent()
    block = body.parent() if body is not None else None
    head = block.named_children() if block is not None and block.kind() == "block" else []
    name = node.named_children()
    if not head or head[0].text() != "locals" or not name or name[0].kind() != "identifier":
        return None
    return f"local.{name[0].text()}"


_TEMPLATE_ARGUMENTS = re.compile(r"<[^<>]*>")
# A C++ conversion operator, named as C++ names it: `operator bool`, `operator basic_args`
# (not `const`, from `operator bool() const`).
_CONVERSION = re.compile(r"\boperator\s+((?:const\s+)?[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*(?:\s*[*&]+)?)")
# An operator named as a value, as Haskell names one where it is defined and documented:
# (.=), (.:?), (<+>).
_OPERATOR = re.compile(r"\([!#$%&*+./<=>?@\\^|~:-]+\)")
_RUBY_METHODS = frozenset({"method", "singleton_method"})
_KEY_NAME = re.compile(r"[A-Za-z_$][\w$]*")  # a key written as a string that is a name

# An operator named where it is defined: Ruby's `def []=(k, v)`, `def <=>(o)`; Scala's
# `def ++(o: PermSet)`, `object /`; Swift's `static func == (l: V, r: V)`.
_OPERATOR_NAME = re.compile(r"[!%&*+/<=>?@\\^|~\[\]-]+")
_LUA_METHOD = re.compile(r"(?<!:):(?!:)")  # M:method (Lua) is M.method
_GO_METHOD = re.compile(r"\(\*?([A-Za-z_]\w*)\)(?=\.)")
# a call's parentheses after a name (an operator's too: `operator==(const V&)`, Ruby's
# `[]=(k, v)`); not C++'s `operator()`, nor Haskell's `(.=)`
_CALLED = re.compile(r"(?<!operator)(?<=[\w?!$>\]=<~@+*/%&|^-])\([^()]*\)$")
_MEMBER = re.compile(r"(?<=[\w?!])#(?=[A-Za-z_\[=<>+*/%~!^&|-])")  # Repo#find, Headers#[]=;
# not Ky.#retry, #retry


def _string_key(text: str) -> str | None:
    """The name a key written as a string (`"stop"`) gives, or None where it is no name
    (`"text/plain"` names no member `text`)."""
    key = _KEY_NAME.fullmatch(text[1:-1])
    return key[0] if key else None


def named(defs: Iterable[Definition], symbol: str) -> list[Definition]:
    """The definitions whose dotted name is `symbol` or ends with '.' + `symbol`; a '::'
    reads as a '.' (C++: `Table::get` names get, defined in the class Table or out of it),
    Go's `(*Conn).Close` as `Conn.Close`, a '#' after a name as a '.' (`Repo#find`, as
    Ruby's and Java's documentation write a method), a call's parentheses are left out
    (`save_checkpoint()`, `put(K key)` name save_checkpoint and put), and an arity after a
    '/' names the Elixir function that takes that many arguments (`send_resp/3`); of
    Ruby's methods, a `#` names an instance's, a `.` the class's (see _by_receiver)."""
    wanted, arity = _wanted(symbol), _arity(symbol)
    found = [d for d in defs
             if any(name == wanted or name.endswith("." + wanted) for name in _names(d))
             and (arity is None or (d.arity is not None and d.arity[0] <= arity <= d.arity[1]))]
    return _by_receiver(found, symbol)


def _names(d: Definition) -> tuple[str, ...]:
    """The dotted names `d` goes by: its own, and a Kotlin extension function's with the
    type it extends before its own name (`B.ByteString.f` of `fun ByteString.f()` in B)."""
    name = d.name.replace("::", ".")
    if d.receiver is None:
        return (name,)
    owner, _, own = name.rpartition(".")
    return name, ".".join(filter(None, (owner, d.receiver, own)))


def holds(defs: Iterable[Definition], symbol: str, spans: Iterable[tuple[int, int]],
          lines: Sequence[str] | None = None) -> bool:
    """Whether a definition `symbol` names (see named; of overloads, with the file's
    `lines`, the one whose parameters it writes: see overloads) holds one of `spans` (each
    its first and last line) whole: what a hunk's file line says of the lines it names."""
    found = named(defs, symbol)
    found = overloads(found, symbol, lines) if lines is not None else found
    return any(d.start <= a and b <= d.end for d in found for a, b in spans)


def _by_receiver(found: list[Definition], symbol: str) -> list[Definition]:
    """Of Ruby's class and instance methods of one name, those `symbol` names as Ruby's
    documentation does: `Repo#build` an instance's, `Repo.build` (or `Repo::build`) the
    class's; a name alone, both."""
    singletons = [d for d in found if d.singleton]
    if not singletons or len(singletons) == len(found):
        return found
    if _MEMBER.search(symbol.strip()):
        return [d for d in found if not d.singleton]
    bare = _CALLED.sub("", symbol.strip())
    return singletons if "." in bare or "::" in bare else found


_ARITY = re.compile(r"(?<=[\w?!])/(\d+)$")  # Elixir's send_resp/3


def _arity(symbol: str) -> int | None:
    found = _ARITY.search(symbol.strip())
    return int(found[1]) if found else None


def _wanted(symbol: str) -> str:
    """A name as written on a page, as definitions are named (see named)."""
    bare = _CALLED.sub("", _GO_METHOD.sub(r"\1", _ARITY.sub("", symbol.strip().strip("`"))))
    return _MEMBER.sub(".", bare).replace("::", ".").replace("`", "")


def chosen(defs: Iterable[Definition], symbol: str,
           lines: Sequence[str] | None = None) -> list[Definition]:
    """The definitions a reference's `symbol` names (see named), preferred: those it names
    whole, when there are any (`run` names the function run beside the method Job.run,
    which `Job.run` names), else those it ends; of several, with the file's `lines`, those
    that take the parameters it writes (see overloads)."""
    found = named(defs, symbol)
    wanted = _wanted(symbol)
    found = preferred([d for d in found if d.name.replace("::", ".") == wanted] or found)
    return overloads(found, symbol, lines) if lines is not None else found


def overloads(found: list[Definition], symbol: str, lines: Sequence[str]) -> list[Definition]:
    """Of `found`, overloads of one name (several definitions, or the parts of one: see
    Definition), those that take the parameters `symbol` writes in its parentheses, each
    with its own lines, as the language's documentation tells overloads apart: Swift's
    argument labels, `response(queue:completionHandler:)` (`_:` for none), or the
    parameters' types (or more of each parameter: `send(int,long)`, `put(K key)`; those
    whose types are written exactly, where some are), `f()` one of none. `found` itself
    where it writes no parentheses, or is one definition of one part, or writes `()` and
    none takes no parameters (a name written as a call)."""
    written = _CALLED.search(symbol.replace("`", "").strip())
    if written is None or not (len(found) > 1 or any(d.parts for d in found)):
        return found
    inner = written[0][1:-1]
    wanted = inner.replace(" ", "") if _LABELS.fullmatch(inner.replace(" ", "")) else inner
    each = [(_takes(parameters(c, lines), wanted), c) for c in clauses(found)]
    best = max((level for level, _ in each), default=0)
    taking = [c for level, c in each if level == best > 0]
    return taking if taking or wanted.strip() else found


def clauses(found: list[Definition]) -> list[Definition]:
    """Each overload of `found`: a definition of parts (see Definition) as one of each."""
    return [dataclasses.replace(d, start=a, end=b, parts=()) if d.parts else d
            for d in found for a, b in (d.parts or ((d.start, d.end),))]


_LABELS = re.compile(r"(?:[A-Za-z_]\w*:)+")  # Swift's `(queue:completionHandler:)`


def _takes(declared: list[str] | None, written: str) -> int:
    """How well a definition that declares the parameters `declared` takes those `written`
    (see overloads): 2 exactly (each label, or each type as declared), 1 each written
    parameter's words among its own, 0 not."""
    if declared is None:
        return 0  # (no parameter list: a property of the name)
    if not written.strip():
        return 2 if not declared else 0
    if _LABELS.fullmatch(written):
        return 2 if [label_of(p) for p in declared] == written.split(":")[:-1] else 0
    parts = split_top(written)
    if len(parts) != len(declared) or not all(
            set(_TOKENS.findall(a)) <= set(_TOKENS.findall(b))
            for a, b in zip(parts, declared, strict=True)):
        return 0
    return 2 if all("".join(a.split()) in ("".join(_type_of(b).split()), "".join(b.split()))
                    for a, b in zip(parts, declared, strict=True)) else 1


_TOKENS = re.compile(r"[\w$]+|\[\]|\.\.\.|[*&?]")


def label_of(parameter: str) -> str | None:
    """A Swift parameter's argument label: the first word before its `:` (`from decoder:
    Decoder` is `from`, `_ x: Int` is `_`); None for a parameter that has no `:`."""
    head, colon, _ = parameter.partition(":")
    words = head.split()
    return words[0] if colon and words else None


def signature(d: Definition, lines: Sequence[str], language: str | None,
              among: list[Definition]) -> str | None:
    """How a reference writes `d` apart from the other definitions of `among` that share
    its name (see overloads): by Swift's argument labels where they tell it apart
    (`DataRequest.response(queue:completionHandler:)`), else by its parameters' types
    (`Client.send(int,long)`, Swift's `HTTPHeaders.init([HTTPHeader])`; in backticks where
    one holds a space: `` `Table.put(const K&)` ``); None where neither names it alone, it
    declares no parameters, or its language tells its functions apart otherwise
    (Elixir's by their arity, `send_resp/3`)."""
    declared = parameters(d, lines) if language not in CLAUSES_OF_ONE else None
    if declared is None:
        return None
    labels = [label_of(p) for p in declared] if language == "swift" else [None]
    forms = [f"{d.written}({''.join(f'{label}:' for label in labels)})"] \
        if None not in labels else []
    forms.append(f"{d.written}({','.join(_type_of(p) for p in declared)})")
    return next((f"`{form}`" if " " in form else form for form in forms
                 if [(c.start, c.end) for c in overloads(among, form, lines)] == [(d.start, d.end)]),
                None)


def citable(defs: Sequence[Definition], definition: Definition, lines: Sequence[str],
            language: str | None) -> str | None:
    """How a reference names `definition` alone among `defs`: its name, else with its
    arity (Elixir's `read_part_headers/2` beside `read_part_headers/7`), else by its
    parameters (an overload: Java's `send(int,long)`, Swift's `response(queue:...)`);
    None when nothing tells it apart, and a page cites its lines instead."""
    form = next((form for form in dict.fromkeys((definition.written, definition.shown))
                 if chosen(defs, form) == [definition]), None)
    if form is not None:
        return form
    told = signature(definition, lines, language, chosen(defs, definition.written))
    return told if told and " " not in told else None  # (a reference's name holds no space)


def named_around(defs: Sequence[Definition], start: int, end: int, lines: Sequence[str],
                 language: str | None) -> str | None:
    """The name of the innermost definition that holds lines `start` to `end` and that its
    name finds alone (see citable): not HCL's `content` of a `dynamic "statement"`, one
    of three of that name, but the `data` block around them; None where none does."""
    holding = sorted((d for d in defs if d.start <= start and end <= d.end),
                     key=lambda d: (d.end - d.start, -d.start))
    return next((c for d in holding if (c := citable(defs, d, lines, language))), None)


def _type_of(parameter: str) -> str:
    """A parameter's type, as written: after its `:` (Kotlin, Scala, TypeScript, Rust,
    Swift), else without its name, the last word (Java, C#, C++: `const K& k` is
    `const K&`)."""
    head = parameter.partition("=")[0].strip()
    if ":" in head and "::" not in head:
        return " ".join(head.partition(":")[2].split())
    words = head.split()
    return " ".join(words[:-1]) if len(words) > 1 and _NAME.fullmatch(words[-1]) else " ".join(words)


_NAME = re.compile(r"[A-Za-z_$][\w$]*")


def parameters(d: Definition, lines: Sequence[str]) -> list[str] | None:
    """The parameters `d` declares, as written, apart at their commas (its first list in
    parentheses after its own name, generic parameters skipped); None where its name is
    followed by none (a property, a class)."""
    own = d.name.replace("::", ".").rsplit(".", 1)[-1]
    text = "\n".join(lines[d.start - 1:d.end])
    for found in re.finditer(rf"(?<![\w$]){re.escape(own)}(?![\w$])", text):
        at = _after_space(text, found.end() + (text[found.end():found.end() + 1] in ("?", "!")))
        if text.startswith("<", at):
            at = _after_space(text, _closing(text, at, "<>"))
        if text.startswith("(", at):
            inner = text[at + 1:_closing(text, at, "()[]{}") - 1]
            return split_top(inner) if inner.strip() else []
    return None


def split_top(text: str) -> list[str]:
    """`text` apart at its commas outside brackets and strings, each part stripped."""
    parts, start = [], 0
    for at, depth in _brackets(text, 0, "()[]{}<>"):
        if text[at] == "," and depth <= 0:
            parts.append(text[start:at].strip())
            start = at + 1
    return parts + [text[start:].strip()]


def _closing(text: str, at: int, pairs: str) -> int:
    """Where the bracket at `at` is closed (after it), brackets of `pairs` nested."""
    return next((i + 1 for i, depth in _brackets(text, at, pairs) if depth == 0), len(text))


def _brackets(text: str, at: int, pairs: str) -> Iterator[tuple[int, int]]:
    """Each character of `text` from `at` outside its strings, with how deep in the
    brackets of `pairs` (open, close, ...) it leaves the text: an arrow's `>` closes no
    `<`, and a `<=` opens none."""
    depth = 0
    while at < len(text):
        char = text[at]
        end = _string_end(text, at) if char in "\"'" else None
        if end is not None:
            at = end
            continue
        if char in pairs[0::2] and not text.startswith("<=", at):
            depth += 1
        elif char in pairs[1::2] and not (char == ">" and at and text[at - 1] in "-="):
            depth -= 1
        yield at, depth
        at += 1


def _after_space(text: str, at: int) -> int:
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def _string_end(text: str, at: int) -> int | None:
    """Where the string that starts at `at` ends (after its closing quote), or None where
    none does: a `'` opens only a character (`','`, `'\\n'`), not Rust's lifetime `'a`."""
    quote = text[at]
    if quote == "'":
        end = text.find("'", at + 1, at + 4)
        return end + 1 if end > at + 1 and (end == at + 2 or text[at + 1] == "\\") else None
    at += 1
    while at < len(text) and text[at] != quote:
        at += 2 if text[at] == "\\" else 1
    return at + 1


def preferred(found: list[Definition]) -> list[Definition]:
    """Of the definitions a name names, those that define it when there are any, not those
    that only declare it or add to it: a C++ method declared in its class and defined
    after it, a `struct s` used before its definition, a Rust struct and its `impl`s.
    Names of the same lines are one definition, the outermost named (JavaScript's
    `app.handle = function handle() {...}` is app.handle, and app.handle.handle)."""
    spans: dict[tuple[int, int], Definition] = {}
    for definition in [d for d in found if not d.declared] or found:
        spans.setdefault((definition.start, definition.end), definition)  # outer ones first
    return list(spans.values())


def enclosing(defs: Iterable[Definition], start: int, end: int) -> Definition | None:
    """The innermost definition that holds lines `start` to `end`, if any."""
    holding = [d for d in defs if d.start <= start and end <= d.end]
    return min(holding, key=lambda d: (d.end - d.start, -d.start)) if holding else None


# A line that gives a name a value, as a constant or a variable is given one: the words that
# declare it and a type perhaps (`pub const`, `static const char *`, `public static final
# int`), the name, a type perhaps (`: u32`, Go's `X int8`), then `=` or `:=`.
_GIVING = r"^[ \t]*(?:[\w.\[\]<>,]+(?:\([^)]*\))?\s+\**)*"
_GIVEN = r"(?:\[[^\]]*\])?(?:\s*:[^=]*|\s+[\w.*\[\]<>]+)?\s*(?::=|=(?![=>~]))"


def assigned_at(lines: Sequence[str], symbol: str) -> tuple[int, str] | None:
    """Where the last part of `symbol` is given a value, as a constant or a variable is
    (`X = 1`, `X: Final = 1`, `const X = 1`, `X := 1`, Rust's `const X: &str = ...`, Go's
    `var X T = ...`, C's `static const char *X = ...`): the least indented such line, as
    (its number, its text); None where no line does (`_` names nothing)."""
    name = symbol.rsplit(".", 1)[-1].strip()
    if not re.fullmatch(r"[A-Za-z_$][\w$]*", name) or name == "_":
        return None
    giving = re.compile(_GIVING + re.escape(name) + _GIVEN)
    found = [(len(text) - len(text.lstrip()), n, text.strip())
             for n, text in enumerate(lines, 1) if name in text and giving.match(text)
             and not text.rstrip().endswith(",")]  # (a call's keyword argument on its line)
    return min(found)[1:] if found else None


def nearest_names(defs: Iterable[Definition], symbol: str, count: int = 3) -> str:
    """'a (L1-L9), b (L12)': the `count` definitions named most like `symbol`."""
    tail = symbol.rsplit(".", 1)[-1]
    def likeness(d: Definition) -> tuple[float, float, int]:
        own = d.name.rsplit(".", 1)[-1]
        return (-difflib.SequenceMatcher(None, tail, own).ratio(),
                -difflib.SequenceMatcher(None, symbol, d.name).ratio(), d.start)

    ranked = sorted(defs, key=likeness)
    return ", ".join(f"{d.shown} ({d.lines})" for d in ranked[:count]) or "none"
