"""The Observer: turns a round's events into the sentences the hunter hears.

It is built only from events, which carry no positions, so it cannot say more
than the seed allows: the hunter's own move, ready to hunt, danger zone, that
the bear and the rabbit moved (never where), snare and capture results and the
outcome. ``reveal`` is the one explicit exception, for after the game.
"""

from __future__ import annotations

import itertools

from hbr.games.hbr.commands import Target
from hbr.games.hbr.events import Event, Kind
from hbr.games.hbr.geometry import Direction, Point, Quadrant
from hbr.games.hbr.state import Field, Outcome, State

OUTCOME_WORDS: dict[Outcome, str] = {
    Outcome.CAPTURED: "The rabbit has been captured. You win the game!",
    Outcome.EATEN: "The bear has eaten you. You lose the game.",
    Outcome.RABBIT_HOME: "The rabbit reached its hole. You lose the game.",
}


def _hunter_sentence(event: Event) -> str | None:
    d = event.direction.spoken if event.direction else ""
    toward = f" toward {event.target.spoken}" if event.target else ""
    q = event.quadrant.spoken if event.quadrant else ""
    match event.kind:
        case Kind.HUNTER_MOVED:
            return f"You move {d}{toward}."
        case Kind.EDGE:
            return f"You reached the edge of the field of play. You do not move {d}."
        case Kind.OBSTACLE:
            return f"An obstacle blocks your path. You do not move {d}."
        case Kind.HOLE_FOUND:
            return f"You found the rabbit hole, one step {d}! You step back to where you were."
        case Kind.RABBIT_BUMPED:
            return f"The rabbit is right there, one step {d}! You step back to where you were."
        case Kind.BEAR_BUMPED:
            return f"The snared bear is in your way, one step {d}. You do not move."
        case Kind.NO_PATH:
            assert event.target is not None
            return f"You find no way toward {event.target.spoken}. You do not move."
        case Kind.HUNTER_WALKED_INTO_BEAR:
            return f"You step {d}, straight into the bear!"
        case Kind.CAPTURED:
            return f"You throw your net {q}."
        case Kind.CAPTURE_MISSED:
            return f"You throw your net {q}. It catches nothing."
        case Kind.BEAR_SNARED:
            return f"You set your snare {q}. The bear is snared! It cannot move this turn or the next."
        case Kind.SNARE_MISSED:
            return f"You set your snare {q}. It holds nothing."
    return None


_BEAR = {
    Kind.BEAR_MOVED: "the bear moves",
    Kind.BEAR_HELD: "the bear struggles in the snare",
    Kind.BEAR_STAYED: "the bear does not move",
    Kind.BEAR_ATE: "the bear attacks",
}
_RABBIT = {Kind.RABBIT_MOVED: "the rabbit moves", Kind.RABBIT_STAYED: "the rabbit does not move"}


def hunter_words(events: tuple[Event, ...] | list[Event]) -> str:
    """Only what the Observer said about the hunter's own action (for recaps)."""
    return " ".join(s for e in events if (s := _hunter_sentence(e)))


def offset_words(dx: int, dy: int) -> str:
    parts = []
    if dy:
        parts.append(f"{abs(dy)} {'south' if dy > 0 else 'north'}")
    if dx:
        parts.append(f"{abs(dx)} {'east' if dx > 0 else 'west'}")
    return " and ".join(parts)


def narrate(events: tuple[Event, ...] | list[Event], outcome: Outcome | None, detail: str = "normal") -> str:
    """The Observer's words for one round, in the order things happened.

    ``brief`` leaves out that the bear and the rabbit moved (the player knows they
    always do); ``verbose`` is the caller's business (turn number, position).
    """
    sentences: list[str] = []
    kinds = {e.kind for e in events}
    hunter = hunter_words(events)
    if hunter:
        sentences.append(hunter)
    bear = next((_BEAR[e.kind] for e in events if e.kind in _BEAR), None)
    rabbit = next((_RABBIT[e.kind] for e in events if e.kind in _RABBIT), None)
    if detail == "brief":
        bear = bear if bear not in ("the bear moves", None) else None
        rabbit = rabbit if rabbit not in ("the rabbit moves", None) else None
    if bear == "the bear moves" and rabbit == "the rabbit moves":
        sentences.append("The bear and then the rabbit move.")
    else:
        others = [part for part in (bear, rabbit) if part]
        if others:
            sentences.append(", and ".join(others).capitalize() + ".")
    if Kind.DANGER_ZONE in kinds:
        sentences.append("Danger zone! The bear is right beside you.")
    if Kind.READY_TO_HUNT in kinds:
        sentences.append("You are ready to hunt.")
    if outcome is not None:
        sentences.append(OUTCOME_WORDS[outcome])
    return " ".join(sentences)


def common_replies() -> list[str]:
    """What the Observer says again and again: every kind of hunter's action in every
    direction (and toward every target), the bear's and the rabbit's news together,
    the warnings and the outcomes. The speech layer renders these ahead of need."""
    said: list[str] = []
    for kind, direction, quadrant, target in itertools.product(Kind, Direction, Quadrant, (None, *Target)):
        if kind is not Kind.NO_PATH or target is not None:  # "no way toward" needs a target
            sentence = _hunter_sentence(Event(kind, direction, quadrant, target))
            if sentence:
                said.append(sentence)
    for bear in _BEAR:
        for rabbit in _RABBIT:
            said.append(narrate([Event(bear), Event(rabbit)], None))
    said += [narrate([Event(Kind.DANGER_ZONE), Event(Kind.READY_TO_HUNT)], None), *OUTCOME_WORDS.values()]
    return list(dict.fromkeys(said))


def blank_map(field: Field) -> str:
    """Patch 1.2: the obstacle layout with no spawn points and no compass directions.

    Squares are counted from one corner of the map as drawn (the top left of the
    printed map), "along" its long side and "down" its short side, both from one.
    """
    spots = sorted(field.obstacles, key=lambda p: (p.y, p.x))
    listed = "; ".join(f"{p.x + 1} along and {p.y + 1} down" for p in spots)
    return (
        f"Your blank map: the forest is {field.width} squares long and {field.height} wide. "
        f"Counting from the top left corner of the map, there are {len(spots)} obstacles, at {listed}."
    )


def reveal(state: State) -> str:
    """After the game: where everyone is, relative to the hunter (the only spoiler)."""

    def where(name: str, p: Point) -> str:
        return f"{name} {offset_words(p.x - state.hunter.x, p.y - state.hunter.y) or 'on your square'}"

    places = [where("the bear", state.bear), where("the rabbit", state.rabbit), where("the rabbit hole", state.field.hole)]
    return "Revealed: from you, " + "; ".join(places) + "."


RULES_SUMMARY = (
    "You are the hunter, and you cannot see. Catch the rabbit before it reaches its hole, "
    "and do not let the bear eat you. Each turn you step one square in one of eight directions, "
    "or move toward the rabbit, the bear or the hole, which takes one step north, south, east or west "
    "around obstacles. Then the bear steps toward you, and the rabbit toward its hole. "
    "When you are ready to hunt, the rabbit is within two squares: say capture or catch and a corner, "
    "like capture north west. In the danger zone the bear is beside you: step away, or snare it "
    "with snare and a corner, and it cannot move for two turns. Walls of the forest, obstacles, "
    "the rabbit hole and the rabbit itself stop your step."
)
