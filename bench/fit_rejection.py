"""Fit pocketsphinx's rejection model, check it on held-out voices, and save it.

Run: python bench/fit_rejection.py [--workers 2] [--out FILE]

Every clip of the speech corpus (bench/corpus.py), with the commands in their
FIT_PHRASES forms only, is streamed through the game's own listener, as in
bench/speech.py. For every utterance the recognizer decoded to
words, its evidence (hbr.voice.sphinx.FEATURES) is kept with a label: right (the
command that was said) or not (other speech, noise, or a wrong command). A
logistic model over the standardised evidence and the products of its pairs
(hbr.voice.sphinx.expand), with an L2 penalty, is fitted to the labels, and its threshold
set so that TARGET_FALSE_ACCEPTS of the clips that hold no command would pass.

Before the model on all voices is saved, each voice is left out in turn: the model
and threshold are fitted on the other five and measured on it. Those held-out
numbers are the honest estimate. bench/speech.py plays every phrase of the game,
143 of its 178 never seen here; its other speech is the same sentences as here,
so its false accepts are nearly in-sample.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from corpus import CONDITIONS, FIT_PHRASES, Clip, clips, sessions  # noqa: E402

from hbr.games.hbr.phrases import HBRGrammar  # noqa: E402
from hbr.grammar import Understood  # noqa: E402
from hbr.voice.endpoint import Listener  # noqa: E402
from hbr.voice.sphinx import FEATURES, MODEL_FILE, RejectionModel, SphinxRecognizer, expand  # noqa: E402

#: Share of non-command clips (other speech, noise, silence) the threshold lets pass.
TARGET_FALSE_ACCEPTS = 0.02
#: L2 penalty on the weights. Held-out voices, clean commands right / worst fold's
#: false accepts (scikit-learn's equivalent, C = 1 / penalty): 10: 91.1% / 4.7%;
#: 33: 91.1% / 4.1%.
PENALTY = 33.0
BLOCK = 480  # 30 ms at 16 kHz, as the microphone delivers it

#: Per clip: each utterance's evidence, and whether it was the command said.
Measured = list[tuple[Clip, list[tuple[tuple[float, ...], bool]]]]


def intent(grammar: HBRGrammar, text: str) -> object:
    parsed = grammar.parse(text) if text else None
    return parsed.intent if isinstance(parsed, Understood) else None


def measure(session: list[Clip]) -> Measured:
    """For each clip of one session (a fresh recognizer): each utterance's evidence
    and whether it was the command said."""
    grammar = HBRGrammar()
    n, m = len(FEATURES), len(expand(np.zeros(len(FEATURES))))
    # the evidence does not depend on the model in use: any will do, even a stale one
    recognizer = SphinxRecognizer(grammar.phrases(), RejectionModel((0.0,) * n, (1.0,) * n, (0.0,) * m, 0.0, 0.0))
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


def fit(x: np.ndarray, y: np.ndarray) -> RejectionModel:
    """An L2-penalised logistic regression (Newton), its threshold still 0."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = np.hstack([expand((x - mean) / scale), np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], PENALTY)
    penalty[-1] = 0.0  # the bias is not penalised
    for _ in range(50):
        p = 1 / (1 + np.exp(-(z @ w)))
        gradient = z.T @ (p - y) + penalty * w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return RejectionModel(tuple(mean), tuple(scale), tuple(w[:-1]), float(w[-1]), 0.0)


def threshold(model: RejectionModel, measured: Measured) -> float:
    """The score that TARGET_FALSE_ACCEPTS of the non-command clips reach."""
    best = sorted(
        (max((model.score(v) for v, _ in found), default=-np.inf) for clip, found in measured if not clip.is_command),
        reverse=True,
    )
    return best[int(TARGET_FALSE_ACCEPTS * len(best))]


def evaluate(model: RejectionModel, cut: float, measured: Measured) -> dict[str, float]:
    """Commands right per condition and false accepts, as bench/speech.py counts them:
    a command is right when every accepted utterance of its clip was that command."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for clip, found in measured:
        accepted = [right for values, right in found if model.score(values) >= cut]
        key = clip.condition if clip.is_command else "false accepts"
        counts[key][0] += 1
        counts[key][1] += (bool(accepted) and all(accepted)) if clip.is_command else bool(accepted)
    return {key: hit / total for key, (total, hit) in counts.items()}


def arrays(measured: Measured) -> tuple[np.ndarray, np.ndarray]:
    rows = [(values, right) for _, found in measured for values, right in found]
    return np.array([v for v, _ in rows]), np.array([r for _, r in rows], float)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=MODEL_FILE)
    args = parser.parse_args()
    with Pool(args.workers) as pool:
        corpus = sessions(clips(commands=FIT_PHRASES))
        measured = [row for session in pool.map(measure, corpus, chunksize=1) for row in session]
    x, y = arrays(measured)
    print(f"{len(y)} utterances with words, {int(y.sum())} of them the command said")

    voices = sorted({clip.voice for clip, _ in measured if clip.voice != "-"})
    held: dict[str, list[float]] = defaultdict(list)
    for voice in voices:
        train = [row for row in measured if row[0].voice != voice]
        test = [row for row in measured if row[0].voice in (voice, "-")]
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
    args.out.write_text(json.dumps({
        "features": FEATURES, "mean": model.mean, "scale": model.scale, "weights": model.weights,
        "bias": model.bias, "threshold": cut,
        "fitted on": f"bench/corpus.py, {len(measured)} clips, {len(y)} utterances; "
                     f"threshold passes {TARGET_FALSE_ACCEPTS:.0%} of non-command clips",
    }, indent=1) + "\n")
    print(f"saved {args.out}")


if __name__ == "__main__":
    main()
