"""A pause inside a command: each game's longer phrases said in two parts, with quiet
between them, streamed through the game's listener with Whisper.

Run: python bench/pauses.py [--phrases 8] [--without]

For each game, a seeded sample of its commands of three words or more is said by three
espeak-ng voices (their own quiet around the words cut off) as the phrase up to its
last word, a pause of 0.3, 0.6 or 0.9 s, and the last word. Right: the utterances heard
held that command and no other; wrong: one held another command; the rest were not
understood (asked again, or passed over). ``--without``: as before a start of a phrase
was waited for (hbr.voice.recognizer.starts_phrase answering no, in the listener and
in Whisper's own check), to compare.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from corpus import intent, own_phrases  # noqa: E402

from hbr.games import registry  # noqa: E402
from hbr.voice import endpoint, whisper  # noqa: E402
from hbr.voice.audio import BLOCK_SECONDS, RATE  # noqa: E402
from hbr.voice.endpoint import Listener  # noqa: E402
from hbr.voice.models import WHISPER, find_model  # noqa: E402
from hbr.voice.synth import espeak  # noqa: E402
from hbr.voice.whisper import WhisperRecognizer  # noqa: E402

VOICES = ("en-us", "en+m3", "en+f2")
PAUSES = (0.3, 0.6, 0.9)
BLOCK = int(BLOCK_SECONDS * RATE)


def words(text: str, voice: str) -> np.ndarray:
    """espeak-ng's words without the quiet it leaves around them."""
    audio = espeak(text, voice, 150)
    loud = np.nonzero(np.abs(audio.astype(np.int32)) > 0.05 * np.abs(audio).max())[0]
    return audio[loud[0] : loud[-1] + 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phrases", type=int, default=8, help="phrases per game (default 8)")
    parser.add_argument("--without", action="store_true", help="as before a start of a phrase was waited for")
    args = parser.parse_args()
    if args.without:
        for module in (endpoint, whisper):
            setattr(module, "starts_phrase", lambda words, phrases: False)  # noqa: B010
    model = find_model(WHISPER).path
    if model is None:
        sys.exit("no Whisper model found: hbr models list says where hbr looks")
    quiet = np.zeros(int(0.5 * RATE), np.int16)
    for game, spec in registry().items():
        grammar = spec.grammar()
        recognizer = WhisperRecognizer(grammar.phrases(), model)
        long = [p for p in own_phrases(game, 10**6) if len(p.split()) >= 3]
        sample = own_phrases(game, args.phrases, among=frozenset(long))
        counts = dict.fromkeys(("right", "wrong", "none"), 0)
        for phrase in sample:
            *start, last = phrase.split()
            for voice in VOICES:
                first, second = words(" ".join(start), voice), words(last, voice)
                for pause in PAUSES:
                    audio = np.concatenate([quiet, first, np.zeros(int(pause * RATE), np.int16), second, quiet, quiet,
                                            quiet])
                    listener = Listener(recognizer)
                    heard = [h for s in range(0, len(audio), BLOCK) for h in listener.feed(audio[s : s + BLOCK])]
                    got = {intent(grammar, h.phrase) for h in heard if h.phrase} - {None}
                    want = intent(grammar, phrase)
                    counts["right" if got == {want} else "wrong" if got else "none"] += 1
        n = sum(counts.values())
        print(f"{game:>10}{' (without)' if args.without else ''}: {counts['right'] / n:6.1%} right, "
              f"{counts['wrong'] / n:5.1%} wrong, {counts['none'] / n:5.1%} not understood (n={n}, "
              f"{len(sample)} phrases of 3 words or more, pauses {', '.join(map(str, PAUSES))} s)", flush=True)


if __name__ == "__main__":
    main()
