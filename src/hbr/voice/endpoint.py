"""Cutting a live stream into utterances: speech starts, speech ends, hand it on.

pocketsphinx's endpointer (a WebRTC voice activity detector over a short window)
decides; the window and ratio are tuned so that a command is handed on about a
quarter second after the speaker stops (docs/benchmarks.md has the measured delay).
"""

from __future__ import annotations

import numpy as np

#: Seconds of the endpointer's decision window, and the share of it that must be
#: silence to end an utterance (0.3 * 0.8 = 0.24 s after the last word).
WINDOW = 0.3
RATIO = 0.8
#: Utterances longer than this are cut (nobody says a command for 6 seconds).
MAX_SECONDS = 6.0


class UtteranceCutter:
    """Feed 16 kHz int16 blocks of any size; get back the utterances that ended."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget what was heard (used while the game itself is speaking)."""
        from pocketsphinx import Endpointer

        self._ep = Endpointer(window=WINDOW, ratio=RATIO)
        self._step = self._ep.frame_bytes // 2
        self._pending = np.zeros(0, np.int16)
        self._speech: list[bytes] = []

    def feed(self, block: np.ndarray) -> list[np.ndarray]:
        self._pending = np.concatenate([self._pending, np.asarray(block, np.int16)])
        done = []
        while len(self._pending) >= self._step:
            frame, self._pending = self._pending[: self._step], self._pending[self._step :]
            was_speaking = self._ep.in_speech
            out = self._ep.process(frame.tobytes())
            if out is not None:
                self._speech.append(out)
            too_long = len(self._speech) * self._ep.frame_length > MAX_SECONDS
            if (was_speaking and not self._ep.in_speech) or too_long:
                done.append(np.frombuffer(b"".join(self._speech), np.int16))
                self._speech = []
        return done
