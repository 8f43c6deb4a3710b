"""What a Jumpers player may say or type.

A move is the piece, where it stands, and the way it goes: "cat at three two jumps
north east", "frog at three one steps east", or without the place when only one piece
of that kind can go that way ("hare north west"). Without "jumps" or "steps" a piece
jumps (for a frog on the ground the two are the same). Cells are named by numbers,
row then place in the row from the west, which a recognizer tells apart far better
than letters. Questions: "describe", "what is at four two", "my pieces", "their
pieces", "moves for the frog at three two", "threats", "last move".
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product

from hbr.games.jumpers.state import CELLS, Direction, Kind, name
from hbr.grammar import META_PHRASES, NotUnderstood, Understood, parse_meta, words

NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven")
KIND_WORDS = {k.word: k for k in Kind}
DIRECTION_WORDS = {d.words: d for d in Direction}
_DIGITS = {str(i): w for i, w in enumerate(NUMBER_WORDS, 1)}
_TYPED = {"ne": "north east", "nw": "north west", "se": "south east", "sw": "south west", "e": "east", "w": "west",
          "jump": "jumps", "step": "steps", "frogs": "frog", "cats": "cat", "hares": "hare"}


@dataclass(frozen=True, slots=True)
class Order:
    """A move as said: the kind, its place (row, place) if said, the way, and jump or step (None: jump)."""

    kind: Kind
    at: tuple[int, int] | None
    direction: Direction
    jump: bool | None

    def __str__(self) -> str:
        where = f" at {self.at[0]} {self.at[1]}" if self.at else ""
        verb = "" if self.jump is None else (" jumps" if self.jump else " steps")
        return f"{self.kind.word}{where}{verb} {self.direction.words}"


@dataclass(frozen=True, slots=True)
class Ask:
    """A question that uses no turn; ``at`` for "what is at", and the piece for "moves for"."""

    what: Question
    at: tuple[int, int] | None = None
    kind: Kind | None = None

    def __str__(self) -> str:
        if self.what is Question.AT and self.at:
            return f"what is at {self.at[0]} {self.at[1]}"
        if self.what is Question.MOVES and self.kind and self.at:
            return f"moves for the {self.kind.word} at {self.at[0]} {self.at[1]}"
        return self.what.value


class Question(enum.Enum):
    DESCRIBE = "describe"
    AT = "what is at"
    MINE = "my pieces"
    THEIRS = "their pieces"
    MOVES = "moves for"
    THREATS = "threats"
    LAST = "last move"
    PASS = "pass"


@dataclass(frozen=True, slots=True)
class Place:
    """A cell alone ("one two"): the answer to "which hare?", a short phrase a recognizer hears well."""

    at: tuple[int, int]

    def __str__(self) -> str:
        return f"{self.at[0]} {self.at[1]}"


Command = Order | Ask | Place


def place_words(at: tuple[int, int]) -> str:
    """A cell's name as said: (3, 2) is "three two"."""
    return f"{NUMBER_WORDS[at[0] - 1]} {NUMBER_WORDS[at[1] - 1]}"


def spoken_phrases(pieces: Iterable[tuple[Kind, tuple[int, int]]], places: bool) -> list[str]:
    """What may be said: moves and "moves for" of the ``pieces`` (a kind and where it
    stands), every other question, and a cell alone (the answer to "which hare?") when
    ``places``."""
    cells = [place_words(name(c)) for c in CELLS]
    said = [(kind.word, place_words(at)) for kind, at in pieces]
    spoken = [f"{k} {d}" for k, d in product(KIND_WORDS, DIRECTION_WORDS)]
    spoken += [f"{k} at {p} {verb}{d}" for (k, p), verb, d in product(said, ("", "jumps ", "steps "), DIRECTION_WORDS)]
    spoken += [f"what is at {p}" for p in cells]
    spoken += cells if places else []
    spoken += [f"moves for the {k} at {p}" for k, p in said]
    spoken += [q.value for q in Question if q not in (Question.AT, Question.MOVES)]
    spoken += list(META_PHRASES)
    return list(dict.fromkeys(spoken))


class JumpersGrammar:
    def check_aliases(self) -> list[str]:
        return []

    def phrases(self) -> list[str]:
        return spoken_phrases(product(Kind, (name(c) for c in CELLS)), places=True)

    def parse(self, text: str) -> Understood[Command] | NotUnderstood:
        meta = parse_meta(words(text))
        if meta is not None:
            return Understood(meta, text)
        said = _normal(text)
        for question in Question:
            if said == question.value and question not in (Question.AT, Question.MOVES):
                return Understood(Ask(question), text)
        m = re.fullmatch(r"(\w+) (\w+)", said)
        cell = _place(m.group(1), m.group(2)) if m else None
        if cell is not None:
            return Understood(Place(cell), text)
        m = re.fullmatch(r"what is at (\w+) (\w+)", said)
        if m:
            at = _place(m.group(1), m.group(2))
            return Understood(Ask(Question.AT, at), text) if at else _bad(text)
        m = re.fullmatch(r"moves for (?:the )?(frog|cat|hare) at (\w+) (\w+)", said)
        if m:
            at = _place(m.group(2), m.group(3))
            return Understood(Ask(Question.MOVES, at, KIND_WORDS[m.group(1)]), text) if at else _bad(text)
        m = re.fullmatch(r"(frog|cat|hare)(?: at (\w+) (\w+))?(?: (jumps|steps))? (.+)", said)
        if m and m.group(5) in DIRECTION_WORDS:
            at = _place(m.group(2), m.group(3)) if m.group(2) else None
            if m.group(2) and at is None:
                return _bad(text)
            jump = None if m.group(4) is None else m.group(4) == "jumps"
            return Understood(Order(KIND_WORDS[m.group(1)], at, DIRECTION_WORDS[m.group(5)], jump), text)
        # a piece and where it stands, or how it goes, but no way: a mistake the game knows, by voice too
        known = re.fullmatch(r"(frog|cat|hare)(?: at (\w+) (\w+)(?: (jumps|steps))?| (jumps|steps))", said)
        return _bad(text, known is not None and (known.group(2) is None or _place(known.group(2), known.group(3)) is not None))


def _normal(text: str) -> str:
    tokens = [_DIGITS.get(t, _TYPED.get(t, t)) for t in re.findall(r"[a-z]+|\d", text.lower())]
    joined = " ".join(tokens).replace("northeast", "north east").replace("northwest", "north west")
    return joined.replace("southeast", "south east").replace("southwest", "south west")


def _place(row: str, place: str) -> tuple[int, int] | None:
    if row in NUMBER_WORDS and place in NUMBER_WORDS:
        return NUMBER_WORDS.index(row) + 1, NUMBER_WORDS.index(place) + 1
    return None


def _bad(text: str, known: bool = False) -> NotUnderstood:
    """``known``: a piece was said, and where it stands or how it goes, but no way."""
    start = "Which way? " if known else "I didn't catch that. "
    return NotUnderstood(text, f"{start}Say a piece and a way, like cat at three two jumps north east, or say describe.", known)
