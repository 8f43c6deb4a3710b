"""Telling a poor microphone channel by its sound: a narrowband one, one turned
up so far that the speech is clipped, or one that gives no sound at all.

A Bluetooth headset in hands-free mode, like a telephone line, passes only about
300-3400 Hz. pocketsphinx's built-in acoustic model is wideband, and through such a
channel it got 59% of clean commands right instead of 91% (docs/benchmarks.md),
so the player should be told, once, to use another microphone. Speech through a
wideband microphone has some energy above 4 kHz (the hiss of "s", "f", "th": in
the benchmark's clips a median 1.4% of it, with noise 0.9-5.7%); a narrowband
channel has next to none.

A microphone turned up too far (or a headset's microphone at the lips) cuts the
loud parts of the voice off at the top of what it can carry. Whisper then hears
less: the held-out real recordings played 20 dB louder, clipped, were 85.5% right
and 1.7% taken for another command, against 97.3% and none as recorded (10 dB
louder: 95.0%, none wrong; docs/benchmarks.md). Clipped speech has many samples at
the top; speech that is only loud has few, for its peaks are rare.

A microphone muted by its switch, a key of the laptop or the system's sound settings
gives exact digital silence, where any microphone that listens gives at least its own
faint noise. A player who cannot see the mute light would otherwise speak to a game
that never answers. A microphone that has given nothing but digital silence since the
game began listening is said to be silent; one that gates its own quiet (some headsets
do) is not once it has passed the player's first word (a player who says nothing for the
first :data:`SILENT_SECONDS` is told of it, once).
"""

from __future__ import annotations

import numpy as np

from hbr.voice.audio import RATE

#: A finding: the channel passes only the telephone band.
NARROWBAND = "narrowband"
#: A finding: the speech is clipped at the top of the channel.
CLIPPING = "clipping"
#: Share of the speech energy above 4 kHz below which the channel is narrowband.
NARROW_SHARE = 1e-3
#: A sample this near full scale (int16) or nearer is at the top of the channel:
#: not quite at it, since a clipped stream resampled on its way ripples below it.
TOP = 0.9 * 32767
#: Share of the speech heard (as the listener hears it, short pauses included) at the
#: top from which the microphone clips: well above what a microphone that does not
#: clip gives, for the game must not nag a player whose microphone is fine. Real
#: speakers (bench/clipping.py: 75 of the fitting half, each through a fresh
#: listener): as recorded at most 0.86% (none told); played 3 dB louder, 1 told;
#: 10 dB louder, 23; 20 dB louder, 55. The held-out half alike (docs/benchmarks.md).
CLIPPED_SHARE = 0.02
#: Seconds of speech heard before judging (one short word may have no hiss at all).
NEEDED_SECONDS = 3.0
#: A finding: the microphone has given no sound at all (muted, or turned all the way down).
SILENT = "silent"
#: Samples no further from zero than this (int16) are digital silence: a microphone's
#: own noise, and dither, are further.
SILENT_TOP = 2
#: Seconds of listening with nothing but digital silence after which the microphone is
#: silent: about a command said twice, unanswered.
SILENT_SECONDS = 10.0


class ChannelCheck:
    """Feed it the raw speech the microphone delivered; it says whether the channel
    is narrowband, and whether it clips, once it has heard enough."""

    def __init__(self) -> None:
        self._high = self._total = 0.0
        self._top = self._samples = 0
        self._silent = 0  # samples listened to, all digital silence so far
        self._sound = False  # any sound at all listened to yet

    def listened(self, samples: np.ndarray) -> None:
        """Every block the microphone gave while the game listened (speech or not)."""
        if self._sound or not len(samples):
            return
        if int(np.abs(np.asarray(samples, np.int32)).max()) > SILENT_TOP:
            self._sound = True
        else:
            self._silent += len(samples)

    @property
    def silent(self) -> bool:
        """Whether the microphone has given nothing but digital silence for :data:`SILENT_SECONDS`."""
        return not self._sound and self._silent >= SILENT_SECONDS * RATE

    def feed(self, samples: np.ndarray) -> None:
        if not len(samples):
            return
        # windowed: a block's cut edges would spread low sound into the high band
        power = np.abs(np.fft.rfft(np.asarray(samples, np.float64) * np.hanning(len(samples)))) ** 2
        hz = np.fft.rfftfreq(len(samples), 1 / RATE)
        self._high += float(power[hz > 4000].sum())
        self._total += float(power[hz > 100].sum())
        self._top += int(np.count_nonzero(np.abs(np.asarray(samples, np.int32)) >= TOP))
        self._samples += len(samples)

    @property
    def _heard_enough(self) -> bool:
        return self._samples >= NEEDED_SECONDS * RATE

    @property
    def narrowband(self) -> bool | None:
        """True or False, or None while too little speech has been heard."""
        if not self._heard_enough or self._total <= 0:
            return None
        return self._high < NARROW_SHARE * self._total

    @property
    def top_share(self) -> float:
        """The share of the speech heard so far that was at the top of the channel."""
        return self._top / self._samples if self._samples else 0.0

    @property
    def clipping(self) -> bool | None:
        """True or False, or None while too little speech has been heard."""
        if not self._heard_enough:
            return None
        return self.top_share >= CLIPPED_SHARE

    @property
    def findings(self) -> frozenset[str]:
        """What is wrong with the channel, as far as heard yet (NARROWBAND, CLIPPING, SILENT)."""
        found = ((NARROWBAND, self.narrowband), (CLIPPING, self.clipping), (SILENT, self.silent))
        return frozenset(name for name, was in found if was)
