"""Paths shared by the tests: the repository's fixtures and the optional ../shared folder."""

from pathlib import Path
from typing import Optional

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"


def shared(sub: str) -> Path:
    """The folder ../shared/SUB beside the repository, or skip the test (with a note) if absent."""
    p = REPO.parent / "shared" / sub
    if not p.exists():
        pytest.skip(f"{p} is absent")
    return p


def fixture_inputs(fmt: str, *exts: str) -> list:
    """The inputs of fixtures/FMT (not the .expected files)."""
    d = FIXTURES / fmt
    return sorted(p for p in d.iterdir() if p.suffix.lower().lstrip(".") in exts and ".expected" not in p.name)


def first_comment(game) -> Optional[str]:
    """The first C value of the game in pre-order."""
    return next((n.comment for n in game.nodes() if n.comment is not None), None)
