"""The voice speaker: in order, interruptible, printing everything, surviving a lost device."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pytest

from hbr.devices import AudioDeviceError
from hbr.speech.speaker import TextSpeaker, VoiceSpeaker
from hbr.speech.system import SystemSynthesizer
from hbr.speech.tts import Synthesizer, TTSError

pytestmark = pytest.mark.audio


class FakePlayer:
    """A player seam: records what it was asked to play; can fail like a lost device."""

    def __init__(self, fail_after: int | None = None) -> None:
        self.played: list[tuple[int, int, float]] = []
        self.fail_after = fail_after
        self.stopped = threading.Event()

    def stream(self, chunks: Iterable[np.ndarray], rate: int, volume: float = 1.0) -> bool:
        if self.fail_after is not None and len(self.played) >= self.fail_after:
            raise AudioDeviceError("audio output failed: device unplugged")
        self.played.append((sum(len(chunk) for chunk in chunks), rate, volume))
        return True

    def stop(self) -> None:
        self.stopped.set()

    def close(self) -> None:
        pass


def test_voice_speaker_speaks_in_order_and_prints_everything() -> None:
    printed: list[str] = []
    player = FakePlayer()
    speaker = VoiceSpeaker(SystemSynthesizer, player, printed.append)
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
    speaker = VoiceSpeaker(SystemSynthesizer, FakePlayer(fail_after=1), printed.append)
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
    speaker = VoiceSpeaker(SystemSynthesizer, player, lambda _: None)
    speaker.stop()
    assert player.stopped.is_set()
    speaker.close()


def test_text_speaker_prints() -> None:
    printed: list[str] = []
    TextSpeaker(printed.append).say("hello")
    assert printed == ["hello"]


def test_a_synthesizer_that_cannot_start_is_reported_not_hung() -> None:
    def broken() -> Synthesizer:
        raise TTSError("no speech synthesizer (libespeak-ng missing)")

    with pytest.raises(TTSError, match="libespeak-ng missing"):
        VoiceSpeaker(broken, FakePlayer(), lambda _: None)




def test_common_replies_are_rendered_ahead_while_idle(tmp_path: Path) -> None:
    from hbr.speech.cache import SpeechCache

    player = FakePlayer()
    cache = SpeechCache(tmp_path)
    speaker = VoiceSpeaker(SystemSynthesizer, player, lambda _: None, cache=cache)
    speaker.prepare(["You move north. The bear moves.", "Danger zone!"])
    deadline = time.monotonic() + 20
    while len(list(tmp_path.glob("*/*.npy"))) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(list(tmp_path.glob("*/*.npy"))) == 3
    speaker.adjust(rate=300)  # a new rate: rendered again
    while len(list(tmp_path.glob("*/*.npy"))) < 6 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(list(tmp_path.glob("*/*.npy"))) == 6
    assert player.played == []  # nothing was played while preparing
    speaker.close()
