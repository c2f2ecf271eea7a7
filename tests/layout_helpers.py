"""Reading a package's shape from its source with `ast` (nothing is imported, so no torch):
which zonkcam modules each file imports, import cycles, and long modules."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # each top-level folder is the package zonkcam.<folder>


def dotted(path: Path) -> str:
    """`models/crops.py` -> "zonkcam.models.crops"; a package's `__init__.py` -> the package."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(("zonkcam", *parts))


def imported(path: Path, top_level_only: bool = False) -> set[str]:
    """The zonkcam modules `path` imports: at module level, and unless `top_level_only` also
    inside functions and `if TYPE_CHECKING:`. `from zonkcam.a import b` counts as both
    "zonkcam.a" and "zonkcam.a.b" (b may be a module); relative imports are resolved."""
    tree = ast.parse(path.read_text("utf-8"))
    nodes = tree.body if top_level_only else ast.walk(tree)
    package = dotted(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[:len(package) - node.level + 1]) if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            found |= {module} | {f"{module}.{a.name}" for a in node.names}
    return {m for m in found if m == "zonkcam" or m.startswith(("zonkcam.", "torch"))}


def package_graph(folder: Path, top_level_only: bool = False) -> dict[str, set[str]]:
    """Module name -> the modules of the same package (one folder, no subpackages) it imports."""
    package = dotted(folder / "__init__.py")
    names = {p.stem for p in folder.glob("*.py")}
    graph = {}
    for path in folder.glob("*.py"):
        deps = {m.removeprefix(package + ".").split(".")[0]
                for m in imported(path, top_level_only) if m.startswith(package + ".")}
        graph[path.stem] = (deps & names) - {path.stem}
    return graph


def import_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of `graph` as [a, b, ..., a], or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return [*path[path.index(module):], module]
        if module in done:
            return None
        for dep in sorted(graph[module]):
            if cycle := visit(dep, [*path, module]):
                return cycle
        done.add(module)
        return None

    for module in sorted(graph):
        if cycle := visit(module, []):
            return cycle
    return None


def long_modules(folder: Path, limit: int = 500) -> dict[str, int]:
    """Modules under `folder` (subfolders too) longer than `limit` lines."""
    sizes = {str(p.relative_to(folder)): len(p.read_text("utf-8").splitlines())
             for p in folder.rglob("*.py")}
    return {name: n for name, n in sizes.items() if n > limit}


def tree_graph(folder: Path, top_level_only: bool = False) -> dict[str, set[str]]:
    """Like `package_graph`, over the package and its subpackages: names are dotted below the
    package ("cli.play", "store"; a subpackage's `__init__.py` is "cli")."""
    package = dotted(folder / "__init__.py")
    paths = {dotted(p).removeprefix(package + "."): p for p in folder.rglob("*.py")
             if p.name != "__main__.py" and p != folder / "__init__.py"}
    graph = {}
    for name, path in paths.items():
        deps = {m.removeprefix(package + ".") for m in imported(path, top_level_only)
                if m.startswith(package + ".")}
        graph[name] = (deps & paths.keys()) - {name}
    return graph
