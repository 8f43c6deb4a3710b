"""Whisper tiny.en (faster-whisper / CTranslate2), restricted to the grammar's phrases.

Whisper understands real people far better than the grammar decoders (docs/benchmarks.md),
but it writes free text. Here it answers with one of the grammar's phrases or nothing:

- the utterance, levelled (:func:`hbr.voice.gain.levelled`: a quiet speaker's words
  are not only fainter to Whisper but unlike what it learnt from), with some quiet
  around it, goes to the encoder in a window of at least 6 s (a 30 s window costs
  about 250 ms on two cores; a short one reads worse).
  With short input Whisper repeats the word ("Left, left, left") instead of ending,
  so the decode is capped at the longest phrase's length (in its longest form), and a
  run of tokens may not come a second time once it is longer than any that comes
  twice in a phrase ("One, One" in "Frog, At, One, One, East"): the decode then
  ends after 4 tokens, not 15 (41 ms instead of 90 for a real one-word command);
- a free decode, with a prompt that lists the game's words, gives Whisper's own
  reading, its probability, and the probability that there was no speech at all.
  Whisper writes a long phrase as a list ("Cat, At, Free, Two, Jump, North, East")
  and, given room, starts it over: the reading is what it said once
  (:func:`said_once`), a phrase when a run of its first parts is one (:func:`reading_parts`),
  unless a longer phrase goes on from it and Whisper found its next word nearly as
  likely as the end ("Move, Toward, The Rabbit," for "move toward the rabbit hole"),
  or a phrase a word longer inside it has that word where Whisper found it nearly as
  likely as the one it wrote ("Jumps, East", and "South" nearly as likely as "East");
  a word of courtesy after a phrase (:data:`COURTESY`: "North, please"), or "please"
  before it (:data:`COURTESY_BEFORE`: "Please, go north"), is read past;
- otherwise the phrases nearest to the whole reading by letters (rapidfuzz), each in
  the form written most like the reading, for a one-word reading the one-word phrase
  whose first token Whisper found likeliest, and the longer phrases that go on from
  the reading, each also as a list, as the prompt lists the words (Whisper finds
  "Capture, South, East" likelier than "Capture South East" where it wrote "Cut your
  South East"), are scored by forced decoding, a few to a batch: the probability of the
  phrase's tokens, then of an end; the best fit a token wins;
- the best phrase is accepted by a logistic model (:mod:`hbr.voice.acceptance`) over
  :data:`FEATURES`: how sure Whisper was of it, how far it falls behind the free
  reading, whether the reading was the phrase or another word, the no-speech
  probability, how far apart the letters are, and the phrase's length, fitted by
  ``bench/fit_whisper.py`` on half of the real recordings and the espeak-ng corpus.
  Other words ("off", "bed") lose to Whisper's own reading by far; a command heard
  slightly wrong ("Up" as "Op") falls only a little behind;
- when that reading is not sure enough, the utterance is read twice more, a little
  later in the window (:data:`SHIFTS`): Whisper's reading of a short word moves with
  the audio's alignment to its frames, and the phrase the three readings are surest
  of together (:func:`agreed`) is taken when their mean confidence reaches
  :data:`AGREED_BAR`. Only unsure utterances cost the two extra readings;
- a phrase of which Whisper read only the start ("Plant, A, Rabbit, At, Three" and
  the phrase "plant a rabbit at three one", taken at 0.79 before: the speaker had
  stopped to think) is not taken: the listener waits for the rest
  (:func:`hbr.voice.recognizer.starts_phrase`);
- when even they are unsure, and Whisper read one word, the word model
  (:mod:`hbr.voice.words`: how the encoder heard the utterance, fitted on real
  people) is asked about the phrase the readings came nearest to, and the phrase is
  taken when it finds it likely (:data:`WORD_BAR`): "Done" read for "down", "This"
  for "yes". It only agrees or not; it never brings a phrase of its own;
- and a sure one-word reading that the word model finds very unlikely
  (:data:`DOUBT_BELOW`) is asked again rather than taken: "No" read for "down"
  on a telephone line (not while only a question's answers are listened for).

Each utterance is decoded on its own: nothing carries over from one to the next.
"""

from __future__ import annotations

import importlib.util
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import groupby
from pathlib import Path
from typing import Any

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from hbr import heap
from hbr.voice.acceptance import AcceptanceModel
from hbr.voice.audio import RATE
from hbr.voice.gain import AutoGain, levelled
from hbr.voice.recognizer import (
    DIGITS,
    NOT_A_COMMAND,
    SILENCE,
    SURE,
    UNCLEAR,
    Heard,
    RecognizerError,
    SpeechMeter,
    goes_on,
    longer_phrases,
    spelled,
    squash,
    starts_phrase,
)
from hbr.voice.words import WordModel, pooled

