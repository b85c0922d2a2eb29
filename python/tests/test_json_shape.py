"""kifu's JSON read with Python's own json module (its default recursion limit): the nesting
stays shallow however deep the game tree, and the tree is rebuilt from the flat lines as
formats/json.md shows."""

import json

import kifu
from conftest import shared


def branching_sgf(moves: int) -> str:
    """A game `moves` deep whose every move has a one-move variation beside it."""
    parts = ["(;GM[1]SZ[19]"]
    parts += ["(;B[pd]" if i % 2 == 0 else "(;W[dp]" for i in range(moves)]
    parts += [")(;B[dd]C[side])"] * moves
    parts.append(")")
    return "".join(parts)


def parents(game: dict) -> tuple:
    """Every node of a game object and its parent's number (formats/json.md, "Game")."""
    nodes = list(game["nodes"])
    parent = [None] + list(range(len(nodes) - 1))
    for v in game["variations"]:
        parent += [v["parent"]] + list(range(len(nodes), len(nodes) + len(v["nodes"]) - 1))
        nodes += v["nodes"]
    return nodes, parent


def test_python_json_reads_a_deep_tree():
    moves = 50_000
    c = kifu.read(branching_sgf(moves).encode(), format="sgf")
    text = c.to_json()
    game = json.loads(text)["games"][0]
    nodes, parent = parents(game)
    assert len(nodes) == 2 * moves + 1
    # The main line is `nodes`; every side move hangs from a main-line node, one each.
    assert len(game["nodes"]) == moves + 1
    sides = [parent[i] for i, n in enumerate(nodes) if n.get("C") == ["side"]]
    assert sorted(sides) == list(range(moves))
    assert all(p is None or p < i for i, p in enumerate(parent))
    # One NDJSON line is the same game; both read back to the same SGF.
    line = json.loads(c.to_bytes("ndjson").decode("utf-8"))
    assert line["version"] == 2 and line["variations"] == game["variations"]
    assert kifu.read(text.encode("utf-8"), format="json").to_sgf() == c.to_sgf()


def test_python_json_reads_every_fox_record():
    records = sorted(shared("samples/sgf-fox").glob("*.sgf"))
    assert len(records) == 26
    for path in records:
        c = kifu.read(path)
        nodes, parent = parents(json.loads(c.to_json())["games"][0])
        assert len(nodes) == sum(1 for _ in c.games[0].nodes()), path.name
