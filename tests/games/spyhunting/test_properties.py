"""Properties over random legal play: no one leaves the board, the hunter never rests
within 2 of its home after leaving it, phases are exactly as long as their dice, one
shot at most per plan, and the computer players only make legal moves."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from hbr.games.spyhunting.bots import HunterBot, SpyBot, covered, spy_mix, spy_moves
from hbr.games.spyhunting.engine import Kind, apply
from hbr.games.spyhunting.state import HUNTER_HOME, Action, Heading, Phase, Point, Rules, new_game


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["easy", "normal"]), st.booleans(), st.booleans(), st.booleans())
def test_bot_games_keep_every_rule(seed: int, level: str, four_way: bool, short_spy: bool, diagonal: bool) -> None:
    state = new_game(seed, Rules(four_way=four_way, short_spy=short_spy, diagonal=diagonal))
    hunter, spy = HunterBot(level, random.Random(seed)), SpyBot(level, random.Random(seed + 1))
    while not state.over and state.series < 12:
        assert state.phase is Phase.HUNTER_MOVE
        start = state.hunter
        acts = hunter.actions(state)
        assert len(acts) == state.d4 and all(a.action is not Action.SHOOT for a in acts)
        for act in acts:
            state, _ = apply(state, act)
            _check(state)
            if state.over:
                return
        assert state.hunter != start
        plan = hunter.plan(state)
        assert len(plan.actions) == state.d8 and sum(a is Action.SHOOT for a in plan.actions) <= 1
        state, _ = apply(state, plan)
        ends = spy_moves(state)
        assert ends
        move = spy.move(state)
        before = state.spy
        points = state.spy_points
        state, events = apply(state, move)
        moved = next(e for e in events if e.kind is Kind.SPY_MOVED)
        assert len(moved.path) == points or moved.point == HUNTER_HOME
        assert moved.point != before
        _check(state)


def _check(state: object) -> None:
    from hbr.games.spyhunting.state import State

    assert isinstance(state, State)
    assert state.hunter.on_board and state.spy.on_board
    if state.hunter_left_home:
        assert state.hunter.distance(HUNTER_HOME) >= 3
    assert state.hunter != HUNTER_HOME or state.series == 1


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 9), st.integers(2, 9))
def test_the_hard_spy_never_chooses_a_point_the_only_shot_covers(x: int, y: int) -> None:
    """With one action in the plan (d8 = 1) the hunter can only shoot from where it
    stands; the hard spy's mixed choice then leaves that line alone whenever another
    point is safe."""
    state = replace(new_game(3), hunter=Point(5, 3), facing=Heading.NORTH, spy=Point(x, y), d8=1,
                    phase=Phase.SPY_MOVE, hunter_left_home=True)
    if state.spy == state.hunter:
        return
    ends = spy_moves(state)
    mix = spy_mix(state, ends)
    assert abs(sum(mix.values()) - 1) < 1e-9 and set(mix) == set(ends)
    line = covered(state, state.hunter, state.facing)
    if any(p not in line for p in ends):
        assert all(mix[p] < 0.01 for p in ends if p in line and p != HUNTER_HOME)
