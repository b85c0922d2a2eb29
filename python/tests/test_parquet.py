"""`kifu convert … -o games.parquet` read back by pyarrow and DuckDB, against `kifu info --json`."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import FIXTURES, REPO

pq = pytest.importorskip("pyarrow.parquet")
duckdb = pytest.importorskip("duckdb")


def kifu_command() -> Path:
    """The kifu binary `cargo build` left (debug, else release), or PATH's; skip without one."""
    for profile in ("debug", "release"):
        p = REPO / "target" / profile / "kifu"
        if p.exists():
            return p
    found = shutil.which("kifu")
    if found is None:
        pytest.skip("no kifu binary: run cargo build first")
    return Path(found)


def test_the_parquet_file_holds_what_kifu_info_says(tmp_path):
    kifu = kifu_command()
    inputs = [FIXTURES / d for d in ("sgf", "gib", "ngf", "ugf")]
    out = tmp_path / "games.parquet"
    run = subprocess.run(
        [str(kifu), "convert", "-q", "-r", *map(str, inputs), "-o", str(out)], capture_output=True, text=True, cwd=REPO
    )
    assert run.returncode in (0, 1), run.stderr  # 1: some fixtures are unreadable on purpose
    assert out.exists(), run.stderr
    table = pq.read_table(out)
    rows = table.to_pylist()
    files = sorted({r["file"] for r in rows})
    info = subprocess.run(
        [str(kifu), "info", "--json", "-q", *files], capture_output=True, text=True, cwd=REPO
    )
    records = [json.loads(line) for line in info.stdout.splitlines()]
    by_key = {(r["file"], r["game"]): r for r in records}
    assert len(rows) == len(records) == len(by_key)
    for row in rows:
        want = by_key[(row["file"], row["game"])]
        assert row["format"] == want["format"]
        assert row["black"] == want["black"] and row["white"] == want["white"]
        assert row["black_rank"] == want["black_rank"] and row["white_rank"] == want["white_rank"]
        assert row["komi"] == want["komi"] and row["handicap"] == want["handicap"]
        assert (row["result"] or {}).get("text") == want["result"]
        assert row["date"] == want["date"]
        assert {"width": row["width"], "height": row["height"]} == want["size"]
        assert row["move_count"] == want["moves"]
        charset = want["charset"]
        assert row["charset"] == (charset and charset["name"])
        assert row["charset_source"] == (charset and charset["source"])
    # DuckDB reads the same file: the same number of rows, the nested columns by name.
    con = duckdb.connect()
    path = str(out).replace("'", "''")
    assert con.execute(f"select count(*) from '{path}'").fetchone()[0] == len(rows)
    total = con.execute(f"select sum(move_count), sum(len(moves)) from '{path}'").fetchone()
    assert total[0] == sum(r["moves"] for r in records)
    assert total[1] == sum(len(r["moves"]) for r in rows)
    winners = con.execute(f"select result.winner, count(*) from '{path}' group by all order by all").fetchall()
    expected = {}
    for r in rows:
        w = r["result"]["winner"] if r["result"] else None
        expected[w] = expected.get(w, 0) + 1
    assert dict(winners) == expected
    first = con.execute(f"select moves[1].color, moves[1].x, moves[1].y from '{path}' where move_count > 0 limit 1")
    assert first.fetchone()[0] in ("B", "W")


def test_a_large_collection_is_streamed_into_row_groups(tmp_path):
    kifu = kifu_command()
    game = "(;GM[1]PB[{i}]C[{pad}];B[pd];W[dp];B[];W[tt])\n"
    big = tmp_path / "big.sgf"
    with open(big, "w") as f:
        for i in range(9000):
            f.write(game.format(i=i, pad=os.urandom(1000).hex()))
    assert big.stat().st_size > 16 << 20  # streamed piece by piece
    out = tmp_path / "big.parquet"
    run = subprocess.run([str(kifu), "convert", "-q", str(big), "-o", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    meta = pq.ParquetFile(out).metadata
    assert meta.num_rows == 9000
    t = pq.read_table(out, columns=["file", "game", "black", "moves"])
    assert t.column("game").to_pylist() == list(range(1, 9001))
    assert t.column("black").to_pylist() == [str(i) for i in range(9000)]
    assert set(t.column("file").to_pylist()) == {str(big)}
    assert t.column("moves")[0].as_py() == [
        {"color": "B", "x": 15, "y": 3},
        {"color": "W", "x": 3, "y": 15},
        {"color": "B", "x": None, "y": None},
        {"color": "W", "x": None, "y": None},
    ]


def test_an_archive_of_several_records_becomes_one_table(tmp_path):
    import zipfile

    kifu = kifu_command()
    archive = tmp_path / "games.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("a.sgf", "(;GM[1]SZ[19]PB[Lee]PW[Cho];B[pd])")
        z.writestr("deep/b.sgf", "(;GM[1]SZ[19]PB[Kim]PW[Park];B[dd];W[pp])")
    out = tmp_path / "games.parquet"
    run = subprocess.run([str(kifu), "convert", "-q", str(archive), "-o", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    t = pq.read_table(out, columns=["member", "black", "moves"])
    rows = sorted(zip(t.column("member").to_pylist(), t.column("black").to_pylist()))
    assert rows == [("a.sgf", "Lee"), ("deep/b.sgf", "Kim")]
