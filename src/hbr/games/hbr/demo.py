"""The demo: the blind bot plays aloud, for a stage without a screen and as a self-test.

The hunter's commands are spoken in one voice (espeak-ng), the Observer answers in
another (the game's speech). With ``loopback`` the hunter's voice goes through the
real recognizer and the engine acts on what was heard, so the whole pipeline talks
to itself; a command not understood is said again (up to three times, a little
slower each time) before the demo types it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hbr.games.hbr.bots import BlindBot
from hbr.games.hbr.commands import Command
from hbr.games.hbr.events import Event
from hbr.games.hbr.phrases import spoken
from hbr.games.hbr.table import HBRTable
from hbr.grammar import Meta, Understood

HUNTER_VOICE = "en+m3"
TRIES = (165, 140, 120)  # words per minute of each try
MAX_TURNS = 80


@dataclass
class DemoTurn:
    meant: str
    heard: str | None
    observer: str


def run_demo(
    table: HBRTable,
    hunter_voice: Callable[[str, int], np.ndarray],
    observer_voice: Callable[[str], tuple[np.ndarray, int]],
    play: Callable[[np.ndarray, int, str, str], None],
    echo: Callable[[str], None],
    hear: Callable[[np.ndarray], str | None] | None = None,
) -> list[DemoTurn]:
    """Play a game aloud. ``play(audio, rate, who, words)`` sounds (and may keep) each
    utterance; ``hear`` is the recognizer, returning the phrase heard (None: nothing),
    for the loopback."""
    bot = BlindBot(table.difficulty, table.state.rules)
    turns: list[DemoTurn] = []

    def observer(text: str) -> None:
        echo(f"Observer: {text}")
        audio, rate = observer_voice(text)
        play(audio, rate, "observer", text)

    observer(table.opening())
    events: tuple[Event, ...] = ()
    while not table.over and table.state.round < MAX_TURNS:
        meant: Command = bot.act(events)
        words = spoken(meant)
        heard_text: str | None = None
        command: Command = meant
        for wpm in TRIES:
            audio = hunter_voice(words, wpm)
            echo(f"Hunter: {words}")
            play(audio, 16_000, "hunter", words)
            if hear is None:
                heard_text = words
                break
            phrase = hear(audio)
            parsed = table.grammar.parse(phrase) if phrase else None
            if isinstance(parsed, Understood) and not isinstance(parsed.intent, Meta):
                heard_text = phrase
                command = parsed.intent
                break
            echo("  (not understood; the hunter says it again)")
        if hear is not None:
            echo(f"  meant: {meant}; heard: {heard_text or '(nothing, typed instead)'}")
        reply = table.act(command)
        events = table.turns[-1].events
        turns.append(DemoTurn(str(meant), heard_text, reply.words))
        observer(reply.words)
    observer(table.closing())
    return turns


def heard_correctly(turns: list[DemoTurn], table: HBRTable) -> int:
    """Turns whose heard words meant exactly the command the hunter meant."""
    right = 0
    for turn in turns:
        parsed = table.grammar.parse(turn.heard) if turn.heard else None
        right += isinstance(parsed, Understood) and str(parsed.intent) == turn.meant
    return right
