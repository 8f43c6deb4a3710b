"""Telling a narrowband or clipping microphone by its sound, on real espeak-ng speech,
and a microphone that gives no sound at all."""

from __future__ import annotations

import numpy as np
import pytest
import soxr

from hbr.voice.audio import RATE, clipped, headroom, narrowband
from hbr.voice.channel import CLIPPING, NEEDED_SECONDS, SILENT, SILENT_SECONDS, ChannelCheck
from hbr.voice.synth import espeak

pytestmark = pytest.mark.audio

SPEECH = ["capture north west", "snare south east", "toward the rabbit", "help", "stop", "yes"]


def heard(utterances: list[np.ndarray]) -> ChannelCheck:
    check = ChannelCheck()
    for audio in utterances:
        for start in range(0, len(audio), 480):
            check.feed(audio[start : start + 480])
    return check


@pytest.mark.parametrize("voice", ["en-us", "en+f2", "en+m7"])
def test_wideband_speech_is_wideband_and_telephone_speech_narrowband(voice: str) -> None:
    speech = [espeak(text, voice, 160) for text in SPEECH]
    assert sum(len(s) for s in speech) / RATE >= NEEDED_SECONDS
    assert heard(speech).narrowband is False
    assert heard([narrowband(s) for s in speech]).narrowband is True


@pytest.mark.parametrize("voice", ["en-us", "en+f2", "en+m7"])
def test_speech_at_full_scale_is_not_clipping_and_speech_driven_past_it_is(voice: str) -> None:
    speech = [espeak(text, voice, 160) for text in SPEECH]
    loudest = [clipped(s, headroom(s)) for s in speech]  # peaks at the top
    assert heard(loudest).findings == frozenset()
    too_loud = [clipped(s, 12) for s in loudest]
    assert heard(too_loud).findings == {CLIPPING}


def test_clipping_is_told_after_resampling_too() -> None:
    """A microphone that clips at 48 kHz, its stream resampled to 16 kHz on the way: the
    flat tops ripple below full scale, and are still told."""
    speech = np.concatenate([espeak(text, "en-us", 160) for text in SPEECH])
    at_48k = clipped(soxr.resample(speech, RATE, 48000), 12)
    assert heard([soxr.resample(at_48k, 48000, RATE)]).clipping is True


def test_too_little_speech_is_not_judged() -> None:
    check = ChannelCheck()
    check.feed(np.zeros(0, np.int16))
    check.feed(clipped(narrowband(espeak("help")), 20))
    assert check.narrowband is None
    assert check.clipping is None
    assert check.findings == frozenset()


def listened(*parts: np.ndarray) -> ChannelCheck:
    """A check that listened to ``parts`` in the microphone's blocks (10 ms)."""
    check = ChannelCheck()
    for audio in parts:
        for start in range(0, len(audio), 160):
            check.listened(audio[start : start + 160])
    return check


def test_a_microphone_that_gives_nothing_but_digital_silence_is_silent() -> None:
    """Muted: told once it has been listened to for SILENT_SECONDS. A real microphone's
    faintest noise, a rounding dither, or one word in between, and it is not silent."""
    quiet = np.zeros(int(SILENT_SECONDS * RATE), np.int16)
    assert listened(quiet[:-160]).findings == frozenset()
    assert listened(quiet).findings == {SILENT}
    rng = np.random.default_rng(1)
    faint = np.round(rng.normal(0.0, 1.5, len(quiet))).astype(np.int16)  # -87 dBFS
    assert not listened(faint).silent
    assert not listened(quiet[: RATE], espeak("north"), quiet).silent  # a headset that gates its quiet
