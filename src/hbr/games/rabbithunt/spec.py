"""Rabbit Hunt as the shell finds it (:data:`SPEC`)."""

from __future__ import annotations

import random

from hbr.game import Demo, GameSpec, Note, Option, Setup
from hbr.games.rabbithunt.bots import LEVELS, Bot
from hbr.games.rabbithunt.engine import Move
from hbr.games.rabbithunt.phrases import RabbitGrammar
from hbr.games.rabbithunt.simulate import STUDY
from hbr.games.rabbithunt.table import RabbitTable, restore
from hbr.games.rabbithunt.tutorial import LESSONS, Tutorial

PLAYERS = ("2", "3", "4")


def new(setup: Setup) -> RabbitTable:
    options = setup.options
    players = int(str(options.get("players") or "2"))
    return RabbitTable(setup.seed, players, str(options.get("difficulty") or "normal"), setup.cues, setup.detail)


def demo(setup: Setup) -> Demo:
    """The computer plays grey, the player's seat, at the others' level, from what grey may know."""
    table = new(setup)
    bot = Bot(table.level, random.Random(setup.seed))

    def next_move() -> Move:
        return bot.move(table.state)

    return Demo(table, next_move, "Grey")


def resume(record: object, setup: Setup) -> RabbitTable:
    return restore(record, setup.cues, setup.detail)


def common_replies() -> list[str]:
    return ["Your turn: plant a card.", "Now two actions.", "One more action.", "First plant a card from your hand.",
            "You have planted this turn's card.", "Your farmer is already there."]


SPEC = GameSpec(
    name="rabbithunt",
    title="Rabbit Hunt",
    summary="a hidden-card farm game for 2 to 4: hide your three rabbits among the farm's cards, and find theirs",
    options=(
        Option("players", "how many farmers, 2 to 4 (default 2); you are grey, the computer plays the others; "
                          "four play as two teams", PLAYERS),
        Option("difficulty", "easy, normal or hard (default: from settings)", LEVELS),
    ),
    new=new,
    restore=resume,
    grammar=RabbitGrammar,
    common_replies=common_replies,
    spoken_example="plant a rabbit at four four, take a carrot, or go to four five",
    cues={
        "plant": (Note(300, 0.06, to=240),),
        "walk": (Note(330, 0.04), Note(392, 0.04)),
        "turn up": (Note(600, 0.08, to=900),),
        "carrot": (Note(880, 0.05), Note(1175, 0.07)),
        "caught": (Note(523, 0.12, chord=(1.25, 1.5)), Note(784, 0.3, chord=(1.25, 1.5))),
        "lost": (Note(392, 0.15), Note(311, 0.3, level=0.45)),
        "blocked": (Note(140, 0.12, to=110, level=0.5),),
        "win": (Note(523, 0.12), Note(659, 0.12), Note(784, 0.35, chord=(1.25, 1.5))),
        "lose": (Note(440, 0.15), Note(370, 0.15), Note(294, 0.4)),
    },
    study=STUDY,
    demo=demo,
    tutorial=Tutorial,
    lessons=len(LESSONS),
)
