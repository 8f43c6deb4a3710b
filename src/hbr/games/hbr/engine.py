"""The rules of Hunter Bear Rabbit as one pure function.

``apply(state, command) -> (state, events)`` plays a whole round: the hunter's
command, then the bear, then the rabbit, stopping the moment an outcome happens.
No I/O, no text, no randomness: a game is its first state and its commands.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hbr.games.hbr.commands import Capture, Command, Snare, Step, Target, Toward
from hbr.games.hbr.events import Event, Kind
from hbr.games.hbr.geometry import Direction, Point, Quadrant, chebyshev
from hbr.games.hbr.pathing import next_step, square_rule
from hbr.games.hbr.state import Outcome, State

#: A successful snare holds the bear for this round and the next one.
SNARE_ROUNDS = 2
CAPTURE_RANGE = 2
DANGER_RANGE = 1


class IllegalCommand(ValueError):
    """A well-formed command the rules do not allow now (the game is over, snares off)."""


@dataclass(slots=True)
class _Draft:
    """The round being played: local, mutable, and turned into one new State at the end."""

    state: State
    hunter: Point
    bear: Point
    rabbit: Point
    snared: int
    outcome: Outcome | None = None
    events: list[Event] = field(default_factory=list)

    def said(self, kind: Kind, **details: object) -> None:
        self.events.append(Event(kind, **details))  # type: ignore[arg-type]


def apply(state: State, command: Command) -> tuple[State, tuple[Event, ...]]:
    """Play one round; raises IllegalCommand instead of changing anything."""
    if state.over:
        raise IllegalCommand("the game is over")
    if isinstance(command, Snare) and not state.rules.snare:
        raise IllegalCommand("snares are switched off in this game")
    draft = _Draft(state, state.hunter, state.bear, state.rabbit, state.snared)
    _hunter_turn(draft, command)
    rabbit_moved = False
    if draft.outcome is None:
        rabbit_moved = _bear_turn(draft)
    if draft.outcome is None and not rabbit_moved:
        _rabbit_turn(draft)
    after = State(
        state.field, draft.hunter, draft.bear, draft.rabbit, state.rules, draft.snared, state.round + 1, draft.outcome
    )
    if ready_to_hunt(after):
        draft.said(Kind.READY_TO_HUNT)
    if danger_zone(after):
        draft.said(Kind.DANGER_ZONE)
    return after, tuple(draft.events)


def ready_to_hunt(state: State) -> bool:
    """The rabbit is within capture range of a hunter still in the game."""
    return not state.over and chebyshev(state.hunter, state.rabbit) <= CAPTURE_RANGE


def danger_zone(state: State) -> bool:
    """The bear is close enough to eat the hunter on its next turn unless they move."""
    return not state.over and chebyshev(state.hunter, state.bear) <= DANGER_RANGE


def _hunter_turn(draft: _Draft, command: Command) -> None:
    field_ = draft.state.field
    match command:
        case Step(direction):
            _hunter_step(draft, direction, None)
        case Toward(target):
            goal = {Target.RABBIT: draft.rabbit, Target.BEAR: draft.bear, Target.HOLE: field_.hole}[target]
            way = next_step(field_, draft.hunter, goal)
            if way is None:
                draft.said(Kind.NO_PATH, target=target)
            else:
                _hunter_step(draft, way, target)
        case Capture(quadrant):
            hit = in_net(draft.hunter, draft.rabbit, quadrant)
            draft.said(Kind.CAPTURED if hit else Kind.CAPTURE_MISSED, quadrant=quadrant)
            if hit:
                draft.outcome = Outcome.CAPTURED
        case Snare(quadrant):
            hit = in_net(draft.hunter, draft.bear, quadrant)
            draft.said(Kind.BEAR_SNARED if hit else Kind.SNARE_MISSED, quadrant=quadrant)
            if hit:
                draft.snared = SNARE_ROUNDS
        case _:
            raise TypeError(f"not a command: {command!r}")


def in_net(hunter: Point, prey: Point, quadrant: Quadrant) -> bool:
    """Capture and snare share one test: within range and inside the called quadrant."""
    return chebyshev(hunter, prey) <= CAPTURE_RANGE and quadrant.contains(hunter, prey)


def _hunter_step(draft: _Draft, direction: Direction, target: Target | None) -> None:
    """Resolve the hunter's step onto one square; only the destination matters."""
    dest = draft.hunter.step(direction)
    field_ = draft.state.field
    if not field_.contains(dest):
        kind = Kind.EDGE
    elif dest in field_.obstacles:
        kind = Kind.OBSTACLE
    elif dest == draft.bear:
        kind = Kind.BEAR_BUMPED if draft.snared else Kind.HUNTER_WALKED_INTO_BEAR
    elif dest == draft.rabbit:
        kind = Kind.RABBIT_BUMPED
    elif dest == field_.hole:
        kind = Kind.HOLE_FOUND
    else:
        kind = Kind.HUNTER_MOVED
    draft.said(kind, direction=direction, target=target)
    if kind is Kind.HUNTER_WALKED_INTO_BEAR:
        draft.hunter, draft.outcome = dest, Outcome.EATEN
    elif kind is Kind.HUNTER_MOVED:
        draft.hunter = dest


def _bear_turn(draft: _Draft) -> bool:
    """The bear's move; returns whether the rabbit already made its move."""
    if draft.snared:
        draft.said(Kind.BEAR_HELD)
        draft.snared -= 1
        return False
    if chebyshev(draft.bear, draft.hunter) <= DANGER_RANGE:
        draft.said(Kind.BEAR_ATE)
        draft.bear, draft.outcome = draft.hunter, Outcome.EATEN
        return False
    direction = square_rule(draft.bear, draft.hunter)
    assert direction is not None  # the hunter is more than one square away
    dest = draft.bear.step(direction)
    if dest != draft.rabbit:
        draft.said(Kind.BEAR_MOVED)
        draft.bear = dest
        return False
    # The bear runs into the rabbit: the rabbit makes its move now, the bear follows.
    hop = next_step(draft.state.field, draft.rabbit, draft.state.field.hole, (draft.bear, draft.hunter))
    if hop is None:
        draft.said(Kind.BEAR_STAYED)
        draft.said(Kind.RABBIT_STAYED)
        return True
    draft.said(Kind.BEAR_MOVED)
    draft.bear = dest
    _rabbit_to(draft, draft.rabbit.step(hop))
    return True


def _rabbit_turn(draft: _Draft) -> None:
    hop = next_step(draft.state.field, draft.rabbit, draft.state.field.hole, (draft.hunter, draft.bear))
    if hop is None:
        draft.said(Kind.RABBIT_STAYED)
    else:
        _rabbit_to(draft, draft.rabbit.step(hop))


def _rabbit_to(draft: _Draft, dest: Point) -> None:
    draft.said(Kind.RABBIT_MOVED)
    draft.rabbit = dest
    if dest == draft.state.field.hole:
        draft.said(Kind.RABBIT_HOME)
        draft.outcome = Outcome.RABBIT_HOME
