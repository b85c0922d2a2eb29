"""kifu in a child made by fork (multiprocessing's default on Linux, data loaders' workers): the
library reads large inputs on several threads, and a forked child has none of its parent's."""

import multiprocessing
import os
import sys

import pytest

import kifu

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="fork is POSIX only")


def big_collection(n=40_000, moves=40):
    """About 11 MB: N games, each with a Fox komi (a repair) and MOVES moves. Large enough that
    the library splits reading and repairing over threads."""
    parts = []
    for i in range(n):
        mv = "".join(f";{'BW'[k % 2]}[{chr(97 + (i + k) % 19)}{chr(97 + (i * 7 + k) % 19)}]" for k in range(moves))
        parts.append(f"(;GM[1]FF[4]SZ[19]KM[650]PB[b{i}]PW[w{i}]{mv})\n")
    return "".join(parts).encode()


def child(path, out, answers):
    """Everything that may run on threads, each answer a count to compare with the parent's."""
    data = open(path, "rb").read()
    collection = kifu.read(data)
    answers.put(("read", len(collection.games), collection.games[-1].info.komi))
    answers.put(("iter_games", sum(1 for _ in kifu.iter_games(path)), None))
    kifu.convert(path, out, to="sgf")
    answers.put(("convert", len(kifu.read(out).games), None))
    answers.put(("to_sgf", len(collection.to_sgf()), None))


def test_a_forked_child_reads_large_inputs(tmp_path):
    path = tmp_path / "big.sgf"
    path.write_bytes(big_collection())
    # The parent reads first, so that the library's threads exist here and not in the child.
    parent = kifu.read(path)
    expected = {
        "read": (len(parent.games), 6.5),
        "iter_games": (len(parent.games), None),
        "convert": (len(parent.games), None),
        "to_sgf": (len(parent.to_sgf()), None),
    }
    context = multiprocessing.get_context("fork")
    answers = context.Queue()
    process = context.Process(target=child, args=(str(path), str(tmp_path / "out.sgf"), answers))
    process.start()
    process.join(timeout=60)
    if process.is_alive():
        os.kill(process.pid, 9)
        process.join()
        pytest.fail("the forked child hung reading a large input")
    assert process.exitcode == 0
    got = {}
    while len(got) < len(expected):
        what, count, komi = answers.get(timeout=10)
        got[what] = (count, komi)
    assert got == expected
    assert len(parent.games) == 40_000
