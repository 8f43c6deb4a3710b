"""The speech benchmark's corpus: every kind of command, other speech, silence, noise.

Commands: every phrase the recognizers listen for (``HBRGrammar().phrases()``:
each command with every prefix and alias, and the requests), in every espeak-ng
voice and speed of ``hbr.voice.synth`` (or in a Piper voice, "piper:NAME", a neural
voice nearer to a person's, reported apart), clean and mixed with noise at 20 and 10 dB
SNR. Non-commands: everyday sentences and near misses
("northern lights", "capture the flag"). Also pure silence and pure noise clips.
Noise is seeded: pink noise, mains hum, and a babble of other espeak speech.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

import numpy as np

from hbr.game import Setup
from hbr.games import DEFAULT, registry
from hbr.games.hbr.phrases import HBRGrammar
from hbr.grammar import Grammar, Meta, meaning
from hbr.speech.piper import PiperSynthesizer
from hbr.speech.tts import Synthesizer
from hbr.speech.voices import find_piper
from hbr.voice.audio import RATE, mix_at_snr, pad, to_mono16k
from hbr.voice.synth import SPEEDS, VOICES, espeak

COMMAND_PHRASES = HBRGrammar().phrases()
#: The phrases pocketsphinx's rejection model is fitted on (bench/fit_rejection.py):
#: every command in one or two forms, and a few of the requests. The benchmark plays
#: all of COMMAND_PHRASES, so for most phrases its numbers are out of sample. Fitted
#: on all 178 phrases instead, the model learned that long phrasings of moves are
#: commands and kept fewer short ones ("help" 17% against 61%; all phrases, clean:
#: 91.5% against 91.9%, at the same 2% of false accepts).
FIT_PHRASES = [
    "north", "south", "east", "west", "north east", "north west", "south east", "south west",
    "go north", "move west", "step south east", "up", "down", "left", "right",
    "toward the rabbit", "towards the bear", "toward the hole", "towards the rabbit hole",
    "capture north east", "capture north west", "capture south east", "capture south west",
    "catch north west", "snare north east", "snare north west", "snare south east", "snare south west",
    "trap south west", "help", "repeat", "yes", "no", "stop", "quit",
]
NON_COMMANDS = [
    "what time is it", "the weather is nice today", "go to the kitchen", "I like pizza",
    "hello there", "open the door please", "one two three four", "turn on the lights",
    "northern lights", "southern comfort", "capture the flag", "the bear necessities",
    "rabbit stew for dinner", "where are my keys", "can you hear me", "this is a test",
    "good morning everyone", "I am hungry", "call my mother", "play some music",
    "the cat sat on the mat", "how are you doing", "let me think about it", "thank you very much",
    "see you later", "what is your name", "the train is late again", "close the window",
    "I need a coffee", "wait a minute", "easter eggs", "western movies", "helpful people",
    "repeatedly knocking", "never mind",
]
CONDITIONS = ("clean", "20 dB", "10 dB")


def intent(grammar: Grammar[object], text: str | None) -> object:
    """What the game makes of a phrase (None: not understood)."""
    return meaning(grammar, text)


#: How many of each game's own phrases bench/games_speech.py plays (own_phrases, seed 7).
BENCH_PHRASES = 40


def game_option(text: str) -> tuple[str, str]:
    """One of a game's options as a benchmark's ``--option NAME=VALUE`` gives it
    (side=spy): an argparse type."""
    name, equals, value = text.partition("=")
    if not (name and equals):
        raise argparse.ArgumentTypeError(f"{text!r}: NAME=VALUE, like side=spy")
    return name, value


def at_start(game: str, options: Mapping[str, str | bool]) -> tuple[Grammar[object], frozenset[str] | None]:
    """A game as `hbr play` begins it (seed 1, with ``options``): its own grammar
    (Spyhunting's: one side's) and the phrases it listens for then (None: all of them)."""
    table = registry()[game].new(Setup(1, dict(options)))
    return table.grammar, table.listening()


def own_phrases(
    game: str, n: int, seed: int = 7, leave_out: frozenset[str] = frozenset(), among: frozenset[str] | None = None
) -> list[str]:
    """A seeded sample of ``n`` of a game's own commands (not the requests every game
    shares), none of ``leave_out``, and only of ``among`` when given."""
    grammar = registry()[game].grammar()
    own = [p for p in grammar.phrases() if not isinstance(intent(grammar, p), Meta) and p not in leave_out
           and (among is None or p in among)]
    return sorted(random.Random(seed).sample(own, min(n, len(own))))


def fit_phrases(game: str) -> list[str]:
    """The phrases a rejection model for ``game``'s vocabulary is fitted on: Hunter Bear
    Rabbit's FIT_PHRASES; for another game as many, a seeded sample of its own commands
    that bench/games_speech.py does not play, and the shared requests of FIT_PHRASES."""
    if game == DEFAULT:
        return FIT_PHRASES
    hbr = registry()[DEFAULT].grammar()
    requests = [p for p in FIT_PHRASES if isinstance(intent(hbr, p), Meta)]
    played = frozenset(own_phrases(game, BENCH_PHRASES))
    return own_phrases(game, len(FIT_PHRASES) - len(requests), seed=13, leave_out=played) + requests


@dataclass(frozen=True)
class Clip:
    text: str  # what was said ("" for silence and noise)
    is_command: bool
    voice: str
    wpm: int
    condition: str
    audio: np.ndarray
    noise: str = ""  # the kind of noise mixed in, if any


#: The benchmarks' noise: its seed and the sentences of its babble.
NOISE_SEED, BABBLE = 7, tuple(NON_COMMANDS[:6])


def noises(seconds: float = 4.0, seed: int = NOISE_SEED, talk: tuple[str, ...] = BABBLE) -> dict[str, np.ndarray]:
    """Pink noise, mains hum with hiss, and a babble of the sentences ``talk`` spoken
    over each other (a model fitted in noise hears other sentences, at other points,
    than the benchmarks that measure it)."""
    rng = np.random.default_rng(seed)
    n = int(seconds * RATE)
    white = rng.standard_normal(n)
    spectrum = np.fft.rfft(white) / np.maximum(1, np.sqrt(np.arange(n // 2 + 1)))
    pink = np.fft.irfft(spectrum, n)
    t = np.arange(n) / RATE
    hum = sum(np.sin(2 * np.pi * f * t) / k for k, f in enumerate((50, 100, 150, 200), 1)) + 0.3 * pink / pink.std()
    babble = np.zeros(n)
    for i, sentence in enumerate(talk):
        s = espeak(sentence, VOICES[i % len(VOICES)], 170).astype(np.float64)
        start = int(rng.integers(0, max(1, n - len(s))))
        babble[start : start + len(s)] += s[: n - start]
    return {"pink": _scaled(pink), "hum": _scaled(hum), "babble": _scaled(babble)}


def _scaled(x: np.ndarray) -> np.ndarray:
    """As int16 samples peaking at 12000."""
    scaled: np.ndarray = (x / np.abs(x).max() * 12000).astype(np.int16)
    return scaled


_PIPERS: dict[str, Synthesizer] = {}
#: The seed of Piper's random numbers in the benchmarks.
PIPER_SEED = 7


def as_spoken(audio: np.ndarray) -> np.ndarray:
    """A clip as the listener hears an utterance: 0.3 s of quiet before the words and
    a second after, for the endpointer to end on."""
    return np.concatenate([pad(audio, 0.3), np.zeros(RATE, np.int16)])


def speak(text: str, voice: str, wpm: int) -> np.ndarray:
    """``text`` as 16 kHz speech: an espeak-ng voice, or "piper:NAME" for a Piper voice.
    Piper samples noise, so every rendering differs a little: its random numbers are
    seeded (onnxruntime draws them from the seed it had when the voice was loaded), and
    its speed is measured afresh rather than read from the player's cache (measuring
    draws numbers too), so that a run renders every clip as the run before it did, and
    two runs compare the code, not the dice (unseeded, two runs of the same code were
    96.1% and 90.4% right on the clean Piper clips: docs/benchmarks.md)."""
    if not voice.startswith("piper:"):
        return espeak(text, voice, wpm)
    if voice not in _PIPERS:
        found = find_piper(voice.removeprefix("piper:"))
        if found is None:
            raise SystemExit(f"no Piper voice {voice}: 'hbr voices' lists them")
        import onnxruntime

        onnxruntime.set_seed(PIPER_SEED)
        _PIPERS[voice] = PiperSynthesizer(found.name, found.model, found.config, wpm)
    synth = _PIPERS[voice]
    synth.set_rate(wpm)
    return to_mono16k(*synth.synthesize(text))


def clips(
    voices: tuple[str, ...] = VOICES, speeds: tuple[int, ...] = SPEEDS,
    conditions: tuple[str, ...] = CONDITIONS, seed: int = 7, commands: list[str] = COMMAND_PHRASES,
) -> Iterator[Clip]:
    """Every clip of the corpus. Each voice and speed meets one kind of noise per
    noisy condition, the same for all its clips, as one player in one room would;
    the kinds take turns so that each gets a third of the clips. Each clip takes
    the noise from a random point of its loop."""
    rng = np.random.default_rng(seed)
    noise = noises(seed=seed)
    kinds = sorted(noise)
    for texts, is_command in ((commands, True), (NON_COMMANDS, False)):
        for text in texts:
            for v, voice in enumerate(voices):
                for w, wpm in enumerate(speeds):
                    # noise, where there is noise, goes on through the quiet as in a real room
                    speech = as_spoken(speak(text, voice, wpm))
                    for c, condition in enumerate(conditions):
                        audio, kind = speech, ""
                        if condition != "clean":
                            kind = kinds[(v + w + c) % len(kinds)]
                            loop = np.roll(noise[kind], int(rng.integers(len(noise[kind]))))
                            audio = mix_at_snr(speech, loop, float(condition.split()[0]))
                        yield Clip(text, is_command, voice, wpm, condition, audio, kind)
    for kind in kinds:
        yield Clip("", False, "-", 0, f"{kind} noise", noise[kind][: 2 * RATE], kind)
    yield Clip("", False, "-", 0, "digital silence", np.zeros(2 * RATE, np.int16))


def through(channel: Callable[[np.ndarray], np.ndarray], all_clips: Iterable[Clip]) -> Iterator[Clip]:
    """The clips as heard through ``channel``."""
    for clip in all_clips:
        yield Clip(clip.text, clip.is_command, clip.voice, clip.wpm, clip.condition, channel(clip.audio), clip.noise)


def sessions(all_clips: Iterable[Clip], seed: int = 7) -> list[list[Clip]]:
    """The clips grouped as players make them: one session per voice, speed and noise
    condition (the way one player in one room sounds), commands and other speech
    mixed in a seeded order. The pure noise and silence clips form a session of their
    own. A recognizer adapts to its speaker and room as a session goes on, so each
    session is meant to be played on a fresh recognizer."""
    groups: dict[tuple[str, int, str], list[Clip]] = defaultdict(list)
    for clip in all_clips:
        groups[(clip.voice, clip.wpm, clip.condition if clip.voice != "-" else "-")].append(clip)
    rng = random.Random(seed)
    ordered = []
    for key in sorted(groups):
        group = groups[key]
        rng.shuffle(group)
        ordered.append(group)
    return ordered
