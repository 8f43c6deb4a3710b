"""Playing audio through sounddevice, interruptibly.

An OutputStream of its own (``sd.play`` would stop a running recording); the
callback only copies from a queue of chunks, so speech can be played sentence by
sentence as it is made, and ``stop()`` aborts playback within one block. With a
:class:`hbr.voice.played.Played` (the game listens through loudspeakers), one stream
stays open for the whole game instead, and every block handed to the device is also
handed to the Played, for the echo canceller.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable
from types import ModuleType

import numpy as np
import soxr

from hbr.devices import AudioDeviceError, explain, load_sounddevice
from hbr.voice.played import Played

#: Output latency (seconds) of the loudspeaker line (_Line). PortAudio's "low" (about
#: 9 ms here) underran dozens of times a minute on two busy cores (the
#: ALSA-on-PulseAudio path, Python's callback waiting for the interpreter), and every
#: underrun moves the echo the canceller had learnt. With two cores kept busy, "north
#: east" said over the Observer on the loopback: at "low", 34 underruns in 40 s and
#: never heard in three tries; on the line at 0.1 s, 4 and 712 underruns in two runs; at
#: 0.15 s and 0.2 s none (0.2 s: also with four busy processes), heard the first time.
#: The cost, measured: the first sound of a game comes 0.2 s later (0.27 s against 0.07
#: s, espeak-ng), and a stop lets what the device holds play out: 0.17 to 0.27 s against
#: a few ms with headphones (the canceller takes that out of what the game hears).
LOUDSPEAKER_LATENCY = 0.2


class _Chunks:
    """Sound queued for the device (thread safe): added as it is made, handed out block
    by block from the device's callback."""

    def __init__(self) -> None:
        self._pending: deque[np.ndarray] = deque()
        self._offset = 0  # samples of the head already handed
        #: Samples queued and not yet handed.
        self.queued = 0
        self._lock = threading.Lock()

    def add(self, samples: np.ndarray) -> None:
        with self._lock:
            self._pending.append(samples)
            self.queued += len(samples)

    def fill(self, out: np.ndarray) -> None:
        """Fill ``out`` with what is queued, silence after it."""
        with self._lock:
            filled = 0
            while filled < len(out) and self._pending:
                head = self._pending[0]
                take = min(len(out) - filled, len(head) - self._offset)
                out[filled : filled + take] = head[self._offset : self._offset + take]
                filled, self._offset = filled + take, self._offset + take
                if self._offset >= len(head):
                    self._pending.popleft()
                    self._offset = 0
            out[filled:] = 0
            self.queued -= filled

    def clear(self) -> None:
        with self._lock:
            self._pending.clear()
            self._offset = self.queued = 0


class _Line:
    """One output stream open for the whole game, through loudspeakers: silence when
    nothing is said. The echo canceller learns where the game's voice is heard; a
    stream opened for each reply lands a fraction of a millisecond elsewhere each time
    (the devices' clocks), and at 4 kHz that is enough to undo what it had learnt:
    sentence by sentence on the loopback, the echo fell back to 3-7 dB down at every
    new stream and took seconds to return to 25-35."""

    def __init__(self, sd: ModuleType, device: int | str | None, rate: int, played: Played) -> None:
        self.rate = rate
        self.played = played
        self._chunks = _Chunks()
        #: Samples handed to the device since the line opened.
        self.handed = 0
        self._lock = threading.Lock()
        played.begin(rate)
        self.stream = sd.OutputStream(
            samplerate=rate, channels=1, dtype="float32", device=device, latency=LOUDSPEAKER_LATENCY,
            callback=self._callback,
        )
        self.stream.start()

    def _callback(self, outdata: np.ndarray, frames: int, time: object, status: object) -> None:
        with self._lock:
            self._chunks.fill(outdata[:, 0])
            self.handed += frames
        dac, now = time.outputBufferDacTime, time.currentTime  # type: ignore[attr-defined]
        self.played.block(outdata[:, 0], max(0.0, dac - now) if dac > 0 else 0.0)

    def add(self, samples: np.ndarray) -> int:
        """Queue ``samples``; returns the ``handed`` count at which they are all handed."""
        with self._lock:
            self._chunks.add(samples)
            return self.handed + self._chunks.queued

    def clear(self) -> None:
        """Drop what is queued (what the device already holds still plays)."""
        with self._lock:
            self._chunks.clear()

    def close(self) -> None:
        self.stream.close()
        self.played.end()


