"""Value semantics: pickling (also across processes), copies, equality and hashing, kifu.loads /
kifu.dumps, and the errors and names that go with them."""

import concurrent.futures
import copy
import multiprocessing
import pickle

import pytest

import kifu
from conftest import FIXTURES, fixture_inputs

SIMPLE = b"(;GM[1]FF[4]SZ[9]PB[Black]PW[White]KM[6.5]RE[B+3.5];B[ee];W[cc]C[a comment](;B[];W[gc])(;B[gg]))"


def every_fixture():
    """Every fixture input kifu reads (all formats), with its collection."""
    exts = {"sgf": ("sgf",), "gib": ("gib",), "ngf": ("ngf",), "ugf": ("ugf", "ugi"), "json": ("json", "ndjson")}
    out = []
    for fmt, e in exts.items():
        for p in fixture_inputs(fmt, *e):
            try:
                out.append((p, kifu.read(p)))
            except kifu.ReadError:
                pass  # fixtures of unreadable inputs
    for sub in ("charset", "check", "diagram"):
        out += [(p, kifu.read(p)) for p in fixture_inputs(sub, "sgf")]
    assert len(out) > 50
    return out


def roundtrip(obj):
    return pickle.loads(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))


def test_pickled_collections_keep_games_charset_and_diagnostics():
    repaired = 0
    for path, c in every_fixture():
        back = roundtrip(c)
        assert back == c and hash(back) == hash(c), path
        assert back.to_sgf() == c.to_sgf(), path
        assert back.to_json() == c.to_json(), path
        assert back.charset == c.charset and back.charset.name == c.charset.name, path
        assert back.diagnostics == c.diagnostics, path
        assert [str(d) for d in back.diagnostics] == [str(d) for d in c.diagnostics], path
        repaired += any(d.severity != "info" for d in c.diagnostics)
        for game, g in zip(c, back):
            assert roundtrip(game) == game == g
            assert roundtrip(game).to_sgf() == game.to_sgf()
            assert roundtrip(game).charset == c.charset
    assert repaired > 10, "the fixtures include repaired inputs, whose diagnostics must survive"


def test_a_legacy_charset_decision_survives_pickling():
    c = kifu.read(FIXTURES / "charset" / "euckr-noca.sgf")
    assert (c.charset.name, c.charset.source) == ("EUC-KR", "detected")
    back = roundtrip(c)
    assert (back.charset.name, back.charset.source, back.charset.reason) == (
        c.charset.name, c.charset.source, c.charset.reason)
    # The writers see it: kifu's JSON records the charset the games were read with.
    assert '"name":"EUC-KR"' in back.to_json().replace(" ", "") and back.to_json() == c.to_json()
    assert back[0].to_json() == c[0].to_json()


def test_every_object_pickles_as_a_value():
    c = kifu.read(SIMPLE)
    game = c[0]
    node = game.nodes()[3]
    for obj in (c, game, node, game.info, game.info.result, c.charset, c.diagnostics[0], game.root):
        back = roundtrip(obj)
        assert type(back) is type(obj) and back == obj and hash(back) == hash(obj), obj
        assert copy.copy(obj) == obj and copy.deepcopy(obj) == obj
    back = roundtrip(node)
    assert back.move == node.move and back.parent == node.parent and back.index == node.index
    assert [n.index for n in back.children] == [n.index for n in node.children]
    empty = kifu.read(b"(;GM[1])")[0].info.result
    assert roundtrip(empty) == empty and not roundtrip(empty)
    # A game read from a stream pickles as one read whole; the stream itself is not a value.
    streamed = next(kifu.iter_games(SIMPLE))
    assert roundtrip(streamed) == streamed == game
    with pytest.raises(TypeError):
        pickle.dumps(kifu.iter_games(SIMPLE))


