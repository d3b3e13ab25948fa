"""YAML loading that keeps the line of every key, with MkDocs' `!ENV` tag."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml

from .errors import ContentError


class Mapping(dict[str, Any]):
    """A YAML mapping that remembers the 1-based source line of itself and its keys."""

    line: int
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        """The line of `key`, or of the mapping when the key is absent."""
        return self.key_lines.get(key, self.line)


class Sequence(list[Any]):
    """A YAML list that remembers the 1-based source line of itself and of each item."""

    line: int
    item_lines: list[int]

    def line_of(self, index: int) -> int:
        """The line of item `index`, or of the list when there is no such item."""
        return self.item_lines[index] if 0 <= index < len(self.item_lines) else self.line


_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: ~10x faster


class _Loader(_BASE):  # type: ignore[misc,valid-type]
    """SafeLoader whose mappings are `Mapping`s; content files (pr.yml, front matter)."""

    line_offset = 0


class _SettingsLoader(_Loader):
    """The loader for mkdocs.yml, which also knows MkDocs' `!ENV`."""


_MERGE = "tag:yaml.org,2002:merge"


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> Mapping:
    explicit = sum(1 for key_node, _ in node.value if key_node.tag != _MERGE)
    loader.flatten_mapping(node)  # pairs merged in with `<<` come first, then the node's own
    merged = len(node.value) - explicit
    result = Mapping()
    result.line = node.start_mark.line + 1 + loader.line_offset
    result.key_lines = {}
    own: set[str] = set()
    for index, (key_node, value_node) in enumerate(node.value):
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str):
            raise yaml.constructor.ConstructorError(
                None, None, f"keys must be text, found {key!r}", key_node.start_mark
            )
        if index >= merged:  # a key written here may override a merged one, not itself
            if key in own:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key '{key}'", key_node.start_mark
                )
            own.add(key)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1 + loader.line_offset
    return result


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> Sequence:
    result = Sequence(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1 + loader.line_offset
    result.item_lines = [child.start_mark.line + 1 + loader.line_offset for child in node.value]
    return result


def _construct_env(loader: _Loader, node: yaml.Node) -> Any:
    """MkDocs' `!ENV VAR` and `!ENV [VAR, OTHER, default]`."""
    if isinstance(node, yaml.ScalarNode):
        names: list[Any] = [loader.construct_scalar(node)]
        default = None
    elif isinstance(node, yaml.SequenceNode) and node.value:
        items = loader.construct_sequence(node)
        names, default = items[:-1], items[-1]
        if len(items) == 1:
            names, default = items, None
    else:
        raise yaml.constructor.ConstructorError(
            None, None, "!ENV expects a variable name or a list [NAME, ..., default]",
            node.start_mark,
        )
    for name in names:
        value = os.environ.get(str(name))
        if value is not None:
            try:
                return yaml.safe_load(value) if value else value
            except (yaml.YAMLError, ValueError):
                return value  # not YAML (or a number too long to be one): the text itself
    return default


def _no_env(loader: _Loader, node: yaml.Node) -> Any:
    raise yaml.constructor.ConstructorError(
        None, None, "!ENV is read in mkdocs.yml only, so that no environment variable (a token, "
        "say) can end up in a page; expected the value itself", node.start_mark,
    )


def _construct_int(loader: _Loader, node: yaml.ScalarNode) -> Any:
    """YAML integers, with one too long to be a number of anything as an error at its line."""
    if len(str(node.value)) > MAX_DIGITS:
        raise yaml.constructor.ConstructorError(
            None, None, f"the number {str(node.value)[:20]}... has {len(str(node.value))} digits; "
            f"expected at most {MAX_DIGITS}", node.start_mark,
        )
    return yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)


def _construct_timestamp(loader: _Loader, node: yaml.ScalarNode) -> Any:
    """YAML dates, with an impossible date (2026-13-01) as an error at its line."""
    try:
        return yaml.constructor.SafeConstructor.construct_yaml_timestamp(loader, node)
    except ValueError as exc:
        raise yaml.constructor.ConstructorError(
            None, None, f"'{node.value}' is not a real date ({exc})", node.start_mark
        ) from None


MAX_DEPTH = 50  # lists and mappings in lists and mappings: no setting or field nests deeper
MAX_DIGITS = 18  # any count, line or number in this project fits; int() refuses 4,300
MAX_VALUES = 100_000  # values a document may hold once its aliases are expanded

