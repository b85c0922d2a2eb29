"""The Python API beyond the fixtures: errors, parallel reads, streaming, conversion and safe
writes, moves arrays, and the panic guards."""

import os
import re
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest

import kifu
from conftest import FIXTURES, fixture_inputs, shared

SIMPLE = b"(;GM[1]FF[4]SZ[9]PB[Black]PW[White]KM[6.5]RE[B+3.5];B[ee];W[cc];B[];W[gc])"


def test_read_sources_agree(tmp_path):
    p = tmp_path / "g.sgf"
    p.write_bytes(SIMPLE)
    expected = kifu.read(SIMPLE).to_sgf()
    for source in (p, str(p), bytearray(SIMPLE), memoryview(SIMPLE)):
        assert kifu.read(source).to_sgf() == expected
    with open(p, "rb") as f:
        assert kifu.read(f).to_sgf() == expected
    with open(p, encoding="utf-8") as t:
        with pytest.raises(TypeError, match="binary"):
            kifu.read(t)
    with pytest.raises(TypeError, match="expected a path"):
        kifu.read(42)


def test_game_views():
    game = kifu.read(SIMPLE).games[0]
    info = game.info
    assert (info.black, info.white, info.komi, info.size) == ("Black", "White", 6.5, (9, 9))
    r = info.result
    assert (r.winner, r.how, r.margin, r.text) == ("B", "score", 3.5, "B+3.5")
    assert game.moves == [("B", (4, 4)), ("W", (2, 2)), ("B", None), ("W", (6, 2))]
    root = game.root
    assert root.properties["PB"] == ["Black"] and "KM" in root and "XX" not in root
    with pytest.raises(KeyError):
        root["XX"]
    assert root.get_value("XX", "none") == "none"
    first = root.children[0]
    assert first.move == ("B", (4, 4)) and first.parent == root and first != root
    assert len({first, root.children[0]}) == 1
    assert len(game) == 5 and len(game.main_line()) == 5 and len(game.nodes()) == 5
    assert "Black vs White" in repr(game)


@pytest.mark.parametrize(
    "re_value, winner, how, margin",
    [("W+R", "W", "resign", None), ("B+T", "B", "time", None), ("W+F", "W", "forfeit", None),
     ("B+", "B", "points", None), ("0", None, "draw", None), ("Void", None, "void", None), ("?", None, "unknown", None)],
)
def test_results(re_value, winner, how, margin):
    r = kifu.read(f"(;GM[1]RE[{re_value}])".encode()).games[0].info.result
    assert (r.winner, r.how, r.margin) == (winner, how, margin)


def test_unparsed_result_keeps_the_text():
    collection = kifu.read(b"(;GM[1]RE[Black won by a lot])")
    game = collection.games[0]
    # No FF[4] result says exactly this: the text is kept as XSGFRE and no result is invented.
    assert game.root["XSGFRE"] == ["Black won by a lot"]
    assert "fix.value-kept" in [d.code for d in collection.diagnostics]
    r = game.info.result
    assert not r and (r.winner, r.how, r.margin) == (None, None, None)


def test_a_game_without_a_result_has_an_empty_one():
    r = kifu.read(b"(;GM[1];B[aa])").games[0].info.result
    assert not r and (r.winner, r.how, r.margin, r.text, str(r)) == (None, None, None, "", "")
    assert kifu.read(b"(;GM[1]RE[W+R])").games[0].info.result


def test_setup_expands_compressed_lists():
    game = kifu.read(b"(;GM[1]SZ[9]AB[aa:bb]AW[ee];AE[aa])").games[0]
    assert game.setup == {"AB": [(0, 0), (1, 0), (0, 1), (1, 1)], "AW": [(4, 4)], "AE": []}
    assert game.root.properties["AB"] == ["aa:bb"]
    assert game.root.children[0].setup["AE"] == [(0, 0)]


