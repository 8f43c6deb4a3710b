"""What every engine shares: the units speech is made in, and the rate's limits."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from hbr.speech.tts import RATE_LIMITS, clamp_rate, clauses, sentences


def test_a_reply_is_spoken_sentence_by_sentence() -> None:
    assert sentences("You move north east. The bear and then the rabbit move.") == [
        "You move north east.", "The bear and then the rabbit move.",
    ]
    assert sentences("Danger zone! The bear is right beside you.") == ["Danger zone!", "The bear is right beside you."]


def test_a_long_first_sentence_starts_with_its_first_clause() -> None:
    assert sentences("Game over: you caught the rabbit after 4 turns, seed 0.") == [
        "Game over:", "you caught the rabbit after 4 turns, seed 0.",
    ]
    assert sentences("Yes, go on. Well, then.") == ["Yes, go on.", "Well, then."]  # short: whole


@given(st.text(alphabet=st.sampled_from("ab .,!?:"), max_size=60))
def test_nothing_is_lost_or_added(text: str) -> None:
    assert " ".join(sentences(text)).split() == text.split()


def test_a_long_sentence_is_cut_into_clauses_with_their_marks() -> None:
    sentence = "You are the hunter and cannot see: find and capture the rabbit before it reaches its hole, and keep away."
    assert clauses(sentence, 12) == [
        "You are the hunter and cannot see:", "find and capture the rabbit before it reaches its hole,", "and keep away.",
    ]
    assert clauses("Yes, go on, then.", 12) == ["Yes, go on, then."]  # short: whole
    assert clauses("one two three four five six", 3) == ["one two three four five six"]  # no mark: whole


@given(st.text(alphabet=st.sampled_from("ab .,:;"), max_size=80), st.integers(1, 8))
def test_clauses_lose_nothing_and_are_short_where_they_can_be(text: str, longest: int) -> None:
    pieces = clauses(text, longest)
    assert " ".join(pieces).split() == text.split()
    for piece, after in zip(pieces, pieces[1:], strict=False):
        assert piece[-1] in ",:;"  # cut only after a mark
        first_clause = re.split(r"(?<=[,:;])\s+", after)[0]
        assert len(piece.split()) + len(first_clause.split()) > longest  # it could not take the next clause in


@given(st.integers(-1000, 10_000))
def test_rates_stay_within_limits(rate: int) -> None:
    assert RATE_LIMITS[0] <= clamp_rate(rate) <= RATE_LIMITS[1]


@given(st.integers(-2000, 2000), st.floats(-5, 5), st.lists(st.sampled_from(["faster", "slower", "louder", "quieter"])))
def test_speech_prefs_stay_within_their_limits(rate: int, volume: float, steps: list[str]) -> None:
    from hbr.speech.tts import VOLUME_LIMITS, SpeechPrefs

    prefs = SpeechPrefs(rate, volume)
    for step in steps:
        prefs = getattr(prefs, step)()
        assert RATE_LIMITS[0] <= prefs.rate <= RATE_LIMITS[1] and VOLUME_LIMITS[0] <= prefs.volume <= VOLUME_LIMITS[1]
