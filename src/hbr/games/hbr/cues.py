"""Which short sound marks which event. Mono, and never more than the words say."""

from __future__ import annotations

from functools import cache

import numpy as np

from hbr.games.hbr.events import Event, Kind
from hbr.speech.earcons import Note, render

CUES: dict[Kind, list[Note]] = {
    Kind.OBSTACLE: [Note(140, 0.12, to=110, level=0.5)],
    Kind.EDGE: [Note(180, 0.07), Note(180, 0.07)],
    Kind.HOLE_FOUND: [Note(523, 0.08), Note(659, 0.08), Note(784, 0.12)],
    Kind.RABBIT_BUMPED: [Note(1200, 0.05), Note(1500, 0.05), Note(1200, 0.05)],
    Kind.READY_TO_HUNT: [Note(660, 0.09), Note(880, 0.14)],
    Kind.DANGER_ZONE: [Note(220, 0.08, to=300), Note(220, 0.08, to=300), Note(220, 0.08, to=300)],
    Kind.BEAR_SNARED: [Note(900, 0.18, to=300)],
    Kind.CAPTURED: [Note(523, 0.12, chord=(1.25, 1.5)), Note(784, 0.3, chord=(1.25, 1.5))],
    Kind.BEAR_ATE: [Note(300, 0.5, to=80, level=0.5)],
    Kind.HUNTER_WALKED_INTO_BEAR: [Note(300, 0.5, to=80, level=0.5)],
    Kind.RABBIT_HOME: [Note(440, 0.15), Note(370, 0.15), Note(294, 0.3)],
}


@cache
def _sound(kind: Kind) -> np.ndarray:
    return render(CUES[kind])


def cues_for(events: tuple[Event, ...]) -> tuple[np.ndarray, ...]:
    """The cue sounds of a round, in event order, each at most once."""
    kinds = dict.fromkeys(e.kind for e in events if e.kind in CUES)
    return tuple(_sound(k) for k in kinds)
