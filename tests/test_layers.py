"""The package's layers (docs/architecture.md, "The layers and what each may import"):
imports run downward only, every module is in a layer, and no two modules import each
other, even lazily inside a function.

An import is seen in every form the package could use: `import a.b`, `from a import
b`, relative imports (`from . import x`, `from ..console import y`), and
`importlib.import_module("...")` / `__import__("...")` with a literal name. A dynamic
import whose name is not a literal cannot be checked, so it is refused. The tests at
the end plant violations in a copy of the package and show that each is caught."""
import ast
import functools
import shutil
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "audio_console"
ROOT = "audio_console"
GAME_PACKAGES = ("galaxis", "battleship", "arkade")

# The way a command travels, speech -> commands -> session -> rules core -> cues ->
# output, as imports: each layer (its modules, by the longest matching prefix) and the
# layers it may import. The session reaches a game only through the contract a game
# implements (the contract package: GameAdapter, Reply, GameInfo, hot-seat passing), so
# it never imports one (nor a game the session); the voice layer knows no game; output knows neither sound nor the console, and the
# audio engine implements output's sink. console.storage is the
# session's (saves, the event log); the file helpers every layer uses are in files.
LAYERS = {
    "app": ("app", "__main__"),             # cli, recognize, the games' registry: wires everything
    "session": ("console",),
    "game": GAME_PACKAGES,                  # rules core, board memory, cues, adapter
    "contract": ("contract",),
    "speech": ("voice",),
    "commands": ("commands",),
    "sound": ("audio",),
    "output": ("output",),
    "base": ("", "base"),                   # "": the package itself (its version)
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
# Upward imports that need a module moved to mend, which the session that found them
# could not do (docs/architecture.md, "Known violations"). Take an entry off when it
# is mended; none is left.
KNOWN_VIOLATIONS: set[tuple[str, str]] = set()
# Inside a game: its rules core (pure) imports only the core, its cues (events to
# words and sounds, and the rules in short) the core too; the upper part may import
# all of the game. Every
# module of a game is in one of the three ("": the package's __init__).
GAME_CORE = ("", "rules", "board", "events", "deduction", "rollout", "endgame", "footprints",
             "pieces", "dice", "chips", "alien", "defence", "actions")
GAME_CUES = ("cues", "rules_summary")
GAME_UPPER = ("console", "entry", "assistant", "practice", "explain", "review", "computer",
              "computer_play", "memory", "commands", "readout", "placing", "arcade", "tutorial", "storing")


# --- reading the imports -------------------------------------------------------------

def module_name(path: Path, package: Path) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package_of(module: str, path: Path) -> str:
    """The package a relative import in `module` starts from."""
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _absolute(name: str, level: int, package: str) -> str:
    """A relative import's absolute name ("from ..console import x" -> "audio_console.console")."""
    if level == 0:
        return name
    parts = package.split(".")
    base = ".".join(parts[:len(parts) - (level - 1)])
    return f"{base}.{name}" if name else base


def _dynamic_name(call: ast.Call, package: str) -> str | None:
    """The module an importlib.import_module / __import__ call names; "" when it is not
    a literal (it cannot be checked); None when the call is no import."""
    func = call.func
    called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if called not in ("import_module", "__import__"):
        return None
    if not call.args or not isinstance(call.args[0], ast.Constant) or not isinstance(call.args[0].value, str):
        return ""
    name = call.args[0].value
    if called == "import_module" and name.startswith("."):
        anchor = call.args[1] if len(call.args) > 1 else next(
            (k.value for k in call.keywords if k.arg == "package"), None)
        if isinstance(anchor, ast.Constant) and isinstance(anchor.value, str):
            package = anchor.value
        elif anchor is not None and not (isinstance(anchor, ast.Name) and anchor.id == "__package__"):
            return ""
        level = len(name) - len(name.lstrip("."))
        return _absolute(name.lstrip("."), level, package)
    return name


def _imports_of(path: Path, module: str, modules: set[str]) -> tuple[set[str], list[int]]:
    """The package's modules `path` imports, and the lines of dynamic imports it cannot name."""
    package = _package_of(module, path)
    found: set[str] = set()
    unnamed: list[int] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            target = _absolute(node.module or "", node.level, package)
            for alias in node.names:      # "from audio_console.voice import trust": the submodule
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in modules else target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Call):
            name = _dynamic_name(node, package)
            if name == "":
                unnamed.append(node.lineno)
            elif name:
                found.add(name)
    return {t for t in found if t == ROOT or t.startswith(ROOT + ".")}, unnamed


