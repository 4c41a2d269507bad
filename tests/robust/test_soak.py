"""scripts/soak.py plays whole games through the real session and checks them."""
import subprocess
import sys

from tests.conftest import ROOT


def test_the_soak_plays_each_game_and_finds_no_failure():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "soak.py"), "--games", "2"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    for game in ("galaxis", "battleship", "arkade"):
        assert f"{game}: 2 games in" in done.stdout
    assert "failures: 0" in done.stdout
