"""A small Go board for the tests: replays a main line and reports illegal moves (occupied point,
suicide, ko retake, off the board), so EXPECTED.tsv's LEGAL column is checked independently of
kifu's own rules engine."""

from typing import Dict, List, Optional, Set, Tuple

Point = Tuple[int, int]


class Board:
    def __init__(self, size: Tuple[int, int]) -> None:
        self.w, self.h = size
        self.stones: Dict[Point, str] = {}
        self.ko: Optional[Point] = None

    def neighbours(self, p: Point) -> List[Point]:
        x, y = p
        cand = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
        return [(a, b) for a, b in cand if 0 <= a < self.w and 0 <= b < self.h]

    def group(self, p: Point) -> Tuple[Set[Point], bool]:
        color = self.stones[p]
        seen, todo, free = {p}, [p], False
        while todo:
            for n in self.neighbours(todo.pop()):
                c = self.stones.get(n)
                if c is None:
                    free = True
                elif c == color and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen, free

    def play(self, color: str, p: Optional[Point]) -> Optional[str]:
        """Plays a move; returns the problem (and leaves the board as it was) when it is illegal."""
        if p is None:
            self.ko = None
            return None
        if not (0 <= p[0] < self.w and 0 <= p[1] < self.h):
            return "off board"
        if p in self.stones:
            return "occupied"
        if p == self.ko:
            return "ko"
        self.stones[p] = color
        captured: Set[Point] = set()
        for n in self.neighbours(p):
            if self.stones.get(n) not in (None, color):
                g, free = self.group(n)
                if not free:
                    captured |= g
        for q in captured:
            del self.stones[q]
        own, free = self.group(p)
        if not free:
            del self.stones[p]
            return "suicide"
        lone = len(own) == 1 and sum(1 for n in self.neighbours(p) if self.stones.get(n) is None) == 1
        self.ko = next(iter(captured)) if len(captured) == 1 and lone else None
        return None


def replay_main_line(game) -> List[str]:
    """The problems of the game's main line (setup applied node by node), in order."""
    board = Board(game.size)
    problems = []
    for node in game.main_line():
        for key, points in node.setup.items():
            for q in points:
                board.stones.pop(q, None)
                if key != "AE":
                    board.stones[q] = "B" if key == "AB" else "W"
                board.ko = None
        mv = node.move
        if mv is not None:
            problem = board.play(mv[0], mv[1])
            if problem:
                problems.append(f"node {node.index}: {mv[0]} {mv[1]} {problem}")
    return problems
