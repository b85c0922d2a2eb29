"""kifu.read_table: the table of games handed to pyarrow, compared with kifu.read's values."""

import builtins
import sys

import pytest

import kifu
from conftest import FIXTURES, fixture_inputs

pa = pytest.importorskip("pyarrow")

SEVERITY_COLUMN = {"error": "errors", "warning": "warnings", "info": "notes"}


def inputs() -> list:
    files = []
    for fmt, exts in [("sgf", ("sgf",)), ("gib", ("gib",)), ("ngf", ("ngf",)), ("ugf", ("ugf", "ugi"))]:
        files += fixture_inputs(fmt, *exts)
    return files


def readable(paths: list) -> list:
    out = []
    for p in paths:
        try:
            kifu.read(p)
        except (kifu.ReadError, OSError):
            continue
        out.append(p)
    return out


def test_every_row_agrees_with_kifu_read():
    paths = readable(inputs())
    assert len(paths) > 20
    table = kifu.read_table(paths, threads=2)
    rows = table.to_pylist()
    expected = []
    for p in paths:
        c = kifu.read(p)
        for i, g in enumerate(c.games):
            expected.append((p, i, c, g))
    assert len(rows) == len(expected)
    for row, (path, i, c, g) in zip(rows, expected):
        info = g.info
        assert row["file"] == str(path)
        assert row["game"] == i + 1
        assert row["black"] == info.black and row["white"] == info.white
        assert row["black_rank"] == info.black_rank and row["white_rank"] == info.white_rank
        assert row["komi"] == info.komi and row["handicap"] == info.handicap
        assert row["date"] == info.date and row["event"] == info.event and row["rules"] == info.rules
        assert (row["width"], row["height"]) == g.size
        if info.result_text is None:
            assert row["result"] is None
        else:
            r = row["result"]
            assert (r["text"], r["winner"], r["how"], r["margin"]) == (
                info.result_text,
                info.result.winner,
                info.result.how,
                info.result.margin,
            )
        moves = [(m["color"], None if m["x"] is None else (m["x"], m["y"])) for m in row["moves"]]
        assert moves == g.moves, path
        assert row["move_count"] == len(g.moves)
        assert row["charset"] == (c.charset.name if c.charset else None)
        assert row["charset_source"] == (c.charset.source if c.charset else None)
        # The SGF column reads back as the same game.
        again = kifu.loads(row["sgf"]).games[0]
        assert again.moves == g.moves and again.info.black == info.black
    # Diagnostics: each file's rows count all of its diagnostics, by severity (the charset
    # decision is its own columns, not a counted note).
    for path in paths:
        c = kifu.read(path)
        mine = [r for r in rows if r["file"] == str(path)]
        for severity, column in SEVERITY_COLUMN.items():
            want = sum(1 for d in c.diagnostics if d.severity == severity and d.code != "charset.decided")
            assert sum(r[column] for r in mine) == want, (path, severity)


def test_bytes_one_path_and_the_schema():
    t = kifu.read_table(b"(;GM[1]SZ[9]PB[Ann]AB[cc][gg]RE[W+2.5];W[ee];B[])")
    assert t.num_rows == 1
    row = t.to_pylist()[0]
    assert row["file"] is None and row["format"] == "sgf"
    assert row["setup"] == [{"color": "B", "x": 2, "y": 2}, {"color": "B", "x": 6, "y": 6}]
    assert row["moves"] == [{"color": "W", "x": 4, "y": 4}, {"color": "B", "x": None, "y": None}]
    assert row["result"] == {"text": "W+2.5", "winner": "W", "how": "score", "margin": 2.5}
    one = FIXTURES / "gib" / "korean-euc-kr.gib"
    t = kifu.read_table(one)
    assert t.num_rows == 1 and t.column("file")[0].as_py() == str(one)
    assert t.schema.field("moves").type == pa.list_(
        pa.field(
            "item",
            pa.struct(
                [pa.field("color", pa.string(), nullable=False), ("x", pa.uint8()), ("y", pa.uint8())]
            ),
            nullable=False,
        )
    )
    empty = kifu.read_table([])
    assert empty.num_rows == 0 and empty.schema == t.schema


def test_paths_bytes_and_file_objects_are_read_alike():
    gib = FIXTURES / "gib" / "korean-euc-kr.gib"
    data = gib.read_bytes()
    with open(gib, "rb") as f:
        rows = kifu.read_table([gib, str(gib), data, bytearray(data), memoryview(data), f]).to_pylist()
    assert [r["file"] for r in rows] == [str(gib), str(gib), None, None, None, str(gib)]
    game = lambda r: {k: v for k, v in r.items() if k != "file"}  # noqa: E731
    assert all(game(r) == game(rows[0]) for r in rows), rows
    assert rows[0]["format"] == "gib" and rows[0]["black"]
    with open(gib, "rb") as f:
        assert kifu.read_table(f).to_pylist() == rows[-1:]


def test_filters_keep_the_games_that_match():
    text = (
        b"(;GM[1]PB[Ann]PW[Bo];B[pd];W[dp];B[dd])(;GM[1]SZ[9]PB[Bo]PW[Cy];B[ee])"
        b"(;GM[1]PB[Cy]PW[Ann])"
    )
    names = lambda t: [(r["black"], r["game"]) for r in t.to_pylist()]  # noqa: E731
    assert names(kifu.read_table(text, player="Ann")) == [("Ann", 1), ("Cy", 3)]
    assert names(kifu.read_table(text, black="Bo")) == [("Bo", 2)]
    assert names(kifu.read_table(text, white="Ann", black="Cy")) == [("Cy", 3)]
    assert names(kifu.read_table(text, min_moves=1)) == [("Ann", 1), ("Bo", 2)]
    assert names(kifu.read_table(text, max_moves=1)) == [("Bo", 2), ("Cy", 3)]
    assert names(kifu.read_table(text, size=9)) == [("Bo", 2)]
    assert names(kifu.read_table(text, size=(19, 19))) == [("Ann", 1), ("Cy", 3)]
    with pytest.raises(TypeError, match="unknown filter 'colour'"):
        kifu._kifu._read_table(text, None, None, None, False, {"colour": "B"})
    with pytest.raises(TypeError):
        kifu.read_table(text, colour="B")  # type: ignore[call-arg]


def test_errors_raise_or_are_skipped():
    bad = FIXTURES / "sgf" / "no-such-file.sgf"
    good = FIXTURES / "gib" / "korean-euc-kr.gib"
    with pytest.raises(OSError):
        kifu.read_table([good, bad])
    with pytest.raises(kifu.ReadError):
        kifu.read_table(b"not a game record at all")
    assert kifu.read_table([good, bad], skip_errors=True).num_rows == 1


def test_the_stream_is_the_arrow_c_stream_and_no_copy():
    stream = kifu._kifu._read_table(b"(;GM[1]PB[Ann])(;GM[1])", None, None, None, False, None)
    assert len(stream) == 2
    capsule = stream.__arrow_c_stream__()
    assert type(capsule).__name__ == "PyCapsule"
    reader = pa.RecordBatchReader.from_stream(stream)
    assert reader.read_all().num_rows == 2


def test_without_pyarrow_a_clear_import_error(monkeypatch):
    real_import = builtins.__import__

    def no_pyarrow(name, *args, **kwargs):
        if name == "pyarrow" or name.startswith("pyarrow."):
            raise ImportError("No module named 'pyarrow'")
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "pyarrow", raising=False)
    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    with pytest.raises(ImportError, match=r"pip install 'kifu\[arrow\]'"):
        kifu.read_table(b"(;GM[1])")