def test_equality_is_by_value():
    a, b = kifu.read(SIMPLE), kifu.read(SIMPLE)
    assert a == b and hash(a) == hash(b) and a[0] == b[0] and hash(a[0]) == hash(b[0])
    assert a[0].root.children[0] == b[0].root.children[0]
    assert len({a[0], b[0], roundtrip(a[0])}) == 1
    assert a[0].info == b[0].info and hash(a[0].info) == hash(b[0].info)
    other = kifu.read(SIMPLE.replace(b"B[ee]", b"B[ef]"))
    assert other != a and other[0] != a[0] and other[0].info == a[0].info
    assert a[0].root != a[0].root.children[0]
    assert a != a[0] and a[0] != "x" and a[0].info != a[0].info.result
    # A game is the record and how it was read: the same record from other bytes differs.
    euckr = kifu.read(FIXTURES / "charset" / "euckr-noca.sgf")
    relabelled = kifu.loads(euckr.to_sgf())
    assert relabelled[0].to_sgf() == euckr[0].to_sgf()
    assert relabelled[0] != euckr[0] and relabelled[0].charset.name == "UTF-8"


def test_copies_are_independent():
    c = kifu.read(SIMPLE)
    assert copy.copy(c) is c  # immutable: a shallow copy is the object itself
    deep = copy.deepcopy(c)
    assert deep is not c and deep == c and deep[0] is not c[0]
    # What the objects hand out is fresh each time: changing it changes neither copy.
    deep.games.clear()
    deep[0].root.properties["PB"].append("x")
    deep[0].setup["AB"].append((0, 0))
    deep.diagnostics.clear()
    assert len(deep) == 1 and deep[0].info.black == "Black" and deep[0].setup["AB"] == []
    assert deep == c and deep.diagnostics == c.diagnostics
    # A deep copy's nodes belong to the copy's tree; they equal the original's.
    nodes = copy.deepcopy(c[0].nodes())
    assert nodes == c[0].nodes() and nodes[1].parent == c[0].root
    del c
    assert nodes[2].comment == "a comment" and deep[0].to_sgf().count(";") == 6
    structure = copy.deepcopy({"games": [deep[0]], "same": [deep[0]]})
    assert structure["games"][0] is structure["same"][0]  # the memo keeps shared objects shared


def test_pickled_errors_keep_their_diagnostics():
    with pytest.raises(kifu.ReadError) as e:
        kifu.read(b"hello, world")
    back = roundtrip(e.value)
    assert type(back) is kifu.ReadError and str(back) == str(e.value)
    assert back.diagnostics == e.value.diagnostics and back.path is None


def test_read_error_is_a_value_error():
    assert issubclass(kifu.ReadError, ValueError) and issubclass(kifu.ReadError, kifu.KifuError)
    with pytest.raises(ValueError):
        kifu.loads(b"hello, world")
    assert not issubclass(kifu.WriteError, ValueError)


def test_loads_and_dumps():
    c = kifu.read(SIMPLE)
    text = kifu.dumps(c)
    assert text == c.to_sgf() and kifu.dumps(c[0]) == c[0].to_sgf()
    # What is read back writes the same text (the trees differ from the input's: the writer adds
    # FF[4] and CA[UTF-8]; and their charset decision is the text's).
    assert kifu.loads(text).to_sgf() == text and kifu.loads(text).charset.source == "override"
    assert kifu.loads(text.encode()).to_sgf() == text and kifu.loads(text.encode()).charset.source == "declared"
    assert kifu.loads(text)[0] == kifu.loads(kifu.dumps(kifu.loads(text)))[0]
    assert kifu.loads(bytearray(text.encode())).to_sgf() == text
    assert kifu.loads(kifu.dumps(c, "json"), "json").to_sgf() == text
    assert kifu.loads(kifu.dumps(c, format="json")).to_sgf() == text
    with pytest.warns(kifu.KifuWarning, match="gib.lossy"):
        gib = kifu.dumps(c[0], "gib")
    assert gib.startswith("\\HS") and kifu.loads(gib).games[0].moves[:2] == c[0].moves[:2]
    # A str is decoded text: its CA does not apply (and encoding is refused); bytes follow CA.
    korean = "(;GM[1]CA[EUC-KR]PB[이세돌])"
    assert kifu.loads(korean)[0].info.black == "이세돌"
    assert kifu.loads(korean.encode("euc-kr"))[0].info.black == "이세돌"
    with pytest.raises(ValueError, match="bytes only"):
        kifu.loads(korean, encoding="euc-kr")
    with pytest.raises(TypeError, match="str or bytes"):
        kifu.loads(FIXTURES / "sgf")
    with pytest.raises(TypeError, match="Collection or a Game"):
        kifu.dumps("(;GM[1])")
    with pytest.raises(ValueError, match="unknown format"):
        kifu.dumps(c, "doc")


