"""The computer's side: a hunter that plans for the best chance of a hit over the
spy's possible moves, and a spy that keeps off every line the hunter could fire
along; each at easy, normal or hard. Bots see only what a player at the table sees:
the spy bot never sees the hunter's plan.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random

import numpy as np

from hbr.games.spyhunting.engine import (
    Act,
    Plan,
    SpyMove,
    line_of_fire,
    plan_end,
    refusal,
    spy_path_problem,
    step_problem,
)
from hbr.games.spyhunting.state import HUNTER_HOME, LINES, Action, Heading, Phase, Point, Rules, State

LEVELS = ("easy", "normal", "hard")
HunterState = tuple[Point, Heading, bool]  # point, facing, has left home
#: A spy bot chooses at random among the moves scored within this of the best
#: (half a point of distance to its goal is 1/32).
SPY_SLACK = 0.2


@functools.cache
def moves(rules: Rules) -> tuple[Action, ...]:
    """The hunter's steps and turns that the variants allow (never a shot). (Cached: the
    bots ask for every position they look at.)"""
    return tuple(a for a in Action if a is not Action.SHOOT and not refusal(rules, a))


def spy_moves(state: State) -> dict[Point, tuple[Heading, ...]]:
    """Every point the spy may end its move on, with one path there."""
    points = state.spy_points
    frontier: dict[Point, tuple[Heading, ...]] = {state.spy: ()}
    ends: dict[Point, tuple[Heading, ...]] = {}
    for _ in range(points):
        reached: dict[Point, tuple[Heading, ...]] = {}
        for p, path in frontier.items():
            for h in state.rules.directions:
                q = p + h
                if q.on_board and q != state.hunter and q not in reached:
                    reached[q] = (*path, h)
        frontier = reached
        if HUNTER_HOME in frontier and not spy_path_problem(state, frontier[HUNTER_HOME]):
            ends.setdefault(HUNTER_HOME, frontier[HUNTER_HOME])
    for p, path in frontier.items():
        if not spy_path_problem(state, path):
            ends.setdefault(p, path)
    return ends


def hunter_reach(state: State, start: HunterState, budget: int) -> dict[HunterState, tuple[Action, ...]]:
    """Every (point, facing) the hunter can reach with at most ``budget`` steps and turns."""
    seen: dict[HunterState, tuple[Action, ...]] = {start: ()}
    frontier = [start]
    for _ in range(budget):
        nxt = []
        for hs in frontier:
            point, facing, left = hs
            for action in moves(state.rules):
                if action.is_step and step_problem(state, point, facing, action, left):
                    continue
                to = _next(hs, action)
                if to not in seen:
                    seen[to] = (*seen[hs], action)
                    nxt.append(to)
        frontier = nxt
    return seen


def covered(state: State, point: Point, facing: Heading) -> frozenset[Point]:
    """The points a shot from ``point`` facing ``facing`` would reach."""
    return _covered(point, facing, state.rules.four_way)


@functools.cache
def _covered(point: Point, facing: Heading, four_way: bool) -> frozenset[Point]:
    headings = LINES if four_way else (facing,)
    return frozenset(p for h in headings for p in line_of_fire(point, h))


def _filled(state: State, actions: tuple[Action, ...], length: int) -> tuple[Action, ...] | None:
    """``actions`` made exactly ``length`` long with turns, if the plan is then legal."""
    filler = itertools.cycle((Action.TURN_LEFT, Action.TURN_RIGHT))
    plan = actions + tuple(next(filler) for _ in range(length - len(actions)))
    if len(plan) != length or plan_end(state, plan) == state.phase_start:
        return None
    return plan


class HunterBot:
    def __init__(self, level: str, rng: random.Random) -> None:
        self.level = level
        self.rng = rng

    def actions(self, state: State) -> list[Act]:
        """The four-sided die's actions: to the point from which the best plan follows."""
        start: HunterState = (state.hunter, state.facing, state.hunter_left_home)
        options = []
        for seq in itertools.product(moves(state.rules), repeat=state.d4):
            hs, ok = start, True
            for action in seq:
                point, facing, left = hs
                if action.is_step and step_problem(state, point, facing, action, left):
                    ok = False
                    break
                hs = _next(hs, action)
            if ok and hs[0] != state.phase_start:
                options.append((hs, seq))
        best: dict[HunterState, tuple[Action, ...]] = {}
        for hs, seq in options:
            best.setdefault(hs, seq)
        if self.level == "easy":
            return [Act(a) for a in self.rng.choice(list(best.values()))]
        scored = [(self._value(state, hs), self.rng.random(), seq) for hs, seq in best.items()]
        return [Act(a) for a in max(scored)[2]]

    def _value(self, state: State, hs: HunterState) -> float:
        after = _as_planning(state, hs)
        return self._best_plan(after)[0]

    def plan(self, state: State) -> Plan:
        if self.level == "easy":
            line = covered(state, state.hunter, state.facing)
            first = (Action.SHOOT,) if state.spy in line else ()
            for _ in range(50):
                plan = _filled(state, first + tuple(self.rng.choice(moves(state.rules)) for _ in range(state.d8 - len(first))),
                               state.d8)
                if plan is not None:
                    return Plan(plan)
        return Plan(self._best_plan(state)[1])

    def _best_plan(self, state: State) -> tuple[float, tuple[Action, ...]]:
        """The plan with the best chance of a hit, over the spy's moves (each as likely,
        or, on hard, as likely as the spy bot would make them)."""
        ends = spy_moves(_as_spy_turn(state))
        weights = self._weights(state, ends)
        total = sum(weights.values()) or 1.0
        start: HunterState = (state.hunter, state.facing, state.hunter_left_home)
        reach = hunter_reach(state, start, state.d8)
        best: tuple[float, float, tuple[Action, ...]] = (-1.0, 0.0, ())
        for (point, facing, _), path in reach.items():
            if len(path) < state.d8:
                line = covered(state, point, facing)
                hit = sum(w for p, w in weights.items() if p in line and p != HUNTER_HOME)
                plan = _filled(state, (*path, Action.SHOOT), state.d8)
                if plan is not None:
                    best = max(best, (hit / total, self.rng.random(), plan))
            if len(path) == state.d8 and point != state.phase_start:
                # no shot: where the next series starts matters (near the spy's way)
                near = -point.distance(state.spy) / 100
                best = max(best, (near, self.rng.random(), path))
        return best[0], best[2]

    def _weights(self, state: State, ends: dict[Point, tuple[Heading, ...]]) -> dict[Point, float]:
        if self.level != "hard":
            return dict.fromkeys(ends, 1.0)
        spy_view = _as_spy_turn(state)
        scores = {p: SpyBot.score(spy_view, p, careful=True) for p in ends}
        best = max(scores.values(), default=0.0)
        return {p: 3.0 if s >= best - SPY_SLACK else 1.0 for p, s in scores.items()}


