"""One test per rule of docs/rules.md, each on an exact situation."""

from __future__ import annotations

import pytest

from hbr.games.hbr.commands import Capture, Snare, Step, Target, Toward
from hbr.games.hbr.engine import IllegalCommand, apply
from hbr.games.hbr.events import Event, Kind
from hbr.games.hbr.geometry import Direction, Point, Quadrant
from hbr.games.hbr.state import Outcome

from .conftest import make_state

FAR_HOLE = (21, 14)


def kinds(events: tuple[Event, ...]) -> list[str]:
    return [e.name for e in events]


def test_a_round_is_hunter_then_bear_then_rabbit() -> None:
    s = make_state(hunter=(5, 5), bear=(15, 5), rabbit=(10, 10), hole=(10, 14))
    s2, events = apply(s, Step(Direction.NORTH))
    assert kinds(events) == ["hunter_moved", "bear_moved", "rabbit_moved"]
    assert s2.hunter == Point(5, 4)
    assert s2.bear == Point(14, 5)  # 10 west and 1 north of it: the square rule goes west
    assert s2.rabbit == Point(10, 11)
    assert s2.round == 1 and s.round == 0


def test_edge_of_the_field_does_not_move() -> None:
    s = make_state(hunter=(0, 0), bear=(15, 5), rabbit=(10, 10), hole=FAR_HOLE)
    s2, events = apply(s, Step(Direction.NORTHWEST))
    assert events[0].kind is Kind.EDGE and events[0].direction is Direction.NORTHWEST
    assert s2.hunter == Point(0, 0)


def test_obstacle_blocks_the_hunter() -> None:
    s = make_state(hunter=(5, 5), bear=(15, 5), rabbit=(10, 10), hole=FAR_HOLE, obstacles=[(6, 4)])
    s2, events = apply(s, Step(Direction.NORTHEAST))
    assert events[0].kind is Kind.OBSTACLE
    assert s2.hunter == Point(5, 5)


def test_diagonal_step_ignores_corners() -> None:
    s = make_state(hunter=(5, 5), bear=(15, 5), rabbit=(10, 10), hole=FAR_HOLE, obstacles=[(6, 5), (5, 4)])
    s2, events = apply(s, Step(Direction.NORTHEAST))
    assert events[0].kind is Kind.HUNTER_MOVED
    assert s2.hunter == Point(6, 4)


def test_finding_the_hole_sends_the_hunter_back() -> None:
    s = make_state(hunter=(5, 5), bear=(15, 5), rabbit=(10, 10), hole=(5, 4))
    s2, events = apply(s, Step(Direction.NORTH))
    assert events[0].kind is Kind.HOLE_FOUND
    assert s2.hunter == Point(5, 5)


def test_bumping_the_rabbit_sends_the_hunter_back_then_the_rabbit_moves() -> None:
    s = make_state(hunter=(5, 5), bear=(15, 12), rabbit=(6, 5), hole=(6, 0))
    s2, events = apply(s, Step(Direction.EAST))
    assert kinds(events)[:3] == ["rabbit_bumped", "bear_moved", "rabbit_moved"]
    assert s2.hunter == Point(5, 5)
    assert s2.rabbit == Point(6, 4)


def test_walking_into_the_bear_is_eaten_at_once() -> None:
    s = make_state(hunter=(5, 5), bear=(5, 6), rabbit=(10, 10), hole=FAR_HOLE)
    s2, events = apply(s, Step(Direction.SOUTH))
    assert kinds(events) == ["hunter_walked_into_bear"]
    assert s2.outcome is Outcome.EATEN


def test_objective_move_is_cardinal_and_avoids_obstacles_silently() -> None:
    s = make_state(hunter=(5, 5), bear=(15, 12), rabbit=(10, 5), hole=(10, 0), obstacles=[(6, 5)])
    s2, events = apply(s, Toward(Target.RABBIT))
    assert events[0].kind is Kind.HUNTER_MOVED
    assert events[0].direction is Direction.NORTH and events[0].target is Target.RABBIT
    assert s2.hunter == Point(5, 4)
    assert Kind.OBSTACLE not in {e.kind for e in events}


def test_objective_move_without_obstacles_follows_the_square_rule() -> None:
    # The seed's example: 4 south and 7 west of the hole -> the hunter moves east.
    s = make_state(hunter=(3, 9), bear=(15, 14), rabbit=(20, 2), hole=(10, 5))
    s2, events = apply(s, Toward(Target.HOLE))
    assert events[0].direction is Direction.EAST
    assert s2.hunter == Point(4, 9)


