"""Jumpers scenarios: a position and a list of moves, replayed with the truth shown
after each move, for rule checks and teaching.

A scenario is a JSON object (docs/jumpers.md, "Scenarios"): ``{"stacks": {"3 2":
["south frog", "north cat"]}, "to_move": "south", "goal": "short", "moves": ["cat at
3 2 jumps north east"]}``; a stack is listed bottom first, a cell as "row place".
Without "stacks" the game starts from its usual position. ``run`` yields one record
per move.
"""

from __future__ import annotations

from collections.abc import Iterator

from hbr.games.jumpers.engine import IllegalMove, apply
from hbr.games.jumpers.phrases import JumpersGrammar, Order
from hbr.games.jumpers.state import CELLS, Goal, Kind, Side, Stack, State, cell_named, name, start
from hbr.games.jumpers.table import resolve


class ScenarioError(ValueError):
    """The scenario cannot be played; the message is one line for the user."""


def _stack(where: str, pieces: object) -> Stack:
    if not isinstance(pieces, list) or not all(isinstance(p, str) for p in pieces):
        raise ScenarioError(f'the stack at "{where}" must be a list like ["south frog", "north cat"]')
    stack = []
    for piece in pieces:
        side, _, kind = piece.partition(" ")
        if side not in ("south", "north") or kind not in ("frog", "cat", "hare"):
            raise ScenarioError(f'"{piece}" at "{where}" is not a piece: say "south frog", "north hare" ...')
        stack.append((Side(side), next(k for k in Kind if k.word == kind)))
    return tuple(stack)


def load(doc: object) -> tuple[State, list[str]]:
    if not isinstance(doc, dict):
        raise ScenarioError("a scenario must be a JSON object")
    goal, to_move = doc.get("goal", "short"), doc.get("to_move", "south")
    if goal not in ("short", "long") or to_move not in ("south", "north"):
        raise ScenarioError('"goal" must be short or long, and "to_move" south or north')
    state = start(Goal(goal))
    if "stacks" in doc:
        stacks = doc["stacks"]
        if not isinstance(stacks, dict):
            raise ScenarioError('"stacks" must map cells ("3 2") to stacks')
        board: dict[tuple[int, int], Stack] = dict.fromkeys(CELLS, ())
        for where, pieces in stacks.items():
            parts = str(where).split()
            cell = cell_named(int(parts[0]), int(parts[1])) if len(parts) == 2 and all(p.isdigit() for p in parts) else None
            if cell is None:
                raise ScenarioError(f'"{where}" is not a cell: rows 1 to 7, places from 1 in each row')
            board[cell] = _stack(where, pieces)
        state = State(tuple((c, board[c]) for c in CELLS), Side(to_move), Goal(goal))
    else:
        state = State(state.board, Side(to_move), Goal(goal))
    state = State(state.board, state.to_move, state.goal, seen=(state.key(),))
    moves = doc.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise ScenarioError('"moves" must be a list of moves as said, like "cat at 3 2 jumps north east"')
    return state, moves


def run(state: State, moves: list[str]) -> Iterator[dict[str, object]]:
    grammar = JumpersGrammar()
    for said in moves:
        record: dict[str, object] = {"move": said}
        parsed = grammar.parse(said)
        order = getattr(parsed, "intent", None)
        if not isinstance(order, Order):
            record.update(ok=False, error="not a move")
            yield record
            return
        move, why = resolve(state, order)
        if move is None:
            record.update(ok=False, error=why)
            yield record
            return
        try:
            state, events = apply(state, move)
        except IllegalMove as err:  # pragma: no cover - _resolve checked it
            record.update(ok=False, error=str(err))
            yield record
            return
        record.update(
            ok=True, events=[e.kind.value for e in events], to_move=state.to_move.value,
            winner=state.winner.value if state.winner else None, drawn=state.drawn,
            board={" ".join(map(str, name(c))): [f"{s.value} {k.word}" for s, k in st] for c, st in state.board if st},
        )
        yield record
        if state.over:
            return

