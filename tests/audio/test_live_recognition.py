"""A whole game played by real people's voices: `hbr play` listens on a PulseAudio
virtual microphone, into which recordings of up, down, left and right from
../shared/speech-dev are played (and yes or no when the game asks back), until the
game ends. The transcript must hold the commands the recordings said. And a mistake
said into the same microphone is answered with what would do."""

from __future__ import annotations

import queue
import random
import subprocess
import time
from pathlib import Path

import pytest
import real

from tests.audio.test_audio_path import lines_of, quit_game, turns_of, wait_for

pytestmark = pytest.mark.audio

DIRECTION = {"up": "north", "down": "south", "left": "west", "right": "east"}


def started(
    hbr_exe: list[str], env: dict[str, str], *args: str, ready: str = "A new normal forest"
) -> tuple[subprocess.Popen[str], queue.Queue[str], list[str]]:
    """`hbr play ARGS`, the Observer printed (not spoken) and read as it comes, once the
    game has been told (a line with ``ready``): the game, its output, and the lines seen so far."""
    game = subprocess.Popen(
        [*hbr_exe, "play", *args, "--tts", "none", "--cues", "off"],
        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    out, seen = lines_of(game), list[str]()
    if not wait_for(out, seen, ready, 60):
        game.kill()
        raise AssertionError(seen)
    return game, out, seen


def said_into_a_game(
    pulse: dict[str, str], user_dirs: dict[str, str], hbr_exe: list[str], tmp_path: Path, said: list[Path],
    answer: str, seconds: float, first: str = "",
) -> tuple[list[object], list[str]]:
    """`hbr play --seed 21` hearing the files ``said`` played into the virtual microphone
    one after another, each followed by up to ``seconds`` for a line with ``answer`` (and,
    before any is played, by a line with ``first`` when given); then quit. What each turn
    heard, and every line the game printed."""
    transcript = tmp_path / "game.jsonl"
    game, out, seen = started(hbr_exe, {**pulse, **user_dirs}, "--seed", "21", "--transcript", str(transcript))
    try:
        assert not first or wait_for(out, seen, first, 30), seen
        for saying in said:
            subprocess.run(["paplay", str(saying)], env=pulse, check=True, timeout=30)
            wait_for(out, seen, answer, seconds)
        quit_game(game)
        while not out.empty():
            seen.append(out.get())
    finally:
        if game.poll() is None:
            game.kill()
    return [t["heard"] for t in turns_of(transcript)], seen


def test_a_whole_game_by_real_voices(
    pulse: dict[str, str], hbr_exe: list[str], tmp_path: Path, user_dirs: dict[str, str], held_out: list[real.Recording]
) -> None:
    by_word: dict[str, list[Path]] = {}
    for rec in held_out:
        if rec.word in (*DIRECTION, "yes", "no"):
            by_word.setdefault(rec.word, []).append(real.FOLDER / rec.file)
    rng = random.Random(11)
    transcript = tmp_path / "game.jsonl"
    game, out, seen = started(hbr_exe, {**pulse, **user_dirs}, "--seed", "21", "--transcript", str(transcript))
    meant: list[str] = []  # the word of every recording played as a command

    def speak(word: str) -> None:
        subprocess.run(["paplay", str(rng.choice(by_word[word]))], env=pulse, check=True, timeout=30)

    try:
        assert "Listening with whisper" in "\n".join(seen), seen
        for _ in range(80):
            if game.poll() is not None:
                break
            word = rng.choice(sorted(DIRECTION))
            meant.append(word)
            speak(word)
            got_until = len(seen)
            time.sleep(1.5)
            while not out.empty():
                seen.append(out.get())
            asked = [line for line in seen[got_until:] if line.startswith("Did you say")]
            if asked:  # asked back: answer as the player would
                speak("yes" if DIRECTION[word] in asked[-1] else "no")
                time.sleep(1.5)
                while not out.empty():
                    seen.append(out.get())
            if any("Game over" in line for line in seen[got_until:]):
                break
        quit_game(game)  # a long game: enough turns were heard
    finally:
        if game.poll() is None:
            game.kill()
    turns = turns_of(transcript)
    assert turns, f"no turn was played: {seen[-20:]}"
    heard = [t["heard"] for t in turns]
    print(f"{len(meant)} recordings played, {len(turns)} turns played, game over: "
          f"{any('Game over' in line for line in seen)}")
    # every turn was a command a recording said, in the order said (some recordings
    # were not understood and cost no turn; none may become a different move)
    said = iter(meant)
    assert all(any(h == m for m in said) for h in heard), (heard, meant)
    assert any("Game over" in line for line in seen) or len(turns) >= 20, seen[-20:]


def test_a_microphone_pair_with_one_wired_the_other_way_round_is_heard(
    pulse: dict[str, str], hbr_exe: list[str], tmp_path: Path, user_dirs: dict[str, str], held_out: list[real.Recording]
) -> None:
    """A real "left" from a stereo microphone whose second channel is inverted (as some
    laptops' built-in pairs are): mixed down by the sound server it was exact silence;
    mixed down by the game, it is a step west."""
    import numpy as np
    import soundfile

    said = next(r for r in held_out if r.word == "left" and "v0.02" in r.file)
    audio = said.audio()
    pair = tmp_path / "pair.wav"
    soundfile.write(pair, np.stack([audio, -audio], axis=1), 16_000)
    heard, seen = said_into_a_game(pulse, user_dirs, hbr_exe, tmp_path, [pair], "move", 5)
    assert heard == ["left"], seen


def test_a_muted_microphone_is_told_once_and_then_the_player_is_heard(
    pulse: dict[str, str], hbr_exe: list[str], tmp_path: Path, user_dirs: dict[str, str], held_out: list[real.Recording]
) -> None:
    """The virtual microphone gives exact digital silence while nothing is played into
    it, as a muted one does: the game says so once, and goes on listening; a real "left"
    said then is a step west."""
    from hbr.live import CHANNEL_ADVICE
    from hbr.voice.channel import SILENT

    said = next(r for r in held_out if r.word == "left" and "v0.02" in r.file)
    heard, seen = said_into_a_game(pulse, user_dirs, hbr_exe, tmp_path, [real.FOLDER / said.file], "move", 5,
                                   first=CHANNEL_ADVICE[SILENT])
    assert heard == ["left"], seen
    assert sum(CHANNEL_ADVICE[SILENT] in line for line in seen) == 1, seen


def test_basic_recognition_is_said_once(
    pulse: dict[str, str], hbr_exe: list[str], tmp_path: Path, user_dirs: dict[str, str],
) -> None:
    """No whisper or vosk model (a broken HBR_WHISPER_MODEL): the game plays with
    pocketsphinx and says once, in one sentence, how to get the better model."""
    game = subprocess.Popen(
        [*hbr_exe, "play", "--seed", "4", "--tts", "none"],
        env={**pulse, **user_dirs, "HBR_WHISPER_MODEL": str(tmp_path / "none")},
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    seen: list[str] = []
    try:
        out = lines_of(game)
        assert wait_for(out, seen, "A new normal forest", 60), seen
        assert game.stdin is not None
        game.stdin.write("quit\n")
        game.stdin.flush()
        game.wait(timeout=30)
        while not out.empty():
            seen.append(out.get())
    finally:
        if game.poll() is None:
            game.kill()
    text = "\n".join(seen)
    assert "Listening with pocketsphinx" in text and "HBR_WHISPER_MODEL" in text
    assert text.count("Speech recognition is basic") == 1
    assert "hbr models download" in text


def test_a_mistake_said_into_the_microphone_is_explained(
    pulse: dict[str, str], hbr_exe: list[str], tmp_path: Path, user_dirs: dict[str, str]
) -> None:
    """A net thrown along a side ("capture north", said by the Piper voice into the
    virtual microphone) is no phrase the recognizer listens for: the game says where a
    net goes, as it does to the typed words, and no turn is used."""
    import onnxruntime

    from hbr.speech.voices import open_synthesizer
    from hbr.voice.audio import pad, to_mono16k, write_wav

    onnxruntime.set_seed(7)  # Piper samples noise: the same renderings every run
    said = []
    for rate in (150, 175, 200):  # said again, a little faster, when not heard so
        synth = open_synthesizer("piper", "", rate)[0]
        said.append(tmp_path / f"capture north {rate}.wav")
        write_wav(said[-1], pad(to_mono16k(*synth.synthesize("capture north")), 0.3))
    transcript = tmp_path / "game.jsonl"
    game, out, seen = started(hbr_exe, {**pulse, **user_dirs}, "--seed", "21", "--transcript", str(transcript))
    try:
        for saying in said:
            subprocess.run(["paplay", str(saying)], env=pulse, check=True, timeout=30)
            if wait_for(out, seen, "Throw it into a corner: did you mean capture north east or capture north west?", 5):
                break
        else:
            raise AssertionError(seen)
        quit_game(game)
    finally:
        if game.poll() is None:
            game.kill()
    assert not turns_of(transcript)


def test_a_hesitation_said_into_the_microphone_never_moves_the_hunter(
    pulse: dict[str, str], hbr_exe: list[str], tmp_path: Path, user_dirs: dict[str, str]
) -> None:
    """A player thinking aloud says "uh" or "um" alone (espeak-ng voices whose sound
    Whisper reads as "up"): the game asks "Did you say north?" rather than moving, and
    no turn is used."""
    from hbr.voice.audio import pad, write_wav
    from hbr.voice.synth import espeak

    said = []
    for sound, voice, wpm in (("uh", "en-us", 175), ("uh", "en-us+f3", 190), ("um", "en+m3", 190), ("ah", "en-us+f3", 130)):
        said.append(tmp_path / f"{sound} {voice} {wpm}.wav")
        write_wav(said[-1], pad(espeak(sound, voice, wpm), 0.3))
    heard, seen = said_into_a_game(pulse, user_dirs, hbr_exe, tmp_path, said, "Did you say", 3)
    assert any("Did you say north?" in line for line in seen), seen  # heard as "up", and asked
    assert not heard, seen


def test_when_a_game_ends_a_spoken_yes_starts_another(
    pulse: dict[str, str], hbr_exe: list[str], user_dirs: dict[str, str], held_out: list[real.Recording]
) -> None:
    """By voice alone a player plays on: the game ends (walked into the bear, typed), the
    game asks "Play again?", and a real person's "yes" into the microphone starts a new
    forest; typed quit then ends it."""
    yeses = [real.FOLDER / r.file for r in held_out if r.word == "yes" and "v0.02" in r.file][:3]
    game, out, seen = started(hbr_exe, {**pulse, **user_dirs}, "--seed", "8")
    try:
        assert game.stdin is not None
        game.stdin.write("toward bear\n" * 40)
        game.stdin.flush()
        assert wait_for(out, seen, "Game over", 30), seen
        assert wait_for(out, seen, "Play again? Say yes or no.", 5), seen
        time.sleep(1.0)  # the typed lines after the end are answered with the question again
        for yes in yeses:  # a real person's yes (asked again if it was not caught)
            subprocess.run(["paplay", str(yes)], env=pulse, check=True, timeout=30)
            if wait_for(out, seen, "A new normal forest", 5):
                break
        else:
            raise AssertionError(f"no new game: {seen[-10:]}")
        quit_game(game)
    finally:
        if game.poll() is None:
            game.kill()
    assert game.returncode == 0
    assert sum("A new normal forest" in line for line in seen) == 2


def test_a_turn_of_rabbit_hunt_by_voice(
    pulse: dict[str, str], hbr_exe: list[str], tmp_path: Path, user_dirs: dict[str, str]
) -> None:
    """Rabbit Hunt is played by voice as Hunter Bear Rabbit is: a card planted, a carrot
    taken and a walk, each said by the Piper voice into the virtual microphone (a little
    faster when not heard; "yes" when the game asks "Did you say ...?"), carried out and
    kept in the transcript as said."""
    import onnxruntime

    from hbr.games.rabbithunt.phrases import spot_words
    from hbr.games.rabbithunt.table import RabbitTable
    from hbr.speech.voices import open_synthesizer
    from hbr.voice.audio import pad, to_mono16k, write_wav

    table = RabbitTable(5, 2, "normal")  # the game `hbr play rabbithunt --seed 5` starts, up to grey's turn
    spot = table.state.open_spots()[0]
    walk = next(s for s, _ in table.state.farm if table.state.steps((5, 5))[s] == 1)
    said = [f"plant a field at {spot_words(spot)}", "take a carrot", f"go to {spot_words(walk)}", "yes"]
    onnxruntime.set_seed(7)  # Piper samples noise: the same renderings every run
    renderings: dict[str, list[Path]] = {}
    for rate in (150, 175, 200):
        synth = open_synthesizer("piper", "", rate)[0]
        for i, text in enumerate(said):
            renderings.setdefault(text, []).append(tmp_path / f"{i}-{rate}.wav")
            write_wav(renderings[text][-1], pad(to_mono16k(*synth.synthesize(text)), 0.3))
    transcript = tmp_path / "game.jsonl"
    game, out, seen = started(hbr_exe, {**pulse, **user_dirs}, "rabbithunt", "--seed", "5", "--transcript",
                              str(transcript), ready="Rabbit Hunt. You farm grey")
    answers = ["You plant a field at", "You take a carrot", "You walk 1 step to"]

    def play(text: str, answer: str) -> bool:
        """Say ``text`` (again, faster, when not heard; yes when asked back) until ``answer``."""
        for saying in renderings[text]:
            mark = len(seen)
            subprocess.run(["paplay", str(saying)], env=pulse, check=True, timeout=30)
            if wait_for(out, seen, answer, 8):
                return True
            asked = any(line.startswith("Did you say ") for line in seen[mark:])
            if asked and play("yes", answer):
                return True
        return False

    try:
        for text, answer in zip(said, answers, strict=False):
            assert play(text, answer), f"{text!r} not carried out: {seen[-6:]}"
        quit_game(game)
    finally:
        if game.poll() is None:
            game.kill()
    assert [t["command"] for t in turns_of(transcript)] == [
        f"plant a field at {spot[0]} {spot[1]}", "take a carrot", f"go to {walk[0]} {walk[1]}"]