_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)
_Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)
_Loader.add_constructor("!ENV", _no_env)
_SettingsLoader.add_constructor("!ENV", _construct_env)


def load_yaml(text: str, path: Path, first_line: int = 1, *, settings: bool = False) -> Any:
    """Parse `text` (found at `first_line` of `path`); YAML errors become ContentErrors.

    `settings` (mkdocs.yml) allows `!ENV`; aliases may not expand beyond MAX_VALUES values.
    """
    loader = (_SettingsLoader if settings else _Loader)(text)
    loader.line_offset = first_line - 1
    try:
        node = loader.get_single_node()
        _check_depth(node, path, first_line)
        data = loader.construct_document(node) if node is not None else None
    except RecursionError:  # a parser of pure Python, on nesting deeper than it can follow
        raise ContentError(f"the YAML here is nested more than {MAX_DEPTH} levels deep; "
                           "expected plain values", path, first_line) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = first_line + mark.line if mark else first_line
        problem = exc.problem or exc.context or "invalid YAML"
        raise ContentError(f"invalid YAML: {problem}{_hint(problem)}", path, line) from None
    except yaml.YAMLError as exc:
        raise ContentError(f"invalid YAML: {exc}", path, first_line) from None
    finally:
        loader.dispose()
    _check_size(data, path, first_line)
    return data


def _check_depth(node: yaml.Node | None, path: Path, first_line: int) -> None:
    """Refuse lists and mappings nested more than MAX_DEPTH deep, at the line of the first
    value that deep (walked without recursion: the walk itself must not overflow)."""
    todo = [(node, 0)] if node is not None else []
    seen: set[int] = set()
    while todo:
        current, depth = todo.pop()
        if depth > MAX_DEPTH:
            raise ContentError(f"the YAML here is nested more than {MAX_DEPTH} levels deep; "
                               "expected plain values", path,
                               first_line + current.start_mark.line)
        if isinstance(current, yaml.SequenceNode) and id(current) not in seen:
            seen.add(id(current))
            todo.extend((child, depth + 1) for child in current.value)
        elif isinstance(current, yaml.MappingNode) and id(current) not in seen:
            seen.add(id(current))
            todo.extend((value, depth + 1) for _, value in current.value)


def _check_size(data: Any, path: Path, first_line: int) -> None:
    """Refuse a document whose aliases expand it beyond MAX_VALUES values (a "billion
    laughs"): PyYAML shares the aliased objects, but anything that walks them does not."""
    sizes: dict[int, int] = {}

    def size(value: Any) -> int:
        if not isinstance(value, (dict, list)):
            return 1
        if id(value) not in sizes:
            sizes[id(value)] = 0  # a value that contains itself counts once
            children = value.values() if isinstance(value, dict) else value
            sizes[id(value)] = min(MAX_VALUES + 1, 1 + sum(size(child) for child in children))
        return sizes[id(value)]

    if size(data) > MAX_VALUES:
        line = first_line
        if isinstance(data, Mapping):
            line = next((data.line_of(k) for k, v in data.items() if size(v) > MAX_VALUES), line)
        raise ContentError(f"the YAML aliases here expand to more than {MAX_VALUES:,} values; "
                           "expected plain values", path, line)


# Characters XML 1.0 forbids (feeds and sitemaps must parse) and lone surrogates.
FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def forbidden_character(text: str) -> str | None:
    """The first character of `text` that no page, feed or sitemap may hold, as U+XXXX."""
    m = FORBIDDEN.search(text)
    return f"U+{ord(m[0]):04X}" if m else None


# The YAML mistakes authors make most, and how to fix each.
_HINTS = (
    ("mapping values are not allowed", "a value that contains ': ' needs quotes, like "
                                       "title: \"Why: the cache\""),
    ("tab character", "indent with spaces, not tabs"),
    ("found character '\\t'", "indent with spaces, not tabs"),
    ("end of stream", "a quote or bracket is opened and never closed"),
    ("could not find expected ':'", "write each field as 'name: value' on a line of its own"),
    ("found undefined alias", "a '*' starts an alias: put a value that starts with '*' in quotes"),
    ("cannot start any token", "a value that starts with '`', '@' or '%' needs quotes"),
)


def _hint(problem: str) -> str:
    return next((f"; {hint}" for mark, hint in _HINTS if mark in problem), "")


def describe(value: Any) -> str:
    """A YAML value as messages quote it: 'text', true, 3, a list, a mapping, nothing."""
    if value is None or value == "":
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value)
