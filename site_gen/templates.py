"""The jinja2 environment: the site's templates, autoescape on, strict about undefined names."""

from __future__ import annotations

import functools

import jinja2

from .config import PACKAGE_TEMPLATES, Config


@functools.lru_cache(maxsize=4)
def _environment(custom_dir: str) -> jinja2.Environment:
    search = [custom_dir] if custom_dir == str(PACKAGE_TEMPLATES) else [custom_dir, str(PACKAGE_TEMPLATES)]
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(search),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    return env


def template_env(config: Config) -> jinja2.Environment:
    """One environment per templates folder; templates missing there come from site_gen's own."""
    return _environment(str(config.custom_dir))
