"""Count to three: say "one", then "two", then "three"; anything else in its turn is a miss."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hbr.game import Argument, GameSpec, Note, Outcome, RecordError, Reply, Setup, Tool
from hbr.grammar import Meta, NotUnderstood, Understood, parse_meta, words

NUMBERS = ("one", "two", "three")


class CountGrammar:
    def phrases(self) -> list[str]:
        return list(NUMBERS)

    def check_aliases(self) -> list[str]:
        return []

    def parse(self, text: str) -> Understood[str] | NotUnderstood:
        said = " ".join(words(text))
        meta = parse_meta(words(text))
        if meta is not None:
            return Understood(meta, text)
        if said in NUMBERS:
            return Understood(said, text)
        return NotUnderstood(text, "Say one, two or three.")


@dataclass
class Count:
    seed: int | None
    detail: str = "normal"
    said: list[str] = field(default_factory=list)
    grammar: CountGrammar = field(default_factory=CountGrammar)

    @property
    def over(self) -> bool:
        return len(self.said) == len(NUMBERS)

    def opening(self) -> str:
        return "Count to three."

    def act(self, command: str) -> Reply:
        if command != NUMBERS[len(self.said)]:
            return Reply(f"Not {command}: say {NUMBERS[len(self.said)]}.", ("miss",))
        self.said.append(command)
        return Reply(f"{command.capitalize()}.")

    def spoken(self, command: str) -> str:
        return command

    def answer(self, meta: Meta) -> str:
        return "Say the next number."

    def closing(self) -> str:
        return "You counted to three." if self.over else f"You counted to {len(self.said)}."

    def record(self) -> dict[str, object]:
        return {"game": "toy", "seed": self.seed, "said": list(self.said)}

    def turn_record(self) -> dict[str, object]:
        return {"said": self.said[-1] if self.said else None}

    def outcome(self) -> str | None:
        return "counted" if self.over else None

    def listening(self) -> None:
        return None

    def yes(self) -> None:
        return None

    def progress(self) -> str:
        return f"counted to {len(self.said)}"


def restore(record: object, setup: Setup) -> Count:
    if not isinstance(record, dict) or record.get("game") != "toy":
        raise RecordError("not a count-to-three record")
    return Count(setup.seed, said=list(record.get("said", [])))


def replay(args: Mapping[str, Any]) -> Outcome:
    lines = args["file"]
    if not lines or lines[0].get("game") != "toy":
        raise RecordError("it is not a count-to-three transcript")
    said = [line["said"] for line in lines if line.get("type") == "turn"]
    return Outcome((f"counted {' '.join(said)}",), ok=said == list(NUMBERS[: len(said)]))


def sheet(args: Mapping[str, Any]) -> Outcome:
    text = f"{args['start'].capitalize()} at game {args['seed']}.\n"
    return Outcome((f"wrote {args['out']}",), {"out": text})


SPEC = GameSpec(
    name="toy",
    title="Count to three",
    summary="say one, two, three",
    options=(),
    new=lambda setup: Count(setup.seed),
    restore=restore,
    grammar=CountGrammar,
    common_replies=lambda: ["One.", "Two.", "Three."],
    cues={"miss": (Note(200, 0.1),)},
    tools=(
        Tool("replay", "what a transcript counted", (Argument("file", "a transcript", "transcript"),), replay),
        Tool("sheet", "a sheet to count along with",
             (Argument("seed", "game number", "seed"), Argument("start", "first word", "choice", NUMBERS, "one"),
              Argument("out", "where to write it", "out")), sheet),
    ),
)
