"""How characters head for a goal: the seed's Square Rule and shortest-path stepping.

The Square Rule alone walks straight into obstacles; the rules therefore take one
cardinal step that begins a shortest 4-connected path to the goal, preferring the
Square Rule step, then the step toward the goal on the other axis, then north,
south, east, west. With nothing in the way this is exactly the Square Rule.

When nothing blocks the rectangle between mover and goal the Square Rule step is
taken at once; otherwise a breadth-first search on a bitset (one big integer, one
shift-and-mask per distance level) runs from the goal until it reaches the mover,
which keeps a round in the tens of microseconds.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache

from hbr.games.hbr.geometry import CARDINALS, Direction, Point
from hbr.games.hbr.state import Field

UNREACHABLE = -1


def square_rule(start: Point, goal: Point) -> Direction | None:
    """The cardinal step along the axis with the greater distance; ties go north/south."""
    dx, dy = goal.x - start.x, goal.y - start.y
    if dy != 0 and abs(dy) >= abs(dx):
        return Direction.SOUTH if dy > 0 else Direction.NORTH
    if dx != 0:
        return Direction.EAST if dx > 0 else Direction.WEST
    return None


def _other_axis(start: Point, goal: Point, first: Direction) -> Direction | None:
    dx, dy = goal.x - start.x, goal.y - start.y
    if first.dx == 0 and dx != 0:
        return Direction.EAST if dx > 0 else Direction.WEST
    if first.dy == 0 and dy != 0:
        return Direction.SOUTH if dy > 0 else Direction.NORTH
    return None


# Breadth-first search on a bitset: square (x, y) is bit y * (width + 1) + x. The extra
# column at x = width is never open, so shifting by one cannot wrap around a row.


def _bit(field: Field, p: Point) -> int:
    return 1 << (p.y * (field.width + 1) + p.x)


@lru_cache(maxsize=1024)
def _open_squares(field: Field) -> int:
    """Every square of the field that is not an obstacle."""
    mask = 0
    for y in range(field.height):
        mask |= ((1 << field.width) - 1) << (y * (field.width + 1))
    for p in field.obstacles:
        mask &= ~_bit(field, p)
    return mask


def _levels(field: Field, goal: Point, movers: tuple[Point, ...] = ()) -> Iterator[int]:
    """The squares at distance 0, 1, 2 ... from ``goal``, each level as a bitset.

    Obstacles and ``movers`` block; the goal itself is always enterable.
    """
    row = field.width + 1
    open_ = _open_squares(field)
    for p in movers:
        open_ &= ~_bit(field, p)
    open_ |= _bit(field, goal)
    frontier = seen = _bit(field, goal)
    while frontier:
        yield frontier
        grown = (frontier << 1 | frontier >> 1 | frontier << row | frontier >> row) & open_ & ~seen
        seen |= grown
        frontier = grown


def distances(field: Field, goal: Point) -> tuple[int, ...]:
    """Steps from every square to ``goal`` around the obstacles (row-major, -1 if none)."""
    row = field.width + 1
    dist = [UNREACHABLE] * (field.width * field.height)
    for d, level in enumerate(_levels(field, goal)):
        while level:
            low = level & -level
            i = low.bit_length() - 1
            dist[(i // row) * field.width + i % row] = d
            level ^= low
    return tuple(dist)


def _clear_box(start: Point, goal: Point, blockers: Iterable[Point]) -> bool:
    """No blocker in the rectangle spanned by start and goal (the goal itself excepted).

    Then a staircase path runs from the Square Rule step to the goal, so that step
    begins a shortest path and is preferred: no search is needed.
    """
    x0, x1 = sorted((start.x, goal.x))
    y0, y1 = sorted((start.y, goal.y))
    return not any(x0 <= b.x <= x1 and y0 <= b.y <= y1 and b != goal for b in blockers)


def next_step(field: Field, start: Point, goal: Point, movers: Iterable[Point] = ()) -> Direction | None:
    """The mover's one cardinal step toward ``goal``, or None when no path exists.

    ``movers`` are other characters that block like obstacles for this step.
    """
    movers = tuple(movers)
    if goal in movers or start == goal:
        return None
    if _clear_box(start, goal, movers) and _clear_box(start, goal, field.obstacles):
        return square_rule(start, goal)
    steps = {_bit(field, n): d for d in CARDINALS if field.contains(n := start.step(d))}
    targets = sum(steps)
    # The first level that reaches any neighbour holds every neighbour on a shortest path.
    for level in _levels(field, goal, movers):
        if level & targets:
            candidates = {d for bit, d in steps.items() if level & bit}
            break
    else:
        return None
    preferred = square_rule(start, goal)
    order: list[Direction | None] = [preferred]
    if preferred is not None:
        order.append(_other_axis(start, goal, preferred))
    order.extend(CARDINALS)
    return next(d for d in order if d in candidates)


@lru_cache(maxsize=8192)
def route(field: Field, start: Point, goal: Point) -> tuple[Point, ...]:
    """The squares a mover visits heading for ``goal`` with only obstacles in the way.

    Starts with ``start``; ends at ``goal``, or where no further step exists.
    """
    squares = [start]
    while squares[-1] != goal and len(squares) <= field.width * field.height:
        step = next_step(field, squares[-1], goal)
        if step is None:
            break
        squares.append(squares[-1].step(step))
    return tuple(squares)


def interception(hunter: Point, rabbit_route: tuple[Point, ...], reach: int) -> int | None:
    """The first round index k at which a king-moving hunter can be within ``reach``
    of the rabbit's k-th square before it gets home, ignoring obstacles; None if never.
    """
    for k, p in enumerate(rabbit_route[:-1]):
        if max(abs(p.x - hunter.x), abs(p.y - hunter.y)) <= k + reach:
            return k
    return None
