"""PocketSphinx: the recognizer that works on a fresh offline machine.

Its PyPI wheel ships a US-English acoustic model and dictionary. The problems seen
here, and how each is handled:

- the lattice pass (``bestpath``) returns words outside the grammar: it is off;
- exact digital silence upsets the acoustic normalisation and loses the first word
  (its ``dither`` option did not cure that here): the audio comes through
  :class:`hbr.voice.denoise.NoiseSuppressor`, which puts a faint noise floor back;
- decoding while the audio arrives normalises it with a running mean that a fresh
  decoder has not learned yet ("capture north west" came out as "faster" twice
  before it settled): the first utterance is decoded whole at its end, which
  measures the mean on it, and later ones are decoded as they arrive;
- a grammar alone maps any speech or noise onto some command: every utterance is
  also decoded by a free phone loop, and ten numbers about the two decodes (how
  much worse the grammar fits than free phones, how well it fits at all, how much
  of the speech its words cover, how far the free phones are from the command's
  own, ...: :func:`evidence`) and the products of their pairs go into a logistic
  model fitted on the benchmark corpus by ``bench/fit_rejection.py``; its result is
  the confidence, and below the fitted threshold an utterance is rejected.
"""

from __future__ import annotations

import math
import os
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hbr.voice.acceptance import AcceptanceModel, nearest
from hbr.voice.recognizer import NOT_A_COMMAND, SILENCE, UNCLEAR, Heard, RecognizerError, SpeechMeter

#: The fitted rejection models, one for each game's vocabulary (``bench/fit_rejection.py
#: --game NAME`` writes NAME.json); a recognizer takes the one nearest its phrases.
MODELS = Path(__file__).with_name("sphinx_rejection")
#: Less speech than this (seconds, by voice activity detection) is silence.
MIN_SPEECH = 0.12
#: A rejected utterance at least this confident is UNCLEAR (say it again), below it
#: NOT_A_COMMAND (passed over). On the corpus the rejection is fitted on (35
#: phrases, bench/fit_rejection.py): 79% of rejected commands are above it, and 19% of the other speech and noise that was rejected.
UNCLEAR_ABOVE = 0.1
#: Searches kept for sets of phrases other than the whole grammar.
SEARCHES = 8
#: The confidence at which what it hears is carried out without asking back
#: (:attr:`hbr.voice.recognizer.Recognizer.sure`). Its confidence is as sure as it is
#: right on real people, neither more nor less (bench/sphinx_sureness.py), but real
#: people's commands it accepted at 0.75 to 0.9 were right 79-83% of the time (fitting
#: half of ../shared/speech-dev, each game as it begins): Spyhunting acted on "two" as
#: "shoot" and "bed" as "back". At 0.9 or more they were right 90-97% of the time.
SPHINX_SURE = 0.9

_NON_SPEECH = ("<s>", "</s>", "<sil>", "[NOISE]", "SIL", "+NSN+", "+SPN+")
_FILLER_PHONES = ("SIL", "+NSN+", "+SPN+", "+BREATH+", "+COUGH+", "+NOISE+", "+SMACK+", "+UH+", "+UM+")
_LOG_BASE = math.log(1.0001)  # pocketsphinx's default log base
FRAME_SECONDS = 0.01  # pocketsphinx's default frame rate is 100 per second


def jsgf(phrases: list[str]) -> str:
    alternatives = " | ".join(f"( {p} )" for p in sorted(set(phrases)))
    return f"#JSGF V1.0;\ngrammar commands;\npublic <command> = {alternatives};\n"


class SphinxRecognizer:
    """Two decoders over the same audio, both fed while the player speaks: the
    grammar's, and a free phone loop's to compare it with."""

    name = "pocketsphinx"
    denoised = True
    adapts = True
    sure = SPHINX_SURE

    def __init__(self, phrases: list[str], rejection: AcceptanceModel | None = None) -> None:
        """``rejection``: the model that tells commands from other sounds; the fitted
        one shipped with hbr unless given (bench/fit_rejection.py gives its own)."""
        try:
            from pocketsphinx import Config, Decoder, get_model_path
        except ImportError as err:  # pragma: no cover - a broken install
            raise RecognizerError(f"pocketsphinx is not installed ({err}): pip install pocketsphinx") from None
        model = os.path.join(get_model_path(), "en-us")

        def decoder() -> Decoder:
            return Decoder(
                Config(
                    hmm=os.path.join(model, "en-us"),
                    dict=os.path.join(model, "cmudict-en-us.dict"),
                    lm=None,
                    bestpath=False,
                    loglevel="FATAL",
                )
            )

        self.phrases = frozenset(phrases)
        self.grammar, self.phones = decoder(), decoder()
        words = sorted({w for p in phrases for w in p.split()})
        missing = [w for w in words if self.grammar.lookup_word(w) is None]
        if missing:
            raise RecognizerError(f"pocketsphinx's dictionary lacks the grammar words: {', '.join(missing)}")
        #: Each grammar word's phones (its first pronunciation in the dictionary).
        self.pronunciations = {w: self.grammar.lookup_word(w).split() for w in words}
        self.rejection = rejection or nearest(MODELS, phrases, FEATURES, "bench/fit_rejection.py")
        self.grammar.add_jsgf_string("commands", jsgf(phrases))
        #: A search for each set of phrases listened for lately (the answers to a
        #: question, a Jumpers position's moves), the oldest forgotten: a game has many.
        self._searches: OrderedDict[frozenset[str], str] = OrderedDict()
        self._made = 0
        self.phones.add_allphone_file("phones", os.path.join(model, "en-us-phone.lm.bin"))
        self.phones.activate_search("phones")
        #: Whether the decoders' running normalisation has been set from real speech.
        self.settled = False
        #: The evidence about the last utterance that had words (for fitting the
        #: rejection model and for diagnostics).
        self.last: Evidence | None = None

    def listen(self, among: frozenset[str] | None = None, early: bool = False) -> SphinxUtterance:
        search = "commands"
        if among:
            if among not in self._searches:
                self._made += 1
                self._searches[among] = f"among_{self._made}"
                self.grammar.add_jsgf_string(self._searches[among], jsgf(sorted(among)))
                if len(self._searches) > SEARCHES:
                    self.grammar.remove_search(self._searches.popitem(last=False)[1])
            self._searches.move_to_end(among)
            search = self._searches[among]
        self.grammar.activate_search(search)
        return SphinxUtterance(self)


