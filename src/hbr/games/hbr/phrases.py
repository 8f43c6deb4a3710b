"""The words a hunter may say or type, and how they become commands.

Spoken phrases are generated from a few word lists so that recognizers can be
restricted to exactly them; typed input additionally accepts shorthands (``n``,
``ne``, ``c ne``, ``s sw`` ...). Both go through one reduction to a canonical
form, so there is a single place that decides what a sentence means.
"""

from __future__ import annotations

import re
from itertools import product

from hbr.games.hbr.commands import Capture, Command, Snare, Step, Target, Toward
from hbr.games.hbr.geometry import Direction, Quadrant
from hbr.grammar import META_PHRASES, NotUnderstood, Understood, parse_meta, words

#: Spoken direction words (two-word diagonals) with their aliases.
DIRECTION_WORDS: dict[str, Direction] = {
    **{d.spoken: d for d in Direction},
    "up": Direction.NORTH,
    "down": Direction.SOUTH,
    "left": Direction.WEST,
    "right": Direction.EAST,
}
QUADRANT_WORDS: dict[str, Quadrant] = {q.spoken: q for q in Quadrant}
TARGET_WORDS: dict[str, Target] = {
    "rabbit": Target.RABBIT,
    "bear": Target.BEAR,
    "hole": Target.HOLE,
    "rabbit hole": Target.HOLE,
}
MOVE_PREFIXES = ("", "move", "go", "step", "i move")
TOWARD_WORDS = ("toward", "towards")
#: The verbs listened for. "net" is typed only (a synonym below): spoken, it was a
#: near miss for "snare" and "step" (docs/benchmarks.md).
CAPTURE_VERBS = ("capture", "catch")
SNARE_VERBS = ("snare", "trap")

# Typed reduction: word -> replacement words (empty drops the word).
_SYNONYMS: dict[str, tuple[str, ...]] = {
    "towards": ("toward",),
    "catch": ("capture",),
    "net": ("capture",),
    "trap": ("snare",),
    "up": ("north",),
    "down": ("south",),
    "left": ("west",),
    "right": ("east",),
    **{d.word: tuple(d.spoken.split()) for d in Direction if not d.is_cardinal},
    **{"".join(w[0] for w in d.spoken.split()): tuple(d.spoken.split()) for d in Direction},
    "c": ("capture",),
    "tr": ("toward", "rabbit"),
    "tb": ("toward", "bear"),
    "th": ("toward", "hole"),
}
_FILLERS = frozenset({"i", "move", "go", "step", "walk", "please", "the", "a", "my", "now"})


def _canonical_table() -> dict[str, Command]:
    table: dict[str, Command] = {}
    for word, d in DIRECTION_WORDS.items():
        table[" ".join(_SYNONYMS.get(word, (word,)))] = Step(d)
    for word, t in TARGET_WORDS.items():
        table[f"toward {word}"] = Toward(t)
    for word, q in QUADRANT_WORDS.items():
        table[f"capture {word}"] = Capture(q)
        table[f"snare {word}"] = Snare(q)
    return table


_TABLE = _canonical_table()


def _reduce(tokens: list[str]) -> list[str]:
    """Expand synonyms and shorthands, drop fillers, keep the words that carry meaning."""
    out: list[str] = []
    for i, token in enumerate(tokens):
        if token == "s" and i == 0 and len(tokens) > 1:
            out.append("snare")  # "s sw": snare south west; a lone "s" is south
            continue
        if token == "to" and i + 1 < len(tokens) and tokens[i + 1] in ("the", *TARGET_WORDS):
            out.append("toward")
            continue
        if token in _FILLERS:
            continue
        out.extend(_SYNONYMS.get(token, (token,)))
    return out


