"""read_many and load_moves over many files: chunks read ahead on the pool while the calling
thread builds the objects, the thread's file buffer, the collector paused and restored, the pools
kept between calls."""

import gc
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import kifu

BROKEN = b"\x00\x01 not a game"
# With 600 paths and one or two threads, the chunks hold 64 paths: 0-63, 64-127, ...
BOUNDARIES = {0, 63, 64, 127, 128, 511, 512, 599}
MISSING = 300
BUFFER = 64 * 1024  # the reading thread's buffer


def game(i: int, comment: str = "") -> bytes:
    moves = "".join(f";{'BW'[k % 2]}[{chr(97 + (i + k) % 9)}{chr(97 + (i * 5 + k) % 9)}]" for k in range(8))
    return f"(;GM[1]SZ[9]PB[b{i}]PW[w{i}]C[{comment}]{moves})".encode()


def exactly(size: int, i: int) -> bytes:
    """A game of exactly SIZE bytes (its comment padded)."""
    pad = size - len(game(i))
    assert pad > 0
    return game(i, "x" * pad)


def many_files(tmp_path: Path) -> tuple[list[Path], dict[int, bytes]]:
    """600 paths: games, broken files at chunk boundaries, a missing path, an empty file, and files
    of the buffer's size, one byte more and much larger."""
    paths, contents = [], {}
    special = {10: b"", 20: exactly(BUFFER, 20), 21: exactly(BUFFER + 1, 21), 22: exactly(5 * BUFFER + 7, 22)}
    for i in range(600):
        p = tmp_path / f"g{i:03}.sgf"
        paths.append(p)
        if i == MISSING:
            continue
        data = BROKEN if i in BOUNDARIES else special.get(i, game(i))
        p.write_bytes(data)
        contents[i] = data
    return paths, contents


def summary(result):
    if isinstance(result, kifu.Collection):
        return ("games", result.to_sgf(), [str(d) for d in result.diagnostics])
    return (type(result).__name__, str(result))


def test_read_many_over_many_chunks(tmp_path):
    paths, contents = many_files(tmp_path)
    results = kifu.read_many(paths, threads=2)
    assert len(results) == len(paths)
    for i, (p, r) in enumerate(zip(paths, results)):
        if i == MISSING:
            assert isinstance(r, FileNotFoundError) and r.filename == str(p)
        elif i in BOUNDARIES or i == 10:
            assert isinstance(r, kifu.ReadError) and r.path == str(p), (i, r)
            assert any(d.severity == "error" for d in r.diagnostics)
        else:
            assert isinstance(r, kifu.Collection), (i, r)
            assert r.games[0].info.black == f"b{i}"
            # The file read through the thread's buffer is the file: the same as its bytes.
            assert r.to_sgf() == kifu.read(contents[i]).to_sgf(), i
    assert results[22].games[0].root.comment == "x" * (5 * BUFFER + 7 - len(game(22)))
    one = [summary(r) for r in kifu.read_many(paths, threads=1)]
    assert one == [summary(r) for r in results]
    assert [summary(r) for r in kifu.read_many(iter(paths))] == one
    assert kifu.read_many([]) == []


def test_not_a_path_after_many_chunks(tmp_path):
    # The paths are converted chunk by chunk while the first chunks are read: an item that is no
    # path still raises TypeError, and the next call works.
    paths, _ = many_files(tmp_path)
    with pytest.raises(TypeError):
        kifu.read_many(paths[:400] + [42] + paths[400:], threads=2)
    assert gc.isenabled()
    assert [summary(r) for r in kifu.read_many(paths[:200], threads=2)] == [
        summary(r) for r in kifu.read_many(paths[:200], threads=1)
    ]


def test_few_paths_on_many_threads(tmp_path):
    paths, _ = many_files(tmp_path)
    some = paths[60:67]
    assert [summary(r) for r in kifu.read_many(some, threads=4)] == [summary(r) for r in kifu.read_many(some, threads=1)]


