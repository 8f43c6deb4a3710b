"""Text to speech: what every speech engine offers, and the words-a-minute they share.

Two engines speak for the Observer: a Piper neural voice (:mod:`hbr.speech.piper`)
and the system's voices through pyttsx3 (:mod:`hbr.speech.system`, espeak-ng on
Linux). Both render text to samples; the speaker plays them, so volume, interruption
and the audio path are the same for every engine. A rate is given in espeak's
words a minute, and a Piper voice is calibrated to it, so "faster" and a saved
rate mean the same speed whichever voice speaks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

import numpy as np

#: The speech preferences every engine honours, with their limits: kept here only
#: (the settings file, the session's "faster" and "louder", and the speakers use them).
DEFAULT_RATE = 175  # words per minute
RATE_LIMITS = (80, 450)
VOLUME_LIMITS = (0.05, 1.0)


class TTSError(RuntimeError):
    """Speech synthesis is unavailable; the message says why."""


class Synthesizer(Protocol):
    """One speech engine with one voice; used from one thread at a time."""

    #: Names the engine and voice, e.g. "piper:en_US-joe-medium" (the speech cache's key).
    @property
    def name(self) -> str: ...

    @property
    def rate(self) -> int: ...

    @property
    def sample_rate(self) -> int: ...

    def set_rate(self, rate: int) -> None: ...

    def synthesize(self, text: str) -> tuple[np.ndarray, int]:
        """``text`` as mono int16 samples and their rate."""
        ...


#: How much one "faster" or "louder" changes.
RATE_STEP = 25
VOLUME_STEP = 0.15


@dataclass(frozen=True, slots=True)
class SpeechPrefs:
    """The voice's rate (words a minute) and volume (0.05 to 1), always within their limits."""

    rate: int = DEFAULT_RATE
    volume: float = 1.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "rate", clamp_rate(self.rate))
        object.__setattr__(self, "volume", clamp_volume(self.volume))

    def faster(self) -> SpeechPrefs:
        return SpeechPrefs(self.rate + RATE_STEP, self.volume)

    def slower(self) -> SpeechPrefs:
        return SpeechPrefs(self.rate - RATE_STEP, self.volume)

    def louder(self) -> SpeechPrefs:
        return SpeechPrefs(self.rate, self.volume + VOLUME_STEP)

    def quieter(self) -> SpeechPrefs:
        return SpeechPrefs(self.rate, self.volume - VOLUME_STEP)


def clamp_rate(rate: int) -> int:
    return max(RATE_LIMITS[0], min(RATE_LIMITS[1], int(rate)))


def clamp_volume(volume: float) -> float:
    return round(max(VOLUME_LIMITS[0], min(VOLUME_LIMITS[1], volume)), 2)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")
_CLAUSE_END = re.compile(r"(?<=[,:;])\s+(?=\S)")
#: A first sentence longer than this many words starts with its first clause alone.
FIRST_CHUNK_WORDS = 5


def sentences(text: str) -> list[str]:
    """``text`` cut after each full stop, question or exclamation mark: the units that
    are spoken as soon as they are ready and that the speech cache keeps. A long
    first sentence gives its first clause ("Game over:") alone, for the time to the
    first sound grows with the length of the first unit (about 10 ms a word for a
    Piper voice on two cores), and the rest is made while it plays."""
    parts = [part for part in _SENTENCE_END.split(text.strip()) if part]
    if parts and len(parts[0].split()) > FIRST_CHUNK_WORDS:
        head = _CLAUSE_END.split(parts[0], maxsplit=1)
        if len(head) == 2 and len(head[0].split()) >= 2:
            parts[:1] = head
    return parts


def clauses(sentence: str, longest: int) -> list[str]:
    """A sentence cut after its commas, colons and semicolons into pieces of at most
    ``longest`` words where that can be (a clause longer than that stays whole), each
    piece as long as it may be: for a voice whose memory grows with the length of
    what it says at once (:mod:`hbr.speech.piper`). Each piece keeps its mark, so it
    is still said as a clause that goes on."""
    pieces: list[str] = []
    for part in _CLAUSE_END.split(sentence.strip()):
        if pieces and len(pieces[-1].split()) + len(part.split()) <= longest:
            pieces[-1] += " " + part
        elif part:
            pieces.append(part)
    return pieces
