"""How fast is the engine? Prints engine rounds per second on one core, whole games
per second, the speed-up from more worker processes, and a profile.

Run: python bench/engine_speed.py [--rounds N] [--games N]
Target (docs/benchmarks.md): at least 50,000 engine rounds per second on one core.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import time

from machine import header

from hbr.games.hbr.commands import all_commands
from hbr.games.hbr.engine import apply
from hbr.games.hbr.mapgen import Difficulty, new_game
from hbr.games.hbr.simulate import simulate


def engine_rounds(rounds: int) -> float:
    """Rounds per second: random commands on fresh seeded forests (forest drawing not timed)."""
    rng = random.Random(1)
    commands = all_commands()
    starts = [new_game(random.Random(seed)) for seed in range(200)]
    plan = [rng.choice(commands) for _ in range(rounds)]
    played = 0
    began = time.perf_counter()
    state = starts[0]
    for i, command in enumerate(plan):
        if state.over or state.round >= 60:
            state = starts[i % len(starts)]
        state, _ = apply(state, command)
        played += 1
    return played / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200_000)
    parser.add_argument("--games", type=int, default=2_000)
    args = parser.parse_args()
    print(header())

    print(f"engine rounds per second, one core: {engine_rounds(args.rounds):,.0f}")
    for bot in ("blind", "omniscient"):
        games = args.games if bot == "blind" else args.games // 10
        one = simulate(games, bot, Difficulty.NORMAL, seed=0, workers=1)
        two = simulate(games, bot, Difficulty.NORMAL, seed=0, workers=2)
        print(
            f"whole games per second, {bot} bot, normal: {one.games_per_second:,.1f} on 1 worker, "
            f"{two.games_per_second:,.1f} on 2 workers (speed-up {two.games_per_second / one.games_per_second:.2f}x)"
        )

    profile = cProfile.Profile()
    profile.enable()
    engine_rounds(args.rounds // 4)
    profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(8)
    print("profile of engine rounds (top 8 by own time):")
    print("\n".join(line for line in out.getvalue().splitlines() if line.strip())[:3000])


if __name__ == "__main__":
    main()
