"""The Rabbit Hunt tutorial: six short lessons on set farms, by voice or keyboard.

Each lesson sets up a farm (as a scenario does, :func:`hbr.games.rabbithunt.scenario.load`),
asks for one kind of command and explains what the Observer said; other commands get
a hint and use no turn. The table's own words are used, so a lesson sounds as the
game will. Each lesson is one action of a turn, so no computer farmer plays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hbr.game import Lessons, Reply
from hbr.games.rabbithunt.engine import Action, Go, Plant, problem
from hbr.games.rabbithunt.phrases import Ask, Command, Question
from hbr.games.rabbithunt.scenario import load
from hbr.games.rabbithunt.state import Kind, State
from hbr.games.rabbithunt.table import RULES_SUMMARY, RabbitTable

#: The farm of every lesson: yellow has planted a card at 4 3 (its rabbit) and one at 6 6 (a field).
FARM = {"4 3": "yellow rabbit", "6 6": "field"}


def _scene(phase: str, carrots: int = 2, hand: tuple[str, ...] = ("field", "field", "ladder", "rabbit", "rabbit")) -> State:
    doc: dict[str, Any] = {"seed": 1, "to_move": "grey", "phase": phase, "farm": FARM,
                           "hands": {"grey": list(hand)}, "carrots": {"grey": carrots}}
    return load(doc)[0]


@dataclass(frozen=True)
class Lesson:
    name: str
    ask: str
    wants: Callable[[Command], bool]
    hint: str
    explain: str
    scene: State


LESSONS = [
    Lesson(
        "questions", "Lesson 1: your hand. Say my hand.",
        lambda c: c == Ask(Question.HAND), "Say my hand.",
        "Your cards are yours to hear at any time: my hand, and my cards for those you planted.",
        _scene("plant"),
    ),
    Lesson(
        "planting", "Lesson 2: planting. Each turn begins with one card from your hand, planted face down on an open "
        "spot that touches two cards. A spot is its row, then its place: the barn is 5 5. Say plant a field at 6 3.",
        lambda c: isinstance(c, Plant) and c.kind is Kind.FIELD, "Say plant a field at 6 3, or where can i plant.",
        "The others hear that you planted a card, and where, but not what it was. A field hidden among them "
        "keeps them guessing which of your cards is a rabbit.",
        _scene("plant"),
    ),
    Lesson(
        "carrots", "Lesson 3: carrots. After planting you take two actions. Say take a carrot.",
        lambda c: c is Action.CARROT, "Say take a carrot.",
        "Carrots pay for walking, and for a look at another farmer's hand, three carrots. You may hold six.",
        _scene("act"),
    ),
    Lesson(
        "walking", "Lesson 4: walking. Your farmer stands on the barn. Say go to 4 4.",
        lambda c: isinstance(c, Go), "Say go to 4 4.",
        "A walk costs a carrot for each two steps from card to card, and the card you stop on is turned up.",
        _scene("act"),
    ),
    Lesson(
        "catching", "Lesson 5: catching. Yellow planted a card at 4 3, beside 4 4. A card another farmer planted "
        "may be a rabbit. Your farmer is at 4 4: say go to 4 3.",
        lambda c: c == Go((4, 3)), "Say go to 4 3.",
        "Catch the most rabbits to win. Lose all three of yours and you are out.",
        load({"seed": 1, "to_move": "grey", "phase": "act", "farm": {**FARM, "4 4": "up field"},
              "farmers": {"grey": "4 4"}, "carrots": {"grey": 2}})[0],
    ),
    Lesson(
        "hiding", "Lesson 6: hiding. Every rabbit must be on the farm before the deck runs out, or you are out. "
        "Say plant a rabbit at 6 3.",
        lambda c: isinstance(c, Plant) and c.kind is Kind.RABBIT, "Say plant a rabbit at 6 3.",
        "Hide your rabbits far from the other farmers, among cards of yours that are not rabbits. "
        "If a farmer walks onto your own rabbit, it goes back to your hand and a card takes its place.",
        _scene("plant", hand=("field", "rabbit")),
    ),
]


class Tutorial(Lessons[Command, Lesson]):
    """The lessons, as a Game for the session."""

    lessons = LESSONS
    rules = RULES_SUMMARY

    def __init__(self) -> None:
        self.index = 0
        self.table = RabbitTable(1)
        self.table.state = self.lesson.scene
        self.grammar = self.table.grammar
        self.done: list[str] = []

    def opening(self) -> str:
        return ("Welcome to the Rabbit Hunt tutorial. Farmers hide three rabbits each among the face-down cards of a "
                f"farm, and hunt each other's. Six short lessons. {self.lesson.ask}")

    def act(self, command: Command) -> Reply:
        lesson = self.lesson
        if not lesson.wants(command):
            return Reply(f"Not yet. {lesson.hint}")
        if not isinstance(command, Ask) and problem(self.table.state, command) is not None:
            return self.table.act(command)  # the table says why not; the lesson waits
        reply = self.table.act(command)
        words = f"{_without_prompt(reply.words)} {lesson.explain}"
        self.done.append(lesson.name)
        self.index += 1
        if self.over:
            return Reply(f"{words} That is everything. Start a game with hbr play rabbithunt.", reply.cues)
        self.table.state = self.lesson.scene
        return Reply(f"{words} {self.lesson.ask}", reply.cues)



def _without_prompt(words: str) -> str:
    """The table's words without what it asks next ("Now two actions."): the lesson asks instead."""
    for prompt in ("Your turn: plant a card.", "Now two actions.", "One more action."):
        words = words.split(f" {prompt}")[0]
    return words
