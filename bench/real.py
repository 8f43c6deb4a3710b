"""The real recordings in ../shared/speech-dev (Speech Commands, many speakers), split
by speaker into a half that models are fitted on and a half they are measured on.

Speech Commands' words that the game knows: up, down, left, right (north, south,
west, east), yes, no, stop. Everything else, and the silence clips, must be heard
as no command at all. The split is by speaker, so no voice is both fitted and
measured; it is fixed (a hash of the speaker's id), so every run agrees.
"""

from __future__ import annotations

import csv
import hashlib
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soxr
from corpus import BABBLE, NOISE_SEED, NON_COMMANDS, Clip, as_spoken, noises

from hbr.voice.audio import RATE, mix_at_snr, narrowband, read_audio, reverberant, to_int16

#: ../shared/speech-dev beside the project, or $HBR_SPEECH_DEV.
FOLDER = Path(os.environ.get("HBR_SPEECH_DEV", Path(__file__).resolve().parents[2] / "shared" / "speech-dev"))
#: What the game makes of each command word of the data set (its grammar's words).
MEANS = {"up": "up", "down": "down", "left": "left", "right": "right", "yes": "yes", "no": "no", "stop": "stop"}
#: Signal-to-noise ratios (dB) of the recordings heard in a room's noise (:func:`in_noise`):
#: each a seeded draw from this range.
NOISY_SNR = (3.0, 20.0)
#: The noise that models are fitted in: another seed and other sentences for its babble
#: than the noise of the benchmarks (bench/corpus.py: NOISE_SEED, BABBLE).
FIT_SEED, FIT_TALK = 13, tuple(NON_COMMANDS[6:12])
#: Rooms that ring that the recordings are heard across (:func:`in_echo`): each a
#: seeded draw of RT60 (seconds) and of how much louder the direct sound is than the
#: reflections (dB), from a living room with a desk microphone to a hall with the
#: microphone far from the speaker.
ECHO_SECONDS, ECHO_DIRECT_DB = (0.3, 1.2), (-4.0, 8.0)
#: The reflections of the benchmarks' rooms (hbr.voice.audio.reverberant's seed).
TEST_ROOM = 7
#: The lowest frequency (Hz) a telephone channel that models are fitted on passes
#: (:func:`telephone`): each a seeded draw from this range.
PHONE_LOW_HZ = (150.0, 450.0)
#: G.711's mu-law (a telephone's 8-bit samples).
MU = 255.0
#: How far (cents, up or down) the voices that models are fitted on are shifted
#: (:func:`in_pitch`): each a seeded draw from this range, its sign drawn too. 500 cents
#: raise a man's voice to about a child's pitch and formants.
PITCH_CENTS = (150.0, 500.0)


@dataclass(frozen=True)
class Recording:
    file: str
    word: str  # "" for silence
    category: str  # command_word, other_word, silence
    speaker: str

    @property
    def is_command(self) -> bool:
        return self.category == "command_word"

    @property
    def fitted(self) -> bool:
        """In the half that models are fitted on (silence clips, which have no speaker, by file)."""
        key = self.speaker or self.file
        return int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) % 2 == 0

    def audio(self) -> np.ndarray:
        return read_audio(FOLDER / self.file)


def available() -> bool:
    return (FOLDER / "manifest.csv").is_file()


def require() -> None:
    """Stop a script that needs the recordings, saying where they were looked for."""
    if not available():
        sys.exit(f"the real recordings are not at {FOLDER} (set HBR_SPEECH_DEV)")


def recordings(half: str = "all") -> Iterator[Recording]:
    """The recordings of one half ("fit" or "test") or of both ("all")."""
    with open(FOLDER / "manifest.csv", newline="") as f:
        for row in csv.DictReader(f):
            rec = Recording(row["file"], row["word"], row["category"], row["speaker"])
            if half == "all" or rec.fitted == (half == "fit"):
                yield rec


def as_clips(half: str, understood: Callable[[str], bool] = MEANS.__contains__) -> list[Clip]:
    """The recordings of one half as corpus clips (condition "real"): 0.3 s of quiet
    before the words and a second after, as bench/corpus.py's clips have. A word is a
    command when ``understood`` says so: by default when it is one of Hunter Bear
    Rabbit's; Spyhunting also understands "forward" and "backward", Jumpers none of up,
    down, left and right."""
    return [
        Clip(rec.word if understood(rec.word) else "", understood(rec.word), "real", 0, "real",
             as_spoken(rec.audio()))
        for rec in recordings(half)
    ]


