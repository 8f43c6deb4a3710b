"""Spyhunting at the table: what the player hears, a plan read back and confirmed,
undo, the spy's moves by directions or by a point, saving and restoring."""

from __future__ import annotations

import json
import random

import pytest

from hbr.game import RecordError
from hbr.games.spyhunting.bots import HunterBot
from hbr.games.spyhunting.phrases import Actions, GoTo, Path, SpyGrammar, Word
from hbr.games.spyhunting.state import Action, Heading, Phase, Point, Rules, Side, roll
from hbr.games.spyhunting.table import SpyTable, restore
from hbr.grammar import Meta, NotUnderstood
from hbr.session import Session
from hbr.speech.speaker import TextSpeaker


def hear(table: SpyTable, text: str) -> str:
    parsed = table.grammar.parse(text)
    return table.act(parsed.intent).words  # type: ignore[union-attr, arg-type]


def test_the_grammar_reads_actions_directions_and_points() -> None:
    g = SpyGrammar()
    assert g.parse("forward, forward, turn left").intent == Actions((Action.FORWARD, Action.FORWARD, Action.TURN_LEFT))  # type: ignore[union-attr]
    assert g.parse("f tr s").intent == Actions((Action.FORWARD, Action.TURN_RIGHT, Action.SHOOT))  # type: ignore[union-attr]
    assert g.parse("north north east").intent == Path((Heading.NORTH, Heading.NORTH, Heading.EAST))  # type: ignore[union-attr]
    assert g.parse("go to six seven").intent == GoTo(Point(6, 7))  # type: ignore[union-attr]
    assert g.parse("Go to 67.").intent == GoTo(Point(6, 7))  # type: ignore[union-attr]
    assert g.parse("where is the hunter").intent is Word.OTHER  # type: ignore[union-attr]
    for phrase in g.phrases():
        assert not isinstance(g.parse(phrase), type(g.parse("dance"))), phrase
    assert g.parse("forward two times").intent == Actions((Action.FORWARD,) * 2)  # type: ignore[union-attr]
    assert g.parse("turn left three times").intent == Actions((Action.TURN_LEFT,) * 3)  # type: ignore[union-attr]
    assert "turn left two times" in g.phrases() and "go to nine one" in g.phrases()
    assert "go to nine one" not in SpyGrammar(Side.HUNTER).phrases()
    # one action a phrase: a word that Whisper writes twice ("Forward, forward.") is still one step
    assert "forward forward" not in g.phrases() and "shoot two times" not in g.phrases()


def test_go_to_with_one_number_is_a_mistake_the_game_knows() -> None:
    """By voice too, "go to six" is told what would do; "go to bed" is other talk."""
    g = SpyGrammar()
    one, bed, alone = g.parse("Go to 6."), g.parse("go to bed"), g.parse("go to")
    assert isinstance(one, NotUnderstood) and one.known and "the column and the row" in one.message
    assert isinstance(bed, NotUnderstood) and not bed.known
    assert isinstance(alone, NotUnderstood) and not alone.known  # Whisper reads "Go to" from talk in the room


def test_diagonal_words_only_in_the_diagonal_variant() -> None:
    plain, diagonal = SpyGrammar(), SpyGrammar(diagonal=True)
    assert plain.parse("forward left").intent == Actions((Action.FORWARD, Action.LEFT))  # type: ignore[union-attr]
    assert diagonal.parse("forward left").intent == Actions((Action.FORWARD_LEFT,))  # type: ignore[union-attr]
    assert diagonal.parse("north north east").intent == Path((Heading.NORTH, Heading.NORTH_EAST))  # type: ignore[union-attr]
    assert diagonal.parse("south west two times").intent == Path((Heading.SOUTH_WEST,) * 2)  # type: ignore[union-attr]
    assert diagonal.parse("back right three times").intent == Actions((Action.BACK_RIGHT,) * 3)  # type: ignore[union-attr]
    assert "north east" not in plain.phrases() and "forward right" not in plain.phrases()
    assert {"north east", "forward right", "back left two times"} <= set(diagonal.phrases())
    for phrase in diagonal.phrases():
        assert not isinstance(diagonal.parse(phrase), type(diagonal.parse("dance"))), phrase


def test_a_diagonal_game_says_its_rules_and_keeps_them_when_saved() -> None:
    table = SpyTable(11, Side.SPY, "normal", Rules(diagonal=True))
    assert "step diagonally" in table.answer(Meta.RULES)
    assert "step diagonally" not in SpyTable(11, Side.SPY, "normal").answer(Meta.RULES)
    assert "north east" in table.answer(Meta.HELP)
    before = table.state.spy
    assert hear(table, "south west").startswith(f"To column {before.x - 1}, row {before.y - 1}.")
    again = restore(json.loads(json.dumps(table.record())))
    assert again.state == table.state and again.state.rules.diagonal


