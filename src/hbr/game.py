"""What a game is to the shell: the one interface every game package implements.

A game package exposes one :class:`GameSpec` (found through :mod:`hbr.games`): its
names, its options, how to start a game and restore one from a record, its grammar,
the replies worth rendering ahead, and the sounds of its cues. A game in progress is a
:class:`Game`: the session plays commands into it and speaks what it replies. Game
packages import this module and :mod:`hbr.grammar`, never the shell (session, live
loop, settings, records, speech or voice): so a new game changes no shared module.

Cues travel as names (``Reply.cues``); the speech layer renders the spec's notes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from hbr.grammar import Grammar, Meta, Understood

C = TypeVar("C")
C_contra = TypeVar("C_contra", contravariant=True)


@dataclass(frozen=True, slots=True)
class Note:
    """A cue's sound, as data: ``freq`` Hz sliding to ``to`` Hz (if given) over
    ``seconds``; ``chord`` adds partials at these ratios."""

    freq: float
    seconds: float
    to: float | None = None
    chord: tuple[float, ...] = ()
    level: float = 0.35


@dataclass(frozen=True, slots=True)
class Reply:
    """What a game says back after a turn: the words, and the names of cues to sound first."""

    words: str
    cues: tuple[str, ...] = ()


#: How much the Observer says, least first: "more detail" and "brief" step along it.
DETAIL_LEVELS = ("brief", "normal", "verbose")


class Game(Protocol[C_contra]):
    """One game in progress, as a session drives it; ``C`` is the game's command type."""

    #: One of :data:`DETAIL_LEVELS`.
    detail: str
    #: The number the game was drawn from (told, so a game can be played again); None for set scenes.
    seed: int | None

    @property
    def grammar(self) -> Grammar[Any]: ...

    @property
    def over(self) -> bool: ...

    def opening(self) -> str: ...

    def act(self, command: C_contra) -> Reply:
        """Play a turn-costing command; returns the Observer's reply."""
        ...

    def spoken(self, command: C_contra) -> str:
        """How to say a command back to the player ("capture north west")."""
        ...

    def answer(self, meta: Meta) -> str:
        """Answer one of the game's own requests (help, rules, where ...)."""
        ...

    def closing(self) -> str: ...

    def record(self) -> dict[str, object]:
        """Everything needed to restore the game (JSON-ready); it names the game."""
        ...

    def turn_record(self) -> dict[str, object]:
        """The last turn, for a transcript."""
        ...

    def outcome(self) -> str | None: ...

    def progress(self) -> str:
        """Where the game stands, said when it is offered again: "forest 77 after 3 turns"."""
        ...

    def listening(self) -> frozenset[str] | None:
        """The grammar's phrases that make sense now (None: all of them). A recognizer
        answers with these only: in Jumpers, a move of a piece that is not there cannot
        be heard, so "hare at four four" is not taken for "hare at four three"."""
        ...

    def yes(self) -> object | None:
        """The command a plain "yes" stands for now, when the game itself waits for an
        answer (Spyhunting's full plan: confirm); None: there is nothing to answer."""
        ...


class RecordError(ValueError):
    """A save file or transcript that is not a game of this kind and version; one sentence why."""


class Table(Generic[C]):
    """What a game table kept as the player's commands shares: every command is kept as
    its text in ``inputs`` (the record replays them, :func:`replay`), the last reply is
    kept for the transcript, and cues are left out when the player turned them off.
    A subclass sets ``grammar``, ``cues`` and ``inputs`` and answers in ``_act``."""

    grammar: Grammar[C]
    cues: bool
    inputs: list[str]
    last: str = ""

    def act(self, command: C) -> Reply:
        self.inputs.append(str(command))
        reply = self._act(command)
        self.last = reply.words
        return reply if self.cues else Reply(reply.words)

    def _act(self, command: C) -> Reply:
        raise NotImplementedError

    def spoken(self, command: C) -> str:
        return str(command)

    def listening(self) -> frozenset[str] | None:
        return None

    def yes(self) -> C | None:
        return None

    def turn_record(self) -> dict[str, object]:
        return {"turn": len(self.inputs), "command": self.inputs[-1] if self.inputs else None, "words": self.last}


class Lesson(Protocol):
    """What the shared tutorial needs of a lesson: what to say when the player is stuck."""

    @property
    def hint(self) -> str: ...


L = TypeVar("L", bound=Lesson)


