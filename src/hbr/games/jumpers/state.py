"""The board and pieces of Jumpers (Прыгуны), as immutable values.

Seven rows of hexagons with 3, 4, 5, 4, 5, 4, 3 cells, row 1 in the south to row 7
in the north, each row offset half a cell from the next; a cell is named by its row
and its place in the row from the west ("row 3 cell 2"). Inside, a cell is (row, x)
with x on a doubled grid (a row of n cells has x = -(n-1), -(n-1)+2, ... n-1), so the
six neighbours are x +- 2 in the row and x +- 1 in the rows above and below.
See docs/jumpers.md.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

ROW_SIZES = (3, 4, 5, 4, 5, 4, 3)
ROWS = len(ROW_SIZES)
#: A game with this many moves (by both sides) and no winner is a draw.
MOVE_LIMIT = 200

Cell = tuple[int, int]  # (row from 1, doubled x)


def cells_of_row(row: int) -> list[Cell]:
    n = ROW_SIZES[row - 1]
    return [(row, 2 * i - (n - 1)) for i in range(n)]


CELLS: tuple[Cell, ...] = tuple(c for r in range(1, ROWS + 1) for c in cells_of_row(r))
ON_BOARD = frozenset(CELLS)


def name(cell: Cell) -> tuple[int, int]:
    """(row, place in the row from the west, from 1)."""
    row, x = cell
    return row, (x + ROW_SIZES[row - 1] - 1) // 2 + 1


def cell_named(row: int, place: int) -> Cell | None:
    if not (1 <= row <= ROWS and 1 <= place <= ROW_SIZES[row - 1]):
        return None
    return cells_of_row(row)[place - 1]


class Direction(enum.Enum):
    EAST = (2, 0)
    WEST = (-2, 0)
    NORTH_EAST = (1, 1)
    NORTH_WEST = (-1, 1)
    SOUTH_EAST = (1, -1)
    SOUTH_WEST = (-1, -1)

    def __init__(self, dx: int, dr: int) -> None:
        self.dx = dx
        self.dr = dr

    @property
    def words(self) -> str:
        return self.name.lower().replace("_", " ")

    def step(self, cell: Cell, times: int = 1) -> Cell:
        return cell[0] + self.dr * times, cell[1] + self.dx * times


class Kind(enum.Enum):
    """A piece: how far it jumps, and the highest stack it may land on (or jump over)."""

    FROG = ("frog", 1, 3)
    CAT = ("cat", 2, 2)
    HARE = ("hare", 3, 1)

    def __init__(self, word: str, length: int, limit: int) -> None:
        self.word = word
        self.length = length
        self.limit = limit


class Side(enum.Enum):
    SOUTH = "south"
    NORTH = "north"

    @property
    def other(self) -> Side:
        return Side.NORTH if self is Side.SOUTH else Side.SOUTH

    @property
    def gate_row(self) -> int:
        """The row of this side's own gate."""
        return 1 if self is Side.SOUTH else ROWS


Piece = tuple[Side, Kind]
Stack = tuple[Piece, ...]  # bottom first


class Goal(enum.Enum):
    SHORT = "short"  # first piece to land on the other side's gate wins
    LONG = "long"  # on top of all three of the other side's gate cells at the start of your turn


@dataclass(frozen=True, slots=True)
class State:
    board: tuple[tuple[Cell, Stack], ...]  # every cell with its stack, in CELLS order
    to_move: Side = Side.SOUTH
    goal: Goal = Goal.SHORT
    moves: int = 0
    #: Every position so far (board and side to move), for the threefold repetition.
    seen: tuple[int, ...] = ()
    winner: Side | None = None
    drawn: bool = False

    @property
    def over(self) -> bool:
        return self.winner is not None or self.drawn

    def stack(self, cell: Cell) -> Stack:
        return dict(self.board)[cell]

    @property
    def stacks(self) -> dict[Cell, Stack]:
        return dict(self.board)

    def key(self) -> int:
        return hash((self.board, self.to_move))


def start(goal: Goal = Goal.SHORT) -> State:
    """Each side: hares on its gate row, cats on the next, frogs on the row after; the middle row empty."""
    rows = {1: Kind.HARE, 2: Kind.CAT, 3: Kind.FROG}
    board: list[tuple[Cell, Stack]] = []
    for cell in CELLS:
        row = cell[0]
        if row in rows:
            board.append((cell, ((Side.SOUTH, rows[row]),)))
        elif ROWS + 1 - row in rows:
            board.append((cell, ((Side.NORTH, rows[ROWS + 1 - row]),)))
        else:
            board.append((cell, ()))
    state = State(tuple(board), goal=goal)
    return State(state.board, goal=goal, seen=(state.key(),))
