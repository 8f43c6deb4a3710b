"""The microphone: live audio cut into utterances by voice activity detection.

Only the shell uses this module. The PortAudio callback only queues blocks (any
work there overflows the input); the device is opened at 16 kHz when it accepts
that, else at its own rate with streaming resampling. The end of an utterance is
found, and the speech decoded as it arrives, by :class:`hbr.voice.endpoint.Listener`.
A device with two channels or more is opened with two and mixed down here
(:class:`hbr.voice.audio.MixDown`), not by the sound server, whose mix-down cancels a
pair of microphones with one wired the other way round into silence.
With a :class:`hbr.voice.played.Played` (loudspeakers), the game's own voice is
taken out of the signal first (:mod:`hbr.voice.echo`), so it can listen while it speaks,
and what it then hears is weighed by how much of it was taken away: what was mostly its
own voice is passed over (:meth:`hbr.voice.echo.EchoRemover.screened`).
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator

import numpy as np

from hbr.devices import AudioDeviceError, explain, load_sounddevice
from hbr.voice.audio import BLOCK_SECONDS, RATE, MixDown, to_int16
from hbr.voice.echo import EchoRemover
from hbr.voice.endpoint import Listener
from hbr.voice.played import Played
from hbr.voice.recognizer import SILENCE, Heard, Recognizer


class Microphone:
    """An open input stream that yields what was heard in each utterance."""

    def __init__(self, device: int | str | None = None, played: Played | None = None) -> None:
        sd = load_sounddevice()
        self.played = played
        self._remover: EchoRemover | None = None
        self._frames = 0  # frames the device has delivered
        self._blocks: queue.Queue[np.ndarray] = queue.Queue()
        self.failed: str | None = None
        try:
            info = sd.query_devices(device, "input")
        except (sd.PortAudioError, ValueError) as err:
            raise AudioDeviceError(explain(err, "microphone")) from None
        try:
            sd.check_input_settings(device, samplerate=RATE, channels=1, dtype="int16")
            self.rate = RATE
        except (sd.PortAudioError, ValueError):
            self.rate = int(info["default_samplerate"])
        self.channels = 1
        if int(info["max_input_channels"]) >= 2:
            try:
                sd.check_input_settings(device, samplerate=self.rate, channels=2, dtype="int16")
                self.channels = 2
            except (sd.PortAudioError, ValueError):
                pass  # one channel, mixed down by the device
        self._mix = MixDown(self.rate)
        self._resampler = None
        if self.rate != RATE:
            import soxr

            self._resampler = soxr.ResampleStream(self.rate, RATE, 1, dtype="int16")
        try:
            self._stream = sd.InputStream(
                device=device, samplerate=self.rate, channels=self.channels, dtype="int16",
                blocksize=int(self.rate * BLOCK_SECONDS), callback=self._callback,
            )
            self._stream.start()
        except sd.PortAudioError as err:
            raise AudioDeviceError(f"cannot open the microphone: {err}") from None
        self.name = str(info["name"])
        #: What the speech heard so far shows to be wrong with the channel: narrowband,
        #: clipping (hbr.voice.channel).
        self.findings: frozenset[str] = frozenset()

    def _callback(self, indata: np.ndarray, frames: int, time: object, status: object) -> None:
        self._blocks.put(indata.copy())
        self._frames += frames
        if self.played is not None:
            self.played.captured(self._frames * RATE // self.rate)

    @property
    def cancelling(self) -> bool:
        """Whether the game's own voice is taken out of what it hears, well enough to
        listen while it speaks (hbr.voice.echo.EchoCanceller.trusted)."""
        return self._remover is not None and self._remover.canceller.trusted

    def close(self) -> None:
        self._stream.close()

    def _samples(self, timeout: float) -> np.ndarray | None:
        try:
            block = self._blocks.get(timeout=timeout)
        except queue.Empty:
            if not self._stream.active:
                self.failed = "its audio stream ended"
            return None
        block = to_int16(self._mix(block))  # one channel comes through as it was
        if self._resampler is not None:
            block = self._resampler.resample_chunk(block)
        return block

    def utterances(
        self,
        recognizer: Recognizer,
        muted: Callable[[], bool] = lambda: False,
        stop: Callable[[], bool] = lambda: False,
        expected: Callable[[], frozenset[str] | None] = lambda: None,
        playing: Callable[[], bool] = lambda: False,
    ) -> Iterator[Heard]:
        """Yield what was heard as each utterance ends. While ``muted()`` (the game is
        speaking) what the microphone hears is dropped; ``stop()`` ends the iteration;
        ``expected()``: the only phrases the next utterance may be (None: any);
        ``playing()``: the game is speaking, heard through its echo canceller. When the
        channel's :attr:`findings` grow with nothing said, silence is yielded, so that
        they are told at once (a muted microphone says nothing, ever)."""
        listener = Listener(recognizer, expected)
        self._remover = EchoRemover(self.played) if self.played is not None else None
        while not stop() and self.failed is None:
            block = self._samples(timeout=0.5)
            if block is None:
                continue
            if self._remover is not None:
                block = self._remover.feed(block)
            if muted():
                listener.reset()
                continue
            heard = listener.feed(block, playing=playing())
            found = listener.channel.findings - self.findings
            self.findings |= found
            if found and not heard:  # nothing said, but what is wrong is told at once
                heard = [Heard("", None, None, 0.0, SILENCE)]
            yield from heard if self._remover is None else map(self._remover.screened, heard)
