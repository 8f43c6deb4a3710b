"""Hunter Bear Rabbit as the shell finds it (:data:`SPEC`)."""

from __future__ import annotations

from hbr.game import Demo, GameSpec, Option, Setup
from hbr.games.hbr.bots import BlindBot
from hbr.games.hbr.cues import CUES
from hbr.games.hbr.mapgen import Difficulty
from hbr.games.hbr.observer import common_replies
from hbr.games.hbr.phrases import HBRGrammar
from hbr.games.hbr.simulate import STUDY
from hbr.games.hbr.state import Rules
from hbr.games.hbr.table import HBRTable, restore
from hbr.games.hbr.tools import TOOLS
from hbr.games.hbr.tutorial import LESSONS, Tutorial


def new(setup: Setup) -> HBRTable:
    options = setup.options
    table = HBRTable.new(
        setup.seed,
        Difficulty(str(options.get("difficulty") or Difficulty.NORMAL.value)),
        Rules(snare=not options.get("no_snare", False)),
        bool(options.get("blank_map", False)),
        setup.cues,
        dict(setup.aliases),
    )
    table.detail = setup.detail
    return table


def demo(setup: Setup) -> Demo:
    """The blind bot plays the hunter: it hears only the Observer's events."""
    table = new(setup)
    bot = BlindBot(table.difficulty, table.state.rules)
    return Demo(table, lambda: bot.act(table.turns[-1].events if table.turns else ()), "Hunter")


def resume(record: object, setup: Setup) -> HBRTable:
    return restore(record, setup.cues, setup.detail, dict(setup.aliases))


SPEC = GameSpec(
    name="hbr",
    title="Hunter Bear Rabbit",
    summary="a game of blind survival: catch the rabbit before it reaches its hole, and keep away from the bear",
    options=(
        Option("difficulty", "easy, normal or hard (default: from settings)", tuple(d.value for d in Difficulty)),
        Option("no-snare", "play without the snare (patch 1.1)"),
        Option("blank-map", "describe the obstacles at the start (patch 1.2)"),
    ),
    new=new,
    restore=resume,
    grammar=HBRGrammar,
    common_replies=common_replies,
    cues=CUES,
    tutorial=Tutorial,
    lessons=len(LESSONS),
    spoken_example="a direction like north east, or toward the rabbit, or capture and a corner",
    tools=TOOLS,
    study=STUDY,
    demo=demo,
)
