"""Squares, compass directions and quadrants of the forest.

Coordinates are ``(x, y)`` with x growing west to east and y growing north to
south, so "north" is ``dy = -1``. Everything here is a small immutable value so
that the engine can compare and hash positions freely.
"""

from __future__ import annotations

import enum
from typing import NamedTuple


class Point(NamedTuple):
    """One square of the field."""

    x: int
    y: int

    def step(self, direction: Direction) -> Point:
        return Point(self.x + direction.dx, self.y + direction.dy)


def chebyshev(a: Point, b: Point) -> int:
    """Distance in king moves: "within N squares" in the rules means this <= N."""
    return max(abs(a.x - b.x), abs(a.y - b.y))


class Direction(enum.Enum):
    """The eight directions a hunter may call; the first four are the cardinal ones."""

    NORTH = (0, -1)
    SOUTH = (0, 1)
    EAST = (1, 0)
    WEST = (-1, 0)
    NORTHEAST = (1, -1)
    NORTHWEST = (-1, -1)
    SOUTHEAST = (1, 1)
    SOUTHWEST = (-1, 1)

    def __init__(self, dx: int, dy: int) -> None:
        # Plain attributes, not properties: the engine reads them in its inner loops.
        self.dx = dx
        self.dy = dy

    @property
    def is_cardinal(self) -> bool:
        return self.dx == 0 or self.dy == 0

    @property
    def word(self) -> str:
        """The canonical command word, e.g. ``northeast``."""
        return self.name.lower()

    @property
    def spoken(self) -> str:
        """How the Observer says it, e.g. ``north east``."""
        word = self.word
        for half in ("north", "south"):
            if word.startswith(half) and word != half:
                return f"{half} {word[len(half):]}"
        return word


#: Cardinal directions in the rules' tie-break order: north, south, east, west.
CARDINALS: tuple[Direction, ...] = (Direction.NORTH, Direction.SOUTH, Direction.EAST, Direction.WEST)


class Quadrant(enum.Enum):
    """A corner around the hunter where a net or snare is thrown.

    Quadrants include their edges: a square due north lies in both northern ones.
    """

    NORTHEAST = (1, -1)
    NORTHWEST = (-1, -1)
    SOUTHEAST = (1, 1)
    SOUTHWEST = (-1, 1)

    @property
    def word(self) -> str:
        return self.name.lower()

    @property
    def spoken(self) -> str:
        return Direction[self.name].spoken

    def contains(self, origin: Point, target: Point) -> bool:
        """Whether ``target`` lies in this quadrant seen from ``origin`` (edges included)."""
        sx, sy = self.value
        return (target.x - origin.x) * sx >= 0 and (target.y - origin.y) * sy >= 0
