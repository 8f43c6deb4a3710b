"""Telling commands from other sounds: a logistic model over what a recognizer knows
about an utterance (its "evidence": how well its best phrase fits, compared with a
free reading, and so on).

Each backend names its own evidence (``FEATURES`` in hbr.voice.sphinx and
hbr.voice.whisper); the model, the way it is stored and the fitting
(bench/logistic.py, bench/fit_rejection.py, bench/fit_whisper.py) are shared.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hbr.voice.recognizer import RecognizerError, logistic


def expand(z: np.ndarray) -> np.ndarray:
    """Standardised evidence, followed by every product of two of its numbers (squares
    included), so that the model can weigh, say, the fit of a one-word command
    differently from that of a long phrase. For pocketsphinx, on held-out voices this
    kept 91% of clean commands against 87% with single numbers only, at the same 2% of
    false accepts; for whisper, on held-out real speakers, 94.8% against 92.1% at
    under 2% (docs/benchmarks.md)."""
    i, j = np.triu_indices(z.shape[-1])
    return np.concatenate([z, z[..., i] * z[..., j]], axis=-1)


#: A phrase of this many words or more is long (see :attr:`AcceptanceModel.long_threshold`).
LONG_WORDS = 3


@dataclass(frozen=True)
class AcceptanceModel:
    """A logistic model over the expanded, standardised evidence; confidence 0.5 at
    its threshold, or for a long phrase at ``long_threshold`` (None: the same). Long
    phrases are where one word misheard makes another command ("go to eight eight" as
    "go to eight two", "capture south west" as "step south west"), so they may need
    a stricter bar than one-word commands."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float
    long_threshold: float | None = None

    @classmethod
    def neutral(cls, features: int) -> AcceptanceModel:
        """A model that weighs nothing: for measuring the evidence before any fit."""
        return cls((0.0,) * features, (1.0,) * features, (0.0,) * len(expand(np.zeros(features))), 0.0, 0.0)

    @classmethod
    def load(cls, path: Path, features: tuple[str, ...], fitter: str) -> AcceptanceModel:
        """The model stored at ``path`` for ``features``; ``fitter`` is the script that
        writes it, named in the error a broken or stale file gives."""
        try:
            data = json.loads(path.read_text())
            if tuple(data["features"]) != features:
                raise ValueError(f"it was fitted for other features: {data['features']}")
            mean, scale, weights = (tuple(map(float, data[k])) for k in ("mean", "scale", "weights"))
            long = data.get("long threshold")
            model = cls(mean, scale, weights, float(data["bias"]), float(data["threshold"]),
                        None if long is None else float(long))
            if (len(mean), len(scale), len(weights)) != (len(features), len(features), len(expand(np.zeros(len(features))))):
                raise ValueError(f"it has {len(weights)} weights and {len(mean)} means")
            return model
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise RecognizerError(f"the acceptance model {path} is unusable ({err}); reinstall hbr, or run {fitter}") from None

    def save(self, path: Path, features: tuple[str, ...], note: str, vocabulary: Iterable[str] = ()) -> None:
        """``vocabulary``: the phrases it was fitted for (their words are kept, for :func:`nearest`)."""
        doc = {"features": features, "mean": self.mean, "scale": self.scale, "weights": self.weights,
               "bias": self.bias, "threshold": self.threshold, "long threshold": self.long_threshold,
               "fitted on": note, "vocabulary": sorted(words(vocabulary))}
        path.write_text(json.dumps(doc, indent=1) + "\n")

    def score(self, values: tuple[float, ...]) -> float:
        z = (np.asarray(values) - np.asarray(self.mean)) / np.asarray(self.scale)
        return float(expand(z) @ np.asarray(self.weights) + self.bias)

    def confidence(self, values: tuple[float, ...], words: int = 1) -> float:
        """How sure the evidence is of a phrase of ``words`` words (0.5: at the bar)."""
        bar = self.long_threshold if words >= LONG_WORDS and self.long_threshold is not None else self.threshold
        return logistic(self.score(values) - bar)


def words(phrases: Iterable[str]) -> set[str]:
    """Every word of the phrases: a vocabulary, as :func:`nearest` compares them."""
    return {word for phrase in phrases for word in phrase.split()}


def nearest(folder: Path, phrases: Iterable[str], features: tuple[str, ...], fitter: str) -> AcceptanceModel:
    """The model in ``folder`` fitted for the vocabulary most like that of ``phrases``
    (the most words in common, for the words of both together). What tells a command
    from other speech depends on the words listened for: under Jumpers' grammar, the
    model fitted on Hunter Bear Rabbit's compass words understood fewer of Jumpers'
    long moves than Jumpers' own (60.8% against 73.3%) and let more of real people's
    other words through (9.1% against 3.8%; docs/benchmarks.md). A recognizer built
    for a game's phrases gets that game's model, and one for a vocabulary no model was
    fitted on, the nearest."""
    wanted = words(phrases)
    try:
        fitted = {path: set(json.loads(path.read_text()).get("vocabulary", ())) for path in sorted(folder.glob("*.json"))}
    except (OSError, ValueError, AttributeError, TypeError) as err:
        raise RecognizerError(f"the acceptance models in {folder} are unusable ({err}); reinstall hbr, or run {fitter}") from None
    if not fitted:
        raise RecognizerError(f"no acceptance model in {folder}; reinstall hbr, or run {fitter}")
    best = max(fitted, key=lambda path: len(wanted & fitted[path]) / max(1, len(wanted | fitted[path])))
    return AcceptanceModel.load(best, features, fitter)
