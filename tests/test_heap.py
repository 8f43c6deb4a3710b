"""The C heap gives its free pages back when asked (glibc)."""

from __future__ import annotations

import ctypes.util
import re
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
