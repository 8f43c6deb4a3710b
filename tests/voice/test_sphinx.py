"""pocketsphinx on real synthesized speech: recognition, rejection, and the whole chain.

Speech is made in the test with espeak-ng. The numbers asserted here are floors on
a small fixed set; docs/benchmarks.md reports the full corpus (several voices,
speeds and noise levels), where this backend is far from the targets.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hbr.games import registry
from hbr.games.hbr.phrases import HBRGrammar
from hbr.games.hbr.table import HBRTable
from hbr.grammar import Understood
from hbr.session import Session
from hbr.speech.speaker import TextSpeaker
from hbr.voice.acceptance import AcceptanceModel, expand
from hbr.voice.audio import RATE, mix_at_snr, pad, write_wav
from hbr.voice.denoise import NoiseSuppressor
from hbr.voice.recognizer import RecognizerError, decode
from hbr.voice.sphinx import FEATURES, MODELS, Segment, SphinxRecognizer, edits, evidence
from hbr.voice.synth import espeak
from tests.conftest import Run

pytestmark = pytest.mark.audio

GRAMMAR = HBRGrammar()
COMMANDS = [
    "north east", "south west", "toward the rabbit", "toward the hole", "capture north west",
    "snare south east", "west", "east", "help", "repeat", "quit", "towards the bear",
]
OTHER_SPEECH = [
    "what time is it", "the weather is nice today", "play some music", "I need a coffee",
    "good morning everyone", "close the window", "northern lights", "capture the flag",
]


@pytest.fixture(scope="module")
def recognizer() -> SphinxRecognizer:
    return SphinxRecognizer(GRAMMAR.phrases())


def intent(text: str) -> object:
    parsed = GRAMMAR.parse(text)
    assert isinstance(parsed, Understood)
    return parsed.intent


def test_commands_are_recognized_and_never_confused(recognizer: SphinxRecognizer) -> None:
    right = 0
    for text in COMMANDS:
        heard = decode(recognizer, pad(espeak(text, "en-us", 150), 0.3))
        if heard.phrase is not None:
            assert intent(heard.phrase) == intent(text), f"{text!r} heard as {heard.phrase!r}"
            right += 1
    assert right >= len(COMMANDS) * 0.6


def test_other_speech_is_rejected(recognizer: SphinxRecognizer) -> None:
    accepted = [t for t in OTHER_SPEECH if decode(recognizer, pad(espeak(t, "en-us", 150), 0.3)).phrase]
    assert len(accepted) <= 1, accepted


def test_an_unclear_utterance_carries_the_phrase_it_came_nearest_to(recognizer: SphinxRecognizer) -> None:
    """The guess the game asks back when the same near miss comes twice (hbr.session)."""
    heard = [decode(recognizer, pad(espeak(text, "en-us", 150), 0.3)) for text in COMMANDS + OTHER_SPEECH]
    unclear = [h for h in heard if h.rejected == "unclear"]
    assert unclear, "the sample holds near misses"
    assert all(h.guess in recognizer.phrases for h in unclear)
    assert all(h.guess is None for h in heard if h.rejected != "unclear")


def test_silence_and_noise_are_rejected(recognizer: SphinxRecognizer) -> None:
    rng = np.random.default_rng(3)
    clips = {
        "digital silence": np.zeros(2 * RATE, np.int16),
        "quiet hiss": rng.normal(0, 30, 2 * RATE).astype(np.int16),
        "loud noise": rng.normal(0, 6000, 2 * RATE).astype(np.int16),
    }
    for name, audio in clips.items():
        heard = decode(recognizer, audio)
        assert heard.phrase is None, name
        assert heard.rejected in ("silence", "not a command")


def test_noisy_command(recognizer: SphinxRecognizer) -> None:
    speech = pad(espeak("capture north west", "en-us", 150), 0.3)
    noise = np.random.default_rng(1).normal(0, 3000, len(speech)).astype(np.int16)
    heard = decode(recognizer, mix_at_snr(speech, noise, 20))
    assert heard.phrase in (None, "capture north west")


def test_while_a_question_waits_only_its_answers_are_heard(recognizer: SphinxRecognizer) -> None:
    answers = frozenset({"yes", "no"})
    texts = ("yes", "no", "south", "capture north west", "help")
    heard = {text: decode(recognizer, pad(espeak(text, "en-us", 150), 0.3), answers).phrase for text in texts}
    assert heard["yes"] == "yes" and heard["no"] == "no", heard
    assert set(heard.values()) <= answers | {None}, heard
    assert decode(recognizer, pad(espeak("south", "en-us", 150), 0.3)).words == "south"  # every phrase again


def test_a_game_with_many_phrase_sets_keeps_only_the_latest_searches() -> None:
    """Jumpers listens for another set of phrases after every move: the decoder keeps a
    few searches, not one per position of the game."""
    from hbr.voice import sphinx

    recognizer = SphinxRecognizer(GRAMMAR.phrases())
    moves = [p for p in GRAMMAR.phrases() if p.split()[0] in ("north", "south", "east", "west")]
    for i in range(sphinx.SEARCHES + 4):
        decode(recognizer, np.zeros(RATE // 2, np.int16), frozenset(moves[i:] + ["yes", "no"]))
    assert len(recognizer._searches) == sphinx.SEARCHES
    latest = frozenset(moves[sphinx.SEARCHES + 3 :] + ["yes", "no"])
    assert decode(recognizer, pad(espeak("yes", "en-us", 150), 0.3), latest).phrase == "yes"


def test_hbr_recognize_prints_one_json_line_per_file(run_hbr: Run, tmp_path: Path) -> None:
    files = []
    for i, text in enumerate(["north east", "capture north west", "what time is it"]):
        path = tmp_path / f"{i}.wav"
        audio = pad(espeak(text, "en-us", 150), 0.3)
        if i == 1:  # any rate and channel count is accepted: write this one as 44.1 kHz stereo
            import soxr

            up = soxr.resample(audio.astype(np.float64), RATE, 44100).astype(np.int16)
            import wave

            with wave.open(str(path), "wb") as w:
                w.setnchannels(2)
                w.setsampwidth(2)
                w.setframerate(44100)
                w.writeframes(np.stack([up, up], axis=1).tobytes())
        else:
            write_wav(path, audio)
        files.append(str(path))
    silence = tmp_path / "silence.wav"
    write_wav(silence, np.zeros(RATE, np.int16))
    result = run_hbr("recognize", "--backend", "pocketsphinx", *files, str(silence))
    assert result.returncode == 0, result.stderr
    assert "pocketsphinx" in result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["file"] for r in records] == [*files, str(silence)]
    for r in records:
        assert set(r) >= {"file", "heard", "command", "confidence", "decode_ms"}
    assert records[0]["command"] == "northeast"
    assert records[1]["command"] == "capture northwest"
    assert records[2]["command"] is None
    assert records[3]["command"] is None and records[3]["confidence"] is None


def test_hbr_recognize_bad_file_is_a_message(run_hbr: Run, tmp_path: Path) -> None:
    bad = tmp_path / "bad.wav"
    bad.write_text("not audio")
    result = run_hbr("recognize", "--backend", "pocketsphinx", str(bad))
    assert result.returncode == 1
    assert "not a sound file hbr can read" in result.stderr and "Traceback" not in result.stderr


def test_vosk_without_a_model_says_what_to_do(run_hbr: Run, tmp_path: Path) -> None:
    write_wav(tmp_path / "a.wav", np.zeros(RATE, np.int16))
    result = run_hbr("recognize", "--backend", "vosk", "--model", str(tmp_path / "none"), str(tmp_path / "a.wav"))
    assert result.returncode == 1
    assert "not a vosk model" in result.stderr


def test_a_scripted_game_by_voice_matches_the_same_game_typed(recognizer: SphinxRecognizer) -> None:
    """Spoken commands -> recognizer -> grammar -> engine, against typed play of what was heard."""
    script = ["north east", "toward the hole", "south west", "west", "capture north west"]
    spoken_lines: list[str] = []
    voiced = HBRTable.new(21)
    session = Session(voiced, TextSpeaker(spoken_lines.append), confirm="never")
    session.start()
    understood = []
    for text in script:
        heard = decode(recognizer, pad(espeak(text, "en+m3", 150), 0.3))
        if heard.phrase:
            understood.append(heard.phrase)
            session.hear(heard.phrase, heard.confidence)
    assert len(understood) >= 3
    typed = HBRTable.new(21)
    typed_lines: list[str] = []
    Session(typed, TextSpeaker(typed_lines.append)).run(understood)
    assert voiced.state == typed.state
    assert spoken_lines == typed_lines[: len(spoken_lines)]


def test_a_fresh_recognizer_gets_its_first_utterance_right() -> None:
    """Streaming decodes normalise with a running mean a fresh decoder has not learned;
    the first utterance is decoded whole, so the first command of a game is not lost."""
    fresh = SphinxRecognizer(GRAMMAR.phrases())
    audio = pad(espeak("capture north west", "en-us", 150), 0.3)
    utterance, suppressor = fresh.listen(), NoiseSuppressor()
    for start in range(0, len(audio), 480):
        utterance.feed(suppressor.process(audio[start : start + 480]))
    assert utterance.finish().phrase == "capture north west"
    assert fresh.settled
    assert decode(fresh, audio).phrase == "capture north west"  # and streamed after it


@given(st.lists(st.sampled_from("ABCD"), max_size=8), st.lists(st.sampled_from("ABCD"), max_size=8))
def test_phone_edits_are_a_distance(a: list[str], b: list[str]) -> None:
    assert edits(a, b) == edits(b, a)
    assert (edits(a, b) == 0) == (a == b)
    assert abs(len(a) - len(b)) <= edits(a, b) <= max(len(a), len(b))
    assert edits(a, b) <= edits(a, b[:-1]) + 1


def test_phone_edits_known_cases() -> None:
    assert edits("HH EH L P".split(), "HH EH L P".split()) == 0
    assert edits("HH EH L".split(), "HH EH L P".split()) == 1
    assert edits("K W IH T".split(), "HH EH L P".split()) == 4


def test_evidence_from_segments() -> None:
    grammar = [Segment("<sil>", 0, 29, -300.0), Segment("help", 30, 69, -2000.0), Segment("<sil>", 70, 99, -300.0)]
    phones = [Segment("SIL", 0, 29, -290.0), Segment("HH", 30, 39, -400.0), Segment("EH", 40, 54, -500.0),
              Segment("L", 55, 69, -500.0), Segment("SIL", 70, 99, -290.0)]
    values = dict(zip(FEATURES, evidence(grammar, phones, 0.5, "HH EH L P".split()), strict=False))
    assert values["fit"] == pytest.approx((-2600 - -1980) / 40)
    assert values["level"] == pytest.approx(-2600 / 40)
    assert values["word level"] == pytest.approx(-2000 / 40)
    assert values["coverage"] == pytest.approx(0.4 / 0.5)
    assert values["words"] == 1 and values["phones"] == 4
    assert values["silence share"] == pytest.approx(0.6)
    assert values["phone distance"] == pytest.approx(1 / 4)
    assert values["phone ratio"] == pytest.approx(3 / 4)


def test_a_broken_rejection_model_is_a_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "model.json"
    broken.write_text("{not json")
    with pytest.raises(RecognizerError, match="acceptance model .* is unusable.*fit_rejection.py"):
        AcceptanceModel.load(broken, FEATURES, "bench/fit_rejection.py")
    broken.write_text(json.dumps({"features": ["fit"], "mean": [0], "scale": [1], "weights": [1], "bias": 0,
                                  "threshold": 0}))
    with pytest.raises(RecognizerError, match="other features"):
        AcceptanceModel.load(broken, FEATURES, "bench/fit_rejection.py")


def test_each_game_is_heard_with_the_model_fitted_for_its_words() -> None:
    """bench/fit_rejection.py --game NAME fits a model on that game's phrases; a
    recognizer built for a game's phrases finds it by their words, without its name."""
    for name, spec in registry().items():
        fitted = AcceptanceModel.load(MODELS / f"{name}.json", FEATURES, "bench/fit_rejection.py")
        assert SphinxRecognizer(spec.grammar().phrases()).rejection == fitted, name


