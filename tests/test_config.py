"""mkdocs.yml: MkDocs' keys, `!ENV`, our own settings, and the exact messages for bad values."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_gen.config import load_config
from site_gen.errors import BuildFailed
from site_gen.statuses import DEFAULT_STATUSES


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mkdocs.yml"
    path.write_text(text, encoding="utf-8")
    return path


def errors_of(path: Path) -> list[str]:
    with pytest.raises(BuildFailed) as failed:
        load_config(path)
    return [str(e) for e in failed.value.errors]


def test_mkdocs_keys_keep_their_meaning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = load_config(write(tmp_path, """\
site_name: Reviews
site_url: https://example.org/reviews/
site_description: Explainers
site_author: Ana
repo_url: https://example.org/repo
copyright: (c) Ana
docs_dir: content
site_dir: public
theme:
  custom_dir: mytheme
nav: [acme/w/1]
strict: true
use_directory_urls: false
extra:
  team: core
"""))
    assert config.site_name == "Reviews"
    assert config.site_url == "https://example.org/reviews/"
    assert config.docs_dir == tmp_path / "content"
    assert config.site_dir == tmp_path / "public"
    assert config.custom_dir == tmp_path / "mytheme"
    assert config.nav == ("acme/w/1",)
    assert config.strict is True
    assert config.use_directory_urls is False
    assert config.extra == {"team": "core"}
    assert (config.site_description, config.site_author, config.copyright) == (
        "Explainers", "Ana", "(c) Ana")


def test_defaults(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "site_name: R\n"))
    assert config.docs_dir == tmp_path / "docs"
    assert config.site_dir == tmp_path / "site"
    assert config.strict is False
    assert config.raw_html is False
    assert config.statuses == DEFAULT_STATUSES


@pytest.mark.parametrize(("value", "env", "expected"), [
    ("!ENV [SITE_URL, 'https://fallback.example/']", {}, "https://fallback.example/"),
    ("!ENV [SITE_URL, 'https://fallback.example/']", {"SITE_URL": "https://ci.example/r/"},
     "https://ci.example/r/"),
    ("!ENV [FIRST, SITE_URL, null]", {"SITE_URL": "https://second.example/"},
     "https://second.example/"),
    ("!ENV SITE_URL", {}, None),
])
def test_env_tag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str,
                 env: dict[str, str], expected: str | None) -> None:
    for name in ("SITE_URL", "FIRST"):
        monkeypatch.delenv(name, raising=False)
    for name, v in env.items():
        monkeypatch.setenv(name, v)
    config = load_config(write(tmp_path, f"site_name: R\nsite_url: {value}\n"))
    assert config.site_url == expected


def test_wrong_types_name_the_key_and_what_was_expected(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert errors_of(write(tmp_path, """\
site_name: 3
strict: maybe
nav: {a: 1}
extra: [1]
use_directory_urls: "yes"
""")) == [
        "mkdocs.yml:1: 'site_name' must be text, found 3",
        "mkdocs.yml:2: 'strict' must be true or false, found 'maybe'",
        "mkdocs.yml:3: 'nav' must be a list of pull request folders, found a mapping",
        "mkdocs.yml:4: 'extra' must be a mapping, found a list",
        "mkdocs.yml:5: 'use_directory_urls' must be true or false, found 'yes'",
    ]


def test_own_settings_are_validated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert errors_of(write(tmp_path, """\
site_name: R
site_gen:
  code_host:
    permalink: "https://host/{repo}/{path}"
  statuses:
    open: {tone: red}
    later: {for: [nowhere]}
  languages:
    cu: not-a-lexer
""")) == [
        "mkdocs.yml:4: 'site_gen.code_host.permalink' must contain {commit}, {lines}; "
        "found 'https://host/{repo}/{path}'",
        "mkdocs.yml:6: unknown tone 'red' for status 'open'; expected one of: "
        "danger, warning, success, info, neutral, done",
        "mkdocs.yml:7: 'site_gen.statuses.later.for' must name some of: "
        "pr, page, callout, verdict; found a list",
        "mkdocs.yml:9: unknown Pygments lexer 'not-a-lexer' for 'cu'; expected a lexer name "
        "such as 'python' or 'yaml'",
    ]


def test_status_vocabulary_override_and_addition(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, """\
site_name: R
site_gen:
  statuses:
    open: {label: Still open}
    nit: {label: Nit, tone: info, icon: "·", for: callout}
"""))
    assert config.statuses["open"].label == "Still open"
    assert config.statuses["open"].tone == "success"  # a PR state keeps its own tone
    assert config.statuses["nit"].uses == ("callout",)


def test_broken_yaml_names_the_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert errors_of(write(tmp_path, "site_name: R\nnav: [a\n")) == [
        "mkdocs.yml:3: invalid YAML: did not find expected ',' or ']'"]


def test_missing_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert errors_of(tmp_path / "mkdocs.yml") == ["mkdocs.yml: config file not found"]


def test_unknown_keys_warn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = load_config(write(tmp_path, "site_name: R\nsite_nme: x\nplugins: [search]\n"))
    assert [str(w) for w in config.warnings] == [
        "mkdocs.yml:2: unknown setting 'site_nme'; did you mean 'site_name'? expected one of: "
        "copyright, docs_dir, exclude_docs, extra, extra_css, extra_javascript, nav, repo_url, "
        "site_author, site_description, site_dir, site_gen, site_name, site_url, strict, theme, "
        "use_directory_urls",
        "mkdocs.yml:3: 'plugins' is a MkDocs setting that site_gen does not use",
    ]