@functools.lru_cache(maxsize=None)
def read_package(package: Path = PACKAGE) -> tuple[dict[str, set[str]], dict[str, list[int]]]:
    """module -> the package's modules it imports anywhere in its code; and module ->
    the lines of its dynamic imports whose name is no literal."""
    paths = {module_name(path, package): path for path in package.rglob("*.py")}
    graph, unnamed = {}, {}
    for module, path in paths.items():
        graph[module], lines = _imports_of(path, module, set(paths))
        if lines:
            unnamed[module] = lines
    return graph, unnamed


def imports(package: Path = PACKAGE) -> dict[str, set[str]]:
    return read_package(package)[0]


# --- the layers ----------------------------------------------------------------------

def layer(module: str) -> str:
    """The package a module is in ("console", "galaxis", ...)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def layer_of(module: str) -> str | None:
    """The LAYERS entry of a module, by its longest matching prefix; None: in no layer."""
    name = module.removeprefix(ROOT).lstrip(".")
    best, length = None, -1
    for layer_name, prefixes in LAYERS.items():
        for prefix in prefixes:
            matches = name == prefix or (prefix != "" and name.startswith(prefix + "."))
            if matches and len(prefix) > length:
                best, length = layer_name, len(prefix)
    return best


def game_part(module: str) -> str | None:
    """A game module's part: "core", "cues" or "upper"; None: in none of them."""
    part = module.split(".")[2] if module.count(".") >= 2 else ""
    for name, parts in (("core", GAME_CORE), ("cues", GAME_CUES), ("upper", GAME_UPPER)):
        if part in parts:
            return name
    return None


