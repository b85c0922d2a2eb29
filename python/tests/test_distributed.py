"""Results that cross processes on a real engine: a Dask cluster of two worker processes runs
python/examples/dask_to_parquet.py on an authored folder, and a multiprocessing pool made by spawn
reads the same folder; both must give what kifu gives in this process."""

import logging
import multiprocessing
import os
import shutil
import sys
from pathlib import Path

import pytest

import kifu
from conftest import FIXTURES, REPO, fixture_inputs

sys.path.insert(0, str(REPO / "python" / "examples"))  # spawned workers inherit sys.path
import dask_to_parquet as example  # noqa: E402


def game_text(i, moves):
    mv = "".join(f";{'BW'[k % 2]}[{chr(97 + (i + 3 * k) % 19)}{chr(97 + (i * 5 + k) % 19)}]" for k in range(moves))
    return f"(;GM[1]FF[4]SZ[19]KM[6.5]PB[black {i}]PW[white {i}]RE[{'BW'[i % 2]}+R]{mv})\n"


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """A folder as users keep them: records of every format in subfolders (the repository's
    fixtures), legacy charsets, one collection of many games, a file kifu refuses, a file that is
    no record (left out by the example's walk)."""
    root = tmp_path_factory.mktemp("archive")
    for fmt, exts in (("sgf", ("sgf",)), ("gib", ("gib",)), ("ngf", ("ngf",)), ("ugf", ("ugf", "ugi"))):
        (root / fmt).mkdir()
        for p in fixture_inputs(fmt, *exts):
            shutil.copy(p, root / fmt / p.name)
    (root / "charset").mkdir()
    for name in ("euckr-noca.sgf", "sjis-noca-trail5c.sgf", "big5-ca-trail5d.sgf"):
        shutil.copy(FIXTURES / "charset" / name, root / "charset" / name)
    (root / "server").mkdir()
    (root / "server" / "collection.sgf").write_text("".join(game_text(i, 40 + i % 60) for i in range(120)))
    for i in range(6):
        (root / "server" / f"game{i}.sgf").write_text(game_text(1000 + i, 80 + 30 * i))
    (root / "broken.sgf").write_bytes(b"hello, world")
    (root / "notes.txt").write_text("not a record\n")
    return root


@pytest.fixture(scope="module")
def paths(archive):
    found = example.record_paths(archive)
    assert found == sorted(str(p) for p in archive.rglob("*") if p.is_file() and p.suffix != ".txt")
    assert len(found) > 30
    return found


@pytest.fixture(scope="module")
def in_process(archive, paths):
    """What kifu gives in this process: a Collection or a ReadError per path."""
    out = {}
    for p in paths:
        try:
            out[p] = kifu.read(p)
        except kifu.ReadError as e:
            out[p] = e
    assert isinstance(out[str(archive / "broken.sgf")], kifu.ReadError)
    assert sum(len(c) for c in out.values() if isinstance(c, kifu.Collection)) > 150
    return out


def same_as_in_process(path, got, expected):
    if isinstance(expected, kifu.ReadError):
        assert isinstance(got, kifu.ReadError), path
        assert got.diagnostics == expected.diagnostics and got.path == expected.path and str(got) == str(expected)
        return
    assert isinstance(got, kifu.Collection), (path, got)
    assert got == expected, path
    assert got.to_sgf() == expected.to_sgf(), path
    assert got.to_json() == expected.to_json(), path
    assert got.diagnostics == expected.diagnostics, path
    assert got.charset == expected.charset, path


def test_partitions_cover_every_path_once_in_order(paths):
    for count in (1, 2, 3, 4, 7, len(paths), len(paths) + 5):
        parts = example.partitions(paths, count)
        assert [p for part in parts for p in part] == paths
        assert all(parts) and len(parts) <= count
    sizes = [sum(os.path.getsize(p) for p in part) for part in example.partitions(paths, 4)]
    assert len(sizes) == 4
    # About the same bytes each: no partition more than twice an even share plus one file.
    biggest = max(os.path.getsize(p) for p in paths)
    assert max(sizes) <= 2 * sum(sizes) / 4 + biggest


def test_spawn_pool_reads_as_this_process(paths, in_process):
    readable = [p for p in paths if isinstance(in_process[p], kifu.Collection)]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        collections = pool.map(kifu.read, readable)
        # read_many gives errors as values: the file kifu refuses comes back as its ReadError.
        results = pool.map(kifu.read_many, [[p] for p in paths])
    for p, c in zip(readable, collections):
        same_as_in_process(p, c, in_process[p])
    for p, [r] in zip(paths, results):
        same_as_in_process(p, r, in_process[p])


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    distributed = pytest.importorskip("distributed", reason="dask[distributed] is not installed")
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        local_directory=str(tmp_path_factory.mktemp("dask")),
        silence_logs=logging.ERROR,
    )
    with cluster, distributed.Client(cluster) as c:
        yield c


def test_the_cluster_is_two_worker_processes(client):
    pids = client.run(os.getpid)
    assert len(pids) == 2 and len(set(pids.values())) == 2 and os.getpid() not in pids.values()


def test_dask_cluster_reads_as_this_process(client, paths, in_process):
    parts = example.partitions(paths, 4)
    results = example.read_on_cluster(client, parts)
    assert len(results) == len(paths)
    for p, r in zip(paths, results):
        same_as_in_process(p, r, in_process[p])


def test_dask_cluster_writes_parquet(client, paths, in_process, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed")
    duckdb = pytest.importorskip("duckdb", reason="duckdb is not installed")
    parts = example.partitions(paths, 4)
    out = tmp_path / "out"
    done = example.to_parquet(client, parts, out)
    workers = set(client.run(os.getpid).values())
    assert [d["index"] for d in done] == list(range(len(parts)))
    assert {d["pid"] for d in done} <= workers
    assert sorted(str(f) for f in out.iterdir()) == [d["file"] for d in done]  # no temporary file left
    refused = [e for d in done for e in d["refused"]]
    assert refused == [str(e) for e in in_process.values() if isinstance(e, kifu.ReadError)]
    games = [(p, g) for p in paths if isinstance(in_process[p], kifu.Collection) for g in in_process[p]]
    # Every file read back by pyarrow: the rows are the games kifu reads in this process, in order.
    rows = [row for d in done for row in pq.read_table(d["file"]).to_pylist()]
    assert len(rows) == len(games) == sum(d["rows"] for d in done)
    for row, (p, game) in zip(rows, games):
        assert row["file"] == p
        assert row["sgf"] == game.to_sgf()
        assert (row["black"], row["white"], row["komi"]) == (game.info.black, game.info.white, game.info.komi)
        assert row["move_count"] == len(game.moves)
        assert [(m["color"], None if m["x"] is None else (m["x"], m["y"])) for m in row["moves"]] == game.moves
    # And by DuckDB, all the files at once.
    con = duckdb.connect()
    count, files = con.execute(f"SELECT count(*), count(DISTINCT file) FROM read_parquet('{out}/*.parquet')").fetchone()
    assert count == len(games) and files == len({p for p, _ in games})
