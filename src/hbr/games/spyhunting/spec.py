"""Spyhunting as the shell finds it (:data:`SPEC`)."""

from __future__ import annotations

from hbr.game import GameSpec, Note, Option, Setup
from hbr.games.spyhunting.bots import LEVELS
from hbr.games.spyhunting.phrases import SpyGrammar
from hbr.games.spyhunting.simulate import STUDY
from hbr.games.spyhunting.state import Rules, Side
from hbr.games.spyhunting.table import SpyTable, restore


def new(setup: Setup) -> SpyTable:
    options = setup.options
    rules = Rules.from_options(options)
    side = Side(str(options.get("side") or Side.HUNTER.value))
    return SpyTable(setup.seed, side, str(options.get("difficulty") or "normal"), rules, setup.cues, setup.detail)


def resume(record: object, setup: Setup) -> SpyTable:
    return restore(record, setup.cues, setup.detail)


def common_replies() -> list[str]:
    return [
        "Say confirm, or undo.", "The spy will not hear it.", "a miss.", "Now back home.",
        "There is no full plan to confirm.", "There is nothing to take back.",
    ]


SPEC = GameSpec(
    name="spyhunting",
    title="Spyhunting",
    summary="a hidden-plan chase on the points of a board: the hunter plans its shot, the spy runs corner to corner",
    options=(
        Option("side", "play the hunter or the spy (default hunter); the computer plays the other",
               tuple(s.value for s in Side)),
        Option("difficulty", "easy, normal or hard (default: from settings)", LEVELS),
        Option("capture-wins", "variant: the hunter also wins by landing on the spy"),
        Option("four-way", "variant: the bullet flies in all four directions"),
        Option("forward-only", "variant: the hunter steps only the way it faces"),
        Option("short-spy", "variant: the spy moves 2 or 4 points instead of 3 or 5"),
        Option("diagonal", "variant: the hunter and the spy may also step diagonally"),
    ),
    new=new,
    restore=resume,
    grammar=SpyGrammar,
    common_replies=common_replies,
    spoken_example="one action or direction at a time, like forward, turn left, north, or north two times",
    cues={
        "dice": (Note(900, 0.03), Note(700, 0.03), Note(1100, 0.03)),
        "step": (Note(330, 0.05),),
        "turn": (Note(440, 0.05, to=520),),
        "bump": (Note(140, 0.12, to=110, level=0.5),),
        "hit": (Note(523, 0.12, chord=(1.25, 1.5)), Note(784, 0.3, chord=(1.25, 1.5))),
        "miss": (Note(1200, 0.15, to=300, level=0.3),),
        "corner": (Note(660, 0.09), Note(880, 0.14)),
        "spy home": (Note(440, 0.15), Note(370, 0.15), Note(294, 0.3)),
    },
    study=STUDY,
)