#: The fitted acceptance model (bench/fit_whisper.py writes it).
MODEL_FILE = Path(__file__).with_name("whisper_rejection.json")
#: The word model (:mod:`hbr.voice.words`), fitted by bench/fit_words.py.
WORDS_FILE = Path(__file__).with_name("whisper_words.json")
#: Silence added after the utterance (and before, half of it): Whisper wants a
#: moment of quiet around a word to end it.
PAD_SECONDS = 0.4
#: The encoder's window: at least this long, however short the utterance. Whisper was
#: trained on 30 s windows and misreads more in short ones; real one-word commands
#: right (free decode), by window: 2 s 87.0%, 4 s 89.3%, 6 s 91.7%, 10 s 92.5%, 30 s
#: 92.0%, at 25, 31, 39, 51 and 238 ms a decode (400 clips of ../shared/speech-dev).
WINDOW_SECONDS = 6.0
#: The longest window Whisper's encoder reads (seconds): of a longer utterance (the
#: listener cuts them at 6 s; a file given whole may be longer), the start is read.
LONGEST_WINDOW = 30.0
#: Less speech than this (seconds, by voice activity detection) is silence.
MIN_SPEECH = 0.08
#: Phrase forms scored by forced decoding: the nearest to the reading by letters (and
#: the likeliest one-token form besides).
SHORTLIST = 3
#: The most phrase forms scored by forced decoding in one batch: each costs the decoder
#: about 8 MB while it runs (the prompt and the encoder's output, once per form), and a
#: reading with a dozen forms to score ran beside the Observer's voice being made:
#: `hbr play` peaked at 454 MB on an AVX2 CPU (docs/benchmarks.md). In batches of four
#: the scoring takes about 8% longer.
FORCED_BATCH = 4
#: A rejected utterance at least this confident is UNCLEAR (say it again), below it
#: NOT_A_COMMAND (passed over in silence).
UNCLEAR_ABOVE = 0.15
#: Where the first reading is not sure enough, the utterance is read again with this
#: much more quiet before it (seconds): Whisper's reading moves with the alignment of
#: the audio to its 10 ms frames (one sample less turned a "yes" from 0.89 to 0.84),
#: and a word it misread once ("Start" for "stop", "Doe" for "no", "All right") it
#: often reads right when the audio sits a little later. Whole clips of held-out real
#: speakers: 93.6% of commands right with one reading, 95.4% with the second look, other
#: words and silence taken 0.9% both, none taken for another command (docs/benchmarks.md).
SHIFTS = (0.048, 0.111)
#: The mean confidence of the three readings in their best phrase (a reading that
#: found another phrase counts 0) must reach this: chosen on the fitting half of the
#: real recordings, the highest that kept their other words taken at 1.5%, as the one
#: reading's bar does (0.5 let 2.4% through).
AGREED_BAR = 0.55
#: An unsure one-word reading (confidence UNCLEAR_ABOVE or more) is taken when the word
#: model (:mod:`hbr.voice.words`) finds its phrase at least this likely. On the fitting
#: half of the real recordings, out of fold, 0.5 and 0.7 were a clip apart; the
#: higher was taken. Held-out speakers, streamed: 95.8% of commands right without it,
#: 97.1% with it, none taken for another, other words and silence 0.9% both
#: (docs/benchmarks.md).
WORD_BAR = 0.7
#: A sure one-word reading is not taken, but asked again (UNCLEAR, its phrase the
#: guess), when the word model finds its phrase less likely than this: "down" read
#: "No" on a telephone line, "up" read "Don" in noise. On the fitting half of the real
#: recordings (bench/word_doubt.py: out of fold, whole clips as recorded, in noise, in
#: echo and narrowband, 2,404 commands and 1,352 other words), 0.1 caught 8 of the 43
#: commands taken for another and 12 of the 50 other words taken for a command, and
#: asked again for 14 of the 2,120 read right (docs/benchmarks.md, "The word model's
#: doubt"). Only while the whole grammar is listened for: while a question waits and
#: only its answers are heard, a voice whose "no" the model doubts must still be able
#: to answer (asked again, it would be doubted again).
DOUBT_BELOW = 0.1
#: Whisper's reading is a phrase that a longer one goes on from, and the longer one's
#: next word is at least this likely against the end of the text (log odds): the
#: reading is scored with the longer phrases by forced decoding instead of taken as it
#: is (see WhisperRecognizer._goes_on_odds). Of 16 espeak-ng commands read with odds
#: of -6 to -3, scored so, 15 stayed right, and one at -5.9 did not ("i move south"
#: became "i move south east"); the longer phrases lost were read at -3.1 and above.
GOES_ON_ODDS = -4.0
#: Another phrase scored by forced decoding within this much of the best (log
#: probability a token) is its rival: Whisper cannot tell the two apart surely, however
#: sure the acceptance model is that a command was said, and the game asks back when
#: the two mean different things (:attr:`hbr.voice.recognizer.Heard.rival`). Piper saying
#: "cat at three one steps south west" was read "Cat, At, Three, One, St, Southwest" and
#: taken, at 0.98, for "cat at three one south west" (a jump, not a step), 0.13 ahead. On
#: 478 clips of the four games' phrases (Piper and three espeak-ng voices, a sample apart
#: from bench/games_speech.py's), 4 of the 8 commands taken for another had a rival
#: meaning something else within 0.15, and 3 of the 420 taken right (all three below
#: the confidence at which the game asks back anyway: docs/benchmarks.md).
RIVAL_BEHIND = 0.15
#: Whisper's reading is a phrase (or a phrase scored best), and a phrase one word longer
#: puts its extra word where Whisper found that word at least this likely against the
#: one it wrote (log odds, :meth:`WhisperRecognizer._nearly`): the longer phrase is
#: scored too, and is the rival if it comes near. Piper saying "cat at five three jumps
#: south east" was read, late in a streamed game, "Cat, At, Five, Three, Jumps, East"
#: (the "s" of "jumps" swallowed "south") and taken at 1.00 for a jump east; Whisper
#: had found "South" nearly as likely as "East" there (log odds -0.3, and -0.6 for
#: another such jump). Of 552 readings that were the phrase said and had such a longer
#: phrase (five espeak-ng voices and Piper, phrases of Hunter Bear Rabbit and Jumpers),
#: 13 had its word at -3 or above (the median -11.3), and cost a forced scoring
#: (docs/benchmarks.md, "A word swallowed inside a phrase, and a number no phrase has").
SWALLOWED_ODDS = -3.0
#: Whisper's reading is a phrase with a number (or a phrase scored best), and another
#: number was at least this likely against the one it wrote there (log odds): the
#: phrase with that number is scored too (the likeliest one: RENUMBERED_MOST), and wins
#: or is the rival if it comes near. espeak-ng en+f2 saying "hare at seven three steps
#: south east" was read "Here are ten, One, Three, Ten, South, East", scored best as
#: "hare at one three ...", and taken at 0.75 for a move never asked for; scoring that
#: phrase, Whisper found "Seven" far likelier than "One" in its place (log odds +4.7).
#: Of 587 readings of the phrase said (bench/number_phrases.py: three games' phrases with
#: numbers, five espeak-ng voices and Piper), 21 had another number at -1 or above;
#: scoring the likeliest left every one of them right, and both commands acted on
#: wrongly are asked back now (docs/benchmarks.md, "A number heard as another").
RENUMBERED_ODDS = -1.0
#: How many of those phrases are scored, the likeliest first: each costs about 45 ms on
#: two cores, and an utterance read badly can have a dozen above the bar (scoring them
#: all took some over 2 s, and changed no clip of the benchmark).
RENUMBERED_MOST = 1
#: Words that sound like a number word. Whisper writes one where a number was said
#: after a word that sounds the same: "go to two five" was read "Go, To, Five" by all
#: six voices of a benchmark (the two run together into one), and nearest by letters
#: to the reading were a dozen phrases alike ("go to five one" ...), of which the three
#: scored were not the one said. A phrase is as near to the reading with such a word as
#: that number (see WhisperRecognizer._shortlist), but is not taken where the reading
#: is the start of a phrase ("Go, To, Four" of "go to four ... five": see
#: WhisperRecognizer.recognize; docs/benchmarks.md, "A number heard as another").
SOUNDS_LIKE = {"to": "two", "too": "two", "for": "four", "won": "one", "ate": "eight"}
#: CPU threads for CTranslate2: these machines have two cores.
THREADS = 2
#: Words said after a command out of courtesy or haste ("north, please", "up now",
#: "yes please", "no thanks"): Whisper writes them, and a phrase with one of them after
#: it is read as the phrase (:meth:`WhisperRecognizer._past_courtesy`). Said alone they
#: are no command; a reading that is a phrase whole is never cut.
COURTESY = ("please", "thanks", "thank you", "now")
#: Said before a command ("please go north"): the phrase after it is read, scored as
#: Whisper wrote it after the word. Not "now": "now north" is read "Down" (3 of 42
#: espeak-ng commands taken for "down", docs/benchmarks.md).
COURTESY_BEFORE = ("please",)
#: Sounds of hesitation as Whisper writes them ("U" too, for a short "uh"). A player
#: thinking aloud says "uh" or "um" alone, and Whisper, whose prompt lists the game's
#: words, reads it "Uh" and then finds "up" the nearest phrase, likely enough to take:
#: espeak-ng and Piper voices saying "uh", "um" or "ah" alone were taken for "up" at 0.8
#: to 1.0, a move the player never made. Real people's "up" is read so too (6 of the 92 of the fitting half of
#: the real recordings, and no other command), so a phrase found from a reading that
#: is one of these is handed on with the sound as its rival (:data:`RIVAL_BEHIND`):
#: the game asks "Did you say up?" rather than acting on it (docs/benchmarks.md). So is
#: a one-word phrase that Whisper wrote itself when, at its first step, it found one of
#: these within :data:`HESITATION_BEHIND` of the phrase's first token.
HESITATIONS = (
    "u", "uh", "uhh", "um", "umm", "uhm", "ah", "ahh", "er", "erm", "eh", "oh", "ooh", "hmm", "hm", "mm", "mhm", "huh",
)
#: How much likelier (log probability) than every sound of hesitation Whisper must have
#: found the first token of a one-word phrase it wrote itself for the phrase to stand
#: alone. On the fitting half of the real recordings, of the commands Whisper read as a
#: command word (551), none had a hesitation nearer than 0.62 (an "up" against "Ah"); of
#: espeak-ng voices saying "uh", "ah" or "oh" alone, read "Up" or "No", all four were
#: within 0.2.
HESITATION_BEHIND = 0.5
#: The acceptance model's inputs, in order (see :meth:`WhisperRecognizer.evidence`).
FEATURES = (
    "phrase logprob", "per token", "margin", "free is phrase", "free is other", "no speech", "letters apart", "tokens",
)
_STOP_MARKS = (".", "!", "?")


