"""The whisper backend: its text handling always; recognition on the packaged tiny.en
model, with real people's recordings (../shared/speech-dev), espeak-ng, silence and noise."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import real

from hbr.games.hbr.phrases import HBRGrammar
from hbr.games.jumpers.phrases import JumpersGrammar
from hbr.games.rabbithunt.phrases import RabbitGrammar
from hbr.grammar import ANSWERS, Understood, canonical, meaning
from hbr.session import rivalled
from hbr.voice import whisper
from hbr.voice.acceptance import AcceptanceModel
from hbr.voice.audio import RATE, mix_at_snr, pad, read_audio
from hbr.voice.recognizer import NOT_A_COMMAND, SILENCE, UNCLEAR, RecognizerError, decode, squash, starts_phrase
from hbr.voice.synth import espeak
from hbr.voice.whisper import (
    FEATURES,
    RIVAL_BEHIND,
    Evidence,
    WhisperRecognizer,
    _feature_extractor,
    _longest_repeat,
    agreed,
    as_numbers,
    forms,
    in_digits,
    reading_parts,
    renumbered,
    said_once,
    widened,
    wider,
)
from hbr.voice.words import OTHER, WordModel
from tests.conftest import Run

GRAMMAR = HBRGrammar()
#: Utterances as the live listener cut them in a benchmark's streamed game.
DATA = Path(__file__).with_name("data")


def test_squash_reads_every_spelling_of_a_compound() -> None:
    assert squash("North-East.") == squash("northeast") == squash(" North east") == "northeast"


def test_a_reading_that_nearly_begins_a_phrase_is_its_start() -> None:
    phrases = ["go to four five", "plant a field at six three", "north"]
    assert starts_phrase("Go, T, Four", phrases) and starts_phrase("Plant, A, Feel, That, Six", phrases)
    assert not starts_phrase("Go to 4 5.", phrases)  # the whole phrase: nothing left to say
    assert not starts_phrase("Nor", phrases)  # too little said to tell
    assert not starts_phrase("Five", phrases) and not starts_phrase("The weather is nice", phrases)


def test_what_whisper_said_before_it_starts_over_counts() -> None:
    assert said_once(["left", "left", "left", "left"]) == 1
    assert said_once(["west", "free", "times", "west", "free"]) == 3
    assert said_once(["goto", "two", "two"]) == 3  # a word said twice inside a phrase is not starting over
    assert said_once(["capture", "norfeast", "capt", "chournorfeast"]) == 2  # started over, not to the letter
    assert said_once(["frog", "at", "five", "five", "jump", "east"]) == 6
    assert said_once(["capturenorthwest", ""]) == 1
    assert said_once(["takeacarrot", "takeakerrot"]) == 1  # said over, a letter or two apart
    assert said_once(["takeacarrot", "takeacard"]) == 2  # another phrase: read whole, and far from either
    assert said_once(["planttheladderatone", "eight", "plantthelideratoneeight"]) == 2  # begins as its twin
    assert said_once(["planttheladder", "eight", "plantapatch"]) == 3  # begins far from it
    assert said_once([]) == 0


PHRASES = {"towardthebear", "up", "west", "westthreetimes", "north", "northeast", "capturenortheast"}


@pytest.mark.parametrize(("parts", "count"), [
    (["toward the bear", "up"], 1),  # two commands in one breath: the first
    (["west", "free", "times"], 3),  # not a phrase whole, and not "west" with a tail: read whole
    (["north", "east"], 2),  # the longest run that is a phrase
    (["capture", "north", "east"], 3),
    (["up"], 1),
    (["off"], 1),
])
def test_the_reading_is_the_longest_run_that_is_a_phrase_with_nothing_else_after(parts: list[str], count: int) -> None:
    assert reading_parts([squash(p) for p in parts], PHRASES.__contains__) == count


def test_the_longest_run_that_comes_twice() -> None:
    """What the decoder may not repeat is longer than any run a phrase itself repeats."""
    assert _longest_repeat([1, 2, 3]) == 0
    assert _longest_repeat([5, 9, 5]) == 1
    assert _longest_repeat([7, 1, 8, 1, 8, 1, 4]) == 3  # "At, One, One, East": ", One ," twice


def test_the_decoder_may_repeat_what_the_phrases_repeat(whisper_model: Path) -> None:
    """Hunter Bear Rabbit's phrases repeat single tokens only, Jumpers' "One, One" three:
    the decoder may not repeat a run one token longer (3 at least)."""
    assert WhisperRecognizer(GRAMMAR.phrases(), whisper_model)._no_repeat == 3
    assert WhisperRecognizer(JumpersGrammar().phrases(), whisper_model)._no_repeat == 4


def test_readings_agree_on_the_phrase_they_are_surest_of_together() -> None:
    assert agreed([("stop", 0.3)]) == ("stop", 0.3)
    assert agreed([(None, 0.0), ("stop", 0.9), ("stop", 0.6)]) == ("stop", 0.5)
    phrase, confidence = agreed([("up", 0.3), ("down", 0.95), ("up", 0.4)])
    assert phrase == "down" and confidence == pytest.approx(0.95 / 3)  # one sure reading is not two
    assert agreed([(None, 0.0), (None, 0.1)]) == (None, 0.0)


def test_number_words_as_digits() -> None:
    assert in_digits("go to two seven".split(), joined=False) == "go to 2 7"
    assert in_digits("go to two seven".split(), joined=True) == "go to 27"
    assert in_digits("frog at one two jumps one".split(), joined=True) == "frog at 12 jumps 1"
    assert in_digits(["north"], joined=True) == "north"


def test_forms_of_a_phrase() -> None:
    assert forms("north east") == [" North East", " North east", " North, East", " North-east", " Northeast"]
    assert forms("cat at three two") == [
        " Cat At Three Two", " Cat at 3 2", " Cat at 32", " Cat at three two", " Cat, At, Three, Two"
    ]  # Whisper writes numbers it hears as digits: "0 to 3 7", "Built to 27"
    assert forms("help") == [" Help"]


def test_a_broken_acceptance_model_is_one_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "acceptance.json"
    bad.write_text("{not json")
    with pytest.raises(RecognizerError, match="bench/fit_whisper.py"):
        AcceptanceModel.load(bad, FEATURES, "bench/fit_whisper.py")
    bad.write_text(json.dumps({"features": ["other"], "mean": [], "scale": [], "weights": [], "bias": 0, "threshold": 0}))
    with pytest.raises(RecognizerError, match="other features"):
        AcceptanceModel.load(bad, FEATURES, "bench/fit_whisper.py")


def test_a_folder_that_is_no_model_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RecognizerError, match="not a usable Whisper model"):
        WhisperRecognizer(GRAMMAR.phrases(), tmp_path)


def test_the_features_are_faster_whispers_own_without_the_rest_of_it() -> None:
    """The log-mel features come from faster-whisper's own module, loaded alone: the
    same numbers as faster-whisper's FeatureExtractor, and, in a fresh interpreter,
    none of the packages that faster-whisper's import brings (PyAV above all)."""
    from faster_whisper.feature_extractor import FeatureExtractor

    audio = np.random.default_rng(0).normal(0, 0.1, 16_000).astype(np.float32)
    ours = _feature_extractor()(feature_size=80)
    assert ours is not FeatureExtractor and np.array_equal(ours(audio), FeatureExtractor(feature_size=80)(audio))
    check = "import sys; from hbr.voice.whisper import _feature_extractor; _feature_extractor(); " \
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'av', 'faster_whisper', 'huggingface_hub'}))"
    assert subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True).stdout == "[]\n"


