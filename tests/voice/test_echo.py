"""The echo canceller on the game's own voice (espeak-ng) through a simulated room:
another resampler than the game's, a direct sound and a reverberant tail, a delay."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
import soxr

from hbr.voice.audio import RATE
from hbr.voice.echo import BLOCK, EchoCanceller, EchoRemover, Recorded, measure_delay
from hbr.voice.played import QUALITY
from hbr.voice.recognizer import NOT_A_COMMAND, Heard


def spoken(text: str, tmp_path: Path, name: str) -> tuple[np.ndarray, int]:
    """espeak-ng's speech at its own rate (22050 Hz), float."""
    path = tmp_path / f"{name}.wav"
    subprocess.run(["espeak-ng", "-v", "en-us", "-s", "170", "-w", str(path), text], check=True)
    import wave

    with wave.open(str(path)) as w:
        return np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(np.float64) / 32768, w.getframerate()


@pytest.fixture(scope="module")
def observer(tmp_path_factory: pytest.TempPathFactory) -> tuple[np.ndarray, np.ndarray]:
    """(what the game's reference holds, what the room makes of it) for 20 s of the
    Observer: the reference resampled as the game does, the room's copy by another
    resampler than the reference's, through a 0.3 s reverberant room, 40 ms late, at -26 dBFS."""
    text = ("You are the hunter, and you cannot see. Catch the rabbit before it reaches its hole, "
            "and do not let the bear eat you. Each turn you step one square in one of eight directions. ") * 2
    speech, rate = spoken(text, tmp_path_factory.mktemp("echo"), "observer")
    speech = speech[: 20 * rate]
    reference = soxr.resample(speech, rate, RATE, quality=QUALITY)  # as the game resamples what it plays
    rng = np.random.default_rng(3)
    t = np.arange(int(0.4 * RATE)) / RATE
    room = 0.3 * rng.standard_normal(len(t)) * np.exp(-6.9 * t / 0.3)
    room[:40], room[40] = 0, 1
    heard = soxr.resample(speech, rate, RATE, quality="HQ")  # a better resampler than the game's
    n = len(heard) + len(room)
    echo = np.fft.irfft(np.fft.rfft(heard, n) * np.fft.rfft(room, n), n)[: len(reference)]
    echo *= 0.05 / np.sqrt(np.mean(echo**2))
    late = int(0.04 * RATE)
    return reference, np.concatenate([np.zeros(late), echo])[: len(reference)]


def db(before: np.ndarray, after: np.ndarray) -> float:
    return float(10 * np.log10(np.sum(before**2) / np.sum(after**2)))


