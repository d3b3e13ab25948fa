"""The jinja2 environment: the site's templates, autoescape on, strict about undefined names.

A broken template is an error at its own file and line, like any other input.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

import jinja2

from .compiled import CompiledTemplates, environment
from .config import PACKAGE_TEMPLATES, Config
from .errors import TemplateError


@functools.lru_cache(maxsize=4)
def _environment(custom_dir: str, compiled: str | None) -> jinja2.Environment:
    search = [custom_dir] if custom_dir == str(PACKAGE_TEMPLATES) else [custom_dir, str(PACKAGE_TEMPLATES)]
    # compiled templates kept between runs: site_gen's own beside them, compiled with its
    # wheel; what is compiled anew, in the cache folder, made when a template is first
    # kept there (one that cannot be made only costs a compile: see compiled.py)
    kept = CompiledTemplates(PACKAGE_TEMPLATES, Path(compiled) if compiled else None)
    return environment(jinja2.FileSystemLoader(search), kept)


def template_env(config: Config, *, keep_compiled: bool = True) -> jinja2.Environment:
    """One environment per templates folder; templates missing there come from site_gen's own.
    Compiled templates are kept in the cache folder (`keep_compiled`)."""
    compiled = config.cache_dir / "templates" if keep_compiled else None
    return _environment(str(config.custom_dir), str(compiled) if compiled else None)


@contextlib.contextmanager
def template_errors() -> Iterator[None]:
    """Turn jinja's exceptions into a TemplateError at the template's file and line."""
    try:
        yield
    except jinja2.TemplateSyntaxError as exc:
        path = Path(exc.filename or exc.name or "<template>")
        raise TemplateError(f"template syntax error: {exc.message}", path, exc.lineno) from None
    except jinja2.TemplateNotFound as exc:
        raise TemplateError(f"template '{exc.name}' not found; expected it in the theme's "
                            "custom_dir or among site_gen's templates", Path(str(exc.name))) from None
    except jinja2.TemplateError as exc:
        path, line = _template_frame(exc.__traceback__)
        raise TemplateError(f"template error: {exc.message}", path, line) from None


def _template_frame(tb: TracebackType | None) -> tuple[Path, int | None]:
    """The innermost template file and line in a traceback: a frame of compiled template
    code maps its line back to the source; a frame jinja already rewrote points at it."""
    found: tuple[Path, int | None] = (Path("<template>"), None)
    while tb is not None:
        template = tb.tb_frame.f_globals.get("__jinja_template__")
        filename = tb.tb_frame.f_code.co_filename
        if isinstance(template, jinja2.Template) and template.filename:
            found = (Path(template.filename), template.get_corresponding_lineno(tb.tb_lineno))
        elif not filename.endswith(".py") and not filename.startswith("<"):
            found = (Path(filename), tb.tb_lineno)
        tb = tb.tb_next
    return found
