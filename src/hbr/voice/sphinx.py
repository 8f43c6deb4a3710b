"""PocketSphinx: the recognizer that works on a fresh offline machine.

Its PyPI wheel ships a US-English acoustic model and dictionary. Three problems
seen here are handled:

- the lattice pass (``bestpath``) returns words outside the grammar: it is off;
- exact digital silence upsets the acoustic normalisation and loses the first word
  (its ``dither`` option did not cure that here): a faint, fixed noise floor is
  added to the audio before decoding, as any real microphone has;
- a grammar alone maps any speech or noise onto some command: every utterance is
  also decoded by a free phone loop, and the grammar's acoustic score per frame of
  speech is compared with the loop's. Real commands fit the grammar almost as well
  as free phones; other speech fits it much worse. The threshold is measured
  (docs/benchmarks.md), and too little speech is rejected before decoding;
- steady noise passes voice activity detection and decodes as one short word
  with the rest as silence: the words must cover at least MIN_COVERAGE of what
  the detector called speech (commands measured here: 5th percentile 0.53; white,
  pink and hum noise: 0.05 to 0.10).
"""

from __future__ import annotations

import math
import os
import time

import numpy as np

from hbr.voice.recognizer import Heard, RecognizerError, logistic, speech_seconds

#: Acoustic log-score difference per speech frame (grammar minus phone loop) at
#: which confidence is 0.5; below it an utterance is "not a command".
THRESHOLD = -22.0
#: Width of the confidence curve around the threshold, in the same units.
SCALE = 3.0
#: Standard deviation of the noise floor added before decoding (-72 dBFS).
NOISE_FLOOR = 8.0
#: Least share of the detected speech that the recognized words must span.
MIN_COVERAGE = 0.3
#: Less speech than this (seconds, by voice activity detection) is silence.
MIN_SPEECH = 0.12

_NON_SPEECH = ("<s>", "</s>", "<sil>", "[NOISE]", "SIL", "+NSN+", "+SPN+")
_LOG_BASE = math.log(1.0001)  # pocketsphinx's default log base
FRAME_SECONDS = 0.01  # pocketsphinx's default frame rate is 100 per second


def jsgf(phrases: list[str]) -> str:
    alternatives = " | ".join(f"( {p} )" for p in sorted(set(phrases)))
    return f"#JSGF V1.0;\ngrammar commands;\npublic <command> = {alternatives};\n"


class SphinxRecognizer:
    name = "pocketsphinx"

    def __init__(self, phrases: list[str], threshold: float = THRESHOLD) -> None:
        try:
            from pocketsphinx import Config, Decoder, get_model_path
        except ImportError as err:  # pragma: no cover - a broken install
            raise RecognizerError(f"pocketsphinx is not installed ({err}): pip install pocketsphinx") from None
        model = os.path.join(get_model_path(), "en-us")
        self.threshold = threshold
        self.decoder = Decoder(
            Config(
                hmm=os.path.join(model, "en-us"),
                dict=os.path.join(model, "cmudict-en-us.dict"),
                lm=None,
                bestpath=False,
                dither=True,
                loglevel="FATAL",
            )
        )
        words = sorted({w for p in phrases for w in p.split()})
        missing = [w for w in words if self.decoder.lookup_word(w) is None]
        if missing:
            raise RecognizerError(f"pocketsphinx's dictionary lacks the grammar words: {', '.join(missing)}")
        self.decoder.add_jsgf_string("commands", jsgf(phrases))
        self.decoder.add_allphone_file("phones", os.path.join(model, "en-us-phone.lm.bin"))

    def _decode(self, search: str, audio: bytes) -> tuple[str, float, int]:
        """Words, total acoustic log score, and frames of speech, for one search."""
        d = self.decoder
        d.activate_search(search)
        d.start_utt()
        d.process_raw(audio, False, True)
        d.end_utt()
        hyp = d.hyp()
        score, speech = 0.0, 0
        for seg in d.seg() or ():
            score += math.log(seg.ascore) / _LOG_BASE if seg.ascore > 0 else -1e6
            if seg.word not in _NON_SPEECH:
                speech += seg.end_frame - seg.start_frame + 1
        return (hyp.hypstr if hyp else ""), score, speech

    def decode(self, samples: np.ndarray) -> Heard:
        began = time.perf_counter()
        detected = speech_seconds(samples)
        if detected < MIN_SPEECH:
            return Heard("", None, None, (time.perf_counter() - began) * 1000, "silence")
        floor = np.random.default_rng(0).normal(0.0, NOISE_FLOOR, len(samples))
        audio = np.clip(np.asarray(samples, np.float64) + floor, -32768, 32767).astype(np.int16).tobytes()
        words, grammar_score, speech = self._decode("commands", audio)
        if not words or speech * FRAME_SECONDS < MIN_COVERAGE * detected:
            return Heard(words, None, 0.0, (time.perf_counter() - began) * 1000, "not a command")
        _, phone_score, _ = self._decode("phones", audio)
        fit = (grammar_score - phone_score) / speech
        confidence = logistic((fit - self.threshold) / SCALE)
        ms = (time.perf_counter() - began) * 1000
        if confidence < 0.5:
            return Heard(words, None, confidence, ms, "not a command")
        return Heard(words, words, confidence, ms)
