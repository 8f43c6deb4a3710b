"""Speakers: how the Observer's words reach the player.

Every speaker prints the words (one plain line each, for screen readers and for a
presenter's transcript). The voice speaker also speaks them: ``say`` only queues,
a worker thread renders and plays in order, ``stop`` cuts the current sentence and
drops the queue, and ``speaking`` tells the microphone to ignore what it hears.
If the audio fails mid-game it says so once and carries on printing.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np

from hbr.devices import AudioDeviceError
from hbr.speech.earcons import RATE as CUE_RATE
from hbr.speech.tts import Synthesizer, TTSError


class Speaker(Protocol):
    def say(self, text: str, cues: Sequence[np.ndarray] = ()) -> None: ...

    def stop(self) -> None: ...

    def wait(self) -> None: ...

    @property
    def speaking(self) -> bool: ...

    @property
    def rate(self) -> int: ...

    volume: float

    def adjust(self, rate: int | None = None, volume: float | None = None) -> None: ...

    def close(self) -> None: ...


class Playback(Protocol):
    """What the voice speaker plays through (hbr.speech.player.Player, or a test's seam)."""

    def play(self, samples: np.ndarray, rate: int, volume: float = 1.0) -> bool: ...

    def stop(self) -> None: ...


class TextSpeaker:
    """Text only (``--tts none``, or no audio): prints each message at once."""

    def __init__(self, echo: Callable[[str], None] = print, rate: int = 175, volume: float = 1.0) -> None:
        self.echo = echo
        self._rate = rate
        self.volume = volume

    @property
    def rate(self) -> int:
        return self._rate

    def say(self, text: str, cues: Sequence[np.ndarray] = ()) -> None:
        self.echo(text)

    def stop(self) -> None:
        pass

    def wait(self) -> None:
        pass

    @property
    def speaking(self) -> bool:
        return False

    def adjust(self, rate: int | None = None, volume: float | None = None) -> None:
        """Remembered (and saved by the session) for when speech is available."""
        self._rate = rate if rate is not None else self._rate
        self.volume = volume if volume is not None else self.volume

    def close(self) -> None:
        pass


_CLOSE = object()


class VoiceSpeaker:
    """Speaks through a :class:`Synthesizer` and a player with ``play(samples, rate, volume)``."""

    def __init__(
        self,
        make_synth: Callable[[], Synthesizer],
        player: Playback,
        echo: Callable[[str], None] = print,
        volume: float = 1.0,
    ) -> None:
        self.echo = echo
        self.player = player
        self.volume = volume
        self.failed: str | None = None
        self._queue: queue.Queue[object] = queue.Queue()
        self._busy = threading.Event()
        self._ready = threading.Event()
        self._error: str | None = None
        self._make_synth = make_synth
        self._thread = threading.Thread(target=self._work, name="speaker", daemon=True)
        self._thread.start()
        self._ready.wait(timeout=30)
        if self._error:
            raise TTSError(self._error)
        self._rate = self._synth.rate

    @property
    def rate(self) -> int:
        return self._rate

    @property
    def speaking(self) -> bool:
        return self._busy.is_set() or not self._queue.empty()

    def say(self, text: str, cues: Sequence[np.ndarray] = ()) -> None:
        self.echo(text)
        if self.failed is None:
            self._busy.set()
            self._queue.put((text, tuple(cues)))

    def adjust(self, rate: int | None = None, volume: float | None = None) -> None:
        if volume is not None:
            self.volume = max(0.05, min(1.0, volume))
        if rate is not None:
            self._rate = rate
            self._queue.put(("rate", rate))

    def stop(self) -> None:
        try:
            while True:
                self._queue.get_nowait()
        except queue.Empty:
            pass
        self.player.stop()

    def wait(self, timeout: float = 60) -> None:
        """Block until everything queued has been spoken (or audio failed)."""
        done = threading.Event()
        self._queue.put(done)
        done.wait(timeout)

    def close(self) -> None:
        self.stop()
        self._queue.put(_CLOSE)
        self._thread.join(timeout=5)

    def _work(self) -> None:
        try:
            self._synth = self._make_synth()
        except TTSError as err:
            self._error = str(err)
            self._ready.set()
            return
        self._ready.set()
        while True:
            item = self._queue.get()
            if item is _CLOSE:
                return
            if isinstance(item, threading.Event):
                item.set()
            elif isinstance(item, tuple) and item[0] == "rate":
                self._synth.set_rate(item[1])
            elif isinstance(item, tuple) and self.failed is None:
                self._speak(*item)
            if self._queue.empty():
                self._busy.clear()

    def _speak(self, text: str, cues: tuple[np.ndarray, ...]) -> None:
        try:
            samples, rate = self._synth.synthesize(text)
            if cues and rate == CUE_RATE:
                samples = np.concatenate([*cues, samples])
            self.player.play(samples, rate, self.volume)
        except (TTSError, AudioDeviceError) as err:
            self.failed = str(err)
            self.echo(f"(Speech stopped: {err}. The game goes on in text.)")
