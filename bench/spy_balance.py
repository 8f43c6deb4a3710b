"""Spyhunting balance: the computer hunter against the computer spy at every pair of
levels, seeded forests of dice. Prints win rates by side, mean series and games per second.

Run: python bench/spy_balance.py [--games N] [--json]
"""

from __future__ import annotations

import argparse
import json

from hbr.games.spyhunting.bots import LEVELS
from hbr.games.spyhunting.simulate import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for hunter_level in LEVELS:
        for spy_level in LEVELS:
            summary = simulate(args.games, hunter_level, spy_level)
            if args.json:
                print(json.dumps(summary.as_dict()))
                continue
            wins = summary.wins
            print(f"hunter {hunter_level:6} spy {spy_level:6}: hunter wins {wins['hunter'] / args.games:5.0%}, "
                  f"spy {wins['spy'] / args.games:5.0%}, mean {summary.mean_series:.1f} series, "
                  f"{summary.games_per_second:.2f} games/s")


if __name__ == "__main__":
    main()
