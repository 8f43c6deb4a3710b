"""The computer's farmers, at easy, normal or hard. A bot sees what a player at the
table sees: its own hand, the cards it planted or saw from a ladder, the cards face
up, and who planted each face-down card; never another player's hidden card.

- easy plays any legal move;
- normal hides its rabbits far from the other farmers, walks to the cards its rivals
  planted, nearest first, takes carrots when it cannot pay for the walk, and goes
  straight for a rival's rabbit it has seen;
- hard plants farmland first, as decoys, and its rabbits only when the deck runs low
  (against normal it won 119 games of 150 so, and 10 of 100 when it planted them as
  soon as it could: a rabbit among few cards is soon found), turns up its own carrot patches,
  seed bags and ladders when it passes them, and, with its own rabbits all hidden and
  more rabbits caught than anyone, draws cards to end the game sooner.
"""

from __future__ import annotations

import random

from hbr.games.rabbithunt.engine import Action, Go, Move, Plant, legal_moves, problem
from hbr.games.rabbithunt.state import Kind, Phase, Spot, State, carrots_for, team_of

LEVELS = ("easy", "normal", "hard")
#: A bot with rabbits in hand plants one when the deck is this close to running out
#: for each rabbit still held (each turn round the table draws about a card a player).
HURRY = 6


class Bot:
    def __init__(self, level: str, rng: random.Random) -> None:
        if level not in LEVELS:
            raise ValueError(f"no level {level!r}")
        self.level = level
        self.rng = rng

    def move(self, state: State) -> Move:
        moves = legal_moves(state)
        if self.level == "easy":
            return self.rng.choice(moves)
        return self._plant(state) if state.phase is Phase.PLANT else self._act(state)

    def _plant(self, state: State) -> Plant:
        me = state.to_move
        hand = state.hands[me]
        rabbits = sum(c.kind is Kind.RABBIT for c in hand)
        spots = state.open_spots()
        others = [state.farmers[p] for p in state.in_play() if team_of(p, state.players) != team_of(me, state.players)]
        hurry = len(state.deck) <= HURRY * rabbits * max(1, len(state.in_play()) - 1)
        eager = 0.0 if self.level == "hard" else 0.5
        if rabbits and (hurry or rabbits == len(hand) or self.rng.random() < eager):
            def safety(spot: Spot) -> tuple[int, float]:
                return min((_apart(spot, f) for f in others), default=0), self.rng.random()

            return Plant(Kind.RABBIT, max(spots, key=safety))
        kinds = sorted({c.kind for c in hand if c.kind is not Kind.RABBIT}, key=lambda k: k.value)
        kind = Kind.FIELD if Kind.FIELD in kinds else self.rng.choice(kinds)
        return Plant(kind, self.rng.choice(spots))

    def _act(self, state: State) -> Move:
        me = state.to_move
        steps = state.steps(state.farmers[me])
        carrots = state.carrots[me]
        worth = {spot: value for spot in steps if (value := self._worth(state, spot)) > 0 and spot != state.farmers[me]}
        if worth:
            def pick(spot: Spot) -> tuple[float, int, float]:
                return worth[spot], -steps[spot], self.rng.random()

            affordable = [s for s in worth if carrots_for(steps[s]) <= carrots]
            best = max(worth, key=pick)
            if affordable and (max(affordable, key=pick) == best or carrots_for(steps[best]) > 6 or
                               problem(state, Action.CARROT) is not None):
                return Go(max(affordable, key=pick))
        if self.level == "hard" and self._ahead(state) and state.deck:
            return Action.DRAW
        if problem(state, Action.CARROT) is None:
            return Action.CARROT
        return Action.DRAW

    def _worth(self, state: State, spot: Spot) -> float:
        """How much the bot wants to turn up the card at ``spot``, from what it knows."""
        me = state.to_move
        placed = state.at(spot)
        if placed is None or placed.face_up:
            return 0.0
        card = placed.card
        if state.knows(me, placed):
            if card.kind is Kind.RABBIT:
                rival = card.owner is not None and team_of(card.owner, state.players) != team_of(me, state.players)
                return 10.0 if rival else 0.0
            return 0.5 if self.level == "hard" and card.kind.event else 0.0
        if placed.by is None or team_of(placed.by, state.players) == team_of(me, state.players):
            return 0.0  # dealt from the deck, or a teammate's: never a rival's rabbit
        return 1.0

    def _ahead(self, state: State) -> bool:
        me = state.to_move
        return (not any(c.kind is Kind.RABBIT for c in state.hands[me])
                and len(state.caught[me]) > max(len(state.caught[p]) for p in range(state.players) if p != me))


def _apart(a: Spot, b: Spot) -> int:
    """Steps between two spots across the table (as if every spot held a card)."""
    def cube(spot: Spot) -> tuple[int, int]:
        row, place = spot
        x2 = 2 * place + (0 if row % 2 else 1)  # doubled x: even rows sit half a card east
        return x2, row

    (ax, ar), (bx, br) = cube(a), cube(b)
    dr = abs(ar - br)
    return dr + max(0, (abs(ax - bx) - dr) // 2)

