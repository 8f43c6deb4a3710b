"""The room's level: what stands above it is speech to the endpointer."""

from __future__ import annotations

import numpy as np
import pytest

from hbr.voice import background
from hbr.voice.audio import RATE, to_int16
from hbr.voice.background import Background, Loudness, stands_out
from hbr.voice.denoise import FLOOR

FRAME = 0.03
ROOM = round(background.SECONDS / FRAME)  # frames until the room is known
#: A room with talk in it, that the suppressor left well above its floor.
TALK = FLOOR * 10 ** ((background.QUIET_ROOM_DB + 6) / 20)


def above(decibels: float, level: float = TALK) -> float:
    return level * 10 ** (decibels / 20)


def test_nothing_is_held_back_until_the_room_is_known() -> None:
    room = Background(FRAME)
    assert all(room.margin(TALK) == float("inf") for _ in range(ROOM))
    assert room.margin(TALK) == 0.0


def test_a_room_the_suppressor_brought_near_its_floor_is_quiet() -> None:
    """There a quiet speaker, a few decibels above the floor, is heard as before."""
    room = Background(FRAME)
    for _ in range(ROOM):
        room.margin(FLOOR)
    assert stands_out(room.margin(above(3.0, FLOOR)))


def test_a_frame_is_speech_only_well_above_the_room() -> None:
    room = Background(FRAME)
    for _ in range(ROOM):
        room.margin(TALK)
    assert room.margin(above(4.0)) == pytest.approx(4.0)
    assert not stands_out(room.margin(above(background.GATE_DB - 1)))
    assert stands_out(room.margin(above(background.GATE_DB + 1)))


def test_speech_once_begun_goes_on_nearer_the_room() -> None:
    """The weak words of a phrase ("the" in "toward the bear") stand less far above the
    room than its stressed ones, and must not end it."""
    between = (background.HOLD_DB + background.GATE_DB) / 2
    assert stands_out(between, speaking=True) and not stands_out(between)


def test_the_player_s_own_commands_do_not_become_the_room() -> None:
    """A quick player: a command of a second and a half every four seconds, the
    Observer's answer between them (echo cancelled: the room's level). The median
    stays the room's, and every frame of every command stands out."""
    room = Background(FRAME)
    speaking = [(i * FRAME) % 4.0 < 1.5 for i in range(round(40 / FRAME))]
    heard = [stands_out(room.margin(above(20.0) if loud else TALK)) for loud in speaking]
    assert sum(speaking) > ROOM and all(h for h, loud in zip(heard, speaking, strict=True) if loud)


def test_the_room_s_level_follows_a_louder_room() -> None:
    """A television turned on: after a few seconds its talk is the room, not speech."""
    room = Background(FRAME)
    for _ in range(ROOM):
        room.margin(FLOOR)
    television = [stands_out(room.margin(TALK)) for _ in range(ROOM)]
    assert television[0] and not any(television[ROOM // 2 + 2 :])


def sound(level: float, seconds: float, seed: int = 0) -> np.ndarray:
    """Noise of this level (RMS), as a microphone delivers it."""
    return to_int16(np.random.default_rng(seed).normal(0.0, level, int(seconds * RATE)))


def test_how_far_the_player_stood_above_the_room_as_the_microphone_heard_both() -> None:
    """Unknown until the room has been heard for :data:`background.SECONDS`; then the
    player's loud frames against the room's median, whatever the blocks."""
    loudness = Loudness(FRAME)
    loudness.feed(sound(100.0, 2.0))
    loudness.feed(sound(100.0 * 10 ** (15 / 20), 1.0, seed=1))
    assert loudness.above_room(2.0, 3.0) == float("inf")
    for block in np.array_split(sound(100.0, background.SECONDS, seed=2), 37):
        loudness.feed(block)
    loudness.feed(sound(100.0 * 10 ** (15 / 20), 1.0, seed=3))
    end = 3.0 + background.SECONDS + 1.0
    assert loudness.above_room(end - 1.0, end) == pytest.approx(15.0, abs=1.0)
    assert loudness.above_room(end - 2.0, end - 1.0) == pytest.approx(0.0, abs=1.0)  # the room itself


def test_the_room_is_kept_when_the_listener_starts_again() -> None:
    """The listener starts afresh after the game has spoken (its microphone muted), and
    the player answers at once: heard against the quiet room learnt before, not
    against the second of sound heard since (mostly the answer itself)."""
    loudness = Loudness(FRAME)
    loudness.feed(sound(30.0, background.SECONDS))
    loudness.restart()
    loudness.feed(sound(30.0, 0.3, seed=1))
    loudness.feed(sound(3000.0, 0.6, seed=2))
    assert loudness.above_room(0.3, 0.9) == pytest.approx(40.0, abs=1.0)


def test_what_is_left_of_the_game_s_own_voice_is_no_part_of_the_room() -> None:
    loudness = Loudness(FRAME)
    loudness.feed(sound(30.0, background.SECONDS))
    loudness.feed(sound(3000.0, 2 * background.SECONDS, seed=1), playing=True)
    loudness.feed(sound(3000.0, 1.0, seed=2))
    end = 3 * background.SECONDS + 1.0
    assert loudness.above_room(end - 1.0, end) == pytest.approx(40.0, abs=1.0)


def test_a_silent_room_is_no_noise() -> None:
    """Exact digital silence between recordings (a file, a benchmark): nothing to be
    heard above, so the player was not heard in noise."""
    loudness = Loudness(FRAME)
    loudness.feed(np.zeros(int(background.SECONDS * RATE), np.int16))
    loudness.feed(sound(1000.0, 1.0))
    assert loudness.above_room(background.SECONDS, background.SECONDS + 1.0) == float("inf")


def test_a_microphone_s_offset_from_zero_is_no_noise() -> None:
    """Some microphones and sound cards add a constant to every sample: heard as the
    room's level, a quiet room with such an offset was a noisy one, and a real "stop"
    read at 0.95 was handed on at 0.79, nearly asked back."""
    loudness = Loudness(FRAME)
    offset = 3000
    loudness.feed((sound(30.0, background.SECONDS) + offset).astype(np.int16))
    loudness.feed((sound(3000.0, 1.0, seed=1) + offset).astype(np.int16))
    end = background.SECONDS + 1.0
    assert loudness.above_room(end - 1.0, end) == pytest.approx(40.0, abs=1.0)
