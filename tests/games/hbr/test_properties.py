"""Properties over random forests and random command sequences."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from hbr.games.hbr.commands import Command, Snare, all_commands
from hbr.games.hbr.engine import apply
from hbr.games.hbr.mapgen import Difficulty, new_game
from hbr.games.hbr.state import Outcome, State

COMMANDS = all_commands()
games = st.tuples(
    st.integers(0, 2**32),
    st.sampled_from(list(Difficulty)),
    st.lists(st.sampled_from(COMMANDS), min_size=1, max_size=80),
)


def play(seed: int, difficulty: Difficulty, commands: list[Command]) -> list[State]:
    state = new_game(random.Random(seed), difficulty)
    trail = [state]
    for command in commands:
        if state.over:
            break
        state, _ = apply(state, command)
        trail.append(state)
    return trail


@settings(max_examples=150, deadline=None)
@given(games)
def test_pieces_stay_on_the_field_and_off_obstacles(game: tuple[int, Difficulty, list[Command]]) -> None:
    for s in play(*game):
        f = s.field
        for p in (s.hunter, s.bear, s.rabbit):
            assert f.contains(p)
        assert s.hunter not in f.obstacles
        assert s.rabbit not in f.obstacles
        if s.outcome is not Outcome.EATEN:
            assert s.hunter != s.bear
        if s.outcome is not Outcome.RABBIT_HOME:
            assert s.rabbit != f.hole
        assert s.rabbit != s.hunter and s.rabbit != s.bear


@settings(max_examples=50, deadline=None)
@given(games)
def test_same_seed_and_commands_give_the_same_game(game: tuple[int, Difficulty, list[Command]]) -> None:
    assert play(*game) == play(*game)


@settings(max_examples=100, deadline=None)
@given(games)
def test_each_move_is_one_square(game: tuple[int, Difficulty, list[Command]]) -> None:
    trail = play(*game)
    for before, after in zip(trail, trail[1:], strict=False):
        for a, b in ((before.hunter, after.hunter), (before.rabbit, after.rabbit), (before.bear, after.bear)):
            assert max(abs(a.x - b.x), abs(a.y - b.y)) <= 1
        # Rabbit steps are cardinal.
        assert abs(before.rabbit.x - after.rabbit.x) + abs(before.rabbit.y - after.rabbit.y) <= 1


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32))
def test_snare_is_never_accepted_when_switched_off(seed: int) -> None:
    import pytest

    from hbr.games.hbr.engine import IllegalCommand
    from hbr.games.hbr.state import Rules

    s = new_game(random.Random(seed), rules=Rules(snare=False))
    with pytest.raises(IllegalCommand):
        apply(s, next(c for c in COMMANDS if isinstance(c, Snare)))
