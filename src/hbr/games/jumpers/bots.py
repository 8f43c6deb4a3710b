"""The computer player: negamax with alpha-beta pruning, deepening while time allows.

easy looks one move ahead and plays a little at random; normal two moves; hard
deepens as far as it can within its second. The position's value: how far each side's
free pieces have come toward the other gate (hares count most, they get there
fastest), its most advanced piece again (:data:`LEAD`: the short race is won by one
piece), and how many of the other side's pieces it holds down under its own.
"""

from __future__ import annotations

import random
import time

from hbr.games.jumpers.engine import Move, apply, legal_moves
from hbr.games.jumpers.state import ROWS, Goal, Kind, Side, State

LEVELS = ("easy", "normal", "hard")
DEPTH = {"easy": 1, "normal": 2, "hard": 6}
#: Seconds a move may take at most (hard deepens until this is spent).
THINK_SECONDS = 1.0
WIN = 10_000.0
SPEED = {Kind.FROG: 1.0, Kind.CAT: 1.3, Kind.HARE: 1.6}
#: The most advanced piece counts again this much: a race is won by one piece, not by all.
LEAD = 5.0


class OutOfTime(Exception):
    pass


def value(state: State, side: Side, threats: bool = True) -> float:
    """How good ``state`` is for ``side`` (positive: good); ``threats``: also whether
    the side to move can land on the gate next (easy does not look)."""
    if state.winner is not None:
        return WIN if state.winner is side else -WIN
    if state.drawn:
        return 0.0
    total = 0.0
    lead = {Side.SOUTH: 0.0, Side.NORTH: 0.0}
    if threats and state.goal is Goal.SHORT and state.to_move is side and _wins_next(state):
        return WIN / 2  # it lands on the gate with its next move
    for cell, stack in state.board:
        if not stack:
            continue
        owner, kind = stack[-1]
        rows = cell[0] - 1 if owner is Side.SOUTH else ROWS - cell[0]
        advance = SPEED[kind] * rows * rows / 6
        lead[owner] = max(lead[owner], advance)
        worth = advance
        held = sum(1 for p in stack[:-1] if p[0] is not owner)
        worth += 0.6 * held
        if state.goal is Goal.LONG and cell[0] == owner.other.gate_row:
            worth += 4
        total += worth if owner is side else -worth
    return total + LEAD * (lead[side] - lead[side.other])


def _wins_next(state: State) -> bool:
    gate = state.to_move.other.gate_row
    for move in legal_moves(state, passes=False):
        assert move.frm is not None and move.direction is not None
        kind = state.stack(move.frm)[-1][1]
        if move.direction.step(move.frm, kind.length if move.jump else 1)[0] == gate:
            return True
    return False


class Bot:
    def __init__(self, level: str, rng: random.Random) -> None:
        self.level = level
        self.rng = rng

    def move(self, state: State) -> Move:
        moves = legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        deadline = time.monotonic() + THINK_SECONDS
        best = self.rng.choice(moves)
        for depth in range(1, DEPTH[self.level] + 1):
            try:
                best = self._root(state, moves, depth, deadline)
            except OutOfTime:
                break
        return best

    def _root(self, state: State, moves: list[Move], depth: int, deadline: float) -> Move:
        noise = 0.8 if self.level == "easy" else 0.01
        scored = []
        alpha = -float("inf")
        for move in moves:
            after, _ = apply(state, move)
            score = -self._search(after, depth - 1, -float("inf"), -alpha, deadline) + self.rng.uniform(0, noise)
            if after.key() in state.seen:
                score -= 1.0  # going round in circles draws a game it could win
            scored.append((score, move))
            alpha = max(alpha, score)
        return max(scored, key=lambda item: item[0])[1]

    def _search(self, state: State, depth: int, alpha: float, beta: float, deadline: float) -> float:
        if time.monotonic() > deadline:
            raise OutOfTime
        if depth == 0 or state.over:
            return value(state, state.to_move, threats=self.level != "easy")
        best = -float("inf")
        for move in legal_moves(state):
            after, _ = apply(state, move)
            best = max(best, -self._search(after, depth - 1, -beta, -alpha, deadline))
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return best
