"""kifu.read_table: the table of games as a pyarrow.Table (pyarrow is the optional extra ``arrow``)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, BinaryIO, Iterable, Optional, Tuple, Union

from . import _kifu

if TYPE_CHECKING:
    import pyarrow

_Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, BinaryIO]


def read_table(
    paths_or_bytes: Union[_Source, Iterable[_Source]],
    threads: Optional[int] = None,
    *,
    format: Optional[str] = None,
    encoding: Optional[str] = None,
    skip_errors: bool = False,
    player: Optional[str] = None,
    black: Optional[str] = None,
    white: Optional[str] = None,
    min_moves: Optional[int] = None,
    max_moves: Optional[int] = None,
    size: Union[int, Tuple[int, int], None] = None,
) -> "pyarrow.Table":
    """The games of every input as a ``pyarrow.Table``, one row per game.

    ``paths_or_bytes`` is one input (a path, ``bytes`` or a binary file object) or an iterable of
    them. The inputs are read in parallel on ``threads`` threads (all cores when None) with the
    GIL released, as ``kifu.read`` reads them (``format``, ``encoding``); the table is built in
    Rust and handed to pyarrow through the Arrow C stream interface, without a copy. Its columns
    are those of ``kifu convert -o games.parquet`` (formats/parquet.md): file, game, format,
    charset, players, ranks, komi, handicap, result, date, event, round, place, rules, size,
    moves, setup stones, the game as SGF, and its diagnostics counted by severity.

    Filters keep the games that match every one given: ``player`` (black or white is this
    name), ``black``, ``white`` (names, exactly as in ``PB``/``PW``), ``min_moves``,
    ``max_moves`` (moves on the main line) and ``size`` (19, or ``(width, height)``).

    An input that cannot be read raises its error (``ReadError``, ``OSError``), unless
    ``skip_errors``, which leaves it out. Needs pyarrow: ``pip install 'kifu[arrow]'``.
    """
    try:
        import pyarrow
    except ImportError as e:
        raise ImportError(
            "kifu.read_table needs pyarrow, an optional dependency of kifu: pip install 'kifu[arrow]'"
        ) from e
    filters = {
        "player": player,
        "black": black,
        "white": white,
        "min_moves": min_moves,
        "max_moves": max_moves,
        "size": size,
    }
    stream = _kifu._read_table(paths_or_bytes, threads, format, encoding, skip_errors, filters)
    return pyarrow.RecordBatchReader.from_stream(stream).read_all()
