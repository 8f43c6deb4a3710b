"""Audio as the recognizers want it: 16 kHz, mono, 16-bit, whatever came in.

Samples are numpy int16 arrays. Reading accepts any rate, channel count and common
file format (soundfile, over libsndfile); resampling uses soxr (a well-kept,
high-quality resampler) rather than hand code.
"""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
import soxr

RATE = 16_000
#: Seconds of sound the microphone hands over at a time. The end of a command is
#: noticed only when the block holding it arrives, so a block adds up to its own
#: length to the wait after the last word: 10 ms blocks, not 30, took 10 ms off the
#: median (docs/benchmarks.md); the listener frames any block size itself.
BLOCK_SECONDS = 0.01


class AudioError(ValueError):
    """Audio that cannot be used; the message is one sentence for the user."""


def to_int16(samples: np.ndarray) -> np.ndarray:
    """Samples worked on as floats, on the int16 scale, back to int16: rounded, and
    clipped where the work made them louder than 16 bits hold (a wrap-around would
    be a loud click)."""
    result: np.ndarray = np.clip(np.round(samples), -32768, 32767).astype(np.int16)
    return result


def to_mono16k(samples: np.ndarray, rate: int) -> np.ndarray:
    """Mix down to mono (:class:`MixDown`) and resample to 16 kHz; returns int16."""
    data = np.asarray(samples)
    if data.dtype == np.int16:
        data = data.astype(np.float64) / 32768.0
    elif np.issubdtype(data.dtype, np.floating):
        data = data.astype(np.float64)
    else:
        raise AudioError(f"unsupported sample type {data.dtype}")
    if data.ndim == 2:
        data = MixDown()(data)
    if rate != RATE:
        data = soxr.resample(data, rate, RATE)
    return to_int16(data * 32767.0)


#: Seconds over which :class:`MixDown` judges which way round a live stream's channels run.
POLARITY_SECONDS = 2.0
#: How many times the energy of the channel the others agree with another must have to
#: take its place: two channels about as loud would otherwise trade places at random,
#: and the mix would be turned over with them.
SWITCH_LOUDER = 4.0


class MixDown:
    """Mixes channels down to one: their mean, each channel that runs against the
    loudest turned over first. A stereo microphone whose second channel is wired the
    other way round (a laptop's pair of built-in microphones with one inverted, a known
    fault that Linux drivers fix for some models only; an adapter with its polarity
    swapped) otherwise mixes down to near silence: a real recording of "left" so was heard
    as nothing at all, and a sound server's own mix-down to one channel gave exact
    silence. A live stream is judged over its last :data:`POLARITY_SECONDS` (the sums
    below fade), not block by block, so that quiet, where the two channels hardly agree,
    does not turn a channel over and back."""

    def __init__(self, rate: int = RATE) -> None:
        self._rate = rate
        self._products: np.ndarray | None = None  # each channel times each, summed, fading
        self._loudest = 0  # the channel the others are turned to agree with

    def __call__(self, channels: np.ndarray) -> np.ndarray:
        """One block (samples by channels, int16 or float) as one channel of float64."""
        x = np.asarray(channels, np.float64)
        products = x.T @ x
        if self._products is not None and self._products.shape == products.shape:
            products += self._products * np.exp(-len(x) / (self._rate * POLARITY_SECONDS))
        else:
            self._loudest = int(np.argmax(np.diag(products)))
        self._products = products
        energy = np.diag(products)
        if energy.max() > SWITCH_LOUDER * energy[self._loudest]:  # another channel is now far the louder
            self._loudest = int(np.argmax(energy))
        mono: np.ndarray = (x * np.where(products[:, self._loudest] < 0, -1.0, 1.0)).mean(axis=1)
        return mono


#: libsndfile's sample types that it hands over as they are, not scaled, when asked
#: for 16-bit integers: floating point samples are read as floats.
_FLOAT_SUBTYPES = ("FLOAT", "DOUBLE")


def read_audio(path: Path) -> np.ndarray:
    """Read a sound file as 16 kHz mono int16: WAV of any rate, channel count and
    sample type (8 to 32 bits, floating point, the extensible header that recorders
    write for 24 bits), FLAC, OGG (Vorbis, Opus), MP3, AIFF, and whatever else
    libsndfile (through soundfile) reads. A recording from another microphone or
    program is as welcome as the game's own."""
    import soundfile

    try:
        with open(path, "rb") as f:  # open() first: it says why a path fails
            subtype = soundfile.info(f).subtype
            f.seek(0)
            dtype = "float64" if subtype in _FLOAT_SUBTYPES else "int16"
            data, rate = soundfile.read(f, dtype=dtype, always_2d=True)
    except FileNotFoundError:
        raise AudioError(f"{path}: no such file") from None
    except OSError as err:  # a folder, a file that may not be read
        raise AudioError(f"{path}: {err.strerror or err}") from None
    except (soundfile.SoundFileError, RuntimeError, ValueError) as err:
        why = (getattr(err, "error_string", None) or str(err)).rstrip(".")
        raise AudioError(f"{path}: not a sound file hbr can read ({why}); it reads WAV, FLAC, OGG and MP3") from None
    return to_mono16k(data[:, 0] if data.shape[1] == 1 else data, rate)


#: The names of the files :func:`read_audio` is given from a folder (:func:`sound_files`).
SOUND_SUFFIXES = (".wav", ".flac", ".ogg", ".oga", ".opus", ".mp3", ".aif", ".aiff")


