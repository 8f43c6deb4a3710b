"""The board, the pieces and the rules of Spyhunting, as immutable values.

Points are the 9 x 9 intersections of an 8 x 8 board, named (column, row) from the
south-west corner, both from 1: the hunter's home is (1, 1), the spy's (9, 9).
Distances are counted along the lines (Manhattan). See docs/spyhunting.md.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import random
from collections.abc import Mapping
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
    """A compass direction, clockwise from north: along the lines, or (in the diagonal
    variant, for steps only) between them."""

    NORTH = (0, 1)
    NORTH_EAST = (1, 1)
    EAST = (1, 0)
    SOUTH_EAST = (1, -1)
    SOUTH = (0, -1)
    SOUTH_WEST = (-1, -1)
    WEST = (-1, 0)
    NORTH_WEST = (-1, 1)

    def __init__(self, dx: int, dy: int) -> None:
        self.dx = dx
        self.dy = dy

    @property
    def word(self) -> str:
        return self.name.lower().replace("_", " ")

    @property
    def diagonal(self) -> bool:
        return self.dx != 0 and self.dy != 0

    @functools.cache  # noqa: B019 (the eight members live as long as the program; the bots turn millions of times)
    def turned(self, eighths: int) -> Heading:
        order = list(Heading)
        return order[(order.index(self) + eighths) % 8]


#: The four directions along the lines: the ways the hunter faces and a bullet flies.
LINES = (Heading.NORTH, Heading.EAST, Heading.SOUTH, Heading.WEST)
HUNTER_HOME = Point(1, 1)
SPY_HOME = Point(SIZE, SIZE)


class Action(enum.Enum):
    """One of the hunter's actions; each costs one pip of a die."""

    FORWARD = "forward"
    BACK = "back"
    LEFT = "left"
    RIGHT = "right"
    #: Diagonal steps, in the diagonal variant only.
    FORWARD_LEFT = "forward left"
    FORWARD_RIGHT = "forward right"
    BACK_LEFT = "back left"
    BACK_RIGHT = "back right"
    TURN_LEFT = "turn left"
    TURN_RIGHT = "turn right"
    SHOOT = "shoot"

    @property
    def eighths(self) -> int:
        """How far, in eighths of a turn clockwise, this action turns the way a step goes
        (steps) or the token (turns: a quarter)."""
        return _EIGHTHS.get(self.value, 0)

    @property
    def is_step(self) -> bool:
        return not self.is_turn and self is not Action.SHOOT

    @property
    def is_diagonal(self) -> bool:
        return self.is_step and self.eighths % 2 == 1

    @property
    def is_turn(self) -> bool:
        return self in (Action.TURN_LEFT, Action.TURN_RIGHT)


_EIGHTHS = {
    "forward": 0, "forward right": 1, "right": 2, "back right": 3, "back": 4, "back left": 5, "left": 6,
    "forward left": 7, "turn right": 2, "turn left": 6,
}


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
    diagonal: bool = False  # both may also step diagonally, to a point across a square

    @property
    def directions(self) -> tuple[Heading, ...]:
        """The ways a token may step."""
        return tuple(Heading) if self.diagonal else LINES

    def spy_points(self, d8: int) -> int:
        low, high = (2, 4) if self.short_spy else (3, 5)
        return low if d8 <= 4 else high

    @classmethod
    def from_options(cls, options: Mapping[str, object]) -> Rules:
        """The variants that ``options`` (by field name: four_way) turn on."""
        return cls(**{f.name: bool(options.get(f.name)) for f in dataclasses.fields(cls)})


#: The variants as options are named: four-way, short-spy.
VARIANTS = tuple(f.name.replace("_", "-") for f in dataclasses.fields(Rules))


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
