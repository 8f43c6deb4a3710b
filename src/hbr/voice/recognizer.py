"""The seam between audio and a game's grammar: one Protocol, several real backends.

A recognizer is built for a list of phrases (the grammar's spoken forms) and
turns one utterance of 16 kHz mono audio into :class:`Heard`. Anything that is
not confidently one of the phrases comes back with ``phrase`` None and a reason.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np


class RecognizerError(RuntimeError):
    """A backend cannot be used; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class Heard:
    """One utterance as recognized.

    ``words``: what the recognizer decoded (may be off-grammar); ``phrase``: the
    grammar phrase accepted, or None; ``rejected``: why not ("silence", "not a
    command"); ``confidence`` 0..1 where the backend gives one.
    """

    words: str
    phrase: str | None
    confidence: float | None
    decode_ms: float
    rejected: str | None = None


class Recognizer(Protocol):
    name: str

    def decode(self, samples: np.ndarray) -> Heard:
        """Recognize one complete utterance (16 kHz mono int16)."""
        ...


def logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))


def speech_seconds(samples: np.ndarray) -> float:
    """How much of the audio a voice activity detector calls speech."""
    from pocketsphinx import Vad

    vad = Vad(mode=2)
    step = vad.frame_bytes // 2
    frames = [samples[i : i + step] for i in range(0, len(samples) - step + 1, step)]
    return float(sum(vad.is_speech(f.tobytes()) for f in frames) * vad.frame_length)
