"""Jumpers at the table and through `hbr play jumpers`: moves said as a player says
them, questions that make the board knowable by ear, two players, saving."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hbr.game import RecordError
from hbr.games.jumpers.phrases import Ask, JumpersGrammar, Order, Question
from hbr.games.jumpers.state import Direction, Kind, Side
from hbr.games.jumpers.table import JumpersTable, restore
from hbr.grammar import NotUnderstood
from tests.conftest import Run


def hear(table: JumpersTable, text: str) -> str:
    return table.act(table.grammar.parse(text).intent).words  # type: ignore[union-attr, arg-type]


def test_the_grammar() -> None:
    g = JumpersGrammar()
    assert g.parse("cat at three two jumps north east").intent == Order(Kind.CAT, (3, 2), Direction.NORTH_EAST, True)  # type: ignore[union-attr]
    assert g.parse("hare north west").intent == Order(Kind.HARE, None, Direction.NORTH_WEST, None)  # type: ignore[union-attr]
    assert g.parse("frog at 3 1 steps east").intent == Order(Kind.FROG, (3, 1), Direction.EAST, False)  # type: ignore[union-attr]
    assert g.parse("what is at four two").intent == Ask(Question.AT, (4, 2))  # type: ignore[union-attr]
    assert g.parse("moves for the frog at 3 2").intent == Ask(Question.MOVES, (3, 2), Kind.FROG)  # type: ignore[union-attr]
    for phrase in g.phrases():
        assert hasattr(g.parse(phrase), "intent"), phrase
    assert "dance" not in g.phrases() and not hasattr(g.parse("cat at nine nine east"), "intent")


def test_a_piece_with_no_way_is_a_mistake_the_game_knows() -> None:
    """By voice too, "frog at three one" is asked which way; other talk is not answered."""
    g = JumpersGrammar()
    for said in ("frog at three one", "Cat at 3 2 jumps.", "hare steps"):
        parsed = g.parse(said)
        assert isinstance(parsed, NotUnderstood) and parsed.known and parsed.message.startswith("Which way?"), said
    for said in ("cat", "cat at the zoo", "frog at nine nine", "dance"):
        parsed = g.parse(said)
        assert isinstance(parsed, NotUnderstood) and not parsed.known, said


def test_a_move_and_the_computers_answer() -> None:
    table = JumpersTable(1, Side.SOUTH, "easy")
    words = hear(table, "hare at 1 2 jumps north east")
    assert words.startswith("south's hare jumps from 1 2 to 4 4.") and "The computer: north's" in words
    assert table.state.to_move is Side.SOUTH and words.endswith("Your move.")


def test_which_piece_is_asked_and_a_blocked_move_is_said() -> None:
    table = JumpersTable(1, Side.SOUTH, "easy")
    assert hear(table, "cat north west").startswith("Which cat: at 2 2 or at 2 3 or at 2 4? Say its place, like 2 2.")
    assert table.state.moves == 0
    words = hear(table, "two three")  # the place alone picks the piece: a short phrase, heard well
    assert words.startswith("south's cat jumps from 2 3 to 4 2.") and table.state.to_move is Side.SOUTH
    assert hear(table, "two two").startswith("2 2 is a cell: say a piece and a way")  # nothing was asked
    before = table.state.moves
    words = hear(table, "hare at 1 1 jumps west")
    assert "leaves the board" in words and table.state.moves == before


def test_only_what_makes_sense_now_is_listened_for() -> None:
    """The recognizer hears moves of the mover's own pieces where they stand, and a
    cell alone only while "which one?" waits."""
    table = JumpersTable(1, Side.SOUTH, "easy")
    heard = table.listening()
    assert heard <= set(table.grammar.phrases()) and len(heard) < len(table.grammar.phrases()) / 4
    assert {"hare at one two jumps north east", "cat at two two north west", "moves for the frog at three one",
            "hare north west", "what is at four two", "describe", "help"} <= heard
    assert "hare at four three steps west" not in heard  # no hare there
    assert "frog at five one east" not in heard  # north's frog
    assert "two three" not in heard
    hear(table, "cat north west")  # which cat?
    assert "two three" in table.listening()
    hear(table, "two three")  # the cat jumps away, the computer answers
    assert "cat at two three north east" not in table.listening() and "two three" not in table.listening()


def test_the_board_by_ear() -> None:
    table = JumpersTable(1, Side.SOUTH, "easy")
    assert hear(table, "describe").startswith("Row 7: 1, north's hare; 2, north's hare; 3, north's hare.")
    assert "Row 4: empty." in hear(table, "describe")
    assert hear(table, "what is at 2 1") == "At 2 1: south's cat."
    assert hear(table, "my pieces").startswith("South's free pieces: hare at 1 1")
    assert hear(table, "their pieces").startswith("North's free pieces: ")
    assert hear(table, "threats") == "No piece of theirs can reach your gate next move."
    assert hear(table, "moves for the hare at 1 2") == "The hare at 1 2 can jump north east to 4 4, jump north west to 4 1."
    assert hear(table, "last move") == "No move yet."


def test_two_players_take_turns() -> None:
    table = JumpersTable(3, players=2)
    assert "Two players: south begins" in table.opening()
    assert hear(table, "frog at 3 3 jumps north east").endswith("North's turn.")
    assert hear(table, "frog at 5 3 jumps south west").endswith("South's turn.")


def test_saved_and_restored_exactly_with_the_computers_moves() -> None:
    table = JumpersTable(4, Side.NORTH, "normal")
    hear(table, "frog at 5 2 jumps south east")
    record = json.loads(json.dumps(table.record()))
    again = restore(record)
    assert again.state == table.state and again.computer_moves == table.computer_moves
    with pytest.raises(RecordError):
        restore({**record, "computer": ["fly away"]})


def test_typed_game(run_hbr: Run, user_dirs: dict[str, str]) -> None:
    result = run_hbr("play", "jumpers", "--text", "--seed", "2", "--difficulty", "easy",
                     input="describe\nhare at 1 2 jumps north east\nthreats\nquit\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[0].startswith("Jumpers. You play south; the computer plays north, easy.")
    assert out[2].startswith("south's hare jumps from 1 2 to 4 4.")
    saved = Path(user_dirs["XDG_DATA_HOME"]) / "hbr" / "saves" / "jumpers.json"
    assert json.loads(saved.read_text())["commands"][1] == "hare at 1 2 jumps north east"
    two = run_hbr("play", "jumpers", "--text", "--two-players", "--seed", "2", input="frog at 3 3 jumps north east\n")
    assert "North's turn." in two.stdout


def test_simulate_plays_the_computer_against_itself(run_hbr: Run) -> None:
    result = run_hbr("simulate", "--game", "jumpers", "--games", "2", "--difficulty", "easy", "--json", timeout=120)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["game"] == "jumpers" and sum(summary["wins"].values()) == 2
    assert set(summary["wins"]) == {"south", "north", "draw"} and summary["mean_moves"] > 0


SCENARIOS = Path(__file__).parent / "scenarios"


def test_scenarios_print_the_truth_after_each_move(run_hbr: Run) -> None:
    won = run_hbr("scenario", "--game", "jumpers", str(SCENARIOS / "hare_wins.json"))
    assert won.returncode == 0, won.stderr
    (record,) = [json.loads(line) for line in won.stdout.splitlines()]  # the game ends at the win
    assert record["ok"] and record["winner"] == "south" and record["board"]["7 1"] == ["north hare", "south hare"]
    covered = run_hbr("scenario", "--game", "jumpers", str(SCENARIOS / "covered.json"))
    (refused,) = [json.loads(line) for line in covered.stdout.splitlines()]
    assert not refused["ok"] and "north's cat on top" in refused["error"]
    start = run_hbr("scenario", "--game", "jumpers", str(SCENARIOS / "from_the_start.json"))
    records = [json.loads(line) for line in start.stdout.splitlines()]
    assert [r["ok"] for r in records] == [True, True, False] and "Which cat" in records[-1]["error"]


def test_a_broken_scenario_is_one_line(run_hbr: Run, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"stacks": {"9 9": ["south frog"]}}))
    result = run_hbr("scenario", "--game", "jumpers", str(path))
    assert result.returncode == 2 and "is not a cell" in result.stderr and "Traceback" not in result.stderr
