"""The acceptance model shared by the recognizers: one bar for short commands, and a
stricter one of its own for long phrases."""

from __future__ import annotations

from pathlib import Path

import pytest

from hbr.voice.acceptance import LONG_WORDS, AcceptanceModel, nearest
from hbr.voice.recognizer import RecognizerError

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


def test_the_model_fitted_for_the_nearest_vocabulary_is_chosen(tmp_path: Path) -> None:
    compass, race = model(1.0), model(2.0)
    compass.save(tmp_path / "compass.json", FEATURES, "a test", ["north east", "south", "capture north west"])
    race.save(tmp_path / "race.json", FEATURES, "a test", ["frog at one two jumps east", "cat north"])
    assert nearest(tmp_path, ["north", "south east"], FEATURES, "fit.py") == compass
    assert nearest(tmp_path, ["frog east", "cat at one one jumps north"], FEATURES, "fit.py") == race
    # one word in common with each: with fewer words between them, the compass's is nearer
    assert nearest(tmp_path, ["north", "stop"], FEATURES, "fit.py") == compass


def test_no_model_or_a_broken_one_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RecognizerError, match="no acceptance model in .*run fit.py"):
        nearest(tmp_path, ["north"], FEATURES, "fit.py")
    (tmp_path / "broken.json").write_text("{not json")
    with pytest.raises(RecognizerError, match="unusable.*run fit.py"):
        nearest(tmp_path, ["north"], FEATURES, "fit.py")
