"""Files that must survive a crash: written to a temporary file, flushed, renamed."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a reader sees the old or the new file, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def move_aside(path: Path, why: str = "broken") -> Path:
    """Keep a file (a broken one, for inspection) under a new name, never one already
    taken (two in the same second get -2, -3 ...); returns that name."""
    stem = f"{path.name}.{why}-{time.strftime('%Y%m%d-%H%M%S')}"
    aside, n = path.with_name(stem), 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{stem}-{n}")
    os.replace(path, aside)
    return aside
