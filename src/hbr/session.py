"""The game-agnostic session: heard words in, the Observer's words out.

The session wires grammar -> game -> Observer -> speaker for any game that follows
the :class:`Game` protocol. Requests (help, repeat, pause, faster ...) are answered
here and never use a turn; words that are not understood cost nothing. A voice
command heard with low confidence that would use a turn is asked back first.

Functional core, imperative shell: :class:`SessionCore` decides, and only returns
:data:`Effect` values (say this, set the rate, save that setting, record the turn,
stop the voice); :class:`Session` carries them out with a speaker, a journal and the
settings file. The core never touches a device or a file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Generic, cast

from hbr.game import DETAIL_LEVELS, C, Game, Reply
from hbr.grammar import ANSWER_INTENTS, ANSWERS, Grammar, Meta, NotUnderstood, meaning
from hbr.records import Journal
from hbr.speech.speaker import Speaker
from hbr.speech.tts import SpeechPrefs
from hbr.voice.recognizer import SURE

#: Confirmation of turn-costing commands heard by voice: always, never, or
#: "auto": only when the recognizer's confidence is below how sure it must be
#: (:attr:`SessionCore.sure`: the recognizer's own bar, hbr.voice.recognizer.Recognizer.sure).
CONFIRM_MODES = ("auto", "always", "never")
#: Said when an utterance was close to a command but not understood surely.
NOT_CAUGHT = "I didn't catch that. Say it again, or say help."
#: Said to a move while the game is paused.
PAUSED = "The game is paused. Say resume to go on."
#: Asked when a game ends, where another can be started (a live game): by voice alone, a
#: player plays on without reaching for the keyboard.
PLAY_AGAIN = "Play again? Say yes or no."
#: Requests the game itself answers (they need its knowledge).
GAME_ANSWERS = (Meta.HELP, Meta.HELP_MORE, Meta.RULES, Meta.RECAP, Meta.WHERE, Meta.REVEAL)
#: Requests that change a saved setting: by voice, asked back when unsure, like a move.
SETTINGS = (Meta.FASTER, Meta.SLOWER, Meta.LOUDER, Meta.QUIETER, Meta.VERBOSE, Meta.BRIEF)
#: Requests asked back when heard unsurely by voice: the settings, what the game answers
#: at length (a "help" read from the room's talk would start a paragraph of help), and
#: pause (a misheard one stops the moves). Never stop or repeat: they are short, and
#: stop must act at once.
ASKED_WHEN_UNSURE = (*SETTINGS, *GAME_ANSWERS, Meta.PAUSE)
#: Each step of the voice: how it changes the preferences, the word that undoes it, its limit.
VOICE_STEPS: dict[Meta, tuple[Callable[[SpeechPrefs], SpeechPrefs], str, str]] = {
    Meta.FASTER: (SpeechPrefs.faster, "slower", "fastest"), Meta.SLOWER: (SpeechPrefs.slower, "faster", "slowest"),
    Meta.LOUDER: (SpeechPrefs.louder, "quieter", "loudest"), Meta.QUIETER: (SpeechPrefs.quieter, "louder", "quietest"),
}


class SettingNotSaved(OSError):
    """A setting changed by voice could not be saved; it lasts for this game only."""


@dataclass(frozen=True, slots=True)
class Say:
    words: str
    cues: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Adjust:
    """The voice's new rate and volume."""

    prefs: SpeechPrefs


@dataclass(frozen=True, slots=True)
class Keep:
    """Save a setting the player changed (name, value)."""

    name: str
    value: object


@dataclass(frozen=True, slots=True)
class Record:
    """Write the game's record: at its start, after a turn (what was heard), at its end."""

    moment: str  # "start", "turn" or "end"
    heard: str | None = None
    confidence: float | None = None


@dataclass(frozen=True, slots=True)
class StopSpeech:
    pass


@dataclass(frozen=True, slots=True)
class NewGame:
    """Start another game of the same kind (the player said yes to :data:`PLAY_AGAIN`)."""


Effect = Say | Adjust | Keep | Record | StopSpeech | NewGame


def rivalled(grammar: Grammar[C], intent: C | Meta, rival: str | None) -> bool:
    """Whether ``rival`` (:attr:`hbr.voice.recognizer.Heard.rival`) means something
    other than ``intent``, or nothing (a hesitation, "uh", that was read as "up"): then
    the command is asked back."""
    return bool(rival) and meaning(grammar, rival) != intent


