"""The rules of Spyhunting as one pure function: ``apply(state, command) -> (state, events)``.

Three commands, one per phase: the hunter's actions of the four-sided die, one at a
time (:class:`Act`); its hidden plan for the eight-sided die, whole (:class:`Plan`);
the spy's move, a path of points (:class:`SpyMove`), after which the plan is carried
out action by action and the next series' dice are rolled. A command the rules
forbid raises :class:`IllegalCommand` with one sentence why, and changes nothing.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from dataclasses import dataclass

from hbr.games.spyhunting.state import (
    HOME_DISTANCE,
    HUNTER_HOME,
    LINES,
    SPY_HOME,
    Action,
    Heading,
    Phase,
    Point,
    Rules,
    Side,
    State,
    roll,
)


class IllegalCommand(ValueError):
    """What the rules forbid now; the message says why, as a sentence for the player."""


@dataclass(frozen=True, slots=True)
class Act:
    action: Action

    def __str__(self) -> str:
        return self.action.value


@dataclass(frozen=True, slots=True)
class Plan:
    actions: tuple[Action, ...]

    def __str__(self) -> str:
        return "plan " + ", ".join(a.value for a in self.actions)


@dataclass(frozen=True, slots=True)
class SpyMove:
    path: tuple[Heading, ...]

    def __str__(self) -> str:
        return "spy " + " ".join(h.word for h in self.path)


Command = Act | Plan | SpyMove


class Kind(enum.Enum):
    STEPPED = "stepped"  # the hunter stepped: point, heading it faces
    TURNED = "turned"  # the hunter turned: heading
    STEP_LOST = "step lost"  # a planned step that the edge or the home corner forbade: reason
    LANDED_ON_SPY = "landed on spy"  # the spy cannot be shot this series
    PLAN_WRITTEN = "plan written"  # nothing of the plan itself: the spy may not know it
    SPY_MOVED = "spy moved"  # point, and the points passed, in ``path``
    SPY_REACHED_CORNER = "spy reached corner"
    SHOT_HIT = "shot hit"
    SHOT_MISSED = "shot missed"  # reason: "" (nothing on the line), "immune", "corner"
    CAPTURED = "captured"  # variant: the hunter landed on the spy
    SPY_HOME = "spy home"  # the spy is back home after reaching the corner: it wins
    NEW_SERIES = "new series"  # the dice of the next series, in ``dice``


@dataclass(frozen=True, slots=True)
class Event:
    kind: Kind
    action: Action | None = None
    point: Point | None = None
    heading: Heading | None = None
    reason: str = ""
    path: tuple[Point, ...] = ()
    dice: tuple[int, int] = (0, 0)


@functools.cache
def refusal(rules: Rules, action: Action) -> str:
    """Why the variants played forbid this action anywhere ("" if they allow it).
    (Cached: the bots ask millions of times a game.)"""
    if action.is_diagonal and not rules.diagonal:
        return "the hunter steps diagonally only in the diagonal variant"
    if rules.forward_only and action.is_step and action is not Action.FORWARD:
        return "the hunter moves only the way it faces"
    return ""


def step_problem(state: State, hunter: Point, facing: Heading, action: Action, left_home: bool) -> str:
    """Why the hunter may not take this step from ``hunter`` ("" if it may)."""
    refused = refusal(state.rules, action)
    if refused:
        return refused
    to = hunter + facing.turned(action.eighths)
    if not to.on_board:
        return "that would leave the board"
    if to == HUNTER_HOME or (left_home and to.distance(HUNTER_HOME) < HOME_DISTANCE):
        return f"the hunter keeps {HOME_DISTANCE} or more points from its home corner"
    return ""


def _acted(state: State, hunter: Point, facing: Heading, action: Action, left_home: bool) -> tuple[Point, Heading, bool]:
    """Where one step or turn leaves the hunter (a forbidden step leaves it where it was)."""
    if action.is_turn:
        return hunter, facing.turned(action.eighths), left_home
    if action.is_step and not step_problem(state, hunter, facing, action, left_home):
        hunter = hunter + facing.turned(action.eighths)
        return hunter, facing, left_home or hunter.distance(HUNTER_HOME) >= HOME_DISTANCE
    return hunter, facing, left_home


def plan_end(state: State, actions: tuple[Action, ...]) -> Point:
    """Where the hunter ends when the plan is carried out (the spy never blocks it)."""
    hunter, facing, left = state.hunter, state.facing, state.hunter_left_home
    for action in actions:
        hunter, facing, left = _acted(state, hunter, facing, action, left)
    return hunter


def line_of_fire(hunter: Point, heading: Heading) -> list[Point]:
    points, p = [], hunter + heading
    while p.on_board:
        points.append(p)
        p = p + heading
    return points


def spy_path_problem(state: State, path: tuple[Heading, ...]) -> str:
    """Why the spy may not make this move ("" if it may)."""
    points = state.spy_points
    p = state.spy
    for heading in path:
        if heading not in state.rules.directions:
            return "the spy moves along the lines, not diagonally"
        p = p + heading
        if not p.on_board:
            return "that would leave the board"
        if p == state.hunter:
            return "the spy may not enter the hunter's point"
    if len(path) > points:
        return f"the spy moves {points} points this series, not {len(path)}"
    if len(path) < points and not (path and p == HUNTER_HOME):
        return f"the spy moves exactly {points} points, or stops early on the hunter's home corner"
    if p == state.spy:
        return "the spy may not end its move where it began"
    return ""


def apply(state: State, command: Command) -> tuple[State, tuple[Event, ...]]:
    if state.over:
        raise IllegalCommand("The game is over.")
    match command:
        case Act(action):
            return _act(state, action)
        case Plan(actions):
            return _plan(state, actions)
        case SpyMove(path):
            return _spy_move(state, path)
    raise IllegalCommand(f"unknown command {command!r}")


def _act(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    if state.phase is not Phase.HUNTER_MOVE:
        raise IllegalCommand("It is not the hunter's move now.")
    if action is Action.SHOOT:
        raise IllegalCommand("The hunter shoots only in its plan, not with the four-sided die.")
    if action.is_step:
        problem = step_problem(state, state.hunter, state.facing, action, state.hunter_left_home)
        if problem:
            raise IllegalCommand(f"The hunter cannot step {action.value}: {problem}.")
    hunter, facing, left = _acted(state, state.hunter, state.facing, action, state.hunter_left_home)
    used = state.used + 1
    if used == state.d4 and hunter == state.phase_start:
        raise IllegalCommand("The hunter may not end its move on the point where the move began.")
    events = [Event(Kind.STEPPED, action, hunter, facing) if action.is_step else Event(Kind.TURNED, action, heading=facing)]
    state = dataclasses.replace(state, hunter=hunter, facing=facing, hunter_left_home=left, used=used)
    state = _landed(state, events)
    if state.over:
        return state, tuple(events)
    if used == state.d4:
        state = dataclasses.replace(state, phase=Phase.PLAN, phase_start=hunter, used=0)
    return state, tuple(events)


def _landed(state: State, events: list[Event]) -> State:
    """After a hunter's step: landing on the spy makes it immune (or, as a variant, wins)."""
    if state.hunter != state.spy:
        return state
    events.append(Event(Kind.LANDED_ON_SPY, point=state.hunter))
    state = dataclasses.replace(state, spy_immune=True)
    if state.rules.capture_wins:
        events.append(Event(Kind.CAPTURED, point=state.hunter))
        state = dataclasses.replace(state, winner=Side.HUNTER)
    return state


