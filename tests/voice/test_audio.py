import wave
from pathlib import Path

import numpy as np
import pytest
import soundfile

from hbr.voice.audio import (
    RATE,
    AudioError,
    MixDown,
    frame_levels,
    mix_at_snr,
    read_audio,
    reverberant,
    rms,
    speech_level,
    to_int16,
    to_mono16k,
    window,
    write_wav,
)


def tone(rate: int, seconds: float = 0.5, freq: float = 440.0) -> np.ndarray:
    t = np.arange(int(rate * seconds)) / rate
    return (np.sin(2 * np.pi * freq * t) * 10000).astype(np.int16)


def test_any_rate_and_channel_count_becomes_16k_mono(tmp_path: Path) -> None:
    stereo = np.stack([tone(44100), tone(44100)], axis=1)
    path = tmp_path / "s.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(44100)
        w.writeframes(stereo.tobytes())
    out = read_audio(path)
    assert out.dtype == np.int16
    assert abs(len(out) - RATE // 2) <= 2
    # The tone survives resampling: its level stays about the same.
    assert rms(out) == pytest.approx(rms(tone(RATE)), rel=0.05)


def test_a_channel_wired_the_other_way_round_does_not_cancel_the_other() -> None:
    """A stereo pair with one channel's polarity swapped mixes down to the sound, not to
    silence; a silent channel halves it, as a plain mean does; in-phase channels are
    their mean."""
    sound = tone(RATE).astype(np.float64) / 32768.0
    assert rms(to_mono16k(np.stack([sound, -sound], axis=1), RATE)) == pytest.approx(rms(tone(RATE)), rel=0.01)
    assert rms(to_mono16k(np.stack([-sound, sound * 0.5], axis=1), RATE)) == pytest.approx(0.75 * rms(tone(RATE)), rel=0.01)
    assert rms(to_mono16k(np.stack([np.zeros_like(sound), sound], axis=1), RATE)) == pytest.approx(
        0.5 * rms(tone(RATE)), rel=0.01)


def test_a_live_pair_is_judged_over_seconds_not_block_by_block() -> None:
    """Streamed in the microphone's blocks, an inverted pair mixes down as the whole
    recording does, also in the quiet between words, where its two channels' faint
    noise hardly agrees and a block alone would be turned over at random."""
    rng = np.random.default_rng(5)
    sound = np.concatenate([tone(RATE), np.zeros(RATE), tone(RATE)]).astype(np.float64)
    pair = np.stack([sound + rng.normal(0, 30, len(sound)), -0.8 * sound + rng.normal(0, 30, len(sound))], axis=1)
    live = MixDown(RATE)
    streamed = np.concatenate([live(pair[i : i + 160]) for i in range(0, len(pair), 160)])
    whole = MixDown()(pair)
    assert rms(whole[-RATE // 2 :]) == pytest.approx(0.9 * rms(tone(RATE)), rel=0.01)
    assert np.allclose(streamed, whole)
    alone = np.concatenate([MixDown(RATE)(pair[i : i + 160]) for i in range(0, len(pair), 160)])
    assert not np.allclose(alone, whole)  # block by block, the quiet is turned over and back


def test_8_bit_wav(tmp_path: Path) -> None:
    path = tmp_path / "8.wav"
    data = ((tone(8000).astype(np.int32) >> 8) + 128).astype(np.uint8)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(8000)
        w.writeframes(data.tobytes())
    assert rms(read_audio(path)) == pytest.approx(rms(tone(RATE)), rel=0.05)


def test_roundtrip(tmp_path: Path) -> None:
    write_wav(tmp_path / "a.wav", tone(RATE))
    assert np.array_equal(read_audio(tmp_path / "a.wav"), tone(RATE))


@pytest.mark.parametrize(
    ("name", "fmt", "subtype"),
    [
        ("24-bit.wav", "WAV", "PCM_24"),  # with the extensible header a recorder writes
        ("32-bit.wav", "WAV", "PCM_32"),
        ("float.wav", "WAV", "FLOAT"),  # as sound editors export by default
        ("a.flac", "FLAC", "PCM_16"),
        ("a.ogg", "OGG", "VORBIS"),
        ("a.mp3", "MP3", "MPEG_LAYER_III"),
    ],
)
def test_recordings_of_other_programs_are_read(tmp_path: Path, name: str, fmt: str, subtype: str) -> None:
    """A recording made elsewhere, at 48 kHz in stereo, in a format that recorders and
    editors write: read as the same sound, at its level, 16 kHz mono."""
    sound = tone(48000, 1.0) / 32768.0
    path = tmp_path / name
    soundfile.write(path, np.stack([sound, sound], axis=1), 48000, format=fmt, subtype=subtype)
    out = read_audio(path)
    assert out.dtype == np.int16 and abs(len(out) - RATE) <= RATE // 20  # an MP3 decoder may pad
    assert rms(out) == pytest.approx(rms(tone(RATE, 1.0)), rel=0.05)
    spectrum = np.abs(np.fft.rfft(out.astype(np.float64)))
    assert np.argmax(spectrum) * RATE / len(out) == pytest.approx(440.0, abs=2.0)


def test_broken_and_missing_files(tmp_path: Path) -> None:
    (tmp_path / "bad.wav").write_bytes(b"RIFF....not a wave")
    with pytest.raises(AudioError, match="not a sound file hbr can read"):
        read_audio(tmp_path / "bad.wav")
    with pytest.raises(AudioError, match="no such file"):
        read_audio(tmp_path / "missing.wav")


def test_mix_at_snr_gives_the_asked_ratio() -> None:
    speech = tone(RATE, 1.0)
    noise = np.random.default_rng(0).normal(0, 3000, RATE).astype(np.int16)
    mixed = mix_at_snr(speech, noise, 10.0).astype(np.float64)
    added = mixed - speech
    assert 20 * np.log10(rms(speech) / rms(added)) == pytest.approx(10.0, abs=0.2)


#: The seed of the rooms' reflections (the benchmarks' own).
ROOM = 7


@pytest.mark.parametrize(("seconds", "direct_db"), [(0.4, 6.0), (0.7, 0.0), (1.0, -3.0)])
def test_a_room_that_rings_dies_away_at_its_rt60_and_keeps_the_level(seconds: float, direct_db: float) -> None:
    """A click in the room: the direct sound, then an echo that falls 60 dB in
    ``seconds``, as much quieter in all than the direct sound as asked; a tone keeps its
    level and length."""
    click = np.zeros(2 * RATE, np.int16)
    click[0] = 3000  # the result is made as loud as the click: louder, but not clipped
    heard = reverberant(click, seconds, direct_db, ROOM).astype(np.float64)
    echo = heard[1:]
    assert 10 * np.log10(heard[0] ** 2 / np.sum(echo**2)) == pytest.approx(direct_db, abs=0.5)
    early, late = (rms(echo[int(a * RATE) : int((a + 0.05) * RATE)]) for a in (0.05, 0.05 + seconds / 3))
    assert 20 * np.log10(early / late) == pytest.approx(20.0, abs=3.0)
    speech = tone(RATE, 0.5)
    assert len(reverberant(speech, seconds, direct_db, ROOM)) == len(speech)
    assert speech_level(reverberant(speech, seconds, direct_db, ROOM)) == pytest.approx(speech_level(speech), rel=0.01)


def test_worked_samples_come_back_rounded_and_too_loud_ones_clipped_not_wrapped() -> None:
    out = to_int16(np.array([0.4, 0.6, -1.6, 40000.0, -40000.0, 32767.4]))
    assert out.dtype == np.int16
    assert out.tolist() == [0, 1, -2, 32767, -32768, 32767]


def test_float_input() -> None:
    out = to_mono16k(np.full(1600, 0.5, np.float32), RATE)
    assert out.dtype == np.int16 and out[0] == 16384


def test_a_window_over_placed_samples_is_silent_around_them() -> None:
    samples = np.array([1.0, 2.0, 3.0])
    assert window(samples, 5, 3, 4).tolist() == [0.0, 0.0, 1.0, 2.0]
    assert window(samples, 5, 6, 4).tolist() == [2.0, 3.0, 0.0, 0.0]
    assert window(samples, 5, 9, 2).tolist() == [0.0, 0.0]
    assert window(samples, -1, 0, 3).tolist() == [2.0, 3.0, 0.0]


def test_frame_levels_are_the_rms_of_each_frame_the_last_one_short() -> None:
    samples = np.random.default_rng(5).normal(0, 500, 1000).astype(np.int16)
    expected = [rms(samples[start : start + 160]) for start in range(0, 1000, 160)]
    assert len(expected) == 7  # six whole frames and 40 samples
    assert np.allclose(frame_levels(samples, 160), expected)
    assert len(frame_levels(np.zeros(0, np.int16), 160)) == 0
