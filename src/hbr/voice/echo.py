"""Removing the game's own voice from the microphone, so the player can talk over it.

Through loudspeakers the microphone hears the Observer as loudly as the player, or
louder. The game knows exactly what it plays (the reference), so what the room
makes of it can be learnt and taken away: an adaptive filter models the path from
the loudspeaker to the microphone and subtracts its estimate of the echo.

The filter is linear only (a partitioned-block frequency-domain NLMS filter, as in
speexdsp's and WebRTC's cancellers), with nothing after it that suppresses what it
could not remove: a suppressor guesses, and guessing wrong takes the player's words
away in double talk, which is the one moment that matters here. What echo is left
is turned away later: by the recognizer (it is not a command), by the live loop
(anything but a command heard while the game speaks is passed over), and here, by
how much of an utterance was taken away (:meth:`EchoRemover.screened`): the player's
voice is not, so an utterance the canceller brought far down is what it could not
remove of the game's own, whatever the recognizer made of it.

Two things make it hold up in a real room:

- Double talk. While the player speaks, the error the filter learns from is the
  player's voice, and plain NLMS unlearns the room. So two filters run (Ochiai's
  two-path method, as speexdsp does): a background filter that always adapts, and a
  foreground filter that makes the output and only takes the background's weights
  when they remove more of the echo; a background that diverged is reset from the
  foreground.
- Delay. Where the played audio is heard, relative to when it was handed to the
  device, is known only to some tens of milliseconds (the devices' clocks and
  buffers), and it changes each time playback starts. The delay is measured from
  the signals (generalised cross-correlation with phase transform), and the
  reference shifted so the echo falls early in the filter, whose length then covers
  the room's reverberation.

Everything here is pure numpy over 16 kHz samples: the shell gives the microphone's
samples and a way to read the reference at any sample index of the microphone's
clock (:class:`hbr.voice.played.Played`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from typing import Protocol

import numpy as np

from hbr.voice.audio import RATE, to_int16, window
from hbr.voice.recognizer import NOT_A_COMMAND, Heard

#: Samples per block (16 ms): the filter's hop and the extra latency it adds.
BLOCK = 256
#: Blocks in the filter: 16 blocks cover 256 ms of the echo path, a living room's
#: reverberation down to some 30 dB.
PARTITIONS = 16
#: How early in the filter the measured delay puts the echo, in samples: room for
#: the delay to be measured a little late.
LEAD = 2 * BLOCK
#: The NLMS step of the background filter (0 to 2; larger learns faster and
#: unlearns faster in double talk, which the foreground filter guards against).
#: bench/echo.py, living room: 0.6 and 1.0 both understood 81% of the commands said
#: over the Observer; with 0.6 three of its own words were taken in its first 8 s, with 1.0 none.
STEP = 1.0
#: How far the delay is searched for, either way, in samples (0.3 s).
MAX_LAG = int(0.3 * RATE)
#: Reference samples over which the delay is measured (1 s).
DELAY_WINDOW = RATE
#: The correlation peak must stand this far above the rest to be believed.
PEAK_RATIO = 4.0
#: Microphone samples held back at most while the reference catches up (0.1 s); then
#: the player counts as stalled and the block is cancelled with what is known.
HOLD = RATE // 10
#: The echo must be this many dB down for TRUST_BLOCKS of playback (1 s) before the
#: game listens while it speaks: until then (the first seconds in a room, a loudspeaker
#: that distorts) the microphone is deaf while it speaks, as without a canceller.
TRUST_DB = 15.0
TRUST_BLOCKS = RATE // BLOCK
#: ... and no longer trusted after DISTRUST_BLOCKS (3 s of playback) this little down.
DISTRUST_DB = 6.0
DISTRUST_BLOCKS = 3 * RATE // BLOCK
#: Seconds of the microphone's sound kept for EchoRemover.screened: an utterance's longest.
SHARE_SECONDS = 12
#: An utterance the canceller brought more than this far down (dB) is the game's own
#: voice. The player's voice is not taken away: said over the game as loud as its echo,
#: an utterance came down 0 to 8 dB, 6 dB quieter than the echo 7 to 13 dB
#: (bench/echo.py); what the recognizer took for a command in what the canceller
#: left of the game's voice alone came down 18 to 45 dB (the simulated hall; the
#: loopback on a machine kept busy, where the canceller briefly lost its place). Not
#: against how far the echo usually comes down: it is when it comes down less than
#: usual that its words are heard. A player more than some 10 dB quieter than the
#: game's voice at the microphone is not heard while it speaks, as without a canceller.
OWN_VOICE_DB = 15.0
#: ... and so is one the canceller made more than this louder (dB): the player's voice
#: cannot, but a reference placed where the device had not played it yet (the output
#: fell behind on a busy machine) makes the canceller add the game's voice, turned over,
#: to a microphone that heard none of it (the loopback: 90 dB louder, and taken as "pause").
ADDED_DB = 6.0
#: Reference quieter than this (RMS, full scale 1) counts as silence: nothing to cancel.
QUIET = 1e-4

class Reference(Protocol):
    """What was played, at the microphone's sample indices (hbr.voice.played.Played)."""

    def read(self, index: int, count: int) -> np.ndarray:
        """``count`` samples (float, full scale 1) from ``index``; zeros where nothing was played."""
        ...

    def ready(self, index: int) -> bool:
        """Whether what was played up to ``index`` is known (the player may be behind)."""
        ...


