"""Playing audio through sounddevice, interruptibly.

An OutputStream of its own (``sd.play`` would stop a running recording); the
callback only copies from a queue of chunks, so speech can be played sentence by
sentence as it is made, and ``stop()`` aborts playback within one block. With a
:class:`hbr.voice.played.Played`, every block handed to the device is also handed
to it, for the echo canceller.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable

import numpy as np

from hbr.devices import AudioDeviceError, explain, load_sounddevice
from hbr.voice.played import Played


#: Output latency (seconds) when the game listens through loudspeakers (with a
#: :class:`Played`). PortAudio's "low" (about 10 ms here) underran dozens of times a
#: minute on two busy cores (the ALSA-on-PulseAudio path, Python's callback waiting for
#: the interpreter), and every underrun moves the echo the canceller had learnt. With
#: two cores kept busy: 34 underruns in 40 s at "low", and "north east" said three times
#: over the Observer never heard; 14 at 0.1 s; none at 0.15, 0.2 or 0.25 s, also with
#: four busy processes, and heard the first time. The cost, measured: the Observer's
#: first sound comes 0.2 s later (0.27 s against 0.07 s, espeak-ng), a stop takes 45-70
#: ms against a few (PortAudio drops what is buffered). With headphones, where nothing
#: is cancelled, "low" stays.
LOUDSPEAKER_LATENCY = 0.2


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

    def stop(self) -> None:
        self._stop.set()

    def play(self, samples: np.ndarray, rate: int, volume: float = 1.0) -> bool:
        """Play to the end or until ``stop()``; returns False if it was interrupted."""
        return self.stream([samples], rate, volume)

    def stream(self, chunks: Iterable[np.ndarray], rate: int, volume: float = 1.0) -> bool:
        """Play mono int16 ``chunks`` one after the other as they come (the next one is
        made while this one plays), to the end or until ``stop()``; returns False if it
        was interrupted. The stream opens before the first chunk is ready, so opening
        the device and making the first sentence overlap."""
        self._stop.clear()
        pending: deque[np.ndarray] = deque()
        offset = 0
        fed = threading.Event()
        finished = threading.Event()

        def callback(outdata: np.ndarray, frames: int, time: object, status: object) -> None:
            nonlocal offset
            if self._stop.is_set():
                outdata.fill(0)
                raise self.sd.CallbackAbort
            filled = 0
            while filled < frames and pending:
                head = pending[0]
                take = min(frames - filled, len(head) - offset)
                outdata[filled : filled + take, 0] = head[offset : offset + take]
                filled, offset = filled + take, offset + take
                if offset >= len(head):
                    pending.popleft()
                    offset = 0
            outdata[filled:] = 0
            if self.played is not None:
                self.played.block(outdata[:, 0])
            if not pending and fed.is_set():
                raise self.sd.CallbackStop

        seconds = 0.0
        if self.played is not None:
            self.played.begin(rate)
        try:
            with self.sd.OutputStream(
                samplerate=rate, channels=1, dtype="float32", device=self.device,
                latency="low" if self.played is None else LOUDSPEAKER_LATENCY,
                callback=callback, finished_callback=finished.set,
            ):
                for chunk in chunks:
                    if self._stop.is_set():
                        break
                    pending.append(np.clip(chunk.astype(np.float32) * volume / 32768.0, -1, 1))
                    seconds += len(chunk) / rate
                fed.set()
                finished.wait(timeout=seconds + 5)
        except self.sd.PortAudioError as err:
            raise AudioDeviceError(f"audio output failed: {err}") from None
        finally:
            if self.played is not None:
                self.played.end()
        return not self._stop.is_set()
