"""A small typed use of kifu, checked with `mypy --strict` (see test_typing.py and .ci/run)."""

from pathlib import Path
from typing import Optional

import kifu


def summary(path: Path) -> list[str]:
    lines: list[str] = []
    collection = kifu.read(path)
    charset: Optional[kifu.Charset] = collection.charset
    for game in collection.games:
        info = game.info
        komi: float = info.komi if info.komi is not None else 0.0
        winner = info.result.winner if info.result is not None else None
        columns, rows = game.size
        black_moves = [point for color, point in game.moves if color == "B" and point is not None]
        lines.append(f"{info.black} vs {info.white} {komi} {winner} {columns}x{rows} {len(black_moves)}")
    for d in collection.diagnostics:
        where = f"{d.line}:{d.column}" if d.line is not None else "-"
        lines.append(f"{where} {d.severity}[{d.code}] {d.message} {charset.name if charset else ''}")
    return lines


def walk(node: kifu.Node, depth: int = 0) -> int:
    values: list[str] = node.properties.get("C", [])
    return len(values) + sum(walk(child, depth + 1) for child in node.children)


def many(paths: list[Path]) -> int:
    total = 0
    for result in kifu.read_many(paths, threads=2):
        if isinstance(result, kifu.Collection):
            total += len(result)
        elif isinstance(result, kifu.ReadError):
            total -= len(result.diagnostics)
    for game in kifu.iter_games(paths[0]):
        total += walk(game.root)
    found: list[kifu.Diagnostic] = kifu.convert(paths[0], Path("out.sgf"), to="sgf", force=True)
    return total + len(found)


def values(text: str, path: Path) -> int:
    """Records in memory, results that cannot be missing, positions, and copies."""
    import copy
    import pickle

    collection = kifu.loads(text)
    game: kifu.Game = pickle.loads(pickle.dumps(collection.games[0]))
    result: kifu.GameResult = game.info.result
    winner: Optional[str] = result.winner if result else None
    how: Optional[str] = result.how
    same: bool = copy.deepcopy(game) == game and hash(game.info) == hash(copy.copy(game.info))
    planes = game.positions(game.main_line()[-1])
    illegal: list[kifu.Diagnostic] = game.illegal_moves()
    arrays = kifu.load_positions([path], threads=1, skip_errors=True)
    sgf: str = kifu.dumps(game) + kifu.dumps(collection, "json")
    try:
        kifu.read(b"not a game")
    except ValueError as e:  # kifu.ReadError is a ValueError
        assert isinstance(e, kifu.ReadError)
    return len(sgf) + len(illegal) + len(arrays) + int(same) + len(planes) + len(str(winner) + str(how))
