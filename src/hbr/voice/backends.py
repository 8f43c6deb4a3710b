"""Choosing a recognizer: ``auto`` takes vosk when a model is found, else pocketsphinx."""

from __future__ import annotations

from pathlib import Path

from hbr.voice.models import ModelError, find_model
from hbr.voice.recognizer import Recognizer, RecognizerError

BACKENDS = ("auto", "vosk", "pocketsphinx")


def open_recognizer(backend: str, phrases: list[str], model: Path | None = None) -> tuple[Recognizer, str]:
    """The recognizer and one sentence saying which it is and why."""
    from hbr.voice.sphinx import SphinxRecognizer

    if backend == "pocketsphinx":
        return SphinxRecognizer(phrases), "Listening with pocketsphinx, as asked."
    try:
        found = find_model(model)
    except ModelError as err:
        if backend == "vosk":
            raise RecognizerError(str(err)) from None
        return SphinxRecognizer(phrases), f"Listening with pocketsphinx: {err}."
    if found.path is None:
        if backend == "vosk":
            raise RecognizerError(f"vosk needs a model: {found.why}. Run 'hbr models download' or pass --model DIR.")
        return SphinxRecognizer(phrases), f"Listening with pocketsphinx ({found.why})."
    from hbr.voice.kaldi import VoskRecognizer

    try:
        return VoskRecognizer(phrases, found.path), f"Listening with vosk, model {found.path.name} ({found.why})."
    except RecognizerError as err:
        if backend == "vosk":
            raise
        return SphinxRecognizer(phrases), f"Listening with pocketsphinx, because vosk failed: {err}."
