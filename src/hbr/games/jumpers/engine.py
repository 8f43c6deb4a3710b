"""The rules of Jumpers as one pure function: ``apply(state, move) -> (state, events)``.

A move takes the piece on top of a stack (one nothing covers) and either jumps it
exactly its length in a straight line, over cells no higher than its limit, onto an
empty cell or a stack no higher than its limit; or steps it one cell onto an empty
cell, only from the ground (the piece alone on its cell). Nothing is ever captured.
A side with no move passes. See docs/jumpers.md for every reading.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass

from hbr.games.jumpers.state import (
    MOVE_LIMIT,
    ON_BOARD,
    Cell,
    Direction,
    Goal,
    Kind,
    Side,
    Stack,
    State,
    cell_named,
    name,
)


class IllegalMove(ValueError):
    """What the rules forbid; the message says why, as a sentence for the player."""


@dataclass(frozen=True, slots=True)
class Move:
    """``jump`` or step the top piece of ``frm`` toward ``direction``; ``frm`` None: a pass."""

    frm: Cell | None
    direction: Direction | None = None
    jump: bool = True

    def __str__(self) -> str:
        if self.frm is None or self.direction is None:
            return "pass"
        row, place = name(self.frm)
        return f"{'jump' if self.jump else 'step'} {row} {place} {self.direction.words}"


PASS = Move(None)


def parse_move(text: str) -> Move:
    """A move from its text (``str(move)``): "jump 3 2 north east", "step 4 1 west", "pass"."""
    parts = text.split()
    if parts == ["pass"]:
        return PASS
    if len(parts) < 4 or parts[0] not in ("jump", "step") or not (parts[1].isdigit() and parts[2].isdigit()):
        raise ValueError(f"not a move: {text!r}")
    cell = cell_named(int(parts[1]), int(parts[2]))
    direction = next((d for d in Direction if d.words == " ".join(parts[3:])), None)
    if cell is None or direction is None:
        raise ValueError(f"not a move: {text!r}")
    return Move(cell, direction, parts[0] == "jump")


class Happened(enum.Enum):
    """What happened."""

    JUMPED = "jumped"
    STEPPED = "stepped"
    PASSED = "passed"
    WON = "won"
    DRAWN = "drawn"


@dataclass(frozen=True, slots=True)
class Event:
    kind: Happened
    side: Side
    piece: Kind | None = None
    frm: Cell | None = None
    to: Cell | None = None
    height: int = 0  # the stack's height where it landed, itself included
    reason: str = ""


def problem(state: State, move: Move) -> str:
    """Why ``move`` is not allowed now ("" if it is)."""
    if state.over:
        return "The game is over."
    if move.frm is None or move.direction is None:
        return "" if not legal_moves(state, passes=False) else "You can move, so you may not pass."
    return _problem(state.stacks, state.to_move, move)


def _problem(stacks: dict[Cell, Stack], to_move: Side, move: Move) -> str:
    assert move.frm is not None and move.direction is not None
    stack = stacks.get(move.frm, ())
    if not stack:
        return "There is no piece there."
    side, kind = stack[-1]
    if side is not to_move:
        return f"The piece on top there is {side.value}'s."
    if move.jump:
        to = move.direction.step(move.frm, kind.length)
        over = [move.direction.step(move.frm, i) for i in range(1, kind.length)]
        if to not in ON_BOARD or any(c not in ON_BOARD for c in over):
            return f"A {kind.word} jumps {kind.length} cells, and that leaves the board."
        if any(len(stacks[c]) > kind.limit for c in over):
            return f"A {kind.word} cannot jump over a stack higher than {kind.limit}."
        if len(stacks[to]) > kind.limit:
            return f"A {kind.word} lands only on stacks of {kind.limit} or fewer."
        return ""
    to = move.direction.step(move.frm)
    if len(stack) > 1:
        return "A piece on a stack comes down only by jumping."
    if to not in ON_BOARD:
        return "That step leaves the board."
    if stacks[to]:
        return "A step goes only onto an empty cell."
    return ""


def legal_moves(state: State, passes: bool = True) -> list[Move]:
    """Every move the side to move may make (a pass when it has none)."""
    if state.over:
        return []
    found = []
    stacks = state.stacks
    for cell, stack in state.board:
        if not stack or stack[-1][0] is not state.to_move:
            continue
        for direction in Direction:
            for jump in (True, False):
                move = Move(cell, direction, jump)
                if not _problem(stacks, state.to_move, move):
                    found.append(move)
    return found if found or not passes else [PASS]


def gate(side: Side) -> list[Cell]:
    return [c for c in ON_BOARD if c[0] == side.gate_row]


def apply(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    why = problem(state, move)
    if why:
        raise IllegalMove(why)
    side = state.to_move
    events: list[Event] = []
    board = dict(state.board)
    if move.frm is None or move.direction is None:
        events.append(Event(Happened.PASSED, side))
        landed = None
    else:
        stack = board[move.frm]
        piece = stack[-1]
        to = move.direction.step(move.frm, piece[1].length if move.jump else 1)
        board[move.frm] = stack[:-1]
        board[to] = (*board[to], piece)
        landed = to
        events.append(Event(Happened.JUMPED if move.jump else Happened.STEPPED, side, piece[1], move.frm, to, len(board[to])))
    after = dataclasses.replace(state, board=tuple((c, board[c]) for c, _ in state.board), to_move=side.other,
                                moves=state.moves + 1)
    after = dataclasses.replace(after, seen=(*state.seen, after.key()))
    winner = _winner(after, side, landed)
    if winner is not None:
        events.append(Event(Happened.WON, winner))
        return dataclasses.replace(after, winner=winner), tuple(events)
    if after.seen.count(after.key()) >= 3 or after.moves >= MOVE_LIMIT:
        reason = "the same position a third time" if after.moves < MOVE_LIMIT else f"{MOVE_LIMIT} moves without a winner"
        events.append(Event(Happened.DRAWN, side, reason=reason))
        return dataclasses.replace(after, drawn=True), tuple(events)
    return after, tuple(events)


def _winner(state: State, mover: Side, landed: Cell | None) -> Side | None:
    if state.goal is Goal.SHORT:
        return mover if landed is not None and landed[0] == mover.other.gate_row else None
    nxt = state.to_move  # long goal: at the start of its turn, on top of all the other side's gate
    if all(_top(state.stacks[c]) is nxt for c in gate(nxt.other)):
        return nxt
    return None


def _top(stack: Stack) -> Side | None:
    return stack[-1][0] if stack else None
