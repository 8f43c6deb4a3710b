"""Vosk (Kaldi): the primary recognizer, restricted to the grammar's phrases.

The grammar goes to vosk as a JSON list of phrases plus ``[unk]``, so that other
speech has somewhere to go instead of becoming a command. Grammar words the model
does not know are found when the model loads and reported, not silently dropped.
The pure parts (grammar, vocabulary check, result parsing) are functions so that
they are tested without a model; recognition itself is tested wherever a model
directory is present.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from hbr.voice.audio import RATE
from hbr.voice.recognizer import NOT_A_COMMAND, SILENCE, SURE, UNCLEAR, Heard, RecognizerError

UNKNOWN = "[unk]"
#: Lowest word confidence for an accepted phrase.
MIN_WORD_CONFIDENCE = 0.6


def grammar_json(phrases: list[str]) -> str:
    return json.dumps(sorted(set(phrases)) + [UNKNOWN])


def missing_words(phrases: list[str], knows: Callable[[str], bool]) -> list[str]:
    """Grammar words the model's vocabulary lacks (vosk would drop them silently)."""
    return sorted({w for p in phrases for w in p.split() if not knows(w)})


def join_results(results: list[str]) -> str:
    """One result from the segments vosk returned for one utterance."""
    docs = [json.loads(r) for r in results]
    text = " ".join(t for d in docs if (t := str(d.get("text", "")).strip()))
    return json.dumps({"text": text, "result": [w for d in docs for w in d.get("result", [])]})


def parse_result(result: str, phrases: frozenset[str], decode_ms: float) -> Heard:
    """Turn vosk's final JSON (with word confidences) into a :class:`Heard`."""
    doc = json.loads(result)
    words = str(doc.get("text", "")).strip()
    confidences = [float(w.get("conf", 0.0)) for w in doc.get("result", [])]
    confidence = min(confidences) if confidences else None
    if not words:
        return Heard("", None, None, decode_ms, SILENCE)
    if all(word == UNKNOWN for word in words.split()):
        return Heard(words, None, confidence, decode_ms, NOT_A_COMMAND)
    if UNKNOWN in words.split() or words not in phrases:  # some of the game's words
        return Heard(words, None, confidence, decode_ms, UNCLEAR)
    if confidence is not None and confidence < MIN_WORD_CONFIDENCE:  # a phrase, heard unsurely
        return Heard(words, None, confidence, decode_ms, UNCLEAR, guess=words)
    return Heard(words, words, confidence, decode_ms)


class VoskRecognizer:
    name = "vosk"
    denoised = True
    adapts = False  # a new recognizer for every utterance
    sure = SURE

    def __init__(self, phrases: list[str], model_dir: Path) -> None:
        try:
            import vosk
        except ImportError as err:  # pragma: no cover - a broken install
            raise RecognizerError(f"vosk is not installed ({err}): pip install vosk") from None
        vosk.SetLogLevel(-1)
        try:
            self.model = vosk.Model(str(model_dir))
        except Exception as err:  # vosk raises a bare Exception
            raise RecognizerError(f"{model_dir} is not a usable vosk model ({err})") from None
        missing = missing_words(phrases, lambda w: self.model.vosk_model_find_word(w) >= 0)
        if missing:
            raise RecognizerError(
                f"the vosk model at {model_dir} does not know the words: {', '.join(missing)}"
            )
        self.phrases = frozenset(phrases)
        self.grammar = grammar_json(phrases)
        self._vosk = vosk

    def listen(self, among: frozenset[str] | None = None, early: bool = False) -> VoskUtterance:
        began = time.perf_counter()
        grammar = grammar_json(sorted(among)) if among else self.grammar
        rec = self._vosk.KaldiRecognizer(self.model, RATE, grammar)
        rec.SetWords(True)
        return VoskUtterance(rec, among or self.phrases, time.perf_counter() - began)


class VoskUtterance:
    def __init__(self, rec: Any, phrases: frozenset[str], seconds: float) -> None:
        """``seconds``: time already spent on it (building the recognizer)."""
        self._rec = rec
        self._phrases = phrases
        self._parts: list[str] = []
        self._seconds = seconds

    def feed(self, samples: np.ndarray) -> None:
        began = time.perf_counter()
        if self._rec.AcceptWaveform(np.asarray(samples, np.int16).tobytes()):
            # vosk's own endpointer closed a segment at a pause: keep it, the
            # utterance (ours) is still open.
            self._parts.append(self._rec.Result())
        self._seconds += time.perf_counter() - began

    def finish(self) -> Heard:
        began = time.perf_counter()
        result = join_results([*self._parts, self._rec.FinalResult()])
        return parse_result(result, self._phrases, (self._seconds + time.perf_counter() - began) * 1000)
