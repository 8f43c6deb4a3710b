"""Short sounds made in code: notes, slides and chords, with soft edges.

A game describes each cue as notes (:class:`hbr.game.Note`) under a name; its
replies name the cues, and the speaker renders them here. Nothing is downloaded.
Cues are mono, so they can never hint at a direction.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from hbr.game import Note

RATE = 22_050  # the synthesizers' usual rate, so cues and speech mostly join without resampling


def render(notes: Iterable[Note], rate: int = RATE) -> np.ndarray:
    parts = []
    for note in notes:
        n = int(note.seconds * rate)
        freq = np.linspace(note.freq, note.to if note.to else note.freq, n)
        phase = 2 * np.pi * np.cumsum(freq) / rate
        wave = np.sin(phase)
        for ratio in note.chord:
            wave += np.sin(phase * ratio)
        wave /= 1 + len(note.chord)
        fade = min(n // 2, int(0.008 * rate))
        envelope = np.ones(n)
        if fade:
            envelope[:fade] = np.linspace(0, 1, fade)
            envelope[-fade:] = np.linspace(1, 0, fade)
        parts.append(wave * envelope * note.level)
        parts.append(np.zeros(int(0.02 * rate)))
    return (np.concatenate(parts) * 32767).astype(np.int16)
