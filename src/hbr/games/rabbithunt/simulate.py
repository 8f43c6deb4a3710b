"""The computer against itself: many seeded games of Rabbit Hunt, and what came of them.

Game ``i`` of a run with seed ``S`` deals the deck of game number ``S + i``; grey (the
seat the player takes) may play at its own level, to weigh one level against another.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from typing import Any

from hbr.game import Option, Study, StudySetup
from hbr.games.rabbithunt.bots import LEVELS, Bot
from hbr.games.rabbithunt.engine import Happened, apply
from hbr.games.rabbithunt.state import COLOURS, State, new_game

PLAYERS = ("2", "3", "4")


def play(seed: int, levels: list[str]) -> tuple[State, int]:
    """One game, bot against bots, to its end; and how many farmers were put out by a
    rabbit still in hand (a bot that failed to hide them in time)."""
    state = new_game(seed, len(levels))
    bots = [Bot(level, random.Random(f"{seed} {seat}")) for seat, level in enumerate(levels)]
    held = 0
    while not state.over:
        state, events = apply(state, bots[state.to_move].move(state))
        held += sum(e.kind is Happened.OUT and e.reason == "held" for e in events)
    return state, held


def study(setup: StudySetup, progress: Callable[[int], object]) -> dict[str, object]:
    """`hbr simulate --game rabbithunt`: ``--players`` farmers at --difficulty, grey at ``--grey``."""
    players = int(str(setup.options.get("players") or "2"))
    levels = [str(setup.options.get("grey") or setup.difficulty)] + [setup.difficulty] * (players - 1)
    began = time.perf_counter()
    wins = dict.fromkeys(COLOURS[:players], 0)
    turns = held = shared = 0
    for i in range(setup.games):
        state, out = play(setup.seed + i, levels)
        for p in state.winners:
            wins[COLOURS[p]] += 1
        shared += len(state.winners) > 1 and players != 4 or len(state.winners) > 2
        turns += state.turn
        held += out
        progress(1)
    seconds = time.perf_counter() - began
    return {"game": "rabbithunt", "games": setup.games, "wins": wins, "shared": shared,
            "mean_turns": turns / max(1, setup.games), "held_out": held,
            "games_per_second": setup.games / seconds if seconds else 0.0,
            "options": {"players": players, "levels": levels, "seed": setup.seed}}


def report(summary: Mapping[str, Any]) -> list[str]:
    games, options = summary["games"], summary["options"]
    seed = options["seed"]
    lines = [f"{games} games of Rabbit Hunt, {options['players']} farmers at {', '.join(options['levels'])} "
             f"(grey's level first), decks of games {seed} to {seed + games - 1}"]
    lines += [f"  {colour} wins {won / games:7.1%}" for colour, won in summary["wins"].items()]
    lines.append(f"  wins shared: {summary['shared']}; farmers out with a rabbit in hand: {summary['held_out']}")
    lines.append(f"  turns: mean {summary['mean_turns']:.1f}; {summary['games_per_second']:.1f} games per second")
    return lines


STUDY = Study(
    (Option("players", "rabbithunt: how many farmers, 2 to 4 (default 2)", PLAYERS),
     Option("grey", "rabbithunt: grey's level, the player's seat (default: --difficulty)", LEVELS)),
    study, report,
)
