"""A game of Jumpers at the table: the player against the computer, or two players
at one microphone, and the words that make the board knowable by ear.

Everything on the board is in plain sight, so the words may say anything about it;
they say it cell by cell, row then place from the west, tallest news first.
"""

from __future__ import annotations

import random

from hbr.game import RecordError, Reply, Table, replay
from hbr.games.jumpers.bots import Bot
from hbr.games.jumpers.engine import Event, Happened, IllegalMove, Move, apply, legal_moves, parse_move, problem
from hbr.games.jumpers.phrases import Ask, Command, JumpersGrammar, Order, Place, Question, spoken_phrases
from hbr.games.jumpers.state import ROWS, Cell, Goal, Kind, Side, Stack, State, cell_named, name, start
from hbr.grammar import Meta

SAVE_VERSION = 1
RULES_SUMMARY = (
    "Jumpers is played on seven rows of hexagons: 3, 4, 5, 4, 5, 4 and 3 cells, row 1 in the south. Each side has "
    "3 hares on its gate row, 4 cats and 5 frogs. A piece nothing covers jumps exactly its length in a straight "
    "line, east, west or a diagonal: a frog 1 cell, a cat 2, a hare 3. It may land on an empty cell or on a stack, "
    "a frog on up to 3 pieces, a cat up to 2, a hare on 1, and may not jump over a stack higher than that. A piece "
    "alone on the ground may also step one cell onto an empty cell. Covered pieces cannot move; nothing is captured. "
    "The first piece to land on the other side's gate wins (in the long game: hold the top of all three gate cells "
    "at the start of your turn). No move: pass. A position seen three times, or 200 moves, is a draw."
)


def cell_words(cell: Cell) -> str:
    row, place = name(cell)
    return f"{row} {place}"


def piece_words(piece: tuple[Side, Kind]) -> str:
    return f"{piece[0].value}'s {piece[1].word}"


def stack_words(stack: Stack) -> str:
    if not stack:
        return "empty"
    top = piece_words(stack[-1])
    if len(stack) == 1:
        return top
    under = ", ".join(piece_words(p) for p in reversed(stack[:-1]))
    return f"a stack of {len(stack)}: {top} on top, then {under}"


