"""Type stubs of kifu's extension module (re-exported by the kifu package)."""

import os
from typing import Any, BinaryIO, Iterable, Iterator, Literal, Optional, Tuple, Union, final, type_check_only

__all__ = [
    "Charset",
    "Collection",
    "Diagnostic",
    "Game",
    "GameInfo",
    "GameIterator",
    "GameResult",
    "KifuError",
    "KifuWarning",
    "Node",
    "ReadError",
    "WriteError",
    "convert",
    "iter_games",
    "load_moves",
    "read",
    "read_many",
    "_panic_for_tests",
    "__version__",
]

__version__: str

_Color = Literal["B", "W"]
_Point = Tuple[int, int]
_Move = Tuple[_Color, Optional[_Point]]
_PathLike = Union[str, "os.PathLike[str]"]
_Source = Union[_PathLike, bytes, bytearray, memoryview, BinaryIO]

@final
class Diagnostic:
    """One finding: severity, stable code, message and place in the input."""

    @property
    def severity(self) -> Literal["error", "warning", "info"]: ...
    @property
    def code(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def line(self) -> Optional[int]: ...
    @property
    def column(self) -> Optional[int]: ...

class KifuError(Exception):
    diagnostics: list[Diagnostic]
    path: Optional[str]

class ReadError(KifuError): ...
class WriteError(KifuError): ...
class KifuWarning(UserWarning): ...

@final
class Charset:
    """How an input was decoded."""

    @property
    def name(self) -> str: ...
    @property
    def source(self) -> Literal["bom", "override", "declared", "detected"]: ...
    @property
    def reason(self) -> str: ...

@final
class GameResult:
    """Who won and how."""

    @property
    def winner(self) -> Optional[_Color]: ...
    @property
    def how(
        self,
    ) -> Literal["score", "points", "resign", "time", "forfeit", "draw", "void", "unknown"]: ...
    @property
    def margin(self) -> Optional[float]: ...
    @property
    def text(self) -> str: ...

@final
class GameInfo:
    """The game information; None where the game does not say."""

    @property
    def black(self) -> Optional[str]: ...
    @property
    def white(self) -> Optional[str]: ...
    @property
    def black_rank(self) -> Optional[str]: ...
    @property
    def white_rank(self) -> Optional[str]: ...
    @property
    def black_team(self) -> Optional[str]: ...
    @property
    def white_team(self) -> Optional[str]: ...
    @property
    def komi(self) -> Optional[float]: ...
    @property
    def handicap(self) -> Optional[int]: ...
    @property
    def result(self) -> Optional[GameResult]: ...
    @property
    def result_text(self) -> Optional[str]: ...
    @property
    def date(self) -> Optional[str]: ...
    @property
    def rules(self) -> Optional[str]: ...
    @property
    def time(self) -> Optional[float]: ...
    @property
    def overtime(self) -> Optional[str]: ...
    @property
    def event(self) -> Optional[str]: ...
    @property
    def round(self) -> Optional[str]: ...
    @property
    def place(self) -> Optional[str]: ...
    @property
    def name(self) -> Optional[str]: ...
    @property
    def source(self) -> Optional[str]: ...
    @property
    def comment(self) -> Optional[str]: ...
    @property
    def size(self) -> Tuple[int, int]: ...

@final
class Node:
    """A node of a game tree."""

    @property
    def properties(self) -> dict[str, list[str]]: ...
    @property
    def children(self) -> list[Node]: ...
    @property
    def parent(self) -> Optional[Node]: ...
    @property
    def move(self) -> Optional[_Move]: ...
    @property
    def setup(self) -> dict[str, list[_Point]]: ...
    @property
    def comment(self) -> Optional[str]: ...
    @property
    def index(self) -> int: ...
    def get_value(self, ident: str, default: Optional[str] = None) -> Optional[str]: ...
    def __getitem__(self, ident: str, /) -> list[str]: ...
    def __contains__(self, ident: object, /) -> bool: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@type_check_only
class _Writable:
    """What Game and Collection share: writing in any format (stubs only, no runtime class)."""

    def to_sgf(self) -> str: ...
    def to_json(self) -> str: ...
    def to_bytes(
        self,
        format: str = "sgf",
        *,
        encoding: Optional[str] = None,
        lossy: bool = False,
        expand_lists: bool = False,
    ) -> bytes: ...
    def write(
        self,
        path: _PathLike,
        format: Optional[str] = None,
        *,
        encoding: Optional[str] = None,
        lossy: bool = False,
        expand_lists: bool = False,
        force: bool = False,
    ) -> list[Diagnostic]: ...

@final
class Game(_Writable):
    """One game."""

    @property
    def info(self) -> GameInfo: ...
    @property
    def size(self) -> Tuple[int, int]: ...
    @property
    def moves(self) -> list[_Move]: ...
    @property
    def setup(self) -> dict[str, list[_Point]]: ...
    @property
    def root(self) -> Node: ...
    def nodes(self) -> list[Node]: ...
    def main_line(self) -> list[Node]: ...
    def moves_array(self) -> Any:
        """NumPy int16 array of shape (n, 3): color (0 Black, 1 White), x, y; pass = -1, -1."""
    def __len__(self) -> int: ...

@final
class Collection(_Writable):
    """The games of one input, its charset and diagnostics."""

    @property
    def games(self) -> list[Game]: ...
    @property
    def charset(self) -> Optional[Charset]: ...
    @property
    def diagnostics(self) -> list[Diagnostic]: ...
    def __len__(self) -> int: ...
    def __getitem__(self, index: int, /) -> Game: ...
    def __iter__(self) -> Iterator[Game]: ...

@final
class GameIterator(Iterator[Game]):
    """The games of one input, one at a time."""

    def __iter__(self) -> GameIterator: ...
    def __next__(self) -> Game: ...
    @property
    def charset(self) -> Optional[Charset]: ...
    @property
    def diagnostics(self) -> list[Diagnostic]: ...

def read(source: _Source, format: Optional[str] = None, encoding: Optional[str] = None) -> Collection: ...
def iter_games(source: _Source, format: Optional[str] = None, encoding: Optional[str] = None) -> GameIterator: ...
def read_many(
    paths: Iterable[_PathLike],
    threads: Optional[int] = None,
    *,
    format: Optional[str] = None,
    encoding: Optional[str] = None,
) -> list[Union[Collection, ReadError, OSError]]: ...
def load_moves(
    paths: Iterable[_PathLike],
    threads: Optional[int] = None,
    *,
    format: Optional[str] = None,
    encoding: Optional[str] = None,
    skip_errors: bool = False,
) -> list[Any]: ...
def convert(
    src: _PathLike,
    dst: _PathLike,
    to: Optional[str] = None,
    *,
    from_format: Optional[str] = None,
    from_encoding: Optional[str] = None,
    encoding: Optional[str] = None,
    lossy: bool = False,
    expand_lists: bool = False,
    force: bool = False,
) -> list[Diagnostic]: ...
def _panic_for_tests(kind: str) -> Any:
    """Test hook: panics in the binding (see lib.rs); not part of the API."""