@pytest.mark.parametrize("text", ["(;SZ[9];B[ee])", "  (;GM[1]\n;B[aa])", "\\HS\n\\[GAMEINFOMAIN=\\]\n\\HE",
                                  "(;C[" + "x" * 400 + "])"])
def test_a_record_given_as_a_path_points_to_loads(text):
    with pytest.raises(OSError) as e:
        kifu.read(text)
    assert "kifu.loads" in str(e.value) and len(e.value.filename) <= 41
    with pytest.raises(OSError) as e:
        kifu.iter_games(text)
    assert "kifu.loads" in str(e.value)


def test_a_missing_path_has_no_hint(tmp_path):
    with pytest.raises(FileNotFoundError) as e:
        kifu.read(str(tmp_path / "missing.sgf"))
    assert "kifu.loads" not in str(e.value) and e.value.filename == str(tmp_path / "missing.sgf")


def test_charset_names_are_the_commands():
    text = "(;GM[1]PB[中文名字]C[𠀀 汉字 中文])"
    c = kifu.read(text.encode("gb18030"), encoding="gb18030")
    assert c.charset.name == "GB18030" and c.charset.source == "override"
    assert c.diagnostics[0].message.startswith("charset GB18030 ")
    assert roundtrip(c).charset.name == "GB18030"
    assert kifu.read(FIXTURES / "charset" / "gb2312-noca.sgf").charset.name == "GBK"


def sample_paths():
    return [FIXTURES / "charset" / "euckr-noca.sgf", FIXTURES / "charset" / "sjis-noca-trail5c.sgf",
            *fixture_inputs("gib", "gib")[:2], *fixture_inputs("ngf", "ngf")[:1], *fixture_inputs("ugf", "ugf")[:1],
            FIXTURES / "diagram" / "collection.sgf", FIXTURES / "sgf" / "no-such-file.sgf"]


def compare_with_parent(paths, results):
    for path, got in zip(paths, results):
        try:
            want = kifu.read(path)
        except OSError as e:
            assert isinstance(got, OSError) and got.errno == e.errno
            continue
        assert got == want and got.to_sgf() == want.to_sgf()
        assert got.charset == want.charset and got.diagnostics == want.diagnostics


def read_or_error(path):
    try:
        return kifu.read(path)
    except OSError as e:
        return e


def test_spawned_pool_reads_as_the_parent():
    paths = [str(p) for p in sample_paths()[:-1]]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.map(kifu.read, paths)
    compare_with_parent(paths, results)
    # An error in a child reaches the parent as the same exception.
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        with pytest.raises(kifu.ReadError) as e:
            pool.map(kifu.loads, [b"hello, world"])
    assert [d.code for d in e.value.diagnostics] == ["format.unknown"]


def test_process_pool_executor_reads_as_the_parent():
    paths = [str(p) for p in sample_paths()]
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=context) as pool:
        results = list(pool.map(read_or_error, paths))
        games = list(pool.map(copy.copy, [g for c in results if isinstance(c, kifu.Collection) for g in c]))
    compare_with_parent(paths, results)
    assert games == [g for c in results if isinstance(c, kifu.Collection) for g in c]
