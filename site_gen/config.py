"""Load and validate mkdocs.yml: MkDocs' keys with MkDocs' meaning, ours under `site_gen`."""

from __future__ import annotations

import copy
import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .code_host import FIELD, HOST_FIELDS, WEB_PATTERNS, CodeHost, fill
from .errors import BuildFailed, ConfigError, ContentError, ContentWarning, SiteGenError
from .names import CONTROL, REPO, REPO_PATH
from .statuses import DEFAULT_STATUSES, TONES, USES, Status
from .suggest import did_you_mean
from .yamlfile import Mapping, Sequence, describe, forbidden_character, load_yaml


def _package_templates() -> Path:
    """The built-in templates: inside the installed package, or (in a source checkout or an
    editable install) the repository's `templates/` folder they are built from."""
    here = Path(__file__).resolve().parent
    inside = here / "theme"
    return inside if (inside / "base.html").is_file() else here.parent / "templates"


PACKAGE_TEMPLATES = _package_templates()


@dataclass(frozen=True)
class Option:
    """One setting of mkdocs.yml: how its value is read and checked (the name of a reader
    of `_Validator`, which records what is wrong at the key's line and gives None), and
    what it is when the key is absent or wrong. MkDocs' keys keep MkDocs' meaning."""

    read: str
    default: Any = None


# The settings, one line each (MkDocs' `config_options` in a table).
SETTINGS: dict[str, Option] = {
    "site_name": Option("required_text", ""),
    "site_url": Option("web_address"),
    "site_description": Option("text"),
    "site_author": Option("text"),
    "repo_url": Option("web_address"),
    "copyright": Option("text"),
    "docs_dir": Option("folder", "docs"),
    "site_dir": Option("folder", "site"),
    "theme": Option("theme", PACKAGE_TEMPLATES),
    "nav": Option("nav", ()),
    "strict": Option("flag", False),
    "use_directory_urls": Option("flag", True),
    "extra": Option("mapping", {}),
    "exclude_docs": Option("patterns", ""),
    "extra_css": Option("css_files", ()),
    "extra_javascript": Option("js_files", ()),
}
# site_gen's own, under `site_gen:`.
OWN_SETTINGS: dict[str, Option] = {
    "raw_html": Option("flag", False),
    "publish_html": Option("flag", False),
    "checkout": Option("folder", None),
    "sources": Option("sources", {}),
    "code_host": Option("code_host", CodeHost()),
    "statuses": Option("statuses", dict(DEFAULT_STATUSES)),
    "languages": Option("languages", {}),
}
_MKDOCS_KEYS = set(SETTINGS)
# MkDocs keys that mean something to MkDocs but nothing to site_gen.
_MKDOCS_IGNORED = {
    "repo_name", "edit_uri", "edit_uri_template", "remote_branch", "remote_name",
    "markdown_extensions", "plugins", "extra_templates",
    "dev_addr", "watch", "hooks", "validation", "draft_docs", "not_in_nav",
    "google_analytics",
}
_OWN_KEYS = set(OWN_SETTINGS)


# Settings that decide how a build runs but not what any page holds: they stay out of
# the page cache key and the up-to-date digest, so a `--site-dir` or strict build reuses them.
BUILD_ONLY = {"build_only": True}


