"""Telling a narrowband microphone by its sound, on real espeak-ng speech."""

from __future__ import annotations

import numpy as np
import pytest

from hbr.voice.audio import RATE, narrowband
from hbr.voice.channel import NEEDED_SECONDS, BandCheck
from hbr.voice.synth import espeak

pytestmark = pytest.mark.audio

SPEECH = ["capture north west", "snare south east", "toward the rabbit", "help", "stop", "yes"]


def judge(utterances: list[np.ndarray]) -> bool | None:
    check = BandCheck()
    for audio in utterances:
        for start in range(0, len(audio), 480):
            check.feed(audio[start : start + 480])
    return check.narrowband


@pytest.mark.parametrize("voice", ["en-us", "en+f2", "en+m7"])
def test_wideband_speech_is_wideband_and_telephone_speech_narrowband(voice: str) -> None:
    speech = [espeak(text, voice, 160) for text in SPEECH]
    assert sum(len(s) for s in speech) / RATE >= NEEDED_SECONDS
    assert judge(speech) is False
    assert judge([narrowband(s) for s in speech]) is True


def test_too_little_speech_is_not_judged() -> None:
    check = BandCheck()
    check.feed(np.zeros(0, np.int16))
    check.feed(narrowband(espeak("help")))
    assert check.narrowband is None
