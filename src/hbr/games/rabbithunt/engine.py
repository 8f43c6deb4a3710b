"""The rules of Rabbit Hunt: ``apply(state, command) -> (state, events)``, pure.

A turn is one card planted from the hand (skipped when the hand is empty or the farm
has no open spot), then two actions: draw a card, take a carrot, walk the farmer (and
turn up the card it stops on), or pay three carrots to look at a player's hand. The
game ends when the deck runs out, or when one player (team) is left. Events are facts
for every player; what each may know of them is the Observer's business (table.py).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import TypeVar

from hbr.games.rabbithunt.state import (
    ACTIONS,
    BARN,
    COLOURS,
    MOST_CARROTS,
    PEEK_CARROTS,
    RABBITS_EACH,
    Card,
    Kind,
    Phase,
    Placed,
    Spot,
    State,
    carrots_for,
    neighbours,
    shuffled,
    team_of,
)


@dataclass(frozen=True, slots=True)
class Plant:
    kind: Kind
    spot: Spot

    def __str__(self) -> str:
        return f"plant a {self.kind.value} at {self.spot[0]} {self.spot[1]}"


@dataclass(frozen=True, slots=True)
class Go:
    spot: Spot

    def __str__(self) -> str:
        return "go to the barn" if self.spot == BARN else f"go to {self.spot[0]} {self.spot[1]}"


class Action(enum.Enum):
    DRAW = "draw a card"
    CARROT = "take a carrot"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Peek:
    target: int  # a player

    def __str__(self) -> str:
        return f"peek at {COLOURS[self.target]}"


Move = Plant | Go | Action | Peek


class Refusal(enum.Enum):
    """Why a command cannot be played now (the table says it in words)."""

    OVER = "the game is over"
    PLANT_FIRST = "plant a card first"
    PLANTED = "the card of this turn is planted"
    NOT_IN_HAND = "no such card in the hand"
    TAKEN = "the spot is taken"
    NOT_TOUCHING = "the spot touches fewer than two cards"
    NO_CARD_THERE = "no card there to walk to"
    HERE = "the farmer is already there"
    CARROTS = "too few carrots"
    FULL = "as many carrots as allowed"
    WHOM = "not a player to look at"


class Happened(enum.Enum):
    TURN = "turn"  # a player's turn begins
    PLANTED = "planted"
    DREW = "drew"
    CARROT = "carrot"  # took one (count: how many now)
    WALKED = "walked"  # from spot to ``to``: steps, paid count
    TURNED_UP = "turned up"
    CAUGHT = "caught"  # card: the rabbit; count: how many the catcher has
    REPLACED = "replaced"  # a card from the deck laid face down where the caught rabbit was
    TOOK_BACK = "took back"  # the player's own rabbit back to the hand; cards: the one hidden in its place
    LEFT = "left"  # a rabbit turned up that stays: its owner's, with no card to hide there, or a teammate's
    PATCH = "patch"  # a carrot patch: count carrots now
    SEEDS = "seeds"  # a seed bag: cards drawn
    LOOKED = "looked"  # from a ladder: cards, the face-down ones beside it (with their spots in ``spots``)
    PEEKED = "peeked"  # target's hand, in cards
    OUT = "out"  # reason: "caught" (all three rabbits) or "held" (a rabbit in hand at the end)
    DECK_EMPTY = "deck empty"
    WON = "won"  # winners in ``players``; reason: how the tie was broken, if it was


@dataclass(frozen=True, slots=True)
class Event:
    kind: Happened
    player: int
    spot: Spot | None = None
    to: Spot | None = None
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    spots: tuple[Spot, ...] = ()
    count: int = 0
    target: int | None = None
    players: tuple[int, ...] = ()
    reason: str = ""


class IllegalMove(ValueError):
    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.value)
        self.refusal = refusal


def problem(state: State, move: Move) -> Refusal | None:
    """Why ``move`` cannot be played by the player to move, or None."""
    me = state.to_move
    if state.over:
        return Refusal.OVER
    if isinstance(move, Plant):
        if state.phase is not Phase.PLANT:
            return Refusal.PLANTED
        if not any(c.kind is move.kind for c in state.hands[me]):
            return Refusal.NOT_IN_HAND
        if state.occupied(move.spot):
            return Refusal.TAKEN
        if move.spot not in state.open_spots():
            return Refusal.NOT_TOUCHING
        return None
    if state.phase is Phase.PLANT:
        return Refusal.PLANT_FIRST
    if isinstance(move, Go):
        if not state.occupied(move.spot):
            return Refusal.NO_CARD_THERE
        if move.spot == state.farmers[me]:
            return Refusal.HERE
        steps = state.steps(state.farmers[me]).get(move.spot)
        if steps is None:  # pragma: no cover - the farm is always one piece
            return Refusal.NO_CARD_THERE
        return Refusal.CARROTS if carrots_for(steps) > state.carrots[me] else None
    if isinstance(move, Peek):
        if move.target == me or not 0 <= move.target < state.players or state.out[move.target]:
            return Refusal.WHOM
        return Refusal.CARROTS if state.carrots[me] < PEEK_CARROTS else None
    if move is Action.CARROT and state.carrots[me] >= MOST_CARROTS:
        return Refusal.FULL
    return None


def legal_moves(state: State) -> list[Move]:
    """Every move the player to move may make now."""
    me = state.to_move
    if state.over:
        return []
    if state.phase is Phase.PLANT:
        kinds = sorted({c.kind for c in state.hands[me]}, key=lambda k: k.value)
        return [Plant(k, s) for k in kinds for s in state.open_spots()]
    moves: list[Move] = [a for a in Action if problem(state, a) is None]
    moves += [Go(s) for s in state.steps(state.farmers[me]) if problem(state, Go(s)) is None]
    moves += [Peek(p) for p in range(state.players) if problem(state, Peek(p)) is None]
    return moves


def apply(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    """Play ``move`` for the player to move; raises IllegalMove when it may not be played."""
    refusal = problem(state, move)
    if refusal is not None:
        raise IllegalMove(refusal)
    events: list[Event] = []
    me = state.to_move
    if isinstance(move, Plant):
        card = next(c for c in state.hands[me] if c.kind is move.kind)
        spots = state.spots()
        spots[move.spot] = Placed(card, by=me)
        hands = _set(state.hands, me, _without(state.hands[me], card))
        events.append(Event(Happened.PLANTED, me, move.spot, card=card))
        return state.with_farm(spots, hands=hands, phase=Phase.ACT, actions_left=ACTIONS), tuple(events)
    if move is Action.DRAW:
        state = _draw(state, me, 1, Happened.DREW, events)
    elif move is Action.CARROT:
        state = replace(state, carrots=_set(state.carrots, me, state.carrots[me] + 1))
        events.append(Event(Happened.CARROT, me, count=state.carrots[me]))
    elif isinstance(move, Peek):
        state = replace(state, carrots=_set(state.carrots, me, state.carrots[me] - PEEK_CARROTS))
        events.append(Event(Happened.PEEKED, me, cards=state.hands[move.target], target=move.target,
                            count=state.carrots[me]))
    elif isinstance(move, Go):
        state = _walk(state, move.spot, events)
    return _after_action(state, events)


def _walk(state: State, to: Spot, events: list[Event]) -> State:
    me = state.to_move
    frm = state.farmers[me]
    steps = state.steps(frm)[to]
    paid = carrots_for(steps)
    state = replace(state, farmers=_set(state.farmers, me, to), carrots=_set(state.carrots, me, state.carrots[me] - paid))
    events.append(Event(Happened.WALKED, me, frm, to=to, count=paid, target=steps))
    placed = state.at(to)
    if placed is None or placed.face_up:
        return state
    card = placed.card
    events.append(Event(Happened.TURNED_UP, me, to, card=card))
    spots = state.spots()
    if card.kind is Kind.RABBIT and card.owner is not None and card.owner != me:
        if team_of(card.owner, state.players) == team_of(me, state.players):  # a teammate's: left hidden
            events.append(Event(Happened.LEFT, me, to, card=card))
            return _seen_by_all(state, card)
        return _catch(state, to, card, events)
    if card.kind is Kind.RABBIT:  # the player's own: back to the hand, a card hidden in its place
        others = [c for c in state.hands[me] if c.kind is not Kind.RABBIT] or list(state.hands[me])
        if not others:
            events.append(Event(Happened.LEFT, me, to, card=card))
            return _seen_by_all(state, card)
        hidden = min(others, key=lambda c: (c.kind is not Kind.FIELD, c.id))
        spots[to] = Placed(hidden, by=me)
        hand = (*_without(state.hands[me], hidden), card)
        events.append(Event(Happened.TOOK_BACK, me, to, card=card, cards=(hidden,)))
        return state.with_farm(spots, hands=_set(state.hands, me, hand))
    spots[to] = replace(placed, face_up=True)
    state = state.with_farm(spots)
    if card.kind is Kind.CARROTS:
        carrots = min(MOST_CARROTS, state.carrots[me] + 2)
        events.append(Event(Happened.PATCH, me, to, count=carrots - state.carrots[me]))
        return replace(state, carrots=_set(state.carrots, me, carrots))
    if card.kind is Kind.SEEDS:
        return _draw(state, me, 2, Happened.SEEDS, events)
    if card.kind is Kind.LADDER:
        beside = [(n, p) for n in neighbours(to) if (p := state.at(n)) is not None and not p.face_up]
        seen = _set(state.seen, me, state.seen[me] | {p.card.id for _, p in beside})
        events.append(Event(Happened.LOOKED, me, to, cards=tuple(p.card for _, p in beside),
                            spots=tuple(n for n, _ in beside)))
        return replace(state, seen=seen)
    return state


def _catch(state: State, spot: Spot, rabbit: Card, events: list[Event]) -> State:
    me = state.to_move
    caught = _set(state.caught, me, (*state.caught[me], rabbit))
    spots = state.spots()
    spots[spot] = Placed(state.deck[0])
    state = state.with_farm(spots, caught=caught, deck=state.deck[1:])
    events.append(Event(Happened.CAUGHT, me, spot, card=rabbit, count=len(caught[me]), target=rabbit.owner))
    events.append(Event(Happened.REPLACED, me, spot))
    owner = rabbit.owner
    assert owner is not None
    if sum(c.owner == owner for hand in state.caught for c in hand) == RABBITS_EACH:
        deck = shuffled((*state.deck, *state.hands[owner]), state.seed, f"shuffle {state.shuffles + 1}")
        state = replace(state, out=_set(state.out, owner, True), deck=deck, shuffles=state.shuffles + 1,
                        hands=_set(state.hands, owner, ()))
        events.append(Event(Happened.OUT, owner, reason="caught"))
        teams = {team_of(p, state.players) for p in state.in_play()}
        if len(teams) == 1:
            winners = tuple(p for p in range(state.players) if team_of(p, state.players) in teams)
            events.append(Event(Happened.WON, me, players=winners))
            return replace(state, over=True, winners=winners)
    return state


def _draw(state: State, player: int, count: int, kind: Happened, events: list[Event]) -> State:
    drawn = state.deck[:count]
    state = replace(state, deck=state.deck[count:], hands=_set(state.hands, player, (*state.hands[player], *drawn)),
                    seen=_set(state.seen, player, state.seen[player] | {c.id for c in drawn}))
    events.append(Event(kind, player, cards=drawn))
    return state


def _seen_by_all(state: State, card: Card) -> State:
    return replace(state, seen=tuple(s | {card.id} for s in state.seen))


def _after_action(state: State, events: list[Event]) -> tuple[State, tuple[Event, ...]]:
    if state.over:
        return state, tuple(events)
    if not state.deck:
        events.append(Event(Happened.DECK_EMPTY, state.to_move))
        return _end(state, events), tuple(events)
    if state.actions_left > 1:
        return replace(state, actions_left=state.actions_left - 1), tuple(events)
    return _next_turn(state, events), tuple(events)


def _next_turn(state: State, events: list[Event]) -> State:
    player = state.to_move
    for _ in range(state.players):
        player = (player + 1) % state.players
        if not state.out[player]:
            break
    plant = bool(state.hands[player]) and bool(state.open_spots())
    events.append(Event(Happened.TURN, player))
    return replace(state, to_move=player, phase=Phase.PLANT if plant else Phase.ACT, actions_left=ACTIONS,
                   turn=state.turn + 1)


def _end(state: State, events: list[Event]) -> State:
    """The deck is out: a team with a rabbit still in a hand is out; of the rest, the
    most rabbits caught wins, then the fewest lost, then the hidden rabbit nearest the
    barn; a tie after that is shared."""
    out = list(state.out)
    for p in state.in_play():
        if any(c.kind is Kind.RABBIT for c in state.hands[p]):
            out[p] = True
            events.append(Event(Happened.OUT, p, reason="held"))
    teams = {team_of(p, state.players) for p in range(state.players)}
    alive = {t for t in teams if any(team_of(p, state.players) == t and not state.out[p] for p in range(state.players))
             and not any(team_of(p, state.players) == t and out[p] and not state.out[p] for p in range(state.players))}
    steps = state.steps(BARN)
    hidden = {spot: p.card for spot, p in state.farm if p.card.kind is Kind.RABBIT and not p.face_up}

    def standing(team: int) -> tuple[int, int, int]:
        members = [p for p in range(state.players) if team_of(p, state.players) == team]
        caught = sum(len(state.caught[p]) for p in members)
        lost = sum(1 for hand in state.caught for c in hand if c.owner in members)
        nearest = min((steps.get(s, 99) for s, c in hidden.items() if c.owner in members), default=99)
        return caught, -lost, -nearest

    winners: tuple[int, ...] = ()
    reason = ""
    if alive:
        best = max(standing(t) for t in alive)
        top = [t for t in alive if standing(t) == best]
        winners = tuple(p for p in range(state.players) if team_of(p, state.players) in top)
        rivals = [standing(t) for t in alive if t not in top]
        if len(top) > 1:
            reason = "shared"
        elif rivals:
            runner = max(rivals)
            reason = "caught" if runner[0] < best[0] else "lost" if runner[1] < best[1] else "nearest"
    events.append(Event(Happened.WON, state.to_move, players=winners, reason=reason))
    return replace(state, out=tuple(out), over=True, winners=winners)


T = TypeVar("T")


def _set(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*values[:index], value, *values[index + 1:])


def _without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    return tuple(c for c in cards if c != card)
