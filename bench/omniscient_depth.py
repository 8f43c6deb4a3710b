"""Does the all-seeing bot lose hard forests because they are lost, or because it looks
too few rounds ahead? Prints its losses on the same forests for deeper searches.

Run: python bench/omniscient_depth.py [--games 400] [--difficulty hard]
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor

from hbr.games.hbr.bots import OmniscientBot, play_out
from hbr.games.hbr.mapgen import Difficulty, new_game
from hbr.games.hbr.state import Outcome

#: (label, closer): extra rounds of lookahead by the bear's distance.
SETTINGS = [
    ("default: +1 round within 3", ((3, 1),)),
    ("+1 round within 5", ((5, 1),)),
    ("+1 within 5, +2 within 3", ((5, 1), (3, 2))),
]


def losses(args: tuple[str, tuple[tuple[int, int], ...], list[int]]) -> int:
    difficulty, closer, seeds = args
    return sum(
        play_out(new_game(random.Random(s), Difficulty(difficulty)), OmniscientBot(closer=closer)).outcome
        is not Outcome.CAPTURED
        for s in seeds
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--difficulty", default="hard")
    args = parser.parse_args()
    for label, closer in SETTINGS:
        began = time.perf_counter()
        with ProcessPoolExecutor(2) as pool:
            lost = sum(pool.map(losses, [(args.difficulty, closer, list(range(i, args.games, 2))) for i in range(2)]))
        print(f"{label}: lost {lost} of {args.games} {args.difficulty} forests "
              f"({lost / args.games:.2%}), {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
