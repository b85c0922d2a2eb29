"""The real samples of ../shared/samples against EXPECTED.tsv, through the Python API (skipped
when ../shared is absent)."""

from collections import defaultdict

import kifu
from conftest import first_comment, shared
from goboard import replay_main_line


def letters(point):
    """The SGF letters of a point, "" for a pass."""
    if point is None:
        return ""
    return "".join(chr(ord("a") + c) if c < 26 else chr(ord("A") + c - 26) for c in point)


def actual(key, want, collection, data):
    """Whether the value of EXPECTED.tsv's KEY for this input is WANT (with the reason if not)."""
    game = collection.games[0]
    root = game.root
    moves = game.moves
    show = [f"{c}[{letters(p)}]" for c, p in moves]
    if key == "GAMES":
        got = str(len(collection))
    elif key == "NODES":
        got = str(len(game))
    elif key == "MOVES":
        got = str(sum(1 for n in game.main_line() if "B" in n or "W" in n))
    elif key == "PASSES":
        got = str(sum(1 for _, p in moves if p is None))
    elif key == "FIRST3":
        got = ";".join(show[:3])
    elif key == "LAST":
        got = show[-1] if show else ""
    elif key == "LEGAL":
        got = "no" if replay_main_line(game) else "yes"
    elif key == "AB":
        got = ",".join(sorted(root.properties.get("AB", [])))
    elif key == "C":
        c = first_comment(game) or ""
        return c.startswith(want.replace("\\n", "\n")), c
    elif key == "COMMENTS":
        got = str(sum(1 for n in game.nodes() if n.comment is not None))
    elif key == "VARIATIONS":
        got = str(sum(max(len(n.children) - 1, 0) for n in game.nodes()))
    elif key == "CHARSET":
        name = collection.charset.name
        first = want.replace(";", " ").split()[0]
        if first == "ASCII":
            return data.isascii(), name
        if first == "GB2312":
            return name in ("GBK", "GB18030"), name
        return name.lower() == first.lower(), name
    else:
        got = ",".join(root.properties.get(key, []))
    return got == want, got


def test_samples_match_expected_tsv():
    samples = shared("samples")
    rows = defaultdict(list)
    for line in (samples / "EXPECTED.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        cols = line.split("\t")
        if len(cols) >= 2:
            rows[cols[0]].append((cols[1], cols[2] if len(cols) > 2 else ""))
    paths = [samples / f for f in rows]
    results = kifu.read_many(paths)
    wrong = []
    checked = 0
    for (file, expected), c in zip(rows.items(), results):
        assert isinstance(c, kifu.Collection), f"{file}: {c}"
        data = (samples / file).read_bytes()
        for key, want in expected:
            ok, got = actual(key, want, c, data)
            checked += 1
            if not ok:
                wrong.append(f"{file} {key}: got {got!r}, expected {want!r}")
    assert wrong == []
    assert checked >= 280 and len(rows) >= 20
    print(f"checked {checked} EXPECTED.tsv values over {len(rows)} samples")


def test_every_sample_reads_without_errors_and_sniffs():
    samples = shared("samples")
    files = sorted(p for p in samples.rglob("*") if p.is_file() and p.suffix.lower() in (".sgf", ".gib", ".ngf", ".ugf", ".ugi"))
    assert len(files) >= 20
    for p in files:
        by_name = kifu.read(p)
        by_content = kifu.read(p.read_bytes())  # no name: the format comes from the content
        assert by_content.to_sgf() == by_name.to_sgf(), p.name