def test_the_shipped_rejection_model_loads_and_ranks_a_command_above_other_speech(
    recognizer: SphinxRecognizer,
) -> None:
    model = AcceptanceModel.load(MODELS / "hbr.json", FEATURES, "bench/fit_rejection.py")
    assert len(model.weights) == len(expand(np.zeros(len(FEATURES))))
    decode(recognizer, pad(espeak("capture north west", "en-us", 150), 0.3))
    command = recognizer.last
    decode(recognizer, pad(espeak("capture the flag", "en-us", 150), 0.3))
    other = recognizer.last
    assert command is not None and other is not None
    assert model.confidence(command.values) > 0.5 > model.confidence(other.values)


def test_expand_appends_every_product_of_two() -> None:
    assert expand(np.array([1.0, 2.0, 3.0])).tolist() == [1, 2, 3, 1, 2, 3, 4, 6, 9]
    assert expand(np.ones((4, 10))).shape == (4, 65)


def test_a_model_with_the_wrong_number_of_weights_is_refused(tmp_path: Path) -> None:
    n = len(FEATURES)
    stale = tmp_path / "model.json"
    stale.write_text(json.dumps({"features": FEATURES, "mean": [0] * n, "scale": [1] * n, "weights": [0] * n,
                                 "bias": 0, "threshold": 0}))
    with pytest.raises(RecognizerError, match=f"has {n} weights"):
        AcceptanceModel.load(stale, FEATURES, "bench/fit_rejection.py")


def test_hbr_recognize_decodes_each_file_as_if_alone(run_hbr: Run, tmp_path: Path) -> None:
    """The answer for a file does not depend on the files before it in the same call."""
    files = []
    for i, text in enumerate(["quit", "what time is it", "help", "capture north east", "the cat sat", "up"]):
        files.append(tmp_path / f"{i}.wav")
        write_wav(files[-1], pad(espeak(text, "en+f2", 170), 0.3))

    def records(*paths: Path) -> list[dict[str, object]]:
        result = run_hbr("recognize", "--backend", "pocketsphinx", *map(str, paths))
        assert result.returncode == 0, result.stderr
        return [{k: v for k, v in json.loads(line).items() if k != "decode_ms"} for line in result.stdout.splitlines()]

    assert records(*files)[-1] == records(files[-1])[0]
