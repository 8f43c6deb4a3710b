"""The hunter's turn-taking commands: what the engine accepts.

Each command prints as its canonical text (``str(Capture(Quadrant.NORTHEAST))`` is
``capture northeast``) and :func:`parse_canonical` reads that text back, so a game
can be stored as its list of commands and replayed.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hbr.games.hbr.geometry import Direction, Quadrant


class Target(enum.Enum):
    """What an objective move heads for."""

    RABBIT = "rabbit"
    BEAR = "bear"
    HOLE = "hole"

    @property
    def spoken(self) -> str:
        return "the rabbit hole" if self is Target.HOLE else f"the {self.value}"


@dataclass(frozen=True, slots=True)
class Step:
    direction: Direction

    def __str__(self) -> str:
        return self.direction.word


@dataclass(frozen=True, slots=True)
class Toward:
    target: Target

    def __str__(self) -> str:
        return f"toward {self.target.value}"


@dataclass(frozen=True, slots=True)
class Capture:
    quadrant: Quadrant

    def __str__(self) -> str:
        return f"capture {self.quadrant.word}"


@dataclass(frozen=True, slots=True)
class Snare:
    quadrant: Quadrant

    def __str__(self) -> str:
        return f"snare {self.quadrant.word}"


Command = Step | Toward | Capture | Snare


def all_commands() -> list[Command]:
    """Every distinct command, in a stable order (useful for corpora and tests)."""
    return [
        *(Step(d) for d in Direction),
        *(Toward(t) for t in Target),
        *(Capture(q) for q in Quadrant),
        *(Snare(q) for q in Quadrant),
    ]


_CANONICAL = {str(c): c for c in all_commands()}


def parse_canonical(text: str) -> Command:
    """Read a command back from its canonical text; raises ValueError otherwise."""
    try:
        return _CANONICAL[text]
    except KeyError:
        raise ValueError(f"not a canonical command: {text!r}") from None