def test_read_errors_carry_diagnostics(tmp_path):
    with pytest.raises(kifu.ReadError) as e:
        kifu.read(b"hello, world")
    assert isinstance(e.value, kifu.KifuError) and isinstance(e.value, Exception)
    assert [d.code for d in e.value.diagnostics] == ["format.unknown"]
    assert "format.unknown" in str(e.value)
    with pytest.raises(FileNotFoundError) as nf:
        kifu.read(tmp_path / "missing.sgf")
    assert nf.value.filename == str(tmp_path / "missing.sgf")


def test_repairs_are_diagnostics_not_errors():
    c = kifu.read(b"(;GM[1]C[unclosed")
    assert len(c.games) == 1
    d = next(d for d in c.diagnostics if d.severity == "error")
    assert d.line == 1 and d.column is not None and d.code.startswith("sgf.")


def test_read_many_keeps_order_and_errors_as_values(tmp_path):
    good = sorted(FIXTURES.glob("*/*.gib"))[:2] + sorted(FIXTURES.glob("ngf/*.ngf"))[:2]
    broken = tmp_path / "broken.sgf"
    broken.write_bytes(b"\x00\x01 not a game")
    missing = tmp_path / "missing.gib"
    paths = good[:2] + [broken, missing] + good[2:]
    results = kifu.read_many(paths)
    assert len(results) == 6
    for p, r in zip(good[:2] + good[2:], results[:2] + results[4:]):
        assert isinstance(r, kifu.Collection)
        assert r.to_sgf() == kifu.read(p).to_sgf()
    assert isinstance(results[2], kifu.ReadError) and results[2].path == str(broken)
    assert any(d.severity == "error" for d in results[2].diagnostics)
    assert isinstance(results[3], FileNotFoundError) and results[3].filename == str(missing)
    # One thread gives the same; a generator of paths works; 0 threads or one string do not.
    single = kifu.read_many(iter(paths), threads=1)
    assert [type(r) for r in single] == [type(r) for r in results]
    with pytest.raises(ValueError):
        kifu.read_many(paths, threads=0)
    with pytest.raises(TypeError):
        kifu.read_many(str(good[0]))


def generated_collection(n, moves=6):
    """N small games, game i with players b{i} and w{i}."""
    parts = []
    for i in range(n):
        mv = "".join(f";{'BW'[k % 2]}[{chr(97 + (i + k) % 19)}{chr(97 + (i * 7 + k) % 19)}]" for k in range(moves))
        parts.append(f"(;GM[1]SZ[19]PB[b{i}]PW[w{i}]{mv})\n")
    return "".join(parts).encode()


def test_read_many_releases_the_gil(tmp_path):
    p = tmp_path / "many.sgf"
    p.write_bytes(generated_collection(20000))
    done = threading.Event()
    result = []

    def work():
        result.append(kifu.read_many([p] * 6, threads=1))
        done.set()

    t = threading.Thread(target=work)
    start = time.perf_counter()
    t.start()
    ticks = 0
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    t.join()
    elapsed = time.perf_counter() - start
    assert all(len(c) == 20000 for c in result[0])
    # With the GIL held for the whole call, this thread could not have run during it.
    assert elapsed < 0.05 or ticks >= 10, (elapsed, ticks)


def test_iter_games_over_100k_games(tmp_path):
    n = 100_000
    p = tmp_path / "huge.sgf"
    p.write_bytes(generated_collection(n))
    it = kifu.iter_games(p)
    assert it.charset.name == "UTF-8"
    count = 0
    for i, game in enumerate(it):
        if i % 9973 == 0:
            assert game.info.black == f"b{i}" and game.info.white == f"w{i}"
            assert len(game.moves) == 6
        count += 1
    assert count == n
    assert next(iter(it), None) is None


