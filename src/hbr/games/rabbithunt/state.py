"""The farm, the cards and the players of Rabbit Hunt (狡兔三窟), as immutable values.

The farm's cards are laid like bricks: each row is offset half a card from the next,
so a card touches six others, two in its row and two in each row beside it (a grid
of hexagons). The table holds 9 rows of 9 places; a spot is named by its row (1 in the
south to 9 in the north) and its place in the row (1 in the west to 9 in the east),
"four five" said; the barn (the seed's warehouse card) stands at five five. Odd rows
are the barn's; even rows sit half a card further east. See docs/rabbithunt.md.
"""

from __future__ import annotations

import enum
import random
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

SIZE = 9
BARN: Spot = (5, 5)
COLOURS = ("grey", "yellow", "blue", "green")
RABBITS_EACH = 3
START_CARROTS = 2
MOST_CARROTS = 6
HAND = 5
ACTIONS = 2
PEEK_CARROTS = 3
#: Farmland cards in the game by the number of players (the seed's table is lost; see docs).
DECK_SIZE = {2: 45, 3: 60, 4: 75}
#: The 75 farmland cards (the seed's list of them is lost; see docs).
FARMLAND = {"field": 45, "carrot patch": 12, "seed bag": 10, "ladder": 8}

Spot = tuple[int, int]  # (row from the south, place from the west), both 1..SIZE


class Kind(enum.Enum):
    RABBIT = "rabbit"
    FIELD = "field"
    CARROTS = "carrot patch"
    SEEDS = "seed bag"
    LADDER = "ladder"

    @property
    def event(self) -> bool:
        """A farmland card that does something when turned up (an event card)."""
        return self in (Kind.CARROTS, Kind.SEEDS, Kind.LADDER)


@dataclass(frozen=True, slots=True)
class Card:
    """One card: ``id`` tells cards of one kind apart; a rabbit has an ``owner``."""

    id: int
    kind: Kind
    owner: int | None = None


@dataclass(frozen=True, slots=True)
class Placed:
    """A card on the farm: face up or down, who planted it (None: dealt at the start)."""

    card: Card
    face_up: bool = False
    by: int | None = None


class Phase(enum.Enum):
    PLANT = "plant"  # play one card from the hand onto the farm
    ACT = "act"  # two actions


def neighbours(spot: Spot) -> Iterator[Spot]:
    """The six spots a card at ``spot`` touches, inside the table."""
    row, place = spot
    shift = 0 if row % 2 else 1  # even rows sit half a card east
    for r, p in ((row, place - 1), (row, place + 1), (row - 1, place - 1 + shift), (row - 1, place + shift),
                 (row + 1, place - 1 + shift), (row + 1, place + shift)):
        if 1 <= r <= SIZE and 1 <= p <= SIZE:
            yield r, p


def team_of(player: int, players: int) -> int:
    """With four players, those who sit opposite are a team (0 and 2, 1 and 3); else each alone."""
    return player % 2 if players == 4 else player


@dataclass(frozen=True, slots=True)
class State:
    seed: int
    players: int
    farm: tuple[tuple[Spot, Placed], ...]  # sorted by spot; the barn is not a card
    deck: tuple[Card, ...]  # the top first
    hands: tuple[tuple[Card, ...], ...]
    carrots: tuple[int, ...]
    farmers: tuple[Spot, ...]
    caught: tuple[tuple[Card, ...], ...]  # the rabbits each player has caught
    out: tuple[bool, ...]
    #: The face-down cards each player has seen (by card id): from a ladder, or planted by them.
    seen: tuple[frozenset[int], ...]
    to_move: int = 0
    phase: Phase = Phase.PLANT
    actions_left: int = ACTIONS
    turn: int = 1
    over: bool = False
    winners: tuple[int, ...] = ()
    #: How many times the deck was shuffled (an eliminated player's hand goes back into it).
    shuffles: int = 0
    _spots: dict[Spot, Placed] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_spots", dict(self.farm))  # a lookup of ``farm``, made once

    def at(self, spot: Spot) -> Placed | None:
        return self._spots.get(spot)

    def occupied(self, spot: Spot) -> bool:
        return spot == BARN or spot in self._spots

    def with_farm(self, spots: dict[Spot, Placed], **changes: object) -> State:
        return replace(self, farm=tuple(sorted(spots.items())), **changes)  # type: ignore[arg-type]

    def spots(self) -> dict[Spot, Placed]:
        return dict(self._spots)

    def open_spots(self) -> list[Spot]:
        """Where a card may be planted: an empty spot touching at least two cards (the barn is one)."""
        candidates = {n for s in [BARN, *self._spots] for n in neighbours(s)}
        return sorted(s for s in candidates if not self.occupied(s)
                      and sum(self.occupied(n) for n in neighbours(s)) >= 2)

    def steps(self, frm: Spot) -> dict[Spot, int]:
        """How many steps from card to touching card each card is from ``frm``."""
        found = {frm: 0}
        queue = deque([frm])
        while queue:
            spot = queue.popleft()
            for n in neighbours(spot):
                if n not in found and self.occupied(n):
                    found[n] = found[spot] + 1
                    queue.append(n)
        return found

    def in_play(self) -> list[int]:
        return [p for p in range(self.players) if not self.out[p]]

    def team(self, player: int) -> list[int]:
        return [p for p in range(self.players) if team_of(p, self.players) == team_of(player, self.players)]

    def knows(self, player: int, placed: Placed) -> bool:
        """Whether ``player`` knows what the card is: face up, or seen by them."""
        return placed.face_up or placed.card.id in self.seen[player]


def carrots_for(steps: int) -> int:
    """The carrots a farmer pays to walk ``steps`` cards: one for each two, rounded up."""
    return (steps + 1) // 2


def shuffled(cards: Iterable[Card], seed: int, what: str) -> tuple[Card, ...]:
    """``cards`` in an order drawn from the game's seed, so that a game replays exactly."""
    out = list(cards)
    random.Random(f"rabbithunt {seed} {what}").shuffle(out)
    return tuple(out)


def new_game(seed: int, players: int = 2) -> State:
    """The deck drawn for ``players``, six cards dealt face down around the barn, and
    each player's five cards, three rabbits and two carrots."""
    if players not in DECK_SIZE:
        raise ValueError(f"Rabbit Hunt is for 2 to 4 players, not {players}")
    farmland = [Kind(kind) for kind, count in FARMLAND.items() for _ in range(count)]
    cards = [Card(i, kind) for i, kind in enumerate(farmland)]
    deck = shuffled(cards, seed, "deck")[: DECK_SIZE[players]]
    around = [(5, 4), (5, 6), (4, 4), (4, 5), (6, 4), (6, 5)]
    farm = {spot: Placed(card) for spot, card in zip(around, deck, strict=False)}
    deck = deck[len(around):]
    hands = []
    for p in range(players):
        rabbits = tuple(Card(100 + RABBITS_EACH * p + i, Kind.RABBIT, p) for i in range(RABBITS_EACH))
        hands.append(deck[:HAND] + rabbits)
        deck = deck[HAND:]
    start = random.Random(f"rabbithunt {seed} first").randrange(players)
    return State(
        seed, players, tuple(sorted(farm.items())), deck, tuple(hands), (START_CARROTS,) * players,
        (BARN,) * players, ((),) * players, (False,) * players,
        tuple(frozenset(c.id for c in hand) for hand in hands), to_move=start,
    )
