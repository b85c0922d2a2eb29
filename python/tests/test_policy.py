"""One read policy: the Python package reads the mislabelled and damaged inputs of
fixtures/policy/ as the command and the library's read_path do (cli/tests/policy.rs holds those
two to the same file, fixtures/policy/expected.json): the same games, the same diagnostics, and
the same failure for an input in no known format."""

import json

import pytest

import kifu
from conftest import FIXTURES

POLICY = FIXTURES / "policy"
EXPECTED = json.loads((POLICY / "expected.json").read_text(encoding="utf-8"))


def diagnostics(items):
    # The charset decision is a diagnostic in Python; the library keeps it apart.
    return [[d.severity, d.code, d.line, d.column, d.message] for d in items if d.code != "charset.decided"]


@pytest.mark.parametrize("name", sorted(EXPECTED), ids=str)
def test_python_reads_as_the_command_and_the_library(name):
    want = EXPECTED[name]
    path = POLICY / name
    if "error" in want:
        with pytest.raises(kifu.ReadError) as raised:
            kifu.read(path)
        assert diagnostics(raised.value.diagnostics) == want["error"]
        return
    collection = kifu.read(path)
    assert collection.to_sgf() == want["sgf"]
    assert diagnostics(collection.diagnostics) == want["diagnostics"]


def test_the_policy_fixtures_cover_each_case():
    assert EXPECTED["sgf-as.gib"]["diagnostics"][0][1] == "input.format-mismatch"
    assert "error" in EXPECTED["notes.dat"]
    assert any(d[4].startswith("move ") for d in EXPECTED["damaged.sgf"]["diagnostics"])
