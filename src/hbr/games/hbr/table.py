"""One game of HBR at the table: the state, its history, and the Observer's voice.

This is the game-specific side of a session: it plays commands through the pure
engine, keeps what the player has been told, and knows what help to give now.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hbr.games.hbr.commands import Command
from hbr.games.hbr.cues import cues_for
from hbr.games.hbr.engine import apply
from hbr.games.hbr.events import Event, Kind
from hbr.games.hbr.mapgen import Difficulty, new_game
from hbr.games.hbr.observer import blank_map, narrate
from hbr.games.hbr.phrases import HBRGrammar, spoken
from hbr.games.hbr.state import Rules, State
from hbr.session import Reply


@dataclass(frozen=True, slots=True)
class Turn:
    """One played round as the player lived it."""

    command: Command
    events: tuple[Event, ...]
    words: str


@dataclass
class HBRTable:
    """A game in progress. ``start`` and the commands in ``turns`` reproduce it."""

    start: State
    seed: int | None = None
    difficulty: Difficulty = Difficulty.NORMAL
    blank_map: bool = False
    cues: bool = True
    turns: list[Turn] = field(default_factory=list)
    state: State = field(init=False)

    def __post_init__(self) -> None:
        self.state = self.start
        self.grammar = HBRGrammar(snare=self.start.rules.snare)

    @classmethod
    def new(
        cls,
        seed: int,
        difficulty: Difficulty = Difficulty.NORMAL,
        rules: Rules = Rules(),
        blank_map: bool = False,
        cues: bool = True,
    ) -> HBRTable:
        start = new_game(random.Random(seed), difficulty, rules)
        return cls(start=start, seed=seed, difficulty=difficulty, blank_map=blank_map, cues=cues)

    @property
    def over(self) -> bool:
        return self.state.over

    def opening(self) -> str:
        seed = f" number {self.seed}" if self.seed is not None else ""
        words = (
            f"A new {self.difficulty.value} forest{seed}. You are the hunter and cannot see: "
            "find and capture the rabbit before it reaches its hole, and keep away from the bear."
        )
        if self.blank_map:
            words += " " + blank_map(self.state.field)
        return words

    def act(self, command: Command) -> Reply:
        """Play one round; the engine raises IllegalCommand for what the rules forbid now."""
        self.state, events = apply(self.state, command)
        words = narrate(events, self.state.outcome)
        self.turns.append(Turn(command, events, words))
        return Reply(words, cues_for(events) if self.cues else ())

    def spoken(self, command: Command) -> str:
        return spoken(command)

    def last_kinds(self) -> set[Kind]:
        return {e.kind for e in self.turns[-1].events} if self.turns else set()

    def help(self) -> str:
        """What can be said right now, most useful first."""
        kinds = self.last_kinds()
        snare = " Snare and a corner holds the bear, like snare south east." if self.state.rules.snare else ""
        urgent = ""
        if Kind.DANGER_ZONE in kinds:
            urgent = "The bear is beside you: move away now" + (", or snare it." if self.state.rules.snare else ".") + " "
        elif Kind.READY_TO_HUNT in kinds:
            urgent = "The rabbit is within two squares: say capture and a corner, like capture north west. "
        return (
            f"{urgent}Say a direction: north, south, east, west, or north east and the other corners. "
            "Or toward the rabbit, toward the bear, toward the hole. "
            f"Capture and a corner throws your net.{snare} Also: repeat, help, quit."
        )

    def closing(self) -> str:
        outcome = self.state.outcome.value if self.state.outcome else "unfinished"
        seed = f", seed {self.seed}" if self.seed is not None else ""
        return f"Game over: {outcome} after {self.state.round} turns{seed}."
