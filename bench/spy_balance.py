"""Spyhunting balance: the computer hunter against the computer spy at every pair of
levels, seeded forests of dice. Prints win rates by side, mean series and games per second.

Run: python bench/spy_balance.py [--games N] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from hbr.games.spyhunting.bots import LEVELS, HunterBot, SpyBot
from hbr.games.spyhunting.engine import apply
from hbr.games.spyhunting.state import Rules, State, new_game

MAX_SERIES = 60


def play(seed: int, hunter_level: str, spy_level: str, rules: Rules = Rules()) -> State:
    state = new_game(seed, rules)
    hunter, spy = HunterBot(hunter_level, random.Random(seed)), SpyBot(spy_level, random.Random(seed + 1))
    while not state.over and state.series < MAX_SERIES:
        for act in hunter.actions(state):
            state, _ = apply(state, act)
            if state.over:
                return state
        state, _ = apply(state, hunter.plan(state))
        state, _ = apply(state, spy.move(state))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for hunter_level in LEVELS:
        for spy_level in LEVELS:
            began = time.perf_counter()
            ends = [play(seed, hunter_level, spy_level) for seed in range(args.games)]
            seconds = time.perf_counter() - began
            wins = {side: sum(s.winner is not None and s.winner.value == side for s in ends) for side in ("hunter", "spy")}
            row = {"game": "spyhunting", "games": args.games, "hunter": hunter_level, "spy": spy_level, "wins": wins,
                   "unfinished": args.games - sum(wins.values()),
                   "mean_series": sum(s.series for s in ends) / len(ends), "games_per_second": args.games / seconds}
            if args.json:
                print(json.dumps(row))
            else:
                print(f"hunter {hunter_level:6} spy {spy_level:6}: hunter wins {wins['hunter'] / args.games:5.0%}, "
                      f"spy {wins['spy'] / args.games:5.0%}, mean {row['mean_series']:.1f} series, "
                      f"{row['games_per_second']:.2f} games/s")


if __name__ == "__main__":
    main()