class Lessons(Generic[C, L]):
    """What a tutorial of set lessons shares, as a Game: the lesson under way, the
    answers to requests (its hint, the game's rules), and no record, seed or question
    of its own. A subclass sets ``lessons`` (each with a ``hint``), ``rules``, starts
    ``index`` at 0 and ``done`` empty, appends each lesson's name to ``done`` when it is
    done, and plays commands in ``act``."""

    seed: int | None = None  # the lessons are set scenes
    detail: str = "normal"
    lessons: Sequence[L]
    rules: str
    index: int
    done: list[str]

    @property
    def lesson(self) -> L:
        return self.lessons[self.index]

    @property
    def over(self) -> bool:
        return self.index >= len(self.lessons)

    def spoken(self, command: C) -> str:
        return str(command)

    def answer(self, meta: Meta) -> str:
        if meta is Meta.RULES:
            return self.rules
        return f"{self.lesson.hint} Also: repeat, rules, quit." if not self.over else "The tutorial is done."

    def closing(self) -> str:
        return f"Tutorial: {len(self.done)} of {len(self.lessons)} lessons done."

    def progress(self) -> str:
        return f"lesson {self.index + 1} of {len(self.lessons)}"

    def record(self) -> dict[str, object]:
        return {}

    def turn_record(self) -> dict[str, object]:
        return {}

    def outcome(self) -> str | None:
        return "done" if self.over else None

    def yes(self) -> None:
        """A plain yes answers nothing of the game's own."""
        return None

    def listening(self) -> None:
        return None


def replay(table: Table[Any], commands: list[object]) -> None:
    """Play a record's commands (their texts) again; RecordError when one is not a command."""
    for text in commands:
        parsed = table.grammar.parse(str(text))
        if not isinstance(parsed, Understood) or isinstance(parsed.intent, Meta):
            raise RecordError(f"the record's command {text!r} is not a command")
        table.act(parsed.intent)


@dataclass(frozen=True, slots=True)
class Option:
    """A command-line option of one game: ``--name`` (a switch when ``choices`` is
    empty). An option not given takes the saved setting of the same name, if any."""

    name: str
    help: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Setup:
    """How a game is started or restored: the forest (seed), the game's options by
    name, and the player's preferences every game honours."""

    seed: int
    options: Mapping[str, str | bool] = field(default_factory=dict)
    cues: bool = True
    detail: str = "normal"
    aliases: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Argument:
    """One argument of a game's own subcommand, of a kind the shell reads for it:
    ``transcript`` (a transcript file: the tool gets its lines, as dicts), ``out`` (a
    file: the tool gets its name, to mention, and returns the text to write there),
    ``seed`` (a whole number) or ``choice`` (one of ``choices``, ``default`` when not
    given). Transcripts are positional, the others options (``--svg``)."""

    name: str
    help: str
    kind: str
    choices: tuple[str, ...] = ()
    default: str | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a game's subcommand made: lines to print, texts to write (by ``out``
    argument), and whether it succeeded (the exit code)."""

    lines: tuple[str, ...]
    files: Mapping[str, str] = field(default_factory=dict)
    ok: bool = True


@dataclass(frozen=True, slots=True)
class Tool:
    """A subcommand of one game's own, such as ``hbr review FILE --svg OUT``. It does no
    I/O: the shell reads its arguments, prints its lines and writes its files. It
    raises RecordError for a transcript that is not one of its game."""

    name: str
    help: str
    arguments: tuple[Argument, ...]
    run: Callable[[Mapping[str, Any]], Outcome]


@dataclass(frozen=True, slots=True)
class StudySetup:
    """One run of `hbr simulate`: how many games, the first game's number, the
    computer players' level, processes to use, and the game's own study options."""

    games: int
    seed: int
    difficulty: str
    workers: int
    options: Mapping[str, str | bool] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Study:
    """How a game plays many games with its computer players (`hbr simulate --game NAME`):
    its own options besides the shared ones, the run (a summary that is printed as
    JSON; ``progress`` is told how many games just ended), and the summary in lines
    for people."""

    options: tuple[Option, ...]
    run: Callable[[StudySetup, Callable[[int], object]], Mapping[str, object]]
    report: Callable[[Mapping[str, object]], list[str]]


@dataclass(frozen=True, slots=True)
class Demo:
    """A game that the computer plays on the player's side, aloud (`hbr demo`):
    ``next()`` is the player's next command, chosen from what the player may know;
    ``player`` names the player's voice on the screen ("Hunter")."""

    game: Game[Any]
    next: Callable[[], Any]
    player: str


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game, as the shell finds it."""

    name: str  # typed after `hbr play`, and the name of its save file
    title: str  # said: "Hunter Bear Rabbit"
    summary: str
    options: tuple[Option, ...]
    new: Callable[[Setup], Game[Any]]
    #: Rebuild a game from its record; raises RecordError when it cannot.
    restore: Callable[[object, Setup], Game[Any]]
    grammar: Callable[[], Grammar[Any]]
    #: Sentences the game says again and again, rendered ahead of need.
    common_replies: Callable[[], list[str]] = list
    cues: Mapping[str, tuple[Note, ...]] = field(default_factory=dict)
    tutorial: Callable[[], Game[Any]] | None = None
    lessons: int = 0  # how many the tutorial has
    #: What to say, told at the start of a game by voice: "a direction like north east, ...".
    spoken_example: str = "a command"
    #: The game's own subcommands (`hbr review`, `hbr blank-map` ...).
    tools: tuple[Tool, ...] = ()
    study: Study | None = None
    #: A game for `hbr demo` from its number and the options (difficulty).
    demo: Callable[[Setup], Demo] | None = None
