"""The tutorial: a short guided game on fixed little scenes.

Each lesson sets up a scene, asks for one kind of command and explains what the
Observer said; other commands get a hint and use no turn. It is a Game like any
other, so the same session plays it by voice or by keyboard.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hbr.game import Lessons, Reply
from hbr.games.hbr.commands import Capture, Command, Snare, Step, Toward
from hbr.games.hbr.cues import cues_for
from hbr.games.hbr.engine import apply
from hbr.games.hbr.events import Kind
from hbr.games.hbr.geometry import Direction, Point
from hbr.games.hbr.observer import RULES_SUMMARY, narrate
from hbr.games.hbr.phrases import HBRGrammar, spoken
from hbr.games.hbr.state import Field, State


def _scene(hunter: tuple[int, int], bear: tuple[int, int], rabbit: tuple[int, int], hole: tuple[int, int],
           obstacles: tuple[tuple[int, int], ...] = ()) -> State:
    return State(Field(frozenset(Point(*o) for o in obstacles), Point(*hole)), Point(*hunter), Point(*bear),
                 Point(*rabbit))


@dataclass(frozen=True)
class Lesson:
    name: str
    ask: str
    wants: Callable[[Command], bool]
    hint: str
    explain: Callable[[set[Kind]], str]
    scene: State | None = None  # None: go on from the previous lesson's state
    done_when: Callable[[set[Kind]], bool] = lambda kinds: True


LESSONS = [
    Lesson(
        "moving",
        "Lesson 1: moving. You can step in eight directions. Say a direction, like north, or north east.",
        lambda c: isinstance(c, Step), "Say a direction, like north or south west.",
        lambda k: "After your move the Observer says that the bear and the rabbit moved, but never where.",
        _scene((5, 7), (20, 1), (15, 12), (21, 14)),
    ),
    Lesson(
        "edge",
        "Lesson 2: the edge. You are now at the west edge of the forest. Say west.",
        lambda c: c == Step(Direction.WEST), "Say west.",
        lambda k: "You cannot leave the forest: the Observer tells you when you reach its edge.",
        _scene((0, 7), (20, 1), (15, 12), (21, 14)),
    ),
    Lesson(
        "obstacle",
        "Lesson 3: obstacles. Something stands just north of you. Say north.",
        lambda c: c == Step(Direction.NORTH), "Say north.",
        lambda k: "An obstacle stops your step, and your turn is used. Remember where they are.",
        _scene((5, 7), (20, 1), (15, 12), (21, 14), ((5, 6),)),
    ),
    Lesson(
        "toward",
        "Lesson 4: objective moves. Say toward the rabbit. You can also go toward the bear, or toward the hole.",
        lambda c: isinstance(c, Toward), "Say toward the rabbit.",
        lambda k: "An objective move takes one step north, south, east or west, and names it. "
        "It walks around obstacles without telling you.",
        _scene((5, 7), (20, 1), (9, 7), (3, 9), ((6, 5),)),
        done_when=lambda kinds: Kind.READY_TO_HUNT in kinds,
    ),
    Lesson(
        "capture",
        "Lesson 5: you are ready to hunt: the rabbit is within two squares. Say capture or catch and a corner: "
        "north east, north west, south east or south west. Here, try capture north east.",
        lambda c: isinstance(c, Capture), "Say capture or catch and a corner, like catch north east.",
        lambda k: "Caught! In a game that wins at once." if Kind.CAPTURED in k
        else "A miss uses your turn. Try another corner.",
        done_when=lambda kinds: Kind.CAPTURED in kinds,
    ),
    Lesson(
        "danger",
        "Lesson 6: the bear. It is coming. Say east, and listen.",
        lambda c: c == Step(Direction.EAST), "Say east.",
        lambda k: "The danger zone means the bear is right beside you. Next turn it eats you unless you "
        "step away or snare it.",
        _scene((5, 7), (6, 9), (12, 14), (20, 14)),
    ),
    Lesson(
        "snare",
        "Lesson 7: escape. The bear is south of you. Say snare south east, or step away north.",
        lambda c: isinstance(c, Snare | Step), "Say snare south east, or north.",
        lambda k: "You got away." if Kind.BEAR_ATE not in k and Kind.HUNTER_WALKED_INTO_BEAR not in k
        else "The bear got you. In a game that is the end; here, try again.",
        done_when=lambda kinds: not kinds & {Kind.BEAR_ATE, Kind.HUNTER_WALKED_INTO_BEAR},
    ),
]


class Tutorial(Lessons[Command, Lesson]):
    """The lessons, as a Game for the session."""

    lessons = LESSONS
    rules = RULES_SUMMARY

    def __init__(self) -> None:
        self.grammar = HBRGrammar()
        self.index = 0
        self.state: State = LESSONS[0].scene  # type: ignore[assignment]
        self.lesson_start = self.state
        self.done: list[str] = []

    def opening(self) -> str:
        return (
            "Welcome to the Hunter Bear Rabbit tutorial. You are a hunter who cannot see; the Observer tells "
            "you what happens. Seven short lessons. " + self.lesson.ask
        )

    def act(self, command: Command) -> Reply:
        lesson = self.lesson
        if not lesson.wants(command):
            return Reply(f"Not yet. {lesson.hint}")
        self.state, events = apply(self.state, command)
        kinds = {e.kind for e in events}
        words = f"{narrate(events, self.state.outcome, self.detail)} {lesson.explain(kinds)}"
        if lesson.done_when(kinds):
            self.done.append(lesson.name)
            self.index += 1
            if self.over:
                return Reply(f"{words} That is everything. Start a real game with hbr play.", cues_for(events))
            self.state = self.lesson.scene or self.state
            self.lesson_start = self.state
            words += " " + self.lesson.ask
        elif self.state.over:
            self.state = self.lesson_start  # the scene is set up again
        return Reply(words, cues_for(events))

    def spoken(self, command: Command) -> str:
        return spoken(command)
