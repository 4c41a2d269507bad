"""scripts/download_model.py: checksum, safe and all-or-nothing unpacking (on local zips:
the machine that runs the tests has no internet)."""
import hashlib
import importlib.util
import stat
import zipfile
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "download_model.py"


@pytest.fixture(scope="module")
def dm():
    spec = importlib.util.spec_from_file_location("download_model", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_model_zip(path: Path, name: str, extra=()) -> str:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(f"{name}/am/final.mdl", b"acoustic model")
        z.writestr(f"{name}/conf/model.conf", b"--sample-frequency=16000\n")
        z.writestr(f"{name}/graph/Gr.fst", b"grammar")
        for entry, data in extra:
            if isinstance(entry, zipfile.ZipInfo):
                z.writestr(entry, data)
            else:
                z.writestr(entry, data)
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_verified_zip_unpacks_into_models(dm, tmp_path):
    archive = tmp_path / "m.zip"
    digest = make_model_zip(archive, "vosk-model-test")
    models = tmp_path / "models"
    code = dm.main(["--models", str(models), "--from-file", str(archive), "--sha256", digest,
                    "--name", "vosk-model-test"])
    assert code == 0
    assert (models / "vosk-model-test" / "am" / "final.mdl").read_bytes() == b"acoustic model"
    assert [p.name for p in models.iterdir()] == ["vosk-model-test"]   # no staging left


def test_a_wrong_checksum_unpacks_nothing(dm, tmp_path, capsys):
    archive = tmp_path / "m.zip"
    make_model_zip(archive, "vosk-model-test")
    models = tmp_path / "models"
    code = dm.main(["--models", str(models), "--from-file", str(archive), "--sha256", "0" * 64,
                    "--name", "vosk-model-test"])
    assert code == 1
    assert "SHA-256" in capsys.readouterr().err
    assert not (models / "vosk-model-test").exists()


@pytest.mark.parametrize("evil", ["../escaped.txt", "/tmp/absolute.txt", "vosk-model-test/../../up.txt"])
def test_entries_that_would_escape_models_are_refused_and_nothing_is_left(dm, tmp_path, evil):
    archive = tmp_path / "evil.zip"
    make_model_zip(archive, "vosk-model-test", extra=[(evil, b"gotcha")])
    models = tmp_path / "models"
    with pytest.raises(dm.ModelError):
        dm.unpack(archive, models, "vosk-model-test")
    assert list(models.iterdir()) == []                      # no model, no staging directory
    assert not (tmp_path / "escaped.txt").exists() and not (tmp_path / "up.txt").exists()


def test_symbolic_links_are_refused(dm, tmp_path):
    link = zipfile.ZipInfo("vosk-model-test/am/link")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    archive = tmp_path / "link.zip"
    make_model_zip(archive, "vosk-model-test", extra=[(link, "/etc/passwd")])
    with pytest.raises(dm.ModelError):
        dm.unpack(archive, tmp_path / "models", "vosk-model-test")


def test_a_zip_without_the_model_folder_leaves_nothing(dm, tmp_path):
    archive = tmp_path / "other.zip"
    make_model_zip(archive, "something-else")
    models = tmp_path / "models"
    with pytest.raises(dm.ModelError):
        dm.unpack(archive, models, "vosk-model-test")
    assert list(models.iterdir()) == []


def test_a_truncated_download_is_refused(dm, tmp_path):
    archive = tmp_path / "m.zip"
    make_model_zip(archive, "vosk-model-test")
    archive.write_bytes(archive.read_bytes()[:50])
    with pytest.raises(dm.ModelError):
        dm.unpack(archive, tmp_path / "models", "vosk-model-test")


def test_the_real_model_is_pinned_by_its_sha256(dm):
    assert dm.URL.endswith("vosk-model-small-en-us-0.15.zip")
    assert len(dm.SHA256) == 64 and int(dm.SHA256, 16) >= 0
