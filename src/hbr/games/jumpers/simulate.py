"""The computer against itself: many games of Jumpers, and what came of them.

Game ``i`` of a run with seed ``S`` gives the bots the random numbers of game ``S + i``
(they break ties and, on easy, choose a little at random)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from typing import Any

from hbr.game import Option, Study, StudySetup
from hbr.games.jumpers.bots import LEVELS, Bot
from hbr.games.jumpers.engine import apply
from hbr.games.jumpers.state import Goal, State, start


def play(seed: int, south: str, north: str, goal: Goal = Goal.SHORT) -> State:
    state = start(goal)
    bots = {"south": Bot(south, random.Random(seed)), "north": Bot(north, random.Random(seed + 1_000_000))}
    while not state.over:
        state, _ = apply(state, bots[state.to_move.value].move(state))
    return state


def simulate(
    games: int, south: str, north: str, seed: int = 0, goal: Goal = Goal.SHORT,
    progress: Callable[[int], object] = lambda n: None,
) -> dict[str, object]:
    began = time.perf_counter()
    ends = []
    for i in range(games):
        ends.append(play(seed + i, south, north, goal))
        progress(1)
    seconds = time.perf_counter() - began
    wins = {"south": 0, "north": 0, "draw": 0}
    for state in ends:
        wins[state.winner.value if state.winner else "draw"] += 1
    return {
        "game": "jumpers", "games": games, "wins": wins, "mean_moves": sum(s.moves for s in ends) / max(1, games),
        "games_per_second": games / seconds if seconds else 0.0,
        "options": {"south": south, "north": north, "goal": goal.value, "seed": seed},
    }


def study(setup: StudySetup, progress: Callable[[int], object]) -> dict[str, object]:
    """`hbr simulate --game jumpers`: each side at its own level (else the setup's), the short goal unless asked."""
    goal = Goal(str(setup.options.get("goal") or "short"))
    south, north = (str(setup.options.get(side) or setup.difficulty) for side in ("south", "north"))
    return simulate(setup.games, south, north, setup.seed, goal, progress)


def report(summary: Mapping[str, Any]) -> list[str]:
    games, options = summary["games"], summary["options"]
    lines = [f"{games} games of Jumpers ({options['goal']} goal), south {options['south']}, north {options['north']}"]
    lines += [f"  {side:5} {count / games:7.1%}" for side, count in summary["wins"].items()]
    lines.append(f"  moves: mean {summary['mean_moves']:.1f}; {summary['games_per_second']:.2f} games per second")
    return lines


STUDY = Study(
    (Option("goal", "jumpers: short (default) or long", tuple(g.value for g in Goal)),
     Option("south", "jumpers: the level of south, who moves first (default: --difficulty)", LEVELS),
     Option("north", "jumpers: north's level (default: --difficulty)", LEVELS)),
    study, report,
)
