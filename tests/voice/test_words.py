from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hbr.voice.recognizer import RecognizerError
from hbr.voice.whisper import WORDS_FILE
from hbr.voice.words import FRAME, OTHER, WordModel, pooled


def test_pooling_keeps_the_loud_frames_and_leaves_the_quiet_around_them_out() -> None:
    encoded = np.zeros((50, 2))
    encoded[10:20] = [1.0, 3.0]  # where the words are
    encoded[20:30] = [-5.0, 9.0]  # after them: quiet, and the margin of the window
    samples = np.zeros(20 * FRAME, np.int16)
    samples[: 10 * FRAME] = 1000
    samples[10 * FRAME :] = 3  # 50 dB down
    assert pooled(encoded, samples, lead=10 * FRAME).tolist() == [1.0, 3.0, 1.0, 3.0]
    samples[10 * FRAME :] = 300  # 10 dB down: still the utterance
    assert pooled(encoded, samples, lead=10 * FRAME).tolist() == [-2.0, 6.0, 1.0, 9.0]


def model() -> WordModel:
    # two numbers: the first says "up", the second "no"
    return WordModel(("no", "up", OTHER), np.zeros(2), np.ones(2), np.array([[0.0, 4.0, 0.0], [4.0, 0.0, 0.0]]), np.zeros(3))


def chance(heard: np.ndarray, word: str) -> float:
    found = model().probability(heard, word)
    assert found is not None
    return found


def test_the_word_model_finds_the_word_the_numbers_point_to() -> None:
    assert chance(np.array([2.0, 0.0]), "up") > 0.99
    assert chance(np.array([2.0, 0.0]), "no") < 0.01
    assert chance(np.zeros(2), "up") == pytest.approx(1 / 3)


def test_the_model_has_no_opinion_of_a_word_it_was_not_fitted_on() -> None:
    assert model().probability(np.array([2.0, 0.0]), "north") is None
    assert model().probability(np.zeros(2), OTHER) is None


def test_a_saved_model_loads_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "words.json"
    model().save(path, "a test")
    loaded = WordModel.load(path)
    assert loaded.words == model().words
    assert loaded.probability(np.array([1.0, 0.5]), "up") == pytest.approx(model().probability(np.array([1.0, 0.5]), "up"))


def test_the_shipped_model_knows_the_command_words_of_the_real_recordings() -> None:
    shipped = WordModel.load(WORDS_FILE)
    assert set(shipped.words) == {"up", "down", "left", "right", "yes", "no", "stop", OTHER}
    assert shipped.weights.shape == (len(shipped.mean), len(shipped.words))


@pytest.mark.parametrize("text", ["", "{", '{"words": ["up", ""], "mean": [0], "scale": [1], "bias": [0, 0], "weights": [[0]]}'])
def test_a_broken_model_file_says_how_to_mend_it(tmp_path: Path, text: str) -> None:
    path = tmp_path / "words.json"
    path.write_text(text)
    with pytest.raises(RecognizerError, match="reinstall hbr, or run bench/fit_words.py"):
        WordModel.load(path)
