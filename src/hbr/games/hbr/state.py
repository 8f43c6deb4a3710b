"""The true state of one game: immutable records the engine maps to new records."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hbr.games.hbr.geometry import Point

WIDTH = 22
HEIGHT = 15


class Outcome(enum.Enum):
    """How a game ended, as the rules decide it (never a cut-off by a limit)."""

    CAPTURED = "captured"
    EATEN = "eaten"
    RABBIT_HOME = "rabbit_home"


@dataclass(frozen=True, slots=True)
class Field:
    """What never changes during a game: the size, the obstacles and the rabbit hole."""

    obstacles: frozenset[Point]
    hole: Point
    width: int = WIDTH
    height: int = HEIGHT

    def contains(self, p: Point) -> bool:
        return 0 <= p.x < self.width and 0 <= p.y < self.height


@dataclass(frozen=True, slots=True)
class Rules:
    """Switches between rule variants; the defaults are the game as documented."""

    snare: bool = True


@dataclass(frozen=True, slots=True)
class State:
    """One point of play. ``snared`` counts the bear turns it still has to sit out."""

    field: Field
    hunter: Point
    bear: Point
    rabbit: Point
    rules: Rules = Rules()
    snared: int = 0
    round: int = 0
    outcome: Outcome | None = None

    @property
    def over(self) -> bool:
        return self.outcome is not None