def upward_imports(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """Every (module, target) where a module imports a layer it may not."""
    upward = set()
    for module, targets in graph.items():
        mine = layer_of(module)
        for target in targets:
            theirs = layer_of(target)
            if mine and theirs and theirs != mine and theirs not in MAY_IMPORT[mine]:
                upward.add((module, target))
    return upward


def in_no_layer(graph: dict[str, set[str]]) -> set[str]:
    """Modules (and import targets) that no layer, or no part of their game, holds."""
    names = set(graph) | {t for targets in graph.values() for t in targets}
    return ({m for m in names if layer_of(m) is None}
            | {m for m in names if layer_of(m) == "game" and game_part(m) is None})


def game_part_violations(graph: dict[str, set[str]]) -> list[str]:
    """A game's core importing more than its core, its cues more than core and output."""
    found = []
    for module, targets in graph.items():
        part = game_part(module) if layer(module) in GAME_PACKAGES else None
        if part not in ("core", "cues"):
            continue
        own = {t for t in targets if layer(t) == layer(module)}
        above = {t for t in own if game_part(t) != "core"}
        allowed = ("game", "base") if part == "core" else ("game", "output", "base")
        outside = {t for t in targets - own if layer_of(t) not in allowed}
        if above | outside:
            found.append(f"{module} ({part}) imports {sorted(above | outside)}")
    return found


def violations(package: Path = PACKAGE) -> list[str]:
    """Everything the layer tests would refuse in the package at `package`."""
    graph, unnamed = read_package(package)
    found = [f"{m} imports {t} ({layer_of(t)}), above its layer {layer_of(m)}"
             for m, t in sorted(upward_imports(graph) - KNOWN_VIOLATIONS)]
    found += [f"{m} is in no layer of tests/test_layers.py" for m in sorted(in_no_layer(graph))]
    found += [f"{m} imports a module named by no literal, line {n}" for m, lines in unnamed.items() for n in lines]
    return found + game_part_violations(graph)


# --- the package as it is ------------------------------------------------------------

def test_the_layer_table_is_complete_and_points_downward():
    assert set(MAY_IMPORT) == set(LAYERS)
    for layer_name, allowed in MAY_IMPORT.items():    # no pair of layers may import each other
        assert not {other for other in allowed if layer_name in MAY_IMPORT[other]}, layer_name


def test_every_module_is_in_a_layer_and_every_game_module_in_a_part():
    assert not in_no_layer(imports())


def test_no_module_imports_a_layer_above_it():
    graph = imports()
    assert not upward_imports(graph) - KNOWN_VIOLATIONS
    # a mended violation comes off the list, so that it cannot come back unseen
    assert not KNOWN_VIOLATIONS - upward_imports(graph), "mended: take it off KNOWN_VIOLATIONS"


def test_every_dynamic_import_names_its_module():
    assert not read_package()[1]


def test_a_games_rules_core_and_cues_never_import_the_parts_above_them():
    assert not game_part_violations(imports())


def test_the_console_layer_never_imports_a_game_or_the_registry():
    for module, targets in imports().items():
        if layer(module) == "console":
            upward = {t for t in targets if layer(t) in GAME_PACKAGES + ("games",)}
            assert not upward, f"{module} imports {sorted(upward)}"


def test_the_voice_layer_never_imports_a_game_or_the_registry():
    for module, targets in imports().items():
        if layer(module) == "voice":
            assert not {t for t in targets if layer(t) in GAME_PACKAGES + ("games",)}, module


def test_output_never_imports_sound_or_the_console():
    for module, targets in imports().items():
        if layer(module) == "output":
            assert not {t for t in targets if layer(t) in ("audio", "console")}, module


def test_no_game_imports_another_game():
    for module, targets in imports().items():
        if layer(module) in GAME_PACKAGES:
            others = {t for t in targets if layer(t) in GAME_PACKAGES and layer(t) != layer(module)}
            assert not others, f"{module} imports {sorted(others)}"


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


def test_the_package_never_imports_the_measuring_tools_or_the_tests():
    # scripts/measure (the compiled exact solver, the self-play harnesses) stays out of play
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            for name in names:
                assert name.split(".")[0] not in ("scripts", "tests"), f"{path.name} imports {name}"
    assert not list(PACKAGE.rglob("*.c")), "C sources belong with the measuring tools, not the package"


# --- the test cannot be fooled: violations planted in a copy of the package ------------

def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / ROOT
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.json"))
    return copy


def _plant(copy: Path, relative: str, code: str) -> None:
    path = copy / relative
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    path.write_text(text + "\n\ndef _planted():\n    " + code.replace("\n", "\n    ") + "\n",
                    encoding="utf-8")


def test_the_copy_of_the_package_passes_as_the_package_does(tmp_path):
    copy = _copy(tmp_path)
    _plant(copy, "voice/trace.py", "from . import recognizer\nfrom .recognizer import Decoded")
    assert violations(copy) == violations(PACKAGE) == []


def test_an_upward_relative_import_is_caught(tmp_path):
    copy = _copy(tmp_path)
    _plant(copy, "output/message.py", "from ..console import session")
    _plant(copy, "voice/trace.py", "from ..app import games")
    found = violations(copy)
    assert any("audio_console.output.message imports audio_console.console.session" in v for v in found)
    assert any("audio_console.voice.trace imports audio_console.app.games" in v for v in found)


def test_an_importlib_import_is_caught(tmp_path):
    copy = _copy(tmp_path)
    _plant(copy, "voice/trace.py", "import importlib\nimportlib.import_module('audio_console.galaxis.rules')")
    _plant(copy, "output/sink.py", "__import__('audio_console.audio.engine')")
    _plant(copy, "base/settings.py", "from importlib import import_module\nimport_module('.menu', package='audio_console.console')")
    found = violations(copy)
    assert any("audio_console.voice.trace imports audio_console.galaxis.rules" in v for v in found)
    assert any("audio_console.output.sink imports audio_console.audio.engine" in v for v in found)
    assert any("audio_console.base.settings imports audio_console.console.menu" in v for v in found)


def test_a_dynamic_import_without_a_literal_name_is_caught(tmp_path):
    copy = _copy(tmp_path)
    _plant(copy, "output/sink.py", "import importlib\nname = 'audio_console.console'\nimportlib.import_module(name)")
    assert any("audio_console.output.sink imports a module named by no literal" in v for v in violations(copy))


def test_a_module_in_no_layer_is_caught(tmp_path):
    copy = _copy(tmp_path)
    (copy / "helpers.py").write_text('"""Somewhere new."""\n', encoding="utf-8")
    (copy / "galaxis" / "scoring.py").write_text('"""A new part of a game."""\n', encoding="utf-8")
    found = violations(copy)
    assert "audio_console.helpers is in no layer of tests/test_layers.py" in found
    assert "audio_console.galaxis.scoring is in no layer of tests/test_layers.py" in found


def test_a_rules_core_importing_its_console_is_caught(tmp_path):
    copy = _copy(tmp_path)
    _plant(copy, "galaxis/rules.py", "from . import review")
    assert any(v.startswith("audio_console.galaxis.rules (core) imports") and "review" in v
               for v in violations(copy))


def test_a_game_importing_the_session_is_caught(tmp_path):
    copy = _copy(tmp_path)
    _plant(copy, "battleship/placing.py", "from audio_console.console.history import MessageHistory")
    assert any("audio_console.battleship.placing imports audio_console.console.history (session)" in v
               for v in violations(copy))