@pytest.fixture(scope="module")
def recognizer(whisper_model: Path) -> WhisperRecognizer:
    return WhisperRecognizer(GRAMMAR.phrases(), whisper_model)


def command(heard_phrase: str | None) -> str | None:
    parsed = GRAMMAR.parse(heard_phrase) if heard_phrase else None
    return canonical(parsed.intent) if isinstance(parsed, Understood) else None


def commands_heard(recognizer: WhisperRecognizer, said: list[tuple[str, str]], wpm: int) -> list[str | None]:
    """The command heard in each (text, espeak-ng voice) said at ``wpm``, whole."""
    return [command(decode(recognizer, pad(espeak(text, voice, wpm), 0.3)).phrase) for text, voice in said]


@pytest.mark.audio
def test_espeak_phrases_are_understood_and_never_confused(recognizer: WhisperRecognizer) -> None:
    """Whisper reads espeak-ng worse than people (docs/benchmarks.md): most phrases are
    understood, the rest not at all; none becomes another command."""
    texts = ["north east", "capture north west", "toward the rabbit", "south", "help", "snare south east",
             "towards the hole", "go west"]
    heard = commands_heard(recognizer, [(text, "en-us") for text in texts], 150)
    assert sum(h == command(t) for h, t in zip(heard, texts, strict=False)) >= 6, heard
    assert all(h in (None, command(t)) for h, t in zip(heard, texts, strict=False)), heard


@pytest.mark.audio
def test_a_last_word_heard_less_clearly_is_not_dropped(recognizer: WhisperRecognizer) -> None:
    """Whisper reads espeak-ng's en+m3 "toward rabbit hole" as "Toward, Rabbit, Fowl":
    these were taken for "toward rabbit" (a move toward the rabbit, not its hole) while a
    comma after "Rabbit" counted as the end of a command; now they are the whole phrase
    or nothing."""
    texts = ["toward rabbit hole", "step toward rabbit hole", "i move toward rabbit hole"]
    heard = commands_heard(recognizer, [(text, "en+m3") for text in texts], 160)
    assert all(h in (None, command(t)) for h, t in zip(heard, texts, strict=True)), heard


@pytest.mark.audio
def test_a_phrase_is_not_taken_for_the_shorter_one_it_goes_on_from(recognizer: WhisperRecognizer) -> None:
    """Said by these espeak-ng voices, the "hole" at the end is faint: Whisper ends its
    text "Move, Toward, The Rabbit," yet finds "Hole" nearly as likely. Each was taken
    for the move toward the rabbit, surely (0.93 to 0.98: not even asked back). Now the
    longer phrase is scored too; and the shorter phrases, said, are still themselves."""
    longer = [("move toward the rabbit hole", "en+m3"), ("step toward the rabbit hole", "en+m3"),
              ("toward the rabbit hole", "en+m1"), ("move toward rabbit hole", "en+m1")]
    shorter = [("move toward the rabbit", "en+m3"), ("toward the rabbit", "en+m1"), ("south", "en+m3"),
               ("north", "en+m1")]
    heard = commands_heard(recognizer, longer + shorter, 130)
    said = [command(text) for text, _ in longer + shorter]
    assert all(h in (None, s) for h, s in zip(heard, said, strict=True)), heard
    assert heard[len(longer):] == said[len(longer):], heard


@pytest.mark.audio
def test_a_capture_run_into_its_corner_is_still_heard(recognizer: WhisperRecognizer) -> None:
    """These voices run "capture" into "south": Whisper reads "Cop, Chose, Southwest" or
    "Cut your South East", no phrase. Scored only as written most like that reading
    ("Capture South West"), the capture was far less likely than the reading, and none
    was heard (0.09 to 0.38); scored as a list too ("Capture, South, West", as the
    prompt lists the words), it is nearly as likely, and the game asks it back."""
    said = [("capture south west", "en", 150), ("capture south west", "en+m3", 130), ("capture south east", "en", 150)]
    heard = [command(decode(recognizer, pad(espeak(text, voice, wpm), 0.3)).phrase) for text, voice, wpm in said]
    assert sum(h == command(text) for h, (text, _, _) in zip(heard, said, strict=True)) >= 2, heard
    assert all(h in (None, command(text)) for h, (text, _, _) in zip(heard, said, strict=True)), heard


