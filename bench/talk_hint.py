"""When does the game say that it hears talking but no commands (hbr.live.TALK)?

Run: python bench/talk_hint.py [--workers 2]

A player who only says commands should never hear it; one whose commands drown in
other people's talk should hear it soon. So every session of the speech corpus
(bench/corpus.py: one voice, speed and noise condition) is played with its
commands only, clip after clip through the game's own listener, and what was heard
goes through the live loop's own check (hbr.live.TalkCheck). Prints, for each
kind of noise, in how many sessions it was said and after how many commands.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from corpus import Clip, clips, sessions  # noqa: E402
from speech import stream  # noqa: E402

from hbr.games.hbr.phrases import HBRGrammar  # noqa: E402
from hbr.live import TalkCheck  # noqa: E402
from hbr.voice.endpoint import Listener  # noqa: E402
from hbr.voice.sphinx import SphinxRecognizer  # noqa: E402


def said_after(session: list[Clip]) -> tuple[str, int, int | None]:
    """(kind of noise, commands played, how many had been played when TALK was due)."""
    commands = [clip for clip in session if clip.is_command]
    noise = session[0].noise or "none (clean)"
    listener = Listener(SphinxRecognizer(HBRGrammar().phrases()))
    check = TalkCheck()
    for played, clip in enumerate(commands, 1):
        heard, _ = stream(listener, clip.audio, len(clip.audio))
        for h in heard:
            if check.due(h):
                return noise, len(commands), played
    return noise, len(commands), None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with Pool(args.workers) as pool:
        results = pool.map(said_after, sessions(clips()), chunksize=1)
    by_noise: dict[str, list[tuple[int, int | None]]] = defaultdict(list)
    for noise, commands, after in results:
        if commands:
            by_noise[noise].append((commands, after))
    for noise, rows in sorted(by_noise.items()):
        said = sorted(after for _, after in rows if after is not None)
        when = f", after {said[0]} to {said[-1]} commands" if said else ""
        print(f"{noise:>13}: said in {len(said)} of {len(rows)} sessions of {rows[0][0]} commands{when}")


if __name__ == "__main__":
    main()
