"""The game-agnostic session: heard words in, the Observer's words out.

A session wires grammar -> game -> Observer -> speaker for any game that follows
the :class:`Game` protocol. Requests (help, repeat, pause, faster ...) are answered
here and never use a turn; words that are not understood cost nothing. A voice
command heard with low confidence that would use a turn is asked back first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Generic

from hbr.game import C, Game, Reply
from hbr.grammar import ANSWERS, Meta, NotUnderstood
from hbr.records import Journal
from hbr.speech.speaker import Speaker
from hbr.speech.tts import clamp_rate, clamp_volume

#: Confirmation of turn-costing commands heard by voice: always, never, or
#: "auto": only when the recognizer's confidence is below CONFIRM_BELOW.
CONFIRM_MODES = ("auto", "always", "never")
CONFIRM_BELOW = 0.75
RATE_STEP = 25
VOLUME_STEP = 0.15
#: Requests the game itself answers (they need its knowledge).
GAME_ANSWERS = (Meta.HELP, Meta.HELP_MORE, Meta.RULES, Meta.RECAP, Meta.WHERE, Meta.REVEAL)
#: Requests that change a saved setting: by voice, asked back when unsure, like a move.
SETTINGS = (Meta.FASTER, Meta.SLOWER, Meta.LOUDER, Meta.QUIETER, Meta.VERBOSE, Meta.BRIEF)


class SettingNotSaved(OSError):
    """A setting changed by voice could not be saved; it lasts for this game only."""


@dataclass
class Session(Generic[C]):
    """Routes one utterance at a time to the game, and the game's words to the speaker."""

    game: Game[C]
    speaker: Speaker
    confirm: str = "auto"
    opening_hint: str = "Say help at any time to hear what you can say."
    #: Said on quitting, before the game's closing words (e.g. how to resume).
    quit_hint: str = ""
    journal: Journal | None = None
    #: Called with (setting name, new value) when the player changes one by voice.
    #: It may return a sentence to say (the settings file had to be kept aside).
    changed: Callable[[str, object], str | None] = lambda name, value: None
    last: str = ""
    quit: bool = False
    paused: bool = False
    #: A command or request heard by voice and asked back: (it, what was heard, confidence).
    pending: tuple[C | Meta, str, float | None] | None = field(default=None, init=False)

    def expected(self) -> frozenset[str] | None:
        """The only phrases to listen for now: the answers while a question waits."""
        return ANSWERS if self.pending is not None else None

    @property
    def done(self) -> bool:
        return self.quit or self.game.over

    def say(self, words: str) -> None:
        self.speaker.say(words)

    def tell(self, reply: Reply) -> None:
        self.last = reply.words
        self.speaker.say(reply.words, reply.cues)

    def start(self) -> None:
        if self.journal:
            self.journal.started(self.game)
        self.tell(Reply(f"{self.game.opening()} {self.opening_hint}"))

    def hear(self, text: str, confidence: float | None = None) -> None:
        """Handle one typed line (``confidence`` None) or recognized phrase."""
        parsed = self.game.grammar.parse(text)
        if isinstance(parsed, NotUnderstood):
            self.say(parsed.message)
            return
        intent = parsed.intent
        if isinstance(intent, Meta):
            # by voice, quitting is always asked back, and a setting when unsure: a
            # misheard word must never end the game or change what is saved
            if confidence is not None and (intent is Meta.QUIT or (intent in SETTINGS and self._must_confirm(confidence))):
                self.pending = (intent, text, confidence)
                self.say(f"Did you say {text}? Say yes or no.")
                return
            self._meta(intent)
            return
        if self.paused:
            self.say("The game is paused. Say resume to go on.")
            return
        self.pending = None
        if confidence is not None and self._must_confirm(confidence):
            self.pending = (intent, text, confidence)
            self.say(f"Did you say {self.game.spoken(intent)}? Say yes or no.")
            return
        self._play(intent, text if confidence is not None else None, confidence)

    def _must_confirm(self, confidence: float) -> bool:
        return self.confirm == "always" or (self.confirm == "auto" and confidence < CONFIRM_BELOW)

    def _play(self, command: C, heard: str | None, confidence: float | None) -> None:
        reply = self.game.act(command)
        if self.journal:  # saved before it is told: what the player heard is never lost
            self.journal.turn(self.game, heard, confidence)
        self.tell(reply)
        if self.game.over:
            self.say(self.game.closing())
            self.end()

    def end(self) -> None:
        if self.journal:
            self.journal.ended(self.game)

    def _meta(self, meta: Meta) -> None:
        pending, self.pending = self.pending, None
        match meta:
            case Meta.YES if pending is not None:
                command, heard, confidence = pending
                if isinstance(command, Meta):
                    self._meta(command)
                else:
                    self._play(command, heard, confidence)
            case Meta.NO if pending is not None:
                self.say("Then say your command again.")
            case Meta.YES | Meta.NO:
                self.say("There is nothing to answer yes or no to right now.")
            case Meta.REPEAT:
                self.pending = pending
                self.say(self.last or "Nothing has been said yet.")
            case Meta.PAUSE:
                self.paused = True
                self.say("Paused. Say resume to go on.")
            case Meta.RESUME:
                self.paused = False
                self.say("Resumed. " + (self.last or ""))
            case Meta.FASTER | Meta.SLOWER:
                rate = self.speaker.rate + (RATE_STEP if meta is Meta.FASTER else -RATE_STEP)
                rate = clamp_rate(rate)
                self.speaker.adjust(rate=rate)
                self._keep("rate", rate)
                self.say(f"{'Faster' if meta is Meta.FASTER else 'Slower'}: {rate} words a minute.")
            case Meta.LOUDER | Meta.QUIETER:
                step = VOLUME_STEP if meta is Meta.LOUDER else -VOLUME_STEP
                volume = clamp_volume(self.speaker.volume + step)
                self.speaker.adjust(volume=volume)
                self._keep("volume", volume)
                self.say(f"Volume {round(volume * 100)} percent.")
            case Meta.VERBOSE | Meta.BRIEF:
                self.game.detail = "verbose" if meta is Meta.VERBOSE else "brief"
                self._keep("detail", self.game.detail)
                self.say("More detail from now on." if meta is Meta.VERBOSE else "Brief from now on.")
            case Meta.QUIT:
                self.quit = True
                saved = self.journal is None or self.journal.save is not None  # else the hint would be false
                hint = self.quit_hint if saved else ""
                self.say(" ".join(part for part in ("You quit.", hint, self.game.closing()) if part))
                self.end()
            case Meta.STOP:
                self.speaker.stop()
            case _ if meta in GAME_ANSWERS:
                self.say(self.game.answer(meta))

    def _keep(self, name: str, value: object) -> None:
        """Save a setting changed by voice; if it cannot be, say so: it still holds now."""
        try:
            note = self.changed(name, value)
            if note:
                self.say(note)
        except SettingNotSaved as err:
            self.say(f"That change lasts for this game only: it could not be saved ({err}).")

    def run(self, lines: Iterable[str]) -> None:
        """Play from an iterable of lines until the game ends or the lines run out."""
        self.start()
        for line in lines:
            self.hear(line)
            if self.done:
                return
        if not self.done:
            self.end_of_input()

    def end_of_input(self) -> None:
        """Nothing more will be typed or heard: stop cleanly, telling how the game stands."""
        self.say("End of input. The game stops here. " + self.game.closing())
        self.end()
