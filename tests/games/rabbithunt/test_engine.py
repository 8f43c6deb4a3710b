"""The rules of Rabbit Hunt, one at a time, on states set up by hand."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hbr.games.rabbithunt.engine import Action, Go, Happened, IllegalMove, Peek, Plant, Refusal, apply, problem
from hbr.games.rabbithunt.state import (
    BARN,
    DECK_SIZE,
    MOST_CARROTS,
    Card,
    Kind,
    Phase,
    Placed,
    State,
    carrots_for,
    neighbours,
    new_game,
)


def acting(state: State, player: int = 0, carrots: int | None = None) -> State:
    """``state`` with ``player`` to take actions (the card of the turn planted)."""
    given = state.carrots if carrots is None else tuple(carrots if p == player else c for p, c in enumerate(state.carrots))
    return replace(state, to_move=player, phase=Phase.ACT, actions_left=2, carrots=given)


def planted(state: State, spot: tuple[int, int], card: Card, by: int | None) -> State:
    spots = state.spots()
    spots[spot] = Placed(card, by=by)
    return state.with_farm(spots)


def kinds(events: tuple[object, ...]) -> list[Happened]:
    return [e.kind for e in events]  # type: ignore[attr-defined]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_new_game_deals_the_deck_for_the_players(players: int) -> None:
    s = new_game(7, players)
    assert [spot for spot, _ in s.farm] == sorted([(5, 4), (5, 6), (4, 4), (4, 5), (6, 4), (6, 5)])
    assert all(not p.face_up and p.by is None and p.card.kind is not Kind.RABBIT for _, p in s.farm)
    assert [len(h) for h in s.hands] == [8] * players
    assert [sum(c.kind is Kind.RABBIT and c.owner == p for c in h) for p, h in enumerate(s.hands)] == [3] * players
    assert len(s.deck) == DECK_SIZE[players] - 6 - 5 * players
    ids = [c.id for c in s.deck] + [p.card.id for _, p in s.farm] + [c.id for h in s.hands for c in h]
    assert len(ids) == len(set(ids))
    assert s.carrots == (2,) * players and s.farmers == (BARN,) * players and s.phase is Phase.PLANT
    assert new_game(7, players) == s and new_game(8, players).deck != s.deck


def test_a_card_is_planted_where_it_touches_two_cards() -> None:
    """Bricks: a card touches two in its row and two in each row beside it."""
    assert sorted(neighbours((4, 4))) == [(3, 4), (3, 5), (4, 3), (4, 5), (5, 4), (5, 5)]
    assert sorted(neighbours((5, 5))) == [(4, 4), (4, 5), (5, 4), (5, 6), (6, 4), (6, 5)]
    s = replace(new_game(1), to_move=0)
    assert s.open_spots() == [(3, 5), (4, 3), (4, 6), (6, 3), (6, 6), (7, 5)]
    assert problem(s, Plant(Kind.RABBIT, (3, 4))) is Refusal.NOT_TOUCHING
    assert problem(s, Plant(Kind.RABBIT, (4, 4))) is Refusal.TAKEN
    no_ladder = replace(s, hands=(tuple(c for c in s.hands[0] if c.kind is not Kind.LADDER), s.hands[1]))
    assert problem(no_ladder, Plant(Kind.LADDER, (3, 5))) is Refusal.NOT_IN_HAND
    assert problem(s, Action.CARROT) is Refusal.PLANT_FIRST
    after, events = apply(s, Plant(Kind.RABBIT, (3, 5)))
    assert kinds(events) == [Happened.PLANTED] and after.at((3, 5)) == Placed(events[0].card, by=0)  # type: ignore[arg-type]
    assert sum(c.kind is Kind.RABBIT for c in after.hands[0]) == 2 and after.phase is Phase.ACT
    with pytest.raises(IllegalMove):
        apply(after, Plant(Kind.RABBIT, (7, 5)))


def test_walking_costs_a_carrot_for_each_two_steps_and_turns_up_the_card() -> None:
    assert [carrots_for(n) for n in range(1, 6)] == [1, 1, 2, 2, 3]
    s = acting(new_game(1), carrots=1)
    assert s.steps(BARN)[(4, 4)] == 1
    assert problem(s, Go((3, 5))) is Refusal.NO_CARD_THERE and problem(s, Go(BARN)) is Refusal.HERE
    after, events = apply(s, Go((4, 4)))
    assert kinds(events) == [Happened.WALKED, Happened.TURNED_UP]
    assert after.carrots[0] == 0 and after.farmers[0] == (4, 4) and after.actions_left == 1
    assert after.at((4, 4)).face_up  # type: ignore[union-attr]
    assert problem(after, Go((6, 5))) is Refusal.CARROTS  # 2 steps, 1 carrot, none left


def test_a_rivals_rabbit_turned_up_is_caught_and_a_deck_card_takes_its_place() -> None:
    s = new_game(2)
    rabbit = next(c for c in s.hands[1] if c.kind is Kind.RABBIT)
    s = acting(planted(s, (4, 4), rabbit, by=1), carrots=2)
    top = s.deck[0]
    after, events = apply(s, Go((4, 4)))
    assert kinds(events) == [Happened.WALKED, Happened.TURNED_UP, Happened.CAUGHT, Happened.REPLACED]
    assert after.caught[0] == (rabbit,) and after.at((4, 4)) == Placed(top) and after.deck == s.deck[1:]


def test_your_own_rabbit_goes_back_to_your_hand_and_a_field_takes_its_place() -> None:
    s = new_game(2)
    rabbit = next(c for c in s.hands[0] if c.kind is Kind.RABBIT)
    hand = tuple(c for c in s.hands[0] if c != rabbit)
    s = acting(replace(planted(s, (4, 4), rabbit, by=0), hands=(hand, s.hands[1])), carrots=2)
    after, events = apply(s, Go((4, 4)))
    assert kinds(events)[-1] is Happened.TOOK_BACK
    hidden = events[-1].cards[0]
    assert rabbit in after.hands[0] and hidden not in after.hands[0] and after.at((4, 4)) == Placed(hidden, by=0)
    assert hidden.kind is Kind.FIELD or not any(c.kind is Kind.FIELD for c in hand)


def test_event_cards_give_carrots_cards_and_a_look_at_the_cards_beside() -> None:
    s = new_game(3)
    patch, bag, ladder = Card(900, Kind.CARROTS), Card(901, Kind.SEEDS), Card(902, Kind.LADDER)
    s = acting(planted(planted(planted(s, (4, 4), patch, 1), (4, 5), bag, 1), (5, 4), ladder, 1), carrots=5)
    after, events = apply(s, Go((4, 4)))
    assert kinds(events)[-1] is Happened.PATCH and after.carrots[0] == MOST_CARROTS  # 5 + 2, no more than 6
    after, events = apply(after, Go((4, 5)))
    assert Happened.SEEDS in kinds(events) and after.hands[0][-2:] == s.deck[:2]
    after = acting(after)
    after, events = apply(after, Go((5, 4)))
    beside = {(4, 3), (5, 3), (6, 3), (6, 4)} & {spot for spot, _ in after.farm}
    looked = events[-1]
    assert looked.kind is Happened.LOOKED and set(looked.spots) == beside - {(4, 4)}  # face up ones are not looked at
    assert {c.id for c in looked.cards} <= after.seen[0] and not {c.id for c in looked.cards} & after.seen[1]


def test_carrots_are_capped_and_a_hand_costs_three_to_see() -> None:
    s = acting(new_game(4, 3), carrots=MOST_CARROTS)
    assert problem(s, Action.CARROT) is Refusal.FULL
    assert problem(s, Peek(0)) is Refusal.WHOM and problem(s, Peek(3)) is Refusal.WHOM
    after, events = apply(s, Peek(2))
    assert events[0].cards == s.hands[2] and after.carrots[0] == MOST_CARROTS - 3
    assert problem(acting(s, carrots=2), Peek(1)) is Refusal.CARROTS


def test_a_farmer_whose_three_rabbits_are_caught_is_out() -> None:
    s = new_game(5)
    rabbits = [c for c in s.hands[1] if c.kind is Kind.RABBIT]
    hand = tuple(c for c in s.hands[1] if c.kind is not Kind.RABBIT)
    s = replace(planted(s, (4, 4), rabbits[2], 1), hands=(s.hands[0], hand), caught=(tuple(rabbits[:2]), ()))
    after, events = apply(acting(s, carrots=1), Go((4, 4)))
    assert kinds(events)[-2:] == [Happened.OUT, Happened.WON]
    assert after.over and after.winners == (0,) and after.out == (False, True)


def test_when_the_deck_runs_out_a_rabbit_in_hand_loses_and_the_most_caught_wins() -> None:
    s = new_game(6, 3)
    last = s.deck[-1:]
    held = (tuple(c for c in s.hands[0] if c.kind is not Kind.RABBIT), s.hands[1],
            tuple(c for c in s.hands[2] if c.kind is not Kind.RABBIT))
    yellow = [c for c in s.hands[1] if c.kind is Kind.RABBIT]
    s = replace(acting(s), deck=last, hands=held, caught=((yellow[0],), (), ()))
    after, events = apply(s, Action.DRAW)
    assert kinds(events)[-3:] == [Happened.DECK_EMPTY, Happened.OUT, Happened.WON]
    assert events[-2].player == 1 and events[-2].reason == "held"
    assert after.over and after.winners == (0,) and events[-1].reason == "caught"


def test_a_tie_goes_to_the_hidden_rabbit_nearest_the_barn_and_teams_share() -> None:
    s = new_game(6)
    grey = [c for c in s.hands[0] if c.kind is Kind.RABBIT]
    yellow = [c for c in s.hands[1] if c.kind is Kind.RABBIT]
    no_rabbits = tuple(tuple(c for c in h if c.kind is not Kind.RABBIT) for h in s.hands)
    s = planted(planted(s, (4, 3), grey[0], 0), (4, 5), yellow[0], 1)
    s = replace(acting(s), deck=s.deck[-1:], hands=no_rabbits)
    after, events = apply(s, Action.DRAW)
    # none caught or lost; grey's hidden rabbit is 2 steps from the barn, yellow's at 4 5 is 1
    assert after.winners == (1,) and events[-1].reason == "nearest"
    four = new_game(6, 4)
    four = replace(acting(four), deck=four.deck[-1:],
                   hands=tuple(tuple(c for c in h if c.kind is not Kind.RABBIT) for h in four.hands))
    after, events = apply(four, Action.DRAW)
    assert after.winners == (0, 1, 2, 3) and events[-1].reason == "shared"
