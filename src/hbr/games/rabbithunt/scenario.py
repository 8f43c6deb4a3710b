"""Rabbit Hunt scenarios: a dealt game, changed where the scenario says, and a list of
moves, replayed with the whole truth shown after each move (every card, face up or
down), for rule checks and teaching.

A scenario is a JSON object (docs/rabbithunt.md, "Scenarios"): ``{"seed": 3,
"players": 2, "to_move": "grey", "phase": "act", "farm": {"4 3": "yellow rabbit",
"6 6": "up ladder"}, "hands": {"grey": ["rabbit", "field"]}, "carrots": {"grey": 4},
"farmers": {"grey": "4 4"}, "deck": 5, "moves": ["go to 4 3", "take a carrot"]}``.
Every key but "moves" may be left out. A spot is "row place"; a card is "field",
"carrot patch", "seed bag", "ladder" or "COLOUR rabbit", face up with "up " before
it; a rabbit on the farm was planted by its owner, another card came from the deck;
"deck" keeps that many cards of the deck. ``run`` yields one record per move.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import count

from hbr.games.rabbithunt.engine import Action, Go, IllegalMove, Peek, Plant, apply
from hbr.games.rabbithunt.phrases import RabbitGrammar
from hbr.games.rabbithunt.state import (
    BARN,
    COLOURS,
    DECK_SIZE,
    MOST_CARROTS,
    SIZE,
    Card,
    Kind,
    Phase,
    Placed,
    Spot,
    State,
    new_game,
)
from hbr.grammar import Understood


class ScenarioError(ValueError):
    """The scenario cannot be played; the message is one line for the user."""


def _spot(where: object) -> Spot:
    parts = str(where).split()
    if len(parts) == 2 and all(p.isdigit() and 1 <= int(p) <= SIZE for p in parts):
        return int(parts[0]), int(parts[1])
    raise ScenarioError(f'"{where}" is not a spot: say "row place", each 1 to {SIZE}, like "4 3"')


def _player(name: object, players: int) -> int:
    if name not in COLOURS[:players]:
        raise ScenarioError(f'"{name}" is not a farmer of this game: {", ".join(COLOURS[:players])}')
    return COLOURS.index(str(name))


def _card(said: object, players: int, ids: Iterator[int], owner: int | None = None) -> Card:
    text = str(said)
    colour, _, kind = text.rpartition(" ")
    if kind == "rabbit":
        whose = _player(colour, players) if colour else owner
        if whose is None:
            raise ScenarioError(f'"{text}": whose rabbit? say "yellow rabbit"')
        return Card(next(ids), Kind.RABBIT, whose)
    try:
        return Card(next(ids), Kind(text))
    except ValueError:
        raise ScenarioError(f'"{text}" is not a card: field, carrot patch, seed bag, ladder or COLOUR rabbit') from None


def _mapping(doc: dict[str, object], key: str) -> dict[str, object]:
    value = doc.get(key, {})
    if not isinstance(value, dict):
        raise ScenarioError(f'"{key}" must be an object')
    return value


def load(doc: object) -> tuple[State, list[str]]:
    if not isinstance(doc, dict):
        raise ScenarioError("a scenario must be a JSON object")
    seed, players = doc.get("seed", 0), doc.get("players", 2)
    if not isinstance(seed, int) or players not in DECK_SIZE:
        raise ScenarioError('"seed" must be a whole number and "players" 2, 3 or 4')
    state = new_game(seed, players)
    ids = count(1000)
    spots = state.spots()
    for where, said in _mapping(doc, "farm").items():
        spot = _spot(where)
        if spot == BARN:
            raise ScenarioError("the barn, 5 5, holds no card")
        up = str(said).startswith("up ")
        card = _card(str(said).removeprefix("up "), players, ids)
        spots[spot] = Placed(card, face_up=up, by=card.owner)
    hands = list(state.hands)
    for name, cards in _mapping(doc, "hands").items():
        p = _player(name, players)
        if not isinstance(cards, list):
            raise ScenarioError(f'the hand of {name} must be a list of cards')
        hands[p] = tuple(_card(c, players, ids, owner=p) for c in cards)
    carrots, farmers = list(state.carrots), list(state.farmers)
    for name, n in _mapping(doc, "carrots").items():
        if not isinstance(n, int) or not 0 <= n <= MOST_CARROTS:
            raise ScenarioError(f"carrots are 0 to {MOST_CARROTS}")
        carrots[_player(name, players)] = n
    for name, standing in _mapping(doc, "farmers").items():
        farmers[_player(name, players)] = _spot(standing)
    deck = doc.get("deck", len(state.deck))
    if not isinstance(deck, int) or not 1 <= deck <= len(state.deck):
        raise ScenarioError(f'"deck" keeps 1 to {len(state.deck)} cards')
    to_move = _player(doc.get("to_move", COLOURS[state.to_move]), players)
    phase = doc.get("phase", "plant")
    if phase not in ("plant", "act"):
        raise ScenarioError('"phase" must be plant or act')
    seen = tuple(s | {c.id for c in hands[p]} | {pl.card.id for pl in spots.values() if pl.by == p}
                 for p, s in enumerate(state.seen))
    state = state.with_farm(spots, hands=tuple(hands), carrots=tuple(carrots), farmers=tuple(farmers),
                            deck=state.deck[:deck], to_move=to_move, phase=Phase(phase), seen=seen)
    if any(not state.occupied(f) for f in state.farmers):
        raise ScenarioError("a farmer stands on a card or the barn")
    moves = doc.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise ScenarioError('"moves" must be a list of moves as said, like "go to 4 3"')
    return state, moves


def truth(state: State) -> dict[str, object]:
    """Everything about the game, hidden or not."""
    def card(c: Card) -> str:
        return f"{COLOURS[c.owner]} rabbit" if c.owner is not None else c.kind.value

    return {
        "to_move": COLOURS[state.to_move], "phase": state.phase.value, "actions_left": state.actions_left,
        "farm": {f"{s[0]} {s[1]}": ("up " if p.face_up else "") + card(p.card) for s, p in state.farm},
        "farmers": {COLOURS[p]: f"{s[0]} {s[1]}" for p, s in enumerate(state.farmers)},
        "carrots": dict(zip(COLOURS, state.carrots, strict=False)),
        "hands": {COLOURS[p]: [card(c) for c in h] for p, h in enumerate(state.hands)},
        "caught": {COLOURS[p]: [card(c) for c in h] for p, h in enumerate(state.caught)},
        "out": [COLOURS[p] for p in range(state.players) if state.out[p]],
        "deck": len(state.deck), "over": state.over, "winners": [COLOURS[p] for p in state.winners],
    }


def run(state: State, moves: list[str]) -> Iterator[dict[str, object]]:
    grammar = RabbitGrammar()
    for said in moves:
        record: dict[str, object] = {"move": said}
        parsed = grammar.parse(said)
        if not isinstance(parsed, Understood) or not isinstance(parsed.intent, Plant | Go | Action | Peek):
            record.update(ok=False, error="not a move")
            yield record
            return
        try:
            state, events = apply(state, parsed.intent)
        except IllegalMove as err:
            record.update(ok=False, error=str(err))
            yield record
            return
        record.update(ok=True, events=[e.kind.value for e in events], **truth(state))
        yield record
        if state.over:
            return

