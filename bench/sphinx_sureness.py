"""How sure pocketsphinx is of the commands it accepts from real people, against how
often they are right: is its confidence too high, or are its mistakes as sure as its
right answers?

Run: python bench/sphinx_sureness.py [--game NAME ...]

pocketsphinx's rejection models (hbr.voice.sphinx_rejection) are fitted mostly on
espeak-ng voices (bench/fit_rejection.py), and the game acted at once on a command it
heard at 0.75 or more (hbr.voice.recognizer.SURE, the usual bar): in Spyhunting real "two" was taken
for "shoot" at 0.87 and "bed" for "back" at 0.95. If its confidence were merely too
high for real people, tempering it (dividing the log odds above its bar by a
temperature fitted on real people, as classifiers are calibrated) would send such
mistakes to be asked back. This measures whether it would, and what its own bar for
asking back (hbr.voice.sphinx.SPHINX_SURE) does instead: for each game as it begins (as
``bench/speech.py --backend pocketsphinx --game NAME``), every recording of each half
of ../shared/speech-dev (bench/real.py) is streamed through one listener; for every
command accepted, how far above the bar it was and whether it was the command said;
then, by confidence, how many were right; the temperature under which the fitting
half's are likeliest; and how many of each half the game would act on without asking:
at 0.75, at 0.75 with that temperature, and at its own bar.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

import real  # noqa: E402
from corpus import as_spoken, at_start  # noqa: E402
from speech import asked_for, speech_end, stream  # noqa: E402

from hbr.games import registry  # noqa: E402
from hbr.grammar import Understood  # noqa: E402
from hbr.voice.audio import RATE  # noqa: E402
from hbr.voice.endpoint import Listener  # noqa: E402
from hbr.voice.recognizer import SURE  # noqa: E402
from hbr.voice.sphinx import SPHINX_SURE, SphinxRecognizer  # noqa: E402

#: The temperatures tried (a grid: the likelihood has one maximum in it).
TRIED = np.exp(np.linspace(math.log(0.25), math.log(20.0), 400))
#: Confidence bands the right share is reported in.
BANDS = (0.5, SURE, 0.9, 1.0)


def accepted(game: str, half: str) -> tuple[np.ndarray, np.ndarray]:
    """For every command the recognizer for ``game`` accepted from ``half`` of the real
    recordings: its log odds above the bar, and whether it was the command said (1)
    or not (another command, or none said: 0)."""
    grammar, moment = at_start(game, {})
    listener = Listener(SphinxRecognizer(grammar.phrases()), lambda: moment)
    wanted = asked_for(grammar, moment)
    margins, right = [], []
    for rec in real.recordings(half):
        heard, _ = stream(listener, as_spoken(rec.audio()), int(0.3 * RATE) + speech_end(rec.audio()))
        for h in heard:
            if h.phrase and h.confidence is not None and isinstance(parsed := grammar.parse(h.phrase), Understood):
                confidence = min(h.confidence, 1 - 1e-9)
                margins.append(math.log(confidence / (1 - confidence)))
                right.append(float(parsed.intent == wanted(rec.word)))
    return np.asarray(margins), np.asarray(right)


def likeliest(margins: np.ndarray, right: np.ndarray) -> float:
    """The temperature under which the accepted commands' being right is likeliest."""
    p = np.clip(1 / (1 + np.exp(-margins[None, :] / TRIED[:, None])), 1e-12, 1 - 1e-12)
    likelihood = (right * np.log(p) + (1 - right) * np.log1p(-p)).sum(axis=1)
    return float(TRIED[int(np.argmax(likelihood))])


def report(label: str, margins: np.ndarray, right: np.ndarray, temperature: float) -> None:
    confidence = 1 / (1 + np.exp(-margins))
    bands = []
    for low, high in zip(BANDS, BANDS[1:], strict=False):
        inside = (confidence >= low) & (confidence < high if high < 1 else confidence <= high)
        bands.append(f"{low:g}-{high:g}: {right[inside].mean() if inside.any() else float('nan'):.0%} right "
                     f"(n={int(inside.sum())})")
    print(f"  {label}: {len(right)} accepted, {right.mean():.0%} right; by confidence {'; '.join(bands)}")
    for name, t, bar in ((f"at {SURE}", 1.0, SURE),
                         (f"at {SURE}, tempered by {temperature:.2f}", temperature, SURE),
                         (f"at its own bar, {SPHINX_SURE}", 1.0, SPHINX_SURE)):
        acted = 1 / (1 + np.exp(-margins / t)) >= bar
        print(f"    acted on without asking, {name}: {int(acted[right == 1].sum())} of {int(right.sum())} right, "
              f"{int(acted[right == 0].sum())} of {int((right == 0).sum())} wrong or not said")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", nargs="+", default=list(registry()), choices=list(registry()))
    args = parser.parse_args()
    real.require()
    for game in args.game:
        fitted = accepted(game, "fit")
        temperature = likeliest(*fitted)
        print(f"== {game}: the likeliest temperature on the fitting half {temperature:.2f} (1: as sure as it is right)")
        report("fitting half", *fitted, temperature)
        report("held-out half", *accepted(game, "test"), temperature)


if __name__ == "__main__":
    main()