class Recorded:
    """A reference known whole before it is read, already on the microphone's clock:
    for measuring the canceller on recordings (bench/echo.py) and in tests."""

    def __init__(self, samples: np.ndarray) -> None:
        self.samples = samples

    def read(self, index: int, count: int) -> np.ndarray:
        return window(self.samples, 0, index, count)

    def ready(self, index: int) -> bool:
        return True


def measure_delay(near: np.ndarray, far: np.ndarray, max_lag: int = MAX_LAG) -> int | None:
    """The lag, in samples, at which ``far`` best explains ``near`` (positive: heard
    later than played), or None when no lag stands out (no echo, or too little
    played). GCC-PHAT: whitening the spectra makes the peak sharp on speech and
    leaves the room's colouring out."""
    n = 1 << int(np.ceil(np.log2(len(near) + len(far))))
    cross = np.fft.rfft(near, n) * np.conj(np.fft.rfft(far, n))
    cross /= np.abs(cross) + 1e-12
    corr = np.fft.irfft(cross, n)
    lags = np.concatenate([corr[: max_lag + 1], corr[-max_lag:]])
    values = np.concatenate([np.arange(max_lag + 1), np.arange(-max_lag, 0)])
    best = int(np.argmax(lags))
    others = np.delete(np.abs(lags), np.arange(best - 8, best + 9) % len(lags))
    if lags[best] < PEAK_RATIO * float(np.sqrt(np.mean(others**2))):
        return None
    return int(values[best])