class SphinxUtterance:
    def __init__(self, recognizer: SphinxRecognizer) -> None:
        self._recognizer = recognizer
        self._decoders = (recognizer.grammar, recognizer.phones)
        self._meter = SpeechMeter()
        self._whole: list[bytes] | None = None if recognizer.settled else []
        self._seconds = 0.0
        for decoder in self._decoders:
            decoder.start_utt()

    def feed(self, samples: np.ndarray) -> None:
        began = time.perf_counter()
        self._meter.feed(samples)
        audio = np.asarray(samples, np.int16).tobytes()
        if self._whole is not None:
            self._whole.append(audio)
        else:
            for decoder in self._decoders:
                decoder.process_raw(audio, False, False)
        self._seconds += time.perf_counter() - began

    def finish(self) -> Heard:
        began = time.perf_counter()
        detected = self._meter.seconds
        for decoder in self._decoders:
            if self._whole is not None:
                decoder.process_raw(b"".join(self._whole), False, True)
            decoder.end_utt()
        if self._whole is not None and detected >= MIN_SPEECH:
            self._recognizer.settled = True
        recognizer = self._recognizer
        recognizer.last = None
        hyp = recognizer.grammar.hyp()
        words = hyp.hypstr if hyp else ""
        if detected < MIN_SPEECH:
            return Heard("", None, None, self._ms(began), SILENCE)
        if not words:
            return Heard("", None, 0.0, self._ms(began), NOT_A_COMMAND)
        grammar, phones = _segments(recognizer.grammar), _segments(recognizer.phones)
        expected = [phone for word in words.split() for phone in recognizer.pronunciations[word]]
        recognizer.last = Evidence(words, evidence(grammar, phones, detected, expected))
        confidence = recognizer.rejection.confidence(recognizer.last.values)
        ms = self._ms(began)
        if confidence < 0.5:  # the grammar's decoder read a phrase: the guess when near
            if confidence >= UNCLEAR_ABOVE:
                return Heard(words, None, confidence, ms, UNCLEAR, guess=words)
            return Heard(words, None, confidence, ms, NOT_A_COMMAND)
        return Heard(words, words, confidence, ms)

    def _ms(self, began: float) -> float:
        """Milliseconds spent on this utterance: while it was fed, and since ``began``."""
        return (self._seconds + time.perf_counter() - began) * 1000


#: The rejection model's inputs, in order (see :func:`evidence`).
FEATURES = (
    "fit", "level", "word level", "coverage", "log frames", "words", "phones", "silence share",
    "phone distance", "phone ratio",
)


@dataclass(frozen=True)
class Segment:
    word: str  # a word, a phone, or a filler such as "<sil>"
    start: int  # first frame
    end: int  # last frame
    score: float  # acoustic log score


@dataclass(frozen=True)
class Evidence:
    """What the two decodes of one utterance say, as the rejection model's inputs."""

    words: str
    values: tuple[float, ...]


def evidence(grammar: list[Segment], phones: list[Segment], detected: float, expected: list[str]) -> tuple[float, ...]:
    """The rejection model's inputs (FEATURES) for one utterance.

    Per frame of the words: how much worse the grammar fits than free phones
    (other speech fits much worse), how well the grammar fits at all, over the whole
    utterance and over its words alone. How much of the detected speech the words
    cover (steady noise decodes as one short word). How long the words are, and
    how many, and how much of the utterance is silence. How many edits turn the
    free phones into the command's own phones, and how many free phones there are,
    both per phone of the command (other speech is heard as other phones).
    """
    spoken = [seg for seg in grammar if seg.word not in _NON_SPEECH]
    frames = max(1, sum(seg.end - seg.start + 1 for seg in spoken))
    total = sum(seg.score for seg in grammar)
    heard = [seg.word for seg in phones if seg.word not in _FILLER_PHONES]
    n = max(1, len(expected))
    return (
        (total - sum(seg.score for seg in phones)) / frames,
        total / frames,
        sum(seg.score for seg in spoken) / frames,
        min(frames * FRAME_SECONDS / max(detected, 1e-9), 1.5),
        math.log(frames),
        float(len(spoken)),
        float(len(expected)),
        1.0 - frames / max(frames, grammar[-1].end + 1 if grammar else 1),
        edits(heard, expected) / n,
        len(heard) / n,
    )


def edits(a: list[str], b: list[str]) -> int:
    """Levenshtein distance between two phone sequences."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        diagonal, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            diagonal, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, diagonal + (x != y))
    return row[-1]


def _segments(decoder: Any) -> list[Segment]:
    """The segments of a finished utterance, with their acoustic log scores."""
    return [
        Segment(seg.word, seg.start_frame, seg.end_frame,
                math.log(seg.ascore) / _LOG_BASE if seg.ascore > 0 else -1e6)
        for seg in decoder.seg() or ()
    ]