_COURTEOUS = frozenset(squash(word) for word in COURTESY)
_COURTEOUS_BEFORE = frozenset(squash(word) for word in COURTESY_BEFORE)


#: A part of Whisper's text that begins this near its first part by letters (normalised
#: edit distance, over the first part's length), when that part is at least
#: REPEAT_LETTERS long, is the phrase said over: "Take a Carrot, Take a Kerrot" (Piper
#: saying "take a carrot", 2 of 3 times), "Plant the Ladder at 1, Eight, Plant the Lider
#: at 1-8" (Piper saying "plant a ladder at one eight": read whole, it was far from it).
REPEAT_APART = 0.25
REPEAT_LETTERS = 6


def said_once(parts: list[str]) -> int:
    """How many of Whisper's parts (its text cut at each punctuation mark, squashed)
    come before it starts over: with short input it repeats the phrase ("Left, left,
    left", "West, Free, Times, West"), not always to the letter ("Capture, nor feast,
    Capt, ...", "Take a Carrot, Take a Kerrot"): a part that begins like the first, or
    that the first begins like, or one that begins as a long first part's near twin
    (:data:`REPEAT_APART`), starts it over. Parts with no letters at the end do not count."""

    def again(part: str) -> bool:
        shorter = min(len(part), len(parts[0]))
        begins = part[: len(parts[0])]
        twin = len(parts[0]) >= REPEAT_LETTERS and Levenshtein.normalized_distance(begins, parts[0]) <= REPEAT_APART
        return part == parts[0] or shorter >= 3 and part[:shorter] == parts[0][:shorter] or twin

    count = next((i for i, part in enumerate(parts) if i and part and again(part)), len(parts))
    while count and not parts[count - 1]:
        count -= 1
    return count


def reading_parts(parts: list[str], is_phrase: Callable[[str], bool]) -> int:
    """How many of the parts Whisper said once make its reading: the longest run of
    first parts that is a phrase, when what follows is nothing or a phrase too ("Toward
    the bear, up": the first of two commands in one breath); else all of them, so that
    "West, Free, Times" is read whole and not as "west" (a command heard in part)."""
    for count in range(len(parts), 0, -1):
        if is_phrase("".join(parts[:count])) and (count == len(parts) or is_phrase("".join(parts[count:]))):
            return count
    return len(parts)


def forms(phrase: str) -> list[str]:
    """How Whisper may write a phrase: "Capture north west", "Capture North West", for
    a two-word phrase "Northwest", "North-west" too, and, since the prompt lists the
    game's words, as a list: "Cat, At, Three, Two, Jumps, North, East" (how it writes
    the long phrases of Jumpers and Spyhunting), and with its numbers as digits, as
    Whisper writes many it hears ("Go to 2 7", "Go to 27": Piper saying "go to three
    seven" was read "0 to 3 7", and scored as "Go to three seven" the phrase was far
    less likely than the reading, and turned away). Each starts with a space, as
    Whisper's first token does."""
    written = {phrase.capitalize(), phrase.title()}
    parts = phrase.split()
    if len(parts) == 2:
        written |= {"".join(parts).capitalize(), "-".join(parts).capitalize()}
    if len(parts) > 1:
        written.add(as_list(phrase))
    if any(part in DIGITS for part in parts):
        written |= {in_digits(parts, joined).capitalize() for joined in (False, True)}
    return sorted(" " + w for w in written)


def as_list(phrase: str) -> str:
    """A phrase as Whisper writes a list of the prompt's words: "Capture, South, West"."""
    return ", ".join(part.capitalize() for part in phrase.split())


def widened(phrases: Iterable[str]) -> dict[str, list[tuple[int, str, str]]]:
    """For each phrase, the phrases one word longer with the word inside it, each with
    where the word goes and what it is: "jumps east" gets (1, "south", "jumps south
    east"). Not after it (the longer phrase goes on from it:
    :func:`hbr.voice.recognizer.goes_on`), nor before it: at its first step Whisper
    finds every word of the prompt nearly as likely ("Go" and "Step" before "Right":
    8% of real commands within 0.5 in log odds), and a first word is not swallowed by
    the word before it."""
    known = set(phrases)
    found: dict[str, list[tuple[int, str, str]]] = {}
    for longer in sorted(known):
        words = longer.split()
        for i in range(1, len(words) - 1):
            shorter = " ".join(words[:i] + words[i + 1 :])
            if shorter in known:
                found.setdefault(shorter, []).append((i, words[i], longer))
    return found


def renumbered(phrases: Iterable[str]) -> dict[str, list[tuple[int, str, str]]]:
    """For each phrase with a number, the phrases with one of its numbers another, each
    with where that number is and what it becomes: "go to three seven" gets (2, "one",
    "go to one seven"), (3, "five", "go to three five") ..."""
    known = set(phrases)
    found: dict[str, list[tuple[int, str, str]]] = {}
    for phrase in sorted(known):
        words = phrase.split()
        for i, word in enumerate(words):
            for other in DIGITS if word in DIGITS else ():
                changed = " ".join([*words[:i], other, *words[i + 1 :]])
                if other != word and changed in known:
                    found.setdefault(phrase, []).append((i, other, changed))
    return found


def wider(phrases: Iterable[str], than: str | None) -> dict[str, str]:
    """Each of ``phrases`` that is a word longer than ``than`` (one of :func:`widened`'s,
    not :func:`renumbered`'s), mapped to ``than``: a phrase with a word Whisper
    swallowed is weighed as the phrase without it."""
    return {p: than for p in phrases if than is not None and len(p.split()) == len(than.split()) + 1}