class HBRGrammar:
    """The command language of Hunter Bear Rabbit (see docs/commands.md).

    ``aliases`` are the player's own words for phrases of the grammar ("forward" for
    "north"); they are accepted typed and spoken. Use :meth:`check_aliases` first.
    """

    def __init__(self, snare: bool = True, aliases: dict[str, str] | None = None) -> None:
        self.snare = snare
        self.aliases = {" ".join(words(k)): v for k, v in (aliases or {}).items()}

    def check_aliases(self) -> list[str]:
        """Problems with the aliases, as sentences; the broken ones are dropped."""
        problems = []
        for alias, target in list(self.aliases.items()):
            if not alias:
                problems.append(f"an alias for {target!r} has no words")
            elif isinstance(self._parse(target), NotUnderstood):
                problems.append(f"the alias {alias!r} stands for {target!r}, which is not a command")
            elif not isinstance(self._parse(alias), NotUnderstood):
                problems.append(f"the alias {alias!r} is already a command")
            else:
                continue
            del self.aliases[alias]
        return problems

    def phrases(self) -> list[str]:
        spoken: list[str] = []
        for prefix, word in product(MOVE_PREFIXES, DIRECTION_WORDS):
            spoken.append(f"{prefix} {word}".strip())
        for prefix, toward, the, word in product(MOVE_PREFIXES, TOWARD_WORDS, ("", "the "), TARGET_WORDS):
            spoken.append(f"{prefix} {toward} {the}{word}".strip())
        verbs = CAPTURE_VERBS + (SNARE_VERBS if self.snare else ())
        for verb, word in product(verbs, QUADRANT_WORDS):
            spoken.append(f"{verb} {word}")
        spoken.extend(META_PHRASES)
        spoken.extend(self.aliases)
        return spoken

    def parse(self, text: str) -> Understood[Command] | NotUnderstood:
        target = self.aliases.get(" ".join(words(text)))
        parsed = self._parse(target if target is not None else text)
        return Understood(parsed.intent, text) if isinstance(parsed, Understood) else parsed

    def _parse(self, text: str) -> Understood[Command] | NotUnderstood:
        tokens = words(text)
        if not tokens:
            return NotUnderstood(text, "I heard nothing. Say help to hear what you can say.")
        meta = parse_meta(tokens)
        if meta is not None:
            return Understood(meta, text)
        reduced = _reduce(tokens)
        command = _TABLE.get(" ".join(reduced))
        if command is not None:
            if isinstance(command, Snare) and not self.snare:
                return NotUnderstood(text, "Snares are switched off in this game.", known=True)
            return Understood(command, text)
        return _why(text, reduced)


#: At most this many characters of what was not understood are said back.
ECHO_LIMIT = 60


def _why(text: str, reduced: list[str]) -> NotUnderstood:
    """A short, specific reason, with a suggestion where one is likely; a known mistake
    where the words are the game's own: a net or snare with one compass word, a target
    or nothing ("capture west", "capture the rabbit", "trap"), "toward" with no target,
    "where is the rabbit"."""
    if reduced and reduced[0] in ("capture", "snare"):
        verb = reduced[0]
        rest = reduced[1:]
        # "capture west", "capture", "capture the rabbit": the game's words, no corner
        known = not rest or len(rest) == 1 and rest[0] in ("north", "south", "east", "west", *TARGET_WORDS)
        if len(rest) == 1 and rest[0] in ("north", "south"):
            return NotUnderstood(
                text, f"Throw it into a corner: did you mean {verb} {rest[0]} east or {verb} {rest[0]} west?", known
            )
        if len(rest) == 1 and rest[0] in ("east", "west"):
            return NotUnderstood(
                text, f"Throw it into a corner: did you mean {verb} north {rest[0]} or {verb} south {rest[0]}?", known
            )
        return NotUnderstood(text, f"{verb.capitalize()} needs a corner: north east, north west, south east or south west.", known)
    if reduced and reduced[0] == "toward":
        return NotUnderstood(text, "Toward what? Say toward the rabbit, toward the bear or toward the hole.", reduced == ["toward"])
    asked = re.fullmatch(r"where (?:is |s )?(rabbit hole|rabbit|bear|hole)", " ".join(t for t in words(text) if t not in _FILLERS))
    if asked:  # "where is the rabbit": the one thing a blind hunter is never told
        return NotUnderstood(
            text, f"A blind hunter is never told where the {asked.group(1)} is. "
            f"Say toward the {asked.group(1)} to go nearer, or where am i for where you are.", known=True,
        )
    shown = text.strip() or "that"
    if len(shown) > ECHO_LIMIT:  # a pasted page is not read back whole
        shown = shown[:ECHO_LIMIT].rsplit(" ", 1)[0] + " ..."
    return NotUnderstood(text, f"I didn't understand \"{shown}\". Say help to hear what you can say.")


def spoken(command: Command) -> str:
    """A command as the Observer says it back: "capture north west", "toward the hole"."""
    match command:
        case Step(direction):
            return direction.spoken
        case Toward(target):
            return f"toward {target.spoken}"
        case Capture(quadrant):
            return f"capture {quadrant.spoken}"
        case Snare(quadrant):
            return f"snare {quadrant.spoken}"
    raise TypeError(command)
