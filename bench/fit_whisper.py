"""Fit whisper's acceptance model on half of the real recordings and the espeak-ng
corpus, report on the other half, and save it.

Run: python bench/fit_whisper.py --noisy [--quick] [--reuse] [--out FILE]
(--reuse: fit again on the evidence the last run measured, kept in bench/out/.)

Every clip goes through hbr.voice.recognizer.decode (noise suppression, then the
recognizer), as `hbr recognize` does. For each utterance with speech, Whisper's best
phrase and the evidence for it (hbr.voice.whisper.FEATURES) are kept, labelled right
(the command that was said) or not (another word, noise, or a wrong command). A
logistic model over the standardised evidence is fitted on the labels of the fitting
half (bench/real.py: by speaker), of the espeak-ng corpus in its FIT_PHRASES forms,
and of OTHER_PHRASES phrases of each other game (their long moves: "cat at three two
jumps north east", "go to five four") in OTHER_VOICES, which bench/games_speech.py
does not use, under a recognizer built for that game's phrases; its threshold is the
lowest that lets at most TARGET_FALSE_ACCEPTS of each source's fitting clips without
a command through. With --noisy (as the shipped model was), the fitting half is fitted on
twice: as recorded, and in a room's noise (bench/real.py: in_noise), with its own bound
on the noisy others let through (docs/benchmarks.md: "Fitted in noise"). The held-out half of the real recordings is
then measured and printed, as recorded and in noise (other noise than the fit's): that
is the honest number.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

import real  # noqa: E402
from corpus import CONDITIONS, FIT_PHRASES, clips, own_phrases  # noqa: E402
from logistic import newton  # noqa: E402

from hbr.games import registry  # noqa: E402
from hbr.grammar import Grammar, meaning  # noqa: E402
from hbr.voice.acceptance import LONG_WORDS, AcceptanceModel, expand  # noqa: E402
from hbr.voice.models import WHISPER, find_model  # noqa: E402
from hbr.voice.recognizer import decode  # noqa: E402
from hbr.voice.whisper import FEATURES, MODEL_FILE, WhisperRecognizer  # noqa: E402

#: Share of the fitting clips without a command that the threshold lets through, at
#: most, of each source: real recordings (other words, silence), espeak-ng (other
#: sentences, many of them near misses such as "capture the flag" or "northern
#: lights", and noise). With 3% for espeak-ng, that bound set the threshold and the
#: fitting half's real commands were 87.7% right; with 5%, 92.8% (docs/benchmarks.md).
#: The fitting half in noise (--noisy) may let 2%, the issue's bound on false accepts;
#: 1.5%, 3% and 4% were measured too (docs/benchmarks.md: "Fitted in noise").
TARGET_FALSE_ACCEPTS = {"real": 0.015, "espeak-ng": 0.05, "real in noise": 0.02}
#: Share of each game's long commands (hbr.voice.acceptance.LONG_WORDS words or more,
#: espeak-ng) that may be taken for another command, at most: the long phrases' own
#: threshold is set so (one word misheard in "go to eight eight" makes another move).
TARGET_LONG_MISHEARD = 0.02
#: L2 penalty. Held-out real speakers, right / false accepts, with pairwise products:
#: 1: 93.6% / 1.5%, 10: 94.8% / 1.8% (first six features; docs/benchmarks.md).
PENALTY = 10.0
#: The evidence of the last run, for --reuse.
CACHE = Path(__file__).parent / "out" / "whisper-evidence.json"
#: Commands of each other game fitted on (a seeded sample, not bench/games_speech.py's),
#: in voices and conditions it does not use.
OTHER_PHRASES = 24
OTHER_VOICES = ("en", "en-us+f3", "en+m7")
OTHER_CONDITIONS = CONDITIONS[:2]
GRAMMARS: dict[str, Grammar[object]] = {name: spec.grammar() for name, spec in registry().items()}

#: One clip: what was said ("" for no command), Whisper's best phrase and its evidence
#: (None: no speech), where it came from, Whisper's own reading, and the game whose
#: phrases the recognizer listened for.
Row = tuple[str, str | None, tuple[float, ...] | None, str, str, str]


def intent(text: str, game: str = "hbr") -> object:
    return meaning(GRAMMARS[game], text)


def measure(recognizer: WhisperRecognizer, items: Iterable[tuple[str, np.ndarray, str]], game: str = "hbr") -> list[Row]:
    rows = []
    for said, audio, source in items:
        decode(recognizer, audio)
        last = recognizer.last
        rows.append((said, last.phrase if last else None, last.values if last else None, source,
                     last.free if last else "", game))
    return rows


def right(row: Row) -> bool:
    said, phrase, *_, game = row
    return bool(said) and intent(said, game) == intent(phrase or "", game)


def labelled(rows: list[Row]) -> tuple[np.ndarray, np.ndarray]:
    kept = [(row[2], right(row)) for row in rows if row[2]]
    return np.array([v for v, _ in kept]), np.array([r for _, r in kept], float)


def fit(rows: list[Row]) -> AcceptanceModel:
    x, y = labelled(rows)
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
    w = newton(expand((x - mean) / scale), y, PENALTY)
    model = AcceptanceModel(tuple(mean), tuple(scale), tuple(w[:-1]), float(w[-1]), 0.0)
    threshold = 0.0  # at least as strict as the model's own even odds
    for source, target in TARGET_FALSE_ACCEPTS.items():
        others = [values for said, _, values, src, *_ in rows if src == source and not said]
        scores = sorted((model.score(v) for v in others if v), reverse=True)
        allowed = int(target * len(others))
        if allowed < len(scores):
            threshold = max(threshold, scores[allowed] + 1e-6)
    long_threshold = threshold
    for game in GRAMMARS:
        long = [row for row in rows if row[0] and row[5] == game and len(row[0].split()) >= LONG_WORDS]
        misheard = sorted((model.score(row[2]) for row in long if row[1] and row[2] and not right(row)), reverse=True)
        allowed = int(TARGET_LONG_MISHEARD * len(long))
        if allowed < len(misheard):
            long_threshold = max(long_threshold, misheard[allowed] + 1e-6)
    return AcceptanceModel(model.mean, model.scale, model.weights, model.bias, threshold, long_threshold)


def report(model: AcceptanceModel, rows: list[Row], title: str) -> None:
    """Right, wrong and not understood per word; false accepts per kind."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for said, phrase, values, source, _, game in rows:
        accepted = phrase if values and phrase and model.confidence(values, len(phrase.split())) >= 0.5 else None
        source = source if game == "hbr" else f"{source} {game}"
        key = f"{source}: {said}" if said else f"{source}: no command"
        row = counts[key]
        row[0] += 1
        if said:
            row[1] += accepted is not None and intent(accepted, game) == intent(said, game)
            row[2] += accepted is not None and intent(accepted, game) != intent(said, game)
        else:
            row[1] += accepted is not None
    print(f"== {title}")
    for source in sorted({k.split(":")[0] for k in counts}):
        keys = [k for k in counts if k.startswith(source + ":")]
        cmd = [counts[k] for k in keys if not k.endswith("no command")]
        if cmd:
            n, right, wrong = (sum(c[i] for c in cmd) for i in range(3))
            print(f"  {source}: commands {right / n:.1%} right, {wrong / n:.1%} wrong, "
                  f"{(n - right - wrong) / n:.1%} not understood (n={n})")
        for key in sorted(keys):
            n, a, b = counts[key]
            if key.endswith("no command"):
                print(f"  {key}: {a / n:.1%} taken as a command (n={n})")
            elif source.startswith("real"):
                print(f"    {key.split(': ')[1]:>6}: {a / n:6.1%} right, {b / n:5.1%} wrong (n={n})")