def test_objective_move_onto_the_hole_is_resolved_like_a_step() -> None:
    s = make_state(hunter=(5, 5), bear=(15, 12), rabbit=(10, 10), hole=(5, 6))
    s2, events = apply(s, Toward(Target.HOLE))
    assert events[0].kind is Kind.HOLE_FOUND and events[0].direction is Direction.SOUTH
    assert s2.hunter == Point(5, 5)


def test_objective_move_into_the_bear_is_eaten() -> None:
    s = make_state(hunter=(5, 5), bear=(6, 5), rabbit=(10, 10), hole=FAR_HOLE)
    s2, _ = apply(s, Toward(Target.BEAR))
    assert s2.outcome is Outcome.EATEN


def test_objective_move_with_no_path_stays() -> None:
    s = make_state(hunter=(0, 0), bear=(15, 12), rabbit=(10, 10), hole=FAR_HOLE, obstacles=[(1, 0), (0, 1)])
    s2, events = apply(s, Toward(Target.RABBIT))
    assert events[0].kind is Kind.NO_PATH
    assert s2.hunter == Point(0, 0)


@pytest.mark.parametrize(
    ("rabbit", "quadrant", "hit"),
    [
        ((12, 8), Quadrant.NORTHEAST, True),
        ((10, 8), Quadrant.NORTHEAST, True),  # due north is in both northern quadrants
        ((10, 8), Quadrant.NORTHWEST, True),
        ((10, 8), Quadrant.SOUTHWEST, False),
        ((8, 12), Quadrant.SOUTHWEST, True),
        ((8, 12), Quadrant.SOUTHEAST, False),
        ((13, 10), Quadrant.NORTHEAST, False),  # three squares away: out of range
    ],
)
def test_capture_by_quadrant_and_range(rabbit: tuple[int, int], quadrant: Quadrant, hit: bool) -> None:
    s = make_state(hunter=(10, 10), bear=(0, 0), rabbit=rabbit, hole=FAR_HOLE)
    s2, events = apply(s, Capture(quadrant))
    assert (s2.outcome is Outcome.CAPTURED) == hit
    assert events[0].kind is (Kind.CAPTURED if hit else Kind.CAPTURE_MISSED)
    assert s2.hunter == Point(10, 10)
    if hit:
        assert len(events) == 1  # nothing happens after the outcome


def test_capture_wins_inside_the_danger_zone() -> None:
    s = make_state(hunter=(10, 10), bear=(11, 11), rabbit=(9, 9), hole=FAR_HOLE)
    s2, _ = apply(s, Capture(Quadrant.NORTHWEST))
    assert s2.outcome is Outcome.CAPTURED


def test_a_missed_capture_costs_the_turn() -> None:
    s = make_state(hunter=(10, 10), bear=(0, 0), rabbit=(15, 10), hole=FAR_HOLE)
    s2, events = apply(s, Capture(Quadrant.NORTHEAST))
    assert kinds(events)[:3] == ["capture_missed", "bear_moved", "rabbit_moved"]
    assert s2.hunter == s.hunter and s2.round == 1


def test_snare_holds_the_bear_this_round_and_the_next() -> None:
    s = make_state(hunter=(5, 5), bear=(6, 6), rabbit=(15, 3), hole=(15, 0))
    s, events = apply(s, Snare(Quadrant.SOUTHEAST))
    assert kinds(events)[:2] == ["bear_snared", "bear_held"]
    assert s.outcome is None and s.bear == Point(6, 6)
    s, events = apply(s, Capture(Quadrant.NORTHWEST))  # stays beside the bear: still safe
    assert "bear_held" in kinds(events) and s.outcome is None
    s, events = apply(s, Capture(Quadrant.NORTHWEST))  # the snare is spent: the bear eats
    assert "bear_ate" in kinds(events) and s.outcome is Outcome.EATEN


def test_a_snared_bear_blocks_like_an_obstacle() -> None:
    s = make_state(hunter=(5, 5), bear=(6, 6), rabbit=(15, 3), hole=(15, 0))
    s, _ = apply(s, Snare(Quadrant.SOUTHEAST))
    s, events = apply(s, Step(Direction.SOUTHEAST))
    assert events[0].kind is Kind.BEAR_BUMPED and s.outcome is None


def test_snare_miss_costs_the_turn() -> None:
    s = make_state(hunter=(5, 5), bear=(6, 6), rabbit=(15, 3), hole=(15, 0))
    s, events = apply(s, Snare(Quadrant.NORTHWEST))
    assert kinds(events) == ["snare_missed", "bear_ate"]
    assert s.outcome is Outcome.EATEN


