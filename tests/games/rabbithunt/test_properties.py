"""Whatever is played, no card is lost or made, carrots stay within 0 to 6, and every game ends."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from hbr.games.rabbithunt.engine import apply, legal_moves
from hbr.games.rabbithunt.state import DECK_SIZE, MOST_CARROTS, RABBITS_EACH, new_game


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([2, 3, 4]), st.integers(0, 10_000))
def test_random_play_keeps_every_card_and_ends(seed: int, players: int, choices: int) -> None:
    rng = random.Random(choices)
    state = new_game(seed, players)
    for _ in range(3000):
        if state.over:
            break
        moves = legal_moves(state)
        assert moves
        state, _ = apply(state, rng.choice(moves))
        cards = [*state.deck, *(c for h in state.hands for c in h), *(p.card for _, p in state.farm),
                 *(c for h in state.caught for c in h)]
        assert len(cards) == len({c.id for c in cards}) == DECK_SIZE[players] + RABBITS_EACH * players
        assert all(0 <= c <= MOST_CARROTS for c in state.carrots)
        assert not state.out[state.to_move] or state.over
    assert state.over and set(state.winners) <= set(range(players))
