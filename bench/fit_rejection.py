"""Fit pocketsphinx's rejection model for one game's vocabulary, check it on held-out
voices, and save it.

Run: python bench/fit_rejection.py [--game hbr|spyhunting|jumpers] [--workers 2] [--out FILE]

Every clip of the speech corpus (bench/corpus.py), with the commands in the game's
fitting forms only (corpus.fit_phrases: Hunter Bear Rabbit's FIT_PHRASES; for another
game as many of its own commands, none that bench/games_speech.py plays, and the
shared requests), and the real recordings of half the speakers of
../shared/speech-dev (bench/real.py; a word is a command where the game's grammar
understands it), is streamed through the game's own listener with a recognizer built
for the game's phrases, as in bench/speech.py. For every utterance the recognizer decoded to
words, its evidence (hbr.voice.sphinx.FEATURES) is kept with a label: right (the
command that was said) or not (other speech, noise, or a wrong command). A
logistic model over the standardised evidence and the products of its pairs
(hbr.voice.acceptance.expand), with an L2 penalty, is fitted to the labels, and its threshold
set so that TARGET_FALSE_ACCEPTS of the clips that hold no command would pass. It is
saved with the game's vocabulary, and the recognizer uses the model fitted for the
vocabulary nearest its own (hbr.voice.acceptance.nearest). One model fitted on every
game's phrases together was tried first and not adopted (docs/benchmarks.md), and so
was Spyhunting's own fit: it took more of that game's commands for another, so
Spyhunting's shipped model is Hunter Bear Rabbit's (sphinx_rejection/spyhunting.json says so).

Before the model on all voices is saved, each espeak-ng voice is left out in turn:
the model and threshold are fitted on the other five and measured on it. The real
recordings of the other half of the speakers are measured with the final model.
Those held-out numbers are the honest estimate. bench/speech.py plays every phrase of the game,
143 of its 178 never seen here; its other speech is the same sentences as here,
so its false accepts are nearly in-sample.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from corpus import CONDITIONS, Clip, clips, fit_phrases, intent, sessions  # noqa: E402
from logistic import newton  # noqa: E402
from real import as_clips  # noqa: E402

from hbr.games import DEFAULT, registry  # noqa: E402
from hbr.voice.acceptance import AcceptanceModel, expand  # noqa: E402
from hbr.voice.audio import BLOCK_SECONDS, RATE  # noqa: E402
from hbr.voice.endpoint import Listener  # noqa: E402
from hbr.voice.sphinx import FEATURES, MODELS, SphinxRecognizer  # noqa: E402

#: Share of non-command clips (other speech, noise, silence) the threshold lets pass.
TARGET_FALSE_ACCEPTS = 0.02
#: L2 penalty on the weights. Held-out voices, clean commands right / worst fold's
#: false accepts (scikit-learn's equivalent, C = 1 / penalty): 10: 91.1% / 4.7%;
#: 33: 91.1% / 4.1%.
PENALTY = 33.0
BLOCK = int(BLOCK_SECONDS * RATE)  # as the microphone delivers it

#: Per clip: each utterance's evidence, and whether it was the command said.
Measured = list[tuple[Clip, list[tuple[tuple[float, ...], bool]]]]


def measure(job: tuple[str, list[Clip]]) -> Measured:
    """For each clip of one session (a fresh recognizer for the session's game): each
    utterance's evidence and whether it was the command said."""
    game, session = job
    grammar = registry()[game].grammar()
    # the evidence does not depend on the model in use: any will do, even a stale one
    recognizer = SphinxRecognizer(grammar.phrases(), AcceptanceModel.neutral(len(FEATURES)))
    listener = Listener(recognizer)
    out = []
    for clip in session:
        want = intent(grammar, clip.text) if clip.is_command else None
        found = []
        for start in range(0, len(clip.audio), BLOCK):
            for heard in listener.feed(clip.audio[start : start + BLOCK]):
                last = recognizer.last
                if last is not None and heard.words == last.words:
                    found.append((last.values, want is not None and intent(grammar, last.words) == want))
        out.append((clip, found))
    return out


def fit(x: np.ndarray, y: np.ndarray) -> AcceptanceModel:
    """An L2-penalised logistic regression over the expanded evidence, its threshold still 0."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
    w = newton(expand((x - mean) / scale), y, PENALTY)
    return AcceptanceModel(tuple(mean), tuple(scale), tuple(w[:-1]), float(w[-1]), 0.0)


def threshold(model: AcceptanceModel, measured: Measured) -> float:
    """The score that TARGET_FALSE_ACCEPTS of the non-command clips reach."""
    best = sorted(
        (max((model.score(v) for v, _ in found), default=-np.inf) for clip, found in measured if not clip.is_command),
        reverse=True,
    )
    return best[int(TARGET_FALSE_ACCEPTS * len(best))]


def evaluate(model: AcceptanceModel, cut: float, measured: Measured) -> dict[str, float]:
    """Commands right per condition and false accepts, as bench/speech.py counts them:
    a command is right when every accepted utterance of its clip was that command."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for clip, found in measured:
        accepted = [right for values, right in found if model.score(values) >= cut]
        real = " (real)" if clip.condition == "real" else ""
        key = clip.condition if clip.is_command else f"false accepts{real}"
        counts[key][0] += 1
        counts[key][1] += (bool(accepted) and all(accepted)) if clip.is_command else bool(accepted)
    return {key: hit / total for key, (total, hit) in counts.items()}


def arrays(measured: Measured) -> tuple[np.ndarray, np.ndarray]:
    rows = [(values, right) for _, found in measured for values, right in found]
    return np.array([v for v, _ in rows]), np.array([r for _, r in rows], float)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--game", default=DEFAULT, choices=list(registry()),
                        help=f"the game whose vocabulary the model is for (default {DEFAULT})")
    parser.add_argument("--out", type=Path, help="where to save it (default: the game's model shipped with hbr)")
    args = parser.parse_args()
    grammar = registry()[args.game].grammar()
    with Pool(args.workers) as pool:
        corpus = [(args.game, s) for s in sessions(clips(commands=fit_phrases(args.game)))]
        corpus += [(args.game, as_clips(half, lambda word: intent(grammar, word) is not None)) for half in ("fit", "test")]
        *measured_sessions, real_test = pool.map(measure, corpus, chunksize=1)
        measured = [row for session in measured_sessions for row in session]
    x, y = arrays(measured)
    print(f"{len(y)} utterances with words, {int(y.sum())} of them the command said")

    voices = sorted({clip.voice for clip, _ in measured if clip.voice not in ("-", "real")})
    held: dict[str, list[float]] = defaultdict(list)
    for voice in voices:
        train = [row for row in measured if row[0].voice != voice]
        test = [row for row in measured if row[0].voice in (voice, "-") and row[0].condition != "real"]
        model = fit(*arrays(train))
        for key, value in evaluate(model, threshold(model, train), test).items():
            held[key].append(value)
    print("each voice held out (fitted on the other five), mean [worst]:")
    for key in (*CONDITIONS, "false accepts"):
        worst = max(held[key]) if key == "false accepts" else min(held[key])
        print(f"  {key:>13}: {np.mean(held[key]):6.1%}  [{worst:.1%}]")

    model = fit(x, y)
    cut = threshold(model, measured)
    print("all voices (in-sample):", {k: f"{v:.1%}" for k, v in sorted(evaluate(model, cut, measured).items())})
    print("real recordings, held-out speakers:", {k: f"{v:.1%}" for k, v in sorted(evaluate(model, cut, real_test).items())})
    fitted = AcceptanceModel(model.mean, model.scale, model.weights, model.bias, cut)
    out = args.out or MODELS / f"{args.game}.json"
    fitted.save(out, FEATURES, f"bench/corpus.py ({args.game}'s phrases) and half the speakers of "
                f"../shared/speech-dev, {len(measured)} clips, {len(y)} utterances; threshold passes "
                f"{TARGET_FALSE_ACCEPTS:.0%} of non-command clips", vocabulary=grammar.phrases())
    print(f"saved {out}")


if __name__ == "__main__":
    main()
