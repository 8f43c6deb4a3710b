"""Bots: who sees what, and that the all-seeing bot really wins."""

from __future__ import annotations

import dataclasses
import random
from typing import ClassVar

import pytest

from hbr.games.hbr.bots import BlindBot, OmniscientBot, play_out, winning_line
from hbr.games.hbr.commands import Command, Target, Toward
from hbr.games.hbr.engine import apply
from hbr.games.hbr.events import Event
from hbr.games.hbr.geometry import Point
from hbr.games.hbr.mapgen import Difficulty, new_game
from hbr.games.hbr.state import Outcome, State


class Spy:
    """A non-omniscient bot that records what play_out hands it."""

    omniscient: ClassVar[bool] = False

    def __init__(self) -> None:
        self.seen: list[object] = []

    def act(self, seen: State | tuple[Event, ...]) -> Command:
        self.seen.append(seen)
        return Toward(Target.RABBIT)


def test_a_blind_bot_is_handed_only_events_without_positions() -> None:
    spy = Spy()
    play_out(new_game(random.Random(3)), spy, max_turns=40)
    assert spy.seen and all(isinstance(s, tuple) for s in spy.seen)
    for seen in spy.seen:
        assert isinstance(seen, tuple)
        for event in seen:
            assert isinstance(event, Event)
            assert not any(isinstance(getattr(event, f.name), Point) for f in dataclasses.fields(event))


def test_event_records_cannot_carry_a_position() -> None:
    types = {f.type for f in dataclasses.fields(Event)}
    assert not any("Point" in str(t) for t in types)


def test_the_blind_bot_refuses_the_true_state() -> None:
    with pytest.raises(AssertionError):
        BlindBot().act(new_game(random.Random(1)))


def test_blind_bot_choices_are_a_function_of_the_words_alone() -> None:
    """Replaying a game's event stream to a fresh bot, with no forest at all, gives the same moves."""
    state = new_game(random.Random(9))
    events: tuple[Event, ...] = ()
    heard: list[tuple[Event, ...]] = []
    played: list[Command] = []
    bot = BlindBot()
    while not state.over and state.round < 60:
        command = bot.act(events)
        heard.append(events)
        played.append(command)
        state, events = apply(state, command)
    fresh = BlindBot()
    assert [fresh.act(e) for e in heard] == played


@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_the_all_seeing_bot_wins_these_forests(difficulty: Difficulty) -> None:
    """Forests 0..59 of each preset: a change to the rules, the maps or the bot shows here."""
    lost = {
        seed
        for seed in range(60)
        if play_out(new_game(random.Random(seed), difficulty), OmniscientBot()).outcome is not Outcome.CAPTURED
    }
    assert lost == set()


def test_a_lost_forest_is_proven_lost_and_the_bot_still_plays_it_out() -> None:
    """Hard forest 879 (bench/omniscient_search.py): no line wins, the whole tree is
    searched within the budget, and the bot falls back to safe moves until the end."""
    start = new_game(random.Random(879), Difficulty.HARD)
    found = winning_line(start, 50_000)
    assert found.line is None and found.explored < 50_000
    assert play_out(start, OmniscientBot()).outcome is Outcome.RABBIT_HOME


def test_a_winning_line_is_played_exactly() -> None:
    """The line found by search is a real game: replayed through the engine, it captures."""
    state = new_game(random.Random(3), Difficulty.HARD)
    found = winning_line(state, 50_000)
    assert found.line
    for position, command in found.line:
        assert (state.hunter, state.bear, state.rabbit, state.snared) == position
        state, _ = apply(state, command)
    assert state.outcome is Outcome.CAPTURED


def test_a_tiny_budget_still_gives_a_safe_move() -> None:
    """Out of budget, the bot neither crashes nor walks into the bear."""
    start = new_game(random.Random(5), Difficulty.HARD)
    state, _ = apply(start, OmniscientBot(budget=1).act(start))
    assert state.outcome is not Outcome.EATEN


def test_the_blind_bot_wins_some_and_not_all() -> None:
    outcomes = [play_out(new_game(random.Random(s)), BlindBot()).outcome for s in range(60)]
    wins = outcomes.count(Outcome.CAPTURED)
    assert 10 < wins < 60
