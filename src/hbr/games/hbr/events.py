"""Facts the engine reports about a round. The Observer turns them into words.

Events carry only what happened, never positions: a direction the hunter moved, a
quadrant a net was thrown into. That keeps the player's view honest by design.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hbr.games.hbr.commands import Target
from hbr.games.hbr.geometry import Direction, Quadrant


class Kind(enum.Enum):
    """Every event, by the name the scenario runner prints (see docs/rules.md)."""

    HUNTER_MOVED = "hunter_moved"
    EDGE = "edge"
    OBSTACLE = "obstacle"
    HOLE_FOUND = "hole_found"
    RABBIT_BUMPED = "rabbit_bumped"
    BEAR_BUMPED = "bear_bumped"
    NO_PATH = "no_path"
    HUNTER_WALKED_INTO_BEAR = "hunter_walked_into_bear"
    CAPTURED = "captured"
    CAPTURE_MISSED = "capture_missed"
    BEAR_SNARED = "bear_snared"
    SNARE_MISSED = "snare_missed"
    BEAR_MOVED = "bear_moved"
    BEAR_HELD = "bear_held"
    BEAR_STAYED = "bear_stayed"
    BEAR_ATE = "bear_ate"
    RABBIT_MOVED = "rabbit_moved"
    RABBIT_STAYED = "rabbit_stayed"
    RABBIT_HOME = "rabbit_home"
    READY_TO_HUNT = "ready_to_hunt"
    DANGER_ZONE = "danger_zone"


@dataclass(frozen=True, slots=True)
class Event:
    """One fact. ``direction`` is the hunter's; ``target`` marks an objective move."""

    kind: Kind
    direction: Direction | None = None
    quadrant: Quadrant | None = None
    target: Target | None = None

    @property
    def name(self) -> str:
        return self.kind.value

    def as_dict(self) -> dict[str, str]:
        """The event with its details, for transcripts: {"name": "hunter_moved", "direction": "south"}."""
        found = {"name": self.name}
        if self.direction:
            found["direction"] = self.direction.word
        if self.quadrant:
            found["quadrant"] = self.quadrant.word
        if self.target:
            found["target"] = self.target.value
        return found
