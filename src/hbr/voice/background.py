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

How far the player stood above the room as the microphone heard both, before the
suppressor (:class:`Loudness`), is what the listener judges Whisper's sureness by: in
noise it is sure of most of what it mishears (:data:`NOISY_DB`).
"""

from __future__ import annotations

from collections import deque

import numpy as np

from hbr.voice.audio import RATE, Framer, rms
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
#: A player whose loud frames (:data:`LOUD_PERCENTILE`) stood less than this many
#: decibels above the room, as the microphone heard both (before the suppressor), was
#: heard in a noisy room, where a reading must be :data:`NOISY_SURE` sure to count as
#: sure as the recognizer's bar (0.75 for Whisper; pocketsphinx's is 0.9 already).
#: Chosen on the fitting half of the real recordings, streamed in a room's noise
#: 10 dB below the median speaker: in pink noise 6 of 7 commands taken for another were
#: taken at Whisper's bar, 2 at these; in mains hum 3 of 5, none; 7.3% of the right
#: commands were asked back, 16.0% ("Did you say north?"), in hum 4.9%, 8.6%. Held out:
#: docs/benchmarks.md ("A noisy room"). In pink noise 20 dB below the median speaker,
#: 3.8% and 5.0% of the right commands asked back. As recorded, with silence between
#: the recordings, no command is judged so; judged by their own noise, 8% of them were
#: below 20 dB, and the rule would have asked none of them back that was not already.
NOISY_DB = 20.0
NOISY_SURE = 0.9
#: The percentile of an utterance's frame levels that is its speaker's level.
LOUD_PERCENTILE = 90


class Background:
    """Feed each frame's level in order; learn whether it stands above the room."""

    def __init__(self, frame_seconds: float) -> None:
        self._levels: deque[float] = deque(maxlen=round(SECONDS / frame_seconds))

    @property
    def level(self) -> float | None:
        """The room's level (RMS): the median of the frames of the last :data:`SECONDS`,
        or None until that much has been heard."""
        return float(np.median(self._levels)) if len(self._levels) == self._levels.maxlen else None

    def add(self, level: float) -> None:
        """One more frame's level (RMS), towards the room's."""
        self._levels.append(level)

    def margin(self, level: float) -> float:
        """How many decibels a frame of this level (RMS) stands above the room's level
        so far (infinitely many while the room is quiet or not yet known); then the
        frame counts towards the room's level."""
        room = self.level or 0.0
        self.add(level)
        if room < FLOOR * 10 ** (QUIET_ROOM_DB / 20):
            return float("inf")
        return float(20 * np.log10(max(level, 1e-9) / room))


def stands_out(margin: float, speaking: bool = False) -> bool:
    """Whether a frame standing ``margin`` decibels above the room (:meth:`Background.margin`)
    begins speech or, ``speaking``, goes on with it."""
    return margin >= (HOLD_DB if speaking else GATE_DB)


class Loudness:
    """The sound as the microphone delivered it, before the suppressor: how loud the
    room is there, and how far a stretch of speech stood above it.

    In noise Whisper is sure of most of what it mishears: of the fitting half's real
    commands in pink noise 10 dB below the median speaker, 7 were taken for another, 6
    of them at a confidence the game acts on ("down" as "no" at 0.92, "up" as "right"
    at 0.88). The suppressor takes steady noise out before the endpointer, and the
    room's level after it (:class:`Background`) hardly rises; Whisper is given the sound
    as it was, and its sureness is judged by the room it was heard in."""

    def __init__(self, frame_seconds: float) -> None:
        self._seconds = frame_seconds
        #: Kept across restarts: the room does not change when the listener starts again.
        self._room = Background(frame_seconds)
        self.restart()

    def restart(self) -> None:
        """A fresh clock (the listener's endpointer started again); the room is kept."""
        self._framer = Framer(round(self._seconds * RATE))
        self._clock = 0.0
        self._levels: deque[tuple[float, float]] = deque(maxlen=round(SECONDS / self._seconds))

    def feed(self, block: np.ndarray, playing: bool = False) -> None:
        """``playing``: the game itself is speaking; what is left of its voice is no part
        of the room."""
        for frame in self._framer.frames(block):
            self._clock += self._seconds
            level = rms(frame - frame.mean())  # a microphone's offset from zero is no sound
            self._levels.append((self._clock, level))
            if not playing:
                self._room.add(level)

    def above_room(self, start: float, end: float) -> float:
        """How many decibels the loud frames between ``start`` and ``end`` (seconds by
        this clock) stood above the room (infinitely many while it is not known, or silent)."""
        room = self._room.level
        levels = [level for clock, level in self._levels if start < clock <= end]
        if not room or not levels:
            return float("inf")
        return float(20 * np.log10(max(float(np.percentile(levels, LOUD_PERCENTILE)), 1e-9) / room))