@dataclass(frozen=True, eq=False)
class Config:
    """The whole validated configuration of one site (compared by identity)."""

    config_file: Path
    site_name: str
    docs_dir: Path
    site_dir: Path = field(metadata=BUILD_ONLY)
    custom_dir: Path
    site_url: str | None = None
    site_description: str | None = None
    site_author: str | None = None
    repo_url: str | None = None
    copyright: str | None = None
    nav: tuple[str, ...] = ()
    nav_lines: tuple[int, ...] = field(default=(), metadata=BUILD_ONLY)  # mkdocs.yml line of each
    strict: bool = field(default=False, metadata=BUILD_ONLY)
    use_directory_urls: bool = True
    extra: dict[str, Any] = field(default_factory=dict)
    exclude_docs: str = ""  # gitignore-style patterns of docs_dir files that are not read
    drafts: bool = field(default=False, metadata=BUILD_ONLY)  # show `draft: true` pages (serve)
    extra_css: tuple[str, ...] = ()  # files of docs_dir every page links
    extra_javascript: tuple[str, ...] = ()
    code_host: CodeHost = CodeHost()
    # Where the code of each repository is read (what a page says is checked against it):
    # a clone for every repository, clones by repository, and fetch sources by repository.
    checkout: Path | None = field(default=None, metadata=BUILD_ONLY)
    checkouts: dict[str, Path] = field(default_factory=dict, metadata=BUILD_ONLY)
    sources: dict[str, str] = field(default_factory=dict, metadata=BUILD_ONLY)
    raw_html: bool = False
    publish_html: bool = False  # publish .html and .svg files of docs_dir (they can run script)
    statuses: dict[str, Status] = field(default_factory=lambda: dict(DEFAULT_STATUSES))
    languages: dict[str, str] = field(default_factory=dict)
    # What loading mkdocs.yml found worth a warning; counted by every build (--strict).
    warnings: tuple[ContentWarning, ...] = field(default=(), metadata=BUILD_ONLY)

    @property
    def root(self) -> Path:
        """The folder holding mkdocs.yml; relative paths in it start here."""
        return self.config_file.parent

    @property
    def cache_dir(self) -> Path:
        """Where rendered pages and fetched code are kept between builds."""
        return self.root / ".cache" / "site-gen"


STATUS_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


def web_url(value: str) -> bool:
    """An absolute http(s) address with a host, whose path has no empty segment (a path
    starting '//' names another host to a browser resolving links against it)."""
    parts = urlsplit(value.strip())
    return parts.scheme in ("http", "https") and bool(parts.hostname) and "//" not in parts.path


def output_settings(config: Config) -> str:
    """Every setting that can change what a page holds, as stable text (paths relative to
    the project, so the same project in another folder gives the same text)."""
    shown = [f"{f.name}={getattr(config, f.name)!r}" for f in dataclasses.fields(config)
             if not f.metadata.get("build_only")]
    return "\n".join(shown).replace(str(config.root), "<project>")


def default_config(root: Path | None = None) -> Config:
    """A configuration with every default, for `render_markdown` and tests."""
    base = (root or Path.cwd()).resolve()
    return Config(
        config_file=base / "mkdocs.yml", site_name="site_gen", docs_dir=base / "content",
        site_dir=base / "site", custom_dir=PACKAGE_TEMPLATES,
    )


def load_config(path: Path, *, strict: bool | None = None, site_dir: Path | None = None,
                checkout: Path | None = None, checkouts: dict[str, Path] | None = None) -> Config:
    """Read `path` and validate it; raise BuildFailed with every problem found.

    `strict`, `site_dir`, `checkout` (a clone for every repository) and `checkouts` (clones
    by repository) override the file (they come from the CLI).
    """
    path = path.resolve()
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise BuildFailed([ConfigError("config file not found", path)]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BuildFailed([ConfigError(f"cannot read config file: {_reason(exc)}", path)]) from None
    try:
        data = load_yaml(text, path, settings=True)
    except ContentError as exc:
        raise BuildFailed([ConfigError(exc.message, path, exc.line)]) from None
    if not isinstance(data, Mapping):
        raise BuildFailed([ConfigError("expected a mapping of settings at the top level", path, 1)])
    config = _Validator(path, data).config(strict, site_dir)
    if checkout is not None:
        config = dataclasses.replace(config, checkout=checkout.resolve())
    if checkouts:
        config = dataclasses.replace(config, checkouts={r: p.resolve() for r, p in checkouts.items()})
    clones = ([config.checkout] if config.checkout else []) + list(config.checkouts.values())
    bad = [ConfigError(f"checkout '{clone}' is not a git repository; expected a local clone of "
                       "the reviewed repository", path) for clone in clones
           if not _is_git_repository(clone)]
    if bad:
        raise BuildFailed(list(bad))
    return config


def _is_git_repository(path: Path) -> bool:
    return (path / ".git").exists() or (path / "HEAD").is_file() and (path / "objects").is_dir()


def _reason(exc: Exception) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)


