"""Text to speech with pyttsx3 (espeak-ng on Linux), always rendered to audio first.

Rendering to a WAV and playing it ourselves gives one audio path to test and
avoids pyttsx3's pitfalls seen here: properties queued together with speech are
dropped, several ``say()`` per ``runAndWait()`` speak only the first. Each setting
change is therefore applied with its own ``runAndWait()`` and checked by the
length of the audio (tests), not by ``getProperty``. Volume is applied to the
samples on playback, which always works.
"""

from __future__ import annotations

import contextlib
import io
import tempfile
import wave
from pathlib import Path

import numpy as np

DEFAULT_RATE = 175  # words per minute


class TTSError(RuntimeError):
    """Speech synthesis is unavailable; the message says why."""


class Synthesizer:
    """One pyttsx3 engine; use it from one thread only."""

    def __init__(self, rate: int = DEFAULT_RATE, voice: str | None = None) -> None:
        try:
            import pyttsx3

            self._engine = pyttsx3.init()
        except Exception as err:  # pyttsx3 raises bare errors when espeak is missing
            raise TTSError(f"no speech synthesizer ({err}); on Debian: apt-get install espeak-ng") from None
        self._dir = tempfile.TemporaryDirectory(prefix="hbr-tts-")
        self.rate = 0
        self.voice: str | None = None
        self.set_rate(rate)
        if voice:
            self.set_voice(voice)

    def voices(self) -> list[str]:
        return [v.id for v in self._engine.getProperty("voices")]

    def set_rate(self, rate: int) -> None:
        rate = max(80, min(450, int(rate)))
        self._engine.setProperty("rate", rate)
        self._engine.runAndWait()  # applied now, not dropped with the next utterance
        self.rate = rate

    def set_voice(self, voice: str) -> None:
        known = self.voices()
        match = voice if voice in known else next((v for v in known if v.endswith("/" + voice)), None)
        if match is None:
            raise TTSError(f"no voice {voice!r}; some that exist: {', '.join(known[:8])} ...")
        self._engine.setProperty("voice", match)
        self._engine.runAndWait()
        self.voice = match

    def synthesize(self, text: str) -> tuple[np.ndarray, int]:
        """``text`` as mono int16 samples and their rate."""
        path = Path(self._dir.name) / "say.wav"
        path.unlink(missing_ok=True)
        self._engine.save_to_file(text, str(path))
        with contextlib.redirect_stdout(io.StringIO()):  # pyttsx3 prints "Audio saved to ..."
            self._engine.runAndWait()
        try:
            with wave.open(str(path), "rb") as w:
                rate = w.getframerate()
                data = np.frombuffer(w.readframes(w.getnframes()), np.int16)
        except (FileNotFoundError, wave.Error, EOFError) as err:
            raise TTSError(f"speech synthesis produced no audio ({err})") from None
        return data, rate
