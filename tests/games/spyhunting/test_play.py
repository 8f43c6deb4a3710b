"""Spyhunting end to end: typed through `hbr play spyhunting --text`, and spoken
(espeak-ng) through the real recognizer restricted to the game's phrases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hbr.games.spyhunting.phrases import SpyGrammar
from hbr.games.spyhunting.state import Side
from tests.conftest import Run


def test_a_typed_game_as_the_spy(run_hbr: Run, user_dirs: dict[str, str]) -> None:
    result = run_hbr("play", "spyhunting", "--text", "--seed", "5", "--side", "spy", "--difficulty", "easy",
                     input="go to 9 6\nwhere is the hunter\nnorth\nundo\ndice\nquit\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[0].startswith("Spyhunting. You are the spy; the computer is the hunter, playing easy.")
    assert out[1].startswith("You move 3 points, to column 9, row 6. The hunter's plan:")
    assert out[2].startswith("You are at column 9, row 6")
    assert out[3].startswith("To column 9, row 7.") and out[4].startswith("Taken back.")
    assert out[5].startswith("The dice: ")
    assert "hbr play spyhunting --resume goes on with it" in out[-1]
    saved = json.loads((Path(user_dirs["XDG_DATA_HOME"]) / "hbr" / "saves" / "spyhunting.json").read_text())
    assert saved["side"] == "spy" and saved["commands"][0] == "go to 9 6"
    again = run_hbr("play", "spyhunting", "--text", "--resume", input="quit\n")
    assert again.stdout.startswith("Back in Spyhunting, series 2.")


def test_wrong_words_and_options_are_one_sentence(run_hbr: Run) -> None:
    result = run_hbr("play", "spyhunting", "--text", "--seed", "5", input="dance\nnorth\nquit\n")
    assert "I didn't catch that. Say actions like forward" in result.stdout
    assert "You are the hunter: say forward" in result.stdout
    bad = run_hbr("play", "spyhunting", "--side", "bear")
    assert bad.returncode == 2 and "invalid choice: 'bear'" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.audio
def test_spoken_commands_are_heard_as_said(whisper_model: Path) -> None:
    from hbr.voice.recognizer import decode
    from hbr.voice.synth import espeak
    from hbr.voice.whisper import WhisperRecognizer

    for side, phrases in ((Side.HUNTER, ["forward", "turn left", "shoot", "confirm", "forward two times", "right"]),
                          (Side.SPY, ["north", "west", "east", "go to six seven", "north two times", "stay here"])):
        grammar = SpyGrammar(side)
        recognizer = WhisperRecognizer(grammar.phrases(), whisper_model)
        right = wrong = 0
        for phrase in phrases:
            heard = decode(recognizer, espeak(phrase, "en-us", 150))
            if heard.phrase is not None:
                same = grammar.parse(heard.phrase) == grammar.parse(phrase)
                right, wrong = right + same, wrong + (not same)
        assert wrong == 0 and right >= 4, (side, right, wrong)


def test_simulate_plays_bot_against_bot(run_hbr: Run) -> None:
    result = run_hbr("simulate", "--game", "spyhunting", "--games", "4", "--difficulty", "easy", "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["game"] == "spyhunting" and summary["games"] == 4
    assert sum(summary["wins"].values()) + summary["unfinished"] == 4 and set(summary["wins"]) == {"hunter", "spy"}
    assert summary["mean_moves"] >= 1 and summary["games_per_second"] > 0
    assert summary["options"]["hunter"] == summary["options"]["spy"] == "easy"