@dataclass
class SessionCore(Generic[C]):
    """The session's decisions, as effects; it holds only the game and what was said."""

    game: Game[C]
    prefs: SpeechPrefs = field(default_factory=SpeechPrefs)
    confirm: str = "auto"
    opening_hint: str = "Say help at any time to hear what you can say."
    #: Said on quitting, before the game's closing words (e.g. how to resume), when ``resumable()``.
    quit_hint: str = ""
    resumable: Callable[[], bool] = lambda: True
    #: Whether another game is offered when one ends (:data:`PLAY_AGAIN`).
    again: bool = False
    #: The confidence below which what was heard by voice is unsure (asked back, or an
    #: answer with no question passed over): the recognizer's own (its ``sure``).
    sure: float = SURE
    last: str = ""
    quit: bool = False
    paused: bool = False
    #: A command or request heard by voice and asked back: (it, what was heard, confidence).
    pending: tuple[C | Meta, str, float | None] | None = field(default=None, init=False)
    #: The command the last utterance came near to without being understood (a near miss).
    missed: C | Meta | None = field(default=None, init=False)
    #: The game is over and :data:`PLAY_AGAIN` waits for its answer.
    offering: bool = field(default=False, init=False)

    def expected(self) -> frozenset[str] | None:
        """The only phrases to listen for now: the answers while a question waits, else
        those the game says make sense (None: all)."""
        return ANSWERS if self.pending is not None or self.offering else self.game.listening()

    @property
    def done(self) -> bool:
        return self.quit or (self.game.over and not self.offering)

    def _tell(self, reply: Reply) -> Say:
        self.last = reply.words
        return Say(reply.words, reply.cues)

    def start(self) -> list[Effect]:
        return [Record("start"), self._tell(Reply(f"{self.game.opening()} {self.opening_hint}"))]

    def begin(self, game: Game[C]) -> list[Effect]:
        """Another game, after a yes to :data:`PLAY_AGAIN`: started as the first was; the
        voice's settings carry over."""
        self.game, self.pending, self.missed, self.paused = game, None, None, False
        return self.start()

    def hear(self, text: str, confidence: float | None = None, rival: str | None = None) -> list[Effect]:
        """One typed line (``confidence`` None) or recognized phrase, and what follows.
        ``rival``: another phrase the recognizer found nearly as likely
        (:attr:`hbr.voice.recognizer.Heard.rival`): when it means something else, or
        nothing (:func:`rivalled`), the command is asked back however sure the recognizer
        was ("cat at three one south west" against "cat at three one steps south west": a
        jump or a step)."""
        self.missed = None
        if self.offering:
            return self._play_again(text)
        parsed = self.game.grammar.parse(text)
        if isinstance(parsed, NotUnderstood):
            return [Say(parsed.message)]
        intent = parsed.intent
        unsure = confidence is not None and self._must_confirm(confidence, rivalled(self.game.grammar, intent, rival))
        if intent is Meta.YES and self.pending is None and (stands := self.game.yes()) is not None:
            intent = cast(C, stands)  # the game's own question: "say confirm, or undo"
            text = self.game.spoken(intent)
        if isinstance(intent, Meta):
            if intent in ANSWER_INTENTS and self.pending is None and confidence is not None and confidence < self.sure:
                return []  # an unsure yes or no with nothing to answer: talk in the room, passed over in silence
            # by voice, quitting is always asked back, and a setting (or a long answer)
            # when unsure: a misheard word must never end the game or change what is saved
            if confidence is not None and (intent is Meta.QUIT or (intent in ASKED_WHEN_UNSURE and unsure)):
                return self._ask_back(intent, text, confidence)
            return self._meta(intent)
        if self.paused:
            return [Say(PAUSED)]
        self.pending = None
        if unsure:
            return self._ask_back(intent, text, confidence)
        return self._play(intent, text if confidence is not None else None, confidence)

    def near_miss(self, guess: str | None, confidence: float | None, words: str) -> list[Effect]:
        """An utterance heard close to a command but not surely (``guess``: the phrase it
        came nearest to, if the recognizer knows one; ``words``: what it decoded). The
        player is asked to say it again, or told what would do when the words are a
        mistake the game knows (:meth:`explain`); when it comes nearest to the same
        command again, right after, it is asked back instead ("Did you say north?"): a
        voice that the recognizer never hears surely still gets its command, and nothing
        is done without a yes. The same command, not the same phrase: "capture south
        east" is read "Catch yourself, East" one time and "Cut your South East" the
        next, nearest to "catch south east" and then to "capture south east". While a
        question waits, what is not understood as its answer (the command said again in
        place of yes or no, refused: hbr.voice.whisper) has the question asked again."""
        if self.pending is not None or self.offering:
            return [self._question()]  # not an answer: the question stands, asked again
        near = meaning(self.game.grammar, guess)
        again, self.missed = near is not None and near == self.missed, near
        if near is None or not again or near in ANSWER_INTENTS:
            return self.explain(words) or [Say(NOT_CAUGHT)]
        if self.paused and not isinstance(near, Meta):
            return [Say(PAUSED)]
        self.missed = None
        return self._ask_back(near, guess or "", confidence)

    def explain(self, words: str) -> list[Effect]:
        """Words the recognizer took for no command that the game's grammar knows as a
        mistake (:attr:`NotUnderstood.known`: "capture west", a net thrown along a side):
        what would do, as typed words get it. Anything else is nothing to answer (talk
        in the room is passed over), and nothing is said while a question waits."""
        parsed = self.game.grammar.parse(words) if words.strip() and self.pending is None and not self.offering else None
        return [Say(parsed.message)] if isinstance(parsed, NotUnderstood) and parsed.known else []

    def _ask_back(self, intent: C | Meta, text: str, confidence: float | None) -> list[Effect]:
        self.pending = (intent, text, confidence)
        return [self._question()]

    def _question(self) -> Say:
        """The question that waits: what was heard, asked back, or :data:`PLAY_AGAIN`."""
        if self.pending is None:
            return Say(PLAY_AGAIN)
        intent, text, _ = self.pending
        spoken = text if isinstance(intent, Meta) else self.game.spoken(intent)
        return Say(f"Did you say {spoken}? Say yes or no.")

    def _must_confirm(self, confidence: float, rivalled: bool = False) -> bool:
        return self.confirm == "always" or (self.confirm == "auto" and (confidence < self.sure or rivalled))

    def _play(self, command: C, heard: str | None, confidence: float | None) -> list[Effect]:
        reply = self.game.act(command)
        # recorded before it is told: what the player heard is never lost
        effects: list[Effect] = [Record("turn", heard, confidence), self._tell(reply)]
        if self.game.over:
            effects += [Say(self.game.closing()), Record("end")]
            if self.again:
                self.offering = True
                effects.append(self._tell(Reply(PLAY_AGAIN)))
        return effects

    def _play_again(self, text: str) -> list[Effect]:
        """The answer to :data:`PLAY_AGAIN`: yes starts another game, no (or quit) ends;
        anything else asks again (by voice only yes and no are listened for)."""
        intent = meaning(self.game.grammar, text)
        if intent is Meta.YES:
            self.offering = False
            return [NewGame()]
        if intent in (Meta.NO, Meta.QUIT):
            self.offering = False
            return [Say("Thank you for playing. Goodbye.")]
        if intent is Meta.STOP:
            return [StopSpeech()]
        return [self._question()]

    def _meta(self, meta: Meta) -> list[Effect]:
        pending, self.pending = self.pending, None
        match meta:
            case Meta.YES if pending is not None:
                command, heard, confidence = pending
                if isinstance(command, Meta):
                    return self._meta(command)
                return self._play(command, heard, confidence)
            case Meta.NO if pending is not None:
                return [Say("Then say your command again.")]
            case Meta.YES | Meta.NO:
                return [Say("There is nothing to answer yes or no to right now.")]
            case Meta.REPEAT:
                self.pending = pending
                return [Say(self.last or "Nothing has been said yet.")]
            case Meta.PAUSE:
                self.paused = True
                return [Say("Paused. Say resume to go on.")]
            case Meta.RESUME:
                self.paused = False
                return [Say("Resumed. " + (self.last or ""))]
            case Meta.FASTER | Meta.SLOWER | Meta.LOUDER | Meta.QUIETER:
                return self._voice(meta)
            case Meta.VERBOSE | Meta.BRIEF:
                return self._detail(+1 if meta is Meta.VERBOSE else -1)
            case Meta.QUIT:
                self.quit = True
                hint = self.quit_hint if self.resumable() else ""  # else the hint would be false
                return [Say(" ".join(part for part in ("You quit.", hint, self.game.closing()) if part)), Record("end")]
            case Meta.STOP:
                return [StopSpeech()]
            case _ if meta in GAME_ANSWERS:
                return [Say(self.game.answer(meta))]
        return []

    def _voice(self, meta: Meta) -> list[Effect]:
        """One step of the voice's rate or volume, said with the word that undoes it; at
        a limit, said so and nothing changed."""
        step, undo, limit = VOICE_STEPS[meta]
        before, self.prefs = self.prefs, step(self.prefs)
        rate = meta in (Meta.FASTER, Meta.SLOWER)
        now = f"{self.prefs.rate} words a minute" if rate else f"Volume {round(self.prefs.volume * 100)} percent"
        if self.prefs == before:
            return [Say(f"{now} is already the {limit}.")]
        setting = Keep("rate", self.prefs.rate) if rate else Keep("volume", self.prefs.volume)
        return [Adjust(self.prefs), setting, Say(f"{f'{meta.value.capitalize()}: ' if rate else ''}{now}. Say {undo} to undo.")]

    def _detail(self, step: int) -> list[Effect]:
        """"more detail" and "brief" go one level up or down (brief, normal, verbose), so
        that each undoes the other."""
        at = DETAIL_LEVELS.index(self.game.detail)
        to = min(max(at + step, 0), len(DETAIL_LEVELS) - 1)
        if to == at:
            return [Say("Already brief." if step < 0 else "Already the most detail.")]
        self.game.detail = DETAIL_LEVELS[to]
        words = {"brief": "Brief from now on.", "normal": "Normal detail from now on.",
                 "verbose": "More detail from now on."}[self.game.detail]
        undo = "brief" if step > 0 else "more detail"
        return [Keep("detail", self.game.detail), Say(f"{words} Say {undo} to undo.")]

    def end_of_input(self) -> list[Effect]:
        """Nothing more will be typed or heard: stop cleanly, telling how the game stands
        (a game over, another offered: nothing more to tell)."""
        if self.offering:
            self.offering = False
            return []
        return [Say("End of input. The game stops here. " + self.game.closing()), Record("end")]


