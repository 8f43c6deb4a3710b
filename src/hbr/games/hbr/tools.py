"""Hunter Bear Rabbit's own subcommands: a picture of a played game, a printable
blank map, and a transcript replayed through the engine. Pure: the shell reads the
transcript and writes the pictures."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hbr.game import Argument, Outcome, Tool
from hbr.games.hbr.drawing import blank_map_svg, review_svg
from hbr.games.hbr.mapgen import Difficulty
from hbr.games.hbr.observer import reveal
from hbr.games.hbr.table import HBRTable, replay_transcript, trail_of


def review(args: Mapping[str, Any]) -> Outcome:
    table, trail = trail_of(args["file"])
    return Outcome(
        (f"wrote {args['svg']}: {len(trail) - 1} turns of forest {table.seed}", reveal(table.state)),
        {"svg": review_svg(trail, table.seed)},
    )


def blank_map(args: Mapping[str, Any]) -> Outcome:
    table = HBRTable.new(args["seed"], Difficulty(args["difficulty"]))
    return Outcome(
        (f"wrote {args['svg']}: the blank map of {args['difficulty']} forest {args['seed']}",),
        {"svg": blank_map_svg(table.state.field)},
    )


def replay(args: Mapping[str, Any]) -> Outcome:
    same, message = replay_transcript(args["file"])
    return Outcome((message,), ok=same)


TRANSCRIPT = Argument("file", "a transcript (JSON lines)", "transcript")
SVG = Argument("svg", "where to write the picture", "out")
TOOLS = (
    Tool("replay", "replay a transcript through the engine and check it", (TRANSCRIPT,), replay),
    Tool("review", "a picture of a played game, and where everyone was", (TRANSCRIPT, SVG), review),
    Tool(
        "blank-map", "a printable blank map (patch 1.2): obstacles only",
        (Argument("seed", "the forest number", "seed"),
         Argument("difficulty", "easy, normal or hard", "choice", tuple(d.value for d in Difficulty), "normal"), SVG),
        blank_map,
    ),
)
