"""Import cycles between the package's modules (``python tools/import_cycles.py``).

Counts every import, at the top of a module or inside a function (a lazy import hides a
cycle from Python, not from a reader), but not those under ``if TYPE_CHECKING:``, nor a
module's import of its own package's ``__init__`` (``markdown.pipeline`` taking the
``Rendered`` type from ``markdown``), which is how a package shares its types.
Prints each cycle's modules; exits 1 if there is one (``tests/test_architecture.py``).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "site_builder"


def graph() -> dict[str, set[str]]:
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path
    edges: dict[str, set[str]] = {}
    for here, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = {
            id(child)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for child in ast.walk(node)
        }
        for node in ast.walk(tree):
            if id(node) in skipped or not isinstance(node, ast.ImportFrom) or not node.module:
                continue
            if not node.module.startswith("site_builder"):
                continue
            targets = [f"{node.module}.{alias.name}" for alias in node.names]
            for target in targets:
                there = target if target in modules else node.module
                if there != here and there != "site_builder" and not here.startswith(there + "."):
                    edges.setdefault(here, set()).add(there)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one unit (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(edges.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


if __name__ == "__main__":
    problems = cycles(graph())
    for cycle in problems:
        print("import cycle:", " <-> ".join(cycle))
    sys.exit(1 if problems else 0)
