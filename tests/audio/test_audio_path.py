"""The whole audio path on a virtual sound card: a spoken command goes into the virtual
microphone, ``hbr play`` hears it through sounddevice, and the Observer's spoken reply
is recorded from the sink's monitor and measured against the speech it should be."""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from collections.abc import Generator
from contextlib import closing
from pathlib import Path

import numpy as np
import pytest

from hbr.games.hbr.commands import Step
from hbr.games.hbr.geometry import Direction
from hbr.games.hbr.phrases import HBRGrammar
from hbr.grammar import Understood
from hbr.live import CHANNEL_ADVICE
from hbr.speech.voices import open_synthesizer
from hbr.voice.audio import RATE, clipped, headroom, read_audio, to_mono16k, write_wav
from hbr.voice.channel import CLIPPING
from hbr.voice.recognizer import SpeechMeter
from hbr.voice.synth import espeak

pytestmark = pytest.mark.audio


def speech_seconds(samples: np.ndarray) -> float:
    meter = SpeechMeter()
    meter.feed(samples)
    return meter.seconds


def lines_of(proc: subprocess.Popen[str]) -> queue.Queue[str]:
    out: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            out.put(line.rstrip("\n"))

    threading.Thread(target=pump, daemon=True).start()
    return out


def wait_for(out: queue.Queue[str], seen: list[str], needle: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            seen.append(out.get(timeout=0.2))
        except queue.Empty:
            continue
        if needle in seen[-1]:
            return True
    return False


def quit_game(game: subprocess.Popen[str]) -> None:
    """Type quit, as a player would (if the game has not ended by itself), and wait for it to end."""
    if game.poll() is None:
        assert game.stdin is not None
        game.stdin.write("quit\n")
        game.stdin.flush()
    game.wait(timeout=30)


def is_north_east(line: str) -> bool:
    """Whether a command line the game echoed ("> north east") is a step north east, in
    any of its phrasings: on one CI run pocketsphinx heard "north east" said by
    espeak-ng as "go north east", the same step."""
    heard = HBRGrammar().parse(line.removeprefix("> "))
    return isinstance(heard, Understood) and heard.intent == Step(Direction.NORTHEAST)


def turns_of(transcript: Path) -> list[dict[str, object]]:
    """The turn lines of a game's transcript."""
    return [json.loads(line) for line in transcript.read_text().splitlines() if '"turn"' in line]


def correlation(recording: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Normalised cross-correlation of ``reference`` at every offset in ``recording``."""
    r = recording.astype(np.float64)
    x = reference.astype(np.float64)
    x = (x - x.mean()) / (x.std() * len(x))
    n = len(r) + len(x)
    corr = np.fft.irfft(np.fft.rfft(r, n) * np.conj(np.fft.rfft(x, n)), n)[: len(r) - len(x)]
    window = np.sqrt(np.convolve(r**2, np.ones(len(x)), "valid")[: len(corr)] / len(x))
    mean = np.convolve(r, np.ones(len(x)), "valid")[: len(corr)] / len(x)
    std = np.sqrt(np.maximum(window**2 - mean**2, 1e-9))
    return corr / std


def after_the_command(recording: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """The recording from the first playing of ``reference`` on, with every playing of it
    silenced: what the game said in answer. Found by the waveform, not by the clock, for
    the recorder starts late on a busy machine. Only the words of ``reference`` are
    silenced, not the quiet after them: a quick reply may begin while that quiet plays."""
    loud = np.nonzero(np.abs(reference.astype(np.int32)) > 0.05 * np.abs(reference).max())[0]
    reference = reference[loud[0] : loud[-1] + 1]
    match = correlation(recording, reference)
    starts = np.nonzero(match >= 0.9 * match.max())[0]
    answer = recording[starts[0] :].copy()
    for start in starts - starts[0]:
        answer[start : start + len(reference)] = 0
    return answer


def loud_blocks(env: dict[str, str], sink: str, seconds: float) -> Generator[bool]:
    """Whether each 50 ms of ``sink``'s monitor carries sound (above -60 dBFS), for
    ``seconds``. By its level, not by its streams: through loudspeakers the game keeps
    one stream open for the whole game and plays silence between replies."""
    recorder = subprocess.Popen(
        ["parec", f"--device={sink}.monitor", "--format=s16le", "--rate=16000", "--channels=1", "--latency-msec=20"],
        env=env, stdout=subprocess.PIPE,
    )
    assert recorder.stdout is not None
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            block = np.frombuffer(recorder.stdout.read(1600), np.int16).astype(np.float64)
            yield bool(len(block)) and float(np.sqrt(np.mean(block**2))) > 33
    finally:
        recorder.kill()
        recorder.wait(timeout=10)


def game_is_silent(env: dict[str, str], quiet: float = 0.6, seconds: float = 60, sink: str = "virt") -> bool:
    """Wait until ``sink`` has carried no sound for ``quiet`` seconds."""
    quiet_since = time.monotonic()
    with closing(loud_blocks(env, sink, seconds)) as blocks:
        for loud in blocks:
            if loud:
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since >= quiet:
                return True
    return False


def game_is_heard(env: dict[str, str], within: float, sink: str = "virt") -> bool:
    """Wait until ``sink`` carries sound, for at most ``within`` seconds (a reply may
    begin late, or pause between its sentences, on a machine that is busy)."""
    with closing(loud_blocks(env, sink, within)) as blocks:
        return any(blocks)


def transcribe(samples: np.ndarray, model: Path) -> str:
    from faster_whisper import WhisperModel

    whisper = WhisperModel(str(model), device="cpu", compute_type="int8", cpu_threads=2)
    segments, _ = whisper.transcribe(
        samples.astype(np.float32) / 32768, language="en", beam_size=1,
        initial_prompt="North, east, south, west. The bear, the rabbit.",  # the game's words, as a listener knows them
    )
    return " ".join(s.text for s in segments).lower()


@pytest.mark.parametrize("engine", ["piper", "system"])
def test_spoken_command_in_spoken_reply_out(
    engine: str, pulse: dict[str, str], hbr_exe: list[str], tmp_path: Path, whisper_model: Path
) -> None:
    command = tmp_path / "command.wav"
    subprocess.run(["espeak-ng", "-v", "en-us", "-s", "150", "-w", str(command), "north east"], check=True)
    recording = tmp_path / "monitor.wav"
    recorder = subprocess.Popen(
        ["parecord", "--device=virt.monitor", "--file-format=wav", str(recording)], env=pulse
    )
    game = subprocess.Popen(
        [*hbr_exe, "play", "--seed", "3", "--backend", "pocketsphinx", "--rate", "200", "--confirm", "never",
         "--cues", "off", "--tts", engine],
        env=pulse, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    seen: list[str] = []
    try:
        out = lines_of(game)
        assert wait_for(out, seen, "A new normal forest", 60), seen
        assert "Listening with pocketsphinx" in "\n".join(seen), seen
        heard = False
        for _ in range(3):  # the microphone is muted while the game speaks: wait for it to end
            assert game_is_silent(pulse), "the game never stopped speaking"
            subprocess.run(["paplay", str(command)], env=pulse, check=True, timeout=30)
            if wait_for(out, seen, "> ", 10):
                heard = True
                break
        assert heard, f"the game never heard the command: {seen}"
        assert is_north_east(seen[-1]), seen
        assert wait_for(out, seen, "You move", 10), seen
        reply = seen[-1]
        # Piper may take seconds to begin it on a busy machine (CI once quit before it
        # began: the monitor heard only the goodbye)
        assert game_is_heard(pulse, within=30), "the reply was never said"
        assert game_is_silent(pulse), "the reply was never finished"
        quit_game(game)
    finally:
        if game.poll() is None:
            game.kill()
        recorder.terminate()
        recorder.wait(timeout=10)
    assert game.returncode == 0
    # After the command (the game was silent before it), the monitor heard the reply: as
    # much speech as the same reply rendered here (voice activity on both), and words
    # Whisper can make out.
    after = after_the_command(read_audio(recording), read_audio(command))
    synth = open_synthesizer(engine, "", 200)[0]
    expected = to_mono16k(*synth.synthesize(reply))
    want = speech_seconds(expected)
    assert want > 1.0
    words = transcribe(after, whisper_model)
    assert "north" in words and "east" in words, (words, seen)
    # the goodbye follows the reply, so the speech heard is at least the reply's
    assert speech_seconds(after) >= 0.6 * want


def test_a_microphone_turned_up_too_far_is_told_once(pulse: dict[str, str], hbr_exe: list[str], tmp_path: Path) -> None:
    """Talk (not commands: the game stays as it is) into a virtual microphone turned up
    far too far: after a few seconds of it, the game says once to turn it down. The
    sound reaches the game through PulseAudio's resampling, as from a real microphone."""
    parts = []
    for text in ["what a lovely day it is", "shall we go for a walk later", "I think it might rain soon"] * 3:
        speech = espeak(text, "en-us", 160)
        parts += [clipped(speech, 20 + headroom(speech)),
                  np.zeros(int(0.8 * RATE), np.int16)]
    talk = tmp_path / "talk.wav"
    write_wav(talk, np.concatenate(parts))
    game = subprocess.Popen(
        [*hbr_exe, "play", "--seed", "3", "--backend", "pocketsphinx", "--cues", "off", "--tts", "none"],
        env=pulse, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    seen: list[str] = []
    try:
        out = lines_of(game)
        assert wait_for(out, seen, "A new normal forest", 60), seen
        subprocess.run(["paplay", str(talk)], env=pulse, check=True, timeout=60)
        assert wait_for(out, seen, CHANNEL_ADVICE[CLIPPING], 10), seen
        wait_for(out, seen, "(nothing more is said)", 3)  # what else the game says after the talk
        quit_game(game)
    finally:
        if game.poll() is None:
            game.kill()
    assert seen.count(CHANNEL_ADVICE[CLIPPING]) == 1, seen
    assert not any("Traceback" in line for line in seen)


def test_a_second_live_game_is_refused_cleanly(pulse: dict[str, str], hbr_exe: list[str]) -> None:
    first = subprocess.Popen(
        [*hbr_exe, "play", "--seed", "1", "--tts", "none", "--backend", "pocketsphinx"],
        env=pulse, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        seen: list[str] = []
        assert wait_for(lines_of(first), seen, "A new normal forest", 60), seen
        second = subprocess.run(
            [*hbr_exe, "play", "--seed", "2", "--tts", "none"], env=pulse, capture_output=True, text=True, timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert second.returncode == 1
        assert "another hbr game is already running" in second.stderr
        assert "Traceback" not in second.stderr
    finally:
        quit_game(first)


def command_over_the_rules(
    pulse: dict[str, str], game: subprocess.Popen[str], command: Path, listening: bool, sink: str = "virt"
) -> None:
    """Ask for the rules (a minute long), say ``command`` over them after a few seconds
    (``listening``: and check that none of the Observer's words was taken meanwhile),
    and check that it is heard, stops the reading and moves the hunter; the game speaks
    into ``sink``. Through loudspeakers it may be said a second time (a player would
    simply repeat it); with headphones the first must be heard."""
    seen: list[str] = []
    out = lines_of(game)
    assert wait_for(out, seen, "A new normal forest", 60), seen
    assert "also over me" in seen[-1]
    assert game_is_silent(pulse, sink=sink), "the welcome never ended"
    assert game.stdin is not None
    game.stdin.write("rules\n")
    game.stdin.flush()
    if listening:
        assert not wait_for(out, seen, "> ", 12), f"the Observer's own words were taken as a command: {seen}"
    else:
        time.sleep(2.0)
    assert game_is_heard(pulse, within=10, sink=sink), "the rules are not being read"
    subprocess.run(["paplay", str(command)], env=pulse, check=True, timeout=30)
    if listening and not wait_for(out, seen, "> ", 10):  # as a player would, it is said again once
        assert game_is_heard(pulse, within=5, sink=sink), "the rules stopped unasked"
        subprocess.run(["paplay", str(command)], env=pulse, check=True, timeout=30)
    assert any(line.startswith("> ") for line in seen) or wait_for(out, seen, "> ", 10), (
        f"the command said over the rules was not heard: {seen}"
    )
    commands = [line for line in seen if line.startswith("> ")]
    assert len(commands) == 1 and is_north_east(commands[0]), seen
    assert wait_for(out, seen, "You move", 10), seen
    # the reply is a few seconds long; the rest of the rules would go on for most of a minute
    assert game_is_silent(pulse, seconds=20, sink=sink), "the rules went on after the command"
    quit_game(game)


def test_through_loudspeakers_a_command_said_over_the_observer_stops_it_and_is_carried_out(
    pulse: dict[str, str], hbr_exe: list[str], tmp_path: Path
) -> None:
    """As a player starts it (talk-over on auto, Whisper), the game speaks into the sink
    whose monitor is the microphone (loudspeakers in the room): it hears its own voice
    and the player's together. While
    the rules are read, none of the Observer's words is taken as a command; the player's
    command, said over them, is heard, stops the reading and is carried out."""
    command = tmp_path / "command.wav"
    subprocess.run(["espeak-ng", "-v", "en-us", "-s", "150", "-w", str(command), "north east"], check=True)
    game = subprocess.Popen(
        [*hbr_exe, "play", "--seed", "3", "--confirm", "never", "--cues", "off", "--tts", "system"],
        env=pulse, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        command_over_the_rules(pulse, game, command, listening=True)
    finally:
        if game.poll() is None:
            game.kill()
    assert game.returncode == 0


def test_with_headphones_a_command_said_over_the_observer_stops_it_and_is_carried_out(
    pulse: dict[str, str], hbr_exe: list[str], tmp_path: Path
) -> None:
    """The game speaks into the player's headphones (a second virtual sink the
    microphone does not hear); the player says a command while the rules, a minute
    long, are being read: the game hears it, stops reading, and moves."""
    module = subprocess.run(
        ["pactl", "load-module", "module-null-sink", "sink_name=phones"], env=pulse, check=True, capture_output=True,
        text=True,
    ).stdout.strip()
    command = tmp_path / "command.wav"
    subprocess.run(["espeak-ng", "-v", "en-us", "-s", "150", "-w", str(command), "north east"], check=True)
    game = subprocess.Popen(
        [*hbr_exe, "play", "--seed", "3", "--backend", "pocketsphinx", "--confirm", "never", "--cues", "off",
         "--tts", "system", "--headphones", "on"],
        env={**pulse, "PULSE_SINK": "phones"}, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
    )
    try:
        command_over_the_rules(pulse, game, command, listening=False, sink="phones")
    finally:
        if game.poll() is None:
            game.kill()
        subprocess.run(["pactl", "unload-module", module], env=pulse, check=False)
    assert game.returncode == 0