def _next(hs: HunterState, action: Action) -> HunterState:
    point, facing, left = hs
    if action.is_turn:
        return point, facing.turned(action.eighths), left
    p = point + facing.turned(action.eighths)
    return p, facing, left or p.distance(HUNTER_HOME) >= 3


def _as_planning(state: State, hs: HunterState) -> State:
    return dataclasses.replace(state, hunter=hs[0], facing=hs[1], hunter_left_home=hs[2], phase=Phase.PLAN,
                               phase_start=hs[0], used=0)


def _as_spy_turn(state: State) -> State:
    return dataclasses.replace(state, phase=Phase.SPY_MOVE)


class SpyBot:
    def __init__(self, level: str, rng: random.Random) -> None:
        self.level = level
        self.rng = rng

    @staticmethod
    def danger(state: State, point: Point, budget: int) -> tuple[bool, float]:
        """Whether any of the hunter's shooting positions within ``budget`` actions covers
        ``point``, and what share of them do."""
        if point == HUNTER_HOME:
            return False, 0.0
        start: HunterState = (state.hunter, state.facing, state.hunter_left_home)
        reach = hunter_reach(state, start, max(0, budget - 1))
        hits = sum(point in covered(state, p, f) for (p, f, _) in reach)
        return hits > 0, hits / max(1, len(reach))

    @staticmethod
    def score(state: State, point: Point, careful: bool = True) -> float:
        """Higher is better for the spy: safe first, then nearer its goal. ``careful``
        (hard) avoids every point a shot could reach, not only the likeliest ones."""
        anywhere, share = SpyBot.danger(state, point, state.d8)
        return -10 * share - (20 * anywhere if careful else 0) - point.distance(state.spy_target) / 16

    def move(self, state: State) -> SpyMove:
        ends = spy_moves(state)
        if self.level == "easy":
            near = sorted(ends, key=lambda p: (p.distance(state.spy_target), self.rng.random()))
            return SpyMove(ends[near[min(len(near) - 1, self.rng.randrange(3))]])
        if self.level == "hard":
            mix = spy_mix(state, ends)
            points = sorted(mix)
            return SpyMove(ends[self.rng.choices(points, [mix[p] for p in points])[0]])
        scores = {p: self.score(state, p, careful=False) for p in ends}
        best = max(scores.values())
        # among the moves nearly as good, any: a spy that always makes the same choice is read
        good = sorted(p for p, s in scores.items() if s >= best - SPY_SLACK)
        return SpyMove(ends[self.rng.choice(good)])


#: Rounds of the matrix game the hard spy plays out before choosing, and its step size.
MIX_ROUNDS = 300
MIX_RATE = 0.3
#: What a point farther from the spy's goal costs it, as a chance of being hit.
GOAL_COST = 1 / 32


def spy_mix(state: State, ends: dict[Point, tuple[Heading, ...]]) -> dict[Point, float]:
    """The hard spy's chances for each end point: a mixed choice that keeps the
    hunter's best reply (whichever line it fires along) least likely to hit, with a
    small cost for each point away from its goal. The hunter plans before the spy
    moves, so this is a matrix game (hunter shooting positions against spy points),
    solved by multiplicative weights against the hunter's best reply each round; the
    average of the rounds is the spy's choice. A spy that picks its one best point is
    read by a hunter that thinks like it (the hard hunter won every game of 30)."""
    points = list(ends)
    start: HunterState = (state.hunter, state.facing, state.hunter_left_home)
    reach = hunter_reach(state, start, max(0, state.d8 - 1))
    lines = {covered(state, p, f) for (p, f, _) in reach}
    hits = np.array([[p in line and p != HUNTER_HOME for p in points] for line in lines], dtype=float)
    cost = np.array([GOAL_COST * p.distance(state.spy_target) for p in points])
    chances = np.full(len(points), 1 / len(points))
    total = np.zeros(len(points))
    for _ in range(MIX_ROUNDS):
        reply = hits[int(np.argmax(hits @ chances))] if len(hits) else np.zeros(len(points))
        chances = chances * np.exp(-MIX_RATE * (reply + cost))
        chances /= chances.sum()
        total += chances
    return dict(zip(points, total / MIX_ROUNDS, strict=True))


def bot_rng(seed: int, series: int, who: str) -> random.Random:
    return random.Random(f"spyhunting bot {who} {seed} {series}")