def _plan(state: State, actions: tuple[Action, ...]) -> tuple[State, tuple[Event, ...]]:
    if state.phase is not Phase.PLAN:
        raise IllegalCommand("It is not the time for the hunter's plan.")
    if len(actions) != state.d8:
        raise IllegalCommand(f"The plan must have exactly {state.d8} actions, not {len(actions)}.")
    if sum(a is Action.SHOOT for a in actions) > 1:
        raise IllegalCommand("The plan may hold one shot at most.")
    refused = next(filter(None, (refusal(state.rules, a) for a in actions)), "")
    if refused:
        raise IllegalCommand(f"{refused[0].upper()}{refused[1:]}.")
    if plan_end(state, actions) == state.phase_start:
        raise IllegalCommand("The plan may not end on the point where it begins.")
    return dataclasses.replace(state, phase=Phase.SPY_MOVE, plan=actions), (Event(Kind.PLAN_WRITTEN),)


def _spy_move(state: State, path: tuple[Heading, ...]) -> tuple[State, tuple[Event, ...]]:
    if state.phase is not Phase.SPY_MOVE:
        raise IllegalCommand("It is not the spy's move now.")
    problem = spy_path_problem(state, path)
    if problem:
        raise IllegalCommand(f"{problem[0].upper()}{problem[1:]}.")
    points, p = [], state.spy
    for heading in path:
        p = p + heading
        points.append(p)
    reached = state.spy_reached_corner or HUNTER_HOME in points
    events = [Event(Kind.SPY_MOVED, point=p, path=tuple(points))]
    if reached and not state.spy_reached_corner:
        events.append(Event(Kind.SPY_REACHED_CORNER, point=HUNTER_HOME))
    state = dataclasses.replace(state, spy=p, spy_reached_corner=reached)
    if reached and p == SPY_HOME:
        events.append(Event(Kind.SPY_HOME, point=p))
        return dataclasses.replace(state, winner=Side.SPY), tuple(events)
    return _carry_out(state, events)


