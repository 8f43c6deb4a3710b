"""Speech already rendered, kept: the Observer says many sentences again and again
("You cannot go that way.", the help, the answers to "where"), and a sentence
rendered once is played from here at once afterwards.

A sentence is kept in memory (the most recent, MEMORY_BYTES of them) and on disk in the user
cache directory, keyed by voice, rate and text, so a change of voice or of rate
renders anew. The disk part is trimmed, oldest first, to a size limit when opened;
a disk that cannot be written only costs the speed-up.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import soxr

from hbr.speech.tts import Synthesizer, sentences

#: Audio kept in memory: a sentence read back from disk costs a tenth of a millisecond
#: (docs/benchmarks.md), so memory holds only the latest; 400 sentences of a Piper
#: voice had held about 35 MB.
MEMORY_BYTES = 8 << 20
DISK_BYTES = 200 << 20


class SpeechCache:
    def __init__(self, folder: Path | None, disk_bytes: int = DISK_BYTES) -> None:
        self.folder = folder
        self._memory: OrderedDict[str, np.ndarray] = OrderedDict()
        if folder is not None:
            _trim(folder, disk_bytes)

    def render(self, synth: Synthesizer, text: str) -> Iterator[np.ndarray]:
        """``text`` sentence by sentence at ``synth.sample_rate``, each as soon as it is
        ready: from memory, from disk, or rendered now and kept."""
        for sentence in sentences(text):
            key = hashlib.sha256(f"{synth.name}\n{synth.rate}\n{synth.sample_rate}\n{sentence}".encode()).hexdigest()
            samples = self._recall(key)
            if samples is None:
                rendered, rate = synth.synthesize(sentence)
                if rate != synth.sample_rate:
                    rendered = soxr.resample(rendered, rate, synth.sample_rate).astype(np.int16)
                samples = rendered
                self._keep(key, samples)
            yield samples

    def _path(self, key: str) -> Path | None:
        return None if self.folder is None else self.folder / key[:2] / f"{key}.npy"

    def _recall(self, key: str) -> np.ndarray | None:
        if key in self._memory:
            self._memory.move_to_end(key)
            return self._memory[key]
        path = self._path(key)
        if path is None or not path.is_file():
            return None
        try:
            samples: np.ndarray = np.load(path, allow_pickle=False)
            os.utime(path)  # recently used: trimmed last
        except (OSError, ValueError):
            return None
        self._remember(key, samples)
        return samples

    def _keep(self, key: str, samples: np.ndarray) -> None:
        self._remember(key, samples)
        path = self._path(key)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".", suffix=".npy", dir=path.parent)
            with os.fdopen(fd, "wb") as f:
                np.save(f, samples, allow_pickle=False)
            os.replace(tmp, path)
        except OSError:
            pass  # rendered again next time

    def _remember(self, key: str, samples: np.ndarray) -> None:
        self._memory[key] = samples
        self._memory.move_to_end(key)
        while len(self._memory) > 1 and sum(kept.nbytes for kept in self._memory.values()) > MEMORY_BYTES:
            self._memory.popitem(last=False)


def _trim(folder: Path, limit: int) -> None:
    """Remove the least recently used sentences until the folder holds ``limit`` bytes."""
    try:
        files = [(p.stat().st_mtime, p.stat().st_size, p) for p in folder.glob("*/*.npy")]
    except OSError:
        return
    total = sum(size for _, size, _ in files)
    for _, size, path in sorted(files):
        if total <= limit:
            return
        path.unlink(missing_ok=True)
        total -= size
