"""The shape of the code: modules without import cycles, blocks that stand on their own,
functions short enough to read."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "site_gen"


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The site_gen modules `path` imports (anywhere in it, TYPE_CHECKING blocks aside)."""
    module = _module(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
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


def test_no_import_cycles() -> None:
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, "import cycle: " + " -> ".join((*path, module))
        if module in done:
            return
        for imported in sorted(GRAPH.get(module, ())):
            visit(imported, (*path, module))
        done.add(module)

    for module in GRAPH:
        visit(module, ())


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
