"""Scenarios: a fixed situation and a list of commands, replayed with the truth shown.

For teachers, rule checks and tests. ``load`` validates a JSON document into a
state; ``run`` yields one record per command (see docs/rules.md for the format).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hbr.games.hbr.engine import apply, danger_zone, ready_to_hunt
from hbr.games.hbr.geometry import Point
from hbr.games.hbr.observer import narrate
from hbr.games.hbr.phrases import HBRGrammar
from hbr.games.hbr.state import HEIGHT, WIDTH, Field, Rules, State
from hbr.grammar import Meta, NotUnderstood


class ScenarioError(ValueError):
    """The scenario cannot be played; the message is one line for the user."""


def _point(doc: dict[str, Any], key: str, width: int, height: int) -> Point:
    value = doc.get(key)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ScenarioError(f'"{key}" must be a list of two whole numbers [x, y]')
    p = Point(value[0], value[1])
    if not (0 <= p.x < width and 0 <= p.y < height):
        raise ScenarioError(f'"{key}" {list(p)} is off the {width}x{height} field')
    return p


def load(doc: object) -> tuple[State, list[str]]:
    """The starting state and the command texts of a scenario document."""
    if not isinstance(doc, dict):
        raise ScenarioError("a scenario must be a JSON object")
    width, height = doc.get("width", WIDTH), doc.get("height", HEIGHT)
    if not all(isinstance(v, int) and not isinstance(v, bool) and 3 <= v <= 100 for v in (width, height)):
        raise ScenarioError('"width" and "height" must be whole numbers from 3 to 100')
    pieces = {key: _point(doc, key, width, height) for key in ("hunter", "bear", "rabbit", "hole")}
    raw_obstacles = doc.get("obstacles", [])
    if not isinstance(raw_obstacles, list):
        raise ScenarioError('"obstacles" must be a list of [x, y] squares')
    obstacles = [_point({"obstacle": o}, "obstacle", width, height) for o in raw_obstacles]
    seen: dict[Point, str] = {}
    for name, p in [*pieces.items(), *(("obstacle", o) for o in obstacles)]:
        if p in seen:
            raise ScenarioError(f"the {name} and the {seen[p]} overlap at {list(p)}")
        seen[p] = name
    commands = doc.get("commands", [])
    if not isinstance(commands, list) or not all(isinstance(c, str) for c in commands):
        raise ScenarioError('"commands" must be a list of strings')
    snare = doc.get("snare", True)
    if not isinstance(snare, bool):
        raise ScenarioError('"snare" must be true or false')
    field = Field(obstacles=frozenset(obstacles), hole=pieces["hole"], width=width, height=height)
    state = State(field, pieces["hunter"], pieces["bear"], pieces["rabbit"], rules=Rules(snare=snare))
    return state, commands


def run(state: State, commands: list[str]) -> Iterator[dict[str, Any]]:
    """One record per command; stops after the command that ends the game."""
    grammar = HBRGrammar(snare=state.rules.snare)
    for text in commands:
        record: dict[str, Any] = {"command": text}
        parsed = grammar.parse(text)
        if isinstance(parsed, NotUnderstood) or isinstance(parsed.intent, Meta):
            error = parsed.message if isinstance(parsed, NotUnderstood) else "only game commands can be played here"
            record.update(ok=False, error=error, **_truth(state))
            yield record
            continue
        state, events = apply(state, parsed.intent)
        record.update(ok=True, **_truth(state))
        record["events"] = [e.name for e in events]
        record["observer"] = narrate(events, state.outcome)
        yield record
        if state.over:
            return


def _truth(state: State) -> dict[str, Any]:
    return {
        "hunter": list(state.hunter),
        "bear": list(state.bear),
        "rabbit": list(state.rabbit),
        "ready_to_hunt": ready_to_hunt(state),
        "danger_zone": danger_zone(state),
        "outcome": state.outcome.value if state.outcome else None,
    }
