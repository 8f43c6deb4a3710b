"""One game of HBR at the table: the state, its history, and the Observer's voice.

This is the game-specific side of a session: it plays commands through the pure
engine, keeps what the player has been told, and knows what help to give now.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hbr.game import RecordError, Reply
from hbr.games.hbr.commands import Command, parse_canonical
from hbr.games.hbr.cues import cues_for
from hbr.games.hbr.engine import IllegalCommand, apply
from hbr.games.hbr.events import Event, Kind
from hbr.games.hbr.mapgen import Difficulty, new_game
from hbr.games.hbr.observer import RULES_SUMMARY, blank_map, hunter_words, narrate, offset_words, reveal
from hbr.games.hbr.phrases import HBRGrammar, spoken
from hbr.games.hbr.state import Outcome, Rules, State
from hbr.grammar import Meta


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
    detail: str = "normal"
    aliases: dict[str, str] = field(default_factory=dict)
    turns: list[Turn] = field(default_factory=list)
    state: State = field(init=False)

    def __post_init__(self) -> None:
        self.state = self.start
        self.grammar = HBRGrammar(snare=self.start.rules.snare, aliases=self.aliases)

    @classmethod
    def new(
        cls,
        seed: int,
        difficulty: Difficulty = Difficulty.NORMAL,
        rules: Rules = Rules(),
        blank_map: bool = False,
        cues: bool = True,
        aliases: dict[str, str] | None = None,
    ) -> HBRTable:
        start = new_game(random.Random(seed), difficulty, rules)
        return cls(start, seed, difficulty, blank_map, cues, aliases=aliases or {})

    @property
    def over(self) -> bool:
        return self.state.over

    def opening(self) -> str:
        seed = f" number {self.seed}" if self.seed is not None else ""
        if self.turns:
            turns = len(self.turns)
            return f"Back in the {self.difficulty.value} forest{seed}, after {turns} turn{'' if turns == 1 else 's'}. " \
                f"Your last move: {self.recap(1)}"
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
        words = narrate(events, self.state.outcome, self.detail)
        self.turns.append(Turn(command, events, words))
        if self.detail == "verbose" and not self.over:
            words = f"Turn {self.state.round}. {words} {self.where()}"
            self.turns[-1] = Turn(command, events, words)
        return Reply(words, cues_for(events) if self.cues else ())

    def record(self) -> dict[str, object]:
        return record(self)

    def turn_record(self) -> dict[str, object]:
        return turn_record(self)

    def outcome(self) -> str | None:
        return self.state.outcome.value if self.state.outcome else None

    def yes(self) -> None:
        """A plain yes answers nothing of the game's own."""
        return None

    def listening(self) -> None:
        """Every phrase, always: a move is a direction, and every direction may be said."""
        return None

    def answer(self, meta: Meta) -> str:
        """The game's own answers to requests that need its knowledge."""
        match meta:
            case Meta.HELP:
                return self.help()
            case Meta.HELP_MORE:
                return self.help_more()
            case Meta.RULES:
                return RULES_SUMMARY
            case Meta.RECAP:
                return self.recap()
            case Meta.WHERE:
                return self.where()
            case Meta.REVEAL:
                if not self.over:
                    return "Reveal is for after the game, so the forest stays hidden while you play."
                return reveal(self.state)
        raise ValueError(meta)

    def recap(self, last: int = 5) -> str:
        """The player's own last moves, as the Observer told them (the paper sheet)."""
        if not self.turns:
            return "You have not moved yet."
        shown = self.turns[-last:]
        first = len(self.turns) - len(shown) + 1
        return " ".join(
            f"Turn {first + i}: {hunter_words(t.events)}" for i, t in enumerate(shown)
        )

    def where(self) -> str:
        """Offset from the start, from what the player was told only (successful moves)."""
        dx = dy = 0
        for turn in self.turns:
            for e in turn.events:
                if e.kind is Kind.HUNTER_MOVED and e.direction:
                    dx, dy = dx + e.direction.dx, dy + e.direction.dy
        words = offset_words(dx, dy)
        return f"You are {words} of where you started." if words else "You are where you started."

    def help_more(self) -> str:
        return (
            "Directions can start with move, go or step, and up, down, left and right mean north, south, "
            "west and east. Capture or catch throws your net; snare or trap holds the bear. "
            "Ask: rules, recap for your last moves, where am i, repeat. Settings: faster, slower, louder, "
            "quieter, more detail, brief. Pause and resume, stop to cut the speech, quit to leave. "
            "When the game ends, the Observer tells where everyone was."
        )

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
            urgent = "The rabbit is within two squares: say capture or catch and a corner, like catch north west. "
        return (
            f"{urgent}Say a direction: north, south, east, west, or north east and the other corners. "
            "Or toward the rabbit, toward the bear, toward the hole. "
            f"Capture or catch and a corner throws your net.{snare} Also: repeat, help, quit."
        )

    def progress(self) -> str:
        turns = len(self.turns)
        return f"forest {self.seed} after {turns} turn{'' if turns == 1 else 's'}"

    def closing(self) -> str:
        seed = f", seed {self.seed}" if self.seed is not None else ""
        turns = f"{self.state.round} turn{'' if self.state.round == 1 else 's'}"
        if self.state.outcome is None:
            return f"Game over: unfinished after {turns}{seed}."
        # the game is over, so nothing is hidden any more: where everyone was, said once
        return f"Game over: {CLOSINGS[self.state.outcome]} after {turns}{seed}. {reveal(self.state)}"


