"""The package's layers (ARCHITECTURE.md): imports run downward only, and no two
modules import each other, even lazily inside a function."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "audio_console"
GAME_PACKAGES = ("galaxis", "battleship", "arkade")


def imports() -> dict[str, set[str]]:
    """module -> the audio_console modules it imports anywhere in its code."""
    modules = {_name(path) for path in PACKAGE.rglob("*.py")}
    graph = {}
    for path in PACKAGE.rglob("*.py"):
        module = _name(path)
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("audio_console"):
                # "from audio_console.voice import frontend" depends on the submodule
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    found.add(sub if sub in modules else node.module)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name.startswith("audio_console"))
        graph[module] = found
    return graph


def _name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_the_console_layer_never_imports_a_game_or_the_registry():
    for module, targets in imports().items():
        if layer(module) == "console":
            upward = {t for t in targets if layer(t) in GAME_PACKAGES + ("games",)}
            assert not upward, f"{module} imports {sorted(upward)}"


def test_no_two_modules_import_each_other():
    graph = imports()

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            module = todo.pop()
            if module == goal:
                return True
            if module not in seen:
                seen.add(module)
                todo.extend(graph.get(module, ()))
        return False

    cycles = sorted({tuple(sorted((a, b))) for a, targets in graph.items() for b in targets
                     if a != b and b in graph and reaches(b, a)})
    assert not cycles, cycles
