"""`hbr tutorial rabbithunt`: six lessons on set farms, each waiting for its command."""

from __future__ import annotations

from hbr.games.rabbithunt.engine import Go, Plant
from hbr.games.rabbithunt.state import Kind
from hbr.games.rabbithunt.tutorial import LESSONS, Tutorial
from tests.conftest import Run


def test_every_lesson_by_keyboard(run_hbr: Run) -> None:
    said = "my hand\nplant a field at 6 3\ntake a carrot\ngo to 4 4\ngo to 4 3\nplant a rabbit at 6 3\n"
    result = run_hbr("tutorial", "rabbithunt", "--text", input=said)
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[0].startswith("Welcome to the Rabbit Hunt tutorial.") and "Lesson 1: your hand." in out[0]
    assert out[1].startswith("Your hand: 2 fields, a ladder and 2 rabbits.") and "Lesson 2: planting." in out[1]
    assert "It is Yellow's rabbit! You catch it: 1 caught." in out[5]
    assert out[-1] == f"Tutorial: {len(LESSONS)} of {len(LESSONS)} lessons done."


def test_a_lesson_waits_for_its_command_and_a_refused_one() -> None:
    tutorial = Tutorial()
    assert tutorial.act(Go((4, 4))).words == "Not yet. Say my hand."
    tutorial.index = 1
    tutorial.table.state = tutorial.lesson.scene
    refused = tutorial.act(Plant(Kind.FIELD, (1, 1)))
    assert refused.words.startswith("A card there would touch fewer than two cards.") and tutorial.index == 1
    assert "Lesson 3" in tutorial.act(Plant(Kind.FIELD, (6, 3))).words and tutorial.index == 2
