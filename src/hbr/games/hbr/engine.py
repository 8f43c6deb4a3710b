"""The rules of Hunter Bear Rabbit as one pure function.

``apply(state, command) -> (state, events)`` plays a whole round: the hunter's
command, then the bear, then the rabbit, stopping the moment an outcome happens.
No I/O, no text, no randomness: a game is its first state and its commands.
"""

from __future__ import annotations

from dataclasses import replace

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


def apply(state: State, command: Command) -> tuple[State, tuple[Event, ...]]:
    """Play one round; raises IllegalCommand instead of changing anything."""
    if state.over:
        raise IllegalCommand("the game is over")
    if isinstance(command, Snare) and not state.rules.snare:
        raise IllegalCommand("snares are switched off in this game")
    events: list[Event] = []
    state = _hunter_turn(state, command, events)
    rabbit_moved = False
    if not state.over:
        state, rabbit_moved = _bear_turn(state, events)
    if not state.over and not rabbit_moved:
        state = _rabbit_turn(state, events)
    if ready_to_hunt(state):
        events.append(Event(Kind.READY_TO_HUNT))
    if danger_zone(state):
        events.append(Event(Kind.DANGER_ZONE))
    return replace(state, round=state.round + 1), tuple(events)


def ready_to_hunt(state: State) -> bool:
    """The rabbit is within capture range of a hunter still in the game."""
    return not state.over and chebyshev(state.hunter, state.rabbit) <= CAPTURE_RANGE


def danger_zone(state: State) -> bool:
    """The bear is close enough to eat the hunter on its next turn unless they move."""
    return not state.over and chebyshev(state.hunter, state.bear) <= DANGER_RANGE


def _hunter_turn(state: State, command: Command, events: list[Event]) -> State:
    match command:
        case Step(direction):
            return _hunter_step(state, direction, None, events)
        case Toward(target):
            goal = {Target.RABBIT: state.rabbit, Target.BEAR: state.bear, Target.HOLE: state.field.hole}[target]
            direction = next_step(state.field, state.hunter, goal)
            if direction is None:
                events.append(Event(Kind.NO_PATH, target=target))
                return state
            return _hunter_step(state, direction, target, events)
        case Capture(quadrant):
            hit = _in_net(state.hunter, state.rabbit, quadrant)
            events.append(Event(Kind.CAPTURED if hit else Kind.CAPTURE_MISSED, quadrant=quadrant))
            return replace(state, outcome=Outcome.CAPTURED) if hit else state
        case Snare(quadrant):
            hit = _in_net(state.hunter, state.bear, quadrant)
            events.append(Event(Kind.BEAR_SNARED if hit else Kind.SNARE_MISSED, quadrant=quadrant))
            return replace(state, snared=SNARE_ROUNDS) if hit else state
    raise TypeError(f"not a command: {command!r}")


def _in_net(hunter: Point, prey: Point, quadrant: Quadrant) -> bool:
    """Capture and snare share one test: within range and inside the called quadrant."""
    return chebyshev(hunter, prey) <= CAPTURE_RANGE and quadrant.contains(hunter, prey)


def _hunter_step(state: State, direction: Direction, target: Target | None, events: list[Event]) -> State:
    """Resolve the hunter's step onto one square; only the destination matters."""
    dest = state.hunter.step(direction)

    def said(kind: Kind) -> None:
        events.append(Event(kind, direction=direction, target=target))

    if not state.field.contains(dest):
        said(Kind.EDGE)
    elif dest in state.field.obstacles:
        said(Kind.OBSTACLE)
    elif dest == state.bear:
        if state.snared:
            said(Kind.BEAR_BUMPED)
        else:
            said(Kind.HUNTER_WALKED_INTO_BEAR)
            return replace(state, hunter=dest, outcome=Outcome.EATEN)
    elif dest == state.rabbit:
        said(Kind.RABBIT_BUMPED)
    elif dest == state.field.hole:
        said(Kind.HOLE_FOUND)
    else:
        said(Kind.HUNTER_MOVED)
        return replace(state, hunter=dest)
    return state


def _bear_turn(state: State, events: list[Event]) -> tuple[State, bool]:
    """The bear's move; returns the new state and whether the rabbit already moved."""
    if state.snared:
        events.append(Event(Kind.BEAR_HELD))
        return replace(state, snared=state.snared - 1), False
    if chebyshev(state.bear, state.hunter) <= DANGER_RANGE:
        events.append(Event(Kind.BEAR_ATE))
        return replace(state, bear=state.hunter, outcome=Outcome.EATEN), False
    direction = square_rule(state.bear, state.hunter)
    assert direction is not None  # the hunter is more than one square away
    dest = state.bear.step(direction)
    if dest != state.rabbit:
        events.append(Event(Kind.BEAR_MOVED))
        return replace(state, bear=dest), False
    # The bear runs into the rabbit: the rabbit makes its move now, the bear follows.
    hop = next_step(state.field, state.rabbit, state.field.hole, (state.bear, state.hunter))
    if hop is None:
        events.extend((Event(Kind.BEAR_STAYED), Event(Kind.RABBIT_STAYED)))
        return state, True
    events.append(Event(Kind.BEAR_MOVED))
    return _rabbit_to(replace(state, bear=dest), state.rabbit.step(hop), events), True


def _rabbit_turn(state: State, events: list[Event]) -> State:
    hop = next_step(state.field, state.rabbit, state.field.hole, (state.hunter, state.bear))
    if hop is None:
        events.append(Event(Kind.RABBIT_STAYED))
        return state
    return _rabbit_to(state, state.rabbit.step(hop), events)


def _rabbit_to(state: State, dest: Point, events: list[Event]) -> State:
    events.append(Event(Kind.RABBIT_MOVED))
    if dest == state.field.hole:
        events.append(Event(Kind.RABBIT_HOME))
        return replace(state, rabbit=dest, outcome=Outcome.RABBIT_HOME)
    return replace(state, rabbit=dest)
