"""Failure behaviour of the live game: no sound at all, and a microphone lost mid-game."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import Run

from .conftest import start_pulse, stop_pulse
from .test_audio_path import lines_of, quit_game, wait_for

pytestmark = pytest.mark.audio


def test_no_sound_card_means_keyboard_and_text(run_hbr: Run) -> None:
    env = {**os.environ, "PULSE_SERVER": "unix:/nonexistent/native"}
    result = run_hbr("play", "--seed", "3", input="north\nquit\n", env=env)
    assert result.returncode == 0
    out = result.stdout
    assert "Voice input is off:" in out and "Type your commands instead." in out
    assert "Speech is off:" in out
    assert "You move north." in out or "You reached the edge" in out
    assert "Traceback" not in result.stderr


def test_microphone_lost_mid_game(hbr_exe: list[str], tmp_path: Path, user_dirs: dict[str, str]) -> None:
    env = {**start_pulse(tmp_path), **user_dirs}
    game = subprocess.Popen(
        [*hbr_exe, "play", "--seed", "3", "--backend", "pocketsphinx", "--tts", "none"],
        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    seen: list[str] = []
    try:
        out = lines_of(game)
        assert wait_for(out, seen, "A new normal forest", 60), seen
        assert any("Listening with pocketsphinx" in line for line in seen), seen
        stop_pulse(tmp_path)  # the sound server, and with it the microphone, goes away
        assert wait_for(out, seen, "The microphone stopped working", 20), seen
        assert game.stdin is not None
        game.stdin.write("north\n")
        game.stdin.flush()
        assert wait_for(out, seen, "The bear and then the rabbit move", 20), seen
        quit_game(game)
    finally:
        if game.poll() is None:
            game.kill()
        stop_pulse(tmp_path)
    assert game.returncode == 0
    assert not any("Traceback" in line for line in seen)
