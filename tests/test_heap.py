"""The C heap gives its free pages back when asked (glibc)."""

from __future__ import annotations

import ctypes.util
import re
import subprocess
import sys
from collections.abc import Callable

import pytest

from hbr import heap


@pytest.mark.skipif(ctypes.util.find_library("c") is None, reason="needs a C library")
def test_memory_freed_inside_the_heap_goes_back(resident_mb: Callable[[], float]) -> None:
    """Blocks freed between blocks still in use stay with the process (the heap's top
    does not move) until the heap is trimmed. Every other block is freed, so that each
    freed one lies between two in use, wherever earlier imports left holes in the heap."""
    blocks = [b"\x01" * 100_000 for _ in range(1200)]  # 120 MB, each block from the C heap
    kept = blocks[1::2]
    del blocks
    before = resident_mb()
    heap.trim()
    assert before - resident_mb() > 30
    assert all(block[0] == 1 for block in kept)


THREADS_ALLOCATING = """
import ctypes, ctypes.util, sys, threading
from hbr import heap
if sys.argv[1] != "glibc's own":
    assert heap.limit_arenas(int(sys.argv[1]))
held, ready = [], threading.Barrier(6)
def allocate():
    held.append([b"x" * 50_000 for _ in range(20)])  # from the C heap, in this thread's arena
    ready.wait()
threads = [threading.Thread(target=allocate) for _ in range(6)]
for t in threads: t.start()
for t in threads: t.join()
ctypes.CDLL(ctypes.util.find_library("c")).malloc_stats()  # to stderr, an "Arena n:" per arena
"""


@pytest.mark.skipif(heap._glibc("malloc_stats") is None, reason="needs glibc")
@pytest.mark.parametrize("limit", [1, 2])
def test_threads_share_as_many_arenas_as_allowed(limit: int) -> None:
    """Six threads that allocate at once get arenas of their own, unless limited."""
    def arenas(arg: str) -> int:
        run = subprocess.run([sys.executable, "-c", THREADS_ALLOCATING, arg], capture_output=True, text=True, check=True)
        return len(re.findall(r"^Arena \d+:", run.stderr, re.MULTILINE))

    assert arenas(str(limit)) == limit
    assert arenas("glibc's own") > limit
