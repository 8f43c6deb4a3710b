"""Jumpers as the shell finds it (:data:`SPEC`)."""

from __future__ import annotations

import random

from hbr.game import Demo, GameSpec, Note, Option, Setup
from hbr.games.jumpers.bots import LEVELS, Bot
from hbr.games.jumpers.phrases import Ask, Command, JumpersGrammar, Order, Question
from hbr.games.jumpers.simulate import STUDY
from hbr.games.jumpers.state import Goal, Side, name
from hbr.games.jumpers.table import JumpersTable, resolve, restore


def new(setup: Setup) -> JumpersTable:
    options = setup.options
    return JumpersTable(
        setup.seed, Side(str(options.get("colour") or "south")), str(options.get("difficulty") or "normal"),
        Goal(str(options.get("goal") or "short")), 2 if options.get("two_players") else 1, setup.cues, setup.detail,
    )


def demo(setup: Setup) -> Demo:
    """The computer plays south against itself as north, at the same level; south's
    moves are said as a player would: short when that is enough ("hare north west"),
    else in full ("cat at 3 2 jumps north east")."""
    table = new(setup)
    bot = Bot(table.level, random.Random(setup.seed))

    def next_order() -> Command:
        move = bot.move(table.state)
        if move.frm is None or move.direction is None:
            return Ask(Question.PASS)
        kind = table.state.stack(move.frm)[-1][1]
        short = Order(kind, None, move.direction, None)
        return short if resolve(table.state, short)[0] == move else Order(kind, name(move.frm), move.direction, move.jump)

    return Demo(table, next_order, "South")


def resume(record: object, setup: Setup) -> JumpersTable:
    return restore(record, setup.cues, setup.detail)


SPEC = GameSpec(
    name="jumpers",
    title="Jumpers",
    summary="a race of frogs, cats and hares across a board of hexagons, stacking and never capturing",
    options=(
        Option("colour", "play south (moves first, the default) or north against the computer", ("south", "north")),
        Option("difficulty", "easy, normal or hard (default: from settings)", LEVELS),
        Option("goal", "short (default): first piece on the other gate; long: hold all three gate cells",
               ("short", "long")),
        Option("two-players", "two people at one microphone; the game says whose turn it is"),
    ),
    new=new,
    restore=resume,
    grammar=JumpersGrammar,
    spoken_example="a piece and a way, like hare north west, or describe to hear the board",
    common_replies=lambda: ["Your move.", "South's turn.", "North's turn.", "The computer:"],
    cues={
        "jump": (Note(520, 0.06, to=780),),
        "step": (Note(330, 0.05),),
        "stack": (Note(520, 0.06, to=780), Note(260, 0.08)),
        "blocked": (Note(140, 0.12, to=110, level=0.5),),
        "win": (Note(523, 0.12, chord=(1.25, 1.5)), Note(784, 0.3, chord=(1.25, 1.5))),
    },
    study=STUDY,
    demo=demo,
)
