"""kifu's JSON read with Python's own json module (its default recursion limit): the nesting
stays shallow however deep the game tree, the tree is rebuilt from the flat lines as
formats/json.md shows, and a reader written for version 1 still reads the main line and every
node."""

import json

import kifu
from conftest import FIXTURES, shared


def branching_sgf(moves: int) -> str:
    """A game `moves` deep whose every move has a one-move variation beside it."""
    parts = ["(;GM[1]SZ[19]"]
    parts += ["(;B[pd]" if i % 2 == 0 else "(;W[dp]" for i in range(moves)]
    parts += [")(;B[dd]C[side])"] * moves
    parts.append(")")
    return "".join(parts)


def parents(game: dict) -> tuple:
    """Every node of a game object and its parent's number (formats/json.md, "Reading a game")."""
    nodes = list(game["nodes"])
    parent = [None] + list(range(len(nodes) - 1))
    for v in game["variations"]:
        # Without "parent" (the first variation only): the rest of the main line.
        first = v.get("parent", len(nodes) - 1)
        parent += [first] + list(range(len(nodes), len(nodes) + len(v["nodes"]) - 1))
        nodes += v["nodes"]
    return nodes, parent


def main_line(game: dict) -> list:
    """The main line's nodes (formats/json.md, "Reading a game")."""
    rest = game["variations"][:1]
    return game["nodes"] + [n for v in rest if "parent" not in v for n in v["nodes"]]


def version_1_walk(game: dict) -> tuple:
    """What a reader written for version 1 makes of a game: the main line (`nodes`, then
    `variations[0]`'s, repeatedly) and the number of nodes (every `nodes` list reached by
    walking `variations`)."""
    main, seq = [], game
    while seq is not None:
        main += seq["nodes"]
        seq = seq["variations"][0] if seq.get("variations") else None
    count, work = 0, [game]
    while work:
        seq = work.pop()
        count += len(seq["nodes"])
        work += seq.get("variations", [])
    return main, count


def node_props(node) -> dict:
    """A JSON node (object or pair form) as {identifier: [values]}, a composed value as `a:b`."""
    pairs = node if isinstance(node, list) else list(node.items())
    out: dict = {}
    for ident, values in pairs:
        out.setdefault(ident, []).extend(v if isinstance(v, str) else f"{v[0]}:{v[1]}" for v in values)
    return out


def model_props(node: kifu.Node) -> dict:
    """A model node's properties as node_props gives a JSON node's."""
    return {k: list(v) for k, v in node.properties.items()}


def preorder(game: kifu.Game) -> list:
    """The game's nodes in SGF's order."""
    out, stack = [], [game.root]
    while stack:
        n = stack.pop()
        out.append(n)
        stack += reversed(n.children)
    return out


def test_python_json_reads_a_deep_tree():
    moves = 50_000
    c = kifu.read(branching_sgf(moves).encode(), format="sgf")
    text = c.to_json()
    game = json.loads(text)["games"][0]
    nodes, parent = parents(game)
    assert len(nodes) == 2 * moves + 1
    # The root forks: `nodes` is the root, the first variation the rest of the main line.
    assert len(game["nodes"]) == 1 and "parent" not in game["variations"][0]
    assert len(main_line(game)) == moves + 1
    # Every side move hangs from a main-line node, one each.
    sides = [parent[i] for i, n in enumerate(nodes) if n.get("C") == ["side"]]
    assert sorted(sides) == list(range(moves))
    assert all(p is None or p < i for i, p in enumerate(parent))
    # One NDJSON line is the same game; both read back to the same SGF.
    line = json.loads(c.to_bytes("ndjson").decode("utf-8"))
    assert line["version"] == 2 and line["variations"] == game["variations"]
    assert kifu.read(text.encode("utf-8"), format="json").to_sgf() == c.to_sgf()


def test_a_version_1_walker_reads_the_main_line_and_every_node():
    inputs = [
        kifu.read(b"(;SZ[9];B[ee](;W[cc];B[gg](;W[cg])(;W[gc]))(;W[gg]))", format="sgf"),
        kifu.read(b"(;SZ[9](;B[aa])(;B[bb];W[cc])(;B[dd]))", format="sgf"),
        kifu.read(branching_sgf(200).encode(), format="sgf"),
        kifu.read(FIXTURES / "json" / "tour.expected.sgf"),
        kifu.read(FIXTURES / "json" / "nested.v1.expected.sgf"),
    ]
    forked = 0
    for c in inputs:
        doc = json.loads(c.to_json())
        lines = [json.loads(line) for line in c.to_bytes("ndjson").decode("utf-8").splitlines()]
        for i, g in enumerate(c.games):
            for game in (doc["games"][i], lines[i]):
                walked, count = version_1_walk(game)
                assert [node_props(n) for n in walked] == [model_props(n) for n in g.main_line()]
                assert count == len(g.nodes())
                moves = sum(len(n[k]) for n in g.main_line() for k in ("B", "W") if k in n)
                assert game["info"]["moves"] == moves
                assert main_line(game) == walked
                # Nodes are numbered in the order listed, which is SGF's order.
                nodes, _ = parents(game)
                assert [node_props(n) for n in nodes] == [model_props(n) for n in preorder(g)]
                forked += bool(game["variations"])
    assert forked >= 2 * 5


def test_python_json_reads_every_fox_record():
    records = sorted(shared("samples/sgf-fox").glob("*.sgf"))
    assert len(records) == 26
    for path in records:
        c = kifu.read(path)
        game = json.loads(c.to_json())["games"][0]
        nodes, parent = parents(game)
        assert len(nodes) == len(c.games[0].nodes()), path.name
        walked, count = version_1_walk(game)
        assert count == len(nodes), path.name
        assert [node_props(n) for n in walked] == [model_props(n) for n in c.games[0].main_line()], path.name