def test_snare_switched_off_is_refused_without_change() -> None:
    s = make_state(hunter=(5, 5), bear=(6, 6), rabbit=(15, 3), hole=(15, 0), snare=False)
    with pytest.raises(IllegalCommand):
        apply(s, Snare(Quadrant.SOUTHEAST))


def test_no_command_after_the_game_is_over() -> None:
    s = make_state(hunter=(10, 10), bear=(0, 0), rabbit=(11, 9), hole=FAR_HOLE)
    s, _ = apply(s, Capture(Quadrant.NORTHEAST))
    with pytest.raises(IllegalCommand):
        apply(s, Step(Direction.NORTH))


def test_bear_eats_a_hunter_who_stays_in_the_danger_zone() -> None:
    s = make_state(hunter=(5, 5), bear=(5, 7), rabbit=(15, 3), hole=(15, 0))
    s, events = apply(s, Step(Direction.EAST))
    assert s.bear == Point(5, 6) and "danger_zone" in kinds(events)
    s, events = apply(s, Capture(Quadrant.NORTHEAST))
    assert "bear_ate" in kinds(events) and s.outcome is Outcome.EATEN and s.bear == s.hunter


def test_leaving_the_danger_zone_escapes() -> None:
    s = make_state(hunter=(5, 5), bear=(5, 6), rabbit=(15, 3), hole=(15, 0))
    s, events = apply(s, Step(Direction.NORTH))
    assert "bear_ate" not in kinds(events) and s.outcome is None
    assert s.bear == Point(5, 5)  # it follows


def test_bear_ignores_obstacles_and_may_stand_on_the_hole() -> None:
    s = make_state(hunter=(1, 5), bear=(5, 5), rabbit=(15, 3), hole=(4, 5), obstacles=[(3, 5)])
    s, _ = apply(s, Capture(Quadrant.NORTHEAST))
    assert s.bear == Point(4, 5)
    s, _ = apply(s, Capture(Quadrant.NORTHEAST))
    assert s.bear == Point(3, 5)


def test_bear_running_into_the_rabbit_makes_the_rabbit_move_first() -> None:
    s = make_state(hunter=(5, 5), bear=(10, 5), rabbit=(9, 5), hole=(9, 14))
    s, events = apply(s, Capture(Quadrant.SOUTHWEST))
    assert kinds(events) == ["capture_missed", "bear_moved", "rabbit_moved"]
    assert s.bear == Point(9, 5) and s.rabbit == Point(9, 6)  # the rabbit moved once only


def test_bear_stays_when_the_rabbit_in_its_way_cannot_move() -> None:
    s = make_state(hunter=(5, 5), bear=(10, 5), rabbit=(9, 5), hole=(9, 14), obstacles=[(9, 4), (9, 6), (8, 5)])
    s, events = apply(s, Capture(Quadrant.SOUTHWEST))
    assert kinds(events) == ["capture_missed", "bear_stayed", "rabbit_stayed"]
    assert s.bear == Point(10, 5) and s.rabbit == Point(9, 5)


def test_rabbit_paths_around_the_hunter() -> None:
    s = make_state(hunter=(10, 6), bear=(0, 14), rabbit=(10, 5), hole=(10, 8))
    s, events = apply(s, Snare(Quadrant.NORTHEAST))  # a miss: the hunter stays put
    assert s.rabbit == Point(11, 5)  # east and west tie; east comes first


def test_rabbit_reaching_the_hole_loses_the_game() -> None:
    s = make_state(hunter=(0, 0), bear=(0, 14), rabbit=(10, 5), hole=(10, 6))
    s, events = apply(s, Step(Direction.EAST))
    assert kinds(events)[-2:] == ["rabbit_moved", "rabbit_home"]
    assert s.outcome is Outcome.RABBIT_HOME


def test_ready_to_hunt_at_the_end_of_the_round() -> None:
    s = make_state(hunter=(5, 5), bear=(20, 14), rabbit=(8, 5), hole=(8, 0))
    s, events = apply(s, Step(Direction.EAST))
    assert s.rabbit == Point(8, 4)  # rabbit moved north, still within 2 of (6, 5)
    assert "ready_to_hunt" in kinds(events)


def test_ready_to_hunt_is_not_said_out_of_range() -> None:
    s = make_state(hunter=(5, 5), bear=(20, 14), rabbit=(9, 5), hole=(9, 0))
    s, events = apply(s, Step(Direction.WEST))
    assert "ready_to_hunt" not in kinds(events)
