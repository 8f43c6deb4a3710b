"""A Piper neural voice (piper-tts on onnxruntime, on the CPU).

The player's rate is in espeak's words a minute (:mod:`hbr.speech.tts`). A Piper
voice has its own natural pace, so each voice is timed once on a reference text
and its length scale set so that a rate of 175 lasts as long as espeak-ng at 175;
the result is kept with the speech cache, so it is measured once per voice.

What a run of the voice needs grows with the length of what it says (about 110 MB
for 6 s of speech, 65 MB for 3 s), and little of it went back: onnxruntime keeps the
largest run's memory in its arena, and what it frees stays in the C heap. So each
run gives its arena's extra memory back (onnxruntime's arena shrinkage) and the heap
its free pages (:mod:`hbr.heap`), and a long sentence is said clause by clause
(:func:`hbr.speech.tts.clauses`), each with its comma, so it is still said as a
clause that goes on. `hbr play`, through its opening, a command, the rules and the
help: 488 MB at most before, 394 MB with all three, 486 MB without the heap's, 422
MB without the arena's, 408 MB without the clauses (bench/play_memory.py; the last
two measured without the rules and help). The runs were no slower.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import numpy as np

from hbr import heap
from hbr.files import write_atomically
from hbr.speech.tts import DEFAULT_RATE, TTSError, clamp_rate, clauses

#: A reference text, and how long espeak-ng (en-us) takes to say it at 175 words a
#: minute: 8.21 s (measured, espeak-ng 1.51).
REFERENCE = (
    "The bear is two steps to the north east of you. You hear the rabbit somewhere to the west. "
    "The wind is from the south, and the forest is quiet tonight."
)
REFERENCE_SECONDS_AT_175 = 8.21
#: The most words said in one run of the voice, where the sentence has clauses to cut at.
RUN_WORDS = 12
#: The most quiet between two runs of one sentence, in seconds (half at the end of
#: one, half at the start of the next): made alone, a clause ends in a pause as long
#: as a sentence's and may start with half a second of quiet (0.7 s between the runs
#: at a colon where one run made 0.33 s; inside one run, a comma's pause is 0.25 to
#: 0.45 s).
JOIN_PAUSE = 0.3
#: Samples quieter than this (int16) are quiet: about -38 dB below full scale.
QUIET = 400


class PiperSynthesizer:
    """One Piper voice, loaded from its .onnx model and .onnx.json config."""

    def __init__(
        self, voice: str, model: Path, config: Path, rate: int = DEFAULT_RATE, calibration: Path | None = None
    ) -> None:
        try:
            from piper import PiperVoice, SynthesisConfig
        except ImportError as err:
            raise TTSError(f"Piper voices need piper-tts and onnxruntime ({err}); pip install piper-tts") from None
        logging.getLogger("piper").setLevel(logging.ERROR)
        self._config_type = SynthesisConfig
        try:
            self._voice = PiperVoice.load(model, config_path=config)
        except Exception as err:  # a broken config raises KeyError or ValueError, onnxruntime its own types
            raise TTSError(f"the Piper voice {voice} cannot be loaded from {model} ({_first_line(err)})") from None
        self._voice.session = _ShrinkingSession(self._voice.session)
        self.voice = voice
        self.sample_rate = int(self._voice.config.sample_rate)
        self._natural = self._natural_rate(calibration)
        self.rate = DEFAULT_RATE
        self.set_rate(rate)

    @property
    def name(self) -> str:
        return f"piper:{self.voice}"

    def set_rate(self, rate: int) -> None:
        self.rate = clamp_rate(rate)

    def synthesize(self, text: str) -> tuple[np.ndarray, int]:
        config = self._config_type(length_scale=self._natural / self.rate)
        try:
            parts = [
                chunk.audio_int16_array
                for piece in clauses(text, RUN_WORDS)
                for chunk in self._voice.synthesize(piece, config)
            ]
        except Exception as err:  # onnxruntime fails with its own exception types
            raise TTSError(f"the Piper voice {self.voice} failed ({_first_line(err)})") from None
        if not parts:
            return np.zeros(0, np.int16), self.sample_rate
        keep = int(JOIN_PAUSE / 2 * self.sample_rate)
        last = len(parts) - 1
        parts = [_quiet_ends_at_most(part, keep if i else len(part), keep if i < last else len(part))
                 for i, part in enumerate(parts)]
        return np.concatenate(parts).astype(np.int16), self.sample_rate

    def _natural_rate(self, calibration: Path | None) -> float:
        """The rate, in espeak's words a minute, at which this voice speaks unscaled."""
        known: dict[str, float] = {}
        if calibration is not None:
            try:
                known = json.loads(calibration.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                known = {}
        if isinstance(known.get(self.name), float):
            return known[self.name]
        self.rate = DEFAULT_RATE
        self._natural = float(DEFAULT_RATE)
        samples, rate = self.synthesize(REFERENCE)
        natural = DEFAULT_RATE * REFERENCE_SECONDS_AT_175 / max(len(samples) / rate, 0.1)
        if calibration is not None:
            try:
                write_atomically(calibration, json.dumps({**known, self.name: natural}))
            except OSError:
                pass  # measured again next time
        return natural


def _quiet_ends_at_most(samples: np.ndarray, first: int, last: int) -> np.ndarray:
    """The samples with the quiet at their start cut to ``first`` samples at most, and
    at their end to ``last``."""
    loud = np.flatnonzero(np.abs(samples.astype(np.int32)) >= QUIET)
    if not len(loud):
        return samples[: min(first, last)]
    return samples[max(0, int(loud[0]) - first) : int(loud[-1]) + 1 + last]


class _ShrinkingSession:
    """An onnxruntime session whose every run gives the memory it took back when it
    is done; Piper's voice calls ``run`` only."""

    def __init__(self, session: Any) -> None:
        import onnxruntime

        self._session = session
        self._options = onnxruntime.RunOptions()
        self._options.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")

    def run(self, outputs: Any, feeds: dict[str, Any]) -> Any:
        try:
            return self._session.run(outputs, feeds, self._options)
        finally:
            heap.trim()


def _first_line(err: BaseException) -> str:
    text = str(err).strip() or type(err).__name__
    return text.splitlines()[0][:200]
