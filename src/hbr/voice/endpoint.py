"""Cutting a live stream into utterances and decoding each one as it is spoken.

Noise is suppressed first (:mod:`hbr.voice.denoise`), for the endpointer and the
recognizer alike: a fan or mains hum otherwise reads as endless speech, and costs
words. Then pocketsphinx's endpointer (a WebRTC voice activity detector over a
short window) decides where speech starts and ends; it is tuned so that a command
is handed on about a fifth of a second after the speaker stops. The speech is fed
to the recognizer while it arrives, so that at the end only the last frames remain
to decode (docs/benchmarks.md has the measured delay).
"""

from __future__ import annotations

import numpy as np

from hbr.voice.audio import Framer
from hbr.voice.channel import BandCheck
from hbr.voice.denoise import NoiseSuppressor
from hbr.voice.recognizer import Heard, Recognizer, Utterance

#: Seconds of the endpointer's decision window, the share of it that must be
#: silence to end an utterance, and how strictly its detector tells speech from
#: noise (3: strictest). The detector's default (loosest) mode kept calling the
#: fading end of a word speech: commands were handed on 420 ms after the last word
#: (median), against 181 ms with these settings (both on a fresh endpointer, before
#: noise suppression), and no command in a sample of 420 espeak-ng clips, clean and
#: at 10 dB, was split in two (docs/benchmarks.md).
WINDOW = 0.21
RATIO = 0.7
VAD_MODE = 3
#: Utterances longer than this are cut (nobody says a command for 6 seconds).
MAX_SECONDS = 6.0


class Listener:
    """Feed 16 kHz int16 blocks of any size; get back what was heard in each
    utterance that ended during them."""

    def __init__(self, recognizer: Recognizer) -> None:
        self.recognizer = recognizer
        self._open: Utterance | None = None
        self._suppressor = NoiseSuppressor()
        #: Whether the microphone is narrowband, judged from the speech heard.
        self.band = BandCheck()
        self.reset()

    def reset(self) -> None:
        """Forget what was heard (used while the game itself is speaking). What the
        noise suppressor has learned about the room is kept."""
        from pocketsphinx import Endpointer

        if self._open is not None:
            self._open.finish()  # abandoned: the recognizer must be free again
            self._open = None
        self._ep = Endpointer(window=WINDOW, ratio=RATIO, vad_mode=VAD_MODE)
        self._framer = Framer(self._ep.frame_bytes // 2)
        self._seconds = 0.0

    def feed(self, block: np.ndarray) -> list[Heard]:
        if self._ep.in_speech:
            self.band.feed(block)  # the raw sound: the suppressor's floor has every band
        done = []
        for frame in self._framer.frames(self._suppressor.process(block)):
            was_speaking = self._ep.in_speech
            out = self._ep.process(frame.tobytes())
            if out is not None:
                if self._open is None:
                    self._open, self._seconds = self.recognizer.listen(), 0.0
                self._open.feed(np.frombuffer(out, np.int16))
                self._seconds += self._ep.frame_length
            ended = was_speaking and not self._ep.in_speech
            if self._open is not None and (ended or self._seconds > MAX_SECONDS):
                done.append(self._open.finish())
                self._open = None
        return done
