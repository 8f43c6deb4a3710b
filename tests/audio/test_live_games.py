"""The other games by voice alone, through the real audio path: `hbr play GAME` listens
on a PulseAudio virtual microphone into which espeak-ng speaks the player's words.
The transcript must hold only what was said."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.audio.test_audio_path import lines_of, quit_game, turns_of, wait_for

pytestmark = pytest.mark.audio


def spoken(tmp_path: Path, text: str, voice: str, wpm: int) -> Path:
    path = tmp_path / f"{text.replace(' ', '-')}-{voice}-{wpm}.wav"
    if not path.exists():
        subprocess.run(["espeak-ng", "-v", voice, "-s", str(wpm), "-w", str(path), text], check=True)
    return path


def play_by_voice(
    game: list[str], says: list[tuple[str, str]], pulse: dict[str, str], user_dirs: dict[str, str], tmp_path: Path,
    opening: str,
) -> tuple[list[str], list[dict[str, object]]]:
    """Start ``game``; for each (words, answer expected in the output) speak the words
    (again, up to three times, until the answer comes). Returns the output and the turns."""
    transcript = tmp_path / "game.jsonl"
    proc = subprocess.Popen(
        [*game, "--tts", "none", "--cues", "off", "--confirm", "never", "--transcript", str(transcript)],
        env={**pulse, **user_dirs}, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    seen: list[str] = []
    try:
        out = lines_of(proc)
        assert wait_for(out, seen, opening, 60), seen
        assert "Listening with whisper" in "\n".join(seen), seen
        for words, answer in says:
            for voice, wpm in (("en-us", 150), ("en+m3", 140), ("en-us", 125)):  # said again differently, as people do
                subprocess.run(["paplay", str(spoken(tmp_path, words, voice, wpm))], env=pulse, check=True, timeout=30)
                if wait_for(out, seen, answer, 10):
                    break
            else:
                pytest.fail(f"{words!r} was never answered with {answer!r}: {seen[-6:]}")
        quit_game(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
    return seen, turns_of(transcript)


def in_order(turns: list[dict[str, object]]) -> list[object]:
    """What was heard, a phrase said again (the answer came slowly) counted once."""
    heard = [t["heard"] for t in turns]
    return [h for i, h in enumerate(heard) if i == 0 or h != heard[i - 1]]


def test_spyhunting_as_the_spy_by_voice(
    pulse: dict[str, str], hbr_exe: list[str], tmp_path: Path, user_dirs: dict[str, str],
) -> None:
    seen, turns = play_by_voice(
        [*hbr_exe, "play", "spyhunting", "--side", "spy", "--difficulty", "easy", "--seed", "5"],
        [("west", "To column 8, row 9."), ("west two times", "You move 3 points, to column 6, row 9."),
         ("dice", "The dice:")],
        pulse, user_dirs, tmp_path, "Spyhunting.",
    )
    assert in_order(turns) == ["west", "west two times", "dice"], turns
    opening = next(line for line in seen if line.startswith("Spyhunting."))
    assert "Speak after the game has spoken: one action or direction at a time" in opening
    assert "rabbit" not in opening  # the hint is the game's own, not Hunter Bear Rabbit's


def test_jumpers_questions_and_a_whole_move_by_voice(
    pulse: dict[str, str], hbr_exe: list[str], tmp_path: Path, user_dirs: dict[str, str],
) -> None:
    seen, turns = play_by_voice(
        [*hbr_exe, "play", "jumpers", "--difficulty", "easy", "--seed", "5"],
        [("describe", "Row 7: 1, north's hare"), ("threats", "No piece of theirs can reach your gate"),
         ("last move", "No move yet."), ("hare at one two jumps north east", "south's hare jumps from 1 2 to 4 4.")],
        pulse, user_dirs, tmp_path, "Jumpers.",
    )
    assert in_order(turns) == ["describe", "threats", "last move", "hare at one two jumps north east"], turns
    assert "a piece and a way, like hare north west" in next(line for line in seen if line.startswith("Jumpers."))
