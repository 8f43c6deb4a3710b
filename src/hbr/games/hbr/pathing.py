"""How characters head for a goal: the seed's Square Rule and shortest-path stepping.

The Square Rule alone walks straight into obstacles; the rules therefore take one
cardinal step that begins a shortest 4-connected path to the goal, preferring the
Square Rule step, then the step toward the goal on the other axis, then north,
south, east, west. With nothing in the way this is exactly the Square Rule.

Distances from a goal through the obstacles alone are cached per (field, goal);
the few moving blockers (hunter, bear) only force a fresh search when one of them
could lie on a shortest path, which keeps a round in the tens of microseconds.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from functools import lru_cache

from hbr.games.hbr.geometry import CARDINALS, Direction, Point, manhattan
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


@lru_cache(maxsize=8192)
def distances(field: Field, goal: Point, blocked: frozenset[Point]) -> tuple[int, ...]:
    """Steps from every square to ``goal`` through unblocked squares (row-major).

    The goal itself counts as enterable even when it is in ``blocked``.
    """
    width, height = field.width, field.height
    dist = [UNREACHABLE] * (width * height)
    dist[goal.y * width + goal.x] = 0
    queue = deque([goal])
    while queue:
        p = queue.popleft()
        d = dist[p.y * width + p.x] + 1
        for direction in CARDINALS:
            n = Point(p.x + direction.dx, p.y + direction.dy)
            if not (0 <= n.x < width and 0 <= n.y < height) or n in blocked:
                continue
            i = n.y * width + n.x
            if dist[i] == UNREACHABLE:
                dist[i] = d
                queue.append(n)
    return tuple(dist)


def next_step(field: Field, start: Point, goal: Point, movers: Iterable[Point] = ()) -> Direction | None:
    """The mover's one cardinal step toward ``goal``, or None when no path exists.

    ``movers`` are other characters that block like obstacles for this step.
    """
    movers = tuple(movers)
    if goal in movers or start == goal:
        return None
    width = field.width
    static = distances(field, goal, field.obstacles)
    neighbours = [
        (d, n)
        for d in CARDINALS
        if field.contains(n := start.step(d))
    ]
    table = static
    for m in movers:
        dm = static[m.y * width + m.x]
        if dm == UNREACHABLE:
            continue
        if any(
            (dn := static[n.y * width + n.x]) != UNREACHABLE and manhattan(n, m) + dm <= dn
            for _, n in neighbours
        ):
            table = distances(field, goal, field.obstacles | frozenset(movers))
            break
    reachable = [(table[n.y * width + n.x], d) for d, n in neighbours if table[n.y * width + n.x] != UNREACHABLE]
    if not reachable:
        return None
    best = min(dist for dist, _ in reachable)
    candidates = {d for dist, d in reachable if dist == best}
    preferred = square_rule(start, goal)
    order: list[Direction | None] = [preferred]
    if preferred is not None:
        order.append(_other_axis(start, goal, preferred))
    order.extend(CARDINALS)
    return next(d for d in order if d in candidates)
