"""Throughput of kifu's Python API against sgfmill (not a test; see the README's Python section).

    python benches/python.py [--corpus DIR] [--mb 100] [--threads N]

1. Every SGF file of the corpus (default ../shared/corpus): kifu.read_many (all cores, then one
   thread) against sgfmill's Sgf_game.from_bytes, in the same run, over the same files.
2. A generated SGF collection of about --mb megabytes: kifu.iter_games against sgfmill's
   parse_sgf_collection + Sgf_game.from_coarse_game_tree (sgfmill's way to read a collection).

Needs `pip install sgfmill`. Files are read once beforehand so the page cache is warm for both.
"""

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import kifu
from sgfmill import sgf, sgf_grammar


def timed(f, runs=1):
    """(wall seconds, CPU seconds of the whole process, result) of the best of RUNS runs.

    The CPU time (all threads) is the figure that holds on a loaded machine; the wall time is what
    a user waits."""
    best = None
    result = None
    for _ in range(runs):
        # The previous run's objects are released before the clock starts (freeing 10,000
        # collections takes about 0.02 s, which would otherwise count in the next run).
        result = None
        wall, cpu = time.perf_counter(), time.process_time()
        result = f()
        t = (time.perf_counter() - wall, time.process_time() - cpu)
        best = t if best is None or t[0] < best[0] else best
    return best[0], best[1], result


def corpus_files(root):
    return sorted(p for p in Path(root).rglob("*") if p.is_file() and p.suffix.lower() == ".sgf")


def sgfmill_files(paths):
    failed = 0
    for p in paths:
        try:
            sgf.Sgf_game.from_bytes(p.read_bytes())
        except ValueError:
            failed += 1
    return failed


def generate(path, megabytes, seed=1):
    """Writes a collection of random 19x19 games (200-300 moves, a comment every 25) to PATH."""
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrs"
    target = megabytes * 1_000_000
    written = games = 0
    with open(path, "w", encoding="utf-8") as f:
        while written < target:
            moves = "".join(
                f";{'BW'[k % 2]}[{rng.choice(letters)}{rng.choice(letters)}]" + (f"C[move {k}: a comment]" if k % 25 == 24 else "")
                for k in range(rng.randint(200, 300))
            )
            game = f"(;GM[1]FF[4]CA[UTF-8]SZ[19]KM[6.5]PB[Black {games}]PW[White {games}]RE[B+R]DT[2024-01-01]{moves})\n"
            f.write(game)
            written += len(game)
            games += 1
    return games


def sgfmill_collection(data):
    return sum(1 for c in sgf_grammar.parse_sgf_collection(data) if sgf.Sgf_game.from_coarse_game_tree(c))


RUNS = 3  # kifu's figures are the best of 3 runs; sgfmill's runs are long enough to take once


def line(name, t, megabytes, count, unit):
    wall, cpu = t[0], t[1]
    print(
        f"  {name:<46} wall {wall:7.2f} s {megabytes / wall:7.1f} MB/s {count / wall:8.0f} {unit}/s"
        f" | CPU {cpu:7.2f} s {megabytes / cpu:7.1f} MB/s"
    )


def ratios(sgfmill, kifus):
    shown = ", ".join(f"{name} {sgfmill[0] / k[0]:.0f}x wall, {sgfmill[1] / k[1]:.0f}x CPU" for name, k in kifus)
    print(f"  kifu over sgfmill: {shown}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=str(Path(__file__).resolve().parents[2] / "shared" / "corpus"))
    ap.add_argument("--mb", type=int, default=100)
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args()
    print(f"kifu {kifu.__version__}, Python {sys.version.split()[0]}, {os.cpu_count()} cores")

    paths = corpus_files(args.corpus)
    if paths:
        mb = sum(p.stat().st_size for p in paths) / 1e6
        print(f"corpus: {len(paths)} SGF files, {mb:.1f} MB ({args.corpus})")
        k = timed(lambda: kifu.read_many(paths, threads=args.threads), RUNS)
        failed = sum(1 for r in k[2] if not isinstance(r, kifu.Collection))
        k1 = timed(lambda: kifu.read_many(paths, threads=1), RUNS)
        s = timed(lambda: sgfmill_files(paths))
        line(f"kifu.read_many ({failed} unreadable)", k, mb, len(paths), "files")
        line("kifu.read_many(threads=1)", k1, mb, len(paths), "files")
        line(f"sgfmill Sgf_game.from_bytes ({s[2]} refused)", s, mb, len(paths), "files")
        ratios(s, [("read_many", k), ("read_many(threads=1)", k1)])
    else:
        print(f"corpus: {args.corpus} absent; skipped")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "collection.sgf"
        games = generate(path, args.mb)
        data = path.read_bytes()
        mb = len(data) / 1e6
        print(f"collection: {games} games, {mb:.1f} MB (generated)")
        k = timed(lambda: sum(1 for g in kifu.iter_games(path) if len(g)), RUNS)
        km = timed(lambda: sum(len(g.moves) for g in kifu.iter_games(path)), RUNS)
        s = timed(lambda: sgfmill_collection(data))
        assert k[2] == games == s[2], (k[2], games, s[2])
        line("kifu.iter_games", k, mb, games, "games")
        line(f"kifu.iter_games + game.moves ({km[2]} moves)", km, mb, games, "games")
        line("sgfmill parse_sgf_collection + Sgf_game", s, mb, games, "games")
        ratios(s, [("iter_games", k), ("iter_games + moves", km)])


if __name__ == "__main__":
    main()
