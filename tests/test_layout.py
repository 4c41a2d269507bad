"""Issue 14 item 9: the tests mirror the package, with one naming rule, so that the
test of audio_console/galaxis/deduction.py is tests/galaxis/test_deduction.py."""
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PACKAGE = TESTS.parent / "audio_console"
ACROSS_PACKAGES = {"play", "robust", "measure", "platforms"}   # whole sessions, bad input, scripts/measure, Windows/macOS
PACKAGE_WIDE = {"test_layers.py", "test_layout.py"}


def test_every_test_folder_is_a_package_named_after_a_package_or_a_cross_cutting_suite():
    for folder in {path.parent for path in TESTS.rglob("test_*.py")} - {TESTS}:
        assert (folder / "__init__.py").exists(), f"{folder.name} has no __init__.py"
        assert (PACKAGE / folder.name).is_dir() or folder.name in ACROSS_PACKAGES, folder.name


def test_no_test_repeats_its_folder_in_its_name():
    for path in TESTS.rglob("test_*.py"):
        if path.parent != TESTS:
            assert not path.name.startswith(f"test_{path.parent.name}_"), path.relative_to(TESTS)


def test_top_level_tests_are_for_top_level_modules():
    for path in TESTS.glob("test_*.py"):
        module = path.name.removeprefix("test_")
        assert path.name in PACKAGE_WIDE or (PACKAGE / module).exists(), path.name