def numbers(text: str) -> Counter[str]:
    """The number words of a text, each digit as its word ("Frog at 9, Three": nine and
    three), with how often each comes. Where Whisper wrote a number that the phrase
    scored best has not ("Frog, At, Nine, Three, Steps, East" and the phrase "frog at
    five three steps east"), the speaker said another place, or one off the board, or
    Whisper misheard it: either way the phrase is no surer than the reading, which is
    its rival, and the game asks back (:data:`RIVAL_BEHIND`). Jumpers' phrases with a
    number changed so that no phrase has it, said by espeak-ng and Piper voices, were
    taken for another place without asking 24 times; 17 of them had such a number. Of
    the commands taken right without asking, 3 of 415 had one (three games; "Go, Two,
    Eight, One" for "go to eight one"): those are asked back now (docs/benchmarks.md,
    "A word swallowed inside a phrase, and a number no phrase has")."""
    return Counter(word for word in re.findall(r"[a-z]+", spelled(text)) if word in DIGITS)


def as_numbers(text: str, said: frozenset[str]) -> str:
    """``text`` with each word that sounds like one of the number words ``said`` (those
    of the game's phrases) written as that number (:data:`SOUNDS_LIKE`): "Go, To, Five"
    is "go two five"."""
    return " ".join(
        number if (number := SOUNDS_LIKE.get(word)) in said else word for word in re.findall(r"[a-z0-9']+", text.lower())
    )


def in_digits(words: list[str], joined: bool) -> str:
    """The words with each number word a digit ("go to 2 7"), a run of them ``joined``
    into one number ("go to 27")."""
    said: list[str] = []
    for number, run in groupby(words, key=lambda word: word in DIGITS):
        digits = [str(DIGITS.index(word)) if number else word for word in run]
        said += ["".join(digits)] if number and joined else digits
    return " ".join(said)


def per_token(shortlist: Sequence[tuple[tuple[int, ...], str, float]], scores: Sequence[float]) -> list[float]:
    """Each scored phrase form's log probability a token (with its end): how well it
    fits, a long phrase's probability being a product of many."""
    return [score / (len(tokens) + 1) for score, (tokens, _, _) in zip(scores, shortlist, strict=True)]


def agreed(readings: Sequence[tuple[str | None, float]]) -> tuple[str | None, float]:
    """The phrase that the readings of one utterance are surest of together, and their
    mean confidence in it (a reading that found another phrase, or none, counts 0): one
    confident reading among unsure ones is not enough, two usually are."""
    totals: dict[str, float] = {}
    for phrase, confidence in readings:
        if phrase is not None:
            totals[phrase] = totals.get(phrase, 0.0) + confidence
    if not totals:
        return None, 0.0
    best = max(totals, key=lambda phrase: totals[phrase])
    return best, totals[best] / len(readings)


def prompt_words(phrases: list[str]) -> list[str]:
    """The words Whisper is shown as the text before this one, so that it expects
    them: every word of the phrases, shortest first. Whole phrases as the prompt
    ("Move north. Step north. Toward the rabbit.") made Whisper write what the prompt
    said: on all 178 phrases in espeak-ng, 14% of clean commands were read as another
    phrase ("step toward the rabbit" as "Step north"), against 0.8% with the words
    alone; on real speech both did alike (docs/benchmarks.md)."""
    return sorted({w for p in phrases for w in p.split()}, key=lambda w: (len(w), w))


def log_softmax(logits: np.ndarray) -> np.ndarray:
    x = np.where(np.isfinite(logits), logits, -1e30).astype(np.float64)
    top = x.max(axis=-1, keepdims=True)
    out: np.ndarray = x - top - np.log(np.exp(x - top).sum(axis=-1, keepdims=True))
    return out


@dataclass(frozen=True)
class Evidence:
    """What Whisper made of one utterance: its free reading, the best phrase, and the
    acceptance model's inputs."""

    free: str
    phrase: str | None
    values: tuple[float, ...]
    #: How the encoder heard the utterance (:func:`hbr.voice.words.pooled`).
    heard: np.ndarray | None = field(default=None, compare=False, repr=False)
    #: The likeliest other phrase scored, and how far behind the best (log probability a
    #: token), where phrases were scored by forced decoding (:data:`RIVAL_BEHIND`).
    rival: str | None = None
    behind: float = float("inf")
    #: The phrase the acceptance model's inputs are of, where it is not ``phrase``: the
    #: one without the word Whisper swallowed (see WhisperRecognizer._nearly).
    weighed: str | None = None


