"""Issue 31, item 9: hostile download servers on 127.0.0.1, met by the downloader
itself and by scripts/download_model.py: a body trickled a byte at a time, headers
trickled a byte at a time, a server that accepts and never answers, a reply that is
not HTTP, a redirect loop. Each download ends by its deadline (made small here through
the environment variable a player on a slow link would use the other way), says
progress meanwhile, and fails in one printable line; nothing is kept."""
import os
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from audio_console.voice import download_watch, model_fetch
from audio_console.voice.model_fetch import START_ENV, ModelError, download_file
from tests.conftest import ROOT

SCRIPT = ROOT / "scripts" / "download_model.py"


class Trickle(BaseHTTPRequestHandler):
    """2,227 bytes announced (base.en's config.json), one sent every 0.3 s; /loop and
    base.en's files redirect to themselves when the path asks for it."""
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path.startswith("/loop"):
            self.send_response(308)
            self.send_header("Location", self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Length", "2227")
        self.end_headers()
        try:
            for _ in range(2227):
                self.wfile.write(b"x")
                self.wfile.flush()
                time.sleep(0.3)
        except OSError:
            pass          # the client gave up: expected


@pytest.fixture
def origin():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Trickle)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def raw_server(answer):
    """A server that reads a request, then calls answer(connection) (on its own thread)."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return

            def one(conn=conn):
                with conn:
                    conn.recv(4096)
                    try:
                        answer(conn)
                    except OSError:
                        pass
            threading.Thread(target=one, daemon=True).start()
    threading.Thread(target=serve, daemon=True).start()
    return listener, f"http://127.0.0.1:{listener.getsockname()[1]}"


def garbage(conn):
    conn.sendall(b"\x00\xff\rGARBAGE\x1b[2J\r\n\r\n")


def trickled_headers(conn):
    """A status line, then a header that never ends, a byte every 0.3 s: each read gets
    something in time, so only an overall deadline can end it."""
    conn.sendall(b"HTTP/1.1 200 OK\r\nX-Pad: ")
    for _ in range(10_000):
        conn.sendall(b"a")
        time.sleep(0.3)


def silent(conn):
    time.sleep(60)


@pytest.fixture
def server(request):
    listener, url = raw_server(request.param)
    yield url
    listener.close()


@pytest.fixture
def small_deadline(monkeypatch):
    monkeypatch.setenv(START_ENV, "3")         # 3 s, plus the file's size at 50 kB/s
    monkeypatch.setattr(download_watch, "QUIET", 1.0)


def one_printable_line(text):
    return text.isprintable() and len(text) <= model_fetch.MAX_LINE


def test_a_trickling_body_meets_the_deadline_with_progress_lines(tmp_path, origin, small_deadline, capsys):
    started = time.monotonic()
    with pytest.raises(ModelError) as error:
        download_file(f"{origin}/small.bin", tmp_path / "small.bin", "0" * 64, 2227, out=sys.stdout)
    assert time.monotonic() - started < 6
    assert str(error.value).startswith("small.bin: the server is too slow (")
    assert "nothing was kept, try again later (on a slow link, set AUDIO_CONSOLE_DOWNLOAD_SPEED" in str(error.value)
    first, *progress = capsys.readouterr().out.splitlines()
    assert first == "small.bin: downloading 2 KB."           # a line as the file starts, small or not
    assert len(progress) >= 2 and all(line.startswith("small.bin: ") and line.endswith("of 2 KB so far, slowly")
                                      for line in progress)
    assert list(tmp_path.iterdir()) == []           # no .part, no file


@pytest.mark.parametrize("server", [trickled_headers, silent], indirect=True, ids=["trickled headers", "silent"])
def test_a_server_that_never_finishes_its_headers_meets_the_deadline(tmp_path, server, small_deadline, capsys):
    """Before the watchdog each read got a byte in time: the download ran for ever."""
    started = time.monotonic()
    with pytest.raises(ModelError) as error:
        download_file(f"{server}/config.json", tmp_path / "config.json", "0" * 64, 2227, out=sys.stdout)
    assert 2.5 < time.monotonic() - started < 6
    assert str(error.value).startswith("config.json: the server is too slow (0 bytes in 3 s); nothing was kept")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "config.json: downloading 2 KB."
    assert "config.json: 0 bytes of 2 KB so far, slowly" in lines[1:]     # said while nothing came
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("server", [garbage], indirect=True)
def test_a_reply_that_is_not_http_is_one_printable_line(tmp_path, server):
    with pytest.raises(ModelError) as error:
        download_file(f"{server}/model.bin", tmp_path / "model.bin", "0" * 64, 10, timeout=5)
    assert str(error.value) == (f"model.bin: download failed: the server at {server}/model.bin does not answer "
                                "in HTTP; nothing was kept")
    assert list(tmp_path.iterdir()) == []


def test_a_redirect_loop_is_one_line(tmp_path, origin):
    with pytest.raises(ModelError) as error:
        download_file(f"{origin}/loop", tmp_path / "model.bin", "0" * 64, 10, timeout=5)
    message = str(error.value)
    assert message.startswith("model.bin: download failed: the server answered 308")
    assert one_printable_line(message) and message.endswith("; nothing was kept")


def test_every_model_error_is_one_printable_line():
    assert str(ModelError("a\nb\r\x00c\x1b[2J  d\xff")) == "a b ?c?[2J d\xff"
    assert len(str(ModelError("x" * 5000))) == model_fetch.MAX_LINE


# --- the same through scripts/download_model.py, as a player runs it ----------------------------

def download(mirror, models, start_up="3"):
    env = {**os.environ, "PYTHONPATH": str(ROOT), START_ENV: start_up}
    started = time.monotonic()
    done = subprocess.run([sys.executable, str(SCRIPT), "base.en", "--models", str(models), "--mirror", mirror],
                          capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    return done, time.monotonic() - started


@pytest.mark.parametrize("server", [trickled_headers], indirect=True)
def test_the_script_ends_a_trickling_server_by_its_deadline_in_one_line(tmp_path, server):
    done, took = download(server, tmp_path / "models")
    assert done.returncode == 1 and took < 20
    assert done.stdout.splitlines()[:2] == ["Downloading base.en: 147.8 MB in 4 files from Systran/faster-whisper-base.en.",
                                            "config.json: downloading 2 KB."]
    [line] = done.stderr.splitlines()
    assert line.startswith("Model not installed: config.json: the server is too slow (0 bytes in 3 s)")
    assert not list((tmp_path / "models").glob("**/*.part"))


@pytest.mark.parametrize("server", [garbage], indirect=True)
def test_the_script_never_prints_a_servers_raw_bytes(tmp_path, server):
    done, _ = download(server, tmp_path / "models")
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line == (f"Model not installed: config.json: download failed: the server at {server}/Systran/"
                    "faster-whisper-base.en/resolve/3d3d5dee26484f91867d81cb899cfcf72b96be6c/config.json does not "
                    "answer in HTTP; nothing was kept")
    assert all(one_printable_line(text) for text in done.stdout.splitlines() + done.stderr.splitlines())


def test_the_script_says_a_redirect_loop_in_one_line(tmp_path, origin):
    done, _ = download(f"{origin}/loop", tmp_path / "models")
    assert done.returncode == 1
    [line] = done.stderr.splitlines()           # urllib's own message has three lines
    assert line == (f"Model not installed: config.json: download failed: the server answered 308, redirects that "
                    f"go round in a loop, for {origin}/loop/Systran/faster-whisper-base.en/resolve/"
                    "3d3d5dee26484f91867d81cb899cfcf72b96be6c/config.json; nothing was kept")
