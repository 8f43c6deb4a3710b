from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st

from hbr.games.hbr.geometry import CARDINALS, Direction, Point
from hbr.games.hbr.pathing import next_step, square_rule
from hbr.games.hbr.state import Field


def field(*obstacles: tuple[int, int], hole: tuple[int, int] = (21, 14)) -> Field:
    return Field(obstacles=frozenset(Point(*o) for o in obstacles), hole=Point(*hole))


def test_square_rule_takes_the_longer_axis() -> None:
    # The seed's example: 4 south and 7 west of the hole -> move east.
    hunter, hole = Point(0, 4), Point(7, 0)  # hole is 4 north and 7 east
    assert square_rule(hunter, hole) is Direction.EAST


def test_square_rule_tie_goes_north_south() -> None:
    assert square_rule(Point(0, 4), Point(4, 0)) is Direction.NORTH
    assert square_rule(Point(4, 0), Point(0, 4)) is Direction.SOUTH


def test_square_rule_at_goal_is_none() -> None:
    assert square_rule(Point(2, 2), Point(2, 2)) is None


def test_free_field_pathing_equals_square_rule() -> None:
    f = field()
    for start, goal in [((0, 0), (5, 9)), ((10, 3), (2, 4)), ((7, 7), (7, 1)), ((3, 3), (6, 6))]:
        assert next_step(f, Point(*start), Point(*goal)) is square_rule(Point(*start), Point(*goal))


def test_obstacle_on_square_rule_step_takes_other_axis() -> None:
    # Goal 5 east, 1 south: the square rule says east; east is blocked; south also starts a shortest path.
    f = field((6, 5))
    assert next_step(f, Point(5, 5), Point(10, 6)) is Direction.SOUTH


def test_detour_prefers_north_before_south_when_axis_steps_fail() -> None:
    # Goal due east behind a one-square wall: north and south both begin shortest paths.
    f = field((6, 5))
    assert next_step(f, Point(5, 5), Point(8, 5)) is Direction.NORTH


def test_longer_wall_forces_the_only_shortest_side() -> None:
    # A wall at x=6 from y=3 to y=5, goal due east: around the south end is shorter than the north end.
    f = field((6, 3), (6, 4), (6, 5))
    assert next_step(f, Point(5, 5), Point(8, 5)) is Direction.SOUTH


def test_goal_square_is_enterable_even_if_it_is_an_obstacle() -> None:
    f = field((6, 5))
    assert next_step(f, Point(5, 5), Point(6, 5)) is Direction.EAST


def test_no_path_stays() -> None:
    f = field((1, 0), (0, 1))
    assert next_step(f, Point(0, 0), Point(5, 5)) is None


def test_moving_blockers_change_the_path() -> None:
    f = field()
    # The square-rule step (east) is occupied by a mover: step around by the other axis.
    assert next_step(f, Point(5, 5), Point(9, 6), movers=(Point(6, 5),)) is Direction.SOUTH
    # A mover on the goal: no way in.
    assert next_step(f, Point(5, 5), Point(9, 6), movers=(Point(9, 6),)) is None


def test_moving_blocker_far_away_changes_nothing() -> None:
    f = field()
    assert next_step(f, Point(5, 5), Point(9, 6), movers=(Point(0, 14),)) is Direction.EAST


def _reference_step(f: Field, start: Point, goal: Point, movers: tuple[Point, ...]) -> Direction | None:
    """The pathing rule read literally: a fresh breadth-first search, no shortcuts."""
    if goal in movers or start == goal:
        return None
    blocked = set(f.obstacles) | set(movers)
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        p = queue.popleft()
        for d in CARDINALS:
            n = p.step(d)
            if f.contains(n) and n not in blocked and n not in dist:
                dist[n] = dist[p] + 1
                queue.append(n)
    options = {d: dist[start.step(d)] for d in CARDINALS if start.step(d) in dist}
    if not options:
        return None
    best = min(options.values())
    candidates = [d for d, v in options.items() if v == best]
    first = square_rule(start, goal)
    dx, dy = goal.x - start.x, goal.y - start.y
    second: Direction | None = None
    if first is not None and first.dx == 0 and dx:
        second = Direction.EAST if dx > 0 else Direction.WEST
    elif first is not None and first.dy == 0 and dy:
        second = Direction.SOUTH if dy > 0 else Direction.NORTH
    for preferred in (first, second, *CARDINALS):
        if preferred in candidates:
            return preferred
    raise AssertionError("unreachable")


squares = st.builds(Point, st.integers(0, 21), st.integers(0, 14))


@settings(max_examples=2000, deadline=None)
@given(
    obstacles=st.frozensets(squares, max_size=40),
    start=squares,
    goal=squares,
    movers=st.lists(squares, max_size=2),
)
def test_next_step_matches_a_plain_search(
    obstacles: frozenset[Point], start: Point, goal: Point, movers: list[Point],
) -> None:
    obstacles = obstacles - {start}
    others = tuple(m for m in movers if m != start)
    f = Field(obstacles=frozenset(obstacles), hole=goal)
    assert next_step(f, start, goal, others) is _reference_step(f, start, goal, others)
