"""The game-agnostic session: heard words in, the Observer's words out.

A session wires grammar -> game -> Observer -> speaker for any game that follows
the :class:`Game` protocol. Meta requests (help, repeat, quit ...) are answered
here and never use a turn; words that are not understood cost nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from hbr.grammar import Grammar, Meta, NotUnderstood, canonical
from hbr.speech.speaker import Speaker

#: Confirmation of turn-costing commands heard by voice: always, never, or
#: "auto": only when the recognizer's confidence is below CONFIRM_BELOW.
CONFIRM_MODES = ("auto", "always", "never")
CONFIRM_BELOW = 0.75


@dataclass(frozen=True, slots=True)
class Reply:
    """What a game says back after a turn: the words, and short sounds to play first."""

    words: str
    cues: tuple[np.ndarray, ...] = ()


class Game(Protocol):
    """One game in progress, as a session drives it."""

    grammar: Grammar

    @property
    def over(self) -> bool: ...

    def opening(self) -> str: ...

    def act(self, command: object) -> Reply:
        """Play a turn-costing command; returns the Observer's reply."""
        ...

    def spoken(self, command: object) -> str:
        """How to say a command back to the player ("capture north west")."""
        ...

    def help(self) -> str: ...

    def closing(self) -> str: ...


@dataclass
class Session:
    """Routes one utterance at a time to the game, and the game's words to the speaker."""

    game: Game
    speaker: Speaker
    confirm: str = "auto"
    opening_hint: str = "Say help at any time to hear what you can say."
    last: str = ""
    quit: bool = False
    pending: object | None = field(default=None, init=False)

    @property
    def done(self) -> bool:
        return self.quit or self.game.over

    def say(self, words: str) -> None:
        self.speaker.say(words)

    def tell(self, reply: Reply) -> None:
        self.last = reply.words
        self.speaker.say(reply.words, reply.cues)

    def start(self) -> None:
        self.tell(Reply(f"{self.game.opening()} {self.opening_hint}"))

    def hear(self, text: str, confidence: float | None = None) -> None:
        """Handle one typed line (``confidence`` None) or recognized phrase."""
        parsed = self.game.grammar.parse(text)
        if isinstance(parsed, NotUnderstood):
            self.say(parsed.message)
            return
        intent = parsed.intent
        if isinstance(intent, Meta):
            self._meta(intent)
            return
        self.pending = None
        if confidence is not None and self._must_confirm(confidence):
            self.pending = intent
            self.say(f"Did you say {self.game.spoken(intent)}? Say yes or no.")
            return
        self._play(intent)

    def _must_confirm(self, confidence: float) -> bool:
        return self.confirm == "always" or (self.confirm == "auto" and confidence < CONFIRM_BELOW)

    def _play(self, command: object) -> None:
        self.tell(self.game.act(command))
        if self.game.over:
            self.say(self.game.closing())

    def _meta(self, meta: Meta) -> None:
        pending, self.pending = self.pending, None
        match meta:
            case Meta.YES if pending is not None:
                self._play(pending)
            case Meta.NO if pending is not None:
                self.say("Then say your command again.")
            case Meta.YES | Meta.NO:
                self.say("There is nothing to answer yes or no to right now.")
            case Meta.HELP:
                self.say(self.game.help())
            case Meta.REPEAT:
                self.pending = pending
                self.say(self.last or "Nothing has been said yet.")
            case Meta.QUIT:
                self.quit = True
                self.say("You leave the forest. " + self.game.closing())
            case Meta.STOP:
                self.speaker.stop()

    def run(self, lines: Iterable[str]) -> None:
        """Play from an iterable of lines until the game ends or the lines run out."""
        self.start()
        for line in lines:
            self.hear(line)
            if self.done:
                return
        if not self.done:
            self.say("End of input. The game stops here. " + self.game.closing())
