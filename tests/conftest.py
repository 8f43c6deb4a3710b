"""Shared fixtures: running the real ``hbr`` command."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable

import pytest


@pytest.fixture(scope="session")
def hbr_exe() -> str:
    exe = shutil.which("hbr")
    assert exe, "the hbr command is not installed: pip install -e '.[test]'"
    return exe


Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def run_hbr(hbr_exe: str) -> Run:
    def run(*args: str, input: str | None = None, timeout: float = 60, **kw) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [hbr_exe, *args], input=input, capture_output=True, text=True, timeout=timeout, **kw
        )

    return run
