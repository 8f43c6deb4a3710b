"""The acceptance model shared by the recognizers: one bar for short commands, and a
stricter one of its own for long phrases."""

from __future__ import annotations

from pathlib import Path

from hbr.voice.acceptance import LONG_WORDS, AcceptanceModel

FEATURES = ("a", "b")


def model(long_threshold: float | None) -> AcceptanceModel:
    """Score = the first number (weights on the products of pairs are zero)."""
    return AcceptanceModel((0.0, 0.0), (1.0, 1.0), (1.0, 0.0, 0.0, 0.0, 0.0), 0.0, 1.0, long_threshold)


def test_a_long_phrase_meets_its_own_bar() -> None:
    strict = model(3.0)
    assert strict.confidence((2.0, 0.0), words=1) > 0.5  # above the bar of short commands
    assert strict.confidence((2.0, 0.0), words=LONG_WORDS) < 0.5  # below that of long phrases
    assert strict.confidence((4.0, 0.0), words=LONG_WORDS + 2) > 0.5
    assert model(None).confidence((2.0, 0.0), words=LONG_WORDS) == model(None).confidence((2.0, 0.0))


def test_both_bars_are_saved_and_a_model_without_a_long_one_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    model(3.0).save(path, FEATURES, "a test")
    assert AcceptanceModel.load(path, FEATURES, "fit.py") == model(3.0)
    model(None).save(path, FEATURES, "a test")
    assert AcceptanceModel.load(path, FEATURES, "fit.py").long_threshold is None
