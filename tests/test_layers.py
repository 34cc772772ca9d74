"""The layout of adjudicator/ is its architecture (docs/architecture.md): each part imports only the
parts below it, no two modules import each other in a ring, and every import names a real module.

Imports inside functions count the same as those at the top: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "adjudicator"

LAYERS = ["common", "games", "publish", "campaign", "mail", "judge", "commands", "cli"]
"""Bottom to top: a module may import its own part and the parts before it, never one after it."""


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every adjudicator module this file imports, resolved to a dotted name (a package means its __init__)."""
    here = _module(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("adjudicator")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.startswith("adjudicator"):
                target = node.module
            else:
                continue
            for alias in node.names:  # `from . import x` imports the module x when there is one
                found.add(f"{target}.{alias.name}" if _exists(f"{target}.{alias.name}") else target)
    return found - {here}


def _exists(module: str) -> bool:
    path = PACKAGE.parent.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _part(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "cli"  # adjudicator/__init__ and __main__ stand with the CLI


GRAPH = {_module(p): _imports(p) for p in sorted(PACKAGE.rglob("*.py"))}


def test_every_import_names_a_module_that_exists() -> None:
    missing = sorted(f"{m} imports {t}" for m, targets in GRAPH.items() for t in targets if not _exists(t))
    assert not missing


def test_every_module_is_in_a_known_part() -> None:
    assert {_part(m) for m in GRAPH if m != "adjudicator"} <= set(LAYERS) | {"__main__"}


def test_lower_parts_never_import_higher_ones() -> None:
    rank = {name: i for i, name in enumerate(LAYERS)} | {"__main__": len(LAYERS)}
    upward = sorted(
        f"{m} ({_part(m)}) imports {t} ({_part(t)})"
        for m, targets in GRAPH.items()
        for t in targets
        if m != "adjudicator" and t != "adjudicator" and rank[_part(t)] > rank[_part(m)]
    )
    assert not upward


def test_the_rules_use_nothing_of_the_shell_but_the_random_stream() -> None:
    outside = sorted(
        f"{m} imports {t}"
        for m, targets in GRAPH.items()
        if _part(m) == "games"
        for t in targets
        if _part(t) != "games" and t != "adjudicator.common.rng"
    )
    assert not outside


def test_no_two_modules_import_each_other_in_a_ring() -> None:
    state: dict[str, int] = {}  # 1 on the path being walked, 2 done
    rings: list[list[str]] = []

    def walk(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(GRAPH.get(module, ())):
            if target == "adjudicator" or target in PACKAGE_INITS_OF.get(module, ()):
                continue
            if state.get(target) == 1:
                rings.append(path[path.index(target):] + [target])
            elif target not in state:
                walk(target, path + [target])
        state[module] = 2

    for module in sorted(GRAPH):
        if module not in state:
            walk(module, [module])
    assert not rings


PACKAGE_INITS_OF = {m: {".".join(m.split(".")[:i]) for i in range(1, len(m.split(".")))} for m in GRAPH}
"""Importing a module first runs its packages' __init__ files: not a ring of the module's making."""
