"""The computer against itself: many seeded games of Spyhunting, and what came of them.

Game ``i`` of a run with seed ``S`` is played with the dice of game number ``S + i``.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hbr.game import Option, Study, StudySetup
from hbr.games.spyhunting.bots import LEVELS, HunterBot, SpyBot
from hbr.games.spyhunting.engine import apply
from hbr.games.spyhunting.state import VARIANTS, Rules, State, new_game

#: A game still going after this many series is cut off (counted as unfinished).
MAX_SERIES = 60


def play(seed: int, hunter_level: str, spy_level: str, rules: Rules = Rules()) -> State:
    """One game, bot against bot, to its end (or MAX_SERIES)."""
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


@dataclass(frozen=True)
class Summary:
    games: int
    hunter_level: str
    spy_level: str
    seed: int
    rules: Rules
    wins: dict[str, int]
    mean_series: float
    games_per_second: float

    def as_dict(self) -> dict[str, object]:
        return {
            "game": "spyhunting", "games": self.games, "wins": self.wins,
            "unfinished": self.games - sum(self.wins.values()), "mean_moves": self.mean_series,
            "games_per_second": self.games_per_second,
            "options": {"hunter": self.hunter_level, "spy": self.spy_level, "seed": self.seed,
                        **dataclasses.asdict(self.rules)},
        }


def simulate(
    games: int, hunter_level: str, spy_level: str, seed: int = 0, rules: Rules = Rules(),
    progress: Callable[[int], object] = lambda n: None,
) -> Summary:
    began = time.perf_counter()
    ends = []
    for i in range(games):
        ends.append(play(seed + i, hunter_level, spy_level, rules))
        progress(1)
    seconds = time.perf_counter() - began
    wins = {side: sum(s.winner is not None and s.winner.value == side for s in ends) for side in ("hunter", "spy")}
    return Summary(games, hunter_level, spy_level, seed, rules, wins, sum(s.series for s in ends) / max(1, games),
                   games / seconds if seconds else 0.0)




def study(setup: StudySetup, progress: Callable[[int], object]) -> dict[str, object]:
    """`hbr simulate --game spyhunting`: each side at its own level (else the setup's), with the variants asked for."""
    rules = Rules.from_options(setup.options)
    hunter, spy = (str(setup.options.get(side) or setup.difficulty) for side in ("hunter", "spy"))
    return simulate(setup.games, hunter, spy, setup.seed, rules, progress).as_dict()


def report(summary: Mapping[str, Any]) -> list[str]:
    games, options = summary["games"], summary["options"]
    seed = options["seed"]
    lines = [f"{games} games of Spyhunting, hunter {options['hunter']}, spy {options['spy']}, dice of games {seed} to "
             f"{seed + games - 1}"]
    lines += [f"  the {side} wins {won / games:7.1%}" for side, won in summary["wins"].items()]
    lines.append(f"  series: mean {summary['mean_moves']:.1f}; {summary['games_per_second']:.2f} games per second")
    return lines


STUDY = Study(
    (Option("hunter", "spyhunting: the hunter's level (default: --difficulty)", LEVELS),
     Option("spy", "spyhunting: the spy's level (default: --difficulty)", LEVELS),
     *(Option(name, "spyhunting: the variant (docs/spyhunting.md)") for name in VARIANTS)),
    study, report,
)
