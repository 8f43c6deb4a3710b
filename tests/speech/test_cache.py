"""The speech cache: a sentence is rendered once per voice and rate, kept in memory
and on disk, and a change of voice or rate renders it anew."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pytest

from hbr.speech.cache import SpeechCache
from hbr.speech.system import SystemSynthesizer

pytestmark = pytest.mark.audio
REPLY = "You cannot go that way. The bear and then the rabbit move."


class Counted:
    """The real system voice, counting what it is asked to render."""

    def __init__(self, voice: str | None = None) -> None:
        self.inner = SystemSynthesizer(voice=voice)
        self.rendered: list[str] = []

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def rate(self) -> int:
        return self.inner.rate

    @property
    def sample_rate(self) -> int:
        return self.inner.sample_rate

    def set_rate(self, rate: int) -> None:
        self.inner.set_rate(rate)

    def synthesize(self, text: str) -> tuple[np.ndarray, int]:
        self.rendered.append(text)
        return self.inner.synthesize(text)


def test_a_reply_is_rendered_sentence_by_sentence_once(tmp_path: Path) -> None:
    synth = Counted()
    cache = SpeechCache(tmp_path)
    first = list(cache.render(synth, REPLY))
    assert synth.rendered == ["You cannot go that way.", "The bear and then the rabbit move."]
    again = list(cache.render(synth, "The bear and then the rabbit move."))
    assert len(synth.rendered) == 2 and np.array_equal(again[0], first[1])
    assert len(list(tmp_path.glob("*/*.npy"))) == 2


def test_the_disk_keeps_sentences_for_the_next_game(tmp_path: Path) -> None:
    list(SpeechCache(tmp_path).render(Counted(), REPLY))
    synth = Counted()
    list(SpeechCache(tmp_path).render(synth, REPLY))
    assert synth.rendered == []


def test_a_new_rate_or_voice_renders_anew(tmp_path: Path) -> None:
    cache = SpeechCache(tmp_path)
    synth = Counted()
    normal = list(cache.render(synth, REPLY))
    synth.set_rate(300)
    fast = list(cache.render(synth, REPLY))
    assert len(synth.rendered) == 4 and len(fast[1]) < len(normal[1])
    other = Counted(voice="en-gb-x-rp")
    list(cache.render(other, REPLY))
    assert len(other.rendered) == 2


def test_a_broken_or_unwritable_cache_costs_only_speed(tmp_path: Path) -> None:
    cache = SpeechCache(tmp_path)
    list(cache.render(Counted(), REPLY))
    for path in tmp_path.glob("*/*.npy"):
        path.write_bytes(b"garbage")
    synth = Counted()
    assert len(list(SpeechCache(tmp_path).render(synth, REPLY))) == 2 and len(synth.rendered) == 2
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    synth = Counted()
    assert len(list(SpeechCache(blocked).render(synth, REPLY))) == 2


def test_the_disk_is_trimmed_oldest_first(tmp_path: Path) -> None:
    synth = Counted()
    list(SpeechCache(tmp_path).render(synth, "One. Two. Three."))
    files = sorted(tmp_path.glob("*/*.npy"), key=lambda p: p.stat().st_size)
    now = time.time()
    for age, path in enumerate(files):
        os.utime(path, (now - 100 * age, now - 100 * age))  # the biggest is the oldest
    SpeechCache(tmp_path, disk_bytes=sum(p.stat().st_size for p in files[:-1]))
    assert sorted(tmp_path.glob("*/*.npy")) == sorted(files[:-1])


def test_memory_keeps_only_the_latest_sentences(monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory holds MEMORY_BYTES of audio at most, the latest; with no disk, an older
    sentence is rendered again."""
    from hbr.speech import cache as cache_module

    synth = Counted()
    one = np.concatenate(list(SpeechCache(None).render(synth, "Three.")))
    monkeypatch.setattr(cache_module, "MEMORY_BYTES", int(2.5 * one.nbytes))
    cache, synth = SpeechCache(None), Counted()
    list(cache.render(synth, "One. Two. Three."))
    list(cache.render(synth, "Three. Two."))
    assert synth.rendered == ["One.", "Two.", "Three."]  # the latest two were still there
    list(cache.render(synth, "One."))
    assert synth.rendered[-1] == "One."
