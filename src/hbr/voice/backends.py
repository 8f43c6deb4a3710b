"""Choosing a recognizer: ``auto`` takes whisper, then vosk, whichever model is found
first, else pocketsphinx, whose model ships inside its wheel."""

from __future__ import annotations

from pathlib import Path

from hbr.voice.models import KINDS, WHISPER, Kind, ModelError, find_model, kind_named, kind_of
from hbr.voice.recognizer import Recognizer, RecognizerError

BACKENDS = ("auto", "whisper", "vosk", "pocketsphinx")
#: Said once when only the fallback is there (hbr play).
BASIC = (
    "Speech recognition is basic on this machine, so I will often ask back what I heard: "
    f"'hbr models download' fetches the {WHISPER.name} model ({WHISPER.megabytes} MB), which understands people far better."
)


def load(kind: Kind, phrases: list[str], path: Path) -> Recognizer:
    """The recognizer of ``kind`` on the model at ``path``."""
    if kind.backend == "whisper":
        from hbr.voice.whisper import WhisperRecognizer

        return WhisperRecognizer(phrases, path)
    from hbr.voice.kaldi import VoskRecognizer

    return VoskRecognizer(phrases, path)


def open_recognizer(backend: str, phrases: list[str], model: Path | None = None) -> tuple[Recognizer, str]:
    """The recognizer and one sentence saying which it is and why. RecognizerError when
    the backend asked for cannot be had; ``auto`` falls back instead, saying why."""
    from hbr.voice.sphinx import SphinxRecognizer

    if backend == "pocketsphinx":
        return SphinxRecognizer(phrases), "Listening with pocketsphinx, as asked."
    if model is not None:
        kind = kind_of(model)
        if kind is None or backend not in ("auto", kind.backend):
            wanted = "whisper or vosk" if backend == "auto" else backend
            raise RecognizerError(f"--model {model} is not a {wanted} model")
        kinds: tuple[Kind, ...] = (kind,)
    else:
        kinds = KINDS if backend == "auto" else (kind_named(backend),)
    reasons = []
    for kind in kinds:
        try:
            found = find_model(kind, model)
        except ModelError as err:
            if backend != "auto":
                raise RecognizerError(str(err)) from None
            reasons.append(str(err))
            continue
        if found.path is None:
            if backend != "auto":
                raise RecognizerError(f"{found.why}. Run 'hbr models download {kind.name}' or pass --model DIR.")
            reasons.append(found.why)
            continue
        try:
            recognizer = load(kind, phrases, found.path)
        except RecognizerError as err:
            if backend != "auto":
                raise
            reasons.append(f"{kind.backend} failed: {err}")
            continue
        return recognizer, f"Listening with {kind.backend}, the model in {found.path} ({found.why})."
    return SphinxRecognizer(phrases), f"Listening with pocketsphinx ({'; '.join(reasons)})."
