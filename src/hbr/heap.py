"""Giving the C heap's free memory back to the system.

The neural models free tens of megabytes after each sentence said (Piper) and each
utterance heard (Whisper), and glibc keeps what is freed inside its heap, where it
counts against the game: with the Piper voice `hbr play` grew from 345 MB after its
opening to about 480 MB a minute later (bench/play_memory.py, docs/benchmarks.md).
glibc's malloc_trim(0) returns the heap's free pages, in 0.2 to 0.5 ms with both models
loaded.

glibc also gives every thread that allocates its own heap (an arena), up to eight per
core, and each keeps its own free memory and its own high-water mark: the Observer's
voice is made in one thread, the microphone's utterances are read in another, and the
models run thread pools of their own. :func:`limit_arenas` caps them at
:data:`ARENAS` before any thread starts: `hbr play` peaked 406 and 415 MB with
glibc's arenas, 396 and 391 MB with two, 387 and 395 MB with one
(bench/play_memory.py, docs/benchmarks.md).
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Callable
from typing import Any

#: The most arenas (per-thread heaps) glibc may make; two, so that the thread that reads
#: the microphone and the one that makes speech do not wait on one lock.
ARENAS = 2
_M_ARENA_MAX = -8  # mallopt's parameter for it (glibc's malloc.h)


def _glibc(function: str) -> Any:
    """A function of glibc's malloc, or None where the C library is not glibc."""
    name = ctypes.util.find_library("c")
    try:
        return getattr(ctypes.CDLL(name), function) if name else None
    except (OSError, AttributeError):
        return None


def _malloc_trim() -> Callable[[], object]:
    trim = _glibc("malloc_trim")
    if trim is None:
        return lambda: None
    trim.argtypes = (ctypes.c_size_t,)
    return lambda: trim(0)


#: Return the heap's free pages to the system (nothing where the C library is not glibc).
trim: Callable[[], object] = _malloc_trim()


def limit_arenas(count: int = ARENAS) -> bool:
    """Let glibc make at most ``count`` arenas from now on (call it before threads
    start); False where the C library is not glibc."""
    mallopt = _glibc("mallopt")
    if mallopt is None:
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    return bool(mallopt(_M_ARENA_MAX, count))