def _empty(near: Mapping) -> Mapping:
    """A mapping with nothing in it, at the line of `near` (an absent `site_gen:`)."""
    empty = Mapping()
    empty.line, empty.key_lines = near.line, {}
    return empty


class _Validator:
    """Reads one config mapping, collecting every error before failing."""

    def __init__(self, path: Path, data: Mapping) -> None:
        self.path = path
        self.data = data
        self.errors: list[SiteGenError] = []
        self.warnings: list[ContentWarning] = []

    def error(self, mapping: Mapping, key: str, message: str) -> None:
        self.errors.append(ConfigError(message, self.path, mapping.line_of(key)))

    def get(self, mapping: Mapping, key: str, kind: type, expected: str, prefix: str = "") -> Any:
        value = mapping.get(key)
        if value is None:
            return None
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            self.error(mapping, key, f"'{prefix}{key}' must be {expected}, found {describe(value)}")
            return None
        return value

    def text(self, mapping: Mapping, key: str, prefix: str = "") -> str | None:
        value: str | None = self.get(mapping, key, str, "text", prefix)
        bad = forbidden_character(value) if value else None
        if bad:
            self.error(mapping, key, f"'{prefix}{key}' contains the control character {bad}, "
                       "which pages and feeds cannot hold; expected plain text")
            return None
        return value

    def config(self, strict: bool | None, site_dir: Path | None) -> Config:
        data = self.data
        self._unknown_keys(data, _MKDOCS_KEYS | {"site_gen"}, "", _MKDOCS_IGNORED)
        values = self._read(data, SETTINGS, "")
        own = self.get(data, "site_gen", Mapping, "a mapping")
        if own is not None:
            self._unknown_keys(own, _OWN_KEYS, "site_gen.")
        values |= self._read(own if own is not None else _empty(data), OWN_SETTINGS, "site_gen.")
        values["custom_dir"] = values.pop("theme")
        values["nav_lines"] = (tuple(data["nav"].item_lines)
                               if isinstance(data.get("nav"), Sequence) else ())
        values["strict"] = bool(strict or values["strict"])
        if site_dir is not None:
            values["site_dir"] = site_dir
        if self.errors:
            raise BuildFailed(sorted(self.errors, key=lambda e: getattr(e, "line", 0) or 0))
        return Config(config_file=self.path, **values, warnings=tuple(self.warnings))

    def _read(self, mapping: Mapping, options: dict[str, Option], prefix: str) -> dict[str, Any]:
        """Each option's value from `mapping` (its default when absent or wrong)."""
        values = {}
        for key, option in options.items():
            value = getattr(self, f"_{option.read}")(mapping, key, prefix, option.default)
            values[key] = copy.copy(option.default) if value is None else value  # never shared
        return values

    # Readers: (mapping, key, prefix, default) -> the value, or None.

    def _text(self, mapping: Mapping, key: str, prefix: str, default: Any) -> str | None:
        return self.text(mapping, key, prefix)

    def _required_text(self, mapping: Mapping, key: str, prefix: str, default: Any) -> str | None:
        if key not in mapping:
            self.errors.append(ConfigError(f"'{prefix}{key}' is required", self.path, 1))
        return self.text(mapping, key, prefix)

    def _folder(self, mapping: Mapping, key: str, prefix: str, default: Any) -> Path | None:
        """A folder, relative to mkdocs.yml's."""
        name = self.text(mapping, key, prefix) or default
        return self.path.parent / name if name else None

    def _flag(self, mapping: Mapping, key: str, prefix: str, default: Any) -> bool | None:
        value: bool | None = self.get(mapping, key, bool, "true or false", prefix)
        return value

    def _mapping(self, mapping: Mapping, key: str, prefix: str, default: Any) -> dict[str, Any] | None:
        value: dict[str, Any] | None = self.get(mapping, key, dict, "a mapping", prefix)
        return value

    def _css_files(self, mapping: Mapping, key: str, prefix: str, default: Any) -> tuple[str, ...]:
        return self._extra_files(mapping, key, ".css")

    def _js_files(self, mapping: Mapping, key: str, prefix: str, default: Any) -> tuple[str, ...]:
        return self._extra_files(mapping, key, ".js")

    def _web_address(self, mapping: Mapping, key: str, prefix: str, default: Any) -> str | None:
        return self._url(mapping, key)

    def _patterns(self, mapping: Mapping, key: str, prefix: str, default: Any) -> str:
        return self._exclude_docs(mapping)

    def _url(self, data: Mapping, key: str) -> str | None:
        """An address every page links to: http(s) only (never javascript: or data:)."""
        value = self.text(data, key)
        if value is not None and not web_url(value):
            self.error(data, key, f"'{key}' must be an http:// or https:// address, like "
                       f"'https://example.org/reviews/'; found {describe(value)}")
            return None
        return value

    def _unknown_keys(self, mapping: Mapping, known: set[str], prefix: str,
                      ignored: frozenset[str] | set[str] = frozenset()) -> None:
        for key in sorted(set(mapping) - known, key=mapping.line_of):
            if key in ignored:
                message = f"'{prefix}{key}' is a MkDocs setting that site_gen does not use"
            else:
                message = (f"unknown setting '{prefix}{key}'; {did_you_mean(key, known)}expected "
                           f"one of: {', '.join(sorted(known))}")
            self.warnings.append(ContentWarning(message, self.path, mapping.line_of(key)))

    def _theme(self, data: Mapping, key: str, prefix: str, default: Any) -> Path | None:
        """The folder of templates that shadow site_gen's own (`theme.custom_dir`)."""
        custom = self._custom_dir(data)
        return self.path.parent / custom if custom else None

    def _custom_dir(self, data: Mapping) -> str | None:
        if isinstance(data.get("theme"), str):  # MkDocs' short form, `theme: NAME`
            self._theme_name(data, "theme", "theme")
            return None
        theme = self.get(data, "theme", Mapping, "a mapping like {name: site_gen, custom_dir: "
                         "overrides}, or the name site_gen")
        if theme is None:
            return None
        self._unknown_keys(theme, {"name", "custom_dir"}, "theme.")
        self._theme_name(theme, "name", "theme.name")
        custom: str | None = self.text(theme, "custom_dir", "theme.")
        return custom

    def _theme_name(self, mapping: Mapping, key: str, shown: str) -> None:
        name = mapping.get(key)
        if name not in (None, "site_gen"):
            self.error(mapping, key, f"'{shown}' is {describe(name)}, but site_gen has one "
                       "theme of its own; leave the name out (or write site_gen), and shadow "
                       "single templates with theme.custom_dir")

    def _item_error(self, data: Mapping, key: str, index: int, message: str) -> None:
        """An error at the line of item `index` of the list under `key`."""
        items = data.get(key)
        line = items.line_of(index) if isinstance(items, Sequence) else data.line_of(key)
        self.errors.append(ConfigError(message, self.path, line))

    def _exclude_docs(self, data: Mapping) -> str:
        """MkDocs' `exclude_docs`: gitignore-style patterns, one a line."""
        patterns: str = self.get(data, "exclude_docs", str, "gitignore-style patterns, one a "
                                 "line (a YAML block: exclude_docs: |)") or ""
        try:
            if patterns.strip():
                import pathspec  # only for sites that use it: its import costs 30 ms

                pathspec.GitIgnoreSpec.from_lines(patterns.splitlines())
        except ValueError as exc:
            self.error(data, "exclude_docs", f"'exclude_docs' has a pattern git cannot read: {exc}")
            return ""
        return patterns

    def _extra_files(self, data: Mapping, key: str, ending: str) -> tuple[str, ...]:
        """`extra_css` / `extra_javascript`: files of docs_dir, linked from every page."""
        items = self.get(data, key, list, f"a list of {ending} files in docs_dir")
        found: list[str] = []
        for index, item in enumerate(items or []):
            path = item.strip().strip("/") if isinstance(item, str) else ""
            if not path.endswith(ending) or not REPO_PATH.match(path) or "://" in item:
                self._item_error(data, key, index, f"'{key}' entries must be {ending} files "
                                 f"inside docs_dir, like 'assets/extra{ending}' (nothing from "
                                 f"other hosts); found {describe(item)}")
            else:
                found.append(path)
        return tuple(found)

    def _nav(self, data: Mapping, key: str, prefix: str, default: Any) -> tuple[str, ...]:
        nav = self.get(data, "nav", list, "a list of pull request folders")
        if nav is None:
            return ()
        bad = [index for index, item in enumerate(nav) if not isinstance(item, str)]
        for index in bad:
            self._item_error(data, "nav", index, "'nav' entries must be folder paths like "
                             f"'owner/repo/123', found {describe(nav[index])}")
        if bad:
            return ()
        return tuple(item.strip("/") for item in nav)

    def _languages(self, own: Mapping, key: str, prefix: str, default: Any) -> dict[str, str] | None:
        languages = self.get(own, "languages", Mapping, "a mapping of file endings to "
                             "Pygments lexer names", "site_gen.")
        return self._lexers(languages) if languages else None

    def _sources(self, own: Mapping, key: str, prefix: str, default: Any) -> dict[str, str]:
        """`owner/repo: URL or local path` for `site-gen fetch`; paths become file:// URLs."""
        given = self.get(own, "sources", Mapping, "a mapping of 'owner/repo' to a clone URL or "
                         "a local path", "site_gen.")
        sources: dict[str, str] = {}
        for repo, where in (given or {}).items():
            if not REPO.match(repo):
                self.error(given, repo, f"'site_gen.sources' key '{repo}' must be 'owner/name'")
            elif not isinstance(where, str) or not where.strip():
                self.error(given, repo, f"'site_gen.sources.{repo}' must be a clone URL or a "
                           f"local path, found {describe(where)}")
            elif CONTROL.search(where) or where.startswith("-"):
                self.error(given, repo, f"'site_gen.sources.{repo}' must be a clone URL or a "
                           f"local path; found {describe(where)}")
            elif re.match(r"^[a-z][a-z0-9+.-]*://", where) or re.match(r"^[\w.-]+@[\w.-]+:", where):
                sources[repo] = where.strip()
            else:
                sources[repo] = (self.path.parent / where.strip()).resolve().as_uri()
        return sources

    def _code_host(self, own: Mapping, key: str, prefix: str, default: Any) -> CodeHost | None:
        host = self.get(own, "code_host", Mapping, "a mapping with 'permalink'", "site_gen.")
        if host is None:
            return None
        prefix = "site_gen.code_host."
        keys = tuple(HOST_FIELDS)
        self._unknown_keys(host, set(keys), prefix)
        fields = {k: self.text(host, k, prefix) for k in keys}
        for key, pattern in fields.items():
            if pattern is not None and not self._host_pattern(host, key, pattern, prefix):
                fields[key] = None
        return CodeHost(**{k: v for k, v in fields.items() if v is not None})

    def _host_pattern(self, host: Mapping, key: str, pattern: str, prefix: str) -> bool:
        """Check a code-host pattern: the fields it names, and (for pages) an http(s) URL."""
        allowed = HOST_FIELDS[key]
        names = "{" + "}, {".join(allowed) + "}"
        unknown = [name for name in FIELD.findall(pattern) if name not in allowed]
        missing = [name for name in ("repo", "commit", "path", "lines") if key == "permalink"
                   and "{" + name + "}" not in pattern]
        problem = None
        if unknown:
            problem = f"names the unknown field '{{{unknown[0]}}}'; expected only {names}"
        elif missing:
            problem = f"must contain {', '.join('{' + m + '}' for m in missing)}"
        elif key in WEB_PATTERNS and not web_url(fill(pattern, repo="o/r", commit="0", path="p",
                                                      lines="", number=1)):
            problem = "must be an http:// or https:// address"
        if problem:
            self.error(host, key, f"'{prefix}{key}' {problem}; found {describe(pattern)}")
        return problem is None

    def _statuses(self, own: Mapping, key: str, prefix: str, default: Any) -> dict[str, Status]:
        statuses = dict(DEFAULT_STATUSES)
        given = self.get(own, "statuses", Mapping, "a mapping of status names to "
                         "{label, tone, icon, for}", "site_gen.")
        for key, entry in (given or {}).items():
            prefix = f"site_gen.statuses.{key}."
            if not STATUS_NAME.match(key):
                self.error(given, key, f"status name '{key}' must be lower-case letters, digits, "
                           "'-' and '_', starting with a letter or digit (it becomes the URL "
                           "of its status page)")
                continue
            if not isinstance(entry, Mapping):
                self.error(given, key, f"'site_gen.statuses.{key}' must be a mapping with "
                           f"label, tone, icon and for; found {describe(entry)}")
                continue
            self._unknown_keys(entry, {"label", "tone", "icon", "for"}, prefix)
            base = statuses.get(key) or Status(key, key, "neutral", "•", tuple(sorted(USES)))
            tone = self.text(entry, "tone", prefix) or base.tone
            if tone not in TONES:
                self.error(entry, "tone", f"unknown tone '{tone}' for status '{key}'; "
                           f"expected one of: {', '.join(TONES)}")
            uses = self._uses(entry, prefix) or base.uses
            statuses[key] = Status(key, self.text(entry, "label", prefix) or base.label,
                                   tone, self.text(entry, "icon", prefix) or base.icon, uses)
        return statuses

    def _uses(self, entry: Mapping, prefix: str) -> tuple[str, ...] | None:
        uses = entry.get("for")
        if uses is None:
            return None
        items = [uses] if isinstance(uses, str) else uses
        if not isinstance(items, list) or any(u not in USES for u in items):
            self.error(entry, "for", f"'{prefix}for' must name some of: {', '.join(USES)}; "
                       f"found {describe(uses)}")
            return None
        return tuple(sorted(set(items)))

    def _lexers(self, languages: Mapping) -> dict[str, str]:
        from pygments.lexers import get_lexer_by_name
        from pygments.util import ClassNotFound

        result = {}
        for ending, name in languages.items():
            try:
                get_lexer_by_name(str(name))
            except ClassNotFound:
                self.error(languages, ending, f"unknown Pygments lexer '{name}' for "
                           f"'{ending}'; expected a lexer name such as 'python' or 'yaml'")
                continue
            result[ending.lstrip(".")] = str(name)
        return result


def fetched_dir(config: Config, repo: str) -> Path:
    """The bare repository `site-gen fetch` keeps `repo`'s pinned commits in."""
    return config.cache_dir / "repos" / f"{repo}.git"


def git_dir(config: Config, repo: str) -> Path | None:
    """Where the code of `repo` is read, if it is anywhere."""
    if repo in config.checkouts:
        return config.checkouts[repo]
    if config.checkout is not None:
        return config.checkout
    fetched = fetched_dir(config, repo)
    return fetched if fetched.is_dir() else None
