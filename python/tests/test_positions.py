"""Board positions (Game.positions, kifu.load_positions) against an independent replay in pure
Python (goboard.Board), on hand-made games, the fixtures and a sample of the shared corpus."""

import warnings

import pytest

import kifu
from conftest import FIXTURES, fixture_inputs, shared
from goboard import Board

np = pytest.importorskip("numpy")


def python_positions(game, nodes):
    """The positions along NODES, replayed by goboard: the position on which each move is played
    (setup applied at its node, before its move) and the final one; and the illegal moves'
    problems."""
    w, h = game.size
    board = Board((w, h))
    planes, problems = [], []

    def snapshot():
        plane = np.zeros((h, w), dtype=np.int8)
        for (x, y), color in board.stones.items():
            if 0 <= x < w and 0 <= y < h:
                plane[y, x] = 1 if color == "B" else -1
        planes.append(plane)

    for node in nodes:
        mv = node.move
        if mv is not None and mv[1] == (19, 19) and w <= 19 and h <= 19:
            mv = (mv[0], None)  # tt on a board of 19 lines or fewer is a pass
        for key, points in node.setup.items():
            for q in points:
                board.stones.pop(q, None)
                if key != "AE":
                    board.stones[q] = "B" if key == "AB" else "W"
                board.ko = None
        if mv is not None:
            snapshot()
            problem = board.play(mv[0], mv[1])
            if problem:
                problems.append(problem)
    snapshot()
    return np.stack(planes), problems


def check_game(game):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = game.positions()
    want, problems = python_positions(game, game.main_line())
    assert got.dtype == np.int8 and got.shape == want.shape, game
    assert got.shape[0] == len(game.moves) + 1
    mismatch = np.argwhere((got != want).any(axis=(1, 2)))
    assert mismatch.size == 0, f"{game!r}: first differing plane {mismatch[:1]}"
    illegal = game.illegal_moves()
    assert len(illegal) == len(problems) == len(caught), (game, problems, illegal)
    assert all(d.code == "diagram.illegal-move" for d in illegal)
    return len(problems)


def test_captures_setup_and_passes():
    game = kifu.read(b"(;GM[1]SZ[5]AB[aa]AW[ca];W[ba];B[];W[ab];AE[ca]AW[ee];B[cc])").games[0]
    p = game.positions()
    assert p.shape == (5, 5, 5) and p.dtype == np.int8
    assert (p[0, 0, 0], p[0, 0, 2]) == (1, -1) and np.count_nonzero(p[0]) == 2  # setup in plane 0
    assert p[1, 0, 1] == -1 and p[1, 0, 0] == 1
    assert (p[2] == p[1]).all()  # a pass repeats the position
    assert p[3, 0, 0] == 0 and p[3, 1, 0] == -1  # W ab captures the black corner stone
    # Plane k is the position on which move k is played: the setup before it is applied.
    assert p[3, 0, 2] == 0 and p[3, 4, 4] == -1 and p[3, 2, 2] == 0
    assert p[4, 2, 2] == 1 and (p[4] - p[3] == np.eye(5, dtype=np.int8)[2:3].T @ np.eye(5, dtype=np.int8)[2:3]).all()
    check_game(game)


def test_a_rectangular_board_is_rows_by_columns():
    game = kifu.read(b"(;GM[1]SZ[9:13];B[ha];W[al])").games[0]
    p = game.positions()
    assert p.shape == (3, 13, 9) and p[1, 0, 7] == 1 and p[2, 11, 0] == -1


@pytest.mark.parametrize(
    "sgf, problem",
    [
        (b"(;GM[1]SZ[9];B[ee];W[ee])", "move 2 (W ee): the point is occupied; skipped on the board"),
        (b"(;GM[1]SZ[9]AB[ba][ab];W[aa])", "move 1 (W aa): the move is suicide; skipped on the board"),
        (b"(;GM[1]SZ[9]AB[ba][ab][bc]AW[bb][ca][db][cc];B[cb];W[bb])",
         "move 2 (W bb): the move retakes a ko; skipped on the board"),
    ],
)
def test_illegal_moves_are_skipped_and_reported(sgf, problem):
    game = kifu.read(sgf).games[0]
    with pytest.warns(kifu.KifuWarning, match="diagram.illegal-move") as caught:
        p = game.positions()
    assert [str(w.message) for w in caught] == [f"warning[diagram.illegal-move]: {problem}"]
    assert (p[-1] == p[-2]).all(), "the refused move leaves the position as it was"
    assert [d.message for d in game.illegal_moves()] == [problem]
    assert check_game(game) == 1


