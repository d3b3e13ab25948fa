"""Templates compiled once: site_gen's own when its wheel is built, a project's by the build
that first loads them (site_gen/compiled.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import jinja2
import pytest

from site_gen.compiled import FOLDER, TEMPLATES, CompiledTemplates, compile_own, environment
from site_gen.config import PACKAGE_TEMPLATES
from site_gen.errors import TemplateError
from site_gen.templates import template_errors


@pytest.fixture
def installed(tmp_path: Path) -> Path:
    """site_gen's templates compiled where a wheel is built, then copied (with what was
    compiled) to another folder, as installing the wheel puts them elsewhere."""
    built = tmp_path / "build/lib/site_gen/theme"
    shutil.copytree(PACKAGE_TEMPLATES, built, ignore=shutil.ignore_patterns(FOLDER))
    compile_own(built)
    there = tmp_path / "venv/site-packages/site_gen/theme"
    shutil.copytree(built, there)
    shutil.rmtree(tmp_path / "build")
    return there


def counting(env: jinja2.Environment) -> list[str]:
    """The names of the templates `env` compiles from now on."""
    compiled: list[str] = []
    compile_ = env.compile

    def compile(source: str, name: str | None = None, filename: str | None = None) -> object:
        compiled.append(str(name))
        return compile_(source, name, filename)

    env.compile = compile  # type: ignore[assignment,method-assign]
    return compiled


def own_templates(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.suffix in TEMPLATES and FOLDER not in p.parts)


def test_templates_compiled_with_the_wheel_are_not_compiled_again_where_installed(
        installed: Path) -> None:
    env = environment(jinja2.FileSystemLoader(str(installed)), CompiledTemplates(installed, None))
    compiled = counting(env)
    names = own_templates(installed)
    assert {"page.html", "base.html", "blocks/proposal.html", "feed.xml"} <= set(names)
    templates = {name: env.get_template(name) for name in names}
    assert compiled == []
    # each names its own file where it is installed, not where it was compiled
    assert {name: t.filename for name, t in templates.items()} == {
        name: str(installed / name) for name in names}


def test_a_template_changed_after_it_was_compiled_is_compiled_anew(installed: Path) -> None:
    (installed / "status.html").write_text("changed {{ 1 + 1 }}\n")
    env = environment(jinja2.FileSystemLoader(str(installed)), CompiledTemplates(installed, None))
    compiled = counting(env)
    assert env.get_template("status.html").render() == "changed 2\n"
    assert env.get_template("404.html") is not None
    assert compiled == ["status.html"]


def test_an_error_in_a_compiled_template_names_the_template_where_it_is(installed: Path) -> None:
    env = environment(jinja2.FileSystemLoader(str(installed)), CompiledTemplates(installed, None))
    compiled = counting(env)
    with pytest.raises(TemplateError) as caught, template_errors():
        env.get_template("404.html").render()  # no url(): StrictUndefined
    assert compiled == []
    assert caught.value.path in (installed / "404.html", installed / "base.html")
    assert caught.value.line is not None


def test_what_a_build_compiles_is_kept_for_the_next_one(installed: Path, tmp_path: Path) -> None:
    """A project's own template (and one of site_gen's compiled anew) is compiled by the
    first process that loads it, then taken from the cache folder by the next."""
    custom = tmp_path / "custom"
    custom.mkdir()
    (custom / "status.html").write_text('{% extends "base.html" %}{% block main %}mine{% endblock %}')
    (installed / "404.html").write_text("edited after the wheel was built\n")
    kept = tmp_path / "project/.cache/templates"

    def process() -> list[str]:
        env = environment(jinja2.FileSystemLoader([str(custom), str(installed)]),
                          CompiledTemplates(installed, kept))
        compiled = counting(env)
        for name in ("status.html", "404.html", "page.html"):
            env.get_template(name)
        return compiled

    assert process() == ["status.html", "404.html"]
    assert sorted(p.suffix for p in kept.iterdir()) == [".jinja", ".jinja"]  # nothing half-written
    assert process() == []
    (custom / "status.html").write_text("changed\n")
    assert process() == ["status.html"]


def test_a_cache_folder_that_cannot_be_written_only_costs_a_compile(installed: Path,
                                                                    tmp_path: Path) -> None:
    (tmp_path / "file").write_text("in the way\n")
    (installed / "404.html").write_text("edited\n")
    env = environment(jinja2.FileSystemLoader(str(installed)),
                      CompiledTemplates(installed, tmp_path / "file/templates"))
    assert env.get_template("404.html").render() == "edited\n"
