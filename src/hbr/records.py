"""Autosave and transcripts for any game: what survives a crash, and what can be replayed.

The save file holds the game's own record (for HBR: seed, options, commands) and is
replaced atomically after every turn, so a kill at any moment loses at most the
turn in progress. The transcript is JSON lines, each flushed to disk as written.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Protocol

import platformdirs

from hbr.files import move_aside, write_atomically


class Recorded(Protocol):
    def record(self) -> dict[str, object]: ...

    def turn_record(self) -> dict[str, object]: ...

    def outcome(self) -> str | None: ...

    @property
    def over(self) -> bool: ...


def data_dir() -> Path:
    return platformdirs.user_data_path("hbr")


def save_path(game: str) -> Path:
    """The one unfinished game of each kind is kept here: a record of one game is
    never offered to another. A save from before there were several games (an HBR
    game, in current.json) becomes HBR's."""
    saves = data_dir() / "saves"
    path = saves / f"{game}.json"
    legacy = saves / "current.json"
    if game == "hbr" and legacy.exists() and not path.exists():
        os.replace(legacy, path)
    return path


def new_transcript_path(game: str, seed: int | None) -> Path:
    number = "" if seed is None else f"-{seed}"
    return data_dir() / "transcripts" / f"{time.strftime('%Y%m%d-%H%M%S')}-{game}{number}.jsonl"


class LoadProblem(RuntimeError):
    """The save file could not be used; it was moved aside (the message says where)."""


def load_save(path: Path) -> dict[str, object] | None:
    """The saved record, None if there is none; a broken file is moved aside."""
    if not path.exists():
        return None
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(doc, dict):
            raise ValueError("not a JSON object")
        return doc
    except (ValueError, UnicodeDecodeError) as err:
        aside = move_aside(path)
        raise LoadProblem(f"the saved game could not be read ({err}); it was moved to {aside}") from None


def set_aside(path: Path, why: str) -> LoadProblem:
    aside = move_aside(path)
    return LoadProblem(f"the saved game could not be used ({why}); it was moved to {aside}")


def _commands(record: dict[str, object]) -> list[object]:
    commands = record.get("commands", [])
    return list(commands) if isinstance(commands, list) else []


class Journal:
    """Writes a game's save file and transcript as it is played. A file that cannot
    be written (a read-only or full disk) is given up with one warning; the game goes on."""

    def __init__(
        self, save: Path | None, transcript: Path | None, settings: dict[str, object],
        warn: Callable[[str], None] = lambda message: print(message, file=sys.stderr, flush=True),
    ) -> None:
        self.save = save
        self.transcript = transcript
        self.settings = settings
        self.warn = warn
        self._out: IO[str] | None = None

    def _line(self, doc: dict[str, object]) -> None:
        if self.transcript is None:
            return
        try:
            if self._out is None:
                self.transcript.parent.mkdir(parents=True, exist_ok=True)
                self._out = open(self.transcript, "a", encoding="utf-8")
            self._out.write(json.dumps(doc) + "\n")
            self._out.flush()
            os.fsync(self._out.fileno())
        except OSError as err:
            self.warn(f"The transcript cannot be written ({self.transcript}: {err.strerror or err}); "
                      "the game goes on without it.")
            self.transcript = None

    def _autosave(self, game: Recorded) -> None:
        if self.save is None:
            return
        try:
            if game.over:
                self.save.unlink(missing_ok=True)  # nothing left to resume
            else:
                write_atomically(self.save, json.dumps(game.record()))
        except OSError as err:
            self.warn(f"The game cannot be saved ({self.save}: {err.strerror or err}); "
                      "it goes on, but cannot be resumed.")
            self.save = None

    def started(self, game: Recorded) -> None:
        record = game.record()
        start = {k: v for k, v in record.items() if k != "commands"}
        self._line({"type": "start", **start, "settings": self.settings, "time": time.strftime("%Y-%m-%dT%H:%M:%S")})
        for command in _commands(record):
            self._line({"type": "resumed", "command": command})
        self._autosave(game)

    def turn(self, game: Recorded, heard: str | None, confidence: float | None) -> None:
        self._line({"type": "turn", **game.turn_record(), "heard": heard, "confidence": confidence})
        self._autosave(game)

    def ended(self, game: Recorded) -> None:
        self._line({"type": "end", "outcome": game.outcome(), "turns": len(_commands(game.record()))})
        if self._out:
            self._out.close()
            self._out = None