def peak_rss(code, path):
    """Peak resident memory (VmHWM, bytes) of a fresh interpreter running CODE with `path` bound."""
    script = (
        "import kifu, sys\n"
        "path = sys.argv[1]\n"
        f"{code}\n"
        "status = open('/proc/self/status').read()\n"
        "print(next(l.split()[1] for l in status.splitlines() if l.startswith('VmHWM:')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True, cwd=path.parent
    )
    return int(out.stdout.split()[-1]) * 1024


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's /proc")
def test_iter_games_memory_is_bounded(tmp_path):
    """Peak memory of iterating over a generated 100k-game collection of about 30 MB and over the
    same games twice: the file is read in pieces (kifu's streaming reader), so the peak stays under
    a fixed cap and does not grow with the file, where reading it whole takes more than the file."""
    n = 100_000
    data = generated_collection(n, moves=40)
    p, p2 = tmp_path / "huge.sgf", tmp_path / "twice.sgf"
    p.write_bytes(data)
    p2.write_bytes(data + data)
    size = len(data)
    assert size > 16 << 20  # larger than what is read whole
    baseline = peak_rss("", p)
    count = "assert sum(1 for g in kifu.iter_games(path) if len(g.moves) == 40) == {}"
    iterating = peak_rss(count.format(n), p)
    iterating_twice = peak_rss(count.format(2 * n), p2)
    reading = peak_rss(f"c = kifu.read(path)\nassert len(c) == {n}", p)
    print(f"{size / 1e6:.1f} MB, {n} games: peak RSS above the interpreter's: iter_games "
          f"{(iterating - baseline) / 1e6:.1f} MB ({(iterating_twice - baseline) / 1e6:.1f} MB for twice "
          f"the games), read {(reading - baseline) / 1e6:.1f} MB")
    # The cap: a few pieces of games and the reader's buffers (about 75 MB measured), whatever the
    # input's size: twice the games add next to nothing, where reading whole holds at least the text.
    assert iterating - baseline < 100e6
    assert iterating_twice - iterating < 0.15 * size
    assert reading - baseline > size


def test_iter_games_streams_what_read_gives(tmp_path):
    # A collection above the streaming threshold: the games and diagnostics are read's.
    p = tmp_path / "big.sgf"
    data = generated_collection(60_000, moves=60) + b"(;GM[1]PB[last]KM[650];B[aa]C[broken"
    p.write_bytes(data)
    assert len(data) > 16 << 20
    whole = kifu.read(p)
    it = kifu.iter_games(p)
    assert it.charset.name == whole.charset.name
    count = 0
    for i, game in enumerate(it):
        if i % 7919 == 0 or i == 60_000:
            assert game.to_sgf() == whole.games[i].to_sgf()
        count += 1
    assert count == len(whole) == 60_001
    assert [(d.code, d.line, d.column) for d in it.diagnostics] == [(d.code, d.line, d.column) for d in whole.diagnostics]
    # Nothing readable raises at the call, as read() does; a missing file is FileNotFoundError.
    empty = tmp_path / "empty.sgf"
    empty.write_bytes(b"no game here")
    with pytest.raises(kifu.ReadError) as e:
        kifu.iter_games(empty)
    assert e.value.path == str(empty)
    with pytest.raises(kifu.ReadError):
        kifu.iter_games(b"hello")
    with pytest.raises(FileNotFoundError):
        kifu.iter_games(tmp_path / "missing.sgf")
    # Formats read whole go through the same iterator.
    gib = FIXTURES / "gib" / "korean-euc-kr.gib"
    games = list(kifu.iter_games(gib))
    assert [g.to_sgf() for g in games] == [g.to_sgf() for g in kifu.read(gib).games]


SGF_MOVE = re.compile(r";([BW])\[([a-zA-Z]{2}|)\]")


def coords(letters):
    return tuple(ord(c) - 97 if c.islower() else ord(c) - 65 + 26 for c in letters)


def linear_inputs():
    files = [p for fmt, exts in [("gib", ["gib"]), ("ngf", ["ngf"]), ("ugf", ["ugf"])] for p in fixture_inputs(fmt, *exts)]
    return files + fixture_inputs("sgf", "sgf")


