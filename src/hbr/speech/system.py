"""The system's voices through pyttsx3 (espeak-ng on Linux), always rendered to audio first.

Rendering to a WAV and playing it ourselves gives one audio path to test and
avoids pyttsx3's pitfalls seen here: several ``say()`` per ``runAndWait()`` speak
only the first, and the ``rate`` property takes effect once and then sticks
(120, 300, then 120 again gave the 300 speed; measured by the audio's length).
The speed is therefore given to espeak inside the text, as its embedded command
(the byte 0x01, then "<wpm>S"), which took effect every time; tests check it by the audio length,
not by ``getProperty``. Volume is applied to the samples on playback.
``pyttsx3.init()`` hands every caller the same engine, so all use goes through a lock.
"""

from __future__ import annotations

import sys
import tempfile
import threading
import wave
from pathlib import Path

import numpy as np

from hbr.speech.tts import DEFAULT_RATE, TTSError, clamp_rate

_ENGINE_LOCK = threading.RLock()
#: espeak-ng writes 22,050 Hz (measured; see ../shared/AUDIO-NOTES.md).
ESPEAK_RATE = 22_050


class SystemSynthesizer:
    """One pyttsx3 engine; use it from one thread only."""

    sample_rate = ESPEAK_RATE

    def __init__(self, rate: int = DEFAULT_RATE, voice: str | None = None) -> None:
        try:
            import pyttsx3

            with _ENGINE_LOCK:
                self._engine = pyttsx3.init()
            _quiet_driver()
        except Exception as err:  # pyttsx3 raises bare errors when espeak is missing
            raise TTSError(f"no speech synthesizer ({err}); on Debian: apt-get install espeak-ng") from None
        self._dir = tempfile.TemporaryDirectory(prefix="hbr-tts-")
        self.rate = DEFAULT_RATE
        self.voice: str | None = None
        self.set_rate(rate)
        if voice:
            self.set_voice(voice)

    @property
    def name(self) -> str:
        return f"system:{self.voice or 'default'}"

    def voices(self) -> list[str]:
        with _ENGINE_LOCK:
            return [v.id for v in self._engine.getProperty("voices")]

    def set_rate(self, rate: int) -> None:
        self.rate = clamp_rate(rate)

    def set_voice(self, voice: str) -> None:
        known = self.voices()
        match = voice if voice in known else next((v for v in known if v.endswith("/" + voice)), None)
        if match is None:
            raise TTSError(f"no voice {voice!r}; some that exist: {', '.join(known[:8])} ...")
        self.voice = match

    def synthesize(self, text: str) -> tuple[np.ndarray, int]:
        """``text`` as mono int16 samples and their rate.

        pyttsx3's espeak driver now and then ends its loop before the file is
        written, under load: an empty WAV, or none at all when an exception in its
        word callback stopped it (seen in the test suite with two benchmarks
        running). That is retried.
        """
        problem = "no samples"
        for _ in range(3):
            try:
                samples, rate = self._render(text)
            except (FileNotFoundError, wave.Error, EOFError) as err:
                problem = str(err)
                continue
            if len(samples) or not text.strip():
                return samples, rate
        raise TTSError(f"speech synthesis produced no audio three times ({problem})")

    def _render(self, text: str) -> tuple[np.ndarray, int]:
        path = Path(self._dir.name) / "say.wav"
        clean = text.replace("\x01", " ")
        with _ENGINE_LOCK:
            path.unlink(missing_ok=True)
            if self.voice:
                self._engine.setProperty("voice", self.voice)
            self._engine.save_to_file(f"\x01{self.rate}S {clean}", str(path))
            self._engine.runAndWait()
        with wave.open(str(path), "rb") as w:
            return np.frombuffer(w.readframes(w.getnframes()), np.int16), w.getframerate()


def _quiet_driver() -> None:
    """pyttsx3's espeak driver prints "Audio saved to ..." for every file it writes.
    Its own ``print`` is replaced, in its module only: redirecting the process's
    output from the speech thread swapped it for every thread, and an Observer line
    printed meanwhile was lost."""
    driver = sys.modules.get("pyttsx3.drivers.espeak")
    if driver is not None:
        driver.print = lambda *args, **kwargs: None  # type: ignore[attr-defined]
