"""kifu: read and write Go (baduk, weiqi) game records — SGF, GIB, NGF, UGF/UGI and JSON.

The Python face of the kifu Rust library: every format is read into one game-tree model, the
charset is decided as the ``kifu`` command decides it (byte-order mark, declaration, detection),
and every repair is reported as a :class:`Diagnostic` instead of being made silently.

>>> import kifu
>>> c = kifu.read(b"(;GM[1]SZ[9]PB[Shusaku]PW[Gennan];B[ee];W[])")
>>> game = c.games[0]
>>> game.info.black, game.size
('Shusaku', (9, 9))
>>> game.moves
[('B', (4, 4)), ('W', None)]

Points are ``(x, y)``, 0-based from the top-left corner (``x`` the column, ``y`` the row).
"""

from . import _kifu
from ._kifu import *  # noqa: F403  (the names listed in _kifu.pyi's __all__)
from ._kifu import __version__
from ._table import read_table

__all__ = [name for name in _kifu.__all__ if not name.startswith("_")] + ["read_table", "__version__"]
