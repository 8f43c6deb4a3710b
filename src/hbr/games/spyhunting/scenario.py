"""Spyhunting scenarios: a fixed situation and its series (dice and moves given),
replayed with the truth shown after each series, for rule checks and teaching.

A scenario is a JSON object (docs/spyhunting.md, "Scenarios"):
``{"hunter": [x, y], "facing": "north", "spy": [x, y], "spy_reached_corner": false,
"hunter_left_home": true, "variants": ["four-way"], "series": [{"dice": [2, 5],
"hunter": "forward turn left", "plan": "forward shoot ...", "spy": "west west north"}]}``.
The spy's move may also be ``"go to 5 5"``. ``run`` yields one record per series.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from hbr.games.spyhunting.bots import spy_moves
from hbr.games.spyhunting.engine import Act, Command, Event, IllegalCommand, Plan, SpyMove, apply
from hbr.games.spyhunting.phrases import Actions, GoTo, Path, SpyGrammar
from hbr.games.spyhunting.state import (
    HUNTER_HOME,
    LINES,
    SPY_HOME,
    VARIANTS,
    Heading,
    Phase,
    Point,
    Rules,
    State,
    new_game,
)


class ScenarioError(ValueError):
    """The scenario cannot be played; the message is one line for the user."""


def _point(doc: dict[str, Any], key: str, default: Point) -> Point:
    value = doc.get(key, [default.x, default.y])
    if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)):
        raise ScenarioError(f'"{key}" must be a list of two whole numbers [column, row]')
    point = Point(*value)
    if not point.on_board:
        raise ScenarioError(f'"{key}" {value} is off the board: columns and rows go from 1 to 9')
    return point


def load(doc: object) -> tuple[State, list[dict[str, Any]]]:
    """The starting state and the series of a scenario document."""
    if not isinstance(doc, dict):
        raise ScenarioError("a scenario must be a JSON object")
    hunter, spy = _point(doc, "hunter", HUNTER_HOME), _point(doc, "spy", SPY_HOME)
    if hunter == spy:
        raise ScenarioError("the hunter and the spy start on the same point")
    facing = doc.get("facing", "north")
    if facing not in [h.word for h in LINES]:
        raise ScenarioError('"facing" must be north, east, south or west')
    variants = doc.get("variants", [])
    if not isinstance(variants, list) or not set(variants) <= set(VARIANTS):
        raise ScenarioError(f'"variants" must be a list of: {", ".join(VARIANTS)}')
    flags = {key: doc.get(key, False) for key in ("hunter_left_home", "spy_reached_corner")}
    if not all(isinstance(v, bool) for v in flags.values()):
        raise ScenarioError('"hunter_left_home" and "spy_reached_corner" must be true or false')
    series = doc.get("series", [])
    if not isinstance(series, list) or not all(isinstance(s, dict) for s in series):
        raise ScenarioError('"series" must be a list of objects with "dice", "hunter", "plan" and "spy"')
    rules = Rules.from_options({v.replace("-", "_"): True for v in variants})
    state = dataclasses.replace(
        new_game(0, rules), hunter=hunter, facing=Heading[facing.upper()], spy=spy, phase_start=hunter,
        hunter_left_home=flags["hunter_left_home"] or hunter.distance(HUNTER_HOME) >= 3,
        spy_reached_corner=flags["spy_reached_corner"],
    )
    return state, series


def _dice(item: dict[str, Any]) -> tuple[int, int]:
    dice = item.get("dice")
    if not (isinstance(dice, list) and len(dice) == 2 and all(type(d) is int for d in dice)
            and 1 <= dice[0] <= 4 and 1 <= dice[1] <= 8):
        raise ScenarioError('each series needs "dice": [d4 from 1 to 4, d8 from 1 to 8]')
    return dice[0], dice[1]


def _truth(state: State) -> dict[str, object]:
    return {
        "hunter": [state.hunter.x, state.hunter.y], "facing": state.facing.word, "spy": [state.spy.x, state.spy.y],
        "spy_reached_corner": state.spy_reached_corner, "winner": state.winner.value if state.winner else None,
    }


def _event(event: Event) -> dict[str, object]:
    found: dict[str, object] = {"name": event.kind.value}
    if event.action:
        found["action"] = event.action.value
    if event.point:
        found["point"] = [event.point.x, event.point.y]
    if event.reason:
        found["reason"] = event.reason
    return found


def run(state: State, series: list[dict[str, Any]]) -> Iterator[dict[str, object]]:
    """One record per series: the truth after it, the events, or why it could not be played."""
    grammar = SpyGrammar(diagonal=state.rules.diagonal)
    for number, item in enumerate(series, 1):
        d4, d8 = _dice(item)
        state = dataclasses.replace(state, series=number, d4=d4, d8=d8, phase=Phase.HUNTER_MOVE,
                                    phase_start=state.hunter, used=0, spy_immune=False, plan=())
        record: dict[str, object] = {"series": number, "dice": [d4, d8]}
        events: list[Event] = []
        try:
            for key in ("hunter", "plan", "spy"):
                parsed = grammar.parse(str(item.get(key, "")))
                intent = getattr(parsed, "intent", None)
                commands: list[Command]
                if key in ("hunter", "plan") and isinstance(intent, Actions):
                    commands = [Act(a) for a in intent.actions] if key == "hunter" else [Plan(intent.actions)]
                elif key == "spy" and isinstance(intent, Path):
                    commands = [SpyMove(intent.headings)]
                elif key == "spy" and isinstance(intent, GoTo):
                    ends = spy_moves(state)
                    if intent.point not in ends:
                        raise IllegalCommand(f"The spy cannot end on {intent.point} this series.")
                    commands = [SpyMove(ends[intent.point])]
                else:
                    raise IllegalCommand(f'"{key}" of series {number} is not understood: {item.get(key)!r}')
                for command in commands:
                    state, happened = apply(state, command)
                    events += happened
                    if state.over:
                        break
                if state.over:
                    break
        except IllegalCommand as err:
            record.update(ok=False, error=str(err), **_truth(state))
            yield record
            return
        record.update(ok=True, **_truth(state), events=[_event(e) for e in events if e.kind.value != "new series"])
        yield record
        if state.over:
            return
