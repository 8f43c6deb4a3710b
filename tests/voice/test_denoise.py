"""Noise suppression: real WebRTC suppression on real noise and espeak-ng speech."""

from __future__ import annotations

import builtins

import numpy as np
import pytest

from hbr.voice.audio import RATE, mix_at_snr, pad, rms
from hbr.voice.denoise import NoiseSuppressor
from hbr.voice.synth import espeak


def hum(seconds: float) -> np.ndarray:
    t = np.arange(int(seconds * RATE)) / RATE
    hiss = np.random.default_rng(5).normal(0, 0.3, len(t))
    return (3000 * (np.sin(2 * np.pi * 50 * t) + 0.5 * np.sin(2 * np.pi * 150 * t) + hiss)).astype(np.int16)


def run(suppressor: NoiseSuppressor, audio: np.ndarray, block: int) -> np.ndarray:
    parts = [suppressor.process(audio[i : i + block]) for i in range(0, len(audio), block)]
    return np.concatenate([*parts, suppressor.flush()])


def test_blocks_of_any_size_give_the_same_audio_back() -> None:
    audio = hum(1.0)
    whole = run(NoiseSuppressor(), audio, len(audio))
    assert len(whole) == len(audio)
    assert np.array_equal(run(NoiseSuppressor(), audio, 333), whole)


@pytest.mark.audio
def test_steady_noise_is_suppressed_and_speech_kept() -> None:
    speech = pad(espeak("capture north west", "en-us", 150), 0.3)
    noisy = np.concatenate([hum(2.0), mix_at_snr(speech, hum(len(speech) / RATE), 10)])
    out = run(NoiseSuppressor(), noisy, 480)
    assert rms(out[RATE : 2 * RATE]) < rms(noisy[RATE : 2 * RATE]) / 4  # the noise alone, once learned
    assert likeness(out[2 * RATE :], speech) > likeness(noisy[2 * RATE :], speech) + 0.05


def likeness(audio: np.ndarray, speech: np.ndarray) -> float:
    """Correlation with the clean words, at the best lag (the suppressor delays a little)."""
    return max(
        float(np.corrcoef(np.roll(audio, -lag).astype(float), speech.astype(float))[0, 1]) for lag in range(0, 400, 8)
    )


def test_the_floor_fills_digital_silence_faintly() -> None:
    out = run(NoiseSuppressor(), np.zeros(RATE, np.int16), 480)
    assert 100 < rms(out) < 200  # about -47 dBFS: no exact zeros, and far below speech


def test_without_the_package_noise_passes_unsuppressed(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_webrtc(name: str, *args: object, **kwargs: object) -> object:
        if name == "webrtc_noise_gain":
            raise ImportError("no wheel for this platform")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_webrtc)
    suppressor = NoiseSuppressor(floor=0)
    audio = hum(0.5)
    assert not suppressor.active
    assert np.array_equal(run(suppressor, audio, 480), audio)
