"""Which short sound marks which event. Mono, and never more than the words say.

Cues are named after their event kind; the speech layer renders the notes."""

from __future__ import annotations

from hbr.game import Note
from hbr.games.hbr.events import Event, Kind

CUES: dict[str, tuple[Note, ...]] = {
    Kind.OBSTACLE.value: (Note(140, 0.12, to=110, level=0.5),),
    Kind.EDGE.value: (Note(180, 0.07), Note(180, 0.07)),
    Kind.HOLE_FOUND.value: (Note(523, 0.08), Note(659, 0.08), Note(784, 0.12)),
    Kind.RABBIT_BUMPED.value: (Note(1200, 0.05), Note(1500, 0.05), Note(1200, 0.05)),
    Kind.READY_TO_HUNT.value: (Note(660, 0.09), Note(880, 0.14)),
    Kind.DANGER_ZONE.value: (Note(220, 0.08, to=300), Note(220, 0.08, to=300), Note(220, 0.08, to=300)),
    Kind.BEAR_SNARED.value: (Note(900, 0.18, to=300),),
    Kind.CAPTURED.value: (Note(523, 0.12, chord=(1.25, 1.5)), Note(784, 0.3, chord=(1.25, 1.5))),
    Kind.BEAR_ATE.value: (Note(300, 0.5, to=80, level=0.5),),
    Kind.HUNTER_WALKED_INTO_BEAR.value: (Note(300, 0.5, to=80, level=0.5),),
    Kind.RABBIT_HOME.value: (Note(440, 0.15), Note(370, 0.15), Note(294, 0.3)),
}


def cues_for(events: tuple[Event, ...]) -> tuple[str, ...]:
    """The names of a round's cues, in event order, each at most once."""
    return tuple(dict.fromkeys(e.kind.value for e in events if e.kind.value in CUES))
