"""What a Rabbit Hunt player may say or type.

A spot is its row and place, "four five" (row 4 from the south, place 5 from the
west; the barn is five five, or "the barn"): numbers a recognizer tells apart far
better than letters. Plant: "plant a rabbit at four four", "plant a ladder at six
three". Actions: "draw a card", "take a carrot", "go to three five", "peek at
yellow" (or "look at yellow"). Questions, which use no turn: "describe", "what is at four four", "my hand",
"my cards", "where did yellow plant", "where can i plant", "score", "farmers", "last turn".
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product

from hbr.games.rabbithunt.engine import Action, Go, Move, Peek, Plant
from hbr.games.rabbithunt.state import BARN, COLOURS, SIZE, Kind, Spot
from hbr.grammar import META_PHRASES, NotUnderstood, Understood, parse_meta

NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
KIND_WORDS = {k.value: k for k in Kind}
_DIGITS = {str(i): w for i, w in enumerate(NUMBER_WORDS, 1)}
#: Typed (and now and then recognized) words read as the grammar's own.
_TYPED = {"carrots": "carrot", "patch": "carrot_patch", "seeds": "seed_bag", "bag": "seed_bag", "rabbits": "rabbit",
          "fields": "field", "ladders": "ladder", "hide": "plant", "put": "plant", "play": "plant", "walk": "go",
          "move": "go", "gray": "grey", "peak": "peek"}
_FILLER = frozenset({"a", "an", "the", "my", "s", "card", "to", "at", "on", "please"})


class Question(enum.Enum):
    DESCRIBE = "describe"
    AT = "what is at"
    HAND = "my hand"
    MINE = "my cards"
    OPEN = "where can i plant"
    SCORE = "score"
    FARMERS = "farmers"
    LAST = "last turn"
    PLANTED = "where did"  # where did yellow plant: that farmer's face-down cards


@dataclass(frozen=True, slots=True)
class Ask:
    """A question that uses no turn; ``at`` for "what is at", ``who`` for "where did yellow plant"."""

    what: Question
    at: Spot | None = None
    who: int | None = None

    def __str__(self) -> str:
        if self.what is Question.AT and self.at:
            return f"what is at {self.at[0]} {self.at[1]}"
        if self.what is Question.PLANTED and self.who is not None:
            return f"where did {COLOURS[self.who]} plant"
        return self.what.value


Command = Move | Ask
#: Questions said with more words than their own (a spot, a colour).
_WITH_WORDS = (Question.AT, Question.PLANTED)


def spot_words(spot: Spot) -> str:
    """A spot as said: (4, 5) is "four five"."""
    return f"{NUMBER_WORDS[spot[0] - 1]} {NUMBER_WORDS[spot[1] - 1]}"


ALL_SPOTS: tuple[Spot, ...] = tuple(product(range(1, SIZE + 1), range(1, SIZE + 1)))


def spoken_phrases(
    kinds: Iterable[Kind], open_spots: Iterable[Spot], goes: Iterable[Spot], players: int, acting: bool = True
) -> list[str]:
    """What may be said in a game of ``players``: planting each of ``kinds`` on each of
    ``open_spots``, going to each of ``goes``; when ``acting``, the other actions and
    looking at each other farmer's hand; and every question."""
    goes = list(goes)
    others = COLOURS[1:players]
    spoken = [f"plant a {k.value} at {spot_words(s)}" for k, s in product(kinds, open_spots)]
    spoken += [f"go to {spot_words(s)}" for s in goes]
    spoken += ["go to the barn", "go back to the barn"] if BARN in goes else []
    spoken += [a.value for a in Action] + ["draw"] if acting else []
    spoken += [f"{verb} at {c}" for verb in ("peek", "look") for c in others] if acting else []
    spoken += [f"what is at {spot_words(s)}" for s in ALL_SPOTS]
    spoken += [f"where did {c} plant" for c in others]
    spoken += [q.value for q in Question if q not in _WITH_WORDS]
    spoken += list(META_PHRASES)
    return list(dict.fromkeys(spoken))


