"""The played-sound timeline on a clock the test moves: where the player's samples
land on the microphone's sample indices, and when they are known."""

from __future__ import annotations

import numpy as np

from hbr.voice.audio import RATE
from hbr.voice.played import IDLE, LATE, SETTLE, Played


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_played_samples_land_where_the_microphone_heard_them() -> None:
    clock = Clock()
    played = Played(clock)
    played.captured(0)  # the microphone's sample 0 is at t = 100
    clock.now = 100.5
    played.captured(RATE // 2 - 10)  # a late callback: it does not move the microphone's clock
    played.begin(RATE)
    block = np.linspace(0.1, 0.2, 160, dtype=np.float32)
    played.block(block)  # handed at 100.5: the microphone's sample 8000
    clock.now += 0.01
    played.block(block)
    got = played.read(RATE // 2 - 10, 340)
    assert np.allclose(got[:10], 0)
    assert np.allclose(got[10:170], block) and np.allclose(got[170:330], block)
    assert np.allclose(got[330:], 0)  # not played (yet)


def test_the_microphones_clock_is_set_by_its_first_callbacks_only() -> None:
    """An early burst later on (PulseAudio, when another stream starts) does not move
    where the played sound lands: that undid what the canceller had learnt."""
    clock = Clock()
    played = Played(clock)
    played.captured(480)  # its sample 0 at 99.97
    clock.now = 100.02
    played.captured(480 + 320)  # at 99.97 again
    clock.now = 100.0 + SETTLE + 1.0
    played.captured(round((SETTLE + 1.0 + 0.05) * RATE))  # a burst: 20 ms more than time allows
    played.begin(RATE)
    played.block(np.full(160, 0.5, np.float32))
    at = round((SETTLE + 1.0 + 0.03) * RATE)  # where 100 + SETTLE + 1 is on the first clock
    assert np.allclose(played.read(at, 160), 0.5)


def test_a_player_that_fell_behind_moves_what_follows() -> None:
    clock = Clock()
    played = Played(clock)
    played.captured(0)
    played.begin(RATE)
    played.block(np.full(160, 0.5, np.float32))
    clock.now += 0.01 + LATE / 2  # jitter: the stream stays where it was
    played.block(np.full(160, 0.25, np.float32))
    assert np.allclose(played.read(160, 160), 0.25)
    clock.now += 0.01 + 2 * LATE  # an underrun: silence was played, the rest comes later
    played.block(np.full(160, 0.75, np.float32))
    start = round((0.02 + LATE / 2 + 2 * LATE) * RATE) - 320  # where the whole stream now begins
    assert np.allclose(played.read(start + 320, 160), 0.75)


def test_a_late_callback_the_device_still_had_sound_for_does_not_move_the_stream() -> None:
    """With the device's own account of when a block is heard (PortAudio's DAC time), a
    callback that ran late on a busy machine, before the buffer ran dry, is not taken
    for an underrun: moving the reference then undid what the canceller had learnt."""
    clock = Clock()
    played = Played(clock)
    played.captured(0)
    played.begin(RATE)
    played.block(np.full(160, 0.5, np.float32), ahead=0.2)  # heard 0.2 s from now
    clock.now += 0.01 + 3 * LATE  # late, but the device still held sound: heard on time
    played.block(np.full(160, 0.25, np.float32), ahead=0.2 - 3 * LATE)
    assert np.allclose(played.read(round(0.2 * RATE) + 160, 160), 0.25)
    clock.now += 0.01 + 0.2  # the buffer ran dry: the device hears this block at once
    played.block(np.full(160, 0.75, np.float32), ahead=0.0)
    start = round((0.02 + 3 * LATE + 0.2) * RATE) - 320  # where the whole stream now begins
    assert np.allclose(played.read(start + 320, 160), 0.75)


def test_the_reference_is_ready_once_handed_or_when_the_player_stopped() -> None:
    clock = Clock()
    played = Played(clock)
    assert played.ready(10**6)  # nothing played at all
    played.captured(0)
    played.begin(RATE)
    played.block(np.zeros(160, np.float32))
    assert played.ready(160) and not played.ready(400)
    clock.now += 2 * IDLE  # nothing more handed: the stream is over
    assert played.ready(400)


def test_long_playback_is_read_in_pieces() -> None:
    """A minute of rules, handed in 2 ms blocks at the player's own rate: its last
    seconds are there to read, resampled (what lies further back is let go)."""
    clock = Clock()
    played = Played(clock)
    played.captured(0)
    played.begin(22050)
    tone = np.sin(np.arange(22050 * 60) * 2 * np.pi * 440 / 22050).astype(np.float32)
    for i in range(0, len(tone), 44):
        played.block(tone[i : i + 44])
        clock.now += 44 / 22050
    got = played.read(55 * RATE, RATE)
    want = np.sin(np.arange(55 * RATE, 56 * RATE) * 2 * np.pi * 440 / RATE)
    assert np.corrcoef(got, want)[0, 1] > 0.99