def real_items(half: str, quick: bool) -> list[tuple[str, np.ndarray, str]]:
    chosen = list(real.recordings(half))[:: 4 if quick else 1]
    return [(real.MEANS.get(r.word, "") if r.is_command else "", r.audio(), "real") for r in chosen]


def noisy(items: list[tuple[str, np.ndarray, str]], fitting: bool) -> list[tuple[str, np.ndarray, str]]:
    """``items`` again in a room's noise (bench/real.py: in_noise)."""
    heard = real.in_noise([audio for _, audio, _ in items], fitting)
    return [(said, audio, f"{source} in noise") for (said, _, source), audio in zip(items, heard, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a quarter of the real clips, 2 espeak-ng voices")
    parser.add_argument("--reuse", action="store_true", help="fit on the evidence measured last time")
    parser.add_argument("--out", type=Path, default=MODEL_FILE)
    parser.add_argument("--noisy", action="store_true", help="fit on the fitting half in noise as well (as the shipped model is)")
    args = parser.parse_args()
    real.require()
    found = find_model(WHISPER)
    if found.path is None:
        sys.exit(found.why)
    model_dir = found.path
    recognizer = WhisperRecognizer(GRAMMARS["hbr"].phrases(), model_dir, AcceptanceModel.neutral(len(FEATURES)))
    voices = ("en-us", "en+f2") if args.quick else ("en-us", "en", "en+m3", "en+f2", "en-us+f3", "en+m7")

    def synthetic() -> list[tuple[str, np.ndarray, str]]:
        return [(c.text if c.is_command else "", c.audio, "espeak-ng") for c in clips(voices, commands=FIT_PHRASES)]

    def other_games() -> list[Row]:
        rows: list[Row] = []
        for game in sorted(set(GRAMMARS) - {"hbr"}):
            own = WhisperRecognizer(GRAMMARS[game].phrases(), model_dir, AcceptanceModel.neutral(len(FEATURES)))
            said = clips(OTHER_VOICES[:2] if args.quick else OTHER_VOICES, (160,), OTHER_CONDITIONS,
                         commands=own_phrases(game, OTHER_PHRASES, seed=11))
            rows += measure(own, ((c.text if c.is_command else "", c.audio, "espeak-ng") for c in said), game)
        return rows
    if args.reuse and CACHE.exists():
        fitting, held_out = (
            [(said, phrase, tuple(values) if values else None, source, free, game)
             for said, phrase, values, source, free, game in part]
            for part in json.loads(CACHE.read_text())
        )
    else:
        fit_items, test_items = real_items("fit", args.quick), real_items("test", args.quick)
        fitting = (other_games() + measure(recognizer, fit_items + noisy(fit_items, fitting=True))
                   + measure(recognizer, synthetic()))
        held_out = measure(recognizer, test_items + noisy(test_items, fitting=False))
        CACHE.parent.mkdir(exist_ok=True)
        CACHE.write_text(json.dumps([fitting, held_out]))
    model = fit(fitting if args.noisy else [row for row in fitting if row[3] != "real in noise"])
    report(model, fitting, "fitted on (in sample)")
    report(model, held_out, "held-out speakers of the real recordings (out of sample)")
    count = Counter(row[3] for row in fitting)
    model.save(args.out, FEATURES, f"bench/fit_whisper.py: {count['real']} real clips (half of the speakers of "
               f"../shared/speech-dev){', the same in noise,' if args.noisy else ''} and {count['espeak-ng']} espeak-ng clips")
    print(f"saved {args.out}")


if __name__ == "__main__":
    main()
