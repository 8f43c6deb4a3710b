"""Speech recognition benchmark: prints accuracy, wrong commands, false accepts,
real-time factor, end-of-speech-to-command delay, load time and peak memory for
each recognizer backend available on this machine.

Run: python bench/speech.py [--quick] [--backend whisper|vosk|pocketsphinx] [--narrowband] [--real-only]
[--quieter DB | --louder DB] [--noisy DB [--noise pink|hum|babble]] [--reverb RT60 DB] [--pitch CENTS]
[--tempo FACTOR] [--fitting-half] [--game NAME [--option NAME=VALUE]] [--answering]
Two corpora, reported apart. Real people (bench/real.py: the held-out speakers of
../shared/speech-dev, one-word commands, other words, silence), and espeak-ng
speech (bench/corpus.py) in several voices and speeds, clean and with noise at 20
and 10 dB SNR, plus other sentences, silence and noise. ``--game NAME``: the real
recordings only, heard as at the start of that game (`hbr play NAME`: Spyhunting's
hunter, Jumpers' and Rabbit Hunt's first move), each word a command where the game
understands it and listens for a phrase of that meaning (Spyhunting's hunter: left,
right, forward, backward, stop, yes, no; its spy, `--option side=spy`, Jumpers and Rabbit
Hunt: stop, yes, no), every other word, the numbers among them, one that must not
become a command. ``--answering``: the real recordings only, heard while the game waits
for the answer to "Did you say ...? Say yes or no.": yes and no the only answers, every
other word (a command said again among them) one that must not be taken for either.
Every clip is streamed in the microphone's blocks (10 ms) through the game's own
listener (noise suppressor, endpointer and recognizer), as in a live game; each voice, speed and
noise condition is one session on a fresh listener and recognizer, in one kind of
noise that goes on between the clips (bench/corpus.py: clips, sessions). Results
are printed per condition and per kind of noise.
Targets (docs/benchmarks.md): >= 98% clean, >= 93% at 10 dB, false accepts <= 3%,
end of speech to command p50 <= 300 ms.
"""

from __future__ import annotations

import argparse
import functools
import resource
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

import real  # noqa: E402
from corpus import (  # noqa: E402
    CONDITIONS,
    Clip,
    as_spoken,
    at_start,
    clips,
    game_option,
    intent,
    noises,
    sessions,
    through,
)
from machine import header  # noqa: E402

from hbr.games import registry  # noqa: E402
from hbr.games.hbr.phrases import HBRGrammar  # noqa: E402
from hbr.grammar import ANSWERS, Grammar, Understood  # noqa: E402
from hbr.session import rivalled  # noqa: E402
from hbr.voice.audio import (  # noqa: E402
    BLOCK_SECONDS,
    RATE,
    clipped,
    narrowband,
    reverberant,
    rms,
    speech_level,
    to_int16,
)
from hbr.voice.endpoint import Listener  # noqa: E402
from hbr.voice.models import KINDS, Kind, find_model  # noqa: E402
from hbr.voice.recognizer import SURE, Heard, Recognizer  # noqa: E402


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def speech_end(audio: np.ndarray) -> int:
    """Index just after the last loud sample of the clean utterance."""
    loud = np.nonzero(np.abs(audio.astype(np.int32)) > 0.05 * np.abs(audio).max())[0]
    return int(loud[-1]) + 1 if len(loud) else len(audio)


def stream(listener: Listener, audio: np.ndarray, end: int) -> tuple[list[Heard], float | None]:
    """Stream a clip (which ends in a second of quiet, or of noise) in blocks of
    BLOCK_SECONDS, as the microphone delivers them, through the game's own listener.
    Returns what was heard and the delay from the end of speech to the first command
    heard (less than nothing when a command is handed on before the last faint sound of
    the clip).

    The delay is the audio time the endpointer needs after the last word, plus the
    time spent on the block in which the utterance ended (its last frames and the
    recognizer's finish), plus any backlog: a block that took longer than its own
    length (an early decode while the speaker pauses) delays the blocks after it, as
    the microphone's queue would in a live game.
    """
    block = int(BLOCK_SECONDS * RATE)
    heard: list[Heard] = []
    delay = None
    behind = 0.0  # seconds the listener is behind the microphone: work beyond real time piles up
    for start in range(0, len(audio), block):
        began = time.perf_counter()
        done = listener.feed(audio[start : start + block])
        spent = time.perf_counter() - began
        if delay is None and any(h.phrase for h in done):
            delay = (start + block - end) / RATE + behind + spent
        behind = max(0.0, behind + spent - block / RATE)
        heard += done
    return heard, delay


