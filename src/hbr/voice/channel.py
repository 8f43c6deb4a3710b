"""Telling a narrowband microphone by its sound.

A Bluetooth headset in hands-free mode, like a telephone line, passes only about
300-3400 Hz. pocketsphinx's built-in acoustic model is wideband, and through such a
channel it got 59% of clean commands right instead of 91% (docs/benchmarks.md),
so the player should be told, once, to use another microphone. Speech through a
wideband microphone has some energy above 4 kHz (the hiss of "s", "f", "th": in
the benchmark's clips a median 1.4% of it, with noise 0.9-5.7%); a narrowband
channel has next to none.
"""

from __future__ import annotations

import numpy as np

from hbr.voice.audio import RATE

#: Share of the speech energy above 4 kHz below which the channel is narrowband.
NARROW_SHARE = 1e-3
#: Seconds of speech heard before judging (one short word may have no hiss at all).
NEEDED_SECONDS = 3.0


class BandCheck:
    """Feed it the raw speech the microphone delivered; it says whether the channel
    is narrowband once it has heard enough."""

    def __init__(self) -> None:
        self._high = self._total = self._seconds = 0.0

    def feed(self, samples: np.ndarray) -> None:
        if not len(samples):
            return
        # windowed: a block's cut edges would spread low sound into the high band
        power = np.abs(np.fft.rfft(np.asarray(samples, np.float64) * np.hanning(len(samples)))) ** 2
        hz = np.fft.rfftfreq(len(samples), 1 / RATE)
        self._high += float(power[hz > 4000].sum())
        self._total += float(power[hz > 100].sum())
        self._seconds += len(samples) / RATE

    @property
    def narrowband(self) -> bool | None:
        """True or False, or None while too little speech has been heard."""
        if self._seconds < NEEDED_SECONDS or self._total <= 0:
            return None
        return self._high < NARROW_SHARE * self._total
