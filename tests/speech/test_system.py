"""The system's voices (pyttsx3, espeak-ng) to real audio, checked by the audio itself (not by getProperty)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hbr.speech.system import SystemSynthesizer
from hbr.speech.tts import TTSError
from hbr.voice.audio import read_audio, rms
from tests.conftest import Run

pytestmark = pytest.mark.audio
SENTENCE = "You move north east. The bear and then the rabbit move."


@pytest.fixture(scope="module")
def synth() -> SystemSynthesizer:
    return SystemSynthesizer()


def test_speech_is_real_audio_of_plausible_length(synth: SystemSynthesizer) -> None:
    samples, rate = synth.synthesize(SENTENCE)
    assert rate == 22050
    assert 1.5 < len(samples) / rate < 8
    assert rms(samples) > 500


def test_a_render_that_wrote_no_file_is_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """pyttsx3 under load sometimes stops before it writes the WAV (a seam fake: the
    real failure cannot be made on demand)."""
    synth = SystemSynthesizer()
    real = synth._render
    failures = iter([FileNotFoundError("no say.wav")])

    def flaky(text: str) -> tuple[np.ndarray, int]:
        for failure in failures:
            raise failure
        return real(text)

    monkeypatch.setattr(synth, "_render", flaky)
    samples, _ = synth.synthesize(SENTENCE)
    assert rms(samples) > 500

    def broken(text: str) -> tuple[np.ndarray, int]:
        raise FileNotFoundError("no say.wav")

    monkeypatch.setattr(synth, "_render", broken)
    with pytest.raises(TTSError, match="three times .no say.wav."):
        synth.synthesize(SENTENCE)


def test_rate_really_changes_the_speech(synth: SystemSynthesizer) -> None:
    lengths: dict[int, list[float]] = {}
    for rate in (120, 300, 120):  # also back again: a dropped setting would show here
        synth.set_rate(rate)
        samples, sr = synth.synthesize(SENTENCE)
        lengths.setdefault(rate, []).append(len(samples) / sr)
    synth.set_rate(175)
    assert lengths[300][0] < 0.6 * lengths[120][0]
    assert lengths[120][0] == pytest.approx(lengths[120][1], rel=0.05)


def test_voice_changes_the_speech(synth: SystemSynthesizer) -> None:
    a, _ = synth.synthesize("capture north west")
    synth.set_voice("en-us")
    b, _ = synth.synthesize("capture north west")
    assert len(a) != len(b) or not np.array_equal(a, b)
    with pytest.raises(TTSError, match="no voice"):
        synth.set_voice("klingon-xx")


def test_hbr_say_writes_a_wav(run_hbr: Run, tmp_path: Path) -> None:
    out = tmp_path / "s.wav"
    fast = tmp_path / "f.wav"
    assert run_hbr("say", "--out", str(out), SENTENCE).returncode == 0
    assert run_hbr("say", "--rate", "320", "--out", str(fast), SENTENCE).returncode == 0
    # about 0.65 as long; Piper draws each word's length at random (0.64 to 0.72 seen), and
    # a rate passed over would give about 1
    assert len(read_audio(fast)) < 0.8 * len(read_audio(out))
    bad = run_hbr("say", "--voice", "klingon-xx", "--out", str(out), "hi")
    assert bad.returncode == 1 and "no voice" in bad.stderr and "Traceback" not in bad.stderr


def test_hbr_say_without_a_sound_card_points_to_out(run_hbr: Run) -> None:
    result = run_hbr("say", "hello", env={"PATH": __import__("os").environ["PATH"], "PULSE_SERVER": "unix:/nonexistent"})
    if result.returncode == 0:
        pytest.skip("this machine has a working sound output")
    assert "--out FILE.wav" in result.stderr and "Traceback" not in result.stderr


def test_synthesis_in_a_thread_never_swaps_the_programs_output(capsys: pytest.CaptureFixture[str]) -> None:
    """The speech thread must not redirect the process's stdout: an Observer line
    printed meanwhile by the main thread would be lost."""
    import sys
    import threading

    synth = SystemSynthesizer()
    original = sys.stdout
    swapped: list[bool] = []
    worker = threading.Thread(target=lambda: [synth.synthesize(f"line {i}") for i in range(6)])
    worker.start()
    while worker.is_alive():
        swapped.append(sys.stdout is not original)
        print("observer line")
    worker.join()
    out = capsys.readouterr().out
    assert not any(swapped)
    assert out.count("observer line") == len(swapped) and "Audio saved" not in out