class Player:
    def __init__(self, device: int | str | None = None, played: Played | None = None) -> None:
        self.sd = load_sounddevice()
        self.device = device
        self.played = played
        try:
            self.sd.query_devices(device, "output")
        except (self.sd.PortAudioError, ValueError) as err:
            raise AudioDeviceError(explain(err, "audio output")) from None
        self._stop = threading.Event()
        self._line: _Line | None = None

    def stop(self) -> None:
        self._stop.set()
        if self._line is not None:
            self._line.clear()

    def close(self) -> None:
        """Close the loudspeaker line, if one is open."""
        if self._line is not None:
            self._line.close()
            self._line = None

    def play(self, samples: np.ndarray, rate: int, volume: float = 1.0) -> bool:
        """Play to the end or until ``stop()``; returns False if it was interrupted."""
        return self.stream([samples], rate, volume)

    def stream(self, chunks: Iterable[np.ndarray], rate: int, volume: float = 1.0) -> bool:
        """Play mono int16 ``chunks`` one after the other as they come (the next one is
        made while this one plays), to the end or until ``stop()``; returns False if it
        was interrupted. The stream opens before the first chunk is ready, so opening
        the device and making the first sentence overlap."""
        self._stop.clear()
        if self.played is not None:
            return self._through_line(chunks, rate, volume, self.played)
        chunks_left = _Chunks()
        fed = threading.Event()
        finished = threading.Event()

        def callback(outdata: np.ndarray, frames: int, time: object, status: object) -> None:
            if self._stop.is_set():
                outdata.fill(0)
                raise self.sd.CallbackAbort
            chunks_left.fill(outdata[:, 0])
            if not chunks_left.queued and fed.is_set():
                raise self.sd.CallbackStop

        seconds = 0.0
        try:
            with self.sd.OutputStream(
                samplerate=rate, channels=1, dtype="float32", device=self.device, latency="low",
                callback=callback, finished_callback=finished.set,
            ):
                for chunk in chunks:
                    if self._stop.is_set():
                        break
                    chunks_left.add(np.clip(chunk.astype(np.float32) * volume / 32768.0, -1, 1))
                    seconds += len(chunk) / rate
                fed.set()
                finished.wait(timeout=seconds + 5)
        except self.sd.PortAudioError as err:
            raise AudioDeviceError(f"audio output failed: {err}") from None
        return not self._stop.is_set()

    def _through_line(self, chunks: Iterable[np.ndarray], rate: int, volume: float, played: Played) -> bool:
        """``stream`` through loudspeakers: onto the line, opened at the first sound's
        rate (later sounds at another rate are resampled to it); returns once the last
        sample has been heard, or at ``stop()``."""
        try:
            if self._line is None:
                self._line = _Line(self.sd, self.device, rate, played)
            line = self._line
            end = line.handed
            for chunk in chunks:
                if self._stop.is_set():
                    break
                sound = chunk.astype(np.float32) * volume / 32768.0
                if rate != line.rate:
                    sound = soxr.resample(sound, rate, line.rate)
                end = line.add(np.clip(sound, -1, 1))
            while not self._stop.is_set() and line.handed < end:
                if not line.stream.active:
                    raise AudioDeviceError("audio output failed: the stream stopped")
                self._stop.wait(0.01)
            self._stop.wait(line.stream.latency)  # handed, and now heard
            if self._stop.is_set():
                line.clear()  # a sentence queued just as stop() cleared the line
        except self.sd.PortAudioError as err:
            raise AudioDeviceError(f"audio output failed: {err}") from None
        return not self._stop.is_set()
