"""Are the forests the all-seeing bot loses truly lost? Plays N forests of a preset
and, for each one lost, searches on with a far larger budget: a search that ends
below its budget without a win proves no command sequence wins that forest.

Run: python bench/omniscient_search.py [--games 3000] [--difficulty hard]
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor

from hbr.games.hbr.bots import OmniscientBot, play_out, winning_line
from hbr.games.hbr.mapgen import Difficulty, new_game
from hbr.games.hbr.state import Outcome

PROOF_BUDGET = 5_000_000


def lost_forests(args: tuple[str, list[int]]) -> list[int]:
    difficulty, seeds = args
    return [
        s
        for s in seeds
        if play_out(new_game(random.Random(s), Difficulty(difficulty)), OmniscientBot()).outcome
        is not Outcome.CAPTURED
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--difficulty", default="hard")
    args = parser.parse_args()
    began = time.perf_counter()
    with ProcessPoolExecutor(2) as pool:
        chunks = pool.map(lost_forests, [(args.difficulty, list(range(i, args.games, 2))) for i in range(2)])
        lost = sorted(s for chunk in chunks for s in chunk)
    print(f"default bot (budget {OmniscientBot().budget:,} positions): lost {len(lost)} of {args.games} "
          f"{args.difficulty} forests ({len(lost) / args.games:.2%}) in {time.perf_counter() - began:.0f} s")
    for seed in lost:
        began = time.perf_counter()
        found = winning_line(new_game(random.Random(seed), Difficulty(args.difficulty)), PROOF_BUDGET)
        verdict = (
            "winnable" if found.line else "proven lost" if found.explored <= PROOF_BUDGET else "unknown (budget spent)"
        )
        print(f"  forest {seed}: {verdict}, {found.explored:,} positions, {time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
