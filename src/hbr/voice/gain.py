"""Automatic gain in front of the voice activity detectors, so that quiet speech is heard.

WebRTC's voice activity detector, which finds where an utterance begins and ends,
calls speech only what stands well above the faint noise floor put back by
:mod:`hbr.voice.denoise` and above an energy threshold of its own. A speaker far
from the microphone, or a microphone turned down, is much quieter than the recordings
hbr was tuned on (their words peak at -5 dBFS, median). Played 20 dB quieter, the
endpointer never heard 19% of the real commands of ../shared/speech-dev (fitting
half: 115 of 601), 30 dB quieter 74%, though Whisper, given them whole, read them as
well at 20 dB down and nearly as well at 30 dB (docs/benchmarks.md).

So the detectors hear the sound raised towards a level: each 10 ms frame is
multiplied by a gain that brings the loudest recent frame to :data:`TARGET`. That
loudest level follows a louder frame at once (the frame itself is never raised past
the target) and drifts down in quiet, so that after a pause a quiet speaker's first
word is raised fully, and a loud one's is not raised at all. The gain is never below
1 (loud sound is left alone) nor above :data:`MOST_DB`, and never raises the room's
own noise (the quietest recent frame, drifting up) above :data:`NOISE_CEILING`:
raised with the pauses between words, a steady hum that the suppressor had taken
down came back nearly as loud as it went in.

While the game itself speaks, nothing is raised, and the gain is kept for after: what
the echo canceller leaves of the Observer's voice is 20 to 45 dB below it, under the
floor, until a gain raises it. A gain that rose in the pauses cost commands said over
the Observer; one held at what it had reached in the quiet before the game spoke
raised the leavings of a whole reply to :data:`TARGET`, and Whisper read dozens of
them as utterances, on the CPU and in the memory that the Observer's voice was
using (docs/benchmarks.md). A player talking over the game is as loud as its voice,
give or take 10 dB, and needs no raising to be heard.

The endpointer's detector hears the raised sound (:mod:`hbr.voice.denoise`), and so
do the grammar decoders and Whisper's check that an utterance holds any speech at
all. Whisper itself reads the whole utterance raised by one gain (:func:`levelled`):
its features are the log of the sound's power, offset by a fixed amount, so a quiet
word is not only fainter but unlike what it learnt from.
"""

from __future__ import annotations

import numpy as np

from hbr.voice.audio import RATE, frame_levels, to_int16

#: Samples in a frame (10 ms at 16 kHz): the gain changes from frame to frame.
FRAME = 160
#: The frame level (RMS of int16 samples; -21 dBFS) the loudest recent frame is raised to.
#: Half or twice this heard as many of the quiet commands (docs/benchmarks.md).
TARGET = 3000.0
#: The most the sound is raised (decibels).
MOST_DB = 30.0
#: The level (RMS) the quietest recent frame is raised to at most: half the noise
#: floor that :mod:`hbr.voice.denoise` puts back (-53 dBFS).
NOISE_CEILING = 75.0
#: How fast the loudest recent level falls, and the quietest rises, towards the
#: present (decibels a second).
DRIFT_DB_PER_SECOND = 6.0

_MOST = 10 ** (MOST_DB / 20)
_DRIFT = 10 ** (DRIFT_DB_PER_SECOND / 20 * FRAME / RATE)  # a frame's drift, as a factor


class AutoGain:
    """Feed 16 kHz int16 samples in order; get them back raised where they are quiet."""

    def __init__(self) -> None:
        self._loudest = 0.0  # RMS of the loudest recent frame, falling in quiet
        self._quietest: float | None = None  # RMS of the quietest recent frame, rising

    @property
    def gain(self) -> float:
        """The factor the latest frame was multiplied by."""
        most = min(_MOST, NOISE_CEILING / self._quietest) if self._quietest else _MOST
        return max(1.0, min(most, TARGET / self._loudest if self._loudest else most))

    def process(self, samples: np.ndarray, hold: bool = False) -> np.ndarray:
        """The samples raised, frame by frame (a block that is not whole frames ends
        in a short one, counted as a whole: feed whole frames where blocks vary).
        ``hold``: the samples as they are, the gain kept for what comes after (while the
        game itself speaks)."""
        if hold:
            return np.asarray(samples, np.int16)
        out = np.asarray(samples, np.float64).copy()
        for start, level in zip(range(0, len(out), FRAME), frame_levels(out, FRAME), strict=True):
            frame = out[start : start + FRAME]
            self._loudest = max(level, self._loudest / _DRIFT)
            self._quietest = level if self._quietest is None else min(level, max(self._quietest, 1.0) * _DRIFT)
            frame *= self.gain  # a view: raises the frame in ``out``
        return to_int16(out)


def levelled(samples: np.ndarray) -> np.ndarray:
    """A whole utterance (int16 samples) as float samples multiplied by one gain that
    brings its loudest frame to :data:`TARGET`, never lowered nor raised more than
    :data:`MOST_DB`: the same sound at any level the microphone gives it, with its own
    noise raised alike, so that nothing in it changes shape."""
    out = np.asarray(samples, np.float64)
    loudest = float(frame_levels(out, FRAME).max(initial=0.0))
    return out * (max(1.0, min(_MOST, TARGET / loudest)) if loudest else 1.0)
