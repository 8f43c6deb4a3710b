"""One package per game; everything game-specific (rules, grammar, narration, bots) lives there."""
