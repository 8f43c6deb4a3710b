"""The search's compact position (hbr.games.jumpers.position) plays by the engine's rules."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from hbr.games.jumpers.engine import Move, apply, legal_moves
from hbr.games.jumpers.position import INDEX, Position, Step
from hbr.games.jumpers.state import Goal, State, start


def step(state: State, move: Move) -> Step:
    """The engine's move as the search's (from, to); a pass is None."""
    if move.frm is None or move.direction is None:
        return None
    kind = state.stack(move.frm)[-1][1]
    return INDEX[move.frm], INDEX[move.direction.step(move.frm, kind.length if move.jump else 1)]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(list(Goal)))
def test_the_search_knows_every_legal_move_and_every_winner(seed: int, goal: Goal) -> None:
    """In a random game, at every position: the same moves as the engine allows, and
    after each the same stacks, side to move and winner."""
    rng = random.Random(seed)
    state = start(goal)
    while not state.over:
        position = Position.of(state)
        moves = legal_moves(state)
        assert set(position.moves()) == {step(state, move) for move in moves} - {None}
        for move in moves:
            assert position.play(step(state, move)) == Position.of(apply(state, move)[0])
        state, _ = apply(state, rng.choice(moves))
