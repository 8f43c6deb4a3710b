"""Where vosk models are found, and how one is downloaded, checked and unpacked.

Search order: ``--model DIR``, then ``$HBR_VOSK_MODEL``, then the project's
models/ folder, then the user data directory. A download is streamed to a
temporary file, its SHA-256 checked against the pinned value, and unpacked into
a temporary folder beside the target (no member may escape it) before one rename
puts it in place, so a partial download never becomes a model.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import platformdirs

MODEL_NAME = "vosk-model-small-en-us-0.15"
MODEL_URL = f"https://alphacephei.com/vosk/models/{MODEL_NAME}.zip"
#: SHA-256 of the official zip (41,205,931 bytes); the site publishes none, so this
#: is the value many independent projects pinned after downloading it.
MODEL_SHA256 = "30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498"
ENV_VAR = "HBR_VOSK_MODEL"
#: Files every vosk model directory has.
REQUIRED = ("am/final.mdl", "conf/mfcc.conf")


class ModelError(RuntimeError):
    """A model cannot be found, fetched or used; the message says what to do."""


def project_models_dir() -> Path | None:
    """models/ of a source checkout (src/hbr/voice/models.py -> ../../../models)."""
    root = Path(__file__).resolve().parents[3]
    return root / "models" if (root / "pyproject.toml").is_file() else None


def user_models_dir() -> Path:
    return platformdirs.user_data_path("hbr") / "models"


def problems(path: Path) -> list[str]:
    """What is missing for ``path`` to be a vosk model directory (empty: it is one)."""
    if not path.is_dir():
        return [f"{path} is not a directory"]
    return [f"{path / name} is missing" for name in REQUIRED if not (path / name).is_file()]


def _models_in(folder: Path | None) -> list[Path]:
    if folder is None or not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if not p.name.startswith(".") and not problems(p))


@dataclass(frozen=True, slots=True)
class Found:
    path: Path | None
    why: str


def find_model(explicit: Path | None = None) -> Found:
    """The vosk model to use and why, or None and where it was looked for."""
    if explicit is not None:
        bad = problems(explicit)
        if bad:
            raise ModelError(f"--model {explicit} is not a vosk model: {bad[0]}")
        return Found(explicit, "given with --model")
    env = os.environ.get(ENV_VAR)
    if env:
        bad = problems(Path(env))
        if bad:
            raise ModelError(f"${ENV_VAR}={env} is not a vosk model: {bad[0]}")
        return Found(Path(env), f"from ${ENV_VAR}")
    for folder, label in ((project_models_dir(), "the project's models/"), (user_models_dir(), "the user data directory")):
        found = _models_in(folder)
        if found:
            return Found(found[0], f"found in {label}")
    places = [str(p) for p in (project_models_dir(), user_models_dir()) if p is not None]
    return Found(None, f"no vosk model in {' or '.join(places)}, ${ENV_VAR} unset, no --model")


def all_models() -> list[tuple[str, Path]]:
    """Every model in the standard places, with the place's name (for `hbr models list`)."""
    listed = [("models/", p) for p in _models_in(project_models_dir())]
    listed += [("user data", p) for p in _models_in(user_models_dir())]
    env = os.environ.get(ENV_VAR)
    if env and not problems(Path(env)):
        listed.insert(0, (f"${ENV_VAR}", Path(env)))
    return listed


def default_target() -> Path:
    return project_models_dir() or user_models_dir()


def _fetch(url: str, into: Path, progress: Callable[[int, int | None], None]) -> str:
    """Stream ``url`` into the file ``into``; returns its SHA-256."""
    digest = hashlib.sha256()
    try:
        with urllib.request.urlopen(url, timeout=30) as response, open(into, "wb") as out:
            total = response.headers.get("Content-Length")
            size = int(total) if total and total.isdigit() else None
            while chunk := response.read(1 << 16):
                out.write(chunk)
                digest.update(chunk)
                progress(len(chunk), size)
    except (urllib.error.URLError, TimeoutError, ConnectionError) as err:
        reason = getattr(err, "reason", err)
        raise ModelError(
            f"cannot download {url} ({reason}). On a machine with internet, download that zip, "
            f"unzip it, and pass --model DIR (or put the folder in {default_target()})."
        ) from None
    return digest.hexdigest()


def safe_unpack(archive: Path, into: Path) -> None:
    """Unzip ``archive`` into the folder ``into``; refuses members that would escape it."""
    with zipfile.ZipFile(archive) as z:
        for info in z.infolist():
            name = PurePosixPath(info.filename)
            mode = info.external_attr >> 16
            if name.is_absolute() or ".." in name.parts or info.filename.startswith(("/", "\\")):
                raise ModelError(f"unsafe archive: member {info.filename!r} would land outside the model folder")
            if (mode & 0o170000) == 0o120000:
                raise ModelError(f"unsafe archive: member {info.filename!r} is a symbolic link")
        z.extractall(into)


def download(
    url: str = MODEL_URL,
    sha256: str = MODEL_SHA256,
    target: Path | None = None,
    progress: Callable[[int, int | None], None] = lambda n, total: None,
) -> Path:
    """Download, verify and install a model into ``target``; returns the model's folder."""
    target = target or default_target()
    target.mkdir(parents=True, exist_ok=True)
    remove_partial_downloads(target)
    with tempfile.TemporaryDirectory(prefix=".download-", dir=target) as work:
        archive = Path(work) / "model.zip"
        got = _fetch(url, archive, progress)
        if got != sha256:
            raise ModelError(f"the download's SHA-256 is {got}, expected {sha256}: it was discarded")
        unpacked = Path(work) / "unpacked"
        try:
            safe_unpack(archive, unpacked)
        except zipfile.BadZipFile:
            raise ModelError("the download is not a zip archive: it was discarded") from None
        tops = [p for p in unpacked.iterdir()]
        model = tops[0] if len(tops) == 1 and tops[0].is_dir() else unpacked
        bad = problems(model)
        if bad:
            raise ModelError(f"the archive holds no vosk model ({bad[0]}): it was discarded")
        final = target / (model.name if model is not unpacked else Path(url).stem)
        if final.exists():
            raise ModelError(f"{final} already exists; remove it first to download again")
        os.replace(model, final)
    return final


def remove_partial_downloads(folder: Path) -> None:
    """Leftovers of a download that was killed (its temporary folders are dot-named)."""
    for p in folder.glob(".download-*"):
        shutil.rmtree(p, ignore_errors=True)