class Session(Generic[C]):
    """The shell around a :class:`SessionCore`: it carries out the effects with a
    speaker, the game's journal and the settings file."""

    def __init__(
        self,
        game: Game[C],
        speaker: Speaker,
        confirm: str = "auto",
        opening_hint: str = "Say help at any time to hear what you can say.",
        quit_hint: str = "",
        journal: Journal | None = None,
        changed: Callable[[str, object], str | None] = lambda name, value: None,
        next_game: Callable[[], tuple[Game[C], Journal | None]] | None = None,
        sure: float = SURE,
    ) -> None:
        """``changed(name, value)`` saves a setting the player changed by voice; it may
        return a sentence to say (the settings file had to be kept aside).
        ``next_game()``: another game and its journal, when the player wants to play again
        (None: none is offered). ``sure``: the recognizer's bar (:attr:`SessionCore.sure`)."""
        self.speaker = speaker
        self.journal = journal
        self.changed = changed
        self.next_game = next_game
        self.core = SessionCore(
            game, SpeechPrefs(speaker.rate, speaker.volume), confirm, opening_hint, quit_hint,
            lambda: self.journal is None or self.journal.save is not None, next_game is not None, sure,
        )

    @property
    def game(self) -> Game[C]:
        return self.core.game

    @property
    def done(self) -> bool:
        return self.core.done

    def expected(self) -> frozenset[str] | None:
        return self.core.expected()

    def say(self, words: str) -> None:
        self.speaker.say(words)

    def start(self) -> None:
        self.carry_out(self.core.start())

    def hear(self, text: str, confidence: float | None = None, rival: str | None = None) -> None:
        self.carry_out(self.core.hear(text, confidence, rival))

    def near_miss(self, guess: str | None, confidence: float | None, words: str) -> None:
        self.carry_out(self.core.near_miss(guess, confidence, words))

    def explain(self, words: str) -> bool:
        """Whether the words were a mistake the game knows, and what would do was said."""
        effects = self.core.explain(words)
        self.carry_out(effects)
        return bool(effects)

    def end_of_input(self) -> None:
        self.carry_out(self.core.end_of_input())

    def run(self, lines: Iterable[str]) -> None:
        """Play from an iterable of lines until the game ends or the lines run out."""
        self.start()
        for line in lines:
            self.hear(line)
            if self.done:
                return
        if not self.done:
            self.end_of_input()

    def carry_out(self, effects: list[Effect]) -> None:
        for effect in effects:
            match effect:
                case Say(words, cues):
                    self.speaker.say(words, cues)
                case Adjust(prefs):
                    self.speaker.adjust(rate=prefs.rate, volume=prefs.volume)
                case Keep(name, value):
                    self._keep(name, value)
                case Record(moment, heard, confidence) if self.journal is not None:
                    if moment == "start":
                        self.journal.started(self.game)
                    elif moment == "turn":
                        self.journal.turn(self.game, heard, confidence)
                    else:
                        self.journal.ended(self.game)
                case StopSpeech():
                    self.speaker.stop()
                case NewGame() if self.next_game is not None:
                    game, self.journal = self.next_game()
                    self.carry_out(self.core.begin(game))

    def _keep(self, name: str, value: object) -> None:
        """Save a setting changed by voice; if it cannot be, say so: it still holds now."""
        try:
            note = self.changed(name, value)
            if note:
                self.speaker.say(note)
        except SettingNotSaved as err:
            self.speaker.say(f"That change lasts for this game only: it could not be saved ({err}).")