def test_a_point_the_spy_cannot_reach_is_explained_by_its_moves_parity() -> None:
    """3 or 5 points reach points an odd number away; the short-spy variant's 2 or 4, even ones."""
    plain = SpyTable(11, Side.SPY, "normal")
    short = SpyTable(11, Side.SPY, "normal", Rules(short_spy=True))
    for table, parity in ((plain, "odd"), (short, "even")):
        spy = table.state.spy
        near = Point(spy.x, spy.y - 1) if spy.y > 1 else Point(spy.x, spy.y + 1)  # one point away
        far = Point(spy.x - 1, spy.y - 1) if spy.x > 1 and spy.y > 1 else Point(spy.x + 1, spy.y + 1)  # two
        wrong = near if parity == "even" else far
        assert f"an {parity} number away" in hear(table, f"go to {wrong.x} {wrong.y}")


def test_the_hunters_series_by_voice() -> None:
    table = SpyTable(next(s for s in range(100) if roll(s, 1)[1] >= 3), Side.HUNTER, "easy")
    assert "You are the hunter" in table.opening() and "The dice:" in table.opening()
    d4 = table.state.d4
    words = hear(table, "forward")
    assert words.startswith("You step forward to column 1, row 2.")
    for _ in range(d4 - 1):
        hear(table, "turn right" if table.state.used % 2 == 0 else "turn left")
    assert table.state.phase is Phase.PLAN
    assert hear(table, "shoot").startswith("Planned: shoot.")
    assert "one shot at most" in hear(table, "shoot")
    assert hear(table, "undo").startswith("Taken back: shoot.")
    legal = HunterBot("normal", random.Random(1)).plan(table.state).actions  # a plan the rules allow here
    for action in legal:
        last = hear(table, action.value)
    assert last == f"Your plan: {', '.join(a.value for a in legal)}. Say confirm, or undo."
    # one more action for a full plan: the plan is read back, not "room for 0; say 0 or fewer"
    assert hear(table, "forward") == f"Your plan is full. {last}"
    series = table.state.series
    words = hear(table, "confirm")
    assert "The spy moves" in words and "Your plan:" in words
    assert table.state.series == series + 1 or table.over


def test_small_die_actions_can_be_taken_back_until_the_plan_begins() -> None:
    table = SpyTable(next(s for s in range(100) if roll(s, 1)[0] >= 2), Side.HUNTER)
    hear(table, "forward")
    assert table.state.hunter == Point(1, 2)
    words = hear(table, "undo")
    assert words.startswith("Taken back: forward. You are at column 1, row 1") and table.state.used == 0
    for _ in range(table.state.d4):
        hear(table, "forward" if table.state.used == 0 else "turn right")
    phase: Phase = table.state.phase
    assert phase is Phase.PLAN
    hear(table, "undo")
    assert table.state.phase is Phase.HUNTER_MOVE and table.state.used == table.state.d4 - 1


def test_too_many_actions_at_once_are_refused_whole() -> None:
    table = SpyTable(5, Side.HUNTER)
    left = table.state.d4
    words = hear(table, " ".join(["turn left"] * (left + 1)))
    assert words.startswith(f"You have {left} action") and table.state.used == 0


def test_the_spys_move_by_directions_or_by_a_point() -> None:
    table = SpyTable(5, Side.SPY, "easy")
    opening = table.opening()
    assert "The hunter has written its plan" in opening and "forward" not in opening.split("written")[1]
    points = table.state.spy_points
    assert "Your move" in hear(table, "west")
    assert hear(table, "undo").startswith("Taken back.")
    words = hear(table, "go to 9 9")
    assert "cannot end on column 9, row 9" in words
    target = Point(9 - points, 9)
    words = hear(table, f"go to {target.x} {target.y}")
    assert f"You move {points} points, to column {target.x}, row 9." in words


def test_a_game_is_saved_and_restored_exactly() -> None:
    table = SpyTable(11, Side.SPY, "normal")
    for text in ("west", "south", "dice", "where is the hunter", "west", "go to 5 5"):
        hear(table, text)
    record = json.loads(json.dumps(table.record()))
    again = restore(record)
    assert again.state == table.state and again.inputs == table.inputs
    with pytest.raises(RecordError):
        restore({"game": "hbr", "version": 1})
    with pytest.raises(RecordError):
        restore({**record, "commands": ["dance"]})


def test_with_the_plan_full_yes_confirms_it_and_is_asked_back_when_unsure() -> None:
    """The game asks "say confirm, or undo": a plain yes is an answer too. By voice it
    uses a turn, so an unsure yes is asked back like any command."""
    table = SpyTable(next(s for s in range(100) if roll(s, 1)[1] >= 3), Side.HUNTER, "easy")
    said: list[str] = []
    session = Session(table, TextSpeaker(said.append))
    session.hear("yes")
    assert said[-1] == "There is nothing to answer yes or no to right now."
    for _ in range(table.state.d4):
        session.hear("forward" if table.state.used == 0 else "turn right")
    for action in HunterBot("normal", random.Random(1)).plan(table.state).actions:
        session.hear(action.value)
    assert said[-1].endswith("Say confirm, or undo.")
    series = table.state.series
    session.hear("yes", confidence=0.3)
    assert said[-1] == "Did you say confirm? Say yes or no." and table.state.series == series
    session.hear("yes", confidence=0.95)
    assert "The spy moves" in said[-1] and (table.state.series == series + 1 or table.over)
