"""Giving the C heap's free memory back to the system.

The neural models free tens of megabytes after each sentence said (Piper) and each
utterance heard (Whisper), and glibc keeps what is freed inside its heap, where it
counts against the game: with the Piper voice `hbr play` grew from 345 MB after its
opening to about 480 MB a minute later (bench/play_memory.py, docs/benchmarks.md).
glibc's malloc_trim(0) returns the heap's free pages, in 0.2 to 0.5 ms with both models
loaded.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Callable


def _malloc_trim() -> Callable[[], object]:
    name = ctypes.util.find_library("c")
    try:
        trim = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # a C library that is not glibc
        trim = None
    if trim is None:
        return lambda: None
    trim.argtypes = (ctypes.c_size_t,)
    return lambda: trim(0)


#: Return the heap's free pages to the system (nothing where the C library is not glibc).
trim: Callable[[], object] = _malloc_trim()
