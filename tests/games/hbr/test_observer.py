import random
import re

from hbr.games.hbr.commands import all_commands
from hbr.games.hbr.engine import apply
from hbr.games.hbr.mapgen import new_game
from hbr.games.hbr.observer import blank_map, narrate, reveal

from .conftest import make_state


def test_seed_dialogue_shapes() -> None:
    s = make_state(hunter=(5, 5), bear=(15, 12), rabbit=(10, 5), hole=(10, 0), obstacles=[(6, 5)])
    s, events = apply(s, all_commands()[0])  # north
    assert narrate(events, s.outcome) == "You move north. The bear and then the rabbit move."


def test_obstacle_words() -> None:
    s = make_state(hunter=(5, 5), bear=(15, 12), rabbit=(10, 9), hole=(10, 14), obstacles=[(6, 5)])
    from hbr.games.hbr.commands import Step
    from hbr.games.hbr.geometry import Direction

    s, events = apply(s, Step(Direction.EAST))
    assert narrate(events, s.outcome).startswith("An obstacle blocks your path. You do not move east.")


def test_the_observer_never_speaks_positions() -> None:
    """Whatever happens, the words hold no numbers and never say where the bear or rabbit went."""
    rng = random.Random(5)
    for seed in range(40):
        s = new_game(random.Random(seed))
        while not s.over and s.round < 60:
            s, events = apply(s, rng.choice(all_commands()))
            words = narrate(events, s.outcome)
            assert not re.search(r"\d", words)
            assert not re.search(r"(bear|rabbit) (moves|goes|steps) (north|south|east|west)", words)


def test_blank_map_has_obstacles_but_no_compass_or_spawns() -> None:
    s = make_state(hunter=(5, 5), bear=(15, 12), rabbit=(10, 9), hole=(10, 14), obstacles=[(6, 5), (0, 0)])
    words = blank_map(s.field)
    assert "1 along and 1 down" in words and "7 along and 6 down" in words
    assert not re.search(r"north|south|east|west|hunter|bear|rabbit|hole", words)


def test_reveal_tells_where_everyone_is_relative_to_the_hunter() -> None:
    s = make_state(hunter=(5, 5), bear=(7, 5), rabbit=(5, 2), hole=(4, 8))
    assert reveal(s) == (
        "Revealed: from you, the bear 2 east; the rabbit 3 north; the rabbit hole 3 south and 1 west."
    )


def test_the_closing_words_say_how_it_ended_in_plain_words() -> None:
    from dataclasses import replace

    from hbr.games.hbr.state import Outcome
    from hbr.games.hbr.table import HBRTable

    table = HBRTable.new(7)
    assert table.closing() == "Game over: unfinished after 0 turns, seed 7."
    table.state = replace(table.state, outcome=Outcome.RABBIT_HOME, round=1)
    revealed = reveal(table.state)  # once the game is over, where everyone was is told
    assert revealed.startswith("Revealed: from you, the bear ")
    assert table.closing() == f"Game over: the rabbit reached its hole after 1 turn, seed 7. {revealed}"
    table.state = replace(table.state, outcome=Outcome.CAPTURED, round=17)
    assert table.closing() == f"Game over: you caught the rabbit after 17 turns, seed 7. {reveal(table.state)}"
