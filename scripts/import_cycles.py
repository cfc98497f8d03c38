"""Import cycles between gqlir's packages, counting imports inside functions.

Every ``import`` and ``from … import`` in every module of ``gqlir`` counts, wherever it stands
(module level, inside a function, inside ``try``), except those under ``if TYPE_CHECKING:``,
which never run. A module belongs to its package: ``gqlir/parser/sql.py`` to ``gqlir.parser``,
a top-level module such as ``gqlir/api.py`` is a package of its own, and so is the root
``gqlir/__init__.py`` (``gqlir``). An edge A → B means some module of A imports one of B. A
cycle is a strongly connected set of two or more packages; each is printed with one cycle
through it, module by module, so that it can be broken.

    python scripts/import_cycles.py            # the cycles, and their count; exit 1 if any
    python scripts/import_cycles.py --edges    # also every package edge with one import site
"""

from __future__ import annotations

import argparse
import ast
import itertools
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "gqlir"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_of(module: str, packages: set[str]) -> str:
    """``gqlir.parser.sql`` -> ``gqlir.parser``; ``gqlir.api`` -> ``gqlir.api``."""
    parts = module.split(".")
    if len(parts) >= 2 and ".".join(parts[:2]) in packages:
        return ".".join(parts[:2])
    return module if len(parts) <= 2 else ".".join(parts[:2])


class _Imports(ast.NodeVisitor):
    """The modules one module imports at run time (TYPE_CHECKING blocks left out)."""

    def __init__(self, module: str, is_package: bool, known: set[str]) -> None:
        self.module = module
        self.is_package = is_package
        self.known = known
        self.found: list[tuple[str, int]] = []

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
        if name == "TYPE_CHECKING":
            for inner in node.orelse:
                self.visit(inner)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name == "gqlir" or alias.name.startswith("gqlir."):
                self.found.append((alias.name, node.lineno))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.module.split(".")
            if not self.is_package:
                base = base[:-1]
            base = base[: len(base) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        if not (target == "gqlir" or target.startswith("gqlir.")):
            return
        for alias in node.names:
            sub = f"{target}.{alias.name}"
            self.found.append((sub if sub in self.known else target, node.lineno))


def import_graph() -> tuple[dict[str, dict[str, tuple[str, str, int]]], set[str]]:
    """package -> imported package -> one (importing module, imported module, line)."""
    files = sorted(ROOT.rglob("*.py"))
    modules = {module_name(f): f for f in files}
    packages = {m for m, f in modules.items() if f.name == "__init__.py" and m.count(".") == 1}
    edges: dict[str, dict[str, tuple[str, str, int]]] = defaultdict(dict)
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        visitor = _Imports(module, path.name == "__init__.py", set(modules))
        visitor.visit(tree)
        source = package_of(module, packages)
        for imported, line in visitor.found:
            target = package_of(imported, packages)
            if target != source:
                edges[source].setdefault(target, (module, imported, line))
    return edges, set(modules)


def strongly_connected(edges: dict[str, dict[str, tuple[str, str, int]]]) -> list[list[str]]:
    """Tarjan's algorithm, iteratively: the components of two or more packages."""
    nodes = set(edges) | {t for targets in edges.values() for t in targets}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for start in sorted(nodes):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, {}))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, {})))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def a_cycle(component: list[str], edges: dict[str, dict[str, tuple[str, str, int]]]) -> list[str]:
    """One cycle through the component's first package (breadth-first, shortest)."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(edges.get(node, {})):
            if nxt == start:
                return paths[node] + [start]
            if nxt in members and nxt not in paths:
                paths[nxt] = paths[node] + [nxt]
                queue.append(nxt)
    return component


def cycles() -> list[tuple[list[str], list[str]]]:
    """Each cycle group (a strongly connected set of packages) with one cycle through it."""
    edges, _ = import_graph()
    return [(c, a_cycle(c, edges)) for c in strongly_connected(edges)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edges", action="store_true", help="print every package edge")
    args = parser.parse_args(argv)
    edges, _ = import_graph()
    if args.edges:
        for source in sorted(edges):
            for target, (module, imported, line) in sorted(edges[source].items()):
                print(f"{source} -> {target}   ({module}:{line} imports {imported})")
    found = cycles()
    for component, cycle in found:
        print(f"cycle among {len(component)} packages: {', '.join(component)}")
        for a, b in itertools.pairwise(cycle):
            module, imported, line = edges[a][b]
            print(f"    {a} -> {b}   ({module}:{line} imports {imported})")
    print(f"{len(found)} import cycles between packages")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