class JumpersTable(Table[Command]):
    """One game. ``players`` 1: the player is ``side`` against the computer at ``level``; 2: both sides are people."""

    def __init__(
        self, seed: int, side: Side = Side.SOUTH, level: str = "normal", goal: Goal = Goal.SHORT, players: int = 1,
        cues: bool = True, detail: str = "normal", replay: list[str] | None = None,
    ) -> None:
        self.seed: int | None = seed
        self.side = side
        self.level = level
        self.players = players
        self.cues = cues
        self.detail = detail
        self.state: State = start(goal)
        self.grammar = JumpersGrammar()
        self.inputs: list[str] = []
        self.history: list[str] = []
        self.last = ""
        #: The computer's moves, kept in the record: its thinking is timed, so a game is
        #: restored from what it did, not by thinking again.
        self.computer_moves: list[str] = []
        #: An order that fitted more than one piece: a place said next picks the piece.
        self._which: Order | None = None
        self._replay: list[str] = list(replay or [])
        self._first = self._computer() if players == 1 and side is Side.NORTH else ""

    # --- the Game interface -------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.over

    def opening(self) -> str:
        if self.inputs:
            return f"Back in Jumpers, move {self.state.moves + 1}. {self._turn()}"
        if self.players == 2:
            who = "Two players: south begins; I say whose turn it is."
        else:
            who = f"You play {self.side.value}; the computer plays {self.side.other.value}, {self.level}."
        goal = ("The first piece on the other side's gate wins." if self.state.goal is Goal.SHORT
                else "Hold the top of all three of the other side's gate cells at the start of your turn to win.")
        return (f"Jumpers. {who} South's gate is row 1, north's is row 7. {goal} "
                f"Say describe to hear the board. {self._first} {self._turn()}").replace("  ", " ")

    def answer(self, meta: Meta) -> str:
        match meta:
            case Meta.HELP:
                return ("Say a piece and a way: frog, cat or hare; at and its row and place, when more than one could "
                        "go; jumps or steps; and east, west, north east, north west, south east or south west. Like: "
                        "cat at two one jumps north east. Say describe, my pieces, or threats to hear the board.")
            case Meta.HELP_MORE:
                return "Also: what is at 4 2, their pieces, moves for the frog at 3 2, last move, pass, rules, recap."
            case Meta.RULES:
                return RULES_SUMMARY
            case Meta.RECAP:
                return " ".join(self.history[-4:]) or "No move yet."
            case Meta.WHERE:
                return self._pieces(self._mover)
            case Meta.REVEAL:
                return "Nothing is hidden in Jumpers: say describe."
        raise ValueError(meta)

    def closing(self) -> str:
        s = self.state
        if s.winner is not None:
            result = f"{s.winner.value} wins"
            if self.players == 1:
                result = ("you won, " if s.winner is self.side else "you lost, ") + result
        elif s.drawn:
            result = "a draw"
        else:
            result = "unfinished"
        return f"Game over: {result} after {s.moves} moves, seed {self.seed}."

    def listening(self) -> frozenset[str]:
        """Moves and "moves for" of the mover's pieces on top, where they stand, and a
        cell alone only while "which one?" waits: of 1,698 phrases, about 300."""
        mine = [(kind, name(cell)) for cell, kind in self._free(self.state.to_move)]
        return frozenset(spoken_phrases(mine, places=self._which is not None))

    def progress(self) -> str:
        return f"Jumpers, move {self.state.moves + 1}"

    def record(self) -> dict[str, object]:
        return {"game": "jumpers", "version": SAVE_VERSION, "seed": self.seed, "side": self.side.value,
                "level": self.level, "goal": self.state.goal.value, "players": self.players,
                "commands": list(self.inputs), "computer": list(self.computer_moves)}

    def outcome(self) -> str | None:
        if self.state.winner:
            return f"{self.state.winner.value} wins"
        return "draw" if self.state.drawn else None

    # --- commands -------------------------------------------------------------

    @property
    def _mover(self) -> Side:
        return self.state.to_move

    def _act(self, command: Command) -> Reply:
        if isinstance(command, Ask):
            return Reply(self._ask(command))
        if isinstance(command, Place):
            if self._which is None:
                return Reply(f"{command} is a cell: say a piece and a way, or what is at {command}.")
            command = Order(self._which.kind, command.at, self._which.direction, self._which.jump)
        if self.players == 1 and self.state.to_move is not self.side:
            return Reply("It is the computer's move.")
        move, why = resolve(self.state, command)
        self._which = command if why.startswith("Which ") else None
        if move is None:
            return Reply(f"{why} {self._turn()}", ("blocked",))
        return self._play(move)

    def _play(self, move: Move) -> Reply:
        self.state, events = apply(self.state, move)
        words = [self._told(events)]
        cues = [self._cue(e) for e in events]
        if self.players == 1 and not self.state.over:
            words.append(self._computer())
        words.append(self._turn() if not self.state.over else self._ending())
        return Reply(" ".join(w for w in words if w), tuple(c for c in cues if c))

    def _computer(self) -> str:
        if self._replay:
            move = parse_move(self._replay.pop(0))
        else:
            move = Bot(self.level, random.Random(f"jumpers {self.seed} {self.state.moves}")).move(self.state)
        self.computer_moves.append(str(move))
        self.state, events = apply(self.state, move)
        return "The computer: " + self._told(events)

    # --- words ------------------------------------------------------------------

    def _told(self, events: tuple[Event, ...]) -> str:
        out = []
        for e in events:
            if e.kind in (Happened.JUMPED, Happened.STEPPED) and e.frm and e.to and e.piece:
                verb = "jumps" if e.kind is Happened.JUMPED else "steps"
                on = f", onto a stack: now {e.height} high" if e.height > 1 else ""
                line = f"{e.side.value}'s {e.piece.word} {verb} from {cell_words(e.frm)} to {cell_words(e.to)}{on}."
                out.append(line)
                self.history.append(line)
            elif e.kind is Happened.PASSED:
                out.append(f"{e.side.value} has no move and passes.")
            elif e.kind is Happened.WON:
                out.append(f"{e.side.value} wins!")
            elif e.kind is Happened.DRAWN:
                out.append(f"A draw: {e.reason}.")
        return " ".join(out)

    def _cue(self, event: Event) -> str:
        if event.kind is Happened.WON:
            return "win"
        if event.kind is Happened.JUMPED:
            return "stack" if event.height > 1 else "jump"
        return "step" if event.kind is Happened.STEPPED else ""

    def _turn(self) -> str:
        if self.state.over:
            return ""
        side = self.state.to_move
        if not any(m.frm for m in legal_moves(self.state)):
            return f"{side.value} has no move: say pass."
        if self.players == 2:
            return f"{side.value.capitalize()}'s turn."
        return "Your move."

    def _ending(self) -> str:
        s = self.state
        if self.players == 1 and s.winner is not None:
            return "You win!" if s.winner is self.side else "You lose."
        return ""

    def _ask(self, ask: Ask) -> str:
        s = self.state
        match ask.what:
            case Question.DESCRIBE:
                return self._describe()
            case Question.AT:
                assert ask.at is not None
                cell = cell_named(*ask.at)
                return f"At {ask.at[0]} {ask.at[1]}: {stack_words(s.stack(cell))}." if cell else "There is no such cell."
            case Question.MINE:
                return self._pieces(self.side if self.players == 1 else s.to_move)
            case Question.THEIRS:
                return self._pieces((self.side if self.players == 1 else s.to_move).other)
            case Question.MOVES:
                return self._moves_for(ask)
            case Question.THREATS:
                return self._threats()
            case Question.LAST:
                return self.history[-1] if self.history else "No move yet."
            case Question.PASS:
                if any(m.frm for m in legal_moves(s)):
                    return "You can move, so you may not pass."
                self.state, events = apply(s, Move(None))
                return self._told(events) + " " + (self._computer() if self.players == 1 else "") + " " + self._turn()
        raise ValueError(ask)

    def _describe(self) -> str:
        rows = []
        for row in range(ROWS, 0, -1):
            there = [(c, st) for c, st in self.state.board if c[0] == row and st]
            if there:
                rows.append(f"Row {row}: " + "; ".join(f"{name(c)[1]}, {stack_words(st)}" for c, st in there) + ".")
            else:
                rows.append(f"Row {row}: empty.")
        return " ".join(rows)

    def _free(self, side: Side) -> list[tuple[Cell, Kind]]:
        """The side's pieces that nothing covers, and where they stand."""
        return [(cell, stack[-1][1]) for cell, stack in self.state.board if stack and stack[-1][0] is side]

    def _pieces(self, side: Side) -> str:
        free = [f"{k.word} at {cell_words(c)}" for c, k in self._free(side)]
        held = sum(1 for _, st in self.state.board for p in st[:-1] if p[0] is side)
        said = f"{side.value.capitalize()}'s free pieces: {', '.join(free) or 'none'}."
        return said + (f" {held} more {'is' if held == 1 else 'are'} covered." if held else "")

    def _moves_for(self, ask: Ask) -> str:
        assert ask.at is not None and ask.kind is not None
        cell = cell_named(*ask.at)
        if cell is None:
            return "There is no such cell."
        stack = self.state.stack(cell)
        if not stack or stack[-1][1] is not ask.kind:
            return f"At {ask.at[0]} {ask.at[1]} there is {stack_words(stack)}."
        moves = [m for m in legal_moves(self.state) if m.frm == cell]
        if stack[-1][0] is not self.state.to_move:
            return "That piece is not the side to move's."
        if not moves:
            return f"The {ask.kind.word} at {ask.at[0]} {ask.at[1]} has no move."
        said: dict[Cell, str] = {}  # a frog's jump and step to the same empty cell are one move
        for m in moves:
            if m.direction is not None:
                to = m.direction.step(cell, ask.kind.length if m.jump else 1)
                said.setdefault(to, f"{'jump' if m.jump else 'step'} {m.direction.words} to {cell_words(to)}")
        return f"The {ask.kind.word} at {ask.at[0]} {ask.at[1]} can " + ", ".join(said.values()) + "."

    def _threats(self) -> str:
        """The other side's pieces that could reach the mover's gate with their next move."""
        s = self.state
        mine = self.side if self.players == 1 else s.to_move
        theirs = State(s.board, mine.other, s.goal, s.moves, s.seen)
        found = []
        for m in legal_moves(theirs, passes=False):
            assert m.frm is not None and m.direction is not None
            kind = s.stack(m.frm)[-1][1]
            to = m.direction.step(m.frm, kind.length if m.jump else 1)
            if to[0] == mine.gate_row:
                found.append(f"the {kind.word} at {cell_words(m.frm)}, {'jumping' if m.jump else 'stepping'} "
                             f"{m.direction.words} to {cell_words(to)}")
        if not found:
            return "No piece of theirs can reach your gate next move."
        return "Threats to your gate: " + "; ".join(dict.fromkeys(found)) + "."


