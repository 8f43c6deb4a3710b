"""What machine a benchmark ran on, in one line, printed before its numbers.

The same code reads a command in 73 to 90 ms on one of this project's machines and in
175 ms on another (docs/benchmarks.md): CTranslate2 picks its kernels by the widest
vector instructions the CPU has, and int8 on AVX-512 is about twice as fast as on AVX2.
A delay or a rate means little without the CPU it was measured on.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path

#: The widest vector instruction sets, widest first, as /proc/cpuinfo names them.
WIDEST = (("avx512_vnni", "AVX-512 with VNNI"), ("avx512f", "AVX-512"), ("avx2", "AVX2"), ("avx", "AVX"))


def describe(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """The CPU's name, its widest vector instructions and how many cores this process
    may use: "AMD EPYC, AVX2, 2 cores". Where /proc/cpuinfo is absent (not Linux), what
    the platform module knows."""
    try:
        fields = dict(
            (key.strip(), value.strip())
            for key, _, value in (line.partition(":") for line in cpuinfo.read_text().splitlines())
            if value
        )
    except OSError:
        fields = {}
    name = fields.get("model name") or platform.processor() or platform.machine() or "unknown CPU"
    flags = set(fields.get("flags", "").split())
    widest = next((label for flag, label in WIDEST if flag in flags), None)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return ", ".join(part for part in (name, widest, f"{cores} cores") if part)


def header() -> str:
    """The line a benchmark prints first."""
    return f"machine: {describe()}"