#: The faint hiss of a microphone (RMS; -70 dBFS) that recordings played quieter are heard in.
HISS = 10.0


def run_real(
    name: str, make: Callable[[list[str]], Recognizer], narrow: bool = False, quieter: float = 0.0,
    noise: tuple[str, float] | None = None, room_echo: tuple[float, float] | None = None, louder: float = 0.0,
    pitch: float = 0.0, half: str = "test", tempo: float = 1.0, game: str = "hbr",
    options: dict[str, str | bool] | None = None, answering: bool = False,
) -> None:
    """The real recordings of the held-out speakers (``half`` "fit": of the fitting
    half, to choose a setting without looking at the held-out ones), each streamed through one
    listener with 0.3 s of quiet before it and a second after: right, wrong and not
    understood per word; taken as a command per category; the delay. ``quieter``:
    the recordings played that many decibels quieter, in a microphone's faint hiss
    (a speaker across the room, a microphone turned down). ``louder``: that many
    decibels louder, clipped where they pass what 16 bits hold (a microphone turned up
    too far, a headset's microphone at the lips). ``noise``: (kind, dB) a
    noise of bench/corpus.py that goes on all the time, as in a room, at one level
    for the whole run: that many decibels below the median speaker's words (louder
    and quieter speakers stand further or less far above it). ``room_echo``: (RT60
    seconds, direct-to-reverberant dB) the recordings heard across a room that rings
    (hbr.voice.audio.reverberant), before any noise. ``pitch``: the recordings in a
    voice that many cents higher (lower, if less than nothing), its formants with it
    (bench/real.py: pitched): a child's voice, a deep one. ``tempo``: said that many
    times as fast, the pitch kept (bench/real.py: paced): a slow speaker, a hurried one.
    ``game``: heard as at the start of that game (`hbr play GAME`, seed 1, with the
    game's ``options``): by a recognizer built for its phrases, listening for those it
    listens for then; a word is a command where it means what one of those phrases
    means (Spyhunting's spy understands "left" typed, but has no phrase for it).
    ``answering``: the answers the only phrases taken (hbr.grammar.ANSWERS), as while a
    question waits (hbr.session): a yes or a no taken for the other, or any other word
    for either, would answer it wrongly.
    """
    grammar, moment = at_start(game, options or {})
    moment = ANSWERS if answering else moment
    wanted = asked_for(grammar, moment)
    recordings = list(real.recordings(half))
    room: np.ndarray | None = None
    if noise is not None:
        loop = noises()[noise[0]].astype(np.float64)
        median = float(np.median([speech_level(rec.audio()) for rec in recordings]))
        room = loop * median / (rms(loop) * 10 ** (noise[1] / 20))
    at = 0  # where in the room's noise the next clip begins
    listener = Listener(make(grammar.phrases()), lambda: moment)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # total, right, wrong
    delays: list[float] = []
    accepted: dict[str, list[float]] = defaultdict(list)  # confidences: right, wrong command, false alarm
    hiss = np.random.default_rng(7)
    mistaken: list[str] = []  # what was taken for another command, or for one where none was said
    for rec in recordings:
        speech = real.pitched(rec.audio(), pitch) if pitch else rec.audio()
        speech = real.paced(speech, tempo) if tempo != 1.0 else speech
        audio = as_spoken(speech)
        if room_echo is not None:
            audio = reverberant(audio, *room_echo, real.TEST_ROOM)
        if room is not None:
            mixed = audio + np.resize(np.roll(room, -at), len(audio))
            audio, at = to_int16(mixed), (at + len(audio)) % len(room)
        if quieter:
            audio = to_int16(audio * 10 ** (-quieter / 20) + hiss.normal(0, HISS, len(audio)))
        if louder:
            audio = clipped(audio, louder)
        heard, delay = stream(listener, narrowband(audio) if narrow else audio, int(0.3 * RATE) + speech_end(speech))
        taken = [(parsed.intent, sureness(grammar, h)) for h in heard
                 if h.phrase and isinstance(parsed := grammar.parse(h.phrase), Understood)]
        got = {meant for meant, _ in taken}
        want = wanted(rec.word)
        for meant, confidence in taken:
            accepted["right" if meant == want else "wrong" if want is not None else "false alarm"].append(confidence)
        mistaken += [f"{rec.word or 'silence'!r} as {h.phrase!r} ({h.confidence or 0:.2f})" for h in heard
                     if h.phrase and intent(grammar, h.phrase) not in (None, want)]
        if want is not None:
            for key in ("all commands", rec.word):
                counts[key][0] += 1
                counts[key][1] += got == {want}
                counts[key][2] += bool(got - {want})
            if delay is not None and got == {want}:
                delays.append(delay)
        else:
            for key in ("other words and silence", "other_word" if rec.word else "silence"):
                counts[key][0] += 1
                counts[key][1] += bool(got)
    level = f", {quieter:g} dB quieter in a faint hiss" if quieter else ""
    level += f", {louder:g} dB louder, clipped" if louder else ""
    level += f", in {noise[0]} noise {noise[1]:g} dB below the median speaker" if noise is not None else ""
    level += f", in a room ringing for {room_echo[0]:g} s, direct sound {room_echo[1]:g} dB" if room_echo else ""
    level += f", in a voice {pitch:+g} cents" if pitch else ""
    level += f", said {tempo:g} times as fast" if tempo != 1.0 else ""
    level += f", heard as {game}'s phrases" if game != "hbr" else ""
    level += ", yes and no the only answers" if answering else ""
    level += "".join(f", {name} {value}" for name, value in (options or {}).items())
    speakers = "held-out speakers" if half == "test" else "the fitting half's speakers"
    print(f"== {name}: real people ({speakers} of {real.FOLDER.name}{level})")
    for key, (total, right, wrong) in counts.items():
        if key in ("other words and silence", "other_word", "silence"):
            print(f"{key:>24}: {right / total:6.1%} taken as a command (n={total})")
        else:
            print(f"{key:>24}: {right / total:6.1%} right, {wrong / total:5.1%} wrong, "
                  f"{(total - right - wrong) / total:5.1%} not understood (n={total})")
    if mistaken:
        print(f"taken for another command, or for one where none was said: {'; '.join(mistaken)}")
    if not answering:  # an answer is never asked back (hbr.session)
        print_asked_back(accepted, listener.recognizer.sure)
    print_delays(delays)


