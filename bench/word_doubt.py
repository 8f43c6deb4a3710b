"""What whisper's word model doubting a sure one-word reading does (hbr.voice.whisper:
DOUBT_BELOW), on the fitting half of the real recordings.

Run: python bench/word_doubt.py   (about 20 minutes on two cores)

Each recording of the fitting half, as recorded, in a room's noise, across a room that
rings and through a narrowband channel (bench/real.py, the fitting half's draws), is
decoded whole by the recognizer with a word model fitted out of fold (five folds by
speaker, as recorded, in noise and in echo, as the shipped one was fitted when the bar
was chosen) and its doubt turned off. Printed, for each bar: of the sure one-word
readings the word model finds less likely than the bar, how many were commands read
right (asked again for nothing), commands read as another command and other words taken
for a command (both caught). The bar is chosen from these, and checked on the held-out
speakers by bench/speech.py.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

import real  # noqa: E402
from corpus import as_spoken  # noqa: E402
from fit_words import FOLDS, fit, fold, label  # noqa: E402

from hbr.games.hbr.phrases import HBRGrammar  # noqa: E402
from hbr.voice import whisper  # noqa: E402
from hbr.voice.models import WHISPER, find_model  # noqa: E402
from hbr.voice.recognizer import decode  # noqa: E402

BARS = (0.01, 0.02, 0.05, 0.1, 0.2)
#: Where each recording is heard, and the rooms its word model is fitted in.
ROOMS = {"as recorded": lambda audio, fitting: list(audio), "in noise": real.in_noise, "in echo": real.in_echo,
         "narrowband": real.in_narrowband}
FITTED_IN = ("as recorded", "in noise", "in echo")


def main() -> None:
    real.require()
    found = find_model(WHISPER)
    if found.path is None:
        sys.exit(found.why)
    recognizer = whisper.WhisperRecognizer(HBRGrammar().phrases(), found.path)
    recordings = list(real.recordings("fit"))
    labels = np.array([label(rec) for rec in recordings])
    folds = np.array([fold(rec) for rec in recordings])
    audio = [rec.audio() for rec in recordings]
    rooms = {name: room(audio, True) for name, room in ROOMS.items()}
    heard = {name: np.array([recognizer.heard(a) for a in rooms[name]]) for name in FITTED_IN}
    models = [fit(np.concatenate([heard[name][folds != k] for name in FITTED_IN]),
                  np.concatenate([labels[folds != k]] * len(FITTED_IN))) for k in range(FOLDS)]
    whisper.DOUBT_BELOW = 0.0  # every sure reading is taken, and what the word model thought of it kept
    total: Counter[str] = Counter()
    for name, clips in rooms.items():
        doubted: list[tuple[float, str]] = []
        tally: Counter[str] = Counter()
        for rec, clip, k in zip(recordings, clips, folds, strict=True):
            recognizer.words = models[k]
            phrase = decode(recognizer, as_spoken(clip)).phrase
            truth = real.MEANS[rec.word] if rec.is_command else None
            kind = "right" if phrase == truth else "wrong" if truth else "other taken"
            tally[f"{'command' if truth else 'other'}s"] += 1
            if phrase is None:
                continue
            tally[kind] += 1
            said = None if recognizer.last is None else recognizer.word_said(recognizer.last, phrase)
            if said is not None:
                doubted.append((said, kind))
        print(f"{name}: {tally['commands']} commands, {tally['right']} right, {tally['wrong']} wrong; "
              f"{tally['others']} others, {tally['other taken']} taken")
        for bar in BARS:
            caught = Counter(kind for said, kind in doubted if said < bar)
            total.update({f"{bar} {kind}": n for kind, n in caught.items()})
            print(f"  doubted below {bar}: right {caught['right']}, wrong {caught['wrong']}, "
                  f"other taken {caught['other taken']}")
    print("all four together:")
    for bar in BARS:
        print(f"  doubted below {bar}: right {total[f'{bar} right']}, wrong {total[f'{bar} wrong']}, "
              f"other taken {total[f'{bar} other taken']}")


if __name__ == "__main__":
    main()
