"""How often the game tells a player that the microphone clips (hbr.voice.channel),
for real speakers at their own level and with the microphone turned up.

Run: python bench/clipping.py
Each speaker of ../shared/speech-dev with at least four clips is one player: their
clips, each with 0.3 s of quiet before and a second after, are streamed (in turn, as
often as needed) through the game's own listener until it has heard enough speech to
judge, at the level recorded and played louder, clipped as a microphone turned up too
far clips. Printed per half of the speakers (CLIPPED_SHARE was chosen on the fitting
half): how many players were told the microphone clips, and the share of their speech
at the top of the channel (median, highest).
"""

from __future__ import annotations

import statistics
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

import real  # noqa: E402
from corpus import as_spoken  # noqa: E402

from hbr.voice.audio import BLOCK_SECONDS, RATE, clipped  # noqa: E402
from hbr.voice.endpoint import Listener  # noqa: E402
from hbr.voice.sphinx import SphinxRecognizer  # noqa: E402

#: Decibels louder than recorded that each player is heard at.
LOUDER = (0.0, 3.0, 6.0, 10.0, 20.0)
#: The fewest clips a speaker needs to count as a player.
FEWEST = 4
#: Rounds through a speaker's clips before giving up on a judgement.
ROUNDS = 4


def judged(listener: Listener, clips: list[np.ndarray]) -> tuple[bool, float] | None:
    """Stream ``clips`` through ``listener`` until it judges the channel: whether it
    clips, and the share of the speech at the top; None if it never heard enough."""
    block = int(BLOCK_SECONDS * RATE)
    for _ in range(ROUNDS):
        for audio in clips:
            for start in range(0, len(audio), block):
                listener.feed(audio[start : start + block])
                if listener.channel.clipping is not None:
                    listener.reset()  # the open utterance abandoned: the recognizer is free for the next player
                    return listener.channel.clipping, listener.channel.top_share
    listener.reset()
    return None


def main() -> None:
    real.require()
    recognizer = SphinxRecognizer(["north"])  # the listener needs one; only its channel check is read
    for half in ("fit", "test"):
        speakers: dict[str, list[np.ndarray]] = defaultdict(list)
        for rec in real.recordings(half):
            if rec.speaker:
                speakers[rec.speaker].append(as_spoken(rec.audio()))
        players = [clips for clips in speakers.values() if len(clips) >= FEWEST]
        print(f"== {'fitting' if half == 'fit' else 'held-out'} half: {len(players)} speakers with {FEWEST} clips or more")
        for db in LOUDER:
            verdicts = []
            for clips in players:
                verdict = judged(Listener(recognizer), [clipped(clip, db) for clip in clips])
                if verdict is not None:
                    verdicts.append(verdict)
            shares = [share for _, share in verdicts]
            told = sum(clipping for clipping, _ in verdicts)
            print(f"{db:4g} dB louder: told it clips {told} of {len(verdicts)} ({told / len(verdicts):6.1%}); "
                  f"speech at the top: median {statistics.median(shares):.2%}, highest {max(shares):.2%}")


if __name__ == "__main__":
    main()