def test_the_line_to_a_node():
    game = kifu.read(b"(;GM[1]SZ[9];B[ee](;W[cc];B[gg])(;AB[aa];W[gc]))").games[0]
    setup = game.root.children[0].children[1]
    second = setup.children[0]
    p = game.positions(second)
    assert p.shape == (3, 9, 9) and p[2, 2, 6] == -1 and p[2, 0, 0] == 1 and p[2, 2, 2] == 0
    assert p[1, 0, 0] == 1 and p[1, 2, 6] == 0  # W gc is played on the position with the setup
    assert (game.positions(setup) == p[:2]).all()
    want, _ = python_positions(game, [game.root, game.root.children[0], setup, second])
    assert (p == want).all()
    assert (game.positions(game.root) == np.zeros((1, 9, 9))).all()
    assert (game.positions(game.main_line()[-1]) == game.positions()).all()
    other = kifu.read(b"(;GM[1]SZ[9];B[ee])").games[0]
    with pytest.raises(ValueError, match="not a node of this game"):
        game.positions(other.root)
    # A node of an equal game (a pickled or copied one) is accepted.
    import copy

    assert (copy.deepcopy(game).positions(second) == p).all()


def test_positions_match_an_independent_replay_on_the_fixtures():
    illegal = 0
    games = 0
    for sub, exts in (("sgf", ("sgf",)), ("gib", ("gib",)), ("ngf", ("ngf",)), ("ugf", ("ugf", "ugi")),
                      ("diagram", ("sgf",)), ("check", ("sgf",))):
        for path in fixture_inputs(sub, *exts):
            try:
                collection = kifu.read(path)
            except kifu.ReadError:
                continue
            for game in collection:
                illegal += check_game(game)
                games += 1
    assert games > 40 and illegal > 0


def test_positions_match_an_independent_replay_on_the_corpus():
    corpus = shared("corpus")
    paths = sorted(corpus.rglob("*.sgf"))
    sample = paths[:: max(1, len(paths) // 300)][:300]
    games = moves = 0
    for c in kifu.read_many(sample):
        if isinstance(c, kifu.Collection):
            for game in c:
                check_game(game)
                games += 1
                moves += len(game.moves)
    print(f"{games} corpus games, {moves} moves: positions equal to the Python replay")
    assert games >= 250


def test_load_positions_gives_one_array_per_game(tmp_path):
    collection = FIXTURES / "diagram" / "collection.sgf"
    single = fixture_inputs("gib", "gib")[0]
    illegal = tmp_path / "illegal.sgf"
    illegal.write_bytes(b"(;GM[1]SZ[9];B[ee];W[ee];B[aa])")
    broken = tmp_path / "broken.sgf"
    broken.write_bytes(b"\x00 not a game")
    with pytest.warns(kifu.KifuWarning) as caught:
        arrays = kifu.load_positions([collection, single, illegal], threads=2)
    games = [g for p in (collection, single, illegal) for g in kifu.read(p)]
    assert len(arrays) == len(games) > 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kifu.KifuWarning)  # the illegal move, checked below
        for a, g in zip(arrays, games):
            assert a.dtype == np.int8 and (a == g.positions()).all()
            # Each array owns its planes (handed over from Rust, not a view of a shared buffer).
            assert a.flags.c_contiguous and a.flags.writeable
        arrays[0][0, 0, 0] = 5
        assert all(a[0, 0, 0] != 5 for a in arrays[1:]) and arrays[0][0, 0, 0] == 5
    messages = [str(w.message) for w in caught if "illegal-move" in str(w.message)]
    assert messages == [f"warning[diagram.illegal-move]: {illegal}: game 1: move 2 (W ee): the point is occupied; "
                        "skipped on the board"]
    with pytest.raises(kifu.ReadError):
        kifu.load_positions([single, broken])
    assert len(kifu.load_positions([single, broken, tmp_path / "missing.sgf"], skip_errors=True)) == 1
