"""The game-agnostic session: heard words in, the Observer's words out.

A session wires grammar -> game -> Observer -> speaker for any game that follows
the :class:`Game` protocol. Meta requests (help, repeat, quit ...) are answered
here and never use a turn; words that are not understood cost nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from hbr.grammar import Grammar, Meta, NotUnderstood


class Game(Protocol):
    """One game in progress, as a session drives it."""

    grammar: Grammar

    @property
    def over(self) -> bool: ...

    def opening(self) -> str: ...

    def act(self, command: object) -> str:
        """Play a turn-costing command; returns the Observer's words."""
        ...

    def help(self) -> str: ...

    def closing(self) -> str: ...


@dataclass
class Session:
    """Routes one utterance at a time. ``say`` delivers words to the player."""

    game: Game
    say: Callable[[str], None]
    last: str = ""
    quit: bool = False

    @property
    def done(self) -> bool:
        return self.quit or self.game.over

    def tell(self, words: str) -> None:
        self.last = words
        self.say(words)

    def start(self) -> None:
        self.tell(f"{self.game.opening()} Say help at any time to hear what you can say.")

    def hear(self, text: str) -> None:
        """Handle one typed line or recognized phrase."""
        parsed = self.game.grammar.parse(text)
        if isinstance(parsed, NotUnderstood):
            self.say(parsed.message)
            return
        intent = parsed.intent
        if isinstance(intent, Meta):
            self._meta(intent)
            return
        self.tell(self.game.act(intent))
        if self.game.over:
            self.say(self.game.closing())

    def _meta(self, meta: Meta) -> None:
        match meta:
            case Meta.HELP:
                self.say(self.game.help())
            case Meta.REPEAT:
                self.say(self.last or "Nothing has been said yet.")
            case Meta.QUIT:
                self.quit = True
                self.say("You leave the forest. " + self.game.closing())
            case Meta.STOP:
                pass  # stops speech; there is nothing to stop in text
            case Meta.YES | Meta.NO:
                self.say("There is nothing to answer yes or no to right now.")

    def run(self, lines: Iterable[str]) -> None:
        """Play from an iterable of lines until the game ends or the lines run out."""
        self.start()
        for line in lines:
            self.hear(line)
            if self.done:
                return
        if not self.done:
            self.say("End of input. The game stops here. " + self.game.closing())
