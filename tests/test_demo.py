import json
from pathlib import Path

import pytest

from hbr.games.rabbithunt.phrases import RabbitGrammar
from hbr.grammar import Understood
from tests.conftest import Run

pytestmark = pytest.mark.audio


def test_demo_with_loopback_talks_to_itself(run_hbr: Run, tmp_path: Path) -> None:
    out = tmp_path / "demo"
    result = run_hbr("demo", "--seed", "5", "--loopback", "--silent", "--out-dir", str(out), "--backend", "pocketsphinx",
                     timeout=300)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert any(line.startswith("Hunter: ") for line in lines)
    assert any(line.startswith("Observer: You ") for line in lines)
    assert any("meant: " in line and "heard: " in line for line in lines)
    summary = next(line for line in lines if line.startswith("heard "))
    right, total = int(summary.split()[1]), int(summary.split()[3])
    assert 0 < right <= total
    assert lines[-1].startswith("outcome: ") and "seed 5" in lines[-1]
    transcript = [json.loads(line) for line in (out / "transcript.jsonl").read_text().splitlines()]
    assert {t["speaker"] for t in transcript} == {"hunter", "observer"}
    for t in transcript:
        assert (out / t["file"]).stat().st_size > 1000


def test_demo_without_loopback(run_hbr: Run) -> None:
    result = run_hbr("demo", "--seed", "2", "--silent", timeout=300)
    assert result.returncode == 0, result.stderr
    assert "heard " not in result.stdout
    assert result.stdout.splitlines()[-1].startswith("outcome: ")


def test_a_demo_of_jumpers_says_south_s_moves_and_the_observer_answers(run_hbr: Run) -> None:
    result = run_hbr("demo", "jumpers", "--seed", "3", "--difficulty", "easy", "--turns", "3", "--silent", timeout=300)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    moves = [line for line in lines if line.startswith("South: ")]
    assert len(moves) == 3 and all(move.split()[1] in ("frog", "cat", "hare") for move in moves), lines
    assert any(line.startswith("Observer: ") and "The computer" in line for line in lines), lines
    assert lines[-1] == "outcome: unfinished after 3 turns, seed 3"


def test_a_demo_of_rabbit_hunt_is_heard_through_the_recognizer(run_hbr: Run) -> None:
    """Grey's commands, spoken and recognized among the phrases of the moment (Whisper,
    the default), and played: never one taken for another."""
    result = run_hbr("demo", "rabbithunt", "--seed", "5", "--turns", "8", "--loopback", "--silent", timeout=600)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    heard = [line.strip() for line in lines if line.strip().startswith("meant: ")]
    assert len(heard) == 8, lines

    def meaning(text: str) -> object:
        parsed = RabbitGrammar().parse(text)
        return parsed.intent if isinstance(parsed, Understood) else None

    for line in heard:
        meant, said = line.removeprefix("meant: ").split("; heard: ")
        assert said == "(nothing, typed instead)" or meaning(said) == meaning(meant) is not None, line
    summary = next(line for line in lines if line.startswith("heard "))
    assert int(summary.split()[1]) >= 6, summary
    assert any(line.startswith("Observer: You plant a ") for line in lines), lines
