import random

import pytest

from hbr.games.hbr.geometry import chebyshev
from hbr.games.hbr.mapgen import PRESETS, Difficulty, new_game
from hbr.games.hbr.pathing import distances


def test_same_seed_same_forest() -> None:
    assert new_game(random.Random(42)) == new_game(random.Random(42))
    assert new_game(random.Random(42)) != new_game(random.Random(43))


@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_forests_fit_their_preset(difficulty: Difficulty) -> None:
    preset = PRESETS[difficulty]
    for seed in range(200):
        s = new_game(random.Random(seed), difficulty)
        f = s.field
        pieces = [s.hunter, s.bear, s.rabbit, f.hole]
        assert len(set(pieces)) == 4, "pieces on distinct squares"
        assert not set(pieces) & f.obstacles, "pieces on free squares"
        assert len(f.obstacles) == preset.obstacles
        home = distances(f, f.hole)[s.rabbit.y * f.width + s.rabbit.x]
        assert preset.rabbit_path[0] <= home <= preset.rabbit_path[1], "the rabbit has a path home"
        assert preset.bear_distance[0] <= chebyshev(s.bear, s.hunter) <= preset.bear_distance[1]
        # Not lost before the player can act: the bear is at least three squares off.
        assert chebyshev(s.bear, s.hunter) >= 3


def test_default_is_five_obstacles() -> None:
    assert len(new_game(random.Random(1)).field.obstacles) == 5
