"""The seam between audio and a game's grammar: one Protocol, several real backends.

A recognizer is built for a list of phrases (the grammar's spoken forms) and
turns one utterance of 16 kHz mono audio into :class:`Heard`. Anything that is
not confidently one of the phrases comes back with ``phrase`` None and a reason.

Live audio is decoded while the player is still speaking (:meth:`Recognizer.listen`
opens an utterance that is fed block by block), so that when the speaker stops only
the last few frames remain to be decoded; a whole recording goes through the same
path with :func:`decode`.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from hbr.voice.audio import Framer
from hbr.voice.denoise import NoiseSuppressor

SILENCE = "silence"
UNCLEAR = "unclear"
NOT_A_COMMAND = "not a command"


class RecognizerError(RuntimeError):
    """A backend cannot be used; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class Heard:
    """One utterance as recognized.

    ``words``: what the recognizer decoded (may be off-grammar); ``phrase``: the
    grammar phrase accepted, or None; ``rejected``: why not: SILENCE, UNCLEAR (it
    may well have been meant as a command: the player is asked to say it again) or
    NOT_A_COMMAND (other talk or noise: passed over in silence, so that a room with
    a television does not make the game nag); ``confidence`` 0..1 where the backend
    gives one. ``since``: seconds of audio from where the utterance began to where it
    was handed on (set by the listener), so the live loop can tell whether the game
    was speaking at the time. ``guess``: for an UNCLEAR utterance, the grammar phrase
    it came nearest to, where the recognizer knows one (the same guess twice in a row
    is asked back: hbr.session). ``rival``: for an accepted phrase, another that the
    recognizer found nearly as likely, or a sound of hesitation ("uh" for "up"), where
    it knows one: when the game's grammar gives the two different meanings, or the
    rival none, the command is asked back, not carried out.
    """

    words: str
    phrase: str | None
    confidence: float | None
    decode_ms: float
    rejected: str | None = None
    since: float = 0.0
    guess: str | None = None
    rival: str | None = None


def longer_phrases(phrase: str, phrases: Iterable[str]) -> list[str]:
    """The ones of ``phrases`` that go on from ``phrase`` ("north east" and "north west"
    from "north")."""
    return [other for other in phrases if other.startswith(phrase + " ")]


#: The number words, each at its digit.
DIGITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
#: A reading this near the start of a phrase (its first words; normalised edit distance
#: of their letters), and nearer to it than to the whole phrase, is that phrase begun,
#: with a pause inside it: "Go, To, Four" of "go to four ... five".
START_APART = 0.25
#: A reading is a start only with at least this many letters.
START_LETTERS = 3


def spelled(text: str) -> str:
    """The text in lower case, each digit as its word, apart ("Go to 67." is "go to  six  seven .")."""
    return re.sub(r"\d", lambda digit: f" {DIGITS[int(digit.group())]} ", text.lower())


def squash(text: str) -> str:
    """Letters only, lower case: "North-East." and "northeast" and "north east" alike;
    digits as their words, one by one ("Go to 67." is "go to six seven")."""
    return re.sub(r"[^a-z]", "", spelled(text))


def starts_phrase(words: str, phrases: Iterable[str]) -> bool:
    """Whether a recognizer's reading ``words`` is nearly the first words of one of
    ``phrases`` (of two words or more), and nearer to them than to the whole phrase: a
    speaker who stops to think inside a long command ("go to four ... five") is waited
    for, and the two parts read as one (:class:`hbr.voice.endpoint.Listener`); and a
    phrase of which Whisper read only the start is not taken (:mod:`hbr.voice.whisper`).
    "Plant, Rabbit, Two, Five" is nearer the whole "plant a rabbit at two five" than
    any start of it: read whole, its small words lost."""
    said = squash(words)
    if len(said) < START_LETTERS:
        return False
    starts, wholes, owners = _starts(frozenset(phrases))
    if not starts:
        return False
    near_start = process.cdist([said], starts, scorer=Levenshtein.normalized_distance)[0]
    near_whole = process.cdist([said], wholes, scorer=Levenshtein.normalized_distance)[0][owners]
    return bool(np.any((near_start <= START_APART) & (near_start < near_whole)))