@pytest.mark.audio
def test_phrases_are_scored_a_few_at_a_time_as_they_were_all_at_once(
    recognizer: WhisperRecognizer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each form scored costs the decoder about 8 MB while it runs, so the forms are scored
    FORCED_BATCH at a time: the scores and every step's logits are those of one batch."""
    scored: list[tuple[np.ndarray, list[tuple[tuple[int, ...], str, float]], list[int], list[int]]] = []
    forced = recognizer._forced_scores

    def kept(encoded: np.ndarray, candidates: list[tuple[tuple[int, ...], str, float]], courtesy: list[int],
             before: list[int]) -> tuple[list[float], list[np.ndarray]]:
        scored.append((encoded, candidates, courtesy, before))
        return forced(encoded, candidates, courtesy, before)

    monkeypatch.setattr(recognizer, "_forced_scores", kept)
    decode(recognizer, pad(espeak("capture south east", "en+f2", 160), 0.3))  # read "Cut your South East"
    assert scored and len(scored[0][1]) > whisper.FORCED_BATCH, scored
    few = forced(*scored[0])
    monkeypatch.setattr(whisper, "FORCED_BATCH", len(scored[0][1]))
    once = forced(*scored[0])
    assert few[0] == once[0]
    assert all(np.array_equal(a, b) for a, b in zip(few[1], once[1], strict=True))


def test_phrases_a_word_longer_inside_them() -> None:
    """Only a word inside a phrase may be swallowed: after it, the longer phrase goes on
    from it; before it, Whisper finds every word of its prompt nearly as likely."""
    phrases = ["east", "north east", "jumps east", "jumps south east", "jumps", "go to the barn", "go back to the barn"]
    assert widened(phrases) == {
        "jumps east": [(1, "south", "jumps south east")],
        "go to the barn": [(1, "back", "go back to the barn")],
    }


def test_phrases_with_one_number_another() -> None:
    phrases = ["go to three seven", "go to one seven", "go to three three", "go to five five", "north"]
    assert renumbered(phrases) == {
        "go to three seven": [(2, "one", "go to one seven"), (3, "three", "go to three three")],
        "go to one seven": [(2, "three", "go to three seven")],
        "go to three three": [(3, "seven", "go to three seven")],
    }


def test_only_a_phrase_with_a_word_swallowed_is_weighed_as_another() -> None:
    nearly = ["jumps south east", "jumps north", "cat at four one jumps east"]
    assert wider(nearly, "jumps east") == {"jumps south east": "jumps east"}
    assert wider(nearly, None) == {}


def test_where_each_word_whisper_wrote_begins(recognizer: WhisperRecognizer) -> None:
    """A word's place is found by the letters before it, so a word written in two
    tokens (" J", "umps") or after a comma is found all the same."""
    assert recognizer._word_starts(recognizer._encode(" Jumps, East"), 0) == {"": 0, "jumps": 3}
    assert recognizer._word_starts(recognizer._encode(" Please, Jumps, East"), 2) == {"": 2, "jumps": 5}


@pytest.fixture(scope="module")
def jumpers(whisper_model: Path) -> WhisperRecognizer:
    return WhisperRecognizer(JumpersGrammar().phrases(), whisper_model)


@pytest.mark.audio
def test_a_word_swallowed_by_the_one_before_is_not_lost(jumpers: WhisperRecognizer) -> None:
    """Piper saying "jumps south east", as the listener cut it late in a streamed game
    of bench/games_speech.py (the files in data/): Whisper wrote "Cat, At, Five, Three,
    Jumps, East", the "s" of "jumps" swallowing "south", and that is a phrase itself;
    both were taken, at 1.00 and 0.96, for a jump east. Whisper had found "South"
    nearly as likely as "East" there, so the phrase with it is scored too: each is
    heard, or asked back, never the jump east acted on."""
    grammar = JumpersGrammar()
    for said in ("cat at five three jumps south east", "cat at four one jumps south east"):
        heard = decode(jumpers, read_audio(DATA / f"{said.replace(' ', '_')}.wav"))
        taken = meaning(grammar, heard.phrase)
        assert taken in (None, meaning(grammar, said)) or rivalled(grammar, taken, heard.rival), heard


def test_a_word_that_sounds_like_a_number_of_the_game_is_read_as_it() -> None:
    said = frozenset({"two", "five", "four"})
    assert as_numbers("Go, To, Five.", said) == "go two five"
    assert as_numbers("Go for 5", said) == "go four 5"
    assert as_numbers("I won", said) == "i won"  # no phrase of the game says "one"


def test_the_numbers_whisper_wrote() -> None:
    assert whisper.numbers("Frog at 9, Three") == {"nine": 1, "three": 1}
    assert whisper.numbers("Here, At, Six, Six, Step") == {"six": 2}
    assert whisper.numbers("Go to 27") == {"two": 1, "seven": 1}
    assert not whisper.numbers("Cat, At, Free, Step")  # "free" may be "three", but is no number


@pytest.mark.audio
@pytest.mark.parametrize(("text", "voice"), [
    ("frog at one six jumps south east", "en-us"), ("frog at one six steps south east", "en+f2"),
    ("hare at six six steps south east", "en-us"),
])
def test_a_place_said_that_no_phrase_has_is_asked_back(jumpers: WhisperRecognizer, text: str, voice: str) -> None:
    """A player names a place off the board: Whisper writes it as said ("Frog, At, One,
    Six, Jump, South, East"), and the nearest phrase by its scores, "frog at one two
    jumps south east", was taken at 0.77 to 0.90, a move never asked for. Now a number
    Whisper wrote that the phrase has not makes the reading its rival: asked back, or
    not heard."""
    grammar = JumpersGrammar()
    heard = decode(jumpers, pad(espeak(text, voice, 130), 0.3))
    taken = meaning(grammar, heard.phrase)
    assert taken is None or rivalled(grammar, taken, heard.rival), heard


@pytest.mark.audio
@pytest.mark.parametrize(("text", "voice", "wpm"), [
    ("hare at seven three steps south east", "en+f2", 130), ("cat at five three jumps south west", "en+f2", 160),
])
def test_a_number_misheard_as_another_is_asked_back(jumpers: WhisperRecognizer, text: str, voice: str, wpm: int) -> None:
    """Whisper read "Here are ten, One, Three, Ten, South, East" and "Cut, At, Five,
    Bring, South, West"; scored, "hare at one three ..." and "cat at five one south
    west" came first, taken at 0.75 and 0.80 for moves never asked for, though Whisper
    had found the number said far likelier than the one it scored in its place. That
    phrase is scored too now: heard, or the rival, and asked back."""
    grammar = JumpersGrammar()
    heard = decode(jumpers, pad(espeak(text, voice, wpm), 0.3))
    taken = meaning(grammar, heard.phrase)
    assert taken is None or taken == meaning(grammar, text) or rivalled(grammar, taken, heard.rival), heard


@pytest.mark.audio
@pytest.mark.parametrize("voice", ["en-us", "en+m3"])
def test_a_number_run_into_a_word_that_sounds_the_same_is_heard(whisper_model: Path, voice: str) -> None:
    """"go to two five" is read "Go, To, Five": the "to" and the "two" run into one.
    By letters a dozen phrases were as near ("go to five one" ...), and the three scored
    were not the one said: "say it again", however often it was said, with no guess to
    ask back. Now it is found; but since "Go, To, Five" is also the start of "go to five
    one" from a speaker who stopped to think, it is not taken: said again, the game asks
    "Did you say go to two five?" (hbr.session near_miss)."""
    heard = decode(WhisperRecognizer(RabbitGrammar().phrases(), whisper_model), pad(espeak("go to two five", voice, 160), 0.3))
    assert heard.phrase is None and heard.rejected == UNCLEAR and heard.guess == "go to two five", heard


def test_a_phrase_with_a_swallowed_word_is_weighed_as_the_phrase_without_it(recognizer: WhisperRecognizer) -> None:
    """Whether a command was said is weighed on the phrase Whisper's reading came to
    ("toward bear", from "Toward, Spare"), whose numbers the evidence holds, not on the
    longer phrase with the word it swallowed: espeak-ng en+f2's "towards bear", heard
    at 0.63 and asked back, fell to 0.41 and "say it again" while its numbers were
    weighed as those of a three-word phrase."""
    values = (-7.91, -1.58, -3.59, 0.0, 1.0, 0.04, 0.27, 4.0)
    swallowed = Evidence("Toward, Spare", "toward the bear", values, weighed="toward bear")
    as_read = recognizer.acceptance.confidence(values, 2)
    assert recognizer.acceptance.confidence(values, 3) < 0.5 <= as_read  # the length matters to the model
    assert recognizer._confidence(swallowed) == as_read


def test_a_rival_nearly_as_likely_is_handed_on_with_the_phrase() -> None:
    near = Evidence("Cat, At, Three, One, St, Southwest", "cat at three one south west", (),
                    rival="cat at three one steps south west", behind=RIVAL_BEHIND / 2)
    assert WhisperRecognizer._rival([near], "cat at three one south west") == "cat at three one steps south west"
    assert WhisperRecognizer._rival([near], "cat at three one north west") is None  # another reading found it
    far = Evidence("Frog, At, One, East", "frog at one one east", (), rival="frog at six one east", behind=RIVAL_BEHIND * 2)
    assert WhisperRecognizer._rival([far], "frog at one one east") is None
    # a second look that found the phrase from a hesitation doubts it as much as the first
    plain, hesitant = Evidence("U", "up", ()), Evidence("Uh", "up", (), rival="Uh", behind=0.0)
    assert WhisperRecognizer._rival([plain, hesitant], "up") == "Uh"
    assert WhisperRecognizer._rival([plain, hesitant], "down") is None


@pytest.mark.audio
@pytest.mark.parametrize(("sound", "voice", "wpm"), [
    ("ah", "en-us+f3", 130), ("uh", "en-us+f3", 160), ("uh", "en-us+f3", 190), ("um", "en+m3", 190), ("oh", "en+m7", 160),
])
def test_a_hesitation_alone_is_never_acted_on(recognizer: WhisperRecognizer, sound: str, voice: str, wpm: int) -> None:
    """A player thinking aloud says "uh": Whisper reads "Uh" or "U", and "up" is near
    enough to be taken (each of these was, at 0.78 to 1.0, before sounds of hesitation
    were rivals). Now it is passed over, or handed on with the sound as its rival, and
    the game asks back (hbr.session.rivalled)."""
    heard = decode(recognizer, pad(espeak(sound, voice, wpm), 0.3))
    parsed = GRAMMAR.parse(heard.phrase or "")
    assert not isinstance(parsed, Understood) or rivalled(GRAMMAR, parsed.intent, heard.rival), heard


def recognized(run_hbr: Run, folder: Path, text: str, voice: str, wpm: int) -> tuple[dict[str, object], str]:
    """What `hbr recognize` says of a WAV file of ``text`` in an espeak-ng voice: its
    line of JSON, and what it printed to stderr."""
    from hbr.voice.audio import write_wav

    path = folder / "said.wav"
    write_wav(path, pad(espeak(text, voice, wpm), 0.3))
    result = run_hbr("recognize", str(path))
    assert result.returncode == 0, result.stderr
    line: dict[str, object] = json.loads(result.stdout)
    return line, result.stderr


@pytest.mark.audio
def test_hbr_recognize_says_the_rival_of_a_command(run_hbr: Run, tmp_path: Path) -> None:
    """A file of a hesitation read as "up" says what the game would ask it back for."""
    line, _ = recognized(run_hbr, tmp_path, "uh", "en-us+f3", 190)
    assert line["command"] == "north" and squash(str(line["rival"])) in whisper.HESITATIONS, line


@pytest.mark.audio
def test_phrases_scored_against_each_other_keep_the_runner_up(whisper_model: Path, recognizer: WhisperRecognizer) -> None:
    """Where Whisper's reading is no phrase ("Frog, At, One, East": one number of two),
    the phrases nearest it are scored by forced decoding, and the best but one is kept
    as the rival; a phrase Whisper wrote itself has none."""
    phrases = JumpersGrammar().phrases()
    jumpers = WhisperRecognizer(phrases, whisper_model)
    decode(jumpers, pad(espeak("frog at one east", "en+m3", 160), 0.3))
    scored = jumpers.last
    assert scored is not None and scored.phrase in phrases, scored
    assert scored.rival in phrases and scored.rival != scored.phrase and scored.behind >= 0, scored
    decode(recognizer, pad(espeak("north", "en-us", 160), 0.3))
    read = recognizer.last
    assert read is not None and read.phrase == "north" and read.rival is None, read


@pytest.mark.audio
@pytest.mark.parametrize(("game", "texts"), [
    ("jumpers", ["hare at one two jumps north east", "frog at three two north west", "cat at two three jumps north east",
                 "frog at three one steps north east", "hare at one three north west"]),
    ("spyhunting", ["go to five four", "go to three two", "north three times", "turn left two times", "where is the spy"]),
])
def test_the_long_phrases_of_other_games_are_understood_or_not_at_all(
    whisper_model: Path, game: str, texts: list[str]
) -> None:
    """Whisper writes a long phrase as a list ("Hare, At, One, Two, Jump, North, East"):
    its list form is scored too (docs/benchmarks.md). Measured on an Intel CPU: 5 of 5
    in each game (in en+f2 too), none taken for another; before the list forms, none of
    Jumpers'. On an AMD one (AVX2, no MKL), whose int8 numbers differ a little, Whisper
    wrote "frog at five one steps north east" for "three one", taken at 0.755: one of
    five, a known fault (docs/benchmarks.md), held here so it grows no worse."""
    from hbr.games import registry

    grammar = registry()[game].grammar()
    recognizer = WhisperRecognizer(grammar.phrases(), whisper_model)

    def meaning(phrase: str | None) -> object:
        parsed = grammar.parse(phrase) if phrase else None
        return parsed.intent if isinstance(parsed, Understood) else None

    heard = [meaning(decode(recognizer, pad(espeak(text, "en-us", 150), 0.3)).phrase) for text in texts]
    assert sum(h == meaning(t) for h, t in zip(heard, texts, strict=True)) >= 4, heard
    assert sum(h not in (None, meaning(t)) for h, t in zip(heard, texts, strict=True)) <= 1, heard


@pytest.mark.audio
def test_silence_and_noise_are_no_command(recognizer: WhisperRecognizer) -> None:
    assert decode(recognizer, np.zeros(2 * RATE, np.int16)).rejected == SILENCE
    hiss = (np.random.default_rng(3).standard_normal(2 * RATE) * 3000).astype(np.int16)
    assert decode(recognizer, hiss).phrase is None


@pytest.mark.audio
def test_an_utterance_longer_than_the_encoders_window_is_read_from_its_start(recognizer: WhisperRecognizer) -> None:
    """Whisper's encoder reads at most 30 s; a longer utterance given whole (a file, by
    the API) is read from its start rather than refused by CTranslate2."""
    audio = np.zeros(35 * RATE, np.int16)
    said = pad(espeak("capture north west", "en-us", 150), 0.3)
    audio[RATE : RATE + len(said)] = said
    assert command(decode(recognizer, audio).phrase) == "capture northwest"


@pytest.mark.audio
def test_other_talk_is_no_command(recognizer: WhisperRecognizer) -> None:
    for sentence in ("what time is it", "the weather is nice today", "call my mother"):
        heard = decode(recognizer, pad(espeak(sentence, "en", 160), 0.3))
        assert heard.phrase is None and heard.rejected == NOT_A_COMMAND, heard


@pytest.mark.audio
def test_a_word_of_courtesy_after_a_command_is_passed_over(recognizer: WhisperRecognizer) -> None:
    """"North, please" was read whole and near no phrase: asked again, or passed over.
    A word of courtesy after a phrase is now read past; said alone, or inside other talk,
    it is still no command."""
    said = [("north please", "en-us"), ("yes please", "en-us"), ("no thank you", "en+m3"), ("help please", "en"),
            ("where am i please", "en+m3"), ("repeat thank you", "en"), ("south east please", "en-us"),
            ("up now", "en")]
    heard = commands_heard(recognizer, said, 160)
    assert heard == [command(text.rsplit(" ", 2 if "thank you" in text else 1)[0]) for text, _ in said], heard
    for text in ("please", "thank you", "thanks", "open the door please", "thank you very much"):
        assert decode(recognizer, pad(espeak(text, "en-us", 160), 0.3)).phrase is None, text


@pytest.mark.audio
def test_please_before_a_command_is_passed_over(recognizer: WhisperRecognizer) -> None:
    """Whisper writes "Please, North": read whole, no command of 42 with "please" before
    it was understood (docs/benchmarks.md). The phrase after it is read, scored as
    Whisper wrote it after the word."""
    said = [("please north", "en-us"), ("please go west", "en+m3"), ("please help", "en"), ("please repeat", "en+m3"),
            ("please move south east", "en-us")]
    heard = commands_heard(recognizer, said, 160)
    assert heard == [command(text.removeprefix("please ")) for text, _ in said], heard


@pytest.mark.audio
def test_commands_in_noise_are_understood_or_not_at_all(recognizer: WhisperRecognizer) -> None:
    """White noise at 20 dB: most are understood; none becomes another command."""
    texts = ("west", "capture north east", "toward the hole", "south", "help")
    rng = np.random.default_rng(5)
    heard = []
    for text in texts:
        speech = pad(espeak(text, "en-us", 160), 0.3)
        noise = (rng.standard_normal(len(speech)) * 3000).astype(np.int16)
        heard.append(command(decode(recognizer, mix_at_snr(speech, noise, 20)).phrase))
    assert sum(h == command(t) for h, t in zip(heard, texts, strict=False)) >= 3, heard
    assert all(h in (None, command(t)) for h, t in zip(heard, texts, strict=False)), heard


@pytest.mark.audio
def test_each_file_is_decoded_on_its_own(recognizer: WhisperRecognizer) -> None:
    clips = [pad(espeak(t, "en+f2", 160), 0.3) for t in ("north", "what time is it", "capture south west")]
    alone = [decode(recognizer, clip).phrase for clip in clips]
    again = [decode(recognizer, clip).phrase for clip in reversed(clips)][::-1]
    assert alone == again


@pytest.mark.audio
def test_real_people_are_understood(recognizer: WhisperRecognizer, held_out: list[real.Recording]) -> None:
    """A sample of the speakers no model was fitted on: bench/fit_whisper.py measured
    the whole held-out half (docs/benchmarks.md); this guards against a regression."""

    commands = [r for r in held_out if r.is_command][::6]
    right = wrong = 0
    for rec in commands:
        got = command(decode(recognizer, rec.audio()).phrase)
        right += got == command(real.MEANS[rec.word])
        wrong += got is not None and got != command(real.MEANS[rec.word])
    assert right / len(commands) >= 0.9, f"{right} of {len(commands)} right"
    assert wrong / len(commands) <= 0.03, f"{wrong} of {len(commands)} wrong"


@pytest.mark.audio
def test_a_stereo_recording_with_a_channel_wired_the_other_way_round_is_heard(
    recognizer: WhisperRecognizer, held_out: list[real.Recording], tmp_path: Path
) -> None:
    """A real "left" recorded by a stereo pair whose second channel's polarity is
    swapped: mixed down by a plain mean it was silence, and nothing was heard."""
    import soundfile

    said = next(r for r in held_out if r.word == "left" and "v0.02" in r.file)
    audio = said.audio()
    path = tmp_path / "pair.flac"
    soundfile.write(path, np.stack([audio, -audio], axis=1), RATE)
    assert decode(recognizer, read_audio(path)).phrase == decode(recognizer, audio).phrase == "left"


@pytest.mark.audio
def test_another_word_said_in_place_of_an_answer_is_no_answer(
    recognizer: WhisperRecognizer, held_out: list[real.Recording]
) -> None:
    """While "Did you say north? Say yes or no." waits only yes and no may be answered,
    but every phrase is weighed: a held-out speaker who says a command again, or any
    other word, is refused (asked again: hbr.session), not heard to answer; listening
    for yes and no alone took 9.6% of them for an answer (docs/benchmarks.md). Yes and
    no themselves are still heard."""
    others = [r for r in held_out if r.word not in ANSWERS][::8]
    answers = [r for r in held_out if r.word in ANSWERS][::2]
    taken = [(r.word, h.phrase) for r in others if (h := decode(recognizer, r.audio(), ANSWERS)).phrase]
    right = sum(decode(recognizer, r.audio(), ANSWERS).phrase == r.word for r in answers)
    assert len(taken) <= len(others) // 100, f"{len(taken)} of {len(others)} taken for an answer: {taken}"
    assert right >= 0.93 * len(answers), f"{right} of {len(answers)} answers heard"
    left = next(r for r in others if r.word == "left")
    refused = decode(recognizer, left.audio(), ANSWERS)
    assert (refused.phrase, refused.rejected, refused.guess) == (None, UNCLEAR, "left")


#: Held-out real commands whose first reading was unsure ("Doe" for "no", "All right",
#: "U- U- Uh..."): read again a little later in the window, they were "No", "Right", "Up".
SECOND_LOOK = [f"speech_commands_v0.02_test/{name}.wav" for name in (
    "no/27c30960_nohash_0", "up/d103dd6e_nohash_1", "up/c22d3f18_nohash_2", "right/97f4c236_nohash_3",
    "down/692a88e6_nohash_0")]


@pytest.mark.audio
def test_a_command_read_unsure_is_read_again(
    recognizer: WhisperRecognizer, held_out: list[real.Recording], monkeypatch: pytest.MonkeyPatch,
) -> None:
    chosen = [r for r in held_out if r.file in SECOND_LOOK]
    assert len(chosen) == len(SECOND_LOOK)

    def understood() -> int:
        return sum(command(decode(recognizer, r.audio()).phrase) == command(real.MEANS[r.word]) for r in chosen)

    # read again: at least 4 of them on an Intel CPU (CTranslate2 through MKL) and on an AMD
    # one with AVX-512, 3 on an AMD one without it ("No" read at 0.85 there, and doubted
    # by the word model); read once: 1, 2 and 1. Their int8 numbers differ a little
    # (docs/benchmarks.md: "An AMD CPU reads differently").
    looked_again = understood()
    assert looked_again >= 3
    monkeypatch.setattr(whisper, "SHIFTS", ())
    monkeypatch.setattr(whisper, "WORD_BAR", 2.0)  # and no second opinion from the word model
    assert understood() <= looked_again - 2


#: Held-out real commands that Whisper heard only unclearly (its confidence between
#: UNCLEAR_ABOVE and the bar): 16 of the 17 guesses were the move said ("left" guessed
#: as "west" is the same move), one "up" was guessed "no".
UNCLEAR_REAL = [
    "speech_commands_v0.01_sample/stop/1eddce1d_nohash_3.wav", "speech_commands_v0.01_sample/up/1eddce1d_nohash_3.wav",
    *(f"speech_commands_v0.02_test/{name}.wav" for name in (
        "down/3659fc1c_nohash_0", "down/5f01c798_nohash_0", "down/893705bb_nohash_0", "left/692a88e6_nohash_5",
        "left/db24628d_nohash_2", "left/f2e59fea_nohash_0", "no/e0c782d5_nohash_2", "no/f2e59fea_nohash_4",
        "up/5f01c798_nohash_0", "up/82d0d3ba_nohash_0", "up/fdb5155e_nohash_2", "yes/893705bb_nohash_1",
        "yes/893705bb_nohash_3", "yes/9a7c1f83_nohash_4", "yes/d962e5ac_nohash_4")),
]


@pytest.mark.audio
def test_a_command_heard_unclearly_carries_a_guess_of_it(
    recognizer: WhisperRecognizer, held_out: list[real.Recording],
) -> None:
    """What the game asks back ("Did you say up?") when the same near miss comes twice
    (hbr.session): the phrase the utterance came nearest to."""
    chosen = [r for r in held_out if r.file in UNCLEAR_REAL]
    assert len(chosen) == len(UNCLEAR_REAL)
    heard = [(r, decode(recognizer, r.audio())) for r in chosen]
    assert all(h.guess is not None for _, h in heard if h.rejected == UNCLEAR)
    assert all(h.guess is None for _, h in heard if h.rejected != UNCLEAR)
    right = sum(command(h.phrase or h.guess) == command(real.MEANS[r.word]) for r, h in heard)
    assert right >= len(chosen) - 3, [(r.word, h.phrase, h.guess, h.rejected) for r, h in heard]


@pytest.mark.audio
def test_a_command_read_as_another_word_is_settled_by_the_word_model(
    recognizer: WhisperRecognizer, held_out: list[real.Recording], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The held-out speakers that Whisper heard unclearly ("Done" for "down", "This"
    for "yes"): the word model (hbr.voice.words) agrees with most of its guesses, and
    never makes another command of one."""
    chosen = [r for r in held_out if r.file in UNCLEAR_REAL]

    def understood() -> tuple[int, int]:
        said = [(command(decode(recognizer, r.audio()).phrase), command(real.MEANS[r.word])) for r in chosen]
        return sum(got == want for got, want in said), sum(got not in (None, want) for got, want in said)

    right, wrong = understood()
    assert right >= 9 and wrong == 0, (right, wrong)
    monkeypatch.setattr(whisper, "WORD_BAR", 2.0)
    assert understood()[0] <= 4


def test_the_word_model_is_asked_about_a_one_word_reading_only(recognizer: WhisperRecognizer) -> None:
    """"Stop the music" is not a command that Whisper misread: whatever the word model
    makes of the sound, a sentence that begins with a command is not taken for it."""
    heard = np.zeros(len(recognizer.words.mean))
    assert recognizer.word_said(whisper.Evidence("Stop the music.", "stop", (), heard), "stop") is None
    assert recognizer.word_said(whisper.Evidence("Star", "stop", (), heard), "stop") is not None
    assert recognizer.word_said(whisper.Evidence("Star", None, (), heard), None) is None
    assert recognizer.word_said(whisper.Evidence("Help", "help", (), heard), "help") is None  # it has no opinion


@pytest.mark.audio
def test_a_sure_reading_the_word_model_doubts_is_asked_again(
    recognizer: WhisperRecognizer, held_out: list[real.Recording], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whisper's sure "No" for a "down" on a telephone line: where the word model finds
    the phrase very unlikely, the player is asked again (the guess kept, so that the
    same phrase twice is asked back) rather than the phrase taken. At the seam, a word
    model sure that every utterance is none of its words: each real command Whisper
    took as one word the model knows comes back unclear, its phrase the guess; the
    rest are taken as before. While only a question's answers are heard, a yes or no
    is never doubted: asked again, it would be doubted again, and the player could
    never answer."""
    chosen = [r for r in held_out if r.is_command][:12]
    taken = [(r, h) for r, h in ((r, decode(recognizer, r.audio())) for r in chosen) if h.phrase is not None]
    assert len(taken) >= 10
    words = recognizer.words
    bias = np.where(np.array(words.words) == OTHER, 50.0, 0.0)  # sure it is no word it knows
    monkeypatch.setattr(recognizer, "words", WordModel(words.words, words.mean, words.scale, 0 * words.weights, bias))
    doubted = 0
    for r, before in taken:
        after = decode(recognizer, r.audio())
        one_word = recognizer.last is not None and len(recognizer.last.free.split()) == 1
        if one_word and before.phrase in words.words:
            assert (after.phrase, after.rejected, after.guess) == (None, UNCLEAR, before.phrase), r.file
            doubted += 1
        else:  # a phrase the word model was not fitted on, or more than one word read
            assert after.phrase == before.phrase, r.file
    assert doubted >= 5
    answers = frozenset({"yes", "no"})
    said = [r for r in held_out if r.word in answers][:6]
    assert [decode(recognizer, r.audio(), answers).phrase for r in said] == [r.word for r in said]


@pytest.mark.audio
def test_real_other_words_and_silence_are_rejected(
    recognizer: WhisperRecognizer, held_out: list[real.Recording],
) -> None:
    others = [r for r in held_out if not r.is_command][::3]
    accepted = [(r.word, heard.phrase) for r in others if (heard := decode(recognizer, r.audio())).phrase]
    assert len(accepted) / len(others) <= 0.04, accepted


@pytest.mark.audio
def test_while_a_question_waits_only_its_answers_are_heard(recognizer: WhisperRecognizer) -> None:
    answers = frozenset({"yes", "no"})
    assert decode(recognizer, pad(espeak("no", "en-us", 150), 0.3), answers).phrase == "no"
    assert decode(recognizer, pad(espeak("yes", "en+f2", 150), 0.3), answers).phrase == "yes"
    assert decode(recognizer, pad(espeak("capture north west", "en-us", 150), 0.3), answers).phrase is None


@pytest.mark.audio
def test_hbr_recognize_uses_whisper_by_default(run_hbr: Run, tmp_path: Path) -> None:
    """With the test extra installed, a plain `hbr recognize` finds the packaged model."""
    line, said = recognized(run_hbr, tmp_path, "capture north west", "en-us", 150)
    assert "Listening with whisper" in said
    assert line["command"] == "capture northwest"


@pytest.mark.audio
def test_hbr_recognize_cuts_a_long_recording_into_its_utterances(
    run_hbr: Run, tmp_path: Path, held_out: list[real.Recording]
) -> None:
    """A recording longer than one utterance (real people saying "up", then "left",
    then "off", in a 14-second FLAC file at 48 kHz, as another program records it) is
    cut as the game's listener cuts the microphone's sound: one line for each
    utterance, with about where it began; a short file beside it is still one line."""
    import soundfile
    import soxr

    # the first of each in the v0.02 test set (the v0.01 sample's first "up" is one that
    # Whisper misreads even alone: this is about the cutting, not the reading)
    said = [next(r for r in held_out if r.word == word and "v0.02" in r.file) for word in ("up", "left", "off")]
    audio = np.random.default_rng(3).normal(0, 20, 14 * RATE)  # a quiet room's hiss
    for begins, recording in zip((1.0, 5.0, 9.0), said, strict=True):
        clip = recording.audio().astype(np.float64)
        audio[int(begins * RATE) : int(begins * RATE) + len(clip)] += clip
    long = tmp_path / "long.flac"
    soundfile.write(long, soxr.resample(audio / 32768, RATE, 48000), 48000, subtype="PCM_16")
    short = tmp_path / "short.wav"
    soundfile.write(short, said[0].audio(), RATE)
    result = run_hbr("recognize", str(long), str(short))
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    heard = [r for r in records if r["file"] == str(long)]
    assert [r["command"] for r in heard if r["command"]] == ["north", "west"]
    assert [round(r["at"]) for r in heard if r["command"]] == [1, 5]
    (alone,) = [r for r in records if r["file"] == str(short)]
    assert alone["command"] == "north" and "at" not in alone


def test_a_phrase_of_which_only_the_start_was_read_is_not_taken(whisper_model: Path) -> None:
    """"plant a rabbit at three", the speaker stopping to think before the second number:
    Whisper read "Plant, A, Rabbit, At, Three", and the phrase scored best was "plant a
    rabbit at three one", taken at 0.79: a rabbit planted where the player never said.
    Now it is no command (the listener waits for the rest)."""
    from hbr.games.rabbithunt.phrases import RabbitGrammar

    recognizer = WhisperRecognizer(RabbitGrammar().phrases(), whisper_model)
    for voice in ("en-us", "en+m3", "en+f2"):
        audio = espeak("plant a rabbit at three", voice, 150)
        loud = np.nonzero(np.abs(audio.astype(np.int32)) > 0.05 * np.abs(audio).max())[0]
        heard = decode(recognizer, pad(audio[loud[0] : loud[-1] + 1], 0.3))
        assert heard.phrase is None, (voice, heard)
    whole = decode(recognizer, pad(espeak("go to four five", "en+m3", 150), 0.3))
    assert whole.phrase == "go to four five", whole  # a phrase read whole is taken as before


def test_a_reading_is_the_start_of_the_phrase_it_is_weighed_as(
    recognizer: WhisperRecognizer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """"Move, Toward, The", a swallowed "the" found: "move toward the hole" scores best,
    weighed as "move toward hole". The reading is the start of the longer phrase but not
    of the one it is weighed as, so the command is heard, as it was before the swallowed
    word was looked for (then 5 clean espeak-ng commands of the quick benchmark were
    turned away as begun only). The evidence is given here, at the seam: which audio
    Whisper reads so depends on the listener's cut."""
    sure = (-4.76, -0.53, 0.0, 1.0, 0.0, 0.01, 0.0, 8.0)
    found = Evidence("Move, Toward, The", "move toward the hole", sure, weighed="move toward hole")
    monkeypatch.setattr(recognizer, "evidence", lambda *args, **kwargs: found)
    assert recognizer.recognize(np.zeros(RATE, np.int16), 1.0).phrase == "move toward the hole"
    begun = Evidence("Move, Toward, The", "move toward the hole", sure)  # no word swallowed: only begun
    monkeypatch.setattr(recognizer, "evidence", lambda *args, **kwargs: begun)
    assert recognizer.recognize(np.zeros(RATE, np.int16), 1.0).rejected == UNCLEAR
