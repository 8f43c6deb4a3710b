"""The demo: the computer plays a game aloud, for a stage without a screen and as a self-test.

Any game whose spec offers a :class:`hbr.game.Demo`: its computer player plays the
player's side and says each command in one voice (espeak-ng, or a Piper voice), the
Observer answers in another (the game's speech). With ``hear`` (the loopback) the
player's voice goes through the real recognizer and the game acts on what was heard,
so the whole pipeline talks to itself; a command not understood is said again (up to
three times, a little slower each time) before the demo types it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hbr.game import Demo
from hbr.grammar import Meta, Understood

#: The espeak-ng voice of the player's side when no Piper voice is there.
PLAYER_VOICE = "en+m3"
TRIES = (165, 140, 120)  # words per minute of each try
MAX_TURNS = 80


@dataclass
class DemoTurn:
    meant: str
    heard: str | None
    observer: str


def run_demo(
    demo: Demo,
    player_voice: Callable[[str, int], np.ndarray],
    observer_voice: Callable[[str], tuple[np.ndarray, int]],
    play: Callable[[np.ndarray, int, str, str], None],
    echo: Callable[[str], None],
    hear: Callable[[np.ndarray], str | None] | None = None,
    max_turns: int = MAX_TURNS,
) -> list[DemoTurn]:
    """Play a game aloud. ``play(audio, rate, who, words)`` sounds (and may keep) each
    utterance; ``hear`` is the recognizer, returning the phrase heard (None: nothing),
    for the loopback."""
    game = demo.game
    turns: list[DemoTurn] = []

    def observer(text: str) -> None:
        echo(f"Observer: {text}")
        audio, rate = observer_voice(text)
        play(audio, rate, "observer", text)

    observer(game.opening())
    while not game.over and len(turns) < max_turns:
        meant = demo.next()
        words = game.spoken(meant)
        heard_text: str | None = None
        command = meant
        for wpm in TRIES:
            audio = player_voice(words, wpm)
            echo(f"{demo.player}: {words}")
            play(audio, 16_000, demo.player.lower(), words)
            if hear is None:
                heard_text = words
                break
            phrase = hear(audio)
            parsed = game.grammar.parse(phrase) if phrase else None
            if isinstance(parsed, Understood) and not isinstance(parsed.intent, Meta):
                heard_text = phrase
                command = parsed.intent
                break
            echo(f"  (not understood; the {demo.player.lower()} says it again)")
        if hear is not None:
            echo(f"  meant: {meant}; heard: {heard_text or '(nothing, typed instead)'}")
        reply = game.act(command)
        turns.append(DemoTurn(str(meant), heard_text, reply.words))
        observer(reply.words)
    observer(game.closing())
    return turns


def heard_correctly(turns: list[DemoTurn], demo: Demo) -> int:
    """Turns whose heard words meant exactly the command the player meant."""
    right = 0
    for turn in turns:
        parsed = demo.game.grammar.parse(turn.heard) if turn.heard else None
        right += isinstance(parsed, Understood) and str(parsed.intent) == turn.meant
    return right