class WhisperRecognizer:
    """Whisper tiny.en in CTranslate2 format, answering with grammar phrases only."""

    name = "whisper"
    denoised = False
    adapts = False
    sure = SURE

    def __init__(
        self, phrases: list[str], model_dir: Path, acceptance: AcceptanceModel | None = None,
        words: WordModel | None = None,
    ) -> None:
        """``acceptance``: the model that tells commands from other sounds, and
        ``words``: the word model; the fitted ones shipped with hbr unless given
        (bench/fit_whisper.py and bench/fit_words.py give their own)."""
        try:
            import ctranslate2
            import tokenizers

            feature_extractor = _feature_extractor()
        except ImportError as err:  # pragma: no cover - a broken install
            raise RecognizerError(f"faster-whisper is not installed ({err}): pip install faster-whisper") from None
        try:
            self._model = ctranslate2.models.Whisper(
                str(model_dir), device="cpu", compute_type="int8", intra_threads=THREADS
            )
            self._tokenizer = tokenizers.Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        except (RuntimeError, ValueError, OSError) as err:
            raise RecognizerError(f"{model_dir} is not a usable Whisper model ({err})") from None
        if self._model.is_multilingual:
            raise RecognizerError(f"{model_dir} is a multilingual Whisper model; hbr needs an English one (tiny.en)")
        self._storage = ctranslate2.StorageView
        self._features = feature_extractor(feature_size=self._model.n_mels)
        self.acceptance = acceptance or AcceptanceModel.load(MODEL_FILE, FEATURES, "bench/fit_whisper.py")
        self.words = words or WordModel.load(WORDS_FILE)
        token = self._tokenizer.token_to_id
        #: What may follow a whole phrase: the end of the text, or a punctuation mark;
        #: after a phrase that a longer one goes on from, not a comma (see _forced_scores).
        end_of_text = token("<|endoftext|>")
        if end_of_text is None:
            raise RecognizerError(f"{model_dir} is not a usable Whisper model (its tokenizer has no end of text)")
        self._stops = [end_of_text, *(self._encode(mark)[0] for mark in _STOP_MARKS)]
        self._ends = [*self._stops, self._encode(",")[0]]
        hint = self._encode(" " + ", ".join(w.capitalize() for w in prompt_words(phrases)) + ".")
        self._prompt = [token("<|startofprev|>"), *hint, token("<|startoftranscript|>"), token("<|notimestamps|>")]
        self.phrases = frozenset(phrases)
        #: phrase text (squashed) -> phrase, and each phrase -> the tokens of its written forms
        self._phrases = {squash(p): p for p in phrases}
        self._forms = {p: [tuple(self._encode(f)) for f in forms(p)] for p in sorted(set(phrases))}
        self._squashed = {p: squash(p) for p in self._forms}
        #: Each phrase of more than one word as a list ("Capture, South, West"), as the
        #: prompt lists the words: Whisper finds a phrase likeliest so, whatever it wrote
        #: (see _shortlist)
        self._listed = {p: tuple(self._encode(" " + as_list(p))) for p in self._forms if len(p.split()) > 1}
        #: Phrases that a longer one goes on from ("toward rabbit": "toward rabbit hole").
        self._open = frozenset(p for p in phrases if goes_on(p, phrases))
        #: The phrases one word longer than each, the word inside, and those with one
        #: number another (see _nearly).
        self._widened = widened(phrases)
        self._renumbered = renumbered(phrases)
        #: The number words of the phrases (see _shortlist).
        self._numbers = frozenset(numbers(" ".join(phrases)))
        #: The first token of each word of the phrases, as Whisper writes it after a space
        #: or a comma, in lower case or capitalised, and a number as its digit too (see
        #: _goes_on_odds, _nearly).
        self._word_tokens = {
            w: sorted({self._encode(f" {form}")[0] for form in (w, w.capitalize(), *in_digits([w], joined=False).split())})
            for p in phrases for w in p.split()
        }
        self._comma = self._encode(",")[0]
        #: The sounds of hesitation (none that is a word of the phrases: a game may say
        #: "oh" for zero), and the first tokens of those Whisper writes in one
        self._hesitant = frozenset(HESITATIONS) - self._word_tokens.keys()
        self._hesitations = {
            ids[0]: word for word in sorted(self._hesitant) for form in (word, word.capitalize())
            if len(ids := self._encode(" " + form)) == 1
        }
        #: The first tokens of a word of courtesy, as Whisper writes it after a phrase
        self._courtesy = sorted({self._encode(f" {w}")[0] for word in COURTESY for w in (word, word.capitalize())})
        self._longest = max(len(tokens) for written in self._forms.values() for tokens in written)
        self._no_repeat = max(3, 1 + max(_longest_repeat(tokens) for written in self._forms.values() for tokens in written))
        #: The evidence about the last utterance with speech (for fitting, diagnostics).
        self.last: Evidence | None = None

    def _encode(self, text: str) -> list[int]:
        ids: list[int] = self._tokenizer.encode(text, add_special_tokens=False).ids
        return ids

    def listen(self, among: frozenset[str] | None = None, early: bool = False) -> WhisperUtterance:
        """``early``: only Whisper's own reading counts (scoring other phrases by forced
        decoding costs about 5 ms a token each)."""
        return WhisperUtterance(self, among, early)

    def recognize(
        self, samples: np.ndarray, speech_seconds: float, among: frozenset[str] | None = None, early: bool = False
    ) -> Heard:
        """One whole utterance (16 kHz int16) to a phrase (one of ``among``, if given)
        or a reason; ``early``: Whisper's own reading or nothing.

        Every phrase is weighed, also where only ``among`` may be answered: the others
        are decoys. What sounds most like one of them is refused (UNCLEAR, that phrase
        the guess), never taken for the nearest of ``among``: a player who says the
        command again ("left!") in place of yes or no is not heard to say yes. On the
        held-out real recordings heard as answers, other words and silence taken for yes
        or no fell from 9.6% to none, and yes and no were heard as often as before,
        97.2% and 97.3% (docs/benchmarks.md, "Every phrase weighed while a question
        waits")."""
        heard = self._read(samples, speech_seconds, among, early)
        if among is None or heard.phrase is None or heard.phrase in among:
            return heard
        assert self.last is not None  # the reading the phrase came from
        return replace(heard, words=self.last.free, phrase=None, rejected=UNCLEAR, guess=heard.phrase, rival=None)

    def _read(self, samples: np.ndarray, speech_seconds: float, among: frozenset[str] | None, early: bool) -> Heard:
        began = time.perf_counter()
        self.last = None
        if speech_seconds < MIN_SPEECH:
            return Heard("", None, None, _ms(began), SILENCE)
        evidence = self.evidence(samples, early)
        self.last = evidence
        looks = [evidence]
        if self._confidence(evidence) < 0.5 and not early:  # a second look, from two other alignments
            looks += [self.evidence(samples, later=s) for s in SHIFTS]
        readings = [(e.phrase, self._confidence(e)) for e in looks]
        heap.trim()  # what the decoder freed goes back (hbr.heap)
        phrase, confidence = agreed(readings)
        # the phrase the reading is weighed as: without a word it swallowed ("Move, Towards,
        # The" is the start of "move towards the hole", not of "move towards hole")
        weighed = evidence.weighed if evidence.weighed is not None and evidence.phrase == phrase else phrase
        if weighed is not None and squash(evidence.free) not in self._phrases and starts_phrase(evidence.free, [weighed]):
            # Whisper read only the start of the phrase: the rest was never heard
            return Heard(evidence.free, None, confidence, _ms(began), UNCLEAR)
        if phrase is not None and self._sounded(evidence.free, phrase) and starts_phrase(evidence.free, among or self.phrases):
            # "Go to four" is "go to two four" run together, or the start of "go to four
            # five" from a speaker who stopped to think: asked again, and waited for
            return Heard(evidence.free, None, confidence, _ms(began), UNCLEAR, guess=phrase)
        said = self.word_said(evidence, phrase)
        doubted = among is None and said is not None and said < DOUBT_BELOW  # sure, but not of the word heard
        if phrase is None or confidence < (0.5 if len(readings) == 1 else AGREED_BAR) or doubted:
            if phrase is not None and said is not None and said >= WORD_BAR and confidence >= UNCLEAR_ABOVE and not early:
                return Heard(phrase, phrase, said, _ms(began), rival=self._rival(looks, phrase))
            if confidence >= UNCLEAR_ABOVE:
                return Heard(evidence.free, None, confidence, _ms(began), UNCLEAR, guess=phrase)
            return Heard(evidence.free, None, confidence, _ms(began), NOT_A_COMMAND)
        return Heard(phrase, phrase, confidence, _ms(began), rival=self._rival(looks, phrase))

    def _sounded(self, reading: str, phrase: str) -> bool:
        """Whether ``phrase`` is nearer by letters to ``reading`` with its words that sound
        like a number written as it (:data:`SOUNDS_LIKE`) than to ``reading`` as it is."""
        sounded = squash(as_numbers(reading, self._numbers))
        return Levenshtein.distance(sounded, self._squashed[phrase]) < Levenshtein.distance(squash(reading), self._squashed[phrase])

    @staticmethod
    def _rival(looks: Sequence[Evidence], phrase: str) -> str | None:
        """The phrase (or sound of hesitation) that Whisper found nearly as likely as
        ``phrase`` (:data:`RIVAL_BEHIND`), if any: from the first of the readings of the
        utterance that found ``phrase`` too and had one. A second look that read "Uh"
        where the first read "U" is as much a doubt as the first."""
        return next((e.rival for e in looks if e.phrase == phrase and e.behind < RIVAL_BEHIND), None)

    def word_said(self, evidence: Evidence, phrase: str | None) -> float | None:
        """How likely the word model finds ``phrase``, where Whisper read one word (its
        misreadings of a command are one word: "Done", "Now", "This"; a sentence that
        begins with a command is not one) and the word model knows the phrase; else None."""
        if phrase is None or evidence.heard is None or len(evidence.free.split()) > 1:
            return None
        return self.words.probability(evidence.heard, phrase)

    def _confidence(self, evidence: Evidence) -> float:
        if evidence.phrase is None:
            return 0.0
        return self.acceptance.confidence(evidence.values, len((evidence.weighed or evidence.phrase).split()))

    def evidence(self, samples: np.ndarray, early: bool = False, later: float = 0.0) -> Evidence:
        """Whisper's free reading of the audio and the best phrase, with the numbers
        the acceptance model weighs; ``later``: seconds of quiet before the audio beyond
        the usual (:data:`SHIFTS`)."""
        encoded, lead = self._encoded(samples, later)
        # Whisper's own reading, and every first token's probability
        free = self._model.generate(
            encoded, [self._prompt], beam_size=1, max_length=len(self._prompt) + self._longest + 2,
            return_logits_vocab=True, return_no_speech_prob=True, suppress_blank=False,
            no_repeat_ngram_size=self._no_repeat,
        )[0]
        tokens = free.sequences_ids[0]
        said, n = self._reading(tokens)
        text, start, n, polite = self._past_courtesy(tokens, said, n)
        before = tokens[:start]  # "Please," before the phrase: what its tokens follow
        steps = log_softmax(np.asarray(free.logits[0])[: n + 2])
        # a word of courtesy after the phrase counts as its end: "North please" is as
        # sure a "north" as "North."
        courtesy = self._courtesy if polite else []
        free_score = self._said_then_end(steps, tokens[:n], 0.0, [*self._ends, *courtesy], start)
        phrase = read = self._phrases.get(squash(text))
        rival, behind, weighed = None, float("inf"), phrase
        longer = [] if read is None else sorted(longer_phrases(read, self.phrases))
        if read is not None and longer and self._goes_on_odds(read, longer, steps, tokens, n, courtesy) < GOES_ON_ODDS:
            longer = []  # Whisper is sure its text ends there
        nearly = [] if read is None else self._nearly(read, tokens[:n], steps, start)
        if read is not None and not longer and not nearly:  # Whisper itself read it
            score, length, apart = free_score, n - start, 0.0
            if len(text.split()) == 1 and (sound := self._hesitation_near(steps[start], tokens[start])) is not None:
                rival, behind = sound, 0.0  # "Up" from a hesitation, "Uh" a near second
        elif early:
            return Evidence(said, None, ())
        else:
            shortlist = self._shortlist(text, steps[start], read, longer, nearly)
            scores, forced = self._forced_scores(np.asarray(encoded), shortlist, courtesy, before)
            fits = per_token(shortlist, scores)
            best = int(np.argmax(fits))
            # each phrase with a word Whisper nearly wrote inside is weighed as the phrase without it
            widens = wider(nearly, read)
            # and the phrases Whisper nearly wrote, scoring the best one: a word inside it, another number
            first = shortlist[best][1]
            missed = self._nearly(first, [*before, *shortlist[best][0]], log_softmax(forced[best]), len(before))
            if extra := self._written([p for p in missed if p not in {q for _, q, _ in shortlist}], text):
                widens |= wider([p for _, p, _ in extra], first)
                shortlist += extra
                scores += self._forced_scores(np.asarray(encoded), extra, courtesy, before)[0]
                fits = per_token(shortlist, scores)
                best = int(np.argmax(fits))
            phrase = shortlist[best][1]
            others = [(fit, other) for fit, (_, other, _) in zip(fits, shortlist, strict=True) if other != phrase]
            if others:
                fit, rival = max(others)
                behind = fits[best] - fit
            # A phrase with a swallowed word is weighed as the phrase without it: whether
            # a command was said at all is the acceptance model's question, which of the
            # two the rival's (the longer is further from the reading by letters, less
            # likely in all, and would be turned away where the shorter was asked back)
            weighed = widens.get(phrase) or phrase
            best = max((i for i, (_, p, _) in enumerate(shortlist) if p == weighed), key=lambda i: fits[i])
            (best_tokens, _, apart), score = shortlist[best], scores[best]
            length = len(best_tokens)
            if weighed == read:  # Whisper's own reading won over the longer phrases: weighed as read
                score, length, apart = free_score, n - start, 0.0
            if squash(text) in self._hesitant:  # "Uh" scored as "up": the sound is as good a reading
                rival, behind = text, 0.0
            if numbers(text) - numbers(phrase):  # a number Whisper wrote that the phrase has not
                rival, behind = text, 0.0
        values = (
            score,
            score / (length + 1),
            min(0.0, score - free_score),
            float(squash(text) in self._phrases),
            float(bool(squash(text)) and squash(text) not in self._phrases),
            float(free.no_speech_prob),
            apart,
            float(length),
        )
        return Evidence(said, phrase, values, pooled(np.asarray(encoded)[0], samples, lead), rival, behind,
                        weighed if weighed != phrase else None)

    def _hesitation_near(self, first: np.ndarray, token: int) -> str | None:
        """The sound of hesitation Whisper found nearly as likely as ``token`` at the
        first step (log probabilities ``first``), if any: the phrase it begins may have
        been "uh" read as "up" (:data:`HESITATION_BEHIND`)."""
        if not self._hesitations:
            return None
        nearest = max(self._hesitations, key=lambda sound: float(first[sound]))
        return self._hesitations[nearest] if float(first[token] - first[nearest]) < HESITATION_BEHIND else None

    def heard(self, samples: np.ndarray) -> np.ndarray:
        """How the encoder heard an utterance, pooled, as the word model sees it (for fitting it)."""
        encoded, lead = self._encoded(samples)
        return pooled(np.asarray(encoded)[0], samples, lead)

    def _encoded(self, samples: np.ndarray, later: float = 0.0) -> tuple[Any, int]:
        """The encoder's output for the utterance in its window, and where in the window
        the utterance begins (samples)."""
        lead = int(PAD_SECONDS / 2 * RATE) + round(later * RATE)
        samples = samples[: int(LONGEST_WINDOW * RATE) - lead - int(PAD_SECONDS * RATE)]  # the encoder's most
        audio = np.zeros(max(lead + len(samples) + int(PAD_SECONDS * RATE), int(WINDOW_SECONDS * RATE)), np.float32)
        audio[lead : lead + len(samples)] = levelled(samples) / 32768.0
        mel = self._features(audio)[:, :-1]
        return self._model.encode(self._storage.from_array(np.ascontiguousarray(mel[None])), to_cpu=True), lead

    def _reading(self, tokens: list[int]) -> tuple[str, int]:
        """Whisper's reading (:func:`reading_parts` of what it said once) and how many
        tokens it takes."""
        cuts = [i for i, token in enumerate(tokens) if token in self._ends] + [len(tokens)]
        parts = [squash(self._tokenizer.decode(tokens[a:b])) for a, b in zip([0, *(c + 1 for c in cuts[:-1])], cuts, strict=True)]
        count = reading_parts(parts[: said_once(parts)], lambda text: text in self._phrases)
        return (self._tokenizer.decode(tokens[: cuts[count - 1]]).strip(), cuts[count - 1]) if count else ("", 0)

    def _past_courtesy(self, tokens: list[int], reading: str, n: int) -> tuple[str, int, int, bool]:
        """The reading's phrase, where its tokens begin and end, and whether a word of
        courtesy follows them, when the reading (its first ``n`` tokens) is a phrase
        with a word of courtesy after it (:data:`COURTESY`: "North, Please.") or before
        it (:data:`COURTESY_BEFORE`: "Please, North."); else the reading as it is. Read
        whole, "North, Please" was near no phrase: 18 of 42 espeak-ng commands with
        "please" after them were right, and none of 42 with "please" before them,
        against 37 of 42 said alone (docs/benchmarks.md)."""
        if squash(reading) not in self._phrases:
            def said(a: int, b: int) -> str:
                return squash(self._tokenizer.decode(tokens[a:b]))

            for k in range(1, n):
                if said(0, k) in self._phrases and said(k, n) in _COURTEOUS:
                    return self._tokenizer.decode(tokens[:k]).strip(), 0, k, True
            for k in range(n - 1, 0, -1):  # the last cut that leaves "Please," whole: its comma too
                if said(0, k) in _COURTEOUS_BEFORE and said(k, n) in self._phrases:
                    return self._tokenizer.decode(tokens[k:n]).strip(), k, n, False
        return reading, 0, n, False

    def _goes_on_odds(
        self, phrase: str, longer: list[str], steps: np.ndarray, tokens: Sequence[int], n: int, courtesy: list[int]
    ) -> float:
        """Log odds that Whisper's text, after the ``n`` tokens of ``phrase``, goes on with
        the next word of one of the ``longer`` phrases rather than ends (after a comma
        too: Whisper writes a phrase as a list and ends it "Rabbit," as often as
        "Rabbit."). Where the last word of a longer phrase was said faintly, Whisper
        ends its text after the shorter phrase yet finds the word nearly as likely:
        "toward the rabbit hole" was read "Toward the Rabbit" and taken with confidence
        0.91 to 0.99 (10 of 2,136 espeak-ng clips, docs/benchmarks.md): the hunter went
        to the rabbit instead of its hole, without being asked. ``courtesy``: the tokens
        of the word of courtesy Whisper wrote after the phrase, which end it as a stop does."""
        if len(steps) <= n:
            return float("-inf")  # the decode stopped at its length limit: nothing to weigh
        words = sorted({t for p in longer for t in self._word_tokens[p.split()[len(phrase.split())]]})
        stops = [*self._stops, *courtesy]  # after "North" of "North, please": please ends it
        goes, ends = np.logaddexp.reduce(steps[n][words]), np.logaddexp.reduce(steps[n][stops])
        if n < len(tokens) and tokens[n] == self._comma and len(steps) > n + 1:
            goes = np.logaddexp(goes, steps[n][self._comma] + np.logaddexp.reduce(steps[n + 1][words]))
            ends = np.logaddexp(ends, steps[n][self._comma] + np.logaddexp.reduce(steps[n + 1][stops]))
        return float(goes - ends)

    def _nearly(
        self, phrase: str, tokens: Sequence[int], steps: np.ndarray | Sequence[np.ndarray], start: int
    ) -> list[str]:
        """The phrases Whisper nearly wrote instead of ``phrase``, reading it as ``tokens``
        (from ``start``) with the log probabilities ``steps`` of each next token: those a
        word longer inside it (:func:`widened`) whose word Whisper found nearly as likely
        as the one it wrote in its place (:data:`SWALLOWED_ODDS`): "Jumps, East" where
        "jumps south east" was said and the "s" of "jumps" swallowed "south"; and those
        with one of its numbers another (:func:`renumbered`) that Whisper found nearly as
        likely as the number it wrote (:data:`RENUMBERED_ODDS`): "Here are ten, One,
        Three" scored best as "hare at one three" where "hare at seven three" was said."""
        begins = self._word_starts(tokens, start)
        words = phrase.split()
        found: list[tuple[float, str]] = []
        for changes, bar in ((self._widened, SWALLOWED_ODDS), (self._renumbered, RENUMBERED_ODDS)):
            for i, word, other in changes.get(phrase, ()):
                j = begins.get(squash(" ".join(words[:i])))
                if j is not None and j < len(steps):
                    odds = float(np.logaddexp.reduce(steps[j][self._word_tokens[word]]) - steps[j][tokens[j]])
                    if odds >= bar:
                        found.append((odds, other))
        swallowed = [other for _, other in found if len(other.split()) > len(words)]
        misheard = [other for _, other in sorted(found, reverse=True) if len(other.split()) == len(words)]
        return swallowed + misheard[:RENUMBERED_MOST]

    def _word_starts(self, tokens: Sequence[int], start: int) -> dict[str, int]:
        """Where each word written in ``tokens`` (from ``start``) begins, by the letters
        before it (squashed): "Jumps, East", written " J", "umps", ",", " East", gives
        {"": 0, "jumps": 3}."""
        begins: dict[str, int] = {}
        before = ""
        for j in range(start, len(tokens)):
            piece = self._tokenizer.decode([tokens[j]])
            if piece.startswith(" "):
                begins.setdefault(before, j)
            before += squash(piece)
        return begins

    def _shortlist(
        self, reading: str, first: np.ndarray, read: str | None = None,
        longer: Sequence[str] = (), nearly: Sequence[str] = (),
    ) -> list[tuple[tuple[int, ...], str, float]]:
        """The phrase forms to score whole, each with how far its letters are from the
        reading (0: the same, 1: nothing alike): the SHORTLIST phrases nearest by
        letters, each in the form written most like the reading (as a list or as a
        sentence), for a one-word reading the likeliest one-token form by Whisper's
        first step (a one-word command read as some other word: "Op" for "Up"), the
        longer phrases that go on from ``read``, and the ``nearly`` ones, a word longer
        inside or with another number (:meth:`_nearly`); each of them as a list too. The
        distance is to the whole reading, so a phrase that explains only its start
        ("turn right" for "Turn, Right, Free, Times") is far from it; and to the reading
        with a word that sounds like a number of the game written as it
        (:data:`SOUNDS_LIKE`), where that is nearer.

        The list form is scored even where the reading is no list: espeak-ng saying
        "capture south west" was read "Cop, Chose, Southwest", and Whisper found
        "Capture South West" (written like it) 4 in log probability less likely than
        the reading, "Capture, South, West" 0.2 less (docs/benchmarks.md). It costs
        about 30 ms where the reading is no phrase. Every phrase scored gets it, the
        longer ones too: with it for the shorter phrase alone, "toward the rabbit hole"
        read "Toward the Rabbit" was taken for "toward the rabbit"."""
        possible = list(self._forms)
        readings = sorted({squash(reading), squash(as_numbers(reading, self._numbers))})
        apart = process.cdist(
            readings, [self._squashed[p] for p in possible], scorer=Levenshtein.normalized_distance
        ).min(axis=0)
        likely = [max(float(first[tokens[0]]) for tokens in self._forms[p]) for p in possible]
        nearest = sorted(range(len(possible)), key=lambda i: (apart[i], -likely[i]))[:SHORTLIST]
        chosen = [(self._written_like(possible[i], reading.lower()), possible[i], float(apart[i])) for i in nearest]
        singles = [(tokens, p, float(apart[i])) for i, p in enumerate(possible) for tokens in self._forms[p]
                   if len(tokens) == 1]
        if singles and len(reading.split()) <= 1:  # Whisper read one word
            chosen.append(max(singles, key=lambda single: float(first[single[0][0]])))
        if read is not None:  # the longer phrases going on from the reading ``read``, each written
            # as the reading goes on: "Move, Toward, The Rabbit" and ", Hole"
            chosen += [(self._written_like(p, f"{reading}, {p.removeprefix(read + ' ')}".lower()), p,
                        float(apart[possible.index(p)])) for p in longer]
        return self._written(nearly, reading, chosen)

    def _written(
        self, phrases: Sequence[str], reading: str, chosen: Sequence[tuple[tuple[int, ...], str, float]] = ()
    ) -> list[tuple[tuple[int, ...], str, float]]:
        """The ``chosen`` forms and those of ``phrases``, each in the form written most
        like ``reading``, with how far its letters are from it; each as a list too."""
        said = squash(reading)
        forms = [*chosen, *((self._written_like(p, reading.lower()), p,
                             Levenshtein.normalized_distance(said, self._squashed[p])) for p in phrases)]
        forms += [(self._listed[p], p, far) for _, p, far in forms if p in self._listed]  # each as a list too
        return list(dict.fromkeys(forms))

    def _written_like(self, phrase: str, said: str) -> tuple[int, ...]:
        """The form of a phrase written most like what Whisper wrote (as a list or as a
        sentence): with the list form, the only forms a phrase is scored in, since
        each costs a decoding step a token (about 5 ms on two cores)."""
        written = self._forms[phrase]
        return min(written, key=lambda tokens: Levenshtein.distance(self._tokenizer.decode(tokens).lower(), said))

    def _forced_scores(
        self, encoded: np.ndarray, candidates: list[tuple[tuple[int, ...], str, float]], courtesy: list[int],
        before: Sequence[int],
    ) -> tuple[list[float], list[np.ndarray]]:
        """Log probability of each phrase's tokens, then of an end, by forced decoding,
        and the logits of every token at each step (for :meth:`_nearly`; as float32,
        not as log probabilities, which take twice the room for every form scored):
        one step past the longest candidate is all that is needed (the decode went on
        to the longest phrase's length before, for the same scores).

        After a phrase that a longer one goes on from, a comma is not an end: Whisper
        writes a long phrase as a list, so "Toward, Rabbit," is as likely the start of
        "Toward, Rabbit, Hole" as a whole command. Counted as an end, the comma made
        the shorter phrase win whenever the last word was heard less clearly ("Toward,
        Rabbit, Fowl" was taken for "toward rabbit": 3 of 534 clean espeak-ng commands,
        docs/benchmarks.md). ``courtesy``: tokens that end a phrase as well (the word of
        courtesy Whisper wrote after it); ``before``: the tokens Whisper wrote before the
        phrase ("Please,"), which each candidate follows, unscored."""
        longest = len(self._prompt) + len(before) + max(len(tokens) for tokens, _, _ in candidates) + 1
        logits: list[np.ndarray] = []
        for first in range(0, len(candidates), FORCED_BATCH):
            part = candidates[first : first + FORCED_BATCH]
            batch = self._storage.from_array(np.ascontiguousarray(np.repeat(encoded, len(part), axis=0)))
            results = self._model.generate(
                batch, [self._prompt + [*before, *tokens] for tokens, _, _ in part], beam_size=1,
                max_length=longest, return_logits_vocab=True, suppress_blank=False,
            )
            logits += [np.array(result.logits[0], np.float32) for result in results]
        scores = [
            self._said_then_end(
                log_softmax(each), [*before, *tokens], unended=-30.0,
                ends=[*(self._stops if phrase in self._open else self._ends), *courtesy], start=len(before),
            )
            for (tokens, phrase, _), each in zip(candidates, logits, strict=True)
        ]
        return scores, logits

    def _said_then_end(self, steps: np.ndarray, said: Sequence[int], unended: float, ends: list[int], start: int) -> float:
        """Log probability of the tokens ``said`` from ``start`` on (those before it are
        given: "Please,"), one step each, then of one of ``ends`` (the end of the text,
        a punctuation mark ...) after them; ``unended`` where the decode stopped at its
        length limit before one."""
        score = sum(float(steps[i][said[i]]) for i in range(start, len(said)))
        if len(steps) <= len(said):
            return score + unended
        return score + float(np.logaddexp.reduce(steps[len(said)][ends]))


