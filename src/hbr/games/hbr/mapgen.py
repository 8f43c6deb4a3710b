"""Random forests: seeded, reproducible, and never lost before the player can act.

The generator receives a ``random.Random``; the caller owns the seed (and tells it
to the player), so the same seed and difficulty always give the same forest.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass

from hbr.games.hbr.engine import CAPTURE_RANGE
from hbr.games.hbr.geometry import Point, chebyshev
from hbr.games.hbr.pathing import UNREACHABLE, distances, interception, route
from hbr.games.hbr.state import HEIGHT, WIDTH, Field, Rules, State


@dataclass(frozen=True, slots=True)
class Preset:
    """What a difficulty sets. Ranges are inclusive; distances are in squares.

    ``rabbit_path``: the rabbit's shortest path home. ``bear_distance``: the bear's
    king-move distance from the hunter. ``rabbit_distance``: the hunter's walking
    distance to the rabbit at the start. ``slack``: how many rounds to spare the
    hunter has, playing perfectly, between the first round it could have the rabbit
    in its net and the rabbit reaching home. At least 1 means the rabbit alone cannot
    outrun the hunter; the bear can still spoil a forest (0.24% of hard ones are
    proven lost by search, docs/balance.md).
    """

    obstacles: int
    rabbit_path: tuple[int, int]
    bear_distance: tuple[int, int]
    rabbit_distance: tuple[int, int]
    slack: tuple[int, int]


class Difficulty(enum.Enum):
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"

    @property
    def preset(self) -> Preset:
        return PRESETS[self]


PRESETS: dict[Difficulty, Preset] = {
    Difficulty.EASY: Preset(5, rabbit_path=(16, 22), bear_distance=(10, 14), rabbit_distance=(5, 8), slack=(7, 16)),
    Difficulty.NORMAL: Preset(5, rabbit_path=(13, 18), bear_distance=(7, 10), rabbit_distance=(7, 10), slack=(6, 11)),
    Difficulty.HARD: Preset(7, rabbit_path=(11, 15), bear_distance=(5, 8), rabbit_distance=(8, 12), slack=(3, 7)),
}

#: Attempts before the generator gives up; a preset that needs more is a bug.
MAX_ATTEMPTS = 10_000


class MapError(RuntimeError):
    """No forest fits the preset (only possible with a broken preset)."""


def new_game(rng: random.Random, difficulty: Difficulty = Difficulty.NORMAL, rules: Rules = Rules()) -> State:
    """Draw a forest for ``difficulty``; every draw comes from ``rng``."""
    preset = difficulty.preset
    squares = [Point(x, y) for y in range(HEIGHT) for x in range(WIDTH)]
    for _ in range(MAX_ATTEMPTS):
        hole = rng.choice(squares)
        obstacles = frozenset(rng.sample([p for p in squares if p != hole], preset.obstacles))
        field = Field(obstacles=obstacles, hole=hole)
        home = distances(field, hole)
        free = [p for p in squares if p not in obstacles and p != hole]
        lo, hi = preset.rabbit_path
        rabbit_squares = [p for p in free if lo <= home[p.y * WIDTH + p.x] <= hi]
        if not rabbit_squares:
            continue
        rabbit = rng.choice(rabbit_squares)
        to_rabbit = distances(field, rabbit)
        lo, hi = preset.rabbit_distance
        hunter_squares = [
            p
            for p in free
            if p != rabbit
            and to_rabbit[p.y * WIDTH + p.x] != UNREACHABLE
            and lo <= to_rabbit[p.y * WIDTH + p.x] <= hi
        ]
        if not hunter_squares:
            continue
        path = route(field, rabbit, hole)
        lo, hi = preset.slack
        hunter_squares = [p for p in hunter_squares if _slack(p, path) in range(lo, hi + 1)]
        if not hunter_squares:
            continue
        hunter = rng.choice(hunter_squares)
        lo, hi = preset.bear_distance
        bear_squares = [p for p in free if p not in (rabbit, hunter) and lo <= chebyshev(p, hunter) <= hi]
        if not bear_squares:
            continue
        bear = rng.choice(bear_squares)
        return State(field=field, hunter=hunter, bear=bear, rabbit=rabbit, rules=rules)
    raise MapError(f"no forest fits the {difficulty.value} preset")


def _slack(hunter: Point, rabbit_route: tuple[Point, ...]) -> int:
    """Rounds to spare for a perfect hunter (negative: the rabbit cannot be caught)."""
    k = interception(hunter, rabbit_route, CAPTURE_RANGE)
    return -1 if k is None else len(rabbit_route) - 2 - k
