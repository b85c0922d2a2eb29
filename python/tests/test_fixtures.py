"""Every format's fixtures (the repository's fixtures/) read through the Python API, against
their expected SGF and known values."""

import json
import warnings

import pytest

import kifu
from conftest import FIXTURES, first_comment, fixture_inputs
from goboard import replay_main_line

LEGACY = [p for fmt, exts in [("gib", ["gib"]), ("ngf", ["ngf"]), ("ugf", ["ugf", "ugi"])] for p in fixture_inputs(fmt, *exts)]
SGF = fixture_inputs("sgf", "sgf")


@pytest.mark.parametrize("path", SGF + LEGACY, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixture_reads_to_its_expected_sgf(path):
    expected = path.with_name(path.name.rsplit(".", 1)[0] + ".expected.sgf").read_text(encoding="utf-8")
    c = kifu.read(path)
    assert c.to_sgf() == expected
    # The same through bytes and through a binary file object (format from the name).
    assert kifu.read(path.read_bytes()).to_sgf() == expected
    with open(path, "rb") as f:
        assert kifu.read(f).to_sgf() == expected


@pytest.mark.parametrize("path", LEGACY, ids=lambda p: p.name)
def test_legacy_fixtures_replay_legally(path):
    game = kifu.read(path).games[0]
    assert replay_main_line(game) == []
    assert len(game.moves) > 0


def test_gib_fixture_values():
    c = kifu.read(FIXTURES / "gib" / "korean-euc-kr.gib")
    assert (c.charset.name, c.charset.source) == ("EUC-KR", "declared")
    assert [d.code for d in c.diagnostics] == ["charset.decided"]
    info = c.games[0].info
    assert (info.black, info.black_rank, info.white, info.white_rank) == ("이영희", "1k", "바둑왕 김철수", "2d")
    assert (info.komi, info.handicap, info.date, info.size) == (6.5, None, "2014-05-09", (19, 19))
    r = info.result
    assert (r.winner, r.how, r.margin, str(r)) == ("W", "resign", None, "W+R")
    assert c.games[0].moves[:2] == [("B", (16, 3)), ("W", (3, 15))]
    # Header values SGF has no property for are kept in private properties.
    assert "GAMETOTALNUM=8" in c.games[0].root["XGIB"]


def test_gib_handicap_setup():
    game = kifu.read(FIXTURES / "gib" / "handicap3.gib").games[0]
    assert game.info.handicap == 3
    assert len(game.setup["AB"]) == 3 and game.setup["AW"] == [] and game.setup["AE"] == []
    assert game.moves[0][0] == "W"


def test_gib_writer_fixture():
    expected = (FIXTURES / "gib" / "writer-input.expected.gib").read_bytes()
    c = kifu.read(FIXTURES / "gib" / "writer-input.sgf")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing is lost on this one
        out = c.to_bytes("gib")
    assert out == expected
    assert kifu.read(out).games[0].info.black == c.games[0].info.black


def test_lossy_writes_are_reported(tmp_path):
    c = kifu.read(FIXTURES / "sgf" / "variations.sgf")
    with pytest.warns(kifu.KifuWarning, match="lossy"):
        c.games[0].to_bytes("gib")
    found = c.games[0].write(tmp_path / "out.gib")
    assert found and all(d.code.startswith("gib.lossy") for d in found)
    assert any(d.severity == "warning" for d in found)
    assert kifu.read(tmp_path / "out.gib").games[0].moves == c.games[0].moves


def test_ngf_passes_and_korean():
    game = kifu.read(FIXTURES / "ngf" / "pass.ngf").games[0]
    assert any(point is None for _, point in game.moves)
    c = kifu.read(FIXTURES / "ngf" / "even_korean.ngf")
    assert c.charset.source == "detected"


def test_ugf_review_variations_and_diagnostics():
    c = kifu.read(FIXTURES / "ugf" / "review.ugi")
    codes = [d.code for d in c.diagnostics if d.code != "charset.decided"]
    assert codes == ["ugf.skipped-section", "ugf.skipped-section", "ugf.unknown-section", "ugf.comment-target"]
    assert all(d.line is not None and d.column is not None for d in c.diagnostics if d.code.startswith("ugf."))
    game = c.games[0]
    assert any(len(n.children) > 1 for n in game.nodes())


def test_sgf_recovery_reports_with_positions():
    c = kifu.read(FIXTURES / "sgf" / "recovery.sgf")
    found = [(d.severity, d.code, d.line, d.column) for d in c.diagnostics]
    assert ("warning", "sgf.text-before", 1, 1) in found
    assert ("error", "sgf.unescaped-bracket", 2, 31) in found
    assert ("error", "sgf.missing-close", 6, 1) in found
    d = next(d for d in c.diagnostics if d.code == "sgf.missing-close")
    assert str(d).startswith("6:1: error[sgf.missing-close]: ")


def test_sgf_variations_navigation():
    game = kifu.read(FIXTURES / "sgf" / "variations.sgf").games[0]
    root = game.root
    assert root.parent is None and root.index == 0
    branching = [n for n in game.nodes() if len(n.children) > 1]
    assert branching
    for n in branching:
        for child in n.children:
            assert child.parent == n
    assert game.main_line()[0] == root
    # The main line follows first children.
    line = game.main_line()
    for a, b in zip(line, line[1:]):
        assert a.children[0] == b


def test_rectangle_board_size():
    game = kifu.read(FIXTURES / "sgf" / "rectangle-52.sgf").games[0]
    cols, rows = game.size
    assert game.info.size == (cols, rows)
    assert cols != rows or cols == 52


def test_json_fixture_both_ways():
    # kifu's JSON is read as it is; the SGF reader repairs (duplicate LB, HA[0], 2단, a
    # setup+move node), so the JSON is compared with itself and the SGF with the fixture.
    d = FIXTURES / "json"
    back = kifu.read(d / "tour.json")
    assert back.to_json() == (d / "tour.json").read_text(encoding="utf-8")
    assert back.charset.name == "UTF-8"
    # The SGF made of the JSON reads (and is repaired) as the SGF fixture does (the writer adds
    # CA to later games' roots, so the first game is compared whole and the rest counted).
    repaired = kifu.read(d / "tour.expected.sgf")
    again = kifu.read(back.to_sgf().encode("utf-8"))
    assert again.games[0].to_json() == repaired.games[0].to_json()
    assert len(again.games) == len(repaired.games)
    assert repaired.games[0].info.white_rank == "2d"
    doc = json.loads(back.games[0].to_json())
    assert doc["format"] == "kifu"


CHARSET_FIXTURES = fixture_inputs("charset", "sgf")


@pytest.mark.parametrize("path", CHARSET_FIXTURES, ids=lambda p: p.name)
def test_charset_fixture(path):
    c = kifu.read(path)
    root = c.games[0].root
    for line in path.with_suffix(".expected").read_text(encoding="utf-8").splitlines():
        key, value = line.split("\t", 1)
        if key == "CHARSET":
            assert c.charset.name == value
        elif key == "SOURCE":
            assert c.charset.source == value
        elif key == "C":
            assert first_comment(c.games[0]) == value
        elif key == "DIAG":
            assert value in [d.code for d in c.diagnostics]
        else:
            assert root.get_value(key) == value, key
    assert c.diagnostics[0].code == "charset.decided" and c.diagnostics[0].severity == "info"
    assert c.charset.reason


def test_encoding_override():
    path = FIXTURES / "charset" / "euckr-noca.sgf"
    c = kifu.read(path, encoding="cp949")
    assert c.charset.source == "override"
    assert c.games[0].info.black == "김민수"
    with pytest.raises(ValueError, match="unknown charset"):
        kifu.read(path, encoding="klingon")


def test_format_argument():
    data = (FIXTURES / "gib" / "even-passes.gib").read_bytes()
    assert kifu.read(data, format="gib").games[0].info.black == kifu.read(data).games[0].info.black
    with pytest.raises(kifu.ReadError) as e:
        kifu.read(data, format="sgf")
    assert e.value.diagnostics and e.value.path is None
    with pytest.raises(ValueError, match="unknown format 'xyz'"):
        kifu.read(data, format="xyz")


NORMALISE = [p for p in fixture_inputs("sgf/normalise", "sgf")]


@pytest.mark.parametrize("path", NORMALISE, ids=lambda p: p.name)
def test_normalise_fixture_output_and_diagnostics(path):
    """fixtures/sgf/normalise: the repaired SGF and every fix.* diagnostic (line:col, message) as
    tests/normalise.rs expects them."""
    c = kifu.read(path)
    assert c.to_sgf() == path.with_name(path.stem + ".expected.sgf").read_text(encoding="utf-8")
    found = [str(d) for d in c.diagnostics if d.code != "charset.decided"]
    assert found == path.with_name(path.stem + ".expected.txt").read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize(
    "sgf, fmt, expected",
    [("gib/writer-input.sgf", "gib", "gib/writer-input.expected.gib"),
     ("gib/writer-interop.sgf", "gib", "gib/writer-interop.expected.gib"),
     ("ngf/writer-bare.sgf", "ngf", "ngf/writer-bare.expected.ngf")],
)
def test_writer_fixtures(sgf, fmt, expected):
    c = kifu.read(FIXTURES / sgf)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kifu.KifuWarning)  # what the format cannot hold
        out = c.to_bytes(fmt)
    assert out == (FIXTURES / expected).read_bytes()
    assert kifu.read(out, format=fmt).games[0].moves == c.games[0].moves


def test_ndjson_round_trip():
    c = kifu.read(FIXTURES / "json" / "tour.json")
    lines = c.to_bytes("ndjson")
    assert lines.count(b"\n") == len(c)
    back = kifu.read(lines, format="ndjson")
    assert back.to_json() == c.to_json()
