"""Automatic gain: quiet sound raised towards a level, loud sound and room noise left alone."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hbr.voice.audio import RATE, rms
from hbr.voice.gain import FRAME, MOST_DB, NOISE_CEILING, TARGET, AutoGain, levelled


def tone(level: float, seconds: float) -> np.ndarray:
    """A 200 Hz tone whose RMS is ``level``."""
    t = np.arange(int(seconds * RATE)) / RATE
    samples: np.ndarray = np.round(level * np.sqrt(2) * np.sin(2 * np.pi * 200 * t)).astype(np.int16)
    return samples


def test_quiet_sound_after_silence_is_raised_to_about_the_target() -> None:
    quiet = tone(TARGET / 20, 0.5)  # 26 dB down
    out = AutoGain().process(np.concatenate([np.zeros(RATE, np.int16), quiet]))
    assert np.all(out[:RATE] == 0)  # nothing is made of digital silence
    assert 0.9 * TARGET < rms(out[RATE:]) < 1.05 * TARGET


def test_loud_sound_is_left_as_it_is() -> None:
    loud = tone(2 * TARGET, 0.5)
    gain = AutoGain()
    assert np.array_equal(gain.process(loud), loud)
    assert gain.gain == 1.0


def test_the_gain_is_at_most_the_most() -> None:
    faint = tone(TARGET / 300, 0.1)  # 50 dB down, a moment after silence
    out = AutoGain().process(np.concatenate([np.zeros(RATE // 2, np.int16), faint]))
    assert abs(20 * np.log10(rms(out[RATE // 2 :]) / rms(faint)) - MOST_DB) < 0.2


def test_a_quiet_word_soon_after_a_loud_one_is_not_raised_to_the_target() -> None:
    """The loudest recent level drifts down slowly: the fading end of a loud word, or a
    quiet word a moment after it, keeps its place below the loud one."""
    out = AutoGain().process(np.concatenate([np.zeros(RATE, np.int16), tone(TARGET, 0.3), tone(TARGET / 10, 0.3)]))
    assert rms(out[int(1.3 * RATE) :]) < TARGET / 5


def test_steady_room_noise_is_not_raised_above_the_ceiling() -> None:
    """Noise the suppressor took down must not come back up in the pauses."""
    hiss = np.round(np.random.default_rng(3).normal(0, 40, 3 * RATE)).astype(np.int16)
    out = AutoGain().process(hiss)
    assert rms(out[RATE:]) < 1.3 * NOISE_CEILING  # (frames vary about their mean)
    words = np.concatenate([hiss, (hiss[:RATE] + tone(200, 1.0)).astype(np.int16)])
    raised = AutoGain().process(words)
    # the words in that noise are raised as far as the noise allows, no further
    assert rms(raised[3 * RATE :]) / rms(words[3 * RATE :]) < 1.3 * NOISE_CEILING / 40


def test_a_held_gain_raises_nothing_and_is_kept_for_after() -> None:
    """While the game speaks, what the echo canceller leaves of its voice is not raised,
    however far the gain had risen in the quiet before; after, the gain goes on from
    where it was."""
    words = np.concatenate([tone(TARGET, 0.3), np.zeros(6 * RATE, np.int16)])  # then quiet: the gain rises
    residue = tone(TARGET / 30, 3.0)
    free, held = AutoGain(), AutoGain()
    raised = free.process(np.concatenate([words, residue]))
    held.process(words)
    before = held.gain
    kept = held.process(residue, hold=True)
    assert rms(raised[-RATE // 2 :]) > 10 * rms(residue)  # raised after the quiet
    assert np.array_equal(kept, residue)
    assert held.gain == before > 10
    quiet_word = tone(TARGET / 30, 0.3)
    assert rms(held.process(quiet_word)) > 10 * rms(quiet_word)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 20000), min_size=1, max_size=40), st.integers(0, 2**31))
def test_a_frame_is_never_raised_past_the_target_nor_lowered(levels: list[float], seed: int) -> None:
    rng = np.random.default_rng(seed)
    audio = np.concatenate([np.clip(rng.normal(0, level, FRAME), -32768, 32767) for level in levels]).astype(np.int16)
    out = AutoGain().process(audio)
    for start in range(0, len(audio), FRAME):
        before, after = rms(audio[start : start + FRAME]), rms(out[start : start + FRAME])
        assert after >= before - 1  # (rounding)
        assert after <= max(before, TARGET) + 1


def test_blocks_of_whole_frames_give_the_same_audio_back() -> None:
    audio = np.concatenate([np.zeros(RATE // 2, np.int16), tone(100, 0.5), tone(5000, 0.2), tone(50, 0.5)])
    whole = AutoGain().process(audio)
    gain = AutoGain()
    parts = [gain.process(audio[i : i + 3 * FRAME]) for i in range(0, len(audio), 3 * FRAME)]
    assert np.array_equal(np.concatenate(parts), whole)


def test_a_quiet_utterance_is_levelled_whole_by_one_gain() -> None:
    """Its loudest frame at the target, its quiet parts (a softer syllable, the room's
    hiss) raised by the same factor, so the utterance keeps its shape."""
    rng = np.random.default_rng(3)
    utterance = np.concatenate([np.round(rng.normal(0, 5, RATE // 4)), tone(TARGET / 10, 0.2), tone(TARGET / 40, 0.2)])
    out = levelled(utterance.astype(np.int16))
    assert 0.99 * TARGET < rms(out[RATE // 4 : RATE // 4 + int(0.2 * RATE)]) < 1.01 * TARGET
    sounding = utterance != 0
    factors = out[sounding] / utterance[sounding]
    assert np.ptp(factors) < 1e-9 and 9.9 < factors[0] < 10.1


def test_loud_faint_and_silent_utterances_are_levelled_within_bounds() -> None:
    loud = tone(3 * TARGET, 0.3)
    assert np.array_equal(levelled(loud), loud)  # never lowered
    faint = tone(TARGET / 1000, 0.3)  # 60 dB down: raised by the most, no more
    assert abs(20 * np.log10(rms(levelled(faint)) / rms(faint)) - MOST_DB) < 0.2
    assert not np.any(levelled(np.zeros(RATE, np.int16)))
    assert len(levelled(np.zeros(0, np.int16))) == 0
