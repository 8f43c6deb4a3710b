"""How soon does the Observer start speaking, and how fast is speech made? For each
installed engine (the Piper voices found, and the system voice), on the replies of
real games (the blind bot playing seeded forests):

- first sentence: from the reply's text to its first sentence's samples, nothing cached;
- synthesis speed: seconds of speech made per second of work (real-time multiple);
- cached reply: from the text to the first samples when the sentence was said before,
  from memory (same game) and from the disk cache (a new game);
- load: opening the voice.

The audio device adds its own start-up on top (measured on the PulseAudio null sink by
tests/audio/test_speech_out.py). Run: python bench/tts_speed.py [--games N]
Targets (docs/benchmarks.md): first sound <= 150 ms, cached <= 30 ms, >= 5x real time.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from machine import header

from hbr.games.hbr.bots import BlindBot
from hbr.games.hbr.events import Event
from hbr.games.hbr.mapgen import Difficulty
from hbr.games.hbr.table import HBRTable
from hbr.speech import voices
from hbr.speech.cache import SpeechCache
from hbr.speech.system import SystemSynthesizer
from hbr.speech.tts import Synthesizer, sentences


def replies(games: int) -> list[str]:
    """Everything the Observer says in ``games`` games of the blind bot, in order."""
    said = []
    for seed in range(games):
        table = HBRTable.new(seed, Difficulty.NORMAL)
        bot = BlindBot(table.difficulty, table.state.rules)
        said.append(table.opening())
        events: tuple[Event, ...] = ()
        while not table.over and table.state.round < 80:
            said.append(table.act(bot.act(events)).words)
            events = table.turns[-1].events
        said.append(table.closing())
    return said


def first_samples(cache: SpeechCache, synth: Synthesizer, text: str) -> float:
    """Seconds from ``text`` to its first sentence's samples."""
    began = time.perf_counter()
    next(iter(cache.render(synth, text)))
    return time.perf_counter() - began


def percentiles(values: list[float]) -> str:
    q = statistics.quantiles(values, n=20)
    return f"p50 {statistics.median(values) * 1000:.1f} ms, p95 {q[18] * 1000:.1f} ms (n={len(values)})"


def measure(name: str, make: Callable[[], Synthesizer], said: list[str]) -> None:
    began = time.perf_counter()
    synth = make()
    print(f"\n== {name}\nload: {time.perf_counter() - began:.2f} s")
    distinct = list(dict.fromkeys(said))
    different = list(dict.fromkeys(s for text in said for s in sentences(text)))
    print(f"{len(said)} replies, {len(distinct)} different, {len(different)} different sentences")
    firsts = [first_samples(SpeechCache(None), synth, text) for text in distinct]
    print(f"first sentence, nothing cached: {percentiles(firsts)}")
    began = time.perf_counter()
    speech = sum(len(samples) / rate for samples, rate in map(synth.synthesize, different))
    work = time.perf_counter() - began
    print(f"synthesis: {speech:.0f} s of speech in {work:.1f} s, {speech / work:.0f}x faster than real time")
    with tempfile.TemporaryDirectory() as folder:
        cache = SpeechCache(Path(folder))
        for text in distinct:
            for _ in cache.render(synth, text):
                pass
        again = [first_samples(cache, synth, text) for text in said]
        print(f"a game's replies said before (memory cache): {percentiles(again)}")
        disk = [first_samples(SpeechCache(Path(folder)), synth, text) for text in distinct]
        print(f"a new game, its replies said in an earlier one (disk cache): {percentiles(disk)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    print(header())
    said = replies(args.games)
    for found in voices.piper_voices():
        measure(f"Piper {found.name}", functools.partial(voices.open_piper, found, 175), said)
    measure("system voice (pyttsx3)", SystemSynthesizer, said)


if __name__ == "__main__":
    main()
