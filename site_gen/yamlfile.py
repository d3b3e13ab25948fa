"""YAML loading that keeps the line of every key, with MkDocs' `!ENV` tag."""

from __future__ import annotations

import os
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


_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: ~10x faster


class _Loader(_BASE):  # type: ignore[misc,valid-type]
    """SafeLoader whose mappings are `Mapping`s and which knows `!ENV`."""

    line_offset = 0


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> Mapping:
    loader.flatten_mapping(node)
    result = Mapping()
    result.line = node.start_mark.line + 1 + loader.line_offset
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str):
            raise yaml.constructor.ConstructorError(
                None, None, f"keys must be text, found {key!r}", key_node.start_mark
            )
        if key in result:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key '{key}'", key_node.start_mark
            )
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1 + loader.line_offset
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
            return yaml.safe_load(value) if value else value
    return default


def _construct_timestamp(loader: _Loader, node: yaml.ScalarNode) -> Any:
    """YAML dates, with an impossible date (2026-13-01) as an error at its line."""
    try:
        return yaml.constructor.SafeConstructor.construct_yaml_timestamp(loader, node)
    except ValueError as exc:
        raise yaml.constructor.ConstructorError(
            None, None, f"'{node.value}' is not a real date ({exc})", node.start_mark
        ) from None


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)
_Loader.add_constructor("!ENV", _construct_env)


def load_yaml(text: str, path: Path, first_line: int = 1) -> Any:
    """Parse `text` (found at `first_line` of `path`); YAML errors become ContentErrors."""
    loader = _Loader(text)
    loader.line_offset = first_line - 1
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = first_line + mark.line if mark else first_line
        problem = exc.problem or exc.context or "invalid YAML"
        raise ContentError(f"invalid YAML: {problem}", path, line) from None
    except yaml.YAMLError as exc:
        raise ContentError(f"invalid YAML: {exc}", path, first_line) from None
    finally:
        loader.dispose()


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
