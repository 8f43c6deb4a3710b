"""The whole audio path on a virtual sound card: a spoken command goes into the virtual
microphone, ``hbr play`` hears it through sounddevice, and the Observer's spoken reply
is recorded from the sink's monitor and compared with the speech it should be."""

from __future__ import annotations

import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from hbr.speech.tts import Synthesizer
from hbr.voice.audio import RATE, read_wav, to_mono16k

pytestmark = pytest.mark.audio


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


def best_correlation(recording: np.ndarray, reference: np.ndarray) -> float:
    """Highest normalised cross-correlation of ``reference`` anywhere in ``recording``."""
    r = recording.astype(np.float64)
    x = reference.astype(np.float64)
    x = (x - x.mean()) / (x.std() * len(x))
    n = len(r) + len(x)
    corr = np.fft.irfft(np.fft.rfft(r, n) * np.conj(np.fft.rfft(x, n)), n)[: len(r) - len(x)]
    window = np.sqrt(np.convolve(r**2, np.ones(len(x)), "valid")[: len(corr)] / len(x))
    mean = np.convolve(r, np.ones(len(x)), "valid")[: len(corr)] / len(x)
    std = np.sqrt(np.maximum(window**2 - mean**2, 1e-9))
    return float(np.max(corr / std))


def test_spoken_command_in_spoken_reply_out(pulse, hbr_exe: str, tmp_path: Path) -> None:
    command = tmp_path / "command.wav"
    subprocess.run(["espeak-ng", "-v", "en-us", "-s", "150", "-w", str(command), "north east"], check=True)
    recording = tmp_path / "monitor.wav"
    recorder = subprocess.Popen(
        ["parecord", "--device=virt.monitor", "--file-format=wav", str(recording)], env=pulse
    )
    game = subprocess.Popen(
        [hbr_exe, "play", "--seed", "3", "--backend", "pocketsphinx", "--rate", "300", "--confirm", "never",
         "--cues", "off"],
        env=pulse, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    seen: list[str] = []
    try:
        out = lines_of(game)
        assert wait_for(out, seen, "A new normal forest", 60), seen
        assert "Listening with pocketsphinx" in "\n".join(seen), seen
        heard = False
        for _ in range(3):  # the opening is being spoken first: try again if the microphone was muted
            time.sleep(8)
            subprocess.run(["paplay", str(command)], env=pulse, check=True, timeout=30)
            if wait_for(out, seen, "> ", 10):
                heard = True
                break
        assert heard, f"the game never heard the command: {seen}"
        assert seen[-1] == "> north east"
        assert wait_for(out, seen, "You move", 10), seen
        reply = seen[-1]
        time.sleep(5)  # let the reply be spoken
        assert game.stdin is not None
        game.stdin.write("quit\n")
        game.stdin.flush()
        game.wait(timeout=30)
    finally:
        if game.poll() is None:
            game.kill()
        recorder.terminate()
        recorder.wait(timeout=10)
    assert game.returncode == 0
    # The reply is real speech of a plausible length, and it is the reply's words.
    heard_audio = read_wav(recording)
    synth = Synthesizer(rate=300)
    expected = to_mono16k(*synth.synthesize(reply))
    other = to_mono16k(*synth.synthesize("The rabbit reached its hole. You lose the game."))
    assert 1.0 < len(expected) / RATE < 6.0
    match, mismatch = best_correlation(heard_audio, expected), best_correlation(heard_audio, other)
    print(f"correlation with the reply {match:.2f}, with another sentence {mismatch:.2f}")
    assert match > 0.3 and match > 2 * mismatch


def test_a_second_live_game_is_refused_cleanly(pulse, hbr_exe: str) -> None:
    first = subprocess.Popen(
        [hbr_exe, "play", "--seed", "1", "--tts", "none", "--backend", "pocketsphinx"],
        env=pulse, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        seen: list[str] = []
        assert wait_for(lines_of(first), seen, "A new normal forest", 60), seen
        second = subprocess.run(
            [hbr_exe, "play", "--seed", "2", "--tts", "none"], env=pulse, capture_output=True, text=True, timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert second.returncode == 1
        assert "another hbr game is already running" in second.stderr
        assert "Traceback" not in second.stderr
    finally:
        assert first.stdin is not None
        first.stdin.write("quit\n")
        first.stdin.flush()
        first.wait(timeout=30)
