"""Noise suppression in front of the endpointer and the recognizer.

Household noise (a fan, mains hum, hiss from a cheap microphone) is what costs
most commands: at 10 dB signal to noise, pocketsphinx's grammar decoded 81% of the
benchmark's commands right without suppression and 86% with WebRTC's suppressor
(level 2) in front of it (whole clips, 4 voices, 2 speeds); clean speech was not
hurt. Without it, steady noise between commands also kept the endpointer from
ever ending an utterance (docs/benchmarks.md). The suppressor learns
the noise from the stream itself, so it runs on everything the microphone delivers,
including the pauses between commands, not on the speech alone.

What is left is raised where it is quiet (:mod:`hbr.voice.gain`), so that a quiet
speaker stands above the floor below as a loud one does.

Where noise was removed, and in recordings of exact digital silence, a faint fixed
noise floor is put back, as any real microphone has: on digital silence the voice
activity detector keeps calling the fading end of a word speech (the end of a
command was found 290 ms after the last word, median, against 230 ms with the
floor), and pocketsphinx loses the first word.

WebRTC's suppressor comes from the ``webrtc-noise-gain`` package (Home Assistant's
voice pipeline). hbr installs it on Linux only, where it has wheels for every
Python; on macOS and Windows its wheels cover few Python versions, so it is left
out there rather than risk a failed install. Without it, noise is not suppressed
(the gain and the floor are still there) and :attr:`NoiseSuppressor.active` says so.
"""

from __future__ import annotations

import numpy as np

from hbr.voice.audio import Framer, to_int16
from hbr.voice.gain import FRAME, AutoGain

#: Standard deviation of the noise floor (-47 dBFS). pocketsphinx decoded clean
#: commands right, by floor: 8: 83%, 40: 93%, 150: 95%, 300: 93%.
FLOOR = 150.0
#: WebRTC's suppression level, 0 (off) to 4 (most). Commands decoded right at
#: 10 dB, by level: 1: 85.4%, 2: 86.1%, 3: 85.4%, 4: 85.0%.
LEVEL = 2


class NoiseSuppressor:
    """Feed 16 kHz int16 blocks of any size; get back the suppressed samples, raised and
    with the floor, of every whole 10 ms frame so far (a block's leftover waits for the
    next)."""

    def __init__(self, level: int = LEVEL, floor: float = FLOOR) -> None:
        try:
            from webrtc_noise_gain import AudioProcessor
        except ImportError:
            self._processor = None
        else:
            self._processor = AudioProcessor(0, level)
        self._framer = Framer(FRAME)  # WebRTC's suppressor, like the gain, works on 10 ms frames
        self._gain = AutoGain()
        self._floor = floor
        self._noise = np.random.default_rng(0)

    @property
    def active(self) -> bool:
        """Whether noise is suppressed here (False where the package is missing)."""
        return self._processor is not None

    def process(self, samples: np.ndarray, hold: bool = False) -> np.ndarray:
        """``hold``: nothing is raised, the gain kept (:meth:`hbr.voice.gain.AutoGain.process`)."""
        frames = self._framer.frames(samples)
        if self._processor is not None:
            frames = [np.frombuffer(self._processor.Process10ms(frame.tobytes()).audio, np.int16) for frame in frames]
        whole = np.concatenate(frames) if frames else np.zeros(0, np.int16)
        return self._with_floor(self._gain.process(whole, hold))

    def flush(self) -> np.ndarray:
        """The leftover, padded with quiet to a whole frame (end of a recording)."""
        rest = len(self._framer.pending)
        if not rest:
            return np.zeros(0, np.int16)
        return self.process(np.zeros(FRAME - rest, np.int16))[:rest]

    def _with_floor(self, samples: np.ndarray) -> np.ndarray:
        if not self._floor:
            return samples
        noisy = samples + self._noise.normal(0.0, self._floor, len(samples))
        return to_int16(noisy)
