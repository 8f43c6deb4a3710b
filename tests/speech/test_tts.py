"""Speech synthesis to real audio, checked by the audio itself (not by getProperty)."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from hbr.devices import AudioDeviceError
from hbr.speech.speaker import TextSpeaker, VoiceSpeaker
from hbr.speech.tts import Synthesizer, TTSError
from hbr.voice.audio import read_wav, rms

pytestmark = pytest.mark.audio
SENTENCE = "You move north east. The bear and then the rabbit move."


@pytest.fixture(scope="module")
def synth() -> Synthesizer:
    return Synthesizer()


def test_speech_is_real_audio_of_plausible_length(synth: Synthesizer) -> None:
    samples, rate = synth.synthesize(SENTENCE)
    assert rate == 22050
    assert 1.5 < len(samples) / rate < 8
    assert rms(samples) > 500


def test_a_render_that_wrote_no_file_is_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """pyttsx3 under load sometimes stops before it writes the WAV (a seam fake: the
    real failure cannot be made on demand)."""
    synth = Synthesizer()
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


def test_rate_really_changes_the_speech(synth: Synthesizer) -> None:
    lengths = {}
    for rate in (120, 300, 120):  # also back again: a dropped setting would show here
        synth.set_rate(rate)
        samples, sr = synth.synthesize(SENTENCE)
        lengths.setdefault(rate, []).append(len(samples) / sr)
    synth.set_rate(175)
    assert lengths[300][0] < 0.6 * lengths[120][0]
    assert lengths[120][0] == pytest.approx(lengths[120][1], rel=0.05)


def test_voice_changes_the_speech(synth: Synthesizer) -> None:
    a, _ = synth.synthesize("capture north west")
    synth.set_voice("en-us")
    b, _ = synth.synthesize("capture north west")
    assert len(a) != len(b) or not np.array_equal(a, b)
    with pytest.raises(TTSError, match="no voice"):
        synth.set_voice("klingon-xx")


class FakePlayer:
    """A player seam: records what it was asked to play; can fail like a lost device."""

    def __init__(self, fail_after: int | None = None) -> None:
        self.played: list[tuple[int, int, float]] = []
        self.fail_after = fail_after
        self.stopped = threading.Event()

    def play(self, samples: np.ndarray, rate: int, volume: float = 1.0) -> bool:
        if self.fail_after is not None and len(self.played) >= self.fail_after:
            raise AudioDeviceError("audio output failed: device unplugged")
        self.played.append((len(samples), rate, volume))
        return True

    def stop(self) -> None:
        self.stopped.set()


def test_voice_speaker_speaks_in_order_and_prints_everything() -> None:
    printed: list[str] = []
    player = FakePlayer()
    speaker = VoiceSpeaker(Synthesizer, player, printed.append)
    speaker.say("one")
    speaker.say("two, three and four")
    speaker.wait()
    assert printed == ["one", "two, three and four"]
    assert len(player.played) == 2 and player.played[0][0] < player.played[1][0]
    assert not speaker.speaking
    speaker.adjust(volume=0.5)
    speaker.say("quiet")
    speaker.wait()
    assert player.played[-1][2] == 0.5
    speaker.close()


def test_audio_failure_mid_game_is_said_once_and_text_goes_on() -> None:
    printed: list[str] = []
    speaker = VoiceSpeaker(Synthesizer, FakePlayer(fail_after=1), printed.append)
    for text in ("first", "second", "third"):
        speaker.say(text)
    speaker.wait()
    speaker.say("fourth")
    assert printed[:2] == ["first", "second"]
    assert sum("Speech stopped" in line for line in printed) == 1
    assert printed[-1] == "fourth" and "third" in printed
    speaker.close()


def test_stop_interrupts_and_drops_the_queue() -> None:
    player = FakePlayer()
    speaker = VoiceSpeaker(Synthesizer, player, lambda _: None)
    speaker.stop()
    assert player.stopped.is_set()
    speaker.close()


def test_text_speaker_prints() -> None:
    printed: list[str] = []
    TextSpeaker(printed.append).say("hello")
    assert printed == ["hello"]


def test_hbr_say_writes_a_wav(run_hbr, tmp_path: Path) -> None:
    out = tmp_path / "s.wav"
    fast = tmp_path / "f.wav"
    assert run_hbr("say", "--out", str(out), SENTENCE).returncode == 0
    assert run_hbr("say", "--rate", "320", "--out", str(fast), SENTENCE).returncode == 0
    assert len(read_wav(fast)) < 0.7 * len(read_wav(out))
    bad = run_hbr("say", "--voice", "klingon-xx", "--out", str(out), "hi")
    assert bad.returncode == 1 and "no voice" in bad.stderr and "Traceback" not in bad.stderr


def test_hbr_say_without_a_sound_card_points_to_out(run_hbr) -> None:
    result = run_hbr("say", "hello", env={"PATH": __import__("os").environ["PATH"], "PULSE_SERVER": "unix:/nonexistent"})
    if result.returncode == 0:
        pytest.skip("this machine has a working sound output")
    assert "--out FILE.wav" in result.stderr and "Traceback" not in result.stderr


def test_a_synthesizer_that_cannot_start_is_reported_not_hung() -> None:
    def broken() -> Synthesizer:
        raise TTSError("no speech synthesizer (libespeak-ng missing)")

    with pytest.raises(TTSError, match="libespeak-ng missing"):
        VoiceSpeaker(broken, FakePlayer(), lambda _: None)


def test_synthesis_in_a_thread_never_swaps_the_programs_output(capsys) -> None:
    """The speech thread must not redirect the process's stdout: an Observer line
    printed meanwhile by the main thread would be lost."""
    import sys
    import threading

    from hbr.speech.tts import Synthesizer

    synth = Synthesizer()
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
