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
#: Another word a hunter may say for an action's: "backward" for "back" (a word people
#: say for it: Speech Commands, the real recordings of ../shared/speech-dev, has it).
SAID_ALSO = {"back": "backward"}
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


def _tokens(text: str, pairs: frozenset[str]) -> list[str]:
    """Words and single digits ("67", as a recognizer may write "six seven", is 6 and 7);
    ``pairs``: the two-word names of one action or direction ("turn left")."""
    out: list[str] = []
    for token in re.findall(r"[a-z]+|\d", text.lower()):
        out.extend(_TYPED.get(token, (token,)))
    out = [t for t in out if t not in ("and", "then", "the", "please", "a")]
    return _repeated(out, pairs)


def _repeated(tokens: list[str], pairs: frozenset[str]) -> list[str]:
    """ "forward two times" (or typed "twice") as "forward forward", "turn left three
    times" as three turns, "north east two times" (diagonal) as two steps north east."""
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
        last = tokens[i : i + 2] if " ".join(tokens[i : i + 2]) in pairs else [word]
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
    """The language of one side (``side``), or of both (None, for `hbr recognize`);
    with ``diagonal`` (the variant), also the diagonal steps ("forward left", "north
    east"), which otherwise are read as two steps."""

    def __init__(self, side: Side | None = None, diagonal: bool = False) -> None:
        self.side = side
        self.actions = {a.value: a for a in Action if diagonal or not a.is_diagonal}
        self.headings = {h.word: h for h in Heading if diagonal or not h.diagonal}
        self._pairs = frozenset(w for w in [*self.actions, *self.headings] if " " in w)

    def check_aliases(self) -> list[str]:
        return []  # the player's own words are Hunter Bear Rabbit's for now

    def phrases(self) -> list[str]:
        spoken: list[str] = []
        if self.side in (None, Side.HUNTER):
            acts = [*self.actions, *(f"{word} {times}" for word, times in product(self.actions, TIMES) if word != "shoot")]
            spoken += acts
            spoken += [" ".join(SAID_ALSO.get(w, w) for w in act.split()) for act in acts
                       if any(w in SAID_ALSO for w in act.split())]
        if self.side in (None, Side.SPY):
            spoken += list(self.headings)
            spoken += [f"{word} {times}" for word, times in product(self.headings, TIMES)]
            spoken += [f"go to {x} {y}" for x, y in product(NUMBER_WORDS, repeat=2)]
            spoken.append("stay here")
        spoken += [p for p, w in WORD_PHRASES.items() if w is not Word.STAY]
        spoken += list(META_PHRASES)
        return list(dict.fromkeys(spoken))

    def parse(self, text: str) -> Understood[Command] | NotUnderstood:
        tokens = _tokens(text, self._pairs)
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
            if numbers is None or len(numbers) != 2:  # known, by voice too, when a number was said
                return NotUnderstood(text, "Say go to, then the column and the row, like go to 6 7.", bool(numbers))
            return Understood(GoTo(Point(*numbers)), text)
        actions = _sequence(tokens, dict(self.actions))
        if actions is not None:
            return Understood(Actions(tuple(a for a in actions if isinstance(a, Action))), text)
        headings = _sequence(tokens, dict(self.headings))
        if headings is not None:
            return Understood(Path(tuple(h for h in headings if isinstance(h, Heading))), text)
        if self.side is Side.SPY:
            return NotUnderstood(text, "I didn't catch that. Say a direction like north, or north two times, or go to 6 7.")
        return NotUnderstood(text, "I didn't catch that. Say actions like forward, turn left, or shoot.")

