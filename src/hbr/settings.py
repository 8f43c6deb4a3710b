"""The player's settings: a TOML file in the user config directory.

A broken file never stops a game: the message names the bad line or key, the
defaults stand in for what could not be read, and the file is left untouched until
a change by voice must be saved; then it is kept aside under a new name first.
Changes made by voice ("faster", "more detail") are saved at once, atomically.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path

import platformdirs
import tomli_w

from hbr.files import move_aside, write_atomically
from hbr.game import DETAIL_LEVELS
from hbr.speech.tts import DEFAULT_RATE, RATE_LIMITS, VOLUME_LIMITS


@dataclass
class Settings:
    rate: int = DEFAULT_RATE
    volume: float = 1.0
    voice: str = ""
    detail: str = "normal"
    cues: bool = True
    confirm: str = "auto"
    backend: str = "auto"
    model: str = ""
    #: Whether `hbr play` may offer to download the better speech model (a "no" is kept).
    offer_download: bool = True
    input_device: str = ""
    #: Whether the player hears the game in headphones: then the microphone listens while
    #: the game speaks, and a command said over the Observer stops it (from loudspeakers
    #: the game would hear its own voice, so it is deaf while it speaks).
    headphones: bool = False
    #: Whether the player may talk over the game through loudspeakers: the game takes
    #: its own voice out of what the microphone hears (hbr.voice.echo) and listens while
    #: it speaks once that works. auto: with Whisper, the recognizer it was measured
    #: with (docs/benchmarks.md); on: with any recognizer; off: deaf while it speaks.
    talk_over: str = "auto"
    output_device: str = ""
    difficulty: str = "normal"
    #: The player's own words: phrase -> what it stands for, e.g. forward = "north".
    aliases: dict[str, str] = field(default_factory=dict)


CHOICES = {
    "detail": DETAIL_LEVELS,
    "confirm": ("auto", "always", "never"),
    "backend": ("auto", "whisper", "vosk", "pocketsphinx"),
    "difficulty": ("easy", "normal", "hard"),
    "talk_over": ("auto", "on", "off"),
}
LIMITS = {"rate": RATE_LIMITS, "volume": VOLUME_LIMITS}


def default_path() -> Path:
    return platformdirs.user_config_path("hbr") / "settings.toml"


def load(path: Path) -> tuple[Settings, list[str]]:
    """Settings from ``path`` (defaults where missing) and the problems found, as sentences."""
    settings = Settings()
    if not path.exists():
        return settings, []
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        return settings, [f"{path} could not be read ({err}); using the default settings, the file is left as it is."]
    problems = []
    kinds = {f.name: type(getattr(settings, f.name)) for f in fields(Settings)}
    for key, value in doc.items():
        if key not in kinds:
            problems.append(f"{path}: unknown setting {key!r} ignored.")
            continue
        kind = kinds[key]
        if key == "talk_over" and isinstance(value, bool):
            # it was on or off, off by default, and every saved file wrote the default down
            value = "on" if value else "auto"
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            problems.append(f"{path}: {key} should be a {kind.__name__}, not {value!r}; the default is used.")
            continue
        if kind is dict and not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
            problems.append(f"{path}: [{key}] must map words to words, like forward = \"north\"; ignored.")
            continue
        if key in CHOICES and value not in CHOICES[key]:
            problems.append(f"{path}: {key} must be one of {', '.join(CHOICES[key])}; the default is used.")
            continue
        if key in LIMITS and not LIMITS[key][0] <= value <= LIMITS[key][1]:
            problems.append(f"{path}: {key} must be from {LIMITS[key][0]} to {LIMITS[key][1]}; the default is used.")
            continue
        setattr(settings, key, value)
    return settings, problems


def save(settings: Settings, path: Path) -> None:
    write_atomically(path, tomli_w.dumps(dataclasses.asdict(settings)))


def change(path: Path, name: str, value: object) -> str | None:
    """Save one setting into the file at ``path``. A file that cannot be read is never
    overwritten: it is kept aside first (the player's own words are in it), and the
    sentence that says where is returned."""
    settings, _ = load(path)
    note = None
    if path.exists():
        try:
            tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError):
            aside = move_aside(path)
            note = f"Your settings file could not be read; it is kept as {aside}, and a new one holds this change."
    setattr(settings, name, value)
    save(settings, path)
    return note
