"""The shared grammar helpers."""

from __future__ import annotations

from hbr.games.hbr.commands import Capture
from hbr.games.hbr.geometry import Quadrant
from hbr.games.hbr.phrases import HBRGrammar
from hbr.grammar import Meta, meaning


def test_meaning_is_the_command_or_request_a_text_stands_for() -> None:
    grammar = HBRGrammar()
    assert meaning(grammar, "catch south east") == meaning(grammar, "capture south east") == Capture(Quadrant.SOUTHEAST)
    assert meaning(grammar, "yes") is Meta.YES
    assert meaning(grammar, "capture west") is None  # a known mistake, no command
    assert meaning(grammar, "") is None and meaning(grammar, None) is None