def sound_files(folder: Path) -> list[Path]:
    """The sound files in a folder (not in its subfolders), by name: a class's
    recordings, given as one folder."""
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in SOUND_SUFFIXES and p.is_file())


def write_wav(path: Path, samples: np.ndarray, rate: int = RATE) -> None:
    """Write mono int16 samples as a WAV file."""
    with open(path, "wb") as f, wave.open(f, "wb") as w:  # open() first: it says why a path fails
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(np.asarray(samples, np.int16).tobytes())


def rms(samples: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(samples.astype(np.float64))))) if len(samples) else 0.0


def frame_levels(samples: np.ndarray, size: int) -> np.ndarray:
    """The RMS of each frame of ``size`` samples (the last one may be shorter), at once."""
    x = np.square(np.asarray(samples, np.float64))
    starts = np.arange(0, len(x), size)
    if not len(starts):
        return np.zeros(0)
    levels: np.ndarray = np.sqrt(np.add.reduceat(x, starts) / np.diff(np.append(starts, len(x))))
    return levels


def mix_at_snr(speech: np.ndarray, noise: np.ndarray, snr_db: float) -> np.ndarray:
    """Add ``noise`` (looped or cut to length) to ``speech`` at the given signal-to-noise ratio.

    The speech level is measured over its loud part only, so leading and trailing
    silence does not make the noise quieter than the ratio says.
    """
    s = speech.astype(np.float64)
    n = np.resize(noise.astype(np.float64), s.shape)
    gain = speech_level(s) / (rms(n) * 10 ** (snr_db / 20)) if rms(n) > 0 else 0.0
    return to_int16(s + gain * n)


def reverberant(audio: np.ndarray, seconds: float, direct_db: float, room: int) -> np.ndarray:
    """``audio`` as a microphone across a room hears it: the direct sound, then the
    room's reflections dying away 60 dB in ``seconds`` (RT60; a living room 0.4 s, a
    classroom 0.6-0.8 s, a hall 1 s and more), ``direct_db`` decibels louder in all than
    the reflections (0 dB: a microphone about as far from the speaker as the room's
    critical distance, a metre or two in a classroom). The reflections are the usual
    statistical model of a diffuse field: Gaussian noise under an exponential
    decay, from 3 ms after the direct sound. The result is as loud as ``audio`` in its
    loud part, and as long (the clips end in a second of quiet that the tail rings into).
    The noise is seeded by ``room``: every clip given the same one is heard in the same
    room, so models can be fitted in other rooms than they are measured in."""
    rng = np.random.default_rng(room)
    t = np.arange(int(seconds * RATE)) / RATE
    response = rng.standard_normal(len(t)) * 10 ** (-3 * t / seconds)
    response[: int(0.003 * RATE)] = 0.0
    response *= np.sqrt(10 ** (-direct_db / 10) / np.sum(response**2))
    response[0] = 1.0
    dry = audio.astype(np.float64)
    n = len(dry) + len(response) - 1
    wet = np.fft.irfft(np.fft.rfft(dry, n) * np.fft.rfft(response, n), n)[: len(dry)]
    wet *= speech_level(dry) / speech_level(wet)
    return to_int16(wet)


def speech_level(speech: np.ndarray) -> float:
    """The RMS of the loud part of ``speech`` (samples above 5% of its peak), so that the
    quiet around the words does not count."""
    s = np.asarray(speech, np.float64)
    return rms(s[np.abs(s) > 0.05 * np.abs(s).max()] if np.abs(s).max() > 0 else s)


def window(samples: np.ndarray, first: int, index: int, count: int) -> np.ndarray:
    """``count`` samples of a stream from ``index`` on, where ``samples`` begin at
    ``first`` and there is silence around them (float)."""
    out = np.zeros(count)
    a, b = max(index, first), min(index + count, first + len(samples))
    if b > a:
        out[a - index : b - index] = samples[a - first : b - first]
    return out


def pad(samples: np.ndarray, seconds: float) -> np.ndarray:
    """Silence before and after: recognizers need some room around a word."""
    gap = np.zeros(int(seconds * RATE), np.int16)
    return np.concatenate([gap, samples, gap])


def clipped(samples: np.ndarray, db: float) -> np.ndarray:
    """The audio as a microphone turned up ``db`` decibels too far passes it: louder, and
    cut off where it passes full scale."""
    return to_int16(samples.astype(np.float64) * 10 ** (db / 20))


def headroom(samples: np.ndarray) -> float:
    """Decibels from the loudest sample of ``samples`` up to full scale."""
    return float(20 * np.log10(32767 / max(1, int(np.abs(samples.astype(np.int32)).max()))))


def narrowband(samples: np.ndarray) -> np.ndarray:
    """The audio as a narrowband channel passes it (a Bluetooth headset in hands-free
    mode, a telephone line): only 300-3400 Hz."""
    spectrum = np.fft.rfft(samples.astype(np.float64))
    hz = np.fft.rfftfreq(len(samples), 1 / RATE)
    spectrum[(hz < 300) | (hz > 3400)] = 0
    return to_int16(np.fft.irfft(spectrum, len(samples)))


class Framer:
    """Cuts a stream of blocks of any size into frames of one size, as detectors and
    suppressors take them; what is left over waits for the next block."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.pending = np.zeros(0, np.int16)

    def frames(self, samples: np.ndarray) -> list[np.ndarray]:
        self.pending = np.concatenate([self.pending, np.asarray(samples, np.int16)])
        whole = len(self.pending) - len(self.pending) % self.size
        out = [self.pending[i : i + self.size] for i in range(0, whole, self.size)]
        self.pending = self.pending[whole:]
        return out
