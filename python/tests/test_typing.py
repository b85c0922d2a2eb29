"""The type stubs, checked with mypy --strict: a typed example passes and a wrong use fails."""

import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent


def mypy(*args):
    if subprocess.run([sys.executable, "-m", "mypy", "--version"], capture_output=True).returncode:
        pytest.skip("mypy is not installed")
    # From the tests folder, so that the installed package is checked, not python/kifu's sources.
    cmd = [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=HERE)


def test_typed_example_passes_mypy_strict():
    out = mypy(str(HERE / "typed_example.py"))
    assert out.returncode == 0, out.stdout + out.stderr


def test_stubs_catch_a_wrong_use(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import kifu\nx: str = kifu.read(b'').games[0].info.komi\nkifu.read(b'', encoding=5)\n")
    out = mypy(str(bad))
    assert out.returncode == 1
    assert out.stdout.count("error:") == 2, out.stdout


def test_stubs_match_the_extension_module():
    mypy("--version")  # skips when mypy is absent
    out = subprocess.run([sys.executable, "-m", "mypy.stubtest", "kifu._kifu"], capture_output=True, text=True, cwd=HERE)
    assert out.returncode == 0, out.stdout + out.stderr
