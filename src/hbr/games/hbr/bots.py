"""Hunters played by the computer: a blind one and an all-seeing one.

The blind bot is handed only the events of each round, which hold no positions:
exactly what a player hears. It keeps a belief, a set of possible offsets of the
bear and of the rabbit from itself, and narrows it with what the Observer says.
The all-seeing bot is handed the true state; it is the upper bound that shows a
forest is winnable. Who sees what is decided by :func:`play_out`, not by trust.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar, Protocol

from hbr.games.hbr.commands import Capture, Command, Snare, Step, Target, Toward
from hbr.games.hbr.engine import CAPTURE_RANGE, DANGER_RANGE, apply, in_net
from hbr.games.hbr.events import Event, Kind
from hbr.games.hbr.geometry import CARDINALS, Direction, Point, Quadrant, chebyshev
from hbr.games.hbr.mapgen import PRESETS, Difficulty
from hbr.games.hbr.pathing import interception, route, square_rule
from hbr.games.hbr.state import Outcome, Rules, State

Offset = tuple[int, int]  # (dx, dy) of a character seen from the hunter


class Bot(Protocol):
    """A hunter. ``omniscient`` bots are given the true state, others only events."""

    omniscient: ClassVar[bool]

    def act(self, seen: State | tuple[Event, ...]) -> Command: ...


@dataclass(frozen=True, slots=True)
class Result:
    """How a bot's game ended; ``outcome`` None means the turn limit cut it off."""

    outcome: Outcome | None
    turns: int


def play_out(start: State, bot: Bot, max_turns: int = 300) -> Result:
    """Play one game to its end; the bot sees the state only if it is omniscient."""
    state, events = start, tuple[Event, ...]()
    while not state.over and state.round < max_turns:
        seen: State | tuple[Event, ...] = state if bot.omniscient else events
        state, events = apply(state, bot.act(seen))
    return Result(state.outcome, state.round)


# ---------------------------------------------------------------------------
# The all-seeing bot


_ORIGIN = Point(0, 0)


def _in_net(offset: Offset, quadrant: Quadrant) -> bool:
    """The engine's net test, for a character at ``offset`` from the hunter."""
    return in_net(_ORIGIN, Point(*offset), quadrant)


class OmniscientBot:
    """Finds a whole winning line by search, then plays it.

    The rules hold no chance: the bear and the rabbit move by fixed rules, so a
    forest and the hunter's commands decide everything. That makes the all-seeing
    hunter a planning problem: a depth-first search over rounds, most promising
    command first, that never enters a position (hunter, bear, rabbit, snare) twice.
    Where the search runs out of ``budget`` positions without a win, the bot falls
    back to the most promising safe command and searches again next round.
    """

    omniscient: ClassVar[bool] = True

    def __init__(self, budget: int = 50_000) -> None:
        self.budget = budget
        self._plan: list[tuple[_Key, Command]] = []

    def act(self, seen: State | tuple[Event, ...]) -> Command:
        assert isinstance(seen, State), "the all-seeing bot is given the true state"
        if not (self._plan and self._plan[0][0] == _key(seen)):
            self._plan = winning_line(seen, self.budget).line or []
        if self._plan:
            return self._plan.pop(0)[1]
        safe = [(_promise(after), c) for c, after in _children(seen) if after.outcome is None]
        return max(safe, key=lambda t: t[0])[1] if safe else Step(Direction.NORTH)


_Key = tuple[Point, Point, Point, int]

#: No line longer than this is searched: play_out's turn limit, well within Python's stack.
_MAX_LINE = 300


def _key(state: State) -> _Key:
    """What decides the rest of a game in a given forest (the round number does not)."""
    return state.hunter, state.bear, state.rabbit, state.snared


def _children(state: State) -> list[tuple[Command, State]]:
    return [(c, apply(state, c)[0]) for c in _options(state)]


@dataclass(frozen=True, slots=True)
class Search:
    """A search's answer: a winning ``line`` of (position, command) pairs, or None.
    None with ``explored`` below the budget proves the forest lost from here."""

    line: list[tuple[_Key, Command]] | None
    explored: int


