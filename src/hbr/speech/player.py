"""Playing audio through sounddevice, interruptibly.

An OutputStream of its own (``sd.play`` would stop a running recording); the
callback only copies from a buffer, and ``stop()`` ends playback within a block.
"""

from __future__ import annotations

import threading

import numpy as np

from hbr.devices import AudioDeviceError, explain, load_sounddevice


class Player:
    def __init__(self, device: int | str | None = None) -> None:
        self.sd = load_sounddevice()
        self.device = device
        try:
            self.sd.query_devices(device, "output")
        except (self.sd.PortAudioError, ValueError) as err:
            raise AudioDeviceError(explain(err, "audio output")) from None
        self._stop = threading.Event()

    def stop(self) -> None:
        self._stop.set()

    def play(self, samples: np.ndarray, rate: int, volume: float = 1.0) -> bool:
        """Play to the end or until ``stop()``; returns False if it was interrupted."""
        self._stop.clear()
        data = np.clip(samples.astype(np.float32) * volume / 32768.0, -1, 1).reshape(-1, 1)
        position = 0
        finished = threading.Event()

        def callback(outdata: np.ndarray, frames: int, time: object, status: object) -> None:
            nonlocal position
            chunk = data[position : position + frames]
            outdata[: len(chunk)] = chunk
            outdata[len(chunk) :] = 0
            position += frames
            if position >= len(data) or self._stop.is_set():
                raise self.sd.CallbackStop

        try:
            with self.sd.OutputStream(
                samplerate=rate, channels=1, dtype="float32", device=self.device,
                callback=callback, finished_callback=finished.set,
            ):
                finished.wait(timeout=len(data) / rate + 5)
        except self.sd.PortAudioError as err:
            raise AudioDeviceError(f"audio output failed: {err}") from None
        return not self._stop.is_set()
