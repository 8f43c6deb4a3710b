"""The microphone: live audio cut into utterances by voice activity detection.

Only the shell uses this module. The PortAudio callback only queues blocks (any
work there overflows the input); the device is opened at 16 kHz when it accepts
that, else at its own rate with streaming resampling. The end of an utterance is
found by pocketsphinx's endpointer (a WebRTC voice activity detector over a short
window), tuned so that a command is handed on about a quarter second after the
speaker stops.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from hbr.voice.audio import RATE

#: Seconds of the endpointer's decision window, and the share of it that must be
#: silence to end an utterance (0.3 * 0.8 = 0.24 s after the last word).
WINDOW = 0.3
RATIO = 0.8
#: Utterances longer than this are cut (nobody says a command for 6 seconds).
MAX_SECONDS = 6.0


class AudioDeviceError(RuntimeError):
    """No usable audio device, or PortAudio missing; the message says what to do."""


@dataclass(frozen=True, slots=True)
class Device:
    index: int
    name: str
    inputs: int
    outputs: int
    rate: float
    default: bool


def _sounddevice():  # type: ignore[no-untyped-def]
    try:
        import sounddevice
    except OSError as err:  # the wheel does not bundle PortAudio on Linux
        raise AudioDeviceError(f"PortAudio is not installed ({err}); on Debian: apt-get install libportaudio2") from None
    return sounddevice


def list_devices() -> list[Device]:
    sd = _sounddevice()
    try:
        found = sd.query_devices()
        default_in, default_out = sd.default.device
    except sd.PortAudioError as err:
        raise AudioDeviceError(f"cannot list audio devices: {err}") from None
    return [
        Device(
            i, d["name"], d["max_input_channels"], d["max_output_channels"], d["default_samplerate"],
            i in (default_in, default_out),
        )
        for i, d in enumerate(found)
    ]


class Microphone:
    """An open input stream that yields utterances (16 kHz mono int16)."""

    def __init__(self, device: int | str | None = None) -> None:
        sd = _sounddevice()
        self._blocks: queue.Queue[np.ndarray] = queue.Queue()
        self.failed: str | None = None
        try:
            info = sd.query_devices(device, "input")
        except (sd.PortAudioError, ValueError) as err:
            raise AudioDeviceError(f"no microphone: {err}") from None
        try:
            sd.check_input_settings(device, samplerate=RATE, channels=1, dtype="int16")
            self.rate = RATE
        except (sd.PortAudioError, ValueError):
            self.rate = int(info["default_samplerate"])
        self._resampler = None
        if self.rate != RATE:
            import soxr

            self._resampler = soxr.ResampleStream(self.rate, RATE, 1, dtype="int16")
        try:
            self._stream = sd.InputStream(
                device=device, samplerate=self.rate, channels=1, dtype="int16",
                blocksize=int(self.rate * 0.03), callback=self._callback,
            )
            self._stream.start()
        except sd.PortAudioError as err:
            raise AudioDeviceError(f"cannot open the microphone: {err}") from None
        self.name = str(info["name"])

    def _callback(self, indata: np.ndarray, frames: int, time: object, status: object) -> None:
        self._blocks.put(indata[:, 0].copy())

    def close(self) -> None:
        self._stream.close()

    def _samples(self, timeout: float) -> np.ndarray | None:
        try:
            block = self._blocks.get(timeout=timeout)
        except queue.Empty:
            if not self._stream.active:
                self.failed = "the microphone stopped"
            return None
        if self._resampler is not None:
            block = self._resampler.resample_chunk(block)
        return block

    def utterances(self, muted: Callable[[], bool] = lambda: False, stop: Callable[[], bool] = lambda: False) -> Iterator[np.ndarray]:
        """Yield each utterance as it ends. While ``muted()`` (the game is speaking)
        what the microphone hears is dropped; ``stop()`` ends the iteration."""
        from pocketsphinx import Endpointer

        endpointer = Endpointer(window=WINDOW, ratio=RATIO)
        step = endpointer.frame_bytes // 2
        pending = np.zeros(0, np.int16)
        speech: list[bytes] = []
        while not stop() and self.failed is None:
            block = self._samples(timeout=0.5)
            if block is None:
                continue
            if muted():
                pending, speech = np.zeros(0, np.int16), []
                endpointer = Endpointer(window=WINDOW, ratio=RATIO)
                continue
            pending = np.concatenate([pending, block])
            while len(pending) >= step:
                frame, pending = pending[:step], pending[step:]
                was_speaking = endpointer.in_speech
                out = endpointer.process(frame.tobytes())
                if out is not None:
                    speech.append(out)
                ended = was_speaking and not endpointer.in_speech
                if ended or len(speech) * endpointer.frame_length > MAX_SECONDS:
                    yield np.frombuffer(b"".join(speech), np.int16)
                    speech = []