class EchoCanceller:
    """A two-path partitioned-block frequency-domain NLMS filter over 16 kHz blocks."""

    def __init__(self, partitions: int = PARTITIONS, step: float = STEP) -> None:
        self.partitions = partitions
        self.step = step
        bins = BLOCK + 1
        self._x = np.zeros((partitions, bins), np.complex128)  # reference spectra, newest first
        self._background = np.zeros((partitions, bins), np.complex128)
        self._foreground = np.zeros((partitions, bins), np.complex128)
        self._far = np.zeros(2 * BLOCK)
        self._power = np.zeros(bins)
        # smoothed output energies of both filters and of the microphone
        self._e_fore = self._e_back = self._e_near = 0.0
        #: How far down the echo is, in dB, smoothed over about half a second of playback.
        self.removed_db = 0.0
        #: Whether the echo has been removed well enough to listen while the game speaks.
        self.trusted = False
        self._good = self._bad = 0  # blocks of playback in a row above TRUST_DB / below DISTRUST_DB

    def block(self, near: np.ndarray, far: np.ndarray) -> np.ndarray:
        """One block of BLOCK samples each (float): the microphone's with the echo of
        ``far`` removed."""
        self._far = np.concatenate([self._far[BLOCK:], far])
        self._x = np.roll(self._x, 1, axis=0)
        self._x[0] = np.fft.rfft(self._far)
        fore: np.ndarray = near - self._echo(self._foreground)
        back: np.ndarray = near - self._echo(self._background)
        loud = float(np.mean(far**2)) > QUIET**2
        if loud:
            self._adapt(back)
            self._compare(near, fore, back)
        return fore

    def _echo(self, weights: np.ndarray) -> np.ndarray:
        echo: np.ndarray = np.fft.irfft(np.sum(weights * self._x, axis=0))[BLOCK:]
        return echo

    def _adapt(self, error: np.ndarray) -> None:
        spectrum = np.fft.rfft(np.concatenate([np.zeros(BLOCK), error]))
        self._power = 0.5 * self._power + 0.5 * np.sum(np.abs(self._x) ** 2, axis=0)
        norm = self._power + 1e-6 * 4 * BLOCK * BLOCK
        gradient = np.conj(self._x) * spectrum / norm
        taps = np.fft.irfft(gradient, axis=1)
        taps[:, BLOCK:] = 0  # the gradient constraint: a linear, not a circular, filter
        self._background += self.step * np.fft.rfft(taps, axis=1)

    def _compare(self, near: np.ndarray, fore: np.ndarray, back: np.ndarray) -> None:
        """Hand the background's weights on when they cancel more; reset them when
        double talk has made them worse than no filter or far worse than the foreground."""
        keep = 0.8
        self._e_fore = keep * self._e_fore + (1 - keep) * float(np.sum(fore**2))
        self._e_back = keep * self._e_back + (1 - keep) * float(np.sum(back**2))
        self._e_near = keep * self._e_near + (1 - keep) * float(np.sum(near**2))
        if self._e_back < 0.7 * self._e_fore and self._e_back < self._e_near:
            self._foreground = self._background.copy()
            self._e_fore = self._e_back
        elif self._e_back > 4 * self._e_fore or self._e_back > 2 * self._e_near:
            self._background = self._foreground.copy()
            self._e_back = self._e_fore
        self._judge()

    def _judge(self) -> None:
        """Trust the canceller once the echo has stayed TRUST_DB down for TRUST_BLOCKS of
        playback; stop trusting it after DISTRUST_BLOCKS below DISTRUST_DB (the room or
        the device changed). The player talking over the game only lowers the measure
        for a second or two, which neither decision notices."""
        removed = 10 * np.log10((self._e_near + 1e-12) / (self._e_fore + 1e-12))
        self.removed_db = 0.95 * self.removed_db + 0.05 * float(removed)
        self._good = self._good + 1 if self.removed_db >= TRUST_DB else 0
        self._bad = self._bad + 1 if self.removed_db < DISTRUST_DB else 0
        if self._good >= TRUST_BLOCKS:
            self.trusted = True
        elif self._bad >= DISTRUST_BLOCKS:
            self.trusted = False


