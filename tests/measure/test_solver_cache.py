"""Item 17 of issue 12 (the solver part): the compiled exact solver is loaded only
when it is the library the console built itself (a hash beside it)."""
import pytest

from scripts.measure import exact


@pytest.fixture
def cache(tmp_path, monkeypatch):
    if exact.find_compiler() is None:
        pytest.skip("no C compiler (cc or gcc) for the exact solver, a measuring tool; scripts/test installs gcc")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    exact._library.cache_clear()
    yield tmp_path / "audio_console"
    exact._library.cache_clear()


def built(cache):
    [library] = cache.glob("galaxis_exact_*.so")
    return library, library.with_name(library.name + ".sha256")


def test_the_solver_is_built_with_its_hash_beside_it(cache):
    exact._library()
    library, stamp = built(cache)
    assert stamp.read_text().strip() == exact._digest(library)
    assert exact._built_by_us(library)


@pytest.mark.parametrize("tamper", ["replaced", "no hash", "world-writable"])
def test_a_cached_library_that_is_not_ours_is_rebuilt_not_loaded(cache, tamper):
    exact._library()
    library, stamp = built(cache)
    exact._library.cache_clear()
    if tamper == "replaced":      # a planted file under the expected name (a new file:
        planted = library.with_name("planted")   # the loaded one is mapped in this process)
        planted.write_bytes(b"\x7fELF not the solver")
        planted.replace(library)
    elif tamper == "no hash":
        stamp.unlink()
    else:
        library.chmod(0o777)      # anyone could have replaced it
    assert not exact._built_by_us(library)
    exact._library()              # builds again instead of loading the planted file
    assert exact._built_by_us(library)
    assert library.read_bytes()[:4] == b"\x7fELF" and b"not the solver" not in library.read_bytes()
