"""What a Spyhunting player may say or type, and what it means.

Spoken, the hunter says one action at a time, or one repeated ("forward", "turn
left", "forward two times", "back three times", "shoot"); the spy one direction at a
time, or repeated ("north two times"), or a point to go to ("go to 6 7", column then
row). One action an utterance, because Whisper, given a short word, often writes
it again ("Forward, forward."): with runs of actions as phrases, "forward" would
be heard as two steps. Points are named by numbers, which a recognizer tells apart
far better than letters. Typed input takes any number of actions or directions in
one line ("f f tl s"), digits, and a few shorthands (f, b, l, r, tl, tr, s).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from itertools import product

from hbr.games.spyhunting.state import Action, Heading, Point, Side
from hbr.grammar import META_PHRASES, NotUnderstood, Understood, parse_meta, words

NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
#: "forward two times": an action or direction said with how many times ("twice" was
#: often not written by Whisper at all: one step heard for two).
TIMES = {"two times": 2, "three times": 3}
ACTION_WORDS: dict[str, Action] = {a.value: a for a in Action}
HEADING_WORDS: dict[str, Heading] = {h.word: h for h in Heading}
_TYPED: dict[str, tuple[str, ...]] = {
    "f": ("forward",), "b": ("back",), "l": ("left",), "r": ("right",), "tl": ("turn", "left"),
    "tr": ("turn", "right"), "s": ("shoot",), "fire": ("shoot",), "backward": ("back",), "backwards": ("back",),
    "forwards": ("forward",), "n": ("north",), "e": ("east",), "w": ("west",), "south": ("south",),
    **{str(i): (w,) for i, w in enumerate(NUMBER_WORDS, 1)},
}


@dataclass(frozen=True, slots=True)
class Actions:
    """Hunter actions, in order."""

    actions: tuple[Action, ...]

    def __str__(self) -> str:
        return " ".join(a.value for a in self.actions)


@dataclass(frozen=True, slots=True)
class Path:
    """Spy steps, in order."""

    headings: tuple[Heading, ...]

    def __str__(self) -> str:
        return " ".join(h.word for h in self.headings)


@dataclass(frozen=True, slots=True)
class GoTo:
    """The spy's move to a point, by the shortest way that fits the dice."""

    point: Point

    def __str__(self) -> str:
        return f"go to {self.point.x} {self.point.y}"


class Word(enum.Enum):
    """The game's own requests and answers; none of them is a move."""

    CONFIRM = "confirm"
    UNDO = "undo"
    CLEAR = "start again"
    PLAN = "read my plan"
    DICE = "dice"
    OTHER = "where is the spy"  # or "where is the hunter": where the other token is
    STAY = "stay here"

    def __str__(self) -> str:
        return self.value


WORD_PHRASES: dict[str, Word] = {
    "confirm": Word.CONFIRM, "undo": Word.UNDO, "start again": Word.CLEAR, "read my plan": Word.PLAN,
    "my plan": Word.PLAN, "dice": Word.DICE, "where is the spy": Word.OTHER, "where is the hunter": Word.OTHER,
    "stay here": Word.STAY,
}

Command = Actions | Path | GoTo | Word


def _tokens(text: str) -> list[str]:
    """Words and single digits ("67", as a recognizer may write "six seven", is 6 and 7)."""
    out: list[str] = []
    for token in re.findall(r"[a-z]+|\d", text.lower()):
        out.extend(_TYPED.get(token, (token,)))
    out = [t for t in out if t not in ("and", "then", "the", "please", "a")]
    return _repeated(out)


def _repeated(tokens: list[str]) -> list[str]:
    """ "forward two times" (or typed "twice") as "forward forward", "turn left three times" as three turns."""
    out: list[str] = []
    last: list[str] = []
    i = 0
    while i < len(tokens):
        word = tokens[i]
        count = 2 if word == "twice" else TIMES.get(" ".join(tokens[i : i + 2]), 0)
        if count and last:
            out += last * (count - 1)
            last = []
            i += 1 if word == "twice" else 2
            continue
        last = tokens[i : i + 2] if tokens[i] == "turn" else [word]
        out += last
        i += len(last)
    return out


def _numbers(tokens: list[str]) -> list[int] | None:
    values = [NUMBER_WORDS.index(t) + 1 for t in tokens if t in NUMBER_WORDS]
    return values if len(values) == len(tokens) else None


def _sequence(tokens: list[str], table: dict[str, object]) -> list[object] | None:
    """Read tokens as a run of table entries (longest first: "turn left" before "left")."""
    found: list[object] = []
    i = 0
    while i < len(tokens):
        two = " ".join(tokens[i : i + 2])
        if two in table:
            found.append(table[two])
            i += 2
        elif tokens[i] in table:
            found.append(table[tokens[i]])
            i += 1
        else:
            return None
    return found or None


class SpyGrammar:
    """The language of one side (``side``), or of both (None, for `hbr recognize`)."""

    def __init__(self, side: Side | None = None) -> None:
        self.side = side

    def check_aliases(self) -> list[str]:
        return []  # the player's own words are Hunter Bear Rabbit's for now

    def phrases(self) -> list[str]:
        spoken: list[str] = []
        if self.side in (None, Side.HUNTER):
            spoken += [a.value for a in Action]
            spoken += [f"{a.value} {times}" for a, times in product(Action, TIMES) if a is not Action.SHOOT]
        if self.side in (None, Side.SPY):
            spoken += [h.word for h in Heading]
            spoken += [f"{h.word} {times}" for h, times in product(Heading, TIMES)]
            spoken += [f"go to {x} {y}" for x, y in product(NUMBER_WORDS, repeat=2)]
            spoken.append("stay here")
        spoken += [p for p, w in WORD_PHRASES.items() if w is not Word.STAY]
        spoken += list(META_PHRASES)
        return list(dict.fromkeys(spoken))

    def parse(self, text: str) -> Understood[Command] | NotUnderstood:
        tokens = _tokens(text)
        meta = parse_meta(words(text))
        if meta is not None:
            return Understood(meta, text)
        said = " ".join(words(text))
        if said in WORD_PHRASES:
            return Understood(WORD_PHRASES[said], text)
        if not tokens:
            return NotUnderstood(text, "I didn't catch that. Say help to hear what you can say.")
        if tokens[:2] == ["go", "to"] or tokens[:1] == ["to"]:
            numbers = _numbers(tokens[2:] if tokens[0] == "go" else tokens[1:])
            if numbers is None or len(numbers) != 2:
                return NotUnderstood(text, "Say go to, then the column and the row, like go to 6 7.")
            return Understood(GoTo(Point(*numbers)), text)
        actions = _sequence(tokens, dict(ACTION_WORDS))
        if actions is not None:
            return Understood(Actions(tuple(a for a in actions if isinstance(a, Action))), text)
        headings = _sequence(tokens, dict(HEADING_WORDS))
        if headings is not None:
            return Understood(Path(tuple(h for h in headings if isinstance(h, Heading))), text)
        if self.side is Side.SPY:
            return NotUnderstood(text, "I didn't catch that. Say a direction like north, or north two times, or go to 6 7.")
        return NotUnderstood(text, "I didn't catch that. Say actions like forward, turn left, or shoot.")