def test_load_moves_over_many_chunks(tmp_path):
    pytest.importorskip("numpy")
    paths, _ = many_files(tmp_path)
    good = [p for i, p in enumerate(paths) if i not in BOUNDARIES and i not in (10, MISSING)]
    arrays = kifu.load_moves(paths, threads=2, skip_errors=True)
    assert [a.tolist() for a in arrays] == [g.moves_array().tolist() for p in good for g in kifu.read(p).games]
    # The first bad file in the order given is raised, whatever chunk it is in.
    with pytest.raises(kifu.ReadError) as e:
        kifu.load_moves(paths[1:], threads=2)
    assert e.value.path == str(paths[10])
    with pytest.raises(FileNotFoundError):
        kifu.load_moves(good[:200] + [paths[MISSING]] + good[200:], threads=2)


def test_collector_paused_while_building_and_restored(tmp_path):
    # Errors as values are objects the collector tracks: with a threshold of 1 and the collector
    # running, Python 3.11 collects once or more per file (several hundred times here).
    paths = []
    for i in range(300):
        p = tmp_path / f"{i}.sgf"
        p.write_bytes(BROKEN if i % 2 else game(i))
        paths.append(p)
    starts = []

    def count(phase, info):
        if phase == "start":
            starts.append(info)

    threshold = gc.get_threshold()
    gc.callbacks.append(count)
    gc.set_threshold(1)
    try:
        results = kifu.read_many(paths, threads=2)
    finally:
        gc.set_threshold(*threshold)
        gc.callbacks.remove(count)
    assert sum(isinstance(r, kifu.ReadError) for r in results) == 150
    assert gc.isenabled()
    # Collections only between chunks.
    assert len(starts) < 50, len(starts)
    # Left off when it was off, on every way out.
    gc.disable()
    try:
        kifu.read_many(paths[:100])
        assert not gc.isenabled()
        with pytest.raises(ValueError):
            kifu.read_many(paths, threads=0)
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(ValueError):
        kifu.read_many(paths, threads=0)
    assert gc.isenabled()
    # An error while building: load_moves raises at the first bad file (in the first chunk).
    pytest.importorskip("numpy")
    with pytest.raises(kifu.ReadError):
        kifu.load_moves(paths, threads=2)
    assert gc.isenabled()


def test_pools_are_kept_between_calls(tmp_path):
    tasks = Path("/proc/self/task")
    if not tasks.is_dir():
        pytest.skip("needs /proc/self/task")
    paths = [tmp_path / f"{i}.sgf" for i in range(40)]
    for i, p in enumerate(paths):
        p.write_bytes(game(i))

    def pool_threads():
        names = [(t / "comm").read_text().strip() for t in tasks.iterdir()]
        return sorted(n for n in names if n.startswith("kifu-3-"))

    for _ in range(6):
        assert all(isinstance(r, kifu.Collection) for r in kifu.read_many(paths, threads=3))
    # A thread names itself once it first runs, which on a loaded machine may come after the
    # calls that gave it nothing to do: its name is waited for (a second at most).
    expected = ["kifu-3-0", "kifu-3-1", "kifu-3-2"]
    deadline = time.monotonic() + 1.0
    while pool_threads() != expected and time.monotonic() < deadline:
        time.sleep(0.01)
    assert pool_threads() == expected


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_read_many_in_a_forked_child(tmp_path):
    # A child made by fork has none of the parent's pool threads: it must make its own pools
    # instead of waiting forever for the parent's (multiprocessing on Linux forks).
    for i in range(20):
        (tmp_path / f"{i}.sgf").write_bytes(game(i))
    script = f"""
import os, signal, sys, warnings
from pathlib import Path
import kifu
warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads running
paths = sorted(Path({str(tmp_path)!r}).glob("*.sgf"))
def count(threads):
    return sum(isinstance(r, kifu.Collection) for r in kifu.read_many(paths, threads=threads))
assert count(None) == count(2) == 20
pid = os.fork()
if pid == 0:
    signal.alarm(60)  # a child that hangs ends anyway
    os._exit(0 if count(None) == count(2) == count(3) == 20 else 1)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