def asked_for(grammar: Grammar[object], moment: frozenset[str] | None) -> Callable[[str], object]:
    """What a real word (bench/real.py) asks of a game listening for the phrases
    ``moment`` (None: all of them): the command it means where the game listens for a
    phrase of that meaning, else None, a word that must not become a command
    (Spyhunting's spy understands "left" typed, but has no phrase for it)."""
    heard_as = {intent(grammar, phrase) for phrase in (moment or grammar.phrases())}
    return lambda word: meant if word and (meant := intent(grammar, word)) in heard_as else None


def sureness(grammar: Grammar[object], heard: Heard) -> float:
    """The confidence a game weighs a phrase heard at before acting on it: none at all
    when the recognizer found a rival nearly as likely that means something else (or
    nothing: a sound of hesitation), which the game asks back however sure the
    recognizer was (hbr.session)."""
    said = grammar.parse(heard.phrase) if heard.phrase else None
    if isinstance(said, Understood) and rivalled(grammar, said.intent, heard.rival):
        return 0.0
    return heard.confidence or 0.0


def print_asked_back(accepted: dict[str, list[float]], sure: float) -> None:
    """How many of the commands taken (by kind: "right", "wrong", "false alarm": their
    :func:`sureness`) the game would ask back ("Did you say ...?") at several bars, its
    own (the recognizer's ``sure``, hbr.session) among them."""
    for bar in sorted({0.6, SURE, 0.85, 0.9, sure}):
        share = {kind: np.mean(np.asarray(accepted[kind]) < bar) if accepted[kind] else 0.0
                 for kind in ("right", "wrong", "false alarm")}
        print(f"asked back below {bar}{' (the game)' if bar == sure else ''}: {share['right']:.1%} of "
              f"right commands, {share['wrong']:.1%} of wrong ones, {share['false alarm']:.1%} of false alarms")


