"""How loud the room is, so that only sound standing above it is speech to the endpointer.

Other people talking, a television, a class: the noise suppressor cannot take out
speech, and the voice detector rightly calls it speech, so in such a room the
endpointer never ended an utterance. Streamed in a babble of other voices 20 dB
below the player's, an utterance ran on for seconds through the next command, and
Whisper read the talk around the command with it (docs/benchmarks.md). The player is
nearer the microphone than the voices around, so louder: a frame begins speech only
when it stands :data:`GATE_DB` above the room's level, the median level of the frames
of the last :data:`SECONDS` (a command lasts a second or two, so the median is the
room's, not the player's), and goes on with it when :data:`HOLD_DB` above. Until that
much has been heard the room is not known and nothing is held back.

Over talk the voice detector hears no pause after a command either, so the listener
(:mod:`hbr.voice.endpoint`) also takes a frame that would not begin speech for a pause
of the player, and reads what was said at it; and after a command it handed on early,
the rest of that utterance must stand out as a beginning would, or the utterance ran
on through the talk and swallowed the player's next command. Real held-out speakers in
babble 10 dB below the median speaker: 27.4% of commands right before these two, 30.4%
after, as many taken wrongly (docs/benchmarks.md: "Pauses over talk").

Only talk needs this: steady noise (a fan, mains hum) the suppressor brings down near
the faint floor it puts back, and there the gate only cost commands (2 of 49 in pink
noise 10 dB below the words). So a room less than :data:`QUIET_ROOM_DB` above the
floor is quiet, and nothing is held back.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from hbr.voice.denoise import FLOOR

#: Seconds of sound the room's level is the median of.
SECONDS = 8.0
#: Decibels above the room's level that a frame must stand to begin speech, and to go
#: on with it once begun: the weak words of a phrase ("the" in "toward the bear") are
#: nearer the room than its stressed ones, and must not end it.
GATE_DB = 10.0
HOLD_DB = 3.0
#: Decibels above the suppressor's floor below which the room is quiet.
QUIET_ROOM_DB = 10.0


class Background:
    """Feed each frame's level in order; learn whether it stands above the room."""

    def __init__(self, frame_seconds: float) -> None:
        self._levels: deque[float] = deque(maxlen=round(SECONDS / frame_seconds))

    def margin(self, level: float) -> float:
        """How many decibels a frame of this level (RMS) stands above the room's level
        so far (infinitely many while the room is quiet or not yet known); then the
        frame counts towards the room's level."""
        room = float(np.median(self._levels)) if len(self._levels) == self._levels.maxlen else 0.0
        self._levels.append(level)
        if room < FLOOR * 10 ** (QUIET_ROOM_DB / 20):
            return float("inf")
        return float(20 * np.log10(max(level, 1e-9) / room))


def stands_out(margin: float, speaking: bool = False) -> bool:
    """Whether a frame standing ``margin`` decibels above the room (:meth:`Background.margin`)
    begins speech or, ``speaking``, goes on with it."""
    return margin >= (HOLD_DB if speaking else GATE_DB)