def winning_line(start: State, budget: int) -> Search:
    """Search for a line of commands that ends in a capture, most promising first."""
    visited = {_key(start)}

    def search(state: State, depth: int) -> list[tuple[_Key, Command]] | None:
        if depth == 0:
            return None
        fresh: list[tuple[float, Command, State]] = []
        for command, after in _children(state):
            if after.outcome is Outcome.CAPTURED:
                return [(_key(state), command)]
            if after.outcome is None and _key(after) not in visited:
                visited.add(_key(after))
                fresh.append((_promise(after), command, after))
        for _, command, after in sorted(fresh, key=lambda t: -t[0]):
            if len(visited) > budget:
                return None
            rest = search(after, depth - 1)
            if rest is not None:
                return [(_key(state), command), *rest]
        return None

    line = search(start, _MAX_LINE)
    return Search(line, len(visited))


def _promise(state: State) -> float:
    """How promising a position looks: the sooner the rabbit's route can be cut, the
    better; a bear at the hunter's heels costs turns, also while it is snared."""
    path = route(state.field, state.rabbit, state.field.hole)
    k = interception(state.hunter, path, CAPTURE_RANGE)
    score = -float(k) if k is not None else -1000.0 - chebyshev(state.hunter, state.rabbit)
    score -= max(0, 3 - chebyshev(state.hunter, state.bear)) * (0.75 if state.snared else 1.5)
    return score + 0.5 * state.snared


def _options(state: State) -> list[Command]:
    """Commands worth trying: a sure capture alone, else the eight steps, a sure snare,
    and standing still (a net cast where the rabbit is not: the bear comes closer,
    the rabbit runs on, and sometimes that is what wins)."""
    rabbit = (state.rabbit.x - state.hunter.x, state.rabbit.y - state.hunter.y)
    for q in Quadrant:
        if _in_net(rabbit, q):
            return [Capture(q)]
    options: list[Command] = [Step(d) for d in Direction]
    if state.rules.snare and not state.snared:
        bear = (state.bear.x - state.hunter.x, state.bear.y - state.hunter.y)
        options += [Snare(q) for q in Quadrant if _in_net(bear, q)][:1]
    return [*options, Capture(next(iter(Quadrant)))]


# ---------------------------------------------------------------------------
# The blind bot


def _shift(offsets: Iterable[Offset], d: Direction) -> set[Offset]:
    """Offsets after the hunter moved one step in ``d``."""
    return {(x - d.dx, y - d.dy) for x, y in offsets}


def _bear_step(o: Offset) -> Offset:
    """Where a bear at offset ``o`` goes by the Square Rule (it ignores obstacles)."""
    d = square_rule(Point(*o), Point(0, 0))
    return o if d is None else (o[0] + d.dx, o[1] + d.dy)


