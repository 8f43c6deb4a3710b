"""Shared fixtures: running the real ``hbr`` command."""

from __future__ import annotations

import io
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


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def keyboard(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Someone at a terminal: ``keyboard("yes")`` makes stdin a terminal that reads those lines."""

    def type_in(*lines: str) -> None:
        monkeypatch.setattr("sys.stdin", _Terminal("".join(line + "\n" for line in lines)))

    return type_in


@pytest.fixture
def user_dirs(tmp_path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A private config and data directory, so tests never touch the real user's files."""
    env = {
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return env


@pytest.fixture
def run_hbr(hbr_exe: str, user_dirs: dict[str, str]) -> Run:
    def run(*args: str, input: str | None = None, timeout: float = 60, **kw) -> subprocess.CompletedProcess[str]:
        if "env" in kw:
            kw["env"] = {**kw["env"], **user_dirs}
        return subprocess.run(
            [hbr_exe, *args], input=input, capture_output=True, text=True, timeout=timeout, **kw
        )

    return run
