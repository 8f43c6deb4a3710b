"""The computer player's judgement of a position (hbr.games.jumpers.bots)."""

from __future__ import annotations

from hbr.games.jumpers.bots import value
from hbr.games.jumpers.state import CELLS, Cell, Goal, Kind, Side, Stack, State, cell_named

S = Side.SOUTH


def at(row: int, place: int) -> Cell:
    cell = cell_named(row, place)
    assert cell is not None
    return cell


def board(stacks: dict[Cell, Stack]) -> State:
    return State(tuple((c, stacks.get(c, ())) for c in CELLS), S, Goal.SHORT)


def test_one_piece_far_ahead_is_worth_more_than_two_halfway() -> None:
    """The short race is won by one piece: a frog four rows on (and one at home) is
    better than two frogs three rows on, though the two have come further together.
    Without this the bots spread their advance and drew a sixth of their games."""
    ahead = board({at(5, 1): ((S, Kind.FROG),), at(1, 1): ((S, Kind.FROG),)})
    halfway = board({at(4, 1): ((S, Kind.FROG),), at(4, 2): ((S, Kind.FROG),)})
    assert value(ahead, S, threats=False) > value(halfway, S, threats=False)