class EchoRemover:
    """Takes the game's own voice out of the microphone's stream, block by block.

    Feed it the microphone's samples (int16, any block size) in order; the reference
    is read through ``reference`` at the microphone's sample indices. Output has the
    same total length, late by less than one block, or by up to HOLD samples while
    the player has not yet handed the device what the echo needs. While nothing is being played
    the samples pass through untouched (but late by the same amount)."""

    def __init__(self, reference: Reference, canceller: EchoCanceller | None = None) -> None:
        self.reference = reference
        self.canceller = canceller or EchoCanceller()
        #: Where the echo is heard, in samples after the reference says it was played
        #: (None: not measured yet); the reference is read LEAD samples earlier still.
        self.delay: int | None = None
        self._index = 0  # microphone samples taken in
        self._pending = np.zeros(0)
        self._near_history = np.zeros(0)
        self._far_since_measure = 0
        self._candidate: int | None = None  # a new delay measured once, adopted when measured again
        # the energy of each recent block before and after the echo was taken out
        self._energies: deque[tuple[float, float]] = deque(maxlen=SHARE_SECONDS * RATE // BLOCK)

    def feed(self, samples: np.ndarray) -> np.ndarray:
        self._pending = np.concatenate([self._pending, samples.astype(np.float64) / 32768.0])
        out = []
        while len(self._pending) >= BLOCK:
            if len(self._pending) < HOLD and not self.reference.ready(self._index - self._shift + BLOCK):
                break  # the reference for this block is still on its way to the device
            near, self._pending = self._pending[:BLOCK], self._pending[BLOCK:]
            out.append(self._block(near))
        cleaned = np.concatenate(out) if out else np.zeros(0)
        return to_int16(cleaned * 32768.0)

    def _block(self, near: np.ndarray) -> np.ndarray:
        start = self._index
        self._index += BLOCK
        self._near_history = np.concatenate([self._near_history, near])[-(DELAY_WINDOW + 2 * MAX_LAG) :]
        played = self.reference.read(start, BLOCK)
        if float(np.max(np.abs(played), initial=0.0)) > QUIET:
            self._far_since_measure += BLOCK
        if self._far_since_measure >= DELAY_WINDOW:
            self._far_since_measure = 0
            if not self.canceller.trusted:  # a player talking over it would move the peak
                self._measure()
        cleaned = self.canceller.block(near, self.reference.read(start - self._shift, BLOCK))
        self._energies.append((float(np.sum(near**2)), float(np.sum(cleaned**2))))
        return cleaned

    def screened(self, heard: Heard) -> Heard:
        """``heard`` as it is, or passed over (NOT_A_COMMAND) when taking the echo out
        brought its utterance more than OWN_VOICE_DB down, or made it more than ADDED_DB
        louder: what was heard then was the game's own voice, as the canceller left it
        or put it there."""
        blocks = list(self._energies)[-max(1, round(heard.since * RATE / BLOCK)) :]
        near = sum(energy for energy, _ in blocks)
        left = sum(energy for _, energy in blocks)
        if heard.phrase is None or -ADDED_DB <= 10 * np.log10((near + 1e-12) / (left + 1e-12)) <= OWN_VOICE_DB:
            return heard
        return replace(heard, phrase=None, rejected=NOT_A_COMMAND)

    @property
    def _shift(self) -> int:
        """How much later than the reference says the echo is read from it."""
        return (self.delay or 0) - LEAD

    def _measure(self) -> None:
        """Measure the delay over the last second of reference against the microphone
        around it. The first delay is taken at once; a change only when measured twice
        in a row, since a strong reflection sometimes outpeaks the direct sound, and
        every move of the reference costs the filter what it had learnt. Measured only
        while the canceller is not trusted: once it removes the echo well, the delay is
        known, and a measure taken while the player talks could be thrown off."""
        end = self._index
        if len(self._near_history) < DELAY_WINDOW + 2 * MAX_LAG:
            return
        far = self.reference.read(end - DELAY_WINDOW - MAX_LAG, DELAY_WINDOW)
        near = self._near_history
        lag = measure_delay(near, np.concatenate([np.zeros(MAX_LAG), far]), MAX_LAG)
        if lag is None or (self.delay is not None and abs(lag - self.delay) <= BLOCK // 8):
            self._candidate = None
        elif self.delay is None or (self._candidate is not None and abs(lag - self._candidate) <= BLOCK // 8):
            self.delay, self._candidate = lag, None
        else:
            self._candidate = lag