@functools.lru_cache(maxsize=16)
def _starts(phrases: frozenset[str]) -> tuple[list[str], list[str], np.ndarray]:
    """The first words of each phrase of two words or more (squashed), the phrases whole,
    and for each start the index of its phrase."""
    longer = sorted(p for p in phrases if len(p.split()) > 1)
    starts = [(squash(" ".join(p.split()[:k])), i) for i, p in enumerate(longer) for k in range(1, len(p.split()))]
    return [s for s, _ in starts], [squash(p) for p in longer], np.array([i for _, i in starts], dtype=np.int64)


def goes_on(phrase: str, phrases: Iterable[str]) -> bool:
    """Whether a longer one of ``phrases`` goes on from ``phrase`` ("north" before "north
    east"): the listener holds such a phrase in case the speaker goes on, and Whisper's
    forced scoring does not take a comma after it for its end."""
    return bool(longer_phrases(phrase, phrases))


class Utterance(Protocol):
    """One utterance being decoded as it arrives."""

    def feed(self, samples: np.ndarray) -> None:
        """Decode the next 16 kHz mono int16 samples."""
        ...

    def finish(self) -> Heard:
        """The utterance has ended: what was heard. The recognizer is free again."""
        ...


#: A recognizer's usual :attr:`Recognizer.sure`: Whisper took no real person's command
#: for another at or above it (docs/benchmarks.md).
SURE = 0.75


class Recognizer(Protocol):
    """A backend; one utterance at a time is open on it."""

    name: str
    #: The phrases it was built for: it answers with one of them or nothing.
    phrases: frozenset[str]
    #: Whether it is fed noise-suppressed audio. The grammar decoders gain from it;
    #: Whisper, trained on noisy speech, loses: real commands it read right fell from
    #: 206 to 190 of 224 with suppression (docs/benchmarks.md).
    denoised: bool
    #: Whether it adapts to what it has heard (pocketsphinx's running normalisation):
    #: then only a fresh one decodes a recording as if it were the first.
    adapts: bool
    #: The confidence at or above which a command it heard is carried out without asking
    #: back ("Did you say north?", hbr.session): where, on real people, what it accepts is
    #: right nearly always (docs/benchmarks.md: "How sure pocketsphinx is").
    sure: float

    def listen(self, among: frozenset[str] | None = None, early: bool = False) -> Utterance:
        """Open an utterance. ``among``: the only phrases it may answer with (the
        answers while the game waits for yes or no), so that "no" cannot be heard as
        "down"; one that can weigh its other phrases as well refuses what sounds more
        like one of them than like any of ``among`` (Whisper: a command said again in
        place of yes or no is not heard as yes).
        ``early``: a reading of what was said before a pause, kept only when sure and
        read again in full at the end, so a recognizer may give up on it where reading
        it would be slow."""
        ...


def decode(recognizer: Recognizer, samples: np.ndarray, among: frozenset[str] | None = None) -> Heard:
    """Recognize one complete utterance (16 kHz mono int16), with noise suppressed
    where the recognizer wants it, as in a live game."""
    utterance = recognizer.listen(among)
    if recognizer.denoised:
        suppressor = NoiseSuppressor()
        samples = np.concatenate([suppressor.process(samples), suppressor.flush()])
    utterance.feed(samples)
    return utterance.finish()


def logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))


class SpeechMeter:
    """How much of the audio fed so far a voice activity detector calls speech."""

    def __init__(self) -> None:
        from pocketsphinx import Vad

        self._vad = Vad(mode=2)
        self._framer = Framer(self._vad.frame_bytes // 2)
        self.seconds = 0.0

    def feed(self, samples: np.ndarray) -> None:
        for frame in self._framer.frames(samples):
            self.seconds += self._vad.is_speech(frame.tobytes()) * self._vad.frame_length
