"""A record past kifu's size limit (`Limits::max_record`, 128 MiB: one SGF game tree or one NDJSON
line) raises ReadError naming the limit, from `read` and from `iter_games`: the interpreter is never
taken down by an allocation that fails (a 1 GB line used to abort it)."""

import subprocess
import sys

import pytest

import kifu

LIMIT = 128 << 20


def write_long_line(path, size):
    """An NDJSON file whose second line is one game of moves of about `size` bytes."""
    moves = ',{"B":["pd"]},{"W":["dp"]}'
    with open(path, "w") as f:
        f.write('{"nodes":[{"GM":["1"]},{"B":["dd"]}]}\n')
        f.write('{"nodes":[{"GM":["1"]}')
        block = moves * 10_000
        for _ in range(size // len(block) + 1):
            f.write(block)
        f.write("]}\n")


def test_a_record_past_the_limit_raises_read_error(tmp_path):
    path = tmp_path / "long.ndjson"
    write_long_line(path, LIMIT + (4 << 20))
    with pytest.raises(kifu.ReadError) as e:
        kifu.read(path)
    codes = [d.code for d in e.value.diagnostics]
    assert codes == ["input.record-too-large"], codes
    message = e.value.diagnostics[0].message
    assert "Limits::max_record" in message and "from byte 38 " in message, message
    # Read in pieces: the first game, then the same error.
    games = kifu.iter_games(path)
    assert len(next(games).moves) == 1
    with pytest.raises(kifu.ReadError) as e:
        next(games)
    assert [d.code for d in e.value.diagnostics] == ["input.record-too-large"]


def test_the_interpreter_survives_a_record_past_the_limit_in_little_memory(tmp_path):
    """In a child limited to 2 GB of address space, `read` raises instead of aborting."""
    path = tmp_path / "long.ndjson"
    write_long_line(path, LIMIT + (4 << 20))
    script = (
        "import resource, kifu\n"
        "resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))\n"
        "try:\n"
        f"    kifu.read({str(path)!r})\n"
        "except kifu.ReadError as e:\n"
        "    print(e.diagnostics[0].code)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "input.record-too-large"
