"""Compiled templates kept between runs, as Python keeps a package's compiled modules.

jinja2 compiles a template into Python code the first time a process loads it: site_gen's
own templates take about 0.14 s, spent again by every process of a clean build that
renders (its workers and itself). So site_gen's own templates are compiled when its wheel
is built (setup.py), into a `__pycache__` folder beside them, as pip compiles a package's
modules when it installs them; and the templates a build compiles are kept in the
project's cache folder (a project's own, theme.custom_dir, and site_gen's when it was
installed without them). A compiled template is taken only for the source it was compiled
from (jinja2's checksum of it), and only by the Python, jinja2 and environment options it
was compiled for (its file's name says which): otherwise the template is compiled anew.

Nothing but jinja2 and the standard library is imported here: setup.py loads this module
by its path to compile the templates, where site_gen's other requirements are not installed.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sys
from pathlib import Path
from types import CodeType
from typing import Any
from urllib.parse import quote

import jinja2
from jinja2.bccache import Bucket
from markupsafe import Markup, escape

# The environment's options that change what a template compiles into.
OPTIONS: dict[str, Any] = {"autoescape": True, "trim_blocks": True, "lstrip_blocks": True,
                           "keep_trailing_newline": True}
TAG = hashlib.sha256(repr((jinja2.__version__, sys.implementation.cache_tag,
                           sorted(OPTIONS.items()))).encode()).hexdigest()[:12]
FOLDER = "__pycache__"  # beside the templates: the folder every tool already leaves out
TEMPLATES = (".html", ".xml")  # what site_gen loads as templates (CSS and scripts: as they are)

_NAME_PARTS = re.compile(r"([./])(?=\w)")


def breakable(text: str) -> Markup:
    """`text` escaped, with a line-break opportunity (<wbr>) after each '.' or '/' inside a
    dotted or slashed name: a title naming `rl.checkpoint.async_save` wraps at its dots on
    a phone, not inside a word."""
    return Markup(_NAME_PARTS.sub(r"\1<wbr>", str(escape(text))))


_CODE_SPAN = re.compile(r"`([^`]+)`")


def title_html(text: str, wrap: bool = False) -> Markup:
    """A title as the code host shows one: each `code` span in backticks as code (GitHub
    renders them so in a pull request's title), the rest as text; all escaped, and with
    `wrap` (a heading's) `breakable`."""
    shown = breakable if wrap else escape
    parts = _CODE_SPAN.split(text)  # text, code, text, code, ..., text
    return Markup("").join(Markup("<code>{}</code>").format(shown(part)) if n % 2 else shown(part)
                           for n, part in enumerate(parts))


def environment(loader: jinja2.BaseLoader,
                bytecode_cache: jinja2.BytecodeCache | None = None) -> jinja2.Environment:
    """The templates' environment: autoescape on, strict about undefined names."""
    env = jinja2.Environment(loader=loader, bytecode_cache=bytecode_cache,
                             undefined=jinja2.StrictUndefined, **OPTIONS)
    env.filters["breakable"] = breakable
    env.filters["title_html"] = title_html
    return env


def own_file(templates: Path, name: str) -> Path:
    """Where the template `name` of the folder `templates` is kept compiled, beside it."""
    return templates / FOLDER / f"{quote(name, safe='')}.{TAG}.jinja"


class CompiledTemplates(jinja2.BytecodeCache):
    """The compiled templates a loader's environment takes: for a template of `own` (the
    built-in templates' folder), the file compiled beside it; then the one in `kept` (the
    project's cache folder, if any), where what is compiled anew is kept."""

    def __init__(self, own: Path, kept: Path | None) -> None:
        self.own, self.kept = own, kept
        self._writing: dict[str, Path] = {}  # a bucket's key: where its code is kept

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None,
                   source: str) -> Bucket:
        bucket = Bucket(environment, self.get_cache_key(name, filename),
                        self.get_source_checksum(source))
        places = []
        if filename is not None and Path(filename).is_relative_to(self.own):
            places.append(own_file(self.own, name))
        if self.kept is not None:
            places.append(self.kept / f"{bucket.key}.{TAG}.jinja")
        for place in places:
            _load(bucket, place)
            if bucket.code is not None:
                if filename is not None and bucket.code.co_filename != filename:
                    bucket.code = _refiled(bucket.code, filename)  # compiled elsewhere
                return bucket
        if self.kept is not None:
            self._writing[bucket.key] = places[-1]
        return bucket

    def set_bucket(self, bucket: Bucket) -> None:
        place = self._writing.pop(bucket.key, None)
        if place is not None:
            _save(bucket, place)


def _load(bucket: Bucket, place: Path) -> None:
    """`bucket` filled from `place` if it holds code for its source (else left empty)."""
    try:
        with open(place, "rb") as held:
            bucket.load_bytecode(held)  # a file for another source or version: reset
    except (OSError, EOFError, ValueError, TypeError):  # gone, unreadable, cut short
        bucket.reset()


def _save(bucket: Bucket, place: Path) -> None:
    """`bucket`'s code written to `place` whole or not at all (processes compiling the same
    template at once each write their own file, then rename it over)."""
    part = place.with_name(f"{place.name}.{os.getpid()}.part")
    try:
        place.parent.mkdir(parents=True, exist_ok=True)
        with open(part, "wb") as out:
            bucket.write_bytecode(out)
        os.replace(part, place)
    except OSError:  # a folder that cannot be written: the template is compiled next time
        with contextlib.suppress(OSError):
            part.unlink()


def _refiled(code: CodeType, filename: str) -> CodeType:
    """`code` (a compiled template, with its blocks and macros) naming `filename` as its
    file: the template's own path, which errors and tracebacks give."""
    consts = tuple(_refiled(c, filename) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


def compile_own(templates: Path) -> list[Path]:
    """Compile every template of the folder `templates` beside it (see own_file); the files
    written. Run when the wheel is built, and by the benchmarks on a checkout."""
    env = environment(jinja2.FileSystemLoader(str(templates)))
    written = []
    for name in env.list_templates(filter_func=lambda n: n.endswith(TEMPLATES) and FOLDER not in n):
        source, filename, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]
        bucket = Bucket(env, name, jinja2.BytecodeCache().get_source_checksum(source))
        bucket.code = env.compile(source, name, filename)
        place = own_file(templates, name)
        _save(bucket, place)
        written.append(place)
    return written
