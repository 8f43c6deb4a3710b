"""Many seeded games between a bot and the forest, over several processes.

Game ``i`` of a run with seed ``S`` is forest number ``S + i`` (the same forest
``hbr play --seed S+i`` deals), so any game of a study can be replayed by hand.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

from hbr.game import Option, Study, StudySetup
from hbr.games.hbr.bots import BlindBot, Bot, OmniscientBot, Result, play_out
from hbr.games.hbr.mapgen import Difficulty, new_game
from hbr.games.hbr.state import Outcome, Rules

BOTS: dict[str, Callable[[Difficulty, Rules], Bot]] = {
    "blind": lambda difficulty, rules: BlindBot(difficulty, rules),
    "omniscient": lambda difficulty, rules: OmniscientBot(),
}
MAX_TURNS = 300
CHUNK = 25


@dataclass(frozen=True, slots=True)
class Summary:
    """What a study found. Rates are shares of ``games``; truncated games hit the turn limit."""

    games: int
    bot: str
    difficulty: str
    seed: int
    workers: int
    win_rate: float
    eaten_rate: float
    rabbit_home_rate: float
    truncated_rate: float
    mean_turns: float
    median_turns: float
    games_per_second: float

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def _play_chunk(args: tuple[str, str, bool, int, int]) -> list[Result]:
    bot_name, difficulty_name, snare, first, count = args
    difficulty, rules = Difficulty(difficulty_name), Rules(snare=snare)
    results = []
    for seed in range(first, first + count):
        start = new_game(random.Random(seed), difficulty, rules)
        results.append(play_out(start, BOTS[bot_name](difficulty, rules), MAX_TURNS))
    return results


def simulate(
    games: int,
    bot: str = "blind",
    difficulty: Difficulty = Difficulty.NORMAL,
    seed: int = 0,
    workers: int = 1,
    rules: Rules = Rules(),
    progress: Callable[[int], object] | None = None,
) -> Summary:
    """Play ``games`` games; ``progress`` is called with the number of games just finished."""
    if bot not in BOTS:
        raise ValueError(f"unknown bot {bot!r}")
    if games < 1 or workers < 1:
        raise ValueError("games and workers must be at least 1")
    chunks = [
        (bot, difficulty.value, rules.snare, seed + first, min(CHUNK, games - first)) for first in range(0, games, CHUNK)
    ]
    results: list[Result] = []
    began = time.perf_counter()
    if workers == 1:
        for chunk in chunks:
            results += _play_chunk(chunk)
            if progress:
                progress(chunk[-1])
    else:
        with ProcessPoolExecutor(workers) as pool:
            for done in pool.map(_play_chunk, chunks):
                results += done
                if progress:
                    progress(len(done))
    elapsed = time.perf_counter() - began
    turns = [r.turns for r in results]

    def rate(outcome: Outcome | None) -> float:
        return sum(r.outcome is outcome for r in results) / games

    return Summary(
        games=games,
        bot=bot,
        difficulty=difficulty.value,
        seed=seed,
        workers=workers,
        win_rate=rate(Outcome.CAPTURED),
        eaten_rate=rate(Outcome.EATEN),
        rabbit_home_rate=rate(Outcome.RABBIT_HOME),
        truncated_rate=rate(None),
        mean_turns=statistics.fmean(turns),
        median_turns=statistics.median(turns),
        games_per_second=games / elapsed if elapsed > 0 else float("inf"),
    )


def study(setup: StudySetup, progress: Callable[[int], object]) -> dict[str, object]:
    """`hbr simulate` for Hunter Bear Rabbit: the bot (blind by default) in forests of the setup's difficulty."""
    summary = simulate(
        setup.games, str(setup.options.get("bot") or "blind"), Difficulty(setup.difficulty), setup.seed,
        setup.workers, Rules(snare=not setup.options.get("no_snare", False)), progress,
    )
    return summary.as_dict()


def report(summary: Mapping[str, Any]) -> list[str]:
    seed, games = summary["seed"], summary["games"]
    lines = [
        f"{games} {summary['difficulty']} games, {summary['bot']} bot, forests {seed} to {seed + games - 1}, "
        f"{summary['workers']} worker(s)",
        f"  won (rabbit captured)  {summary['win_rate']:7.1%}",
        f"  eaten by the bear      {summary['eaten_rate']:7.1%}",
        f"  rabbit reached home    {summary['rabbit_home_rate']:7.1%}",
    ]
    if summary["truncated_rate"]:
        lines.append(f"  cut off at {MAX_TURNS} turns   {summary['truncated_rate']:7.1%}")
    lines += [f"  turns: mean {summary['mean_turns']:.1f}, median {summary['median_turns']:g}",
              f"  {summary['games_per_second']:,.0f} games per second"]
    return lines


STUDY = Study(
    (Option("bot", "hbr: the player: blind (hears only the Observer) or omniscient (sees the forest)", tuple(sorted(BOTS))),
     Option("no-snare", "hbr: play without the snare")),
    study, report,
)
