"""One package per game; everything game-specific (rules, grammar, narration, bots) lives there.

A game package is found by looking: every package here with a ``spec`` module that
defines ``SPEC`` (a :class:`hbr.game.GameSpec`) is a game, so adding one changes
no shared module. Hunter Bear Rabbit is the default.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from hbr.game import GameSpec

DEFAULT = "hbr"


@cache
def registry() -> dict[str, GameSpec]:
    """Every game installed, by the name typed after `hbr play`; the default first."""
    found: dict[str, GameSpec] = {}
    for module in pkgutil.iter_modules(__path__):
        if not module.ispkg:
            continue
        name = f"{__name__}.{module.name}.spec"
        try:
            spec = importlib.import_module(name).SPEC
        except ModuleNotFoundError as err:
            if err.name != name:
                raise
            continue  # a package without a spec is not a game (yet)
        found[spec.name] = spec
    return dict(sorted(found.items(), key=lambda item: (item[0] != DEFAULT, item[0])))