class RabbitGrammar:
    def check_aliases(self) -> list[str]:
        return []

    def phrases(self) -> list[str]:
        return spoken_phrases(Kind, ALL_SPOTS, ALL_SPOTS, len(COLOURS))

    def parse(self, text: str) -> Understood[Command] | NotUnderstood:
        tokens = _tokens(text)
        meta = parse_meta(tokens)
        if meta is not None:
            return Understood(meta, text)
        said = " ".join(tokens)
        for question in Question:
            if said == question.value and question not in _WITH_WORDS:
                return Understood(Ask(question), text)
        words = " ".join(t for t in tokens if t not in _FILLER)
        if (m := re.fullmatch(r"where did (\w+) plant", said)) and m.group(1) in COLOURS:
            return Understood(Ask(Question.PLANTED, who=COLOURS.index(m.group(1))), text)
        if (m := re.fullmatch(r"(\w+) s? ?cards", said)) and m.group(1) in COLOURS:  # typed: "yellow's cards"
            return Understood(Ask(Question.PLANTED, who=COLOURS.index(m.group(1))), text)
        if m := re.fullmatch(r"what is (\w+) (\w+)", words):
            spot = _spot(m.group(1), m.group(2))
            return Understood(Ask(Question.AT, spot), text) if spot else _bad(text)
        if m := re.fullmatch(r"plant (.+?)(?: (\w+) (\w+))?", words):
            kind = KIND_WORDS.get(m.group(1))
            spot = _spot(m.group(2), m.group(3)) if m.group(2) else None
            if kind is not None and spot is not None:
                return Understood(Plant(kind, spot), text)
            if kind is not None and m.group(2) is None:
                return _bad(text, f"Where? Say plant a {kind.value} at a spot, like four four, or where can i plant.")
            named = m.group(1).split()
            if m.group(2) is None and len(named) == 2 and (spot := _spot(named[0], named[1])):
                return _bad(text, f"Which card? Say plant a field at {spot_words(spot)}, or my hand.")
        if re.fullmatch(r"go (?:back )?barn", words):
            return Understood(Go(BARN), text)
        if m := re.fullmatch(r"go(?: (\w+) (\w+))?", words):
            spot = _spot(m.group(1), m.group(2)) if m.group(1) else None
            if spot is not None:
                return Understood(Go(spot), text)
            if m.group(1) is None:
                return _bad(text, "Go where? Say go to and a spot, like go to four four, or go to the barn.")
        if words in ("draw", "draw card"):
            return Understood(Action.DRAW, text)
        if words in ("take carrot", "carrot"):
            return Understood(Action.CARROT, text)
        if m := re.fullmatch(r"(?:peek|look)(?: (\w+))?(?: hand)?", words):
            if m.group(1) in COLOURS:
                return Understood(Peek(COLOURS.index(m.group(1))), text)
            if m.group(1) is None:
                return _bad(text, "Whose hand? Say peek at and a colour, like peek at yellow.")
        return _bad(text)


def _tokens(text: str) -> list[str]:
    raw = re.findall(r"[a-z]+|\d", text.lower().replace("'s", " s"))
    joined = " ".join(_DIGITS.get(t, t) for t in raw)
    joined = re.sub(r"\bcarrot patch(?:es)?\b", "carrot_patch", joined)
    joined = re.sub(r"\bseed bags?\b", "seed_bag", joined)
    return " ".join(_TYPED.get(t, t) for t in joined.split()).replace("_", " ").split()


def _spot(row: str | None, place: str | None) -> Spot | None:
    if row in NUMBER_WORDS and place in NUMBER_WORDS:
        return NUMBER_WORDS.index(row) + 1, NUMBER_WORDS.index(place) + 1
    return None


def _bad(text: str, known: str = "") -> NotUnderstood:
    """``known``: the words are the game's own, put together in a way it does not take, and what would do."""
    if known:
        return NotUnderstood(text, known, known=True)
    return NotUnderstood(text, "I didn't catch that. Say plant a card at a spot, draw a card, take a carrot, "
                               "go to a spot, or help.")
