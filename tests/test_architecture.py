"""The shape of the code: modules in layers, each importing only its own layer and those
below it (so no import cycle); stages that know nothing of reuse; blocks that stand on
their own; entry points with few parameters; functions short enough to read."""

from __future__ import annotations

import ast
from pathlib import Path

from site_gen.config import default_config
from site_gen.markdown import make_markdown
from site_gen.names import CONTAINERS

PACKAGE = Path(__file__).resolve().parent.parent / "site_gen"


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, *, typing: bool = False) -> set[str]:
    """The site_gen modules `path` imports (anywhere in it, TYPE_CHECKING blocks aside
    unless `typing`)."""
    module = _module(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if not typing and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = [ast.Pass()]  # imports for type checking only run no code
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            target = f"{base}.{node.module}" if node.module else base
            if node.module:
                found.add(target)
            else:  # `from . import name`: a module of the package, or a name in its __init__
                found.update(n for n in (f"{target}.{a.name}" for a in node.names) if _exists(n))
    return found


def _exists(module: str) -> bool:
    relative = Path(*module.split(".")[1:])
    return (PACKAGE / relative).with_suffix(".py").exists() or (PACKAGE / relative).is_dir()


GRAPH = {_module(p): _imports(p) for p in sorted(PACKAGE.rglob("*.py"))}
TYPED = {_module(p): _imports(p, typing=True) for p in sorted(PACKAGE.rglob("*.py"))}


def test_no_import_cycles() -> None:
    """Not even through imports for type checking only: two modules that name each other
    cannot be read, changed or tested one without the other."""
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, "import cycle: " + " -> ".join((*path, module))
        if module in done:
            return
        for imported in sorted(TYPED.get(module, ())):
            visit(imported, (*path, module))
        done.add(module)

    for module in TYPED:
        visit(module, ())


# The house, top to bottom. A module imports modules of its own layer or of those below.
LAYERS: dict[str, set[str]] = {
    "commands": {"site_gen", "__main__", "console", "cli", "pytest_plugin", "preview", "serve", "fetch",
                 "init_repo", "new_pr", "repin"},
    "build": {"build"},  # calls the stages in order, with reuse wrapped around them
    "reuse": {"reuse", "cache"},  # what builds keep for the next: memory, the cache file
    "stages": {"content", "code_check", "drift", "question_pages", "render", "results", "outputcheck",
               "output", "search"},
    "page": {"markdown", "blocks", "context", "highlight", "lexer_index", "templates", "compiled", "slugs"},
    "code": {"git_reader", "code_index", "definitions", "submodules"},
    "base": {"config", "code_host", "css", "filetypes", "components", "statuses", "yamlfile", "names",
             "urls", "suggest", "errors", "processes", "pygments_styles"},
}
STAGES = LAYERS["stages"] | LAYERS["page"] | LAYERS["code"] | LAYERS["base"]
ORDER = list(LAYERS)


def _layer(module: str) -> str:
    short = module.removeprefix("site_gen.").split(".")[0] if module != "site_gen" else module
    found = [name for name, members in LAYERS.items() if short in members]
    assert found, f"{module} is in no layer of LAYERS: place it there"
    return found[0]


def test_every_module_stands_in_one_layer() -> None:
    for module in GRAPH:
        _layer(module)


def test_no_module_imports_one_that_stands_above_it() -> None:
    upward = [f"{module} ({_layer(module)}) -> {imported} ({_layer(imported)})"
              for module, imports in GRAPH.items() for imported in sorted(imports)
              if ORDER.index(_layer(imported)) < ORDER.index(_layer(module))]
    assert upward == []


def test_stages_do_not_import_the_reuse_layer() -> None:
    """Every stage is a plain function of its inputs: reuse wraps it from outside."""
    for module in GRAPH:
        if _layer(module) != "commands" and module.removeprefix("site_gen.").split(".")[0] in STAGES:
            used = {"site_gen.reuse", "site_gen.cache"} & _closure(module)
            assert used == set(), f"{module} reaches {sorted(used)}"


def test_templates_know_nothing_of_reuse() -> None:
    templates = PACKAGE.parent / "templates"
    for path in sorted(templates.rglob("*")):
        if path.suffix in (".html", ".xml"):
            assert "kept" not in path.read_text(), path.name


# The stages build() calls, and the parameters each takes besides the settings (or the
# site folder they name), the site (its files, or the renderer, which holds both) and
# where problems go.
ENTRY_POINTS = {
    ("build", "render_site"), ("content", "discover"), ("code_check", "check_code"),
    ("reuse", "question_pages"), ("question_pages", "render_pages"),
    ("render", "other_pages"), ("outputcheck", "check_outputs"), ("output", "write_site"),
}
GIVEN = {"self", "config", "site_dir", "site", "outputs", "renderer", "problems"}


def test_entry_points_take_at_most_three_parameters() -> None:
    seen = set()
    for module, name in sorted(ENTRY_POINTS):
        tree = ast.parse((PACKAGE / f"{module}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == name:
                args = node.args
                names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
                others = [n for n in names if n not in GIVEN]
                assert len(others) <= 3, f"{module}.{name} takes {others}"
                seen.add((module, name))
    assert seen == ENTRY_POINTS


def test_blocks_do_not_import_content_discovery() -> None:
    for module, imports in GRAPH.items():
        if module.startswith("site_gen.blocks"):
            assert "site_gen.content" not in imports, module


def test_blocks_get_their_code_through_the_page_context() -> None:
    """A block reads code through the page's context (its `source`), never by importing
    the git reader, and knows nothing of what builds keep (the cache, the preview's memory)."""
    for module in GRAPH:
        if module.startswith("site_gen.blocks"):
            used = {"site_gen.git_reader", "site_gen.cache", "site_gen.reuse"} & _closure(module)
            assert used == set(), f"{module} reaches {sorted(used)}"


def _closure(module: str) -> set[str]:
    """Every module `module` imports, directly or through others."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        for imported in GRAPH.get(todo.pop(), ()):
            if imported not in seen:
                seen.add(imported)
                todo.append(imported)
    return seen


def test_no_function_is_over_60_lines() -> None:
    long = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > 60:
                    long.append(f"{path.name}:{node.lineno} {node.name} ({length} lines)")
    assert long == []


def test_blocks_register_render_rules_one_way() -> None:
    """Every render rule of a block is `render(token, env)` through block_renderer, and
    every `:::` block a container_block (which reports it when it is left open)."""
    for path in sorted((PACKAGE / "blocks").glob("*.py")):
        if path.name == "__init__.py":
            continue
        text = path.read_text()
        assert "add_render_rule" not in text, path.name
        assert "container_plugin" not in text, path.name
        assert "tokens: list[Token], idx: int, options" not in text, path.name


def test_the_reader_of_references_knows_every_container_the_build_reads() -> None:
    """repin, the drift notice and fetch read a page's blocks with `names.CONTAINERS` (to
    stay light, without the build's markdown): the `:::` blocks the build registers."""
    md = make_markdown(default_config())
    registered = [r.removeprefix("container_") for r in md.block.ruler.get_all_rules()
                  if r.startswith("container_")]
    assert registered == list(CONTAINERS)
