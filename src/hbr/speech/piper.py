"""A Piper neural voice (piper-tts on onnxruntime, on the CPU).

The player's rate is in espeak's words a minute (:mod:`hbr.speech.tts`). A Piper
voice has its own natural pace, so each voice is timed once on a reference text
and its length scale set so that a rate of 175 lasts as long as espeak-ng at 175;
the result is kept with the speech cache, so it is measured once per voice.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np

from hbr.files import write_atomically
from hbr.speech.tts import DEFAULT_RATE, TTSError, clamp_rate

#: A reference text, and how long espeak-ng (en-us) takes to say it at 175 words a
#: minute: 8.21 s (measured, espeak-ng 1.51).
REFERENCE = (
    "The bear is two steps to the north east of you. You hear the rabbit somewhere to the west. "
    "The wind is from the south, and the forest is quiet tonight."
)
REFERENCE_SECONDS_AT_175 = 8.21


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
            parts = [chunk.audio_int16_array for chunk in self._voice.synthesize(text, config)]
        except Exception as err:  # onnxruntime fails with its own exception types
            raise TTSError(f"the Piper voice {self.voice} failed ({_first_line(err)})") from None
        if not parts:
            return np.zeros(0, np.int16), self.sample_rate
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


def _first_line(err: BaseException) -> str:
    text = str(err).strip() or type(err).__name__
    return text.splitlines()[0][:200]
