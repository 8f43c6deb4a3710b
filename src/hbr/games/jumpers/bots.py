"""The computer player: negamax with alpha-beta pruning, deepening while time allows.

easy looks one move ahead and plays a little at random; normal three moves (its own,
the reply, its next); hard deepens two moves at a time (each search ends on its own
move) as far as it can within its second. Measured with sides alternating
(docs/balance.md): normal won 16 of 16 games against easy, hard 13 of 16 against
normal. The position's value: how far each side's free pieces have come toward the
other gate (hares count most, they get there fastest), its most advanced piece again
(:data:`LEAD`: the short race is won by one piece), and how many of the other side's
pieces it holds down under its own.

The search plays on :class:`hbr.games.jumpers.position.Position` (about 15 times as
fast as the engine, which checks and explains every move), remembers what it found of
each position (a transposition table) and tries the best move found before first, then
the moves that gain the most rows.
"""

from __future__ import annotations

import random
import time

from hbr.games.jumpers.engine import Move, apply, legal_moves
from hbr.games.jumpers.position import ROW, Position, Stacks, Step, rows_come
from hbr.games.jumpers.state import Goal, Kind, Side, State

LEVELS = ("easy", "normal", "hard")
DEPTH = {"easy": 1, "normal": 3, "hard": 9}
#: Seconds a move may take at most (hard deepens until this is spent).
THINK_SECONDS = 1.0
WIN = 10_000.0
SPEED = {Kind.FROG: 1.0, Kind.CAT: 1.3, Kind.HARE: 1.6}
#: The most advanced piece counts again this much: a race is won by one piece, not by all.
LEAD = 5.0
#: Positions the search remembers at most (then it starts again).
KNOWN = 500_000
#: What a remembered value is: exact, at least (the search was cut off above it), at most.
EXACT, LOWER, UPPER = 0, 1, 2


class OutOfTime(Exception):
    pass


def value(position: Position, side: Side, threats: bool = True) -> float:
    """How good ``position`` is for ``side`` (positive: good); ``threats``: also whether
    the side to move can land on the gate next (easy does not look)."""
    if position.winner is not None:
        return WIN if position.winner is side else -WIN
    if threats and position.goal is Goal.SHORT and position.to_move is side and position.wins_next():
        return WIN / 2  # it lands on the gate with its next move
    total = 0.0
    lead = {Side.SOUTH: 0.0, Side.NORTH: 0.0}
    for cell, stack in enumerate(position.stacks):
        if not stack:
            continue
        owner, kind = stack[-1]
        rows = rows_come(owner, cell)
        advance = SPEED[kind] * rows * rows / 6
        lead[owner] = max(lead[owner], advance)
        worth = advance
        held = sum(1 for p in stack[:-1] if p[0] is not owner)
        worth += 0.6 * held
        if position.goal is Goal.LONG and ROW[cell] == owner.other.gate_row:
            worth += 4
        total += worth if owner is side else -worth
    return total + LEAD * (lead[side] - lead[side.other])


class Bot:
    def __init__(self, level: str, rng: random.Random) -> None:
        self.level = level
        self.rng = rng
        #: What the search learnt of each position (its depth, value, bound and best
        #: move), kept from move to move: the positions ahead come round again.
        self._known: dict[tuple[Stacks, Side], tuple[int, float, int, Step]] = {}

    def move(self, state: State) -> Move:
        moves = legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        deadline = time.monotonic() + THINK_SECONDS
        roots = self._roots(state, moves)
        best = self.rng.choice(moves)
        if len(self._known) > KNOWN:
            self._known.clear()
        for depth in range(1, DEPTH[self.level] + 1, 2):  # odd depths: its own move is the last it weighs
            try:
                best, roots = self._root(roots, depth, deadline)
            except OutOfTime:
                break
        return best

    def _roots(self, state: State, moves: list[Move]) -> list[tuple[float, Move, Position]]:
        """Each legal move with the position after it, and what it costs to go back to a
        position seen before (going round in circles draws a game it could win)."""
        roots = []
        for move in moves:
            after, _ = apply(state, move)
            roots.append((-1.0 if after.key() in state.seen else 0.0, move, Position.of(after)))
        return roots

    def _root(
        self, roots: list[tuple[float, Move, Position]], depth: int, deadline: float
    ) -> tuple[Move, list[tuple[float, Move, Position]]]:
        """The best move at ``depth``, and the moves best first for the next depth."""
        noise = 0.8 if self.level == "easy" else 0.01
        scored = []
        alpha = -float("inf")
        for penalty, move, after in roots:
            # A move cut off below alpha comes back with a bound (at most this), not its
            # value. With the window's edge at alpha - noise - penalty, each move that the
            # tie-breaking noise could still make the choice is valued exactly, so a bound
            # never wins the draw; one did, and normal passed over wins it had seen.
            score = -self._search(after, depth - 1, -float("inf"), -(alpha - noise - penalty), deadline)
            scored.append((score + penalty + self.rng.uniform(0, noise), penalty, move, after))
            alpha = max(alpha, score + penalty)
        scored.sort(key=lambda item: -item[0])
        return scored[0][2], [(penalty, move, after) for _, penalty, move, after in scored]

    def _search(self, position: Position, depth: int, alpha: float, beta: float, deadline: float) -> float:
        """Negamax with alpha-beta: the value of ``position`` for its side to move."""
        if position.winner is not None:  # the sooner a win, the better; a loss, the later
            return WIN + depth if position.winner is position.to_move else -WIN - depth
        if depth == 0:
            return value(position, position.to_move, threats=self.level != "easy")
        if time.monotonic() > deadline:
            raise OutOfTime
        key = (position.stacks, position.to_move)
        known = self._known.get(key)
        first: Step = None
        if known is not None:
            known_depth, known_value, bound, first = known
            if known_depth >= depth and (
                bound == EXACT or (bound == LOWER and known_value >= beta) or (bound == UPPER and known_value <= alpha)
            ):
                return known_value
        moves: list[Step] = [*sorted(position.moves(), key=lambda m: -position.advance(m))] or [None]
        if first in moves:
            moves.remove(first)
            moves.insert(0, first)
        start_alpha, best, best_move = alpha, -float("inf"), moves[0]
        for move in moves:
            score = -self._search(position.play(move), depth - 1, -beta, -alpha, deadline)
            if score > best:
                best, best_move = score, move
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        bound = UPPER if best <= start_alpha else LOWER if best >= beta else EXACT
        self._known[key] = (depth, best, bound, best_move)
        return best