def test_moves_array_against_the_sgf():
    np = pytest.importorskip("numpy")
    checked = 0
    for p in linear_inputs():
        for game in kifu.read(p).games:
            a = game.moves_array()
            assert a.dtype == np.int16 and a.ndim == 2 and a.shape[1] == 3
            # game.moves (shared tuples) says the same as the array.
            assert [[0 if c == "B" else 1, *(q or (-1, -1))] for c, q in game.moves] == a.tolist()
            text = game.to_sgf()
            if text.count("(") != 1:
                continue  # variations: the regex below would see every branch
            size = game.size
            want = []
            for color, value in SGF_MOVE.findall(text):
                point = None if value == "" or (value == "tt" and max(size) <= 19) else coords(value)
                want.append((0 if color == "B" else 1, *(point or (-1, -1))))
            assert a.tolist() == [list(m) for m in want], p.name
            checked += 1
    assert checked >= 10
    # A pass is -1, -1; the array is writable.
    a = kifu.read(SIMPLE).games[0].moves_array()
    assert a.tolist() == [[0, 4, 4], [1, 2, 2], [0, -1, -1], [1, 6, 2]]
    a[0, 0] = 5


def test_load_moves(tmp_path):
    pytest.importorskip("numpy")
    files = linear_inputs()
    arrays = kifu.load_moves(files, threads=2)
    expected = [g.moves_array().tolist() for p in files for g in kifu.read(p).games]
    assert [a.tolist() for a in arrays] == expected
    broken = tmp_path / "broken.ngf"
    broken.write_bytes(b"")
    with pytest.raises(kifu.ReadError) as e:
        kifu.load_moves(files[:1] + [broken] + files[1:])
    assert e.value.path == str(broken)
    assert len(kifu.load_moves(files[:1] + [broken], skip_errors=True)) == len(kifu.read(files[0]).games)