#: How a game ended, in the closing words.
CLOSINGS = {
    Outcome.CAPTURED: "you caught the rabbit",
    Outcome.EATEN: "the bear caught you",
    Outcome.RABBIT_HOME: "the rabbit reached its hole",
}

SAVE_VERSION = 1


def _start_fields(doc: dict[str, object]) -> tuple[int, Difficulty, Rules, bool]:
    if doc.get("game") != "hbr" or doc.get("version") != SAVE_VERSION:
        raise RecordError(f"not a Hunter Bear Rabbit record of version {SAVE_VERSION}")
    seed, difficulty, snare = doc.get("seed"), doc.get("difficulty"), doc.get("snare", True)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise RecordError("the record has no valid seed")
    if difficulty not in [d.value for d in Difficulty]:
        raise RecordError(f"unknown difficulty {difficulty!r}")
    if not isinstance(snare, bool):
        raise RecordError("snare must be true or false")
    return seed, Difficulty(difficulty), Rules(snare=snare), bool(doc.get("blank_map", False))


def record(table: HBRTable) -> dict[str, object]:
    """Everything needed to restore the game exactly: its start and its commands."""
    return {
        "game": "hbr",
        "version": SAVE_VERSION,
        "seed": table.seed,
        "difficulty": table.difficulty.value,
        "snare": table.start.rules.snare,
        "blank_map": table.blank_map,
        "commands": [str(t.command) for t in table.turns],
    }


def restore(
    doc: object, cues: bool = True, detail: str = "normal", aliases: dict[str, str] | None = None
) -> HBRTable:
    """Rebuild a game from :func:`record`'s output by replaying its commands."""
    if not isinstance(doc, dict):
        raise RecordError("a record is a JSON object")
    seed, difficulty, rules, blank = _start_fields(doc)
    commands = doc.get("commands")
    if not isinstance(commands, list) or not all(isinstance(c, str) for c in commands):
        raise RecordError("the record's commands are not a list of commands")
    table = HBRTable.new(seed, difficulty, rules, blank, cues, aliases)
    table.detail = detail
    for text in commands:
        try:
            table.act(parse_canonical(text))
        except (ValueError, IllegalCommand) as err:
            raise RecordError(f"the record cannot be replayed: {err}") from None
    return table


def turn_record(table: HBRTable) -> dict[str, object]:
    """The last turn, for a transcript: command, events and the Observer's words."""
    turn = table.turns[-1]
    return {
        "turn": len(table.turns),
        "command": str(turn.command),
        "events": [e.as_dict() for e in turn.events],
        "observer": turn.words,
        "outcome": table.state.outcome.value if table.state.outcome else None,
    }


def trail_of(lines: list[dict[str, object]]) -> tuple[HBRTable, list[State]]:
    """Replay a transcript's commands (without checking them) and keep every state."""
    if not lines or lines[0].get("type") != "start":
        raise RecordError("a transcript starts with a start line")
    seed, difficulty, rules, blank = _start_fields(lines[0])
    table = HBRTable.new(seed, difficulty, rules, blank)
    trail = [table.state]
    for line in lines:
        if line.get("type") in ("resumed", "turn"):
            try:
                table.act(parse_canonical(str(line.get("command"))))
            except (ValueError, IllegalCommand) as err:
                raise RecordError(f"the transcript cannot be replayed: {err}") from None
            trail.append(table.state)
    return table, trail


def replay_transcript(lines: list[dict[str, object]]) -> tuple[bool, str]:
    """Replay a transcript through the engine: (same game?, one sentence saying so)."""
    if not lines or lines[0].get("type") != "start":
        raise RecordError("a transcript starts with a start line")
    seed, difficulty, rules, blank = _start_fields(lines[0])
    table = HBRTable.new(seed, difficulty, rules, blank)
    for line in lines:
        if line.get("type") == "resumed":  # moves made before the game was resumed
            try:
                table.act(parse_canonical(str(line.get("command"))))
            except (ValueError, IllegalCommand) as err:
                return False, f"diverges before the resumed turns: {err}"
    turns = [line for line in lines if line.get("type") == "turn"]
    for line in turns:
        try:
            table.act(parse_canonical(str(line.get("command"))))
        except (ValueError, IllegalCommand) as err:
            return False, f"diverges at turn {line.get('turn')}: {err}"
        got = [e.as_dict() for e in table.turns[-1].events]
        if got != line.get("events"):
            return False, f"diverges at turn {line.get('turn')}: recorded events {line.get('events')}, replayed {got}"
    recorded = next((line.get("outcome") for line in lines if line.get("type") == "end"), None)
    outcome = table.state.outcome.value if table.state.outcome else None
    if recorded != outcome:
        return False, f"diverges at the end: recorded outcome {recorded}, replayed {outcome}"
    return True, f"replayed {len(turns)} turns of forest {seed}: same game, outcome {outcome or 'unfinished'}"
