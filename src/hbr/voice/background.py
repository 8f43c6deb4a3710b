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

    def stands_out(self, level: float, speaking: bool = False) -> bool:
        """Whether a frame of this level (RMS) stands above the room's level so far, to
        begin speech or, ``speaking``, to go on with it; then the frame counts towards
        the room's level."""
        room = float(np.median(self._levels)) if len(self._levels) == self._levels.maxlen else 0.0
        quiet = room < FLOOR * 10 ** (QUIET_ROOM_DB / 20)
        out = quiet or level >= room * 10 ** ((HOLD_DB if speaking else GATE_DB) / 20)
        self._levels.append(level)
        return out