class BlindBot:
    """Plays from the Observer's words alone; see docs/balance.md for its strategy.

    Beliefs are sets of offsets (the character minus the hunter). The bear's moves
    depend only on its offset, so its belief updates exactly; the rabbit's hole is
    unknown, so each rabbit move spreads its belief to the four neighbours, and
    "ready to hunt", objective moves and missed nets narrow it again.
    """

    omniscient: ClassVar[bool] = False

    def __init__(self, difficulty: Difficulty = Difficulty.NORMAL, rules: Rules = Rules()) -> None:
        preset = PRESETS[difficulty]
        lo, hi = preset.bear_distance
        self.bear: set[Offset] = {
            (x, y) for x in range(-hi, hi + 1) for y in range(-hi, hi + 1) if lo <= max(abs(x), abs(y))
        }
        lo, hi = preset.rabbit_distance
        self.rabbit: set[Offset] = {
            (x, y) for x in range(-hi, hi + 1) for y in range(-hi, hi + 1) if max(1, lo - 4) <= abs(x) + abs(y) <= hi
        }
        self.rules = rules
        self.snared = 0
        self.last: Command | None = None

    # -- reading the Observer ------------------------------------------------

    def _observe(self, events: tuple[Event, ...]) -> None:
        kinds = {e.kind for e in events}
        for e in events:
            if e.kind is Kind.HUNTER_MOVED and e.direction:
                if e.target is Target.RABBIT:
                    self._narrow_rabbit({o for o in self.rabbit if square_rule(Point(0, 0), Point(*o)) is e.direction})
                if e.target is Target.BEAR:
                    self.bear = _keep(self.bear, {o for o in self.bear if square_rule(Point(0, 0), Point(*o)) is e.direction})
                self.bear = _shift(self.bear, e.direction)
                self.rabbit = _shift(self.rabbit, e.direction)
            elif e.kind is Kind.RABBIT_BUMPED and e.direction:
                self.rabbit = {(e.direction.dx, e.direction.dy)}
            elif e.kind is Kind.CAPTURE_MISSED and e.quadrant:
                self._narrow_rabbit({o for o in self.rabbit if not _in_net(o, e.quadrant)})
            elif e.kind is Kind.BEAR_SNARED and e.quadrant:
                self.bear = _keep(self.bear, {o for o in self.bear if _in_net(o, e.quadrant)})
                self.snared = 2
            elif e.kind is Kind.SNARE_MISSED and e.quadrant:
                self.bear = _keep(self.bear, {o for o in self.bear if not _in_net(o, e.quadrant)})
            elif e.kind is Kind.BEAR_MOVED:
                self.bear = {_bear_step(o) for o in self.bear}
            elif e.kind is Kind.BEAR_HELD:
                self.snared = max(0, self.snared - 1)
            elif e.kind is Kind.RABBIT_MOVED:
                self.rabbit = {(x + c.dx, y + c.dy) for x, y in self.rabbit for c in CARDINALS} - {(0, 0)}
        in_danger = Kind.DANGER_ZONE in kinds
        self.bear = _keep(self.bear, {o for o in self.bear if (max(map(abs, o)) <= DANGER_RANGE) == in_danger})
        ready = Kind.READY_TO_HUNT in kinds
        self._narrow_rabbit({o for o in self.rabbit if (max(map(abs, o)) <= CAPTURE_RANGE) == ready})

    def _narrow_rabbit(self, kept: set[Offset]) -> None:
        self.rabbit = _keep(self.rabbit, kept)

    # -- deciding ------------------------------------------------------------

    def act(self, seen: State | tuple[Event, ...]) -> Command:
        assert isinstance(seen, tuple), "the blind bot is given only the Observer's events"
        self._observe(seen)
        command = self._choose(seen)
        self.last = command
        return command

    def _choose(self, events: tuple[Event, ...]) -> Command:
        kinds = {e.kind for e in events}
        if Kind.READY_TO_HUNT in kinds:
            q, share = _best_quadrant(self.rabbit)
            if share >= 0.5 or Kind.DANGER_ZONE in kinds:
                return Capture(q)
        if Kind.DANGER_ZONE in kinds and not self.snared:
            if self.rules.snare:
                q, share = _best_quadrant(self.bear)
                if share >= 0.75:
                    return Snare(q)
            return Step(min(Direction, key=lambda d: (self._bear_risk(d), self._rabbit_distance(d))))
        return self._approach()

    def _approach(self) -> Command:
        mx = sum(x for x, _ in self.rabbit) / len(self.rabbit)
        my = sum(y for _, y in self.rabbit) / len(self.rabbit)
        spread = max(max(abs(x - mx), abs(y - my)) for x, y in self.rabbit)
        if spread > 3 or (abs(mx) < 1.5 and abs(my) < 1.5):
            # Unsure where it is: an objective move both closes in and says which way.
            toward = square_rule(Point(0, 0), Point(round(mx), round(my))) or Direction.NORTH
            if self._bear_risk(toward) < 0.2:
                return Toward(Target.RABBIT)
        return Step(min(Direction, key=lambda d: (self._bear_risk(d) > 0.1, self._rabbit_distance(d))))

    def _bear_risk(self, d: Direction) -> float:
        """Share of bear positions next to which this step would end (and so be eaten)."""
        if self.snared:
            return 0.0
        bad = sum(1 for x, y in self.bear if max(abs(x - d.dx), abs(y - d.dy)) <= DANGER_RANGE)
        return bad / len(self.bear)

    def _rabbit_distance(self, d: Direction) -> float:
        return sum(max(abs(x - d.dx), abs(y - d.dy)) for x, y in self.rabbit) / len(self.rabbit)


def _keep(belief: set[Offset], kept: set[Offset]) -> set[Offset]:
    """Narrow a belief, unless what was heard contradicts all of it (an obstacle detour)."""
    return kept if kept else belief


def _best_quadrant(belief: set[Offset]) -> tuple[Quadrant, float]:
    shares = {q: sum(1 for o in belief if _in_net(o, q)) / len(belief) for q in Quadrant}
    best = max(Quadrant, key=lambda q: shares[q])
    return best, shares[best]
