"""Every reading of the seed (docs/spyhunting.md), each as its own engine test."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from hbr.games.spyhunting.engine import Act, IllegalCommand, Kind, Plan, SpyMove, apply
from hbr.games.spyhunting.state import (
    HUNTER_HOME,
    SPY_HOME,
    Action,
    Heading,
    Phase,
    Point,
    Rules,
    Side,
    State,
    new_game,
    roll,
)

F, B, L, R, TL, TR, S = (Action.FORWARD, Action.BACK, Action.LEFT, Action.RIGHT, Action.TURN_LEFT,
                         Action.TURN_RIGHT, Action.SHOOT)
N, E, So, W = Heading.NORTH, Heading.EAST, Heading.SOUTH, Heading.WEST


def at(phase: Phase, hunter: Point = Point(5, 5), facing: Heading = N, spy: Point = Point(8, 8), d4: int = 2,
       d8: int = 3, rules: Rules = Rules(), **kw: Any) -> State:
    """A state in the middle of a game, the hunter long gone from home."""
    return dataclasses.replace(new_game(1, rules), hunter=hunter, facing=facing, spy=spy, d4=d4, d8=d8, phase=phase,
                               phase_start=hunter, hunter_left_home=True, **kw)


def test_the_board_the_homes_and_the_start() -> None:
    state = new_game(7)
    assert state.hunter == HUNTER_HOME == Point(1, 1) and state.spy == SPY_HOME == Point(9, 9)
    assert state.facing is N and state.phase is Phase.HUNTER_MOVE and state.series == 1
    assert (state.d4, state.d8) == roll(7, 1) and 1 <= state.d4 <= 4 and 1 <= state.d8 <= 8


def test_the_dice_are_the_seeds() -> None:
    assert [roll(3, s) for s in range(1, 6)] == [roll(3, s) for s in range(1, 6)]
    assert len({roll(seed, 1) for seed in range(200)}) == 32  # every pair of faces comes up


def test_small_die_actions_one_at_a_time_then_the_plan() -> None:
    state = at(Phase.HUNTER_MOVE, d4=2)
    state, events = apply(state, Act(F))
    assert state.hunter == Point(5, 6) and events[0].kind is Kind.STEPPED and state.phase is Phase.HUNTER_MOVE
    state, events = apply(state, Act(TR))
    assert state.facing is E and state.phase is Phase.PLAN and state.phase_start == Point(5, 6)


def test_steps_are_relative_to_the_way_the_hunter_faces() -> None:
    state = at(Phase.HUNTER_MOVE, facing=E, d4=4)
    for action, expected in ((F, Point(6, 5)), (L, Point(5, 6)), (B, Point(4, 5)), (R, Point(5, 4))):
        moved, _ = apply(state, Act(action))
        assert moved.hunter == expected and moved.facing is E, action
    turned, _ = apply(state, Act(TL))
    assert turned.hunter == state.hunter and turned.facing is N


def test_no_shot_with_the_small_die() -> None:
    with pytest.raises(IllegalCommand, match="only in its plan"):
        apply(at(Phase.HUNTER_MOVE), Act(S))


def test_no_phase_ends_where_it_began() -> None:
    state, _ = apply(at(Phase.HUNTER_MOVE, d4=2), Act(F))
    with pytest.raises(IllegalCommand, match="where the move began"):
        apply(state, Act(B))
    with pytest.raises(IllegalCommand, match="where it begins"):
        apply(at(Phase.PLAN, d8=2), Plan((TL, S)))


def test_the_plan_has_exactly_d8_actions_and_one_shot_at_most() -> None:
    with pytest.raises(IllegalCommand, match="exactly 3 actions, not 2"):
        apply(at(Phase.PLAN, d8=3), Plan((F, S)))
    with pytest.raises(IllegalCommand, match="one shot at most"):
        apply(at(Phase.PLAN, d8=3), Plan((S, F, S)))
    state, events = apply(at(Phase.PLAN, d8=3), Plan((F, S, TL)))
    assert state.phase is Phase.SPY_MOVE and state.plan == (F, S, TL)
    assert [e.kind for e in events] == [Kind.PLAN_WRITTEN]  # nothing of the plan is told


@pytest.mark.parametrize(("d8", "points"), [(1, 3), (4, 3), (5, 5), (8, 5)])
def test_the_spy_moves_3_or_5_points(d8: int, points: int) -> None:
    state = at(Phase.SPY_MOVE, d8=d8, spy=Point(8, 8), plan=(F,) * d8)
    assert state.spy_points == points
    with pytest.raises(IllegalCommand, match=f"exactly {points} points"):
        apply(state, SpyMove((W,) * (points - 2)))
    moved, events = apply(state, SpyMove((W,) * points))
    assert moved.spy == Point(8 - points, 8) and events[0].kind is Kind.SPY_MOVED


def test_the_spy_never_enters_the_hunter_nor_leaves_the_board() -> None:
    state = at(Phase.SPY_MOVE, hunter=Point(6, 8), spy=Point(8, 8), d8=2, plan=(F, F))
    with pytest.raises(IllegalCommand, match="may not enter the hunter's point"):
        apply(state, SpyMove((W, W, So)))
    with pytest.raises(IllegalCommand, match="leave the board"):
        apply(state, SpyMove((N, N, So)))


def test_the_spy_stops_early_only_on_the_hunters_corner() -> None:
    state = at(Phase.SPY_MOVE, spy=Point(2, 2), d8=6, plan=(F,) * 6)
    moved, events = apply(state, SpyMove((W, So)))
    assert moved.spy == HUNTER_HOME and moved.spy_reached_corner
    assert Kind.SPY_REACHED_CORNER in [e.kind for e in events]


def test_the_spy_wins_home_again_after_the_corner() -> None:
    state = at(Phase.SPY_MOVE, spy=Point(9, 6), d8=2, plan=(F, F), spy_reached_corner=True)
    won, events = apply(state, SpyMove((N, N, N)))
    assert won.winner is Side.SPY and events[-1].kind is Kind.SPY_HOME
    not_yet, _ = apply(dataclasses.replace(state, spy_reached_corner=False), SpyMove((N, N, N)))
    assert not_yet.winner is None


def test_a_plan_step_off_the_board_or_near_home_is_lost_and_said() -> None:
    state = at(Phase.SPY_MOVE, hunter=Point(5, 9), d8=2, plan=(F, R))
    after, events = apply(state, SpyMove((W, W, W)))
    lost = [e for e in events if e.kind is Kind.STEP_LOST]
    assert len(lost) == 1 and "leave the board" in lost[0].reason and after.hunter == Point(6, 9)
    near = at(Phase.SPY_MOVE, hunter=Point(4, 1), facing=W, d8=1, plan=(F,))
    after, events = apply(near, SpyMove((W, W, W)))
    assert after.hunter == Point(4, 1) and "3 or more points from its home" in events[1].reason


def test_the_hunter_keeps_away_from_home_once_it_has_left() -> None:
    with pytest.raises(IllegalCommand, match="3 or more points"):
        apply(at(Phase.HUNTER_MOVE, hunter=Point(2, 3), facing=So), Act(F))
    leaving = dataclasses.replace(new_game(2), d4=2)
    state, _ = apply(leaving, Act(F))  # from home, the way out is open
    assert state.hunter == Point(1, 2) and not state.hunter_left_home
    with pytest.raises(IllegalCommand, match="3 or more points"):
        apply(state, Act(B))  # but never back onto the home point


def test_the_bullet_flies_straight_ahead_to_the_edge() -> None:
    state = at(Phase.SPY_MOVE, hunter=Point(5, 2), facing=N, spy=Point(8, 9), d8=1, plan=(S,))
    hit, events = apply(dataclasses.replace(state, plan=(TR,), d8=1), SpyMove((So, So, So)))
    assert hit.winner is None
    state = at(Phase.SPY_MOVE, hunter=Point(5, 2), facing=N, spy=Point(8, 9), d8=2, plan=(F, S))
    hit, events = apply(state, SpyMove((W, W, W)))  # the spy ends at (5, 9): in line, north
    assert hit.winner is Side.HUNTER and events[-1].kind is Kind.SHOT_HIT
    behind, events = apply(dataclasses.replace(state, facing=So, plan=(B, S)), SpyMove((W, W, W)))
    assert behind.winner is None and Kind.SHOT_MISSED in [e.kind for e in events]


def test_the_spy_is_safe_on_the_hunters_corner() -> None:
    state = at(Phase.SPY_MOVE, hunter=Point(1, 5), facing=So, spy=Point(2, 2), d8=6, plan=(TL, TR, TL, TR, R, S))
    after, events = apply(state, SpyMove((W, So)))
    assert after.winner is None and events[-2].reason == "corner"


def test_the_spy_is_safe_once_the_hunter_stood_on_its_point() -> None:
    state = at(Phase.SPY_MOVE, hunter=Point(5, 4), facing=N, spy=Point(5, 8), d8=4, plan=(F, B, F, S))
    after, events = apply(state, SpyMove((W, W, So)))  # to (3, 7): not in line
    assert after.winner is None
    state = at(Phase.SPY_MOVE, hunter=Point(5, 4), facing=N, spy=Point(6, 6), d8=4, plan=(F, F, B, S))
    after, events = apply(state, SpyMove((N, W, So)))  # to (5, 6): the hunter passes over it, then shoots
    kinds = [e.kind for e in events]
    assert Kind.LANDED_ON_SPY in kinds and after.winner is None and events[-2].reason == "immune"


def test_variants() -> None:
    capture = at(Phase.HUNTER_MOVE, spy=Point(5, 6), rules=Rules(capture_wins=True))
    assert apply(capture, Act(F))[0].winner is Side.HUNTER
    four = at(Phase.SPY_MOVE, hunter=Point(5, 2), facing=N, spy=Point(8, 5), d8=2, plan=(TL, S),
              rules=Rules(four_way=True))
    assert apply(four, SpyMove((So, So, So)))[0].winner is Side.HUNTER  # (8, 2): east of the hunter
    with pytest.raises(IllegalCommand, match="only the way it faces"):
        apply(at(Phase.HUNTER_MOVE, rules=Rules(forward_only=True)), Act(L))
    assert at(Phase.SPY_MOVE, d8=3, rules=Rules(short_spy=True)).spy_points == 2
    assert at(Phase.SPY_MOVE, d8=7, rules=Rules(short_spy=True)).spy_points == 4


def test_the_diagonal_variant_steps_across_a_square_and_counts_it_as_one_point() -> None:
    diagonal = Rules(diagonal=True)
    state, events = apply(at(Phase.HUNTER_MOVE, facing=E, rules=diagonal), Act(Action.FORWARD_LEFT))
    assert state.hunter == Point(6, 6) and state.facing is E  # forward left of east is north east; no turn
    assert events[0].kind is Kind.STEPPED
    # facing south, back is north and right is west
    assert apply(at(Phase.HUNTER_MOVE, facing=So, rules=diagonal), Act(Action.BACK_RIGHT))[0].hunter == Point(4, 6)
    spy = at(Phase.SPY_MOVE, spy=Point(9, 9), d8=1, plan=(TL,), rules=diagonal)
    state, events = apply(spy, SpyMove((Heading.SOUTH_WEST,) * 3))
    assert state.spy == Point(6, 6) and events[0].path == (Point(8, 8), Point(7, 7), Point(6, 6))
    # the bullet still flies along the lines: facing north from (5, 5), (6, 6) is not on its line
    shot = at(Phase.SPY_MOVE, spy=Point(9, 9), d8=1, plan=(S,), rules=diagonal)
    assert apply(shot, SpyMove((Heading.SOUTH_WEST,) * 3))[0].winner is None


def test_without_the_diagonal_variant_no_one_steps_diagonally() -> None:
    with pytest.raises(IllegalCommand, match="diagonally only in the diagonal variant"):
        apply(at(Phase.HUNTER_MOVE), Act(Action.FORWARD_RIGHT))
    with pytest.raises(IllegalCommand, match="diagonally only in the diagonal variant"):
        apply(at(Phase.PLAN, d8=2), Plan((F, Action.BACK_LEFT)))
    with pytest.raises(IllegalCommand, match="along the lines, not diagonally"):
        apply(at(Phase.SPY_MOVE, spy=Point(9, 9), d8=1, plan=(TL,)), SpyMove((Heading.SOUTH_WEST,) * 3))
    with pytest.raises(IllegalCommand, match="only the way it faces"):  # forward only wins over diagonal
        apply(at(Phase.HUNTER_MOVE, rules=Rules(diagonal=True, forward_only=True)), Act(Action.FORWARD_LEFT))


def test_after_the_plan_a_new_series_is_rolled() -> None:
    state = at(Phase.SPY_MOVE, d8=1, plan=(F,))
    after, events = apply(state, SpyMove((W, W, W)))
    assert after.series == state.series + 1 and after.phase is Phase.HUNTER_MOVE and after.plan == ()
    assert events[-1].kind is Kind.NEW_SERIES and events[-1].dice == (after.d4, after.d8) == roll(1, after.series)
