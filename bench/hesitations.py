"""A player thinking aloud: sounds of hesitation ("uh", "um") alone, and before a command.

Run: python bench/hesitations.py [--game NAME] [--piper VOICE] [--commands 6]

Players who are finding their way, children above all, say "uh" and "um" while they
think, often alone, between commands. Whisper, whose prompt lists the game's words,
reads a short "uh" as "Uh", "U" or even "Up", and the nearest phrase is "up": a move
nobody made. Each game's listener (a recognizer built for its phrases, one session per
voice and speed, streamed as in bench/speech.py) hears:

- each sound of :data:`SOUNDS` alone: passed over (nothing, or a "not a command"),
  asked (said again, or "Did you say ...?" first: an unclear one, a phrase below
  Whisper's bar, hbr.voice.recognizer.SURE, or with a rival of another meaning, or none), or **acted
  on** (a command the game would carry out without asking);
- "uh, COMMAND" and "um, COMMAND" with a pause after the sound, for a seeded sample of the
  game's own commands: right (the command, acted on or asked back, and nothing else
  acted on), and a command acted on that was not said.

Spoken by six espeak-ng voices at three speeds, or with ``--piper`` by one Piper voice
at three speeds (reported apart: synthetic hesitations are not people's, and the
numbers say what the game does with such sounds, not how often people make them).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from corpus import as_spoken, intent, own_phrases, speak  # noqa: E402
from speech import stream, sureness  # noqa: E402

from hbr.games import registry  # noqa: E402
from hbr.grammar import Grammar  # noqa: E402
from hbr.voice.endpoint import Listener  # noqa: E402
from hbr.voice.models import WHISPER, find_model  # noqa: E402
from hbr.voice.recognizer import SURE, UNCLEAR, Heard  # noqa: E402
from hbr.voice.synth import SPEEDS, VOICES  # noqa: E402

#: What a player says while thinking, as espeak-ng and Piper say it.
SOUNDS = ("uh", "um", "ah", "er", "oh", "hmm", "uhh", "umm")
#: The sounds said before a command, a pause between.
BEFORE = ("uh", "um")


def outcome(grammar: Grammar[object], heard: list[Heard]) -> str:
    """What the game does with what was heard in one clip of a sound alone."""
    taken = [sureness(grammar, h) for h in heard if intent(grammar, h.phrase) is not None]
    if any(sure >= SURE for sure in taken):
        return "acted on"
    if taken or any(h.rejected == UNCLEAR for h in heard):
        return "asked"
    return "passed over"


def measure(game: str, voices: tuple[str, ...], speeds: tuple[int, ...], n: int, model: Path) -> None:
    """Print what ``game`` does with the sounds alone and with ``n`` of its commands
    after a sound, each voice and speed one session on a fresh listener."""
    from hbr.voice.whisper import WhisperRecognizer

    grammar = registry()[game].grammar()
    commands = own_phrases(game, n, seed=17)
    alone: Counter[str] = Counter()
    acted: list[str] = []
    right = wrong = total = 0
    for voice in voices:
        for wpm in speeds:
            listener = Listener(WhisperRecognizer(grammar.phrases(), model))
            for sound in SOUNDS:
                heard, _ = stream(listener, as_spoken(speak(sound, voice, wpm)), 0)
                alone[done := outcome(grammar, heard)] += 1
                if done == "acted on":
                    acted.append(f"{sound!r} ({voice}, {wpm}) as {[h.phrase for h in heard if h.phrase]}")
            for command in commands:
                for sound in BEFORE:
                    heard, _ = stream(listener, as_spoken(speak(f"{sound}, {command}", voice, wpm)), 0)
                    want = intent(grammar, command)
                    meant = [(intent(grammar, h.phrase), sureness(grammar, h)) for h in heard]
                    total += 1
                    right += want in {m for m, _ in meant} and all(m in (None, want) or s < SURE for m, s in meant)
                    if any(m not in (None, want) and s >= SURE for m, s in meant):
                        wrong += 1
                        acted.append(f"{sound}, {command!r} ({voice}, {wpm}) as {[h.phrase for h in heard if h.phrase]}")
    clips = sum(alone.values())
    print(f"{game:>10} {voices[0] if len(voices) == 1 else 'espeak-ng'}: sounds alone (n={clips}): "
          + ", ".join(f"{alone[k] / clips:5.1%} {k}" for k in ("passed over", "asked", "acted on"))
          + f"; a sound, then a command (n={total}): {right / total:5.1%} right, {wrong / total:5.1%} another acted on")
    if acted:
        print(f"{'':>12}acted on: {'; '.join(acted)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=list(registry()), help="one game only")
    parser.add_argument("--piper", metavar="VOICE", help="spoken by this Piper voice instead (hbr voices lists them)")
    parser.add_argument("--commands", type=int, default=6, help="commands said after a sound, per game (default 6)")
    args = parser.parse_args()
    model = find_model(WHISPER).path
    if model is None:
        sys.exit("no Whisper model found: hbr models download whisper-tiny.en")
    voices, speeds = ((f"piper:{args.piper}",), (150, 175, 200)) if args.piper else (VOICES, SPEEDS)
    for game in [args.game] if args.game else list(registry()):
        measure(game, voices, speeds, args.commands, model)


if __name__ == "__main__":
    main()
