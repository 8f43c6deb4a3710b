"""The vosk backend: its own logic always; recognition wherever a model directory exists."""

import json
from pathlib import Path

import pytest

from hbr.games.hbr.phrases import HBRGrammar
from hbr.voice.kaldi import UNKNOWN, VoskRecognizer, grammar_json, join_results, missing_words, parse_result
from hbr.voice.models import VOSK, ModelError, find_model
from hbr.voice.recognizer import RecognizerError, decode

PHRASES = HBRGrammar().phrases()


def test_grammar_has_every_phrase_and_unk() -> None:
    doc = json.loads(grammar_json(PHRASES))
    assert doc[-1] == UNKNOWN
    assert set(doc[:-1]) == set(PHRASES)


def test_missing_words_are_reported() -> None:
    known = {"north", "east", "capture"}
    assert missing_words(["north east", "capture north east", "snare south"], known.__contains__) == [
        "snare",
        "south",
    ]


def result(text: str, *confs: float) -> str:
    words = text.split()
    return json.dumps({"text": text, "result": [{"word": w, "conf": c} for w, c in zip(words, confs, strict=False)]})


def test_parse_result() -> None:
    phrases = frozenset(PHRASES)
    ok = parse_result(result("capture north east", 0.99, 0.95, 0.97), phrases, 12.0)
    assert ok.phrase == "capture north east" and ok.confidence == 0.95 and ok.rejected is None
    assert parse_result(result(""), phrases, 1.0).rejected == "silence"
    assert parse_result(result("north [unk]", 0.9, 0.5), phrases, 1.0).rejected == "unclear"
    assert parse_result(result("north north", 0.9, 0.9), phrases, 1.0).rejected == "unclear"
    assert parse_result(result("[unk] [unk]", 0.9, 0.9), phrases, 1.0).rejected == "not a command"
    low = parse_result(result("north", 0.3), phrases, 1.0)
    assert low.phrase is None and low.rejected == "unclear" and low.confidence == 0.3
    assert low.guess == "north"  # the phrase it came nearest to (asked back if it comes again)
    assert parse_result(result("north [unk]", 0.9, 0.5), phrases, 1.0).guess is None  # no phrase to guess


def test_segments_closed_at_a_pause_join_into_one_utterance() -> None:
    """vosk may close a segment at a pause inside what our endpointer calls one
    utterance; the parts must join, or "capture ... north west" would be lost."""
    joined = join_results([result("capture", 0.9), result("north west", 0.8, 0.7), result("")])
    heard = parse_result(joined, frozenset(PHRASES) | {"capture north west"}, 1.0)
    assert heard.phrase == "capture north west" and heard.confidence == 0.7
    assert parse_result(join_results([result(""), result("")]), frozenset(PHRASES), 1.0).rejected == "silence"


def test_not_a_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="is not a vosk model"):
        find_model(VOSK, tmp_path)


def _model_or_skip() -> Path:
    try:
        found = find_model(VOSK)
    except ModelError as err:
        pytest.skip(f"no usable vosk model: {err}")
    if found.path is None:
        pytest.skip(f"vosk recognition needs a model ({found.why}); 'hbr models download vosk-model-small-en-us-0.15' gets one")
    return found.path


@pytest.mark.audio
def test_vosk_recognizes_and_rejects_with_a_real_model() -> None:
    from hbr.voice.audio import pad
    from hbr.voice.synth import espeak

    recognizer = VoskRecognizer(PHRASES, _model_or_skip())
    assert decode(recognizer, pad(espeak("capture north west"), 0.3)).phrase == "capture north west"
    assert decode(recognizer, pad(espeak("what time is it"), 0.3)).phrase is None


def test_vosk_with_a_broken_model_directory_fails_clearly(tmp_path: Path) -> None:
    (tmp_path / "am").mkdir()
    (tmp_path / "am" / "final.mdl").write_text("nonsense")
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "mfcc.conf").write_text("nonsense")
    with pytest.raises(RecognizerError, match="not a usable vosk model"):
        VoskRecognizer(PHRASES, tmp_path)