def test_the_delay_is_measured_from_the_signals(observer: tuple[np.ndarray, np.ndarray]) -> None:
    reference, mic = observer
    window = slice(2 * RATE, 3 * RATE)
    lag = measure_delay(mic[window], reference[window], max_lag=RATE // 5)
    assert lag is not None and abs(lag - (int(0.04 * RATE) + 40)) <= 2  # the delay plus the direct sound's
    noise = np.random.default_rng(0).standard_normal(RATE)
    assert measure_delay(noise, reference[window]) is None  # no echo of it there: nothing stands out


def test_the_canceller_learns_the_room_and_keeps_the_players_voice(
    observer: tuple[np.ndarray, np.ndarray], tmp_path: Path
) -> None:
    """After some seconds of the Observer its echo is 25 dB down; a player talking over
    it then comes through nearly whole (the filter does not unlearn the room in double talk)."""
    reference, echo = observer
    player, rate = spoken("north east", tmp_path, "player")
    player = soxr.resample(player, rate, RATE)
    player *= 0.05 / np.sqrt(np.mean(player[np.abs(player) > 0.005] ** 2))  # as loud as the echo
    at = 15 * RATE
    voice = np.zeros(len(echo))
    voice[at : at + len(player)] = player
    canceller = EchoCanceller()
    mic = echo + voice
    shifted = np.concatenate([np.zeros(int(0.04 * RATE)), reference])  # the delay, as measured
    out = np.concatenate([
        canceller.block(mic[i : i + BLOCK], shifted[i : i + BLOCK]) for i in range(0, len(mic) - BLOCK + 1, BLOCK)
    ])
    quiet = slice(10 * RATE, 14 * RATE)
    assert db(echo[quiet], out[quiet]) > 25
    assert canceller.trusted  # the game may listen while it speaks
    said = slice(at, at + len(player))
    assert db(player, out[said] - player) > 12  # what is left besides the player's words is small
    after = slice(at + len(player) + RATE // 2, at + len(player) + 3 * RATE)
    assert db(echo[after], out[after]) > 20  # and the room is still known


def test_the_remover_finds_the_delay_itself(observer: tuple[np.ndarray, np.ndarray]) -> None:
    reference, echo = observer
    remover = EchoRemover(Recorded(reference))
    mic = np.round(echo * 32768).astype(np.int16)
    out = np.concatenate([remover.feed(mic[i : i + 480]) for i in range(0, len(mic), 480)])
    assert len(out) > len(mic) - BLOCK
    assert remover.delay is not None and abs(remover.delay - (int(0.04 * RATE) + 40)) <= 2
    last = slice(14 * RATE, 19 * RATE)
    assert db(mic[last].astype(np.float64), out[last].astype(np.float64)) > 20


def test_an_echo_it_cannot_learn_is_not_trusted(observer: tuple[np.ndarray, np.ndarray]) -> None:
    """A microphone whose sound the reference does not explain (here: the echo of other
    speech, as from a loudspeaker that distorts beyond a linear filter): the canceller
    never claims to remove it, so the game stays deaf while it speaks."""
    reference, echo = observer
    canceller = EchoCanceller()
    other = np.roll(echo, 3 * RATE)
    for i in range(0, len(echo) - BLOCK + 1, BLOCK):
        canceller.block(other[i : i + BLOCK], reference[i : i + BLOCK])
        assert not canceller.trusted


def test_without_anything_played_the_microphone_passes_through() -> None:
    remover = EchoRemover(Recorded(np.zeros(0)))
    mic = (np.random.default_rng(1).standard_normal(RATE) * 3000).astype(np.int16)
    out = np.concatenate([remover.feed(mic[i : i + 480]) for i in range(0, len(mic), 480)])
    assert np.array_equal(out, mic[: len(out)])


def test_a_phrase_made_of_what_the_canceller_left_of_the_game_is_passed_over(
    observer: tuple[np.ndarray, np.ndarray], tmp_path: Path
) -> None:
    """Whatever a recognizer makes of the echo the canceller has brought far down, it is
    not the player: a phrase heard then is passed over, and so is one heard in what the
    canceller adds when its reference says the game plays where the microphone heard
    nothing of it. The player's command said over the game, as loud as its echo or
    6 dB quieter, is not taken away, and is kept."""
    reference, echo = observer
    player, rate = spoken("north east", tmp_path, "player")
    player = soxr.resample(player, rate, RATE)
    player *= 0.05 / np.sqrt(np.mean(player[np.abs(player) > 0.005] ** 2))

    def screened_at(mic: np.ndarray, end: int, played: np.ndarray = reference) -> Heard:
        """What becomes of ``heard`` handed on at ``end``."""
        remover = EchoRemover(Recorded(played))
        samples = np.round(mic[:end] * 32768).astype(np.int16)
        for i in range(0, len(samples), 480):
            remover.feed(samples[i : i + 480])
        return remover.screened(heard)

    at = 15 * RATE
    end = at + len(player) + RATE // 4  # handed on a quarter of a second after the player stops
    heard = Heard("right", "right", 0.9, 100.0, since=(end - at) / RATE)
    alone = screened_at(echo, end)
    assert alone.phrase is None and alone.rejected == NOT_A_COMMAND
    for level in (1.0, 0.5):
        voice = np.zeros(len(echo))
        voice[at : at + len(player)] = level * player
        assert screened_at(echo + voice, end) == heard
    assert screened_at(voice, end, np.zeros(0)) == heard  # nothing played: nothing taken away
    # the reference says the game goes on playing where the microphone hears none of it
    added = screened_at(np.concatenate([echo[:at], np.zeros(len(echo) - at)]), end)
    assert added.phrase is None and added.rejected == NOT_A_COMMAND
