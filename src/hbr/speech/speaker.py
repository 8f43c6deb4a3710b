"""Speakers: how the Observer's words reach the player.

Every speaker prints the words (one plain line each, for screen readers and for a
presenter's transcript). The voice speaker also speaks them: ``say`` only queues,
a worker thread renders and plays in order, ``stop`` cuts the current sentence and
drops the queue, and ``speaking`` tells the microphone to ignore what it hears.
If the audio fails mid-game it says so once and carries on printing.
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import soxr

from hbr.devices import AudioDeviceError
from hbr.game import Note
from hbr.speech.cache import SpeechCache
from hbr.speech.earcons import RATE as CUE_RATE
from hbr.speech.earcons import render
from hbr.speech.tts import DEFAULT_RATE, Synthesizer, TTSError, clamp_volume, sentences


class Speaker(Protocol):
    def say(self, text: str, cues: Sequence[str] = ()) -> None: ...

    def stop(self) -> None: ...

    def wait(self) -> None: ...

    @property
    def speaking(self) -> bool: ...

    @property
    def rate(self) -> int: ...

    volume: float

    def adjust(self, rate: int | None = None, volume: float | None = None) -> None: ...

    def prepare(self, texts: Iterable[str]) -> None:
        """Get ready to say these soon (speech may be rendered ahead of need)."""
        ...

    def close(self) -> None: ...


class Playback(Protocol):
    """What the voice speaker plays through (hbr.speech.player.Player, or a test's seam)."""

    def stream(self, chunks: Iterable[np.ndarray], rate: int, volume: float = 1.0) -> bool: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


class TextSpeaker:
    """Text only (``--tts none``, or no audio): prints each message at once."""

    def __init__(self, echo: Callable[[str], None] = print, rate: int = DEFAULT_RATE, volume: float = 1.0) -> None:
        self.echo = echo
        self._rate = rate
        self.volume = volume

    @property
    def rate(self) -> int:
        return self._rate

    def say(self, text: str, cues: Sequence[str] = ()) -> None:
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

    def prepare(self, texts: Iterable[str]) -> None:
        pass

    def close(self) -> None:
        pass


_CLOSE = object()


@dataclass(frozen=True, slots=True)
class _Say:
    text: str
    cues: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Rate:
    rate: int


@dataclass(frozen=True, slots=True)
class _Prepare:
    texts: tuple[str, ...]


class VoiceSpeaker:
    """Speaks through a :class:`Synthesizer` and a :class:`Playback`, sentence by
    sentence: the first sentence plays while the next is made, and sentences said
    before come from the cache."""

    def __init__(
        self,
        make_synth: Callable[[], Synthesizer],
        player: Playback,
        echo: Callable[[str], None] = print,
        volume: float = 1.0,
        cache: SpeechCache | None = None,
        cues: Mapping[str, Sequence[Note]] | None = None,
    ) -> None:
        self.echo = echo
        self.player = player
        self.cache = cache or SpeechCache(None)
        #: The game's cues by name, rendered once each when first sounded.
        self.cues = dict(cues or {})
        self._sounds: dict[tuple[str, int], np.ndarray] = {}
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

    def say(self, text: str, cues: Sequence[str] = ()) -> None:
        self.echo(text)
        if self.failed is None:
            self._busy.set()
            self._queue.put(_Say(text, tuple(cues)))

    def adjust(self, rate: int | None = None, volume: float | None = None) -> None:
        if volume is not None:
            self.volume = clamp_volume(volume)
        if rate is not None:
            self._rate = rate
            self._queue.put(_Rate(rate))

    def prepare(self, texts: Iterable[str]) -> None:
        """Render these (the game's common replies) into the cache while nothing is said,
        so that they start at once when needed; again after a change of rate."""
        self._queue.put(_Prepare(tuple(texts)))

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
        self.player.close()

    def _work(self) -> None:
        try:
            self._synth = self._make_synth()
        except TTSError as err:
            self._error = str(err)
            self._ready.set()
            return
        self._ready.set()
        prepared: list[str] = []
        ahead: list[str] = []  # sentences still to render ahead of need, while idle
        while True:
            if ahead and self._queue.empty() and self.failed is None:
                self._render_ahead(ahead.pop())
                continue
            item = self._queue.get()
            if item is _CLOSE:
                return
            if isinstance(item, threading.Event):
                item.set()
            elif isinstance(item, _Rate):
                self._synth.set_rate(item.rate)
                ahead = prepared[::-1]  # the new rate needs its own renderings
            elif isinstance(item, _Prepare):
                prepared = list(dict.fromkeys(s for text in item.texts for s in sentences(text)))
                ahead = prepared[::-1]
            elif isinstance(item, _Say) and self.failed is None:
                self._speak(item.text, item.cues)
            if self._queue.empty():
                self._busy.clear()

    def _render_ahead(self, sentence: str) -> None:
        try:
            for _ in self.cache.render(self._synth, sentence):
                pass
        except TTSError:
            pass  # said when it is needed for real

    def _sound(self, name: str, rate: int) -> np.ndarray:
        if (name, rate) not in self._sounds:
            sound = render(self.cues.get(name, ()))
            self._sounds[name, rate] = sound if rate == CUE_RATE else soxr.resample(sound, CUE_RATE, rate).astype(np.int16)
        return self._sounds[name, rate]

    def _speak(self, text: str, cues: tuple[str, ...]) -> None:
        rate = self._synth.sample_rate
        sounds = [self._sound(name, rate) for name in cues if name in self.cues]
        try:
            self.player.stream(itertools.chain(sounds, self.cache.render(self._synth, text)), rate, self.volume)
        except (TTSError, AudioDeviceError) as err:
            self.failed = str(err)
            self.echo(f"(Speech stopped: {err}. The game goes on in text.)")