def resolve(s: State, order: Order) -> tuple[Move | None, str]:
    """The one move ``order`` means in ``s``, or why there is none (or more than one)."""
    jumps = (True, False) if order.jump is None else (order.jump,)
    if order.at is not None:
        cell = cell_named(*order.at)
        if cell is None:
            return None, f"There is no cell {order.at[0]} {order.at[1]}."
        stack = s.stack(cell)
        if not stack or stack[-1] != (s.to_move, order.kind):
            here = stack_words(stack)
            return None, f"At {order.at[0]} {order.at[1]} there is {here}, not {s.to_move.value}'s {order.kind.word} on top."
        candidates = [cell]
    else:
        candidates = [c for c, st in s.board if st and st[-1] == (s.to_move, order.kind)]
    fitting = []
    reasons = []
    for cell in candidates:
        for jump in jumps:
            move = Move(cell, order.direction, jump)
            why = problem(s, move)
            if not why:
                fitting.append(move)
                break
            reasons.append(why)
    if len(fitting) == 1:
        return fitting[0], ""
    if len(fitting) > 1:
        cells = [m.frm for m in fitting if m.frm is not None]
        places = " or ".join(f"at {cell_words(c)}" for c in cells)
        return None, f"Which {order.kind.word}: {places}? Say its place, like {cell_words(cells[0])}."
    if len(candidates) == 1 and reasons:
        return None, reasons[0]
    return None, f"No {order.kind.word} of yours can go {order.direction.words}."


def restore(record: object, cues: bool = True, detail: str = "normal") -> JumpersTable:
    if not isinstance(record, dict) or record.get("game") != "jumpers" or record.get("version") != SAVE_VERSION:
        raise RecordError(f"not a Jumpers record of version {SAVE_VERSION}")
    seed, side, level, goal, players, commands = (
        record.get(k) for k in ("seed", "side", "level", "goal", "players", "commands"))
    if (not isinstance(seed, int) or side not in ("south", "north") or level not in ("easy", "normal", "hard")
            or goal not in ("short", "long") or players not in (1, 2) or not isinstance(commands, list)):
        raise RecordError("the record's settings are not valid")
    computer = record.get("computer", [])
    if not isinstance(computer, list) or not all(isinstance(m, str) for m in computer):
        raise RecordError("the record's computer moves are not valid")
    try:
        table = JumpersTable(seed, Side(side), str(level), Goal(goal), int(players), cues, detail, list(computer))
        replay(table, commands)
    except (ValueError, IllegalMove) as err:
        raise RecordError(f"the record cannot be replayed: {err}") from None
    return table

