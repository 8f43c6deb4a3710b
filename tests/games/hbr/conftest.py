"""Helpers to set up exact situations on the field."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

from hbr.games.hbr.geometry import Point
from hbr.games.hbr.state import Field, Rules, State


def make_state(
    hunter: tuple[int, int],
    bear: tuple[int, int],
    rabbit: tuple[int, int],
    hole: tuple[int, int],
    obstacles: Iterable[tuple[int, int]] = (),
    snare: bool = True,
) -> State:
    field = Field(obstacles=frozenset(Point(*o) for o in obstacles), hole=Point(*hole))
    return State(field, Point(*hunter), Point(*bear), Point(*rabbit), rules=Rules(snare=snare))


@pytest.fixture
def state_at() -> Callable[..., State]:
    return make_state
