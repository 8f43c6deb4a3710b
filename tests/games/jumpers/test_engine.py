"""Every rule of Jumpers (docs/jumpers.md) as its own engine test, and properties over random play."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hbr.games.jumpers.engine import PASS, Happened, IllegalMove, Move, apply, legal_moves, parse_move
from hbr.games.jumpers.state import (
    CELLS,
    MOVE_LIMIT,
    ROW_SIZES,
    Cell,
    Direction,
    Goal,
    Kind,
    Side,
    Stack,
    State,
    cell_named,
    name,
    start,
)

S, N = Side.SOUTH, Side.NORTH
FROG, CAT, HARE = Kind.FROG, Kind.CAT, Kind.HARE


def at(row: int, place: int) -> Cell:
    cell = cell_named(row, place)
    assert cell is not None
    return cell


def board(stacks: dict[Cell, Stack], to_move: Side = S, goal: Goal = Goal.SHORT) -> State:
    return State(tuple((c, stacks.get(c, ())) for c in CELLS), to_move, goal)


def test_the_board_and_the_start() -> None:
    assert [sum(1 for c in CELLS if c[0] == r) for r in range(1, 8)] == list(ROW_SIZES) and len(CELLS) == 28
    state = start()
    kinds = {r: {st[-1] for c, st in state.board if c[0] == r and st} for r in range(1, 8)}
    assert kinds[1] == {(S, HARE)} and kinds[2] == {(S, CAT)} and kinds[3] == {(S, FROG)}
    assert kinds[4] == set() and kinds[5] == {(N, FROG)} and kinds[6] == {(N, CAT)} and kinds[7] == {(N, HARE)}
    assert state.to_move is S and all(name(c) == (c[0], name(c)[1]) for c in CELLS)


def test_every_cell_has_up_to_six_neighbours() -> None:
    middle = at(4, 2)
    around = {d.step(middle) for d in Direction}
    assert around == {at(4, 1), at(4, 3), at(3, 2), at(3, 3), at(5, 2), at(5, 3)}


@pytest.mark.parametrize(("kind", "length"), [(FROG, 1), (CAT, 2), (HARE, 3)])
def test_each_piece_jumps_exactly_its_length(kind: Kind, length: int) -> None:
    state = board({at(1, 2): ((S, kind),)})
    after, events = apply(state, Move(at(1, 2), Direction.NORTH_EAST))
    landed = Direction.NORTH_EAST.step(at(1, 2), length)
    assert after.stack(landed) == ((S, kind),) and events[0].kind is Happened.JUMPED
    assert landed[0] == 1 + length


@pytest.mark.parametrize(("kind", "limit"), [(FROG, 3), (CAT, 2), (HARE, 1)])
def test_height_limits_for_landing(kind: Kind, limit: int) -> None:
    start_cell = at(4, 1)
    target = Direction.EAST.step(start_cell, kind.length)
    assert target in CELLS
    ok = board({start_cell: ((S, kind),), target: ((N, FROG),) * limit})
    after, events = apply(ok, Move(start_cell, Direction.EAST))
    assert len(after.stack(target)) == limit + 1 and events[0].height == limit + 1
    too_high = board({start_cell: ((S, kind),), target: ((N, FROG),) * (limit + 1)})
    with pytest.raises(IllegalMove, match=f"stacks of {limit} or fewer"):
        apply(too_high, Move(start_cell, Direction.EAST))


def test_no_jump_over_a_stack_too_high() -> None:
    cat = at(3, 1)
    over = Direction.EAST.step(cat)
    fine = board({cat: ((S, CAT),), over: ((N, FROG), (N, FROG))})
    assert apply(fine, Move(cat, Direction.EAST))[0].stack(at(3, 3)) == ((S, CAT),)
    blocked = board({cat: ((S, CAT),), over: ((N, FROG),) * 3})
    with pytest.raises(IllegalMove, match="cannot jump over a stack higher than 2"):
        apply(blocked, Move(cat, Direction.EAST))


def test_every_cell_on_the_line_must_be_on_the_board() -> None:
    with pytest.raises(IllegalMove, match="leaves the board"):
        apply(board({at(1, 1): ((S, HARE),)}), Move(at(1, 1), Direction.NORTH_WEST))


def test_steps_only_on_the_ground_and_onto_empty_cells() -> None:
    cat = at(4, 2)
    after, events = apply(board({cat: ((S, CAT),)}), Move(cat, Direction.EAST, jump=False))
    assert after.stack(at(4, 3)) == ((S, CAT),) and events[0].kind is Happened.STEPPED
    with pytest.raises(IllegalMove, match="only onto an empty cell"):
        apply(board({cat: ((S, CAT),), at(4, 3): ((N, FROG),)}), Move(cat, Direction.EAST, jump=False))
    with pytest.raises(IllegalMove, match="comes down only by jumping"):
        apply(board({cat: ((N, FROG), (S, CAT))}), Move(cat, Direction.EAST, jump=False))


def test_covered_pieces_are_frozen_and_nothing_is_captured() -> None:
    stacked = board({at(4, 2): ((S, FROG), (N, CAT))})
    with pytest.raises(IllegalMove, match="on top there is north's"):
        apply(stacked, Move(at(4, 2), Direction.EAST))
    assert all(m.frm != at(4, 2) for m in legal_moves(stacked)) and legal_moves(stacked) == [PASS]


def test_the_short_goal_first_piece_on_the_other_gate() -> None:
    hare = at(4, 3)
    after, events = apply(board({hare: ((S, HARE),), at(7, 1): ((N, HARE),)}), Move(hare, Direction.NORTH_WEST))
    assert after.winner is S and events[-1].kind is Happened.WON  # onto a stack on the gate: still a win


def test_the_long_goal_all_three_gate_tops_at_the_start_of_your_turn() -> None:
    gate = {at(7, p): ((S, FROG),) for p in (1, 2)}
    state = board({**gate, at(6, 3): ((S, FROG),), at(1, 1): ((N, FROG),)}, goal=Goal.LONG)
    after, _ = apply(state, Move(at(6, 3), Direction.NORTH_EAST))  # the third gate cell
    assert after.winner is None  # north's turn now: the win is counted at the start of south's
    after, events = apply(after, Move(at(1, 1), Direction.EAST))
    assert after.winner is S and events[-1].kind is Happened.WON


def test_no_move_means_pass_and_a_pass_is_only_for_then() -> None:
    frozen = board({at(4, 2): ((S, FROG), (N, CAT)), at(4, 4): ((N, FROG),)})
    after, events = apply(frozen, PASS)
    assert events[0].kind is Happened.PASSED and after.to_move is N
    with pytest.raises(IllegalMove, match="may not pass"):
        apply(start(), PASS)


def test_threefold_repetition_and_the_move_limit_draw() -> None:
    state = board({at(4, 1): ((S, FROG),), at(2, 1): ((N, FROG),)})
    state = dataclasses.replace(state, seen=(state.key(),))
    there, back = Move(at(4, 1), Direction.EAST, False), Move(at(4, 2), Direction.WEST, False)
    there_n, back_n = Move(at(2, 1), Direction.EAST, False), Move(at(2, 2), Direction.WEST, False)
    for move in (there, there_n, back, back_n, there, there_n, back, back_n):
        state, events = apply(state, move)
    assert state.drawn and events[-1].reason == "the same position a third time"
    late = dataclasses.replace(board({at(4, 1): ((S, FROG),), at(2, 1): ((N, FROG),)}), moves=MOVE_LIMIT - 1)
    after, events = apply(late, there)
    assert after.drawn and f"{MOVE_LIMIT} moves" in events[-1].reason


def test_moves_read_back_from_their_text() -> None:
    for move in legal_moves(start()):
        assert parse_move(str(move)) == move
    assert parse_move("pass") == PASS


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_random_games_keep_every_piece_and_end(seed: int) -> None:
    rng = random.Random(seed)
    state = start()
    pieces = sorted(str(p) for _, st in state.board for p in st)
    while not state.over:
        state, _ = apply(state, rng.choice(legal_moves(state)))
        assert sorted(str(p) for _, st in state.board for p in st) == pieces
        assert all(len(st) <= 4 for _, st in state.board)  # a frog on three is the tallest stack
    assert state.winner is not None or state.drawn