def print_delays(delays: list[float]) -> None:
    if delays:
        q = statistics.quantiles(delays, n=20)
        print(f"end of speech to command, streamed: p50 {statistics.median(delays) * 1000:.0f} ms, "
              f"p95 {q[18] * 1000:.0f} ms (n={len(delays)})")


def run(name: str, make: Callable[[list[str]], Recognizer], corpus: Iterable[Clip], label: str,
        narrow: bool = False) -> None:
    grammar = HBRGrammar()
    base = peak_mb()
    began = time.perf_counter()
    sure = make(grammar.phrases()).sure  # once here, to time the loading and see its memory
    load_seconds = time.perf_counter() - began
    loaded = peak_mb()  # before the corpus fills memory
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # total, right, wrong
    false_accepts = [0, 0]
    accepted: dict[str, list[float]] = defaultdict(list)  # confidences: right, wrong command, false alarm
    audio_seconds = decode_seconds = 0.0
    delays: list[float] = []
    for session in sessions(through(narrowband, corpus) if narrow else corpus):
        # a new player: nothing learned from the last one, neither voice nor room
        listener = Listener(make(grammar.phrases()))
        for clip in session:
            heard, delay = stream(listener, clip.audio, speech_end(clip.audio))
            audio_seconds += len(clip.audio) / RATE
            decode_seconds += sum(h.decode_ms for h in heard) / 1000
            got = set()
            want = grammar.parse(clip.text).intent if clip.is_command else None  # type: ignore[union-attr]
            for h in heard:
                parsed = grammar.parse(h.phrase) if h.phrase else None
                if isinstance(parsed, Understood):
                    got.add(parsed.intent)
                    kind = "right" if parsed.intent == want else "wrong" if clip.is_command else "false alarm"
                    accepted[kind].append(sureness(grammar, h))
            if clip.is_command:
                by_phrase = [f"clean: {clip.text}"] if clip.condition == "clean" else []
                for key in (clip.condition, *([f"{clip.condition}, {clip.noise}"] if clip.noise else []), *by_phrase):
                    row = counts[key]
                    row[0] += 1
                    row[1] += got == {want}
                    row[2] += bool(got - {want})
                if clip.condition == "clean" and delay is not None:
                    delays.append(delay)
            else:
                false_accepts[0] += 1
                false_accepts[1] += bool(got)
    print(f"== {name}: {label}")
    print(f"model load: {load_seconds:.2f} s; memory added by loading the recognizer: {loaded - base:.0f} MB "
          f"(process peak then {loaded:.0f} MB)")
    for key in sorted(counts, key=lambda k: (CONDITIONS.index(k.split(",")[0].split(":")[0]), k)):
        total, right, wrong = counts[key]
        if ":" not in key or right < 0.9 * total:  # phrases: only those often missed
            print(f"commands {key:>14}: {right / total:6.1%} right, {wrong / total:5.1%} wrong command  (n={total})")
    print_asked_back(accepted, sure)
    print(f"non-commands, silence, noise accepted as a command: {false_accepts[1] / false_accepts[0]:.1%} "
          f"(n={false_accepts[0]})")
    print(f"real-time factor: {decode_seconds / audio_seconds:.3f} ({audio_seconds / decode_seconds:.0f}x faster than real time)")
    print_delays(delays)


def _load(kind: Kind, path: Path, phrases: list[str]) -> Recognizer:
    from hbr.voice.backends import load

    return load(kind, phrases, path)


