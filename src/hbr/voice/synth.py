"""Speech made with espeak-ng, as audio arrays: test utterances and the demo's hunter.

espeak-ng's voices and variants (``en-us``, ``en+m3``, ``en+f2`` ...) and speeds
give a varied synthetic corpus; it is still one synthesizer, which is why the
benchmarks also add noise and why docs/benchmarks.md says what it cannot show.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from hbr.voice.audio import read_audio

VOICES = ("en-us", "en", "en+m3", "en+f2", "en-us+f3", "en+m7")
SPEEDS = (130, 160, 190)


class SynthError(RuntimeError):
    pass


def espeak(text: str, voice: str = "en-us", wpm: int = 160) -> np.ndarray:
    """``text`` spoken by espeak-ng, as 16 kHz mono int16."""
    exe = shutil.which("espeak-ng")
    if exe is None:
        raise SynthError("espeak-ng is not installed (Debian: apt-get install espeak-ng)")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "say.wav"
        done = subprocess.run([exe, "-v", voice, "-s", str(wpm), "-w", str(out), text], capture_output=True, timeout=30)
        if done.returncode != 0 or not out.exists():
            raise SynthError(f"espeak-ng failed: {done.stderr.decode(errors='replace').strip()}")
        return read_audio(out)
