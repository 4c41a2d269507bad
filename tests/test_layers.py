"""The package's layers (ARCHITECTURE.md): imports run downward only, and no two
modules import each other, even lazily inside a function."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "audio_console"
GAME_PACKAGES = ("galaxis", "battleship", "arkade")

# ARCHITECTURE.md's chain, speech -> commands -> session -> rules core -> cues -> output,
# is the way a command travels. As imports: each layer (its modules, by the longest
# matching prefix) and the layers it may import. The session reaches a game only
# through the contract a game implements (console.base, console.gameinfo, and
# console.adapter's GameAdapter, the base of every game's adapter), so it never
# imports one; the voice layer (speech) knows no game; output knows neither sound nor
# console, and the audio engine implements output's sink.
LAYERS = {
    "app": ("cli", "__main__", "recognize", "games"),     # wires everything; names the games
    "session": ("console",),
    "game": GAME_PACKAGES,                  # rules core, board memory, cues, adapter
    "contract": ("console.base", "console.gameinfo", "console.adapter"),   # adapter: GameAdapter
    "speech": ("voice",),
    "commands": ("commands",),
    "sound": ("audio",),
    "output": ("output",),
    "base": ("settings", "wording", "console.storage"),
}
MAY_IMPORT = {
    "app": {"session", "game", "contract", "speech", "commands", "sound", "output", "base"},
    "session": {"contract", "speech", "commands", "output", "base"},
    "game": {"contract", "commands", "output", "base"},
    "contract": {"commands", "output", "base"},
    "speech": {"commands", "sound", "output", "base"},
    "commands": {"base"},
    "sound": {"output", "base"},
    "output": {"base"},
    "base": set(),
}
# Inside a game: its rules core (pure) and its cues (events to words and sounds) never
# import the parts of the game above them.
GAME_UPPER = ("console", "entry", "assistant", "practice", "computer", "memory", "commands", "readout")
GAME_CORE = ("rules", "board", "events", "deduction", "rollout", "footprints",
             "pieces", "dice", "chips", "alien", "defence")


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


def layer_of(module: str) -> str:
    """The LAYERS entry of an audio_console module, by its longest matching prefix."""
    name = module.removeprefix("audio_console").lstrip(".")
    best, length = None, -1
    for layer_name, prefixes in LAYERS.items():
        for prefix in prefixes:
            if (name == prefix or name.startswith(prefix + ".")) and len(prefix) > length:
                best, length = layer_name, len(prefix)
    assert best is not None, f"{module} is in no layer of tests/test_layers.py's LAYERS"
    return best


def test_the_layer_table_is_complete_and_points_downward():
    assert set(MAY_IMPORT) == set(LAYERS)
    for layer_name, allowed in MAY_IMPORT.items():    # no pair of layers may import each other
        assert not {other for other in allowed if layer_name in MAY_IMPORT[other]}, layer_name


def test_no_module_imports_a_layer_above_it():
    upward = []
    for module, targets in imports().items():
        if module == "audio_console":
            continue
        mine = layer_of(module)
        for target in targets:
            theirs = layer_of(target) if target != "audio_console" else mine
            if theirs != mine and theirs not in MAY_IMPORT[mine]:
                upward.append(f"{module} ({mine}) imports {target} ({theirs})")
    assert not upward, "\n".join(upward)


def test_output_never_imports_sound_or_the_console():
    for module, targets in imports().items():
        if layer(module) == "output":
            assert not {t for t in targets if layer(t) in ("audio", "console")}, module


def test_the_voice_layer_never_imports_a_game_or_the_registry():
    for module, targets in imports().items():
        if layer(module) == "voice":
            assert not {t for t in targets if layer(t) in GAME_PACKAGES + ("games",)}, module


def test_a_games_rules_core_and_cues_never_import_the_parts_above_them():
    for module, targets in imports().items():
        parts = module.split(".")
        if len(parts) != 3 or parts[1] not in GAME_PACKAGES or parts[2] not in GAME_CORE + ("cues",):
            continue
        game = parts[1]
        upper = {t for t in targets if t.split(".")[1:2] == [game] and t.split(".")[-1] in GAME_UPPER}
        assert not upper, f"{module} imports {sorted(upper)}"
        other_layers = {t for t in targets if layer_of(t) not in ("game", "output", "base")}
        if parts[2] in GAME_CORE:      # pure: no words, no sound, no console
            other_layers |= {t for t in targets if layer_of(t) == "output"}
        assert not other_layers, f"{module} imports {sorted(other_layers)}"


def test_no_game_imports_another_game():
    for module, targets in imports().items():
        if layer(module) in GAME_PACKAGES:
            others = {t for t in targets if layer(t) in GAME_PACKAGES and layer(t) != layer(module)}
            assert not others, f"{module} imports {sorted(others)}"


def test_the_package_never_imports_the_measuring_tools_or_the_tests():
    # scripts/measure (the compiled exact solver, the self-play harnesses) stays out of play
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            for name in names:
                assert name.split(".")[0] not in ("scripts", "tests"), f"{path.name} imports {name}"
    assert not list(PACKAGE.rglob("*.c")), "C sources belong with the measuring tools, not the package"
