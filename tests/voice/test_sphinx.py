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

from hbr.games.hbr.phrases import HBRGrammar
from hbr.games.hbr.table import HBRTable
from hbr.grammar import Understood
from hbr.session import Session
from hbr.speech.speaker import TextSpeaker
from hbr.voice.audio import RATE, mix_at_snr, pad, write_wav
from hbr.voice.recognizer import decode
from hbr.voice.sphinx import SphinxRecognizer
from hbr.voice.synth import espeak

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


def test_hbr_recognize_prints_one_json_line_per_file(run_hbr, tmp_path: Path) -> None:
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


def test_hbr_recognize_bad_file_is_a_message(run_hbr, tmp_path: Path) -> None:
    bad = tmp_path / "bad.wav"
    bad.write_text("not audio")
    result = run_hbr("recognize", "--backend", "pocketsphinx", str(bad))
    assert result.returncode == 1
    assert "not a PCM WAV" in result.stderr and "Traceback" not in result.stderr


def test_vosk_without_a_model_says_what_to_do(run_hbr, tmp_path: Path) -> None:
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
    utterance = fresh.listen()
    for start in range(0, len(audio), 480):
        utterance.feed(audio[start : start + 480])
    assert utterance.finish().phrase == "capture north west"
    assert fresh.settled
    assert decode(fresh, audio).phrase == "capture north west"  # and streamed after it
