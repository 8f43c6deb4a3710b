"""Each game's own phrases through each recognizer: how well the shared voice layer
serves a game it was not tuned on.

Run: python bench/games_speech.py [--phrases 40] [--backend whisper|pocketsphinx] [--game NAME]
[--in-play [--option NAME=VALUE]] [--piper VOICE] [--starting WORD,...]

For every game of the registry, a seeded sample of its grammar's phrases (all of them
when there are fewer) and the corpus's other sentences (bench/corpus.py) are spoken by
three espeak-ng voices at 160 words a minute (or, with ``--piper``, by one Piper voice
at the game's default 175, reported apart: a neural voice is nearer a person's, and
says the long phrases the real recordings lack), clean, and streamed through the game's
own listener with a recognizer built for that game's phrases, one session per voice,
as in bench/speech.py. Right: every utterance heard in the clip meant the command said
(the game's grammar decides what a phrase means); wrong: one meant another command;
acted on: a wrong one that the game would carry out without asking back (heard at a
confidence of the recognizer's own bar or more, its ``sure``, with no rival of another meaning);
asked back: a right one that the game would ask back first ("Did you say ...?").
Pocketsphinx's model for Jumpers was fitted on 29 other phrases of that game
(bench/corpus.py's fit_phrases leaves this sample out); Whisper's acceptance model on a
sample of 24 of each game drawn apart (seed 11), which may share a few with this one,
in voices this benchmark does not use. ``--starting capture,catch``: every phrase that
starts with one of the words instead of a sample (one kind of command, measured whole).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from corpus import BENCH_PHRASES, at_start, clips, game_option, intent, own_phrases, sessions  # noqa: E402
from machine import header  # noqa: E402
from speech import speech_end, stream, sureness  # noqa: E402

from hbr.games import registry  # noqa: E402
from hbr.voice.endpoint import Listener  # noqa: E402
from hbr.voice.models import WHISPER, find_model  # noqa: E402
from hbr.voice.recognizer import Recognizer  # noqa: E402

VOICES = ("en-us", "en+m3", "en+f2")


def measure(
    game: str, backend: str, make: Callable[[list[str]], Recognizer], n: int, in_play: bool = False,
    voices: tuple[str, ...] = VOICES, starting: frozenset[str] = frozenset(),
    options: Mapping[str, str | bool] | None = None,
) -> None:
    """``in_play``: as at the start of a game (a fresh game of number 1, with the game's
    ``options``), the game's own grammar (Spyhunting's: one side's) and only the phrases
    it listens for then (its ``listening()``) are listened for, and the commands played
    are drawn from them; ``starting``: all the phrases that start with one of these
    words are played instead of a sample."""
    grammar, moment = at_start(game, options or {}) if in_play else (registry()[game].grammar(), None)
    played_from = (moment or frozenset(grammar.phrases())) if in_play else None  # the commands drawn from
    if starting:
        phrases = sorted(p for p in (played_from or grammar.phrases()) if p.split()[0] in starting)
    else:
        phrases = own_phrases(game, n, among=played_from)
    if not phrases:
        print(f"{game:>10}: no phrase starts with {', '.join(sorted(starting))}")
        return
    right = wrong = acted = asked = for_rival = commands = taken = others = 0
    delays: list[float] = []
    missed: list[str] = []
    mistaken: list[str] = []
    speed = 175 if voices[0].startswith("piper:") else 160
    for session in sessions(clips(voices, (speed,), ("clean",), commands=phrases)):
        listener = Listener(make(grammar.phrases()), lambda: moment)
        bar = listener.recognizer.sure  # below it the game asks back (hbr.session)
        for clip in session:
            heard, delay = stream(listener, clip.audio, speech_end(clip.audio))
            # each phrase taken: what it means, how sure the game is of it, and whether it asks back
            taken_here = [(intent(grammar, h.phrase), sureness(grammar, h), h) for h in heard if h.phrase]
            got = {meant for meant, _, _ in taken_here} - {None}
            if clip.is_command:
                want = intent(grammar, clip.text)
                commands += 1
                right += got == {want}
                wrong += bool(got - {want})
                if got == {want}:
                    asked += any(sure < bar for _, sure, _ in taken_here)
                    for_rival += any(sure < bar <= (h.confidence or 0.0) for _, sure, h in taken_here)
                other = [(sure, h) for meant, sure, h in taken_here if meant not in (None, want)]
                acted += any(sure >= bar for sure, _ in other)
                mistaken += [f"{clip.text!r} ({clip.voice}) as {h.phrase!r} at {h.confidence or 0:.2f}"
                             + (f", rival {h.rival!r}" if h.rival else "") for _, h in other]
                if got != {want}:
                    missed.append(clip.text)
                if delay is not None and got == {want}:
                    delays.append(delay)
            else:
                others += 1
                taken += bool(got)
    words = statistics.mean(len(p.split()) for p in phrases)
    listened = len(moment) if moment is not None else len(grammar.phrases())
    how = (" in play" if in_play else "") + (f" {voices[0]}" if len(voices) == 1 else "")
    print(f"{game:>10} {backend:>12}{how}: commands {right / commands:6.1%} right, "
          f"{wrong / commands:5.1%} wrong, {acted / commands:5.1%} acted on; {asked / max(1, right):5.1%} of the right "
          f"asked back, {for_rival / max(1, right):5.1%} for a rival alone "
          f"(n={commands}, {len(phrases)} phrases, {listened} listened for, "
          f"{words:.1f} words on average); "
          f"other speech taken {taken / others:5.1%} (n={others}); p50 {statistics.median(delays) * 1000 if delays else 0:.0f} ms")
    often = sorted(set(missed), key=missed.count, reverse=True)[:6]
    if often:
        print(f"{'':>25}  most often missed: {', '.join(often)}")
    if mistaken:
        print(f"{'':>25}  taken for another: {'; '.join(mistaken)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phrases", type=int, default=BENCH_PHRASES, help=f"phrases per game (default {BENCH_PHRASES})")
    parser.add_argument("--backend", choices=("whisper", "pocketsphinx"))
    parser.add_argument("--game", choices=list(registry()), help="one game only")
    parser.add_argument("--in-play", action="store_true",
                        help="only the phrases a fresh game listens for at its start (its listening())")
    parser.add_argument("--piper", metavar="VOICE", help="spoken by this Piper voice instead (hbr voices lists them)")
    parser.add_argument("--starting", metavar="WORD,...", default="",
                        help="every phrase that starts with one of these words, instead of a sample")
    parser.add_argument("--option", action="append", default=[], type=game_option, metavar="NAME=VALUE",
                        help="with --in-play: one of the game's options, as hbr play takes it (side=spy)")
    args = parser.parse_args()
    print(header())
    if args.option and not args.in_play:
        parser.error("--option goes with --in-play")
    from hbr.voice.sphinx import SphinxRecognizer
    from hbr.voice.whisper import WhisperRecognizer

    makers: list[tuple[str, Callable[[list[str]], Recognizer]]] = []
    model = find_model(WHISPER).path
    if args.backend in (None, "whisper") and model is not None:
        makers.append(("whisper", lambda phrases: WhisperRecognizer(phrases, model)))
    if args.backend in (None, "pocketsphinx"):
        makers.append(("pocketsphinx", SphinxRecognizer))
    for game in [args.game] if args.game else registry():
        for backend, make in makers:
            measure(game, backend, make, args.phrases, args.in_play, (f"piper:{args.piper}",) if args.piper else VOICES,
                    frozenset(word for word in args.starting.split(",") if word),
                    dict(args.option))


if __name__ == "__main__":
    main()