class WhisperUtterance:
    """Whisper needs the whole utterance: it is gathered while spoken, decoded at its end."""

    def __init__(self, recognizer: WhisperRecognizer, among: frozenset[str] | None, early: bool) -> None:
        self._recognizer = recognizer
        self._among = among
        self._early = early
        self._blocks: list[np.ndarray] = []
        self._meter = SpeechMeter()
        self._gain = AutoGain()  # the meter hears a quiet speaker raised, as the endpointer does

    def feed(self, samples: np.ndarray) -> None:
        block = np.asarray(samples, np.int16)
        self._blocks.append(block)
        self._meter.feed(self._gain.process(block))

    def finish(self) -> Heard:
        audio = np.concatenate(self._blocks) if self._blocks else np.zeros(0, np.int16)
        return self._recognizer.recognize(audio, self._meter.seconds, self._among, self._early)


def _longest_repeat(tokens: Sequence[int]) -> int:
    """The length of the longest run of tokens that comes twice in ``tokens`` (0: none)."""
    for size in range(len(tokens) - 1, 0, -1):
        runs = [tuple(tokens[i : i + size]) for i in range(len(tokens) - size + 1)]
        if len(runs) != len(set(runs)):
            return size
    return 0


def _feature_extractor() -> Any:
    """faster-whisper's log-mel features (its FeatureExtractor class), without the rest
    of faster-whisper: the package's own import brings PyAV, onnxruntime's voice
    detector and the Hugging Face hub, 19 MB of memory that hbr never uses. The
    module needs only numpy; if a later release makes it need more, it is imported
    the usual way."""
    package = importlib.util.find_spec("faster_whisper")
    if package is None or not package.submodule_search_locations:
        raise ImportError("No module named 'faster_whisper'")
    path = Path(package.submodule_search_locations[0]) / "feature_extractor.py"
    spec = importlib.util.spec_from_file_location("hbr.voice._whisper_features", path)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
            return module.FeatureExtractor
        except (ImportError, AttributeError, OSError):
            pass
    from faster_whisper.feature_extractor import FeatureExtractor

    return FeatureExtractor


def _ms(began: float) -> float:
    return (time.perf_counter() - began) * 1000