def in_noise(audios: Sequence[np.ndarray], fitting: bool) -> list[np.ndarray]:
    """The recordings again, each in one kind of bench/corpus.py's noise (the kinds in
    turn), from a random point of it, at a seeded signal-to-noise ratio from NOISY_SNR:
    real voices in the noise of a room, which the recordings themselves have little of.
    ``fitting``: in the noise that models are fitted in, else in the benchmarks'."""
    seed, talk = (FIT_SEED, FIT_TALK) if fitting else (NOISE_SEED, BABBLE)
    room = noises(seed=seed, talk=talk)
    rng = np.random.default_rng(seed)
    kinds = sorted(room)
    out = []
    for i, audio in enumerate(audios):
        noise = room[kinds[i % len(kinds)]]
        out.append(mix_at_snr(audio, np.roll(noise, int(rng.integers(len(noise)))), float(rng.uniform(*NOISY_SNR))))
    return out


def in_echo(audios: Sequence[np.ndarray], fitting: bool) -> list[np.ndarray]:
    """The recordings again, each across a room that rings (hbr.voice.audio.reverberant)
    with half a second more for its echo to ring into, of a seeded RT60 and direct
    sound from ECHO_SECONDS and ECHO_DIRECT_DB. ``fitting``: in rooms of other
    reflections, drawn from another seed, than the benchmarks'."""
    seed, room = (FIT_SEED, FIT_SEED) if fitting else (NOISE_SEED, TEST_ROOM)
    rng = np.random.default_rng(seed)
    tail = np.zeros(RATE // 2, np.int16)
    return [reverberant(np.concatenate([audio, tail]), float(rng.uniform(*ECHO_SECONDS)),
                        float(rng.uniform(*ECHO_DIRECT_DB)), room) for audio in audios]


def telephone(audio: np.ndarray, low_hz: float) -> np.ndarray:
    """A narrowband channel unlike the benchmarks' (hbr.voice.audio.narrowband, a brick
    wall at 300-3400 Hz): sampled at 8 kHz (soxr's filter below 4 kHz), nothing below
    ``low_hz``, and 8-bit mu-law samples, as a telephone line carries them."""
    x = soxr.resample(audio.astype(np.float64) / 32768.0, RATE, RATE // 2)
    spectrum = np.fft.rfft(x)
    spectrum[np.fft.rfftfreq(len(x), 2 / RATE) < low_hz] = 0
    x = np.clip(np.fft.irfft(spectrum, len(x)), -1.0, 1.0)
    coded = np.round(np.sign(x) * np.log1p(MU * np.abs(x)) / np.log1p(MU) * 127) / 127
    x = np.sign(coded) * np.expm1(np.abs(coded) * np.log1p(MU)) / MU
    return to_int16(soxr.resample(x, RATE // 2, RATE)[: len(audio)] * 32768.0)


def _sox(audio: np.ndarray, *effect: str) -> np.ndarray:
    """A recording through one of sox's effects."""
    raw = ["-t", "raw", "-r", str(RATE), "-e", "signed", "-b", "16", "-c", "1"]
    done = subprocess.run(["sox", *raw, "-", *raw, "-", *effect],
                          input=np.asarray(audio, np.int16).tobytes(), capture_output=True, check=True).stdout
    return np.frombuffer(done, np.int16).copy()


def pitched(audio: np.ndarray, cents: float) -> np.ndarray:
    """A recording with its pitch and formants shifted by ``cents`` (sox's pitch effect:
    resampled, its tempo put back), as a smaller or larger voice would say it: a child,
    a deep voice."""
    return _sox(audio, "pitch", f"{cents:.0f}")


def paced(audio: np.ndarray, factor: float) -> np.ndarray:
    """A recording said ``factor`` times as fast (less than 1: slower), its pitch kept
    (sox's tempo effect, tuned for speech): a player who drawls, or one in a hurry."""
    return _sox(audio, "tempo", "-s", f"{factor:g}")


def in_pitch(audios: Sequence[np.ndarray], fitting: bool) -> list[np.ndarray]:
    """The recordings again, each in a higher or lower voice (:func:`pitched`), shifted
    by a seeded draw from PITCH_CENTS, up or down: the voices of ../shared/speech-dev
    are adults'; a game is also played by children. ``fitting``: drawn from another
    seed than the benchmarks'."""
    rng = np.random.default_rng(FIT_SEED if fitting else NOISE_SEED)
    return [pitched(audio, float(rng.choice((-1.0, 1.0)) * rng.uniform(*PITCH_CENTS))) for audio in audios]


def in_narrowband(audios: Sequence[np.ndarray], fitting: bool) -> list[np.ndarray]:
    """The recordings again, through a narrowband channel (a Bluetooth headset in
    hands-free mode, a telephone line). ``fitting``: the telephone channel models are
    fitted on (:func:`telephone`, a seeded low edge from PHONE_LOW_HZ), else the
    benchmarks' (hbr.voice.audio.narrowband)."""
    if not fitting:
        return [narrowband(audio) for audio in audios]
    rng = np.random.default_rng(FIT_SEED)
    return [telephone(audio, float(rng.uniform(*PHONE_LOW_HZ))) for audio in audios]
