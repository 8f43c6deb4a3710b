"""One live game per user at a time: the microphone and speakers are shared."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

import platformdirs


class AlreadyRunning(RuntimeError):
    pass


class GameLock:
    """An exclusive lock on a file in the user's data directory, held while playing.

    The operating system releases it when the process ends, however it ends.
    """

    def __init__(self, name: str = "play.lock") -> None:
        folder = platformdirs.user_data_path("hbr")
        folder.mkdir(parents=True, exist_ok=True)
        self.path: Path = folder / name
        self._file: IO[str] | None = None

    def __enter__(self) -> GameLock:
        self._file = open(self.path, "a+")
        try:
            fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._file.close()
            raise AlreadyRunning(
                "another hbr game is already running for this user (it holds the microphone and speakers); "
                "finish it first, or play this one with --text"
            ) from None
        self._file.seek(0)
        self._file.truncate()
        self._file.write(str(os.getpid()))
        self._file.flush()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._file:
            self._file.close()