def main() -> None:
    rooms = sorted(noises(seconds=0.1))  # the kinds of noise
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="espeak-ng: 3 voices, 1 speed")
    parser.add_argument("--backend", choices=("whisper", "vosk", "pocketsphinx"))
    parser.add_argument("--narrowband", action="store_true",
                        help="every clip through a 300-3400 Hz channel, as from a Bluetooth headset")
    parser.add_argument("--real-only", action="store_true", help="only the real recordings")
    level = parser.add_mutually_exclusive_group()
    level.add_argument("--quieter", type=float, default=0.0, metavar="DB",
                       help="the real recordings played DB quieter, in a microphone's faint hiss")
    level.add_argument("--louder", type=float, default=0.0, metavar="DB",
                       help="the real recordings played DB louder, clipped, as by a microphone turned up too far")
    parser.add_argument("--noisy", type=float, metavar="DB",
                        help="the real recordings in a room's noise, DB below the median speaker (each kind in turn)")
    parser.add_argument("--noise", choices=rooms, help="with --noisy: this kind of noise only")
    parser.add_argument("--reverb", type=float, nargs=2, metavar=("RT60", "DB"),
                        help="the real recordings heard across a room ringing for RT60 seconds, "
                             "the direct sound DB louder than the reflections")
    parser.add_argument("--pitch", type=float, default=0.0, metavar="CENTS",
                        help="the real recordings in a voice CENTS higher (less than nothing: lower), as a child's")
    parser.add_argument("--tempo", type=float, default=1.0, metavar="FACTOR",
                        help="the real recordings said FACTOR times as fast (less than 1: slower), the pitch kept")
    parser.add_argument("--fitting-half", action="store_true",
                        help="the real recordings of the fitting half, not the held-out speakers: to choose a setting")
    parser.add_argument("--piper", metavar="VOICE", default="en_US-joe-medium",
                        help="the Piper voice of the second synthetic corpus (default en_US-joe-medium; none: skip)")
    parser.add_argument("--piper-only", action="store_true", help="only the Piper voice's corpus")
    parser.add_argument("--game", choices=list(registry()),
                        help="the real recordings only, heard as this game's phrases (its grammar says which are commands)")
    parser.add_argument("--option", action="append", default=[], type=game_option, metavar="NAME=VALUE",
                        help="with --game: one of the game's options, as hbr play takes it (side=spy)")
    parser.add_argument("--answering", action="store_true",
                        help="the real recordings only, heard while a question waits: yes and no the only answers")
    args = parser.parse_args()
    print(header())
    if args.tempo <= 0:
        parser.error("--tempo: a speed above nothing (0.7: slower, 1.3: faster)")
    from hbr.voice.sphinx import SphinxRecognizer

    makers: list[tuple[str, Callable[[list[str]], Recognizer]]] = []
    for kind in KINDS:
        if args.backend not in (None, kind.backend):
            continue
        found = find_model(kind)
        if found.path is None:
            print(f"== {kind.backend}: not measured, {found.why}")
            continue
        path = found.path
        makers.append((f"{kind.backend} ({path})", functools.partial(_load, kind, path)))
    if args.backend in (None, "pocketsphinx"):
        makers.append(("pocketsphinx", SphinxRecognizer))
    for name, make in makers:
        if args.piper_only:
            pass
        elif real.available():
            for room in [None] if args.noisy is None else [args.noise] if args.noise else rooms:
                run_real(name, make, narrow=args.narrowband, quieter=args.quieter,
                         noise=None if room is None else (room, args.noisy),
                         room_echo=tuple(args.reverb) if args.reverb else None, louder=args.louder,
                         pitch=args.pitch, half="fit" if args.fitting_half else "test", tempo=args.tempo,
                         game=args.game or "hbr", options=dict(args.option), answering=args.answering)
        else:
            print(f"== {name}: real people not measured, {real.FOLDER} is absent")
        if not (args.real_only or args.piper_only or args.game or args.answering):
            espeak_voices = clips(("en-us", "en+m3", "en+f2"), (160,)) if args.quick else clips()
            run(name, make, espeak_voices, "espeak-ng voices", args.narrowband)
        if not (args.real_only or args.game or args.answering) and args.piper != "none":
            # one voice at the game's default rate and one faster: reported apart, never tuned on
            piper = clips((f"piper:{args.piper}",), (175,) if args.quick else (150, 200))
            run(name, make, piper, f"Piper voice {args.piper}", args.narrowband)


if __name__ == "__main__":
    main()
