"""A second opinion on a short word that Whisper read as another word: a linear model
over how Whisper's encoder heard the utterance.

Whisper tiny.en's own reading is where real people are lost: "Done" for "down", "Now"
for "no", "This" for "yes", "On" for "up". Its forced scoring finds the right phrase
for most of them, but not surely enough to take, since other words come as close. Its
encoder has heard the difference: a softmax model over the encoder's frames, pooled,
fitted on the words real people were recorded saying (bench/fit_words.py, the fitting
half of ../shared/speech-dev, as recorded, in noise, across rooms that ring and
through a telephone channel) tells them apart, held-out speakers' commands 98% by
itself (docs/benchmarks.md). It is only asked about a one-word reading, and only
agrees or doubts: where Whisper was unsure, its agreement takes the phrase; where
Whisper was sure, its strong doubt has the player asked again. It never brings a
phrase Whisper did not propose. It knows the words it was fitted on (up, down, ...); a
grammar without them never asks it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hbr.voice.audio import frame_levels
from hbr.voice.recognizer import RecognizerError

#: Samples to one frame of Whisper's encoder (20 ms at 16 kHz).
FRAME = 320
#: Frames this far below the loudest of the utterance are left out of the pooling, so
#: the quiet the endpointer keeps on either side of the words does not dilute them.
LOUD_WITHIN_DB = 30.0
#: The class of everything else (other words, noise), last in :attr:`WordModel.words`.
OTHER = ""


def pooled(encoded: np.ndarray, samples: np.ndarray, lead: int) -> np.ndarray:
    """The encoder's frames (``encoded``: frames x dimensions) where ``samples`` (the
    utterance, placed ``lead`` samples into the window) is loud, averaged and their
    maximum taken, one after the other."""
    levels = frame_levels(samples[: max(1, len(samples) // FRAME) * FRAME], FRAME)
    loud = np.flatnonzero(levels >= levels.max() * 10 ** (-LOUD_WITHIN_DB / 20))
    first = lead // FRAME
    chosen = encoded[np.clip(first + loud, 0, len(encoded) - 1)]
    return np.concatenate([chosen.mean(axis=0), chosen.max(axis=0)])


def softmax(logits: np.ndarray) -> np.ndarray:
    odds = np.exp(logits - logits.max(axis=-1, keepdims=True))
    out: np.ndarray = odds / odds.sum(axis=-1, keepdims=True)
    return out


@dataclass(frozen=True)
class WordModel:
    """Softmax over the standardised pooled frames: one class a word, then :data:`OTHER`."""

    words: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray  # dimensions x classes
    bias: np.ndarray

    def probabilities(self, heard: np.ndarray) -> np.ndarray:
        """How likely each of :attr:`words` is, for one utterance (:func:`pooled`) or a row of them each."""
        return softmax(((heard - self.mean) / self.scale) @ self.weights + self.bias)

    def probability(self, heard: np.ndarray, word: str) -> float | None:
        """How likely the utterance ``heard`` is ``word``; None for a word the model does
        not know (it has no opinion of "help" or "north", not a low one)."""
        if word not in self.words or word == OTHER:
            return None
        return float(self.probabilities(heard)[self.words.index(word)])

    @classmethod
    def load(cls, path: Path) -> WordModel:
        try:
            data = json.loads(path.read_text())
            words = tuple(data["words"])
            mean, scale, bias = (np.asarray(data[k], np.float64) for k in ("mean", "scale", "bias"))
            weights = np.asarray(data["weights"], np.float64)
            if weights.shape != (len(mean), len(words)) or mean.shape != scale.shape or bias.shape != (len(words),):
                raise ValueError(f"its weights are {weights.shape} for {len(words)} words and {len(mean)} means")
            return cls(words, mean, scale, weights, bias)
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise RecognizerError(
                f"the word model {path} is unusable ({err}); reinstall hbr, or run bench/fit_words.py"
            ) from None

    def save(self, path: Path, note: str) -> None:
        def rounded(a: np.ndarray) -> list[float] | list[list[float]]:
            return np.round(a, 5).tolist()  # type: ignore[no-any-return]

        doc = {"words": self.words, "fitted on": note, "mean": rounded(self.mean), "scale": rounded(self.scale),
               "bias": rounded(self.bias), "weights": rounded(self.weights)}
        path.write_text(json.dumps(doc) + "\n")
