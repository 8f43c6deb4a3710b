"""The C heap gives its free pages back when asked (glibc)."""

from __future__ import annotations

import ctypes.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hbr import heap


def resident_mb() -> float:
    status = Path("/proc/self/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) / 1024  # type: ignore[union-attr]


@pytest.mark.skipif(not Path("/proc/self/status").is_file() or ctypes.util.find_library("c") is None,
                    reason="needs Linux's /proc and a C library")
def test_memory_freed_inside_the_heap_goes_back() -> None:
    """Blocks freed below one still in use stay with the process (the heap's top does
    not move) until the heap is trimmed."""
    blocks = [b"\x01" * 100_000 for _ in range(600)]  # 60 MB, each block from the C heap
    kept = b"\x02" * 50_000  # above them, still in use: the heap cannot shrink from its top
    del blocks
    before = resident_mb()
    heap.trim()
    assert before - resident_mb() > 30
    assert kept[0] == 2


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
