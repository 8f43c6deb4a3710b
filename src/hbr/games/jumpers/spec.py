"""Jumpers as the shell finds it (:data:`SPEC`)."""

from __future__ import annotations

from hbr.game import GameSpec, Note, Option, Setup
from hbr.games.jumpers.bots import LEVELS
from hbr.games.jumpers.phrases import JumpersGrammar
from hbr.games.jumpers.simulate import STUDY
from hbr.games.jumpers.state import Goal, Side
from hbr.games.jumpers.table import JumpersTable, restore


def new(setup: Setup) -> JumpersTable:
    options = setup.options
    return JumpersTable(
        setup.seed, Side(str(options.get("colour") or "south")), str(options.get("difficulty") or "normal"),
        Goal(str(options.get("goal") or "short")), 2 if options.get("two_players") else 1, setup.cues, setup.detail,
    )


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
)
