"""A compact Jumpers position for the computer's search: the rules of engine.py on
precomputed lines of cells, with no checks and no events.

The engine is the referee, and it is slow on purpose: every move is checked and
explained, and a position is a tuple of (cell, stack) pairs. Searching a few moves
ahead means millions of moves, so the computer plays on this form instead: the 28
cells by index, each cell's lines in the six directions worked out once, a move as
(from, to). tests/games/jumpers/test_position.py proves that both agree on every
legal move and every winner in many random games.
"""

from __future__ import annotations

from dataclasses import dataclass

from hbr.games.jumpers.state import CELLS, ON_BOARD, ROWS, Cell, Direction, Goal, Side, Stack, State

#: Each cell's index in CELLS.
INDEX: dict[Cell, int] = {cell: i for i, cell in enumerate(CELLS)}
#: The row of each cell.
ROW: tuple[int, ...] = tuple(cell[0] for cell in CELLS)
#: For each cell, the cells along each direction (up to three, the longest jump),
#: as long as they stay on the board.
LINES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(INDEX[d.step(cell, n)] for n in range(1, next((k for k in range(1, 4) if d.step(cell, k) not in ON_BOARD), 4)))
        for d in Direction
    )
    for cell in CELLS
)
#: The cells of each side's own gate.
GATE: dict[Side, tuple[int, ...]] = {side: tuple(i for i, row in enumerate(ROW) if row == side.gate_row) for side in Side}

Stacks = tuple[Stack, ...]
#: A move of the search: the top piece of one cell to another (None: a pass).
Step = tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class Position:
    stacks: Stacks
    to_move: Side
    goal: Goal
    winner: Side | None = None

    @classmethod
    def of(cls, state: State) -> Position:
        return cls(tuple(stack for _, stack in state.board), state.to_move, state.goal, state.winner)

    def moves(self) -> list[tuple[int, int]]:
        """Where the side to move may take a top piece: (from, to), each once (a frog's
        jump onto an empty cell next to it and its step there end alike)."""
        found: dict[tuple[int, int], None] = {}
        stacks, side = self.stacks, self.to_move
        for i, stack in enumerate(stacks):
            if not stack or stack[-1][0] is not side:
                continue
            kind = stack[-1][1]
            length, limit = kind.length, kind.limit
            for line in LINES[i]:
                if len(line) >= length and all(len(stacks[c]) <= limit for c in line[:length]):
                    found[(i, line[length - 1])] = None
                if line and len(stack) == 1 and not stacks[line[0]]:
                    found[(i, line[0])] = None
        return list(found)

    def play(self, move: Step) -> Position:
        """The position after ``move`` (None: a pass), with its winner."""
        mover, nxt = self.to_move, self.to_move.other
        if move is None:
            return Position(self.stacks, nxt, self.goal)
        frm, to = move
        stacks = list(self.stacks)
        piece = stacks[frm][-1]
        stacks[frm] = stacks[frm][:-1]
        stacks[to] = (*stacks[to], piece)
        winner = None
        if self.goal is Goal.SHORT:
            winner = mover if ROW[to] == nxt.gate_row else None
        elif all(stacks[c] and stacks[c][-1][0] is nxt for c in GATE[mover]):
            winner = nxt
        return Position(tuple(stacks), nxt, self.goal, winner)

    def wins_next(self) -> bool:
        """Whether the side to move can land on the other side's gate now (short goal)."""
        gate_row = self.to_move.other.gate_row
        return any(ROW[to] == gate_row for _, to in self.moves())

    def advance(self, move: tuple[int, int]) -> int:
        """Rows toward the other side's gate that ``move`` gains (to order the search)."""
        frm, to = move
        return ROW[to] - ROW[frm] if self.to_move is Side.SOUTH else ROW[frm] - ROW[to]


def rows_come(side: Side, cell: int) -> int:
    """How many rows a piece of ``side`` on ``cell`` has come from its own gate."""
    return ROW[cell] - 1 if side is Side.SOUTH else ROWS - ROW[cell]