def test_numpy_missing_is_a_clear_error(tmp_path):
    script = (
        "import sys; sys.modules['numpy'] = None\n"
        "import kifu\n"
        "g = kifu.read(b'(;GM[1];B[aa])').games[0]\n"
        "assert g.moves == [('B', (0, 0))]\n"  # everything else works without NumPy
        "try:\n    g.moves_array()\nexcept ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=tmp_path)
    assert "need NumPy" in out.stdout and "pip install numpy" in out.stdout


def no_temp_files(folder):
    return [p.name for p in Path(folder).iterdir() if p.name.endswith(".tmp")] == []


def test_convert_safe_writes(tmp_path):
    src = FIXTURES / "gib" / "korean-euc-kr.gib"
    dst = tmp_path / "out.sgf"
    found = kifu.convert(src, dst)
    assert found[0].code == "charset.decided"
    assert dst.read_text(encoding="utf-8") == kifu.read(src).to_sgf()
    with pytest.raises(FileExistsError):
        kifu.convert(FIXTURES / "gib" / "handicap3.gib", dst)
    assert dst.read_text(encoding="utf-8") == kifu.read(src).to_sgf()  # untouched
    kifu.convert(FIXTURES / "gib" / "handicap3.gib", dst, force=True)
    assert kifu.read(dst).games[0].info.handicap == 3
    assert no_temp_files(tmp_path)
    with pytest.raises(kifu.WriteError, match="is the input"):
        kifu.convert(dst, dst, force=True)
    with pytest.raises(FileNotFoundError):
        kifu.convert(tmp_path / "nope.gib", tmp_path / "x.sgf")
    with pytest.raises(FileNotFoundError):
        kifu.convert(src, tmp_path / "no" / "folder.sgf")


def test_convert_formats_and_charsets(tmp_path):
    src = FIXTURES / "gib" / "korean-euc-kr.gib"
    kifu.convert(src, tmp_path / "a.json")  # format from the extension
    assert kifu.read(tmp_path / "a.json").to_sgf() == kifu.read(src).to_sgf()
    kifu.convert(src, tmp_path / "a.out", to="ngf", encoding="cp949")
    back = kifu.read(tmp_path / "a.out", format="ngf")
    assert back.charset.name == "EUC-KR" and back.games[0].info.black == "이영희"
    with pytest.raises(kifu.WriteError) as e:
        kifu.convert(src, tmp_path / "sjis.sgf", encoding="shift_jis")
    assert e.value.diagnostics and all(d.severity == "error" for d in e.value.diagnostics)
    assert not (tmp_path / "sjis.sgf").exists()
    found = kifu.convert(src, tmp_path / "sjis.sgf", encoding="shift_jis", lossy=True)
    assert any(d.severity == "warning" for d in found)
    assert "?" in kifu.read(tmp_path / "sjis.sgf").games[0].info.black
    assert no_temp_files(tmp_path)


def test_write_methods_are_safe(tmp_path):
    c = kifu.read(SIMPLE)
    out = tmp_path / "g.ugf"
    assert c.write(out) == []
    assert kifu.read(out).games[0].moves == c.games[0].moves
    with pytest.raises(FileExistsError) as e:
        c.games[0].write(out, "sgf")  # different bytes
    assert e.value.filename == str(out) and "differs" in str(e.value)
    c.games[0].write(out, "sgf", force=True)
    assert kifu.read(out, format="sgf").to_sgf() == c.to_sgf()
    with pytest.raises(ValueError):
        c.write(tmp_path / "x", format="doc")


@pytest.mark.skipif(os.name != "posix", reason="modes, umask and /dev/null are POSIX")
def test_writes_follow_the_commands_rules(tmp_path):
    """write() and convert() use the library's safe write: the same bytes leave a file alone,
    devices are written through, modes are 0666 minus the umask (kept when replacing), no
    temporary file is left, a missing folder is an error."""
    c = kifu.read(SIMPLE)
    out = tmp_path / "g.sgf"
    c.write(out)
    umask = os.umask(0o022)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask
    os.utime(out, (1_000_000_000, 1_000_000_000))
    c.write(out)  # identical: no error, not rewritten
    assert out.stat().st_mtime == 1_000_000_000
    out.chmod(0o640)
    c.write(out, "ugf", force=True)
    assert out.stat().st_mode & 0o777 == 0o640 and kifu.read(out, format="ugf").games[0].moves == c.games[0].moves
    assert c.write("/dev/null") == []
    assert kifu.convert(FIXTURES / "gib" / "handicap3.gib", "/dev/null")
    with pytest.raises(FileNotFoundError):
        c.write(tmp_path / "no" / "g.sgf")
    with pytest.raises(IsADirectoryError):
        c.write(tmp_path, "sgf", force=True)
    assert no_temp_files(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.sgf"]


def test_internal_panic_is_documented_with_the_other_codes():
    doc = FIXTURES.parent / "formats" / "checks.md"
    assert "`internal.panic`" in doc.read_text(encoding="utf-8")


def test_text_output_without_loss_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kifu.read(SIMPLE).to_sgf()
        kifu.read(SIMPLE).to_json()


def test_no_rust_panic_reaches_python_as_a_crash():
    # pyo3's own guard: a panic in the binding is an exception, and the interpreter goes on.
    with pytest.raises(BaseException) as e:
        kifu._kifu._panic_for_tests("binding")
    assert type(e.value).__name__ == "PanicException"
    # kifu's guard around reading: the panic becomes a ReadError with code internal.panic.
    with pytest.raises(kifu.ReadError) as r:
        kifu._kifu._panic_for_tests("read")
    assert r.value.diagnostics[0].code == "internal.panic"
    # In a parallel run only the input that panicked fails.
    results = kifu._kifu._panic_for_tests("read_many")
    assert isinstance(results[0], kifu.Collection) and isinstance(results[2], kifu.Collection)
    assert isinstance(results[1], kifu.ReadError) and results[1].diagnostics[0].code == "internal.panic"
    assert kifu.read(SIMPLE).games[0].info.black == "Black"


def test_shared_corpus_reads_in_parallel():
    corpus = shared("corpus")
    files = sorted(p for p in corpus.rglob("*") if p.suffix.lower() == ".sgf")[:500]
    results = kifu.read_many(files)
    failed = [(p, r) for p, r in zip(files, results) if not isinstance(r, kifu.Collection)]
    assert len(results) == len(files) and failed == []
