"""What every game's command grammar shares: words in, an intent or a reason out.

Typed and spoken input go through the same ``parse``; a recognizer is restricted
to ``phrases()``, the exact word sequences the grammar accepts by voice. Parsing
fails the python-chess way, with a typed result that says why, so the session can
answer "I didn't catch that" or "did you mean ...?" without guessing.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar


class Meta(enum.Enum):
    """Requests to the session itself; they never use a turn."""

    HELP = "help"
    HELP_MORE = "help more"
    RULES = "rules"
    REPEAT = "repeat"
    RECAP = "recap"
    WHERE = "where am i"
    REVEAL = "reveal"
    YES = "yes"
    NO = "no"
    STOP = "stop"
    PAUSE = "pause"
    RESUME = "resume"
    FASTER = "faster"
    SLOWER = "slower"
    LOUDER = "louder"
    QUIETER = "quieter"
    VERBOSE = "verbose"
    BRIEF = "brief"
    QUIT = "quit"


#: Spoken forms of the meta requests (typed input accepts these too). Every word is
#: in the recognizers' dictionaries ("verbose" is not: say "more detail").
META_PHRASES: dict[str, Meta] = {
    "help": Meta.HELP,
    "help more": Meta.HELP_MORE,
    "more help": Meta.HELP_MORE,
    "rules": Meta.RULES,
    "repeat": Meta.REPEAT,
    "say again": Meta.REPEAT,
    "recap": Meta.RECAP,
    "my moves": Meta.RECAP,
    "where am i": Meta.WHERE,
    "reveal": Meta.REVEAL,
    "yes": Meta.YES,
    "no": Meta.NO,
    "stop": Meta.STOP,
    "pause": Meta.PAUSE,
    "resume": Meta.RESUME,
    "faster": Meta.FASTER,
    "slower": Meta.SLOWER,
    "louder": Meta.LOUDER,
    "quieter": Meta.QUIETER,
    "more detail": Meta.VERBOSE,
    "brief": Meta.BRIEF,
    "quit": Meta.QUIT,
}

#: The answers to a question ("Did you say north?"), and their spoken words: while one
#: waits, nothing else is taken, so that "no" cannot be heard as "down".
ANSWER_INTENTS = (Meta.YES, Meta.NO)
ANSWERS = frozenset(p for p, meta in META_PHRASES.items() if meta in ANSWER_INTENTS)

#: Typed-only shortcuts for the meta requests.
META_SHORTHANDS: dict[str, Meta] = {
    "?": Meta.HELP,
    "h": Meta.HELP,
    "q": Meta.QUIT,
    "exit": Meta.QUIT,
    "y": Meta.YES,
    "verbose": Meta.VERBOSE,
    "where": Meta.WHERE,
}


C = TypeVar("C", covariant=True)


@dataclass(frozen=True, slots=True)
class Understood(Generic[C]):
    """``intent`` is a game command (of type ``C``) or a :class:`Meta`; ``text`` is what was said."""

    intent: C | Meta
    text: str


@dataclass(frozen=True, slots=True)
class NotUnderstood:
    """``message`` is a short sentence for the player saying what went wrong.

    ``known``: the words are all the game's own, put together in a way it does not take
    (a net thrown north: "capture north"), and ``message`` says what would do. Typed,
    every message is shown; by voice, the recognizer takes such words for no command
    (they are not among ``phrases()``), and only a known mistake is answered, so that a
    player who says "capture west" hears why, while other talk is passed over."""

    text: str
    message: str
    known: bool = False


class Grammar(Protocol[C]):
    """A game's command language, for commands of type ``C``."""

    def phrases(self) -> list[str]:
        """Every spoken phrase the grammar accepts, lower case, words separated by spaces."""
        ...

    def check_aliases(self) -> list[str]:
        """Problems with the player's own words (the aliases setting), as sentences;
        the broken ones are dropped."""
        ...

    def parse(self, text: str) -> Understood[C] | NotUnderstood:
        """Read typed or recognized text."""
        ...


def meaning(grammar: Grammar[C], text: str | None) -> C | Meta | None:
    """What ``grammar`` makes of ``text``: its command or request; None where it is no
    text or not understood."""
    parsed = grammar.parse(text) if text else None
    return parsed.intent if isinstance(parsed, Understood) else None


def words(text: str) -> list[str]:
    """Lower-case words of ``text``; punctuation is dropped, a lone ``?`` kept."""
    text = text.strip().lower()
    if text == "?":
        return ["?"]
    return re.findall(r"[a-z]+", text)


def parse_meta(tokens: list[str]) -> Meta | None:
    joined = " ".join(tokens)
    return META_PHRASES.get(joined) or META_SHORTHANDS.get(joined)


def canonical(intent: object) -> str:
    """The canonical text of an intent: a command's own text, or the meta word."""
    return intent.value if isinstance(intent, Meta) else str(intent)
