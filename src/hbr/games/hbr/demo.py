"""The demo: the blind bot plays aloud, for a stage without a screen and as a self-test.

The hunter's commands are spoken in one voice (espeak-ng), the Observer answers in
another (the game's speech). With ``loopback`` the hunter's voice goes through the
real recognizer and the engine acts on what was heard, so the whole pipeline talks
to itself; a command not understood is said again (up to three times, a little
slower each time) before the demo types it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hbr.games.hbr.bots import BlindBot
from hbr.games.hbr.commands import Command
from hbr.games.hbr.events import Event
from hbr.games.hbr.phrases import spoken
from hbr.games.hbr.table import HBRTable
from hbr.grammar import Meta, Understood
from hbr.voice.audio import write_wav
from hbr.voice.recognizer import Recognizer, decode

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
    play: Callable[[np.ndarray, int], None],
    echo: Callable[[str], None],
    recognizer: Recognizer | None = None,
    out_dir: Path | None = None,
) -> list[DemoTurn]:
    bot = BlindBot(table.difficulty, table.state.rules)
    turns: list[DemoTurn] = []
    transcript: list[dict[str, object]] = []
    clip = 0

    def keep(audio: np.ndarray, rate: int, who: str, text: str) -> None:
        nonlocal clip
        clip += 1
        name = f"{clip:03d}-{who}.wav"
        if out_dir is not None:
            write_wav(out_dir / name, audio, rate)
        transcript.append({"file": name, "speaker": who, "text": text})
        play(audio, rate)

    def observer(text: str) -> None:
        echo(f"Observer: {text}")
        audio, rate = observer_voice(text)
        keep(audio, rate, "observer", text)

    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
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
            keep(audio, 16_000, "hunter", words)
            if recognizer is None:
                heard_text = words
                break
            heard = decode(recognizer, audio)
            parsed = table.grammar.parse(heard.phrase) if heard.phrase else None
            if isinstance(parsed, Understood) and not isinstance(parsed.intent, Meta):
                heard_text = heard.phrase
                command = parsed.intent  # type: ignore[assignment]
                break
            echo("  (not understood; the hunter says it again)")
        if recognizer is not None:
            echo(f"  meant: {meant}; heard: {heard_text or '(nothing, typed instead)'}")
        reply = table.act(command)
        events = table.turns[-1].events
        turns.append(DemoTurn(str(meant), heard_text, reply.words))
        observer(reply.words)
    observer(table.closing())
    if out_dir is not None:
        (out_dir / "transcript.jsonl").write_text("".join(json.dumps(t) + "\n" for t in transcript))
    return turns


def heard_correctly(turns: list[DemoTurn], table: HBRTable) -> int:
    """Turns whose heard words meant exactly the command the hunter meant."""
    right = 0
    for turn in turns:
        parsed = table.grammar.parse(turn.heard) if turn.heard else None
        right += isinstance(parsed, Understood) and str(parsed.intent) == turn.meant
    return right
