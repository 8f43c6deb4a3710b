"""The board, the pieces and the rules of Spyhunting, as immutable values.

Points are the 9 x 9 intersections of an 8 x 8 board, named (column, row) from the
south-west corner, both from 1: the hunter's home is (1, 1), the spy's (9, 9).
Distances are counted along the lines (Manhattan). See docs/spyhunting.md.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass

SIZE = 9
#: After leaving home the hunter keeps at least this far from it (the seed's
#: "within two points": three or more points away).
HOME_DISTANCE = 3


@dataclass(frozen=True, slots=True, order=True)
class Point:
    x: int
    y: int

    def __add__(self, other: Heading) -> Point:
        return Point(self.x + other.dx, self.y + other.dy)

    @property
    def on_board(self) -> bool:
        return 1 <= self.x <= SIZE and 1 <= self.y <= SIZE

    def distance(self, other: Point) -> int:
        return abs(self.x - other.x) + abs(self.y - other.y)

    def __str__(self) -> str:
        return f"{self.x} {self.y}"


class Heading(enum.Enum):
    """A compass direction along the lines, clockwise from north."""

    NORTH = (0, 1)
    EAST = (1, 0)
    SOUTH = (0, -1)
    WEST = (-1, 0)

    def __init__(self, dx: int, dy: int) -> None:
        self.dx = dx
        self.dy = dy

    @property
    def word(self) -> str:
        return self.name.lower()

    def turned(self, quarters: int) -> Heading:
        order = list(Heading)
        return order[(order.index(self) + quarters) % 4]


HUNTER_HOME = Point(1, 1)
SPY_HOME = Point(SIZE, SIZE)


class Action(enum.Enum):
    """One of the hunter's actions; each costs one pip of a die."""

    FORWARD = "forward"
    BACK = "back"
    LEFT = "left"
    RIGHT = "right"
    TURN_LEFT = "turn left"
    TURN_RIGHT = "turn right"
    SHOOT = "shoot"

    @property
    def quarters(self) -> int:
        """How far this action turns the way a step goes (steps) or the token (turns)."""
        return {"forward": 0, "right": 1, "back": 2, "left": 3, "turn right": 1, "turn left": 3}.get(self.value, 0)

    @property
    def is_step(self) -> bool:
        return self in (Action.FORWARD, Action.BACK, Action.LEFT, Action.RIGHT)

    @property
    def is_turn(self) -> bool:
        return self in (Action.TURN_LEFT, Action.TURN_RIGHT)


class Side(enum.Enum):
    HUNTER = "hunter"
    SPY = "spy"

    @property
    def other(self) -> Side:
        return Side.SPY if self is Side.HUNTER else Side.HUNTER


class Phase(enum.Enum):
    """What the series waits for: the hunter's d4 actions (one at a time), the
    hunter's hidden plan of d8 actions, then the spy's move (after which the plan is
    carried out and a new series begins)."""

    HUNTER_MOVE = "hunter move"
    PLAN = "plan"
    SPY_MOVE = "spy move"


@dataclass(frozen=True, slots=True)
class Rules:
    """The seed's optional variants (all off: the game as written)."""

    capture_wins: bool = False  # the hunter also wins by landing on the spy
    four_way: bool = False  # the bullet flies in all four directions
    forward_only: bool = False  # the hunter steps only the way it faces (forward)
    short_spy: bool = False  # the spy moves 2 or 4 points instead of 3 or 5

    def spy_points(self, d8: int) -> int:
        low, high = (2, 4) if self.short_spy else (3, 5)
        return low if d8 <= 4 else high


def roll(seed: int, series: int) -> tuple[int, int]:
    """The dice of a series (d4, d8): drawn from the game's seed, so a game replays exactly."""
    rng = random.Random(f"spyhunting {seed} {series}")
    return rng.randint(1, 4), rng.randint(1, 8)


@dataclass(frozen=True, slots=True)
class State:
    seed: int
    rules: Rules
    hunter: Point
    facing: Heading
    spy: Point
    series: int
    d4: int
    d8: int
    phase: Phase
    #: Where the hunter's current phase began, and the actions it has used in it.
    phase_start: Point
    used: int = 0
    #: Whether the hunter has once been HOME_DISTANCE or more from home (from then on
    #: it keeps away), and whether the spy has reached the hunter's home corner.
    hunter_left_home: bool = False
    spy_reached_corner: bool = False
    #: The hunter stood on the spy's point during this series: no shot can hit it.
    spy_immune: bool = False
    #: The hunter's plan, hidden from the spy until it is carried out.
    plan: tuple[Action, ...] = ()
    winner: Side | None = None

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def spy_points(self) -> int:
        return self.rules.spy_points(self.d8)

    @property
    def spy_target(self) -> Point:
        """Where the spy is heading now: the hunter's corner, then its own."""
        return SPY_HOME if self.spy_reached_corner else HUNTER_HOME


def new_game(seed: int, rules: Rules = Rules()) -> State:
    d4, d8 = roll(seed, 1)
    return State(seed, rules, HUNTER_HOME, Heading.NORTH, SPY_HOME, 1, d4, d8, Phase.HUNTER_MOVE, HUNTER_HOME)
