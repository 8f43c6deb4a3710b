"""What the game played, on the microphone's clock: the echo canceller's reference.

The player hands it every block it gives the loudspeaker (from its audio callback:
a copy and an append, nothing more); the microphone says when it captured which of
its samples. Reading asks for the played sound, resampled to 16 kHz, at the
microphone's sample indices, so :class:`hbr.voice.echo.EchoRemover` can line the two
up. Both streams are placed by the monotonic clock. A callback can run late but never
early, except for the burst that fills the output buffer when a stream opens: so the
microphone's sample 0 is at the earliest time its callbacks imply, and the played
sample k at the latest time that the device's own account of when it plays each block
implies (``offset``, + k / rate), which also follows the output when it falls behind
(an underrun plays silence, and every later sample is heard later). What offset is
left between the two the canceller's delay measurement takes up; it holds only while
the stream stays open, which is why the player keeps one open for the whole game.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

import numpy as np
import soxr

from hbr.voice.audio import RATE, window

#: soxr's quality for resampling the reference. Its quick (cubic) resampling holds
#: nothing back, but what it gets wrong the canceller cannot learn, and leaves in
#: (bench/echo.py, living room: 71% of commands over the Observer against 86%); the
#: high quality holds back some 40 ms, which the canceller waits for (Played.ready).
QUALITY = "HQ"
#: A callback this much later than the stream's place says (seconds) means the output
#: fell behind; less is the callbacks' jitter, and moving the reference for it would
#: undo what the canceller has learnt.
LATE = 0.02
#: Seconds of played sound kept: what the canceller reads lies a second or so back
#: (its filter, the delay measurement), and a game's stream runs for hours.
KEEP = 10
#: Seconds of the microphone's first callbacks that place its clock; later ones are
#: not heeded: PulseAudio sometimes delivers a burst early when another stream starts,
#: and moving the clock then moved the reference and undid what the canceller had learnt.
SETTLE = 2.0
#: Seconds without a block after which the player counts as stopped, not late.
IDLE = 0.1


_END = np.zeros(0, np.float32)  # the block that ends a stream: the resampler gives out the rest


class _Segment:
    """One run of playback (one stream): its blocks and their 16 kHz resampling."""

    def __init__(self, rate: int) -> None:
        self.rate = rate
        #: The latest time a callback implies for the stream's sample 0 (None: nothing played yet).
        self.offset: float | None = None
        self.handed = 0  # samples handed to the device
        self.last = 0.0  # when the last block was handed
        self.blocks: deque[np.ndarray] = deque()
        #: The stream's sample index of the first resampled sample kept.
        self.base = 0
        self._kept = np.zeros(2 * KEEP * RATE, np.float32)  # the last KEEP to 2 KEEP seconds
        self._length = 0
        self._resampler = None if rate == RATE else soxr.ResampleStream(rate, RATE, 1, dtype="float32", quality=QUALITY)

    @property
    def samples(self) -> np.ndarray:
        """The resampled sound kept, from ``base`` (a view: valid until the next resample)."""
        return self._kept[: self._length]

    def resample(self) -> None:
        """Resample what was handed since; past 2 KEEP seconds, forget all but the last KEEP."""
        while self.blocks:
            block = self.blocks.popleft()
            if self._resampler is not None:
                block = self._resampler.resample_chunk(block, last=block is _END)
            if self._length + len(block) > len(self._kept):
                drop = self._length - KEEP * RATE
                self._kept[: self._length - drop] = self._kept[drop : self._length]
                self._length -= drop
                self.base += drop
            self._kept[self._length : self._length + len(block)] = block
            self._length += len(block)

    @property
    def end(self) -> int:
        """The stream's sample index just after the last one resampled."""
        return self.base + len(self.samples)


class Played:
    """The played sound, readable at the microphone's sample indices (thread safe)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        #: The playback stream: one for the whole game (hbr.speech.player keeps it open,
        #: so every reply lands where the last did); a new one replaces it.
        self._segment: _Segment | None = None
        # the time of the microphone's sample 0: the earliest its first callbacks imply
        self._zero: float | None = None
        self._lock = threading.Lock()

    def begin(self, rate: int) -> None:
        """A playback stream opens at ``rate``."""
        with self._lock:
            self._segment = _Segment(rate)

    def block(self, samples: np.ndarray, ahead: float = 0.0) -> None:
        """The player handed these samples (float, full scale 1) to the device just now,
        to be heard ``ahead`` seconds from now by the device's own account (0: unknown).
        With it, a callback that ran late but before the device ran dry does not look
        like an underrun."""
        segment = self._segment
        assert segment is not None, "begin() first"
        now = self.clock()
        start = now + ahead - segment.handed / segment.rate
        if segment.offset is None or start > segment.offset + LATE:
            segment.offset = start  # its first block, or the output fell behind
        segment.handed += len(samples)
        segment.last = now
        segment.blocks.append(np.array(samples, np.float32))

    def end(self) -> None:
        """The playback stream has ended (played out, or stopped)."""
        if self._segment is not None:
            self._segment.blocks.append(_END)

    def ready(self, index: int) -> bool:
        """Whether what was played up to the microphone's sample ``index`` is all known:
        the player has handed the device that far and the resampler has given it out,
        or the player has stopped handing it anything."""
        with self._lock:
            segment = self._segment
            if segment is None or self._zero is None:
                return True
            if segment.offset is None or self.clock() - segment.last > IDLE:
                return True
            segment.resample()
            return index <= round((segment.offset - self._zero) * RATE) + segment.end

    def captured(self, index: int) -> None:
        """The microphone just delivered its samples up to ``index`` (16 kHz count)."""
        if index > SETTLE * RATE:
            return
        start = self.clock() - index / RATE
        with self._lock:
            self._zero = start if self._zero is None else min(self._zero, start)

    def read(self, index: int, count: int) -> np.ndarray:
        """``count`` samples at 16 kHz from the microphone's sample ``index``; zeros
        where nothing was played (or the microphone's clock is not known yet)."""
        with self._lock:
            segment = self._segment
            if self._zero is None or segment is None or segment.offset is None:
                return np.zeros(count)
            segment.resample()
            return window(segment.samples, round((segment.offset - self._zero) * RATE) + segment.base, index, count)