def _carry_out(state: State, events: list[Event]) -> tuple[State, tuple[Event, ...]]:
    """The plan, action by action; then the next series."""
    for action in state.plan:
        if action is Action.SHOOT:
            state = _shoot(state, events)
        elif action.is_turn:
            facing = state.facing.turned(action.eighths)
            state = dataclasses.replace(state, facing=facing)
            events.append(Event(Kind.TURNED, action, heading=facing))
        else:
            problem = step_problem(state, state.hunter, state.facing, action, state.hunter_left_home)
            if problem:
                events.append(Event(Kind.STEP_LOST, action, state.hunter, reason=problem))
                continue
            hunter, facing, left = _acted(state, state.hunter, state.facing, action, state.hunter_left_home)
            state = dataclasses.replace(state, hunter=hunter, hunter_left_home=left)
            events.append(Event(Kind.STEPPED, action, hunter, facing))
            state = _landed(state, events)
        if state.over:
            return state, tuple(events)
    series = state.series + 1
    d4, d8 = roll(state.seed, series)
    state = dataclasses.replace(
        state, series=series, d4=d4, d8=d8, phase=Phase.HUNTER_MOVE, phase_start=state.hunter, used=0,
        spy_immune=False, plan=(),
    )
    events.append(Event(Kind.NEW_SERIES, dice=(d4, d8)))
    return state, tuple(events)


def _shoot(state: State, events: list[Event]) -> State:
    headings = LINES if state.rules.four_way else (state.facing,)
    on_line = any(state.spy in line_of_fire(state.hunter, h) for h in headings)
    if not on_line:
        events.append(Event(Kind.SHOT_MISSED, Action.SHOOT, state.hunter, state.facing))
        return state
    if state.spy == HUNTER_HOME:
        events.append(Event(Kind.SHOT_MISSED, Action.SHOOT, state.hunter, state.facing, reason="corner"))
        return state
    if state.spy_immune:
        events.append(Event(Kind.SHOT_MISSED, Action.SHOOT, state.hunter, state.facing, reason="immune"))
        return state
    events.append(Event(Kind.SHOT_HIT, Action.SHOOT, state.spy, state.facing))
    return dataclasses.replace(state, winner=Side.HUNTER)

